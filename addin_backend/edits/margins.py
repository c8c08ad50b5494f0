"""Propagation into page headers and footers: they restate the document's front matter.

A footer repeats the title page's date and stage ("Committee Specification Draft 01 ... 09
October 2025") on every page, and editors update it with the title page. When an edit changes
a unit of the front matter (what comes before the first heading):

- a **date** it changes is restated in each header and footer: where the margin writes the same
  date (in its own format: "19 Oct. 2025", "2025-10-19"), and where the margin shows one date
  only, which then is the document's date even if it was stale before (MQTT-SN's footer said
  "01 May 2025" under a title page dated "08 August 2025"; its editors put the new date in both);
  a date that is a field's result (DATE, SAVEDATE) is left to the field, which updates itself;
- a **line** it rewrites whole ("Committee Specification Draft 01") is restated where a margin
  repeats that line word for word.

Edits of the body elsewhere are not followed into the margins: a revision history's dates are
history. A rename or value change "throughout the document" reaches the margins by itself (they
are units).
"""
from __future__ import annotations

import re
from typing import Any

from adapters.model import Document, Edit, Unit
from adapters.vocabulary import MARGIN_KINDS

from ..language.dates import Date, find_dates, write_like

__all__ = ["front_matter", "propagate_margins"]

#: The shortest front-matter line restated by its words alone (shorter ones: "Draft", "01").
_MIN_LINE = 8


def front_matter(doc: Document) -> list[Unit]:
    """The units of the main flow before its first heading (title, subtitle, date, stage...)."""
    out = []
    for u in doc.body():
        if u.kind == "section":
            break
        out.append(u)
    return out


def _changed_dates(before: str, after: str) -> list[tuple[Date, Date]]:
    """The dates an edit rewrote, old and new in pairs (by position, when it kept their count)."""
    olds, news = find_dates(before), find_dates(after)
    if len(olds) != len(news):
        return []
    return [(o, n) for o, n in zip(olds, news) if o.value != n.value]


def _in_field(unit: Unit, d: Date) -> bool:
    """Whether a date is a field's result (a DATE or SAVEDATE field: it updates itself)."""
    return any(f.kind != "hyperlink" and f.start < d.end and d.start < f.end for f in unit.fields)


def _name(unit: Unit) -> str:
    return (unit.label or unit.kind).lower()


def propagate_margins(plan: Any, doc: Document, after: Document, edits: list[Edit], ids: list[str]) -> None:
    """Add to ``plan`` the restatements in headers and footers that front-matter edits make
    necessary (see the module's docstring)."""
    margins = [u for u in doc.units if u.kind in MARGIN_KINDS and u.id not in plan.blocked]
    if not margins:
        return
    front = {u.id for u in front_matter(doc)}
    for e, eid in zip(edits, ids):
        if e.op not in ("replace", "set_text") or e.unit not in front:
            continue
        old_text, new_text = doc.unit(e.unit).text, after.unit(e.unit).text
        dates = _changed_dates(old_text, new_text)
        for old, new in dates:
            for m in margins:
                now = after.get(m.id)
                if now is not None and now.text != m.text and any(d.value == new.value for d in find_dates(now.text)):
                    continue  # the edits restate it already (a change "throughout the document")
                found = [d for d in find_dates(m.text) if (d.day is not None or old.day is None) and not _in_field(m, d)]
                same = [d for d in found if d.value == old.value]
                for d in same or (found if len(found) == 1 else []):
                    written = write_like(new.value, d)
                    if written is None:
                        continue
                    was = "" if d.value == old.value else f"; it read {d.text}, the title page {old.text}"
                    plan.replace(m, d.start, d.end, written,
                                 f"REFERENCES ({m.kind}): the {_name(m)} shows the document's date, now {new.text}{was}", eid)
        line, new_line = old_text.strip(), new_text.strip()
        if dates or len(line) < _MIN_LINE or line == new_line or "\n" in line + new_line:
            continue
        rx = re.compile(rf"(?<!\w){re.escape(line)}(?!\w)")
        for m in margins:
            for hit in rx.finditer(m.text):
                plan.replace(m, hit.start(), hit.end(), new_line,
                             f"REFERENCES ({m.kind}): the {_name(m)} repeats the front matter's '{line}'", eid)
