"""Gaps in the numbered series an editor types by hand.

A word processor numbers its own headings, captions and lists, and never skips a number; the
numbers a writer types do not follow when a part is deleted or moved. Three such series are
read here (the numbered entries that the numbering module collects are
:func:`~addin_backend.checks.document.numbering_findings`'):

- **typed heading numbers** among siblings ("3.17.1", "3.17.2", "3.17.4" under 3.17);
- **typed caption numbers** of a family the document numbers by hand, per chapter ("Figure 3-1"
  ... "Figure 3-29");
- **labelled statements** that open paragraphs, headings or list items with the same words and a
  number, three or more of them ("Conformance Clause 1: ...", "Requirement 5.", "Step 3 -").

Identifiers are not series: a statement id written in brackets after a sentence
("[MQTT-SN-3.17-1]", "[MQTT-SN-3.17-3]") stays what it was when its neighbour is deleted,
and no rule here reads them.
"""
from __future__ import annotations

import re
from collections import defaultdict

from adapters.label_grammar import heading_number
from adapters.model import Document, Unit

from ..findings import Finding
from ..graph.label_index import LabelIndex, build_label_index
from ..numbering import CAPTION_FAMILIES, collect_entries

__all__ = ["series_findings"]

#: "Conformance Clause 4:", "Requirement 5.", "Step 3 -", "Rule 12)": one to three capitalised
#: words, an integer, a separator. Not a caption's word (captions are numbered elsewhere).
_LEADING = re.compile(r"^\s*(?P<words>[A-Z][\w\-]*(?:[ \u00a0][A-Z][\w\-]*){0,2})[ \u00a0](?P<n>\d{1,3})"
                      r"(?=\s*(?:[:.)\u2013\u2014]|-\s|$))")
_CAPTION_WORDS = frozenset({"figure", "fig", "table", "tab", "equation", "eq", "listing", "abbildung", "tabelle",
                            "tableau", "tabla", "figura"})


def _missing(numbers: list[int]) -> list[int]:
    """The integers a run skips, from its first to its last."""
    have = set(numbers)
    return [n for n in range(min(numbers), max(numbers) + 1) if n not in have]


def _gap(unit: str, what: str, missing: list[str], evidence: str) -> Finding:
    """``what`` is the subject with its verb ("the sections under 3.17 skip")."""
    shown = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
    return Finding("numbering_gap", "warning", unit, f"{what} {shown}", evidence, [])


def _typed_headings(doc: Document) -> list[Finding]:
    kids: dict[str | None, list[Unit]] = defaultdict(list)
    for u in doc.units:
        if u.kind != "section" or not u.number:
            continue
        typed = heading_number(u.text)
        if typed and typed[0] == u.number:
            kids[u.parent].append(u)
    out = []
    for parent, units in kids.items():
        if len(units) < 2:
            continue
        lasts = [u.number.rsplit(".", 1)[-1] for u in units if u.number]
        prefix = {u.number.rsplit(".", 1)[0] if "." in u.number else "" for u in units if u.number}
        if len(prefix) != 1 or not all(x.isdigit() for x in lasts):
            continue
        nums = [int(x) for x in lasts]
        if nums != sorted(nums):
            continue  # out of order: numbering_mismatch's business, not a gap
        missing = _missing(nums)
        if missing:
            p = prefix.pop()
            after = next(u for u, n in zip(units, nums) if n > missing[0])
            under = f"the sections under {p} skip" if p else "the top-level sections skip"
            out.append(_gap(after.id, under, [f"{p}.{m}" if p else str(m) for m in missing], after.number or ""))
    return out


def _typed_captions(doc: Document, index: LabelIndex) -> list[Finding]:
    numbered = {e.family for e in collect_entries(doc) if e.number is not None and e.family in CAPTION_FAMILIES}
    series: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for (family, number), ids in index.entries.items():
        if family not in CAPTION_FAMILIES or family in numbered or not ids:
            continue
        m = re.fullmatch(r"(?:(?P<chapter>[A-Z0-9]+)[-.])?(?P<n>\d+)", number)
        if m:
            series[(family, m.group("chapter") or "")].append((int(m.group("n")), ids[0]))
    out = []
    for (family, chapter), items in series.items():
        if len(items) < 2:
            continue
        missing = _missing([n for n, _ in items])
        if missing:
            after = min((x for x in items if x[0] > missing[0]), key=lambda x: x[0])
            label = family.capitalize() + ("s" if len(missing) > 1 else "")
            names = [f"{chapter}-{m}" if chapter else str(m) for m in missing]
            out.append(_gap(after[1], f"the {family} numbers{' of chapter ' + chapter if chapter else ''} skip",
                            [f"{label.rstrip('s')} {n}" for n in names], f"{family} {chapter + '-' if chapter else ''}{after[0]}"))
    return out


def _statements(doc: Document) -> list[Finding]:
    series: dict[tuple[str | None, str], list[tuple[int, Unit, str]]] = defaultdict(list)
    for u in doc.units:
        if u.kind not in ("paragraph", "list_item", "section"):
            continue
        text = (u.title or u.text) if u.kind == "section" else u.text
        m = _LEADING.match(text)
        if not m or m.group("words").split()[-1].lower().rstrip(".") in _CAPTION_WORDS:
            continue
        words = m.group("words")
        key = (u.parent if u.kind != "section" else None, words.lower())
        series[key].append((int(m.group("n")), u, f"{words} {m.group('n')}"))
    out = []
    for (_parent, words), items in series.items():
        if len(items) < 3:
            continue
        nums = [n for n, _u, _e in items]
        if nums != sorted(nums) or len(set(nums)) != len(nums) or nums[0] > 1:
            continue  # not one series in order from its start
        missing = _missing(nums)
        if missing:
            name = items[0][2].rsplit(" ", 1)[0]
            after = next(x for x in items if x[0] > missing[0])
            out.append(_gap(after[1].id, f"the series '{name} 1, 2, ...' skips", [f"{name} {m}" for m in missing],
                            after[2]))
    return out


def series_findings(doc: Document, index: LabelIndex | None = None) -> list[Finding]:
    """Gaps in typed heading numbers, typed caption numbers and labelled statements."""
    index = index or build_label_index(doc.units)
    out = _typed_headings(doc) + _typed_captions(doc, index)
    seen = {f.unit for f in out}  # a heading "6.4 Clause 4" gapped once, not as a series of its words too
    return out + [f for f in _statements(doc) if f.unit not in seen]
