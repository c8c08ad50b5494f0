"""Naming units as a reader does: "Section 2.1", "Fig. 3", "Equation (2)", "the paragraph starting with".

Labels are read with the one grammar of labels (:mod:`adapters.label_grammar`: "Sect. 5.2.3",
"Clause 7", "§ 4", "Annex B", "Abschnitt 3" alike) into the key space of the graph's label
index, and resolve to the units that answer to that key: a reader's label or number, a
heading's typed number, a caption or statement typed at a unit's start; failing those, the
unit the label index gives (a clause a conversion left as text or numbered by a list), with
its body where it is a clause of the outline (:func:`addin_backend.outline.clause_group`).
So every label the graph links is a name an instruction can use.
"""
from __future__ import annotations

import re

from adapters.label_grammar import (
    TYPED_LABEL,
    canonical_label,
    label_word,
    norm_number,
    parse_label,
    parse_typed_label,
    subpart,
    word_name,
)
from adapters.model import Document, Unit, descendant_ids
from addin_backend.errors import InvalidRequestError, UnknownUnitError

from ..graph.label_index import build_label_index, unit_keys
from ..graph.mentions import find_mentions
from ..outline import clause_group, clauses
from .quoting import is_quoted, mask, unquote
from .tree import body_units, enclosing_section, is_note, subtree
from adapters.vocabulary import TEXT_KINDS

__all__ = [
    "LABEL_RX",
    "REF_RX",
    "group_of",
    "label_key",
    "labels_in",
    "last_of",
    "normalise",
    "resolve_ref",
]

#: A label as typed in an instruction ("Section 2.1", "fig. 3", "Equation (2)", "§4", "Appendix A").
LABEL_RX = TYPED_LABEL
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "last": -1, "final": -1,
}
_PARA_WORDS = r"paragraph|para|item|list item|bullet(?: point)?|sentence"
#: Everything :func:`resolve_ref` can read, for grammars that need to bound a reference.
REF_RX = (
    rf"(?:{LABEL_RX}"
    rf"|(?:the\s+)?(?:{'|'.join(_ORDINALS)}|\d+(?:st|nd|rd|th))\s+(?:{_PARA_WORDS})\s+(?:of|in)\s+{LABEL_RX}"
    rf"|(?:{_PARA_WORDS})\s+\d+\s+(?:of|in)\s+{LABEL_RX}"
    rf"|(?:the\s+)?(?:{_PARA_WORDS}|text|line)\s+(?:that\s+|which\s+)?(?:start|begin|open|contain|mention)\w*(?:\s+with)?\s+.+?"
    r"|(?:this|the\s+current|the\s+selected)\s+(?:paragraph|section|unit|table|figure|caption|item|list item)"
    r"|the\s+selection|here|it|this"
    r"|the\s+(?:section|chapter)\s+(?:titled|called|named|headed)\s+.+?"
    r"|the\s+[\w\s\-]+?\s+section"
    r"|[a-z]+-[0-9a-f]{10}(?:-\d+)?)"
)


def normalise(text: str) -> str:
    """Text compared loosely: curly quotes straight, dashes plain, spaces collapsed, case folded."""
    table = {0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"', 0x2013: "-", 0x2014: "-", 0xA0: " "}
    return re.sub(r"\s+", " ", text.translate(table)).strip().casefold()


def label_key(label: str) -> tuple[str, str] | None:
    """A label reduced to the graph's key ``(family, number)``: ``"Fig. 3"`` and ``"Figure 3"``
    -> ``("figure", "3")``; every sectioning word names a section.

    >>> label_key("Equation (3)"), label_key("§2.1"), label_key("appendix a"), label_key("Clause 5.2.3")
    (('equation', '3'), ('section', '2.1'), ('section', 'A'), ('section', '5.2.3'))
    """
    return parse_typed_label(label.strip())


def _unit_keys(unit: Unit) -> set[tuple[str, str]]:
    """The keys a unit answers to by itself: its label and number, its heading's typed number, a
    caption or statement label at its start (the label index's ranks 0 and 1)."""
    return {k for k, rank in unit_keys(unit) if rank <= 1}


def _shown(unit: Unit, key: tuple[str, str]) -> str:
    """How the document labels ``key`` on ``unit``: its own label, else the canonical one."""
    return unit.label if unit.label and parse_label(unit.label) == key else canonical_label(*key)


def labels_in(doc: Document, family: str | None = None, word: str | None = None) -> list[str]:
    """The labels a document has (of one family, e.g. ``figure``), its outline's clauses among
    them, for helpful error messages; with ``word``, those printed with that word ("Section",
    not "Appendix") when there are any."""
    out: list[str] = []
    outline = clauses(doc) if family in (None, "section") else {}
    for u in doc.units:
        keys = _unit_keys(u) | ({("section", outline[u.id])} if u.id in outline else set())
        for key in sorted(keys):
            if family is None or key[0] == family:
                label = _shown(u, key)
                if label not in out:
                    out.append(label)
    if word:
        same = [lb for lb in out if word_name(label_word(lb) or "") == word]
        return same or out
    return out


def group_of(doc: Document, units: list[Unit]) -> list[Unit]:
    """Labelled units plus the unlabelled figure or table their caption sits beside."""
    chosen = {u.id for u in units}
    flow = body_units(doc)
    pos = {u.id: i for i, u in enumerate(flow)}
    for u in units:
        if u.kind != "caption" or u.id not in pos:
            continue
        parent = doc.get(u.parent) if u.parent else None
        if parent is not None and parent.kind in ("figure", "table") and parent.id in chosen:
            continue
        i = pos[u.id]
        for j in (i - 1, i + 1):
            if 0 <= j < len(flow) and flow[j].kind in ("figure", "table") and not _unit_keys(flow[j]):
                chosen.add(flow[j].id)
                break
    return [u for u in doc.units if u.id in chosen]


def _typed_clause(doc: Document, key: tuple[str, str]) -> list[Unit]:
    """What a label names where a conversion left the numbers as text: the unit the graph's
    label index gives (a heading that types its number, a clause typed at a paragraph's start
    or numbered by a list), with its body where it is a clause of the outline."""
    uid = build_label_index(doc.units).resolve(*key)
    if uid is None:
        return []
    head = doc.unit(uid)
    if key[0] != "section" or head.kind == "section" or is_note(head):
        return [head]
    return clause_group(doc, head)


def _named(doc: Document, key: tuple[str, str]) -> list[Unit]:
    """The units that answer to ``key`` themselves, else the label index's clause."""
    return [u for u in doc.units if key in _unit_keys(u)] or _typed_clause(doc, key)


def _part(doc: Document, key: tuple[str, str]) -> list[Unit]:
    """A lettered part of a numbered unit ("subsection 6b"): the item lettered "b" (by its list,
    or typed "b) ...") in what "6" names; the graph links the mention to clause 6 itself."""
    split = subpart(key[1])
    if split is None:
        return []
    letter = split[1].lower()
    typed = re.compile(rf"\s*\(?{re.escape(letter)}[).]\s", re.I)  # "b) Convey ...", a list a conversion left as text
    pool = [u for g in _named(doc, (key[0], split[0])) for u in subtree(doc, g.id)]
    return [u for u in pool if u.kind in TEXT_KINDS and (
        norm_number(u.number or "").lower() == letter or (not u.number and typed.match(u.text)))][:1]


def _range(doc: Document, text: str) -> list[Unit]:
    """The units of a range read as the graph reads it ("Sections 8-11": 8, 9, 10 and 11),
    when every one of them is there."""
    found = find_mentions(text.strip())
    if len(found) != 1 or len(found[0].items) < 2 or found[0].text != text.strip():
        return []
    groups = [_named(doc, (found[0].family, i.number)) for i in found[0].items]
    return [u for g in groups for u in g] if all(groups) else []


def _by_label(doc: Document, text: str) -> list[Unit]:
    key = label_key(text)
    if key is None:
        return []
    hits = _named(doc, key) or _part(doc, key) or _range(doc, text)
    if not hits:
        word = word_name(label_word(text.strip()) or "")
        have = labels_in(doc, key[0], word)
        known = f"; the document has {', '.join(have[:12])}" if have else f"; the document has no {key[0]} labels"
        raise UnknownUnitError(f"nothing in the document is labelled {text.strip()!r}{known}", label=text.strip())
    # a figure or table labelled like its caption is one group; keep the top-most units only
    ids = {u.id for u in hits}
    top = [u for u in hits if not (u.parent in ids)]
    return group_of(doc, top)


def _paragraphs(units: list[Unit]) -> list[Unit]:
    return [u for u in units if u.kind in TEXT_KINDS]


def _by_text(doc: Document, how: str, text: str, scope: list[Unit] | None) -> list[Unit]:
    bare = unquote(text) if is_quoted(text) else text.strip().strip("'\"\u2018\u2019\u201c\u201d")
    needle = normalise(bare)
    pool = scope if scope is not None else [u for u in doc.units]
    pool = [u for u in pool if u.kind not in ("section", "figure", "table") and u.meta.get("absent_in") != "accepted"]
    if how == "start":
        hits = [u for u in pool if normalise(u.text).startswith(needle)]
    else:
        hits = [u for u in pool if needle in normalise(u.text)]
    what = "starts with" if how == "start" else "contains"
    if not hits:
        raise UnknownUnitError(f"no paragraph {what} '{bare}'")
    if len(hits) > 1:
        shown = "; ".join(f"{u.id}: {u.text[:60]!r}" for u in hits[:5])
        raise InvalidRequestError(
            f"{len(hits)} paragraphs {'start with' if how == 'start' else 'contain'} '{bare}' "
            f"({shown}); quote more of the text or add 'in Section N'",
            candidates=[u.id for u in hits],
        )
    return hits


def _need_target(doc: Document, target: str | None, what: str) -> Unit:
    if not target:
        raise InvalidRequestError(f"'{what}' needs the unit at the cursor (target), and none was given")
    unit = doc.get(target)
    if unit is None:
        raise UnknownUnitError(f"no unit has the id {target!r} (target)", unit=target)
    return unit


def resolve_ref(doc: Document, ref: str, *, target: str | None = None) -> list[Unit]:
    """The unit(s) a reference names, in document order (a figure with its caption is two units).

    Understands labels ("Section 2.1", "Fig. 3", "Equation (2)", "Theorem 1", "Appendix A"),
    "the paragraph starting with ..." / "containing ..." (optionally "in Section N"),
    "the first/2nd/last paragraph of Section N", "paragraph 3 of Section N",
    "the section titled ..." / "the Methods section", "this paragraph" / "this section" / "it"
    (the target at the cursor) and raw unit ids.

    :raise UnknownUnitError: nothing matches. :raise InvalidRequestError: several paragraphs match.
    """
    r = re.sub(r"\s+", " ", ref.strip().rstrip(".,;:"))
    low = r.lower()
    if doc.get(r) is not None:
        return [doc.unit(r)]
    if re.fullmatch(LABEL_RX, r, re.IGNORECASE):
        return _by_label(doc, r)
    held = mask(r)
    m = re.fullmatch(
        rf"(?:the\s+)?(?:{_PARA_WORDS}|text|line)\s+(?:that\s+|which\s+)?(?P<how>start(?:s|ing)?|begin(?:s|ning)?|open(?:s|ing)?|contain(?:s|ing)?|mention(?:s|ing)?)"
        rf"(?:\s+with)?\s+(?P<text>.+?)(?:\s+(?:in|of|under|within)\s+(?P<scope>{LABEL_RX}))?",
        held.text, re.IGNORECASE,  # a quoted text is one piece: "in Section 2" inside it is no scope
    )
    if m:
        scope = None
        if m.group("scope"):
            scope = [u for g in _by_label(doc, m.group("scope")) for u in subtree(doc, g.id)]
        how = "start" if m.group("how").lower()[:3] in ("sta", "beg", "ope") else "contain"
        return _by_text(doc, how, held.unmask(m.group("text")) or "", scope)
    m = re.fullmatch(
        rf"(?:the\s+)?(?:(?P<ord>{'|'.join(_ORDINALS)})|(?P<nth>\d+)(?:st|nd|rd|th))\s+(?:{_PARA_WORDS})\s+(?:of|in)\s+(?P<of>{LABEL_RX})"
        rf"|(?:{_PARA_WORDS})\s+(?P<num>\d+)\s+(?:of|in)\s+(?P<of2>{LABEL_RX})",
        r, re.IGNORECASE,
    )
    if m:
        of = m.group("of") or m.group("of2")
        n = _ORDINALS[m.group("ord").lower()] if m.group("ord") else int(m.group("nth") or m.group("num"))
        paras = _paragraphs([u for g in _by_label(doc, of) for u in subtree(doc, g.id)])
        if n == 0 or abs(n) > len(paras):
            raise UnknownUnitError(f"{of} has {len(paras)} paragraph(s); there is no {ref.strip()!r}")
        return [paras[n - 1 if n > 0 else n]]
    if low in ("this", "it", "here", "the selection") or re.fullmatch(
        r"(?:this|the current|the selected) (?:paragraph|unit|table|figure|caption|item|list item)", low
    ):
        return [_need_target(doc, target, r)]
    if re.fullmatch(r"(?:this|the current|the selected) section", low):
        unit = _need_target(doc, target, r)
        sec = enclosing_section(doc, unit)
        if sec is None:
            raise UnknownUnitError(f"the unit at the cursor ({unit.id}) is in no section")
        return [sec]
    m = re.fullmatch(r"the (?:section|chapter) (?:titled|called|named|headed) (?P<t>.+)|the (?P<t2>[\w\s\-]+?) section", r, re.IGNORECASE)
    if m:
        said = m.group("t") or m.group("t2")
        title = normalise(unquote(said) if is_quoted(said) else said.strip("'\"\u2018\u2019\u201c\u201d"))
        hits = [u for u in doc.units if u.kind == "section" and normalise(u.title or u.text) == title]
        if not hits:
            hits = [u for u in doc.units if u.kind == "section" and normalise(u.title or u.text).endswith(title)]
        if len(hits) == 1:
            return hits
        if hits:
            raise InvalidRequestError(f"{len(hits)} sections are titled {title!r}", candidates=[u.id for u in hits])
        raise UnknownUnitError(f"no section is titled {title!r}")
    raise UnknownUnitError(f"cannot tell which unit {ref.strip()!r} names")


def last_of(doc: Document, units: list[Unit], exclude: set[str] | frozenset[str] = frozenset()) -> Unit:
    """The last unit of a group's subtrees in the main flow (where 'after it' begins)."""
    ids: set[str] = set()
    for u in units:
        ids |= descendant_ids(doc.units, u.id)
    return [u for u in doc.units if u.id in ids - exclude and not is_note(u)][-1]
