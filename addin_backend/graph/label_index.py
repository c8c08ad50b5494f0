"""The labels a document's units answer to: ``(family, number)`` -> unit, reader labels first.

Units are indexed by their reader label ("Section 2.1", "Table B.1"), their number, and labels
read from their own text where a reader gave none (a heading "Annex B (normative) ...", "5.2.1
Keys", a caption "Figure 3: ...", a paragraph opening "Theorem 2.").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from adapters.label_grammar import heading_number, norm_number, parse_label
from adapters.labels import caption_label, leading_label, typed_caption_label
from adapters.model import Unit

from ..outline import CODE_STYLE as _CODE_STYLE
from ..outline import list_clause, typed_clause, typed_heading
from adapters.vocabulary import DISPLAY_KINDS

__all__ = ["LabelIndex", "parse_label", "list_keys", "typed_heading", "typed_keys", "unit_keys", "build_label_index"]


def typed_keys(text: str, style: str | None = None) -> list[tuple[tuple[str, str], int]]:
    """Labels a plain paragraph carries when a conversion left headings, clauses and captions
    as typed text, each with its rank: 2 for a heading ("2.1.  Requirements Language",
    "Appendix A.  Examples") or a caption ("Table 1: Codes"), 3 for a numbered clause that
    opens a paragraph ("5.1. The rights granted ...").

    >>> typed_keys("2.1.  Requirements Language"), typed_keys("Table 1: Codes")
    ([(('section', '2.1'), 2)], [(('table', '1'), 2)])
    >>> typed_keys("5.1. The rights granted under this License terminate if You fail to comply.")
    [(('section', '5.1'), 3)]
    >>> typed_keys("Table 1 shows the codes."), typed_keys("3 tables were read"), typed_keys("7.  This is in section 4 to", "Preformatted Text")
    ([], [], [])
    """
    text = text.strip()
    if not text or (style and _CODE_STYLE.search(style)):
        return []
    got = typed_caption_label(text)
    if got:
        p = parse_label(got[0])
        return [(p, 2)] if p and len(text.split()) <= 40 else []
    clause = typed_clause(text, style)
    return [(("section", clause[0]), clause[1])] if clause else []


def list_keys(unit: Unit) -> list[tuple[tuple[str, str], int]]:
    """A list item numbered "7." or "3.2" by its list is clause 7 or 3.2 where no heading is
    (clauses numbered as a list): rank 2 when its text is a title, else 3."""
    clause = list_clause(unit)
    return [(("section", clause[0]), clause[1])] if clause else []


_KIND_RANK = {
    "section": {"section": 0},
    "figure": {"figure": 0, "caption": 1},
    "table": {"table": 0, "caption": 1},
    "equation": {"equation": 0, "caption": 1},
}


def unit_keys(unit: Unit) -> list[tuple[tuple[str, str], int]]:
    """The ``(family, number)`` keys a unit answers to, each with its source rank (0 = label)."""
    keys: list[tuple[tuple[str, str], int]] = []
    parsed = parse_label(unit.label)
    if parsed:
        keys.append((parsed, 0))
    if unit.kind == "section":
        if unit.number:
            num = norm_number(unit.number)
            if num and re.fullmatch(r"[\w.]+", num):
                keys.append((("section", num), 0))
        typed = heading_number(unit.title or unit.text)
        if typed:
            keys.append((("section", typed[0]), 1))
    elif unit.kind in DISPLAY_KINDS:
        got = caption_label(unit.text)
        if got:
            p = parse_label(got[0])
            if p:
                keys.append((p, 1))
    if unit.kind == "paragraph":
        keys.extend(typed_keys(unit.text, unit.style))
    elif unit.kind == "list_item":
        keys.extend(list_keys(unit))
    if unit.kind in ("paragraph", "list_item", "caption"):
        got = leading_label(unit.text)
        if got:
            p = parse_label(got[0])
            if p:
                keys.append((p, 1))
    seen: set[tuple[str, str]] = set()
    out = []
    for k, r in keys:
        if k not in seen:
            seen.add(k)
            out.append((k, r))
    return out


@dataclass
class LabelIndex:
    """``(family, number)`` -> the unit ids answering to it, best first."""

    entries: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    ambiguous: set[tuple[str, str]] = field(default_factory=set)
    #: The texts of the title block (title and subtitle units), where a document names itself.
    front: tuple[str, ...] = ()
    #: Whether the document numbers its own parts with "§" (a contract's "§ 5 Haftung"); if not,
    #: a "§ 202" in its text cites a statute.
    section_sign: bool = False
    #: Whether the document numbers its sections: one heading in ten or more carries a number, or
    #: (without headings) a clause does; a paragraph merely opening with one does not. Where it
    #: does not, "section 7" is not this document's (a stray typed "9.2 Constants" among 300
    #: unnumbered headings, or a date "29 March 2024" read as a clause, number nothing).
    numbered_sections: bool = False
    #: What :attr:`numbered_sections` was decided from: (headings, numbered headings, numbered
    #: clauses outside headings), so that indexes of parts of one document combine
    #: (:func:`numbers_sections`).
    heading_counts: tuple[int, int, int] = (0, 0, 0)
    #: The families whose numbers are chapter-style ("Figure 2-1"): a hyphenated pair after their
    #: word is one number, not a range.
    chapter_families: frozenset[str] = frozenset()

    def resolve(self, family: str, number: str) -> str | None:
        hits = self.entries.get((family, number))
        return hits[0] if hits else None

    def hasfamily_of(self, family: str) -> bool:
        return any(f == family for f, _ in self.entries)

    def targets(self) -> dict[tuple[str, str], tuple[str, bool]]:
        """The resolution of every key and whether it is ambiguous (what a change to the labels
        is measured against)."""
        return {k: (v[0], k in self.ambiguous) for k, v in self.entries.items() if v}


def numbers_sections(counts: tuple[int, int, int]) -> bool:
    """Whether a document numbers its sections, from (headings, numbered headings, numbered
    clauses outside headings): one heading in ten or more carries a number, or, without numbered
    headings, a clause does.

    >>> numbers_sections((300, 4, 0)), numbers_sections((40, 40, 0)), numbers_sections((0, 0, 3))
    (False, True, True)
    """
    headings, numbered_headings, clauses = counts
    return 10 * numbered_headings >= headings if numbered_headings else clauses > 0


def build_label_index(units: Iterable[Unit]) -> LabelIndex:
    """Index the labels of ``units`` (reader labels first, then labels read from the text).

    >>> from adapters.model import Unit
    >>> idx = build_label_index([Unit("s1", "section", "Scope", 0, number="1"),
    ...                          Unit("c1", "caption", "Table 2: Costs", 1, label="Table 2"),
    ...                          Unit("t1", "table", "a | b", 2, label="Table 2")])
    >>> idx.resolve("section", "1"), idx.resolve("table", "2")
    ('s1', 't1')
    """
    cand: dict[tuple[str, str], list[tuple[tuple[int, int, int], str]]] = {}
    front: list[str] = []
    section_sign = False
    headings = numbered_headings = clauses = 0
    for u in units:
        if u.kind == "title" or (u.style and "subtitle" in u.style.lower()):
            front.append(u.text)
        keys = unit_keys(u)
        if not section_sign and keys and u.kind in ("section", "paragraph", "list_item"):
            shown = (u.label, u.number, u.meta.get("list_label"), u.text)
            section_sign = any(x and x.lstrip().startswith("§") for x in shown) and any(
                k[0] == "section" for k, _ in keys)
        if u.kind == "section":
            headings += 1
            numbered_headings += any(k[0] == "section" and r <= 2 for k, r in keys)
        elif any(k[0] == "section" and r <= 2 for k, r in keys):
            clauses += 1
        for key, rank in keys:
            kind_rank = _KIND_RANK.get(key[0], {}).get(u.kind, 2)
            cand.setdefault(key, []).append(((rank, kind_rank, u.order), u.id))
    numbered = numbers_sections((headings, numbered_headings, clauses))
    chapter = frozenset(k[0] for k in cand if k[0] != "section" and re.fullmatch(r"[A-Z0-9]+-\d+", k[1]))
    idx = LabelIndex(front=tuple(front), section_sign=section_sign, numbered_sections=numbered,
                     heading_counts=(headings, numbered_headings, clauses), chapter_families=chapter)
    for key, lst in cand.items():
        lst.sort()
        idx.entries[key] = [uid for _, uid in lst]
        if len(lst) > 1 and lst[0][0][:2] == lst[1][0][:2]:
            idx.ambiguous.add(key)
    return idx

