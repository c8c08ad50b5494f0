"""The one text normaliser against its specification, tests/vectors/normalise.json.

Each vector is ``{"note": why, "text": ..., "squash": ..., "loose": ...}``. The task pane
(tests/js/vectors.test.mjs) and the LibreOffice bridge (tests/clients/test_bridge_client.py)
run the ``squash`` column against their own copies.
"""
from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.text import DASHES, INVISIBLE, QUOTES, SPACE, loose, loose_pattern, squash

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "vectors" / "normalise.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", VECTORS, ids=[c["note"] for c in VECTORS])
def test_vectors(case):
    assert set(case) == {"note", "text", "squash", "loose"}
    assert squash(case["text"]) == case["squash"]
    assert loose(case["text"]) == case["loose"]


def test_the_white_space_class_is_unicodes_white_space_property():
    # Unicode's White_Space: Python's str.isspace() minus the information separators U+001C..U+001F
    import re

    rx = re.compile(f"[{SPACE}]")
    for cp in range(0x3001):
        c = chr(cp)
        assert bool(rx.fullmatch(c)) == (c.isspace() and not "\x1c" <= c <= "\x1f"), hex(cp)


def test_the_tables_map_one_character_to_one_so_offsets_survive():
    for table in (QUOTES, DASHES):
        assert all(len(v) == 1 for v in table.values())
    assert all(unicodedata.category(c) == "Cf" for c in INVISIBLE)  # format characters, none visible


@pytest.mark.parametrize(
    "wanted, text, span",
    [
        ("don't  stop - now", "We don\u2019t stop \u2013\u00a0now.", (3, 19)),  # quotes, dashes, any white space
        ('the "Agreement"', "under the \u201eAgreement\u201c here", (6, 21)),  # German quotes
        ("  Section 2.1 ", "see Section\u00a02.1.", (4, 15)),  # the typed text's own edge spaces do not count
        ("a.b", "aXb a.b", (4, 7)),  # a full stop is a full stop, not a wildcard
    ],
)
def test_loose_pattern_finds_typed_text_at_the_documents_offsets(wanted, text, span):
    m = loose_pattern(wanted).search(text)
    assert m is not None and m.span() == span
    assert loose(text[slice(*span)]) == loose(wanted)


def test_loose_pattern_ignores_case_only_when_asked():
    assert loose_pattern("section 2").search("See Section 2") is None
    assert loose_pattern("section 2", ignore_case=True).search("See Section 2").span() == (4, 13)


_TEXT = st.text(alphabet=st.one_of(
    st.sampled_from("aßé \n\t\u00a0\u000b\u2028\u00ad\u200b\u0301\u2019\u201c\u2013-'\"\u001f"),
    st.characters(codec="utf-8"),
), max_size=40)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_squash_is_idempotent_and_leaves_no_white_space_run(text):
    once = squash(text)
    assert squash(once) == once
    assert "  " not in once and once == once.strip(" ")
    assert not any(c in INVISIBLE for c in once)
    assert loose(once) == loose(text)
