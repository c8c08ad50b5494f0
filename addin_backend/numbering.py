"""The numbering of a document's sequences, before and after an edit.

Figures, tables, equations and listings are numbered by their captions in document order, one
sequence per kind; sections by heading hierarchy (appendices by letter); theorem-like statements
per kind, or with one counter shared by all kinds when the document does that. A sequence is
renumbered only when its current numbers are exactly what its scheme gives in document order
(flat 1, 2, 3; per chapter 2.1, 2.2, 3.1; hierarchical 1, 1.1, 1.2, 2, A, A.1): a document whose
numbers follow some other logic is left alone (and says so), never "corrected" by guesswork.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from adapters.label_grammar import FAMILIES, canonical_label, label_word, parse_label
from adapters.label_grammar import heading_number as typed_number
from adapters.labels import caption_label, leading_label
from adapters.model import Document, Field, Unit

from .graph.label_index import unit_keys
from .outline import clauses, level
from adapters.vocabulary import FLOAT_KINDS, TEXT_KINDS

__all__ = [
    "CAPTION_FAMILIES",
    "STATEMENT_FAMILIES",
    "Entry",
    "Renumbering",
    "collect_entries",
    "detect_schemes",
    "renumber",
    "unit_key",
    "label_of",
    "number_span",
    "shown_entry",
    "shown_number",
]

CAPTION_FAMILIES = ("figure", "table", "equation", "listing")
STATEMENT_FAMILIES = tuple(f for f in FAMILIES if f != "section" and f not in CAPTION_FAMILIES)
_SHARED = "statement"  # the sequence name when all statement kinds share one counter


def label_of(family: str, number: str, word: str | None = None) -> str:
    """The label a reader prints: ``label_of("figure", "3") == "Figure 3"``, in ``word`` when
    the document has one for it (:func:`adapters.label_grammar.canonical_label`).

    >>> label_of("section", "A"), label_of("equation", "2"), label_of("lemma", "1"), label_of("figure", "2", "Abbildung")
    ('Appendix A', 'Equation (2)', 'Lemma 1', 'Abbildung 2')
    """
    return canonical_label(family, number, word)


def unit_key(unit: Unit) -> tuple[str, str] | None:
    """The ``(family, number)`` a unit carries as a member of a numbered sequence, if any."""
    if unit.kind in ("footnote", "endnote", "title"):
        return None
    for (fam, num), _rank in unit_keys(unit):
        if unit.kind == "section":
            if fam == "section":
                return fam, num
        elif unit.kind in ("caption", *FLOAT_KINDS):
            if fam != "section":
                return fam, num
        elif unit.kind in TEXT_KINDS and fam in STATEMENT_FAMILIES:
            return fam, num
    if unit.kind == "section" and unit.number:  # a number spelled with its word ("Appendix A")
        parsed = parse_label(unit.number)
        if parsed and parsed[0] == "section":
            return parsed
    return None


@dataclass
class Entry:
    """One numbered thing: a figure with its caption, a section, a theorem.

    ``carrier`` is the unit whose presence makes the number (the caption of a figure: delete the
    caption and the figure has no number; the unit itself otherwise). ``depth`` and ``appendix``
    describe section numbers ("A.2": depth 2 in the appendix sequence). ``word`` is the word the
    document labels it with ("Abbildung", "Clause"), so its new label reads the same way.
    """

    family: str
    number: str | None
    units: list[str]
    carrier: str
    roles: set[str] = field(default_factory=set)
    depth: int = 1
    appendix: bool = False
    inserted: bool = False
    word: str | None = None

    @property
    def key(self) -> tuple[str, str | None]:
        return self.family, self.number

    @property
    def label(self) -> str:
        return label_of(self.family, self.number or "?", self.word)


def _role(unit: Unit) -> str:
    if unit.kind == "caption":
        return "caption"
    return "object" if unit.kind in FLOAT_KINDS else "self"


def _section_shape(number: str) -> tuple[int, bool]:
    parts = number.split(".")
    return len(parts), parts[0].isalpha()


def collect_entries(doc: Document) -> list[Entry]:
    """The numbered entries of ``doc`` in document order (notes excluded).

    A figure (table, equation) and its caption join one entry when they carry the same number
    and nothing of that family comes between them.
    """
    out: list[Entry] = []
    last: dict[str, Entry] = {}
    listed = _list_clauses(doc)
    for u in doc.body():
        key = unit_key(u) or listed.get(u.id)
        if key is None:
            continue
        fam, num = key
        role = _role(u)
        prev = last.get(fam)
        if prev is not None and prev.number == num and role != "self" and role not in prev.roles:
            prev.units.append(u.id)
            prev.roles.add(role)
            if role == "caption":
                prev.carrier = u.id
                prev.word = _word(u, fam) or prev.word
            continue
        e = Entry(fam, num, [u.id], u.id, {role}, inserted=u.meta.get("edit") == "inserted", word=_word(u, fam))
        if fam == "section":
            e.depth, e.appendix = _section_shape(num)
        out.append(e)
        last[fam] = e
    return out


def _list_clauses(doc: Document) -> dict[str, tuple[str, str]]:
    """The clauses numbered by a list ("7. Additional Terms.") where they are the outline
    (:func:`addin_backend.outline.clauses`): Word and LibreOffice renumber them after an edit.
    Typed clause numbers are text, which nothing renumbers."""
    return {uid: ("section", num) for uid, num in clauses(doc).items() if doc.unit(uid).kind == "list_item"}


def _word(unit: Unit, family: str) -> str | None:
    """The word a unit's label is written with, if it is one of ``family``'s ("Abbildung")."""
    word = label_word(unit.label)
    key = parse_label(unit.label) if word else None
    return word if key is not None and key[0] == family else None


# --- schemes ---------------------------------------------------------------------------------


def _letter(n: int) -> str:
    s = ""
    while n > 0:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def _top_start(entries: list[Entry]) -> int:
    """Where top-level numbers start: 1, or 0 where the document counts from 0 ("0 Introduction",
    a licence's "0. Definitions")."""
    first = next((e for e in entries if e.depth == 1 and not e.appendix), None)
    return 0 if first is not None and first.number == "0" else 1


def _hierarchy(entries: list[Entry], start: int = 1) -> list[str]:
    """Section numbers from depth and order: 1, 1.1, 1.2, 2, A, A.1."""
    out: list[str] = []
    stack: list[list] = []  # [depth, number, children so far]
    top = {False: start - 1, True: 0}
    for e in entries:
        while stack and stack[-1][0] >= e.depth:
            stack.pop()
        if not stack:
            top[e.appendix] += 1
            num = _letter(top[e.appendix]) if e.appendix else str(top[e.appendix])
        else:
            stack[-1][2] += 1
            num = f"{stack[-1][1]}.{stack[-1][2]}"
        stack.append([e.depth, num, 0])
        out.append(num)
    return out


def _chapters(entries: list[Entry], numbers: dict[int, str]) -> list[str | None]:
    """For each entry, the number of the top-level section it sits in (``numbers``: by id())."""
    out: list[str | None] = []
    chapter: str | None = None
    for e in entries:
        if e.family == "section" and e.depth == 1:
            chapter = numbers.get(id(e), e.number)
        out.append(chapter)
    return out


def _flat_numbers(seq: list[Entry]) -> list[str]:
    return [str(i + 1) for i in range(len(seq))]


def _chapter_numbers(seq: list[Entry], chapter_of: dict[int, str | None], sep: str) -> list[str] | None:
    out: list[str] = []
    counts: dict[str | None, int] = {}
    for e in seq:
        chap = chapter_of.get(id(e))
        if chap is None:
            return None
        counts[chap] = counts.get(chap, 0) + 1
        out.append(f"{chap}{sep}{counts[chap]}")
    return out


def _scheme_of(seq: list[Entry], chapter_of: dict[int, str | None]) -> tuple[str, str] | None:
    numbers = [e.number for e in seq]
    if numbers == _flat_numbers(seq):
        return "flat", ""
    for sep in (".", "-"):
        if numbers == _chapter_numbers(seq, chapter_of, sep):
            return "chapter", sep
    return None


def _sequences(entries: list[Entry], shared: bool) -> dict[str, list[Entry]]:
    seqs: dict[str, list[Entry]] = {}
    for e in entries:
        name = _SHARED if shared and e.family in STATEMENT_FAMILIES else e.family
        seqs.setdefault(name, []).append(e)
    return seqs


def detect_schemes(entries: list[Entry]) -> tuple[dict[str, tuple[str, str] | None], bool]:
    """The scheme of each sequence (``None``: the numbers follow no scheme), and whether the
    statement kinds share one counter.

    >>> from adapters.model import Unit
    >>> doc = Document("docx", [Unit("a", "caption", "Figure 1: A", 0), Unit("b", "caption", "Figure 3: B", 1),
    ...                         Unit("c", "paragraph", "Lemma 1. X.", 2), Unit("d", "paragraph", "Theorem 2. Y.", 3)])
    >>> detect_schemes(collect_entries(doc))
    ({'figure': None, 'statement': ('flat', '')}, True)
    """
    chapters = _chapters(entries, {})
    chapter_of = {id(e): c for e, c in zip(entries, chapters)}
    out: dict[str, tuple[str, str] | None] = {}
    sections = [e for e in entries if e.family == "section"]
    if sections:
        out["section"] = ("hierarchy", ".") if [e.number for e in sections] == _hierarchy(sections, _top_start(sections)) else None
    per_kind = _sequences([e for e in entries if e.family != "section"], shared=False)
    statement_kinds = [f for f in per_kind if f in STATEMENT_FAMILIES]
    for name, seq in per_kind.items():
        out[name] = _scheme_of(seq, chapter_of)
    shared = False
    if len(statement_kinds) > 1 and any(out[f] is None for f in statement_kinds):
        seq = [e for e in entries if e.family in STATEMENT_FAMILIES]
        scheme = _scheme_of(seq, chapter_of)
        if scheme is not None:
            shared = True
            for f in statement_kinds:
                del out[f]
            out[_SHARED] = scheme
    return out, shared


# --- before and after ------------------------------------------------------------------------


@dataclass
class Renumbering:
    """How an edit changes the numbers of a document.

    ``changes``: ``(family, old number) -> new number`` for every surviving entry whose number
    changes; ``deleted``: ``(family, old number) -> entry`` for the entries the edit removes;
    ``after``: the entries of the edited document with their new numbers (``numbers``: by
    carrier id); ``unsupported``: sequence name -> why it is not renumbered.
    """

    before: list[Entry]
    after: list[Entry]
    changes: dict[tuple[str, str], str]
    #: (family, old number) -> the entry the edit removes (an entry without a number: None)
    deleted: dict[tuple[str, str | None], Entry]
    numbers: dict[str, tuple[str, str]]
    schemes: dict[str, tuple[str, str] | None]
    shared: bool
    unsupported: dict[str, str]

    def entry_of_unit(self, unit_id: str) -> Entry | None:
        """The entry (of the document before the edit) that a unit belongs to."""
        index = self.__dict__.get("_by_unit")
        if index is None or index[0] != len(self.before):  # built once: verification asks per unit
            by_unit: dict[str, Entry] = {}
            for e in self.before:
                for uid in e.units:
                    by_unit.setdefault(uid, e)
            index = self.__dict__["_by_unit"] = (len(self.before), by_unit)
        return index[1].get(unit_id)

    def word(self, family: str, number: str) -> str | None:
        """The word the entry ``(family, number)`` (before the edit) is labelled with, if any."""
        return next((e.word for e in self.before if e.key == (family, number)), None)

    def label(self, family: str, number: str, old: str | None = None) -> str:
        """``(family, number)`` printed in the word of the entry numbered ``old`` (else ``number``)
        before the edit: a German document's "Abbildung 3" is now "Abbildung 2"."""
        return label_of(family, number, self.word(family, number if old is None else old))

    def new_number(self, family: str, number: str) -> str | None:
        """The number ``(family, number)`` has after the edit; ``None`` when it is deleted."""
        if (family, number) in self.deleted:
            return None
        return self.changes.get((family, number), number)


def _after_entries(before: list[Entry], after_doc: Document) -> tuple[list[Entry], dict[tuple[str, str | None], Entry]]:
    pos = {u.id: i for i, u in enumerate(after_doc.units)}
    kept: list[tuple[int, Entry]] = []
    deleted: dict[tuple[str, str | None], Entry] = {}
    for e in before:
        if e.carrier not in pos:
            deleted[(e.family, e.number)] = e
            continue
        units = [i for i in e.units if i in pos]
        kept.append((min(pos[i] for i in units), Entry(e.family, e.number, units, e.carrier, set(e.roles), e.depth, e.appendix,
                                                       word=e.word)))
    for u in after_doc.body():
        if u.meta.get("edit") != "inserted":
            continue
        key = unit_key(u)
        if key is not None:
            e = Entry(key[0], key[1], [u.id], u.id, {_role(u)}, inserted=True, word=_word(u, key[0]))
            if key[0] == "section":
                e.depth, e.appendix = _section_shape(key[1])
            kept.append((pos[u.id], e))
        elif u.kind == "section":
            sec = _inserted_section(u, after_doc, {x.carrier: x for _, x in kept})
            if sec is not None:
                kept.append((pos[u.id], sec))
    kept.sort(key=lambda p: p[0])
    return [e for _, e in kept], deleted


def _inserted_section(u: Unit, doc: Document, by_carrier: dict[str, Entry]) -> Entry | None:
    """An inserted heading is numbered like its nearest sibling heading (before it, else after
    it); an only child like its parent's children would be."""
    sections = [s for s in doc.body() if s.kind == "section"]
    at = next(i for i, s in enumerate(sections) if s.id == u.id)
    lvl = level(u)
    parent: Unit | None = None
    for side in (reversed(sections[:at]), sections[at + 1 :]):
        for cand in side:
            if level(cand) < lvl:
                parent = parent or (cand if cand.order < u.order else None)
                break
            if level(cand) == lvl and cand.id in by_carrier:
                sib = by_carrier[cand.id]
                return Entry("section", None, [u.id], u.id, {"self"}, sib.depth, sib.appendix, inserted=True, word=sib.word)
            if level(cand) == lvl:
                return None  # an unnumbered sibling: the new heading is unnumbered too
    if parent is not None and parent.id in by_carrier:
        up = by_carrier[parent.id]
        return Entry("section", None, [u.id], u.id, {"self"}, up.depth + 1, up.appendix, inserted=True, word=up.word)
    return None


def renumber(before_doc: Document, after_doc: Document) -> Renumbering:
    """Compare the numbering of a document before and after an edit (see :class:`Renumbering`).

    ``after_doc`` is the neutral result of the edit (``apply_to_document``): surviving units keep
    their ids, inserted ones carry ``meta["edit"] == "inserted"``.
    """
    before = collect_entries(before_doc)
    schemes, shared = detect_schemes(before)
    after, deleted = _after_entries(before, after_doc)
    unsupported: dict[str, str] = {}
    new: dict[int, str | None] = {}

    sections = [e for e in after if e.family == "section"]
    if schemes.get("section"):
        start = _top_start([e for e in before if e.family == "section"])
        for e, num in zip(sections, _hierarchy(sections, start)):
            new[id(e)] = num
    chapters = _chapters(after, {k: v for k, v in new.items() if v is not None})
    chapter_of = {id(e): c for e, c in zip(after, chapters)}
    for name, seq in _sequences([e for e in after if e.family != "section"], shared).items():
        scheme = schemes.get(name)
        if scheme is None:
            continue
        kind, sep = scheme
        nums = _flat_numbers(seq) if kind == "flat" else _chapter_numbers(seq, chapter_of, sep)
        if nums is None:
            unsupported[name] = "an entry lies outside any numbered chapter after the edit"
            continue
        for e, num in zip(seq, nums):
            new[id(e)] = num
    for name, scheme in schemes.items():
        if scheme is None:
            unsupported.setdefault(name, "its numbers do not follow document order")

    changes: dict[tuple[str, str], str] = {}
    numbers: dict[str, tuple[str, str]] = {}
    for e in after:
        renumbered: str | None = new.get(id(e), e.number)
        if renumbered is None:
            continue
        num = renumbered
        if not e.inserted and e.number is not None and num != e.number:
            changes[(e.family, e.number)] = num
        for uid in e.units:
            numbers[uid] = (e.family, num)
        e.number = num
    return Renumbering(before, after, changes, deleted, numbers, schemes, shared, unsupported)


#: Fields that number a caption (Word SEQ, ODF text:sequence).
SEQ_FIELDS = ("seq", "sequence")
_TRAILING_NUMBER = re.compile(r"\(\s*(?P<num>[\w.\-]+)\s*\)\s*$")


def number_span(text: str, start: int, end: int, number: str) -> tuple[int, int] | None:
    """Where ``number`` is written inside ``text[start:end]`` (first whole occurrence), if at all.

    >>> number_span("see Fig. 3b and 13", 0, 18, "3")
    (9, 10)
    >>> number_span("Section 2.1", 0, 11, "2") is None
    True
    """
    rx = re.compile(rf"(?<![\w.]){re.escape(number)}(?!\d|\.\d)")
    m = rx.search(text, start, end)
    return (m.start(), m.end()) if m else None


def shown_number(unit: Unit) -> tuple[str, int, int, str] | None:
    """The number a unit shows in its own text: ``(number, start, end, how)``.

    ``how`` is ``field`` (the cached result of a caption's numbering field) or ``typed`` (a
    caption label, heading number, statement head or trailing equation number written as
    text). ``None`` when the number is not in the text (automatic heading numbering).

    >>> shown_number(Unit("c", "caption", "Table 2: Costs", 0))
    ('2', 6, 7, 'typed')
    >>> shown_number(Unit("s", "section", "4.1 Handshake", 0))
    ('4.1', 0, 3, 'typed')
    """
    text = unit.text
    for f in unit.fields:
        if f.kind in SEQ_FIELDS and f.end > f.start:
            m = re.search(r"[\w.\-]*\w", text[f.start : f.end])
            if m:
                return m.group(0), f.start + m.start(), f.start + m.end(), "field"
    if unit.kind == "section":
        typed = typed_number(text)  # the grammar the label index and the outline read it with
        return (*typed, "typed") if typed else None
    if unit.kind == "equation":
        m = _TRAILING_NUMBER.search(text)
        return (m.group("num"), m.start("num"), m.end("num"), "typed") if m else None
    got = None
    if unit.kind == "caption":
        got = caption_label(text) or leading_label(text)
    elif unit.kind in TEXT_KINDS:
        got = leading_label(text)
    if got is None:
        return None
    lead = len(text) - len(text.lstrip())
    word_end = lead + len(text[lead:].split(None, 1)[0]) if text[lead:].split() else lead
    span = number_span(text, word_end, min(len(text), word_end + len(got[1]) + 3), got[1])
    return (got[1], *span, "typed") if span else None


#: Reference results that show no number of their target (a page, "above", a caption's text).
_NO_NUMBER = ("page", "direction", "caption")


def shown_entry(f: Field, doc: Document, renum: "Renumbering") -> Entry | None:
    """The entry (before the edit) whose number the result of reference field ``f`` shows.

    By what the field shows (:attr:`adapters.model.Field.shows`): the target's own entry for
    a number or label; for a chapter, the entry of the heading the target is under (the
    target itself when it is one); for text, the target's entry only when the referenced
    text holds its number (a caption "Figure 3", not a heading numbered automatically);
    none for a page, a direction or a caption's text.
    """
    shows = f.shows
    if shows in _NO_NUMBER or not f.target_unit:
        return None
    if shows == "chapter":
        target = doc.get(f.target_unit)
        if target is None:
            return None
        units = doc.units
        i = target.order if 0 <= target.order < len(units) and units[target.order] is target else units.index(target)
        while i >= 0 and units[i].kind != "section":
            i -= 1
        return renum.entry_of_unit(units[i].id) if i >= 0 else None
    entry = renum.entry_of_unit(f.target_unit)
    if shows == "text" and entry is not None:
        target = doc.get(f.target_unit)
        shown = shown_number(target) if target is not None else None
        if shown is None:
            return None
        mark = next((b for b in target.bookmarks if b.name == f.target), None) if target is not None else None
        if mark is not None and mark.end > mark.start and not (mark.start <= shown[1] and shown[2] <= mark.end):
            return None  # the bookmark holds the caption's title, not its number
    return entry
