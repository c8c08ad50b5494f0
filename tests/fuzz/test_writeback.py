"""The parts LEDGER writes back, fuzzed (issue 33, item 8): a short, repeatable run in the suite.

Mutations of real parts (:mod:`.writeback`: Word's ``comments.docx`` and LibreOffice's
``dormeur.odt``, each carrying a review record) go through an apply's steps; every outcome is a
written file or a clear :class:`~adapters.errors.AdapterError`, never another exception (a 500).
``python -m tests.fuzz.run --targets writeback`` explores the same parts with atheris, longer.
"""
from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from .writeback import mutate, seeds, write_back

CASES = 240


def test_mutated_write_back_parts_give_a_result_or_a_clear_error():
    docs = seeds()
    if not docs:
        pytest.skip("no corpus to seed from")
    rng = random.Random(33)
    outcomes: Counter[str] = Counter()
    defects = []
    started = time.process_time()
    for case in range(CASES):
        name, data = docs[case % len(docs)]
        mutated = mutate(name, data, rng)
        try:
            outcomes[write_back(mutated)] += 1
        except Exception as exc:  # a defect: anything but a clear error
            defects.append((case, name, f"{type(exc).__name__}: {exc}"[:300]))
    print(f"{CASES} cases in {time.process_time() - started:.1f} CPU s: {dict(outcomes)}")
    assert not defects, defects[:10]
    # the run reaches both ends: files written back and documents refused
    assert outcomes["written"] >= CASES // 10 and sum(outcomes.values()) - outcomes["written"] >= CASES // 10, outcomes

