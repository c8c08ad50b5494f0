"""A document's change log: the record of its past states, which no check reads.

A revision history ("Revision | Date | Editor | Changes Made") cites the section numbers, names
and stage ids of earlier drafts ("Fixed a typo in section 10.7", "This version became CSD03",
"13 JIRA resolutions added"): they were right when written, and an editor does not rewrite the
record to today's numbering or spell out a tracker's name there. Known by what the document
shows: a section titled as a history or change log, or a table whose header row names a
revision (or version) column and a date column.
"""
from __future__ import annotations

import re

from adapters.model import Document, Unit

from ..findings import Finding

__all__ = ["change_log_units", "outside_change_logs"]

_LOG_TITLE = re.compile(
    r"^\W*(?:[\dA-Z]+(?:\.\d+)*\.?\s+)?(?:appendix\s+\w+\.?\s*)?(?:(?:revision|change|document|version|edit)\s+"
    r"(?:history|log|record)|change\s*log|changes|history\s+of\s+changes|revisions|"
    r"(?:historique|journal)\s+des\s+(?:modifications|r[ée]visions)|[äa]nderungs(?:historie|verlauf|protokoll)|"
    r"historial\s+de\s+(?:cambios|revisiones)|control\s+de\s+cambios)\b(?:\s*\([^)]*\))?\W*$",
    re.I)
_REVISION_HEAD = re.compile(r"^\W*(?:rev(?:ision)?|version|v(?:er)?\.?|draft|release|r[ée]vision|versi[óo]n)\W*$", re.I)
_DATE_HEAD = re.compile(r"^\W*(?:date|datum|fecha|data|issued|published)\W*$", re.I)


def _log_table(u: Unit) -> bool:
    cells = u.meta.get("cells") if u.kind == "table" else None
    if not cells or not isinstance(cells[0], (list, tuple)):
        return False
    head = [str(c) for c in cells[0]]
    return any(_REVISION_HEAD.match(c) for c in head) and any(_DATE_HEAD.match(c) for c in head)


def change_log_units(doc: Document) -> set[str]:
    """Ids of the units of the document's change logs: the sections titled so with all they
    contain, and revision tables."""
    out: set[str] = set()
    logs: set[str] = set()
    for u in doc.units:  # a section comes before what it contains
        if u.kind == "section" and (u.parent in logs or _LOG_TITLE.match((u.title or u.text or "").strip())):
            logs.add(u.id)
            out.add(u.id)
        elif u.parent in logs or _log_table(u):
            out.add(u.id)
    return out


def outside_change_logs(doc: Document, findings: list[Finding]) -> list[Finding]:
    """``findings`` without their places in a change log; a finding whose every place (or, with
    no places, whose unit) is in one is dropped."""
    logs = change_log_units(doc)
    if not logs:
        return findings
    out = []
    for f in findings:
        if not f.places:
            if f.unit not in logs:
                out.append(f)
            continue
        keep = [p for p in f.places if p.unit not in logs]
        if not keep:
            continue
        if len(keep) != len(f.places):
            f.places = keep
            f.unit, f.start, f.end = keep[0].unit, keep[0].start, keep[0].end
            f.related = [r for r in f.related if r not in logs]
        out.append(f)
    return out
