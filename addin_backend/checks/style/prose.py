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
from ...graph.related import is_reference_entry, reference_list_sections
from ...language.detect import unit_language
from ...language.identifiers import identifier_spans, is_code_line, shape_spans

__all__ = ["Prose", "prose", "make_finding", "finding_id", "SENTENCE_KINDS", "word_cases", "known_word",
           "protected_spans", "untouchable", "drop_untouchable"]

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


#: Quotations: someone else's words (a cited title, a quoted sentence); of four words or more,
#: no check reads them and no fix rewrites them.
_QUOTATION = re.compile(
    r"\"[^\"\n]{1,300}\"|\u201c[^\u201d\n]{1,300}\u201d|\u201e[^\u201c\u201d\n]{1,300}[\u201c\u201d]"
    r"|\u00ab[^\u00bb\n]{1,300}\u00bb"
    r"|(?<![\w\u2019])\u2018[^\u2018\u2019\n]{1,300}\u2019(?!\w)"  # single curly quotes: 'the key (e.g., \u2018MD5 hash - v1\u2019)'
)
_QUOTE_MARKS = "\"\u201c\u201e\u00ab\u2018"


def _quotations(text: str) -> list[tuple[int, int]]:
    """The words of each quotation of four words or more (not the marks: the quote style may
    change those); a quoted term or value ('"Data-set" means ...') is the document's own word."""
    if not any(c in text for c in _QUOTE_MARKS):
        return []
    return [(m.start() + 1, m.end() - 1) for m in _QUOTATION.finditer(text) if len(m.group().split()) >= 4]


def protected_spans(text: str, unit: Unit | None = None, doc: Document | None = None) -> list[tuple[int, int]]:
    """The ``(start, end)`` spans of ``text`` that are not prose to check or fix, left to right:
    identifiers (URIs, media types, file names, code, element and attribute names, options,
    property names: :mod:`addin_backend.language.identifiers`) and quotations of four words or
    more. Given the ``unit`` (whose text ``text`` is) and its ``doc``, what the document says
    counts too: the spans written in a code style, and the names it writes as code elsewhere.

    >>> t = "A multipart/byteranges body; see <https://example.com/a> and `max_ack_delay`."
    >>> [t[s:e] for s, e in protected_spans(t)]
    ['multipart/byteranges', '<https://example.com/a>', '`max_ack_delay`']
    >>> t = 'as ' + chr(34) + 'the Hitch Hiker Guide' + chr(34) + ' says, /etc/hosts or index.html'
    >>> [t[s:e] for s, e in protected_spans(t)]
    ['the Hitch Hiker Guide', '/etc/hosts', 'index.html']
    >>> t = "The attribute manifest:initialisation-vector, the option --safe and FILEVERSION."
    >>> [t[s:e] for s, e in protected_spans(t)]
    ['manifest:initialisation-vector', '--safe', 'FILEVERSION']
    """
    found = identifier_spans(unit, doc) if unit is not None and unit.text == text else shape_spans(text)
    return sorted([(i.start, i.end) for i in found] + _quotations(text))


def untouchable(doc: Document, uid: str, start: int, end: int, replacement: str | None = None,
                _cache: dict | None = None) -> str | None:
    """Why a fix must not rewrite ``doc``'s unit ``uid`` from ``start`` to ``end`` (``None``: it
    may): the unit is a code or grammar line, or the place lies in an identifier (what the
    document writes as code, a URI, a media type, a file name, an element or attribute name, an
    option: :mod:`addin_backend.language.identifiers`) or a quotation, or it is a dictionary word
    the replacement would split, hyphenate or join ("worldwide" -> "world wide")."""
    try:
        u = doc.unit(uid)
    except Exception:
        return None
    if u.kind in ("paragraph", "list_item") and is_code_line(u):
        return "a code or grammar line"
    key = (uid, u.text)
    spans = _cache.get(key) if _cache is not None else None
    if spans is None:
        spans = [(i.start, i.end, f"an identifier: '{i.text}' ({i.why})") for i in identifier_spans(u, doc)]
        spans += [(a, b, "a quotation") for a, b in _quotations(u.text)]
        if _cache is not None:
            _cache[key] = spans
    for a, b, why in spans:
        if a < end and start < b or (start == end and a <= start < b):
            return why
    if replacement is not None:
        old = u.text[start:end]
        if _resplit(old, replacement):
            return "a dictionary word"
    return None


def _resplit(old: str, new: str) -> bool:
    """Whether ``new`` writes the dictionary word ``old`` as several words or hyphenated (or
    joins a dictionary word's parts: only the spacing and hyphens differ and ``old`` is a word).

    >>> _resplit("worldwide", "world wide"), _resplit("on-line", "online"), _resplit("colour", "color")
    (True, False, False)
    >>> _resplit("http", "Http")  # a change of case only: for the checks of case to judge
    False
    """
    from ...language.wordlists import dictionary_word

    def squash(x: str) -> str:
        return re.sub(r"[\s\-\u2010\u2011]+", "", x)

    if old == new or squash(old) != squash(new) or not squash(old):
        return False
    one = old.strip()
    return " " not in one and "-" not in one and dictionary_word(one)


def drop_untouchable(doc: Document, findings: list[Finding]) -> list[Finding]:
    """``findings`` without the places no fix may rewrite (:func:`untouchable`); a finding whose
    every place is one is dropped (it spoke of a name, a literal or code, not of prose)."""
    cache: dict = {}
    out = []
    for f in findings:
        if not f.places:
            out.append(f)
            continue
        keep = [pl for pl in f.places if untouchable(doc, pl.unit, pl.start, pl.end, pl.replacement, cache) is None]
        if not keep:
            continue
        if len(keep) != len(f.places):
            first = keep[0]
            f.places = keep
            f.unit, f.start, f.end = first.unit, first.start, first.end
            if f.suggestion == f.places[0].replacement or f.suggestion is None:
                f.suggestion = first.replacement
        out.append(f)
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
