"""Property suite for both writers (hypothesis): random valid operations on real corpus documents,
written as tracked changes; accepting them all reads as the edited model, rejecting them all as
the original (:func:`tests.fuzz.operations.round_trip`)."""
from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters import read
from adapters.errors import AnchorError
from tests.fuzz.operations import concrete, random_edits, round_trip
from tests.fuzz.seeds import seed_paths


@functools.lru_cache(maxsize=None)
def _documents(suffix: str) -> tuple:
    return tuple((p.name, p.read_bytes(), read(p.read_bytes())) for p in seed_paths() if p.suffix == suffix)


@pytest.mark.parametrize("suffix", [".docx", ".odt"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_accept_all_is_the_edit_and_reject_all_the_original(suffix, data):
    docs = _documents(suffix)
    if not docs:
        pytest.skip("no corpus")
    name, original, doc = docs[data.draw(st.integers(0, len(docs) - 1), label="document")]
    edits = concrete(doc, random_edits(doc, lambda lo, hi: data.draw(st.integers(lo, hi))))
    if not edits:
        return
    try:
        round_trip(original, doc, edits)
    except AnchorError:  # a writer's documented refusal (fields, notes): a 409 to the client
        pass
