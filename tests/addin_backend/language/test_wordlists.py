"""One answer to "is this an English word" (``tests/vectors/english_words.json``), asked of
every user of the concept."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from addin_backend.language import identifiers, wordlists
from addin_backend.language.wordlists import ENGLISH_WORD_SOURCES, english_word, is_english_word

ROOT = Path(__file__).resolve().parents[3]
VECTORS = json.loads((ROOT / "tests" / "vectors" / "english_words.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: c["word"])
def test_english_word_follows_the_vectors(case):
    assert english_word(case["word"]) == case["source"]
    assert is_english_word(case["word"]) is (case["source"] is not None)


def test_the_vectors_reach_every_list_and_words_none_knows():
    """A vector set that never reached a list (or never said no) would check nothing of it."""
    assert {c["source"] for c in VECTORS} == {*ENGLISH_WORD_SOURCES, None}


def test_the_lists_are_asked_in_their_documented_order():
    """A word two lists know is the first one's: 'setup' is in the dictionaries and the lexicon."""
    assert "setup" in wordlists.dictionary() and wordlists.word_classes("setup")
    assert english_word("setup") == "dictionary"
    assert "endpoint" not in wordlists.dictionary() and english_word("endpoint") == "lexicon"


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: c["word"])
def test_the_identifier_layer_gives_the_same_answer(case):
    # a quoted value is an identifier exactly when it is no English word
    assert identifiers._plain_word(case["word"]) is (case["source"] is not None)


def test_nlp_and_wordlists_name_one_lexicon_without_loading_spacy():
    code = ("import sys; from addin_backend.language import nlp, wordlists; "
            "print(nlp.get_lexicon() is wordlists.get_lexicon(), nlp.models_loaded()['lexicon'], "
            "nlp.word_classes is wordlists.word_classes, "
            "sorted(m for m in ('spacy', 'thinc', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True True True []"
