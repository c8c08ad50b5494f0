"""Real defects seeded into copies of the wild specifications, as an editor's careless edits.

Each seed is made the way it happens: a text edit written by LEDGER's own writer as a tracked
change and accepted (a typed number changed, a heading or a caption deleted), or a link's
bookmark renamed in the package (a link pasted from another document). :func:`seed` returns the
edited package and, per finding kind, the texts of the units where ``ledger check`` must report
it; :func:`recall` reads the check's findings against them.
"""
from __future__ import annotations

import re
import zipfile
from io import BytesIO

from adapters import accept_all, read, write
from adapters.label_grammar import heading_number
from adapters.model import Delete, Document, Replace, Unit
from addin_backend.graph.mentions import find_mentions
from addin_backend.graph.references import is_navigation

__all__ = ["seed", "recall"]


def _rename_anchors(data: bytes, names: list[str]) -> bytes:
    """Every link to ``names`` renamed to a bookmark the package does not hold (DOCX
    ``w:anchor``, ``HYPERLINK \\l``; ODF ``xlink:href="#..."``)."""
    src = zipfile.ZipFile(BytesIO(data))
    out = BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            body = src.read(info.filename)
            if info.filename in ("word/document.xml", "content.xml"):
                text = body.decode("utf-8")
                for n in names:
                    q = re.escape(n)
                    text = re.sub(r'(w:anchor="|\\l &quot;|\\l "|xlink:href="#)' + q + r'(?=["&])',
                                  lambda m: m.group(1) + n + "_gone", text)
                body = text.encode("utf-8")
            dst.writestr(info, body)
    return out.getvalue()


def _body_links(doc: Document) -> list[tuple[Unit, object, Unit]]:
    """(unit, field, target section) of the internal links in prose whose text opens with the
    target's typed number ("3.1.3 Will Flags")."""
    out = []
    for u in doc.units:
        if is_navigation(u) or u.kind == "section":
            continue
        for f in u.fields:
            if f.kind != "hyperlink" or not f.target_unit:
                continue
            t = doc.unit(f.target_unit)
            shown = u.text[f.start:f.end]
            typed = heading_number(shown)
            if t.kind == "section" and t.number and typed and typed[0] == t.number:
                out.append((u, f, t))
    return out


def _bumped(number: str) -> str:
    head, _, last = number.rpartition(".")
    new = str(int(last) + 7) if last.isdigit() else chr(ord(last) + 1)
    return f"{head}.{new}" if head else new


def seed(data: bytes) -> tuple[bytes, dict[str, list[str]]]:
    """A copy of a wild document with real defects seeded, and per kind the (shortened) texts of
    the units the findings must be on."""
    doc = read(data)
    expect: dict[str, list[str]] = {"broken_link": [], "stale_reference": [], "numbering_gap": []}
    edits = []
    used: set[str] = set()
    links = _body_links(doc)
    # a link's text retyped with another number: it names another section than it goes to
    for u, f, t in links[5:8]:
        if u.id in used:
            continue
        used.add(u.id)
        s = f.start + (len(u.text[f.start:f.end]) - len(u.text[f.start:f.end].lstrip()))
        edits.append(Replace(unit=u.id, start=s, end=s + len(t.number), text=_bumped(t.number), before=u.text))
        expect["stale_reference"].append(u.text[:60].replace(t.number, _bumped(t.number), 1))
    # a typed figure number changed to another section's figure
    figures = {}
    for u in doc.units:
        m = re.match(r"^Figure (\d+)-(\d+)\s*[\u2013\-\uff0d]", u.text)
        if m:
            figures[(m.group(1), int(m.group(2)))] = u
    count = 0
    for u in doc.units:
        if count >= 3 or u.id in used or is_navigation(u) or u.kind == "section" or u.text.startswith("Figure"):
            continue
        for m in find_mentions(u.text):
            if m.family == "figure" and m.literal and "." in u.text[m.end:m.end + 1] and u.text.startswith("Position"):
                chapter, n = m.literal.split("-")
                other = next((k for k in sorted(figures) if k[0] == chapter and abs(k[1] - int(n)) >= 8), None)
                if other is None:
                    continue
                used.add(u.id)
                a, b = m.pairs[0][:2] if m.pairs else (m.items[0].start, m.items[-1].end)
                new = f"{other[0]}-{other[1]}"
                edits.append(Replace(unit=u.id, start=a, end=b, text=new, before=u.text))
                expect["stale_reference"].append(u.text[:a][-60:] + new)
                count += 1
                break
    # a typed heading deleted between its siblings, and a caption in the middle of its chapter
    kids: dict[str | None, list[Unit]] = {}
    for u in doc.units:
        if u.kind == "section" and u.number and heading_number(u.text):
            kids.setdefault(u.parent, []).append(u)
    deleted = 0
    for parent, units in kids.items():
        if deleted >= 2 or len(units) < 4 or parent is None:
            continue
        victim, after = units[1], units[2]
        edits.append(Delete(unit=victim.id, before=victim.text))
        expect["numbering_gap"].append(after.text[:60])
        deleted += 1
    chapter3 = sorted(k for k in figures if k[0] == "3")
    if len(chapter3) > 12:
        victim = figures[chapter3[10]]
        edits.append(Delete(unit=victim.id, before=victim.text))
        expect["numbering_gap"].append(figures[chapter3[11]].text[:60])
    written = accept_all(write(data, edits, document=doc))
    # links pasted from elsewhere: their bookmarks are not in this document
    broken = [(u, f) for u, f, _t in links[:3]]
    names = [f.target for _u, f in broken if f.target]
    expect["broken_link"] = [u.text[:60] for u, _f in broken]
    return _rename_anchors(written, names), expect


def recall(doc: Document, findings: list, expect: dict[str, list[str]]) -> dict[str, tuple[int, int]]:
    """Per kind: (found, seeded): a seed is found when a finding of its kind is on a unit whose
    text starts with the seed's text (or, for a unit that lost its start, contains it)."""
    out = {}
    for kind, texts in expect.items():
        units = {f.unit for f in findings if f.kind == kind}
        got = [doc.unit(uid).text for uid in units]
        found = sum(any(g.startswith(t) or t in g for g in got) for t in texts)
        out[kind] = (found, len(texts))
    return out
