"""The one word-level diff both writers use: tokens, word changes, atoms kept whole, lines."""
from __future__ import annotations

import pytest

from adapters.textdiff import line_changes, tokenize, word_changes


def test_tokens_are_words_blanks_and_single_punctuation():
    # words as adapters.words cuts them (the pane and the bridge do the same): "It's" and "3.5"
    # are one word each; a dash between words is punctuation
    assert tokenize("It's 3.5 km—far!") == ["It's", " ", "3.5", " ", "km", "—", "far", "!"]
    assert tokenize("e\u0301te\u0301 a--b -5") == ["e\u0301te\u0301", " ", "a", "-", "-", "b", " ", "-", "5"]
    assert "".join(tokenize("  two  spaces\tand\u2028breaks ")) == "  two  spaces\tand\u2028breaks "


@pytest.mark.parametrize(
    "old, new, changes",
    [
        ("the cat sat", "the dog sat", [(4, 7, "dog")]),
        ("the cat sat", "the cat sat down", [(11, 11, " down")]),
        ("the big cat", "the cat", [(4, 8, "")]),
        ("Colour, colour.", "Color, colour!", [(0, 6, "Color"), (14, 15, "!")]),
        ("same", "same", []),
        # a changed compound, contraction or decimal is one whole-word change, as the pane marks it
        ("a 30-day term", "a 60-day term", [(2, 8, "60-day")]),
        ("we don't pay", "we can't pay", [(3, 8, "can't")]),
        ("rate 3.5 %", "rate 3.75 %", [(5, 8, "3.75")]),
        ("l'homme et la femme", "l'enfant et la femme", [(0, 7, "l'enfant")]),
    ],
)
def test_word_changes_are_minimal_and_word_sized(old, new, changes):
    assert word_changes(old, new) == changes
    out, pos = [], 0
    for start, end, text in changes:
        out.append(old[pos:start] + text)
        pos = end
    assert "".join(out) + old[pos:] == new


def test_line_changes_never_cross_a_line():
    assert line_changes("a b\nc d", "a x\nc d y") == [(2, 3, "x"), (7, 7, " y")]
    with pytest.raises(ValueError):
        line_changes("a\nb", "a b")


def test_atoms_are_one_token_and_are_kept_or_replaced_whole():
    old = "see {PAGE} and [12] now"
    atoms = [(4, 10), (15, 19)]
    assert tokenize(old, atoms) == ["see", " ", "{PAGE}", " ", "and", " ", "[12]", " ", "now"]
    # without atoms the citation's digits would be a change of their own; with atoms it goes whole
    assert word_changes(old, "see {PAGE} and [13] now") == [(16, 18, "13")]
    assert word_changes(old, "see {PAGE} and [13] now", atoms=atoms) == [(15, 19, "[13]")]
    # an atom found again in the new text matches whole; the offset shifts only the result
    assert word_changes(old, "see {PAGE} or [12] now", 100, atoms) == [(111, 114, "or")]
