"""What the house-style checks read, and how they report: the document's prose units, each with
its language, and findings with every place they occur.

Prose is what an editor edits: paragraphs, list items, headings, captions, notes, table cells.
Code and preformatted lines, ASCII art, reference-list entries, notes that cite a source and
units deleted by a pending tracked change are not prose (a reference entry cites another document's title as written). A
check that reads sentences also skips tables (cells are fragments).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Iterable

from adapters.model import Document, Unit

from ...findings import Finding, Place
from ...graph.related import is_code_line, is_reference_entry, reference_list_sections
from ...language.detect import unit_language

__all__ = ["Prose", "prose", "make_finding", "finding_id", "SENTENCE_KINDS", "word_cases", "known_word"]

#: Units whose text is sentences (tables are cells; titles and headings are not sentences).
SENTENCE_KINDS = frozenset({"paragraph", "list_item", "footnote", "endnote", "caption"})


@dataclass
class Prose:
    """The prose units of a document in order, with their languages (``unit id -> "en"``)."""

    doc: Document
    units: list[Unit]
    lang: dict[str, str]

    def english(self, u: Unit) -> bool:
        return self.lang.get(u.id) == "en"

    def sentences(self) -> list[Unit]:
        return [u for u in self.units if u.kind in SENTENCE_KINDS]

    def languages(self) -> set[str]:
        return set(self.lang.values())

    _cases: "tuple[frozenset[str], frozenset[str]] | None" = None


_INNER = re.compile(r"(?<=[a-z,;] )([^\W\d_]+)")
_ANY = re.compile(r"(?<![\w\-])([^\W\d_]+)")


def known_word(word: str) -> bool:
    """Whether ``word`` is an English word (the lemmatizer's tables or the common words), not an
    identifier written in lower case ("rttvar", "cwnd").

    >>> known_word("handshake"), known_word("speeding"), known_word("rttvar")
    (True, True, False)
    """
    from ...language.nlp import common_words, word_classes

    low = word.lower()
    return low in common_words() or bool(word_classes(low))


def word_cases(p: Prose) -> tuple[frozenset[str], frozenset[str]]:
    """``(lower, names)``: the words the document writes in lower case (lower-cased), and those it
    capitalises inside sentences and never writes in lower case (names: "QUIC", "Alice")."""
    if p._cases is not None:
        return p._cases
    lower: set[str] = set()
    inner: set[str] = set()
    for u in p.sentences():
        for m in _INNER.finditer(u.text):
            w = m.group(1)
            if not w.islower():
                inner.add(w.lower())
        for m in _ANY.finditer(u.text):
            if m.group(1).islower():
                lower.add(m.group(1))
    p._cases = (frozenset(lower), frozenset(inner - lower))
    return p._cases


#: A note that cites a source: a retrieval date, an ISBN, a DOI, a URL, pages or a volume.
_CITATION = re.compile(r"\b(?:Retrieved|Accessed|ISBN|doi:|DOI|Vol\.|pp?\.\s*\d)|https?://|\(\d{4}(?:-\d\d){0,2}\)")

_LAST: list[tuple[tuple, Prose]] = []  # the last document read: its checks share one reading


def prose(doc: Document) -> Prose:
    """The prose units of ``doc`` (cached while its texts do not change)."""
    key = (id(doc), tuple((u.id, u.text) for u in doc.units))
    if _LAST and _LAST[0][0] == key and _LAST[0][1].doc is doc:
        return _LAST[0][1]
    lists = reference_list_sections(doc)
    units = []
    for u in doc.units:
        if not u.text or not u.text.strip() or u.meta.get("absent_in") == "accepted" or u.kind in ("figure", "equation"):
            continue
        if u.kind in ("paragraph", "list_item") and (is_code_line(u) or is_reference_entry(u, u.parent in lists)):
            continue
        if u.kind in ("footnote", "endnote") and _CITATION.search(u.text):
            continue
        if u.parent in lists and u.kind != "section":
            continue
        units.append(u)
    out = Prose(doc, units, {u.id: unit_language(u, doc) for u in units})
    _LAST[:] = [(key, out)]
    return out


def finding_id(kind: str, places: Iterable[Place], evidence: str = "") -> str:
    """A finding's id: the same kind and places give the same id (``f-`` and 10 hex digits).

    >>> finding_id("quote_style", [Place("p-1", 3, 4, '"', "\u201c")])
    'f-412166918f'
    """
    h = hashlib.blake2b(digest_size=5)
    h.update(kind.encode())
    h.update(evidence.encode("utf-8"))
    for p in places:
        h.update(f"\0{p.unit}\0{p.start}\0{p.end}".encode())
    return "f-" + h.hexdigest()


def make_finding(kind: str, severity: str, places: list[Place], message: str, *, evidence: str | None = None,
                 suggestion: str | None = None, rule: str | None = None, related: Iterable[str] = ()) -> Finding:
    """A finding about ``places`` (the first is where it is shown; the other units are ``related``)."""
    first = places[0]
    rel = list(dict.fromkeys([*(p.unit for p in places[1:] if p.unit != first.unit), *related]))
    rel = [r for r in rel if r != first.unit]
    ev = first.text if evidence is None else evidence
    return Finding(kind, severity, first.unit, message, ev, rel[:20], first.start, first.end,
                   suggestion if suggestion is not None else first.replacement, places=list(places), rule=rule,
                   id=finding_id(kind, places, ev))
