"""One function-word lexicon with named subsets (``tests/vectors/function_words.json``), and its
users giving its answers."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from addin_backend.edits import renaming, terms
from addin_backend.edits.terms import TermMatcher
from addin_backend.language.lexicon import SUBSETS, function_words, is_function_word

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "vectors" / "function_words.json").read_text(
    encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: f"{c['lang']}:{c['word']}")
def test_the_subsets_follow_the_vectors(case):
    assert [s for s in SUBSETS if is_function_word(case["word"], s, lang=case["lang"])] == case["subsets"]


def test_the_vectors_reach_every_subset():
    assert {s for c in VECTORS for s in c["subsets"]} == set(SUBSETS)


def test_joined_subsets_are_their_parts():
    assert function_words("determiners") == function_words("articles", "demonstratives", "possessives", "quantifiers")
    assert function_words("conjunctions") == function_words("coordinators", "subordinators")
    assert function_words() == function_words(*SUBSETS)
    with pytest.raises(ValueError, match="no subset"):
        function_words("adverbs")


def test_renames_and_expansions_read_the_lexicons_small_words():
    assert terms._SMALL == renaming._SMALL_WORDS == function_words("title_minor")
    # a renamed term written in title case keeps the lexicon's small words in lower case
    found = TermMatcher("widget", "gadget through the door").find("The Widget Manual")
    assert [o.replacement for o in found] == ["Gadget through the Door"]
    # an expansion's preposition gives no initial
    assert renaming.initials_fit("CTD", "Control through Data")
