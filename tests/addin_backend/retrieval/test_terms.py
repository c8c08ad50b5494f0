"""The words one of which every use of a defined term holds (:func:`retrieval.terms.needles`):
a text without them is not searched, so they must never skip a text the term's usage pattern
matches, whatever the case, the irregular plural or the letters that ``re`` folds to ASCII."""
from __future__ import annotations

import re

import pytest

from adapters import read_path
from addin_backend.graph.definitions import usage_pattern
from addin_backend.retrieval import terms as T
from tests.conftest import DEVSET_DOCS, corpus_file


def _holds_one(needles: list[str], text: str) -> bool:
    folded = T._fold(text)
    return any(n in folded for n in needles)


@pytest.mark.parametrize("path", [DEVSET_DOCS / "rfc9002.A.docx", corpus_file("collection.odt")],
                         ids=lambda p: p.name)
def test_needles_skip_no_unit_that_uses_a_term(path):
    doc = read_path(path)
    index = T.term_index(doc, None)
    assert len(index) >= 8
    skipped = used = 0
    for term, kind, case_sensitive, _uid, _span in index:
        pattern = usage_pattern(term, kind, case_sensitive)
        needles = T.needles(pattern)
        assert needles, term
        for unit in doc.units:
            if _holds_one(needles, unit.text):
                used += bool(pattern.search(unit.text))
            else:
                skipped += 1
                assert not pattern.search(unit.text), (term, needles, unit.id)
    assert used > 0 and skipped > used  # most texts are skipped, and uses were found


@pytest.mark.parametrize("term, text", [
    ("criterion", "two criteria apply"), ("person", "the people involved"), ("index", "all indices"),
    ("analysis", "the analyses"), ("Data", "Application Data"), ("ID", "their IDs"),
    ("list", "THE L\u0130ST"), ("list", "a l\u0131st"), ("state", "the \u017ftate"), ("key", "the \u212aEY"),
])
def test_every_form_and_case_the_pattern_matches_holds_a_needle(term, text):
    pattern = usage_pattern(term, "term", term[0].isupper())
    if term in ("list", "state", "key"):  # letters outside ASCII that re matches to ASCII ones
        pattern = re.compile(pattern.pattern, pattern.flags | re.I)
    assert pattern.search(text)
    assert _holds_one(T.needles(pattern) or [], text)


def test_needles_are_what_every_match_holds_or_none():
    assert T.needles(re.compile(r"\w+ING", re.I)) == ["ing"]
    assert T.needles(re.compile(r"(?:x\d)+yz")) == ["yz"]
    assert T.needles(re.compile(r"(?:ab|[0-9])c?")) is None
    assert T.needles(re.compile(r"[a-z]+")) is None


def test_terms_in_answers_the_same_from_known_usages(monkeypatch):
    """A process handed the usages (the command line's kept ones) answers as one that made them,
    without building a usage pattern."""
    from addin_backend.graph import definitions

    doc = read_path(corpus_file("collection.odt"))
    text = "Shorten the official version and the Christmas specials"
    monkeypatch.setattr(T, "_usages", {})
    made = T.terms_in(doc, None, text)
    assert {h.term for h in made} == {"official version", "Christmas special"}
    usages = T.known()
    monkeypatch.setattr(T, "_usages", {})

    def no_pattern(*_args, **_kwargs):
        raise AssertionError("a usage pattern was built though one was handed in")

    monkeypatch.setattr(definitions, "usage_pattern", no_pattern)
    T.remember(usages)
    assert T.terms_in(doc, None, text) == made
