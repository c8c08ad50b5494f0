"""One clause-number pattern (``adapters.label_grammar.clause_number``), spec
``tests/vectors/clause_numbers.json``, and every reader of clause numbers giving its answers."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adapters.label_grammar import CLAUSE_NUMBER, clause_number, heading_number
from adapters.model import Unit
from adapters.typed_numbers import typed_section
from addin_backend import outline
from addin_backend.edits.rules import title_span
from addin_backend.graph import mentions

VECTORS = json.loads((Path(__file__).resolve().parents[1] / "vectors" / "clause_numbers.json").read_text(encoding="utf-8"))
NUMBERS = VECTORS["numbers"]
HEADINGS = VECTORS["headings"]
PATTERNS = {"clause": CLAUSE_NUMBER, "no_decimal": clause_number(3, 7), "dotted": clause_number(2, 7),
            "with_letters": clause_number(suffix=True)}


@pytest.mark.parametrize("case", NUMBERS, ids=lambda c: c["text"])
def test_the_patterns_follow_the_vectors(case):
    assert {name: bool(re.fullmatch(rx, case["text"])) for name, rx in PATTERNS.items()} == \
        {name: case[name] for name in PATTERNS}


def test_every_pattern_is_told_apart_by_the_vectors():
    """Each pattern accepts some vectors and refuses others, and no two answer alike (else a
    vector set checks nothing of one)."""
    answers = {name: tuple(c[name] for c in NUMBERS) for name in PATTERNS}
    assert all(any(a) and not all(a) for a in answers.values()) and len(set(answers.values())) == len(PATTERNS)


@pytest.mark.parametrize("case", HEADINGS, ids=lambda c: c["text"])
def test_heading_numbers_follow_the_vectors(case):
    got = heading_number(case["text"])
    assert (got[0] if got else None) == case["number"]


@pytest.mark.parametrize("case", NUMBERS, ids=lambda c: c["text"])
def test_the_readers_of_clause_numbers_give_the_same_answer(case):
    text = case["text"]
    # the outline: a list item's number that makes it a clause
    assert bool(outline._LIST_NUMBER.fullmatch(text)) is case["clause"]
    # the graph: numbers after a cue ("see 5.2.1") and after a preposition, without a label word
    assert bool(re.fullmatch(mentions._BARE_ITEM.pattern, text)) is case["dotted"]
    assert bool(re.fullmatch(mentions._DEEP_NUM, text)) is case["no_decimal"]
    # the graph: a table cell of section numbers
    assert bool(re.fullmatch(mentions._CELL_NUM, text)) is case["with_letters"]


@pytest.mark.parametrize("case", [c for c in HEADINGS if c["number"] and c["text"].strip() != c["number"]],
                         ids=lambda c: c["text"])
def test_a_typed_heading_number_is_cut_off_its_title_the_same_way_everywhere(case):
    text = case["text"]
    number, _label, title = typed_section(text)
    assert number == case["number"]
    heading = Unit("s", "section", text, 0, number=number)  # no title of its own: the rules engine reads the text
    start, end = title_span(heading)
    assert text[start:end] == title
