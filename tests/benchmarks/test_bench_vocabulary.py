"""The vocabularies keep planted signals unique: no stray references, definitions or anaphors."""
from __future__ import annotations

import itertools
import re

import pytest

from benchmarks.synth import prose
from benchmarks.synth.domains import DOMAINS
from benchmarks.synth.moves import GREEK
from benchmarks.synth.topics import TOPIC_TEMPLATES, TOPICS

_GENERAL_FIELDS = ("tops", "subs", "subjects", "preds", "conds", "metrics", "actions", "objects", "list_intros",
                   "list_items", "statements", "tasks", "components")


def _general_strings() -> list[tuple[str, str]]:
    """(where, text) of every string that ends up in prose that is not a planted signal."""
    out = []
    for name, dom in DOMAINS.items():
        for field in _GENERAL_FIELDS:
            out += [(f"{name}.{field}", s) for s in dom[field]]
        for title, alt in dom["figures"]:
            out += [(f"{name}.figures", title), (f"{name}.figures", alt)]
        for title, header, labels, specs in dom["tables"]:
            cells = [title, *header, *labels] + [v for spec in specs if spec[0] == "choice" for v in spec[1]]
            out += [(f"{name}.tables", c) for c in cells]
    out += [("prose.templates", t) for t in prose._TEMPLATES] + [("prose.overview", t) for t in prose.OVERVIEW]
    out += [("prose.term_uses", t) for t in prose.TERM_USES + prose.SYMBOL_USES]
    out += [("prose.ref_frames", f) for frames in prose.REF_FRAMES.values() for f in frames]
    for topic in TOPICS:
        out += [(f"topic.{topic['name']}", s) for s in topic["nouns"] + topic["sentences"]]
    out += [("topic.templates", t) for t in TOPIC_TEMPLATES]
    return out


GENERAL = _general_strings()


def _forms() -> list[tuple[str, bool, str]]:
    """(surface form, case sensitive, domain) of every term a document can define."""
    out = []
    for name, dom in DOMAINS.items():
        out += [(t, False, name) for t, _ in dom["terms"]]
        out += [(a[1], True, name) for a in dom["acronyms"]]
        out += [(h[1], True, name) for h in dom.get("legal_hereinafter", [])]
        out += [(m[0], True, name) for m in dom.get("legal_means", [])]
    return out + [(g, True, "symbols") for g in GREEK]


def _pat(form: str, case_sensitive: bool) -> re.Pattern:
    return re.compile(r"(?<!\w)" + re.escape(form) + r"(?!\w)", 0 if case_sensitive else re.IGNORECASE)


def test_the_vocabulary_is_large_enough_to_read_as_prose():
    assert len(DOMAINS) == 6 and len(TOPICS) >= 12
    assert len(GENERAL) > 1000


@pytest.mark.parametrize("word", prose.SHELL_NOUNS + ("result", "finding"))
def test_general_prose_never_uses_a_shell_noun(word):
    pat = re.compile(rf"\b{word}\b", re.IGNORECASE)
    assert [(w, s) for w, s in GENERAL if pat.search(s)] == []


def test_general_prose_has_no_demonstratives_or_subject_pronouns():
    pat = re.compile(r"\b(this|these|those|such|it|they)\b", re.IGNORECASE)
    assert [(w, s) for w, s in GENERAL if pat.search(s)] == []


def test_general_prose_names_no_unit_and_defines_nothing():
    refs = re.compile(r"\b(Sections?|Figures?|Fig\.|Tables?|Tab\.|Equations?|Eq\.|Theorem|Lemma|Proposition|"
                      r"Corollary|Definition|Appendix)\s+[\dA-Z(]|§")
    cues = re.compile(r"\b(define[sd]?|denoted|means|hereinafter)\b|[()\[\]]", re.IGNORECASE)
    frames = {s for w, s in GENERAL if w == "prose.ref_frames"}
    assert [(w, s) for w, s in GENERAL if refs.search(s) and s not in frames] == []
    assert [(w, s) for w, s in GENERAL if cues.search(s)] == []


def test_no_general_string_contains_a_defined_term():
    hits = [(form, w, s) for form, cs, _ in _forms() for w, s in GENERAL if _pat(form, cs).search(s)]
    assert hits == []


def test_defined_forms_never_match_inside_one_another():
    forms = _forms()
    clashes = [(a, b) for (a, cs, _), (b, _, _) in itertools.permutations(forms, 2) if _pat(a, cs).search(b)]
    assert clashes == []


def test_formulas_use_no_greek_letter_but_their_own_symbol():
    for dom in DOMAINS.values():
        for _np, _rest, formula in dom["symbols"]:
            assert not set(formula) & set(GREEK), formula
