"""The word tokenizer against its specification, tests/vectors/words.json.

Each vector is ``{"note": why, "text": ..., "words": [[start, end], ...]}`` with offsets in code
points. The same file is meant for the task pane's and the LibreOffice bridge's tokenizers.
"""
from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters import words
from adapters._marks import MARKS, generate

VECTORS = json.loads((Path(__file__).resolve().parent.parent / "vectors" / "words.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", VECTORS, ids=[c["note"] for c in VECTORS])
def test_vectors(case):
    got = [list(s) for s in words.spans(case["text"])]
    assert got == case["words"], [case["text"][a:b] for a, b in got]
    assert words.words(case["text"]) == [case["text"][a:b] for a, b in case["words"]]


def test_vectors_are_well_formed():
    for case in VECTORS:
        assert set(case) <= {"note", "text", "words"}
        ends = [x for s in case["words"] for x in s]
        assert ends == sorted(ends) and all(0 <= x <= len(case["text"]) for x in ends)


def test_the_marks_table_matches_this_python():
    assert MARKS == generate()


_JOINERS = "'\u2019.,\u00b7\u00ad\u200c\u200d\u05f3\u05f4\u2010\u2011-"
_TEXT = st.text(alphabet=st.one_of(
    st.sampled_from("aßéüж日 \n\t.,-'’\u00ad\u0301§%0123456789"),
    st.characters(codec="utf-8"),
), max_size=60)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_no_word_is_cut_and_nothing_outside_is_a_word_character(text):
    spans = words.spans(text)
    covered = [False] * len(text)
    for a, b in spans:
        assert b > a
        assert words.is_word_char(text[a]) and words.is_word_char(text[b - 1])
        # a word never stops in the middle of a run of word characters
        assert a == 0 or not words.is_word_char(text[a - 1])
        assert b == len(text) or not words.is_word_char(text[b])
        for i in range(a, b):
            covered[i] = True
    for i, c in enumerate(text):
        if not covered[i]:
            assert not words.is_word_char(c)
        elif not words.is_word_char(c):
            assert c in _JOINERS  # inside a word only a joiner is not a word character


def test_word_characters_are_letters_digits_and_marks():
    for c in "aZßéЖλ日ก٣²_\u0301\u093f":
        assert words.is_word_char(c), (c, unicodedata.name(c))
    for c in " -.,'§%€\u00ad\u2011\u200c":
        assert not words.is_word_char(c), unicodedata.name(c)


def test_fold_compares_spellings():
    assert words.fold("Daten\u00adbank") == words.fold("datenbank")
    assert words.fold("E\u2011Mail") == words.fold("e-mail")
    assert words.fold("it\u2019s") == "it's"
