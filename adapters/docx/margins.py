"""Headers and footers a writer edits: the sections that show them name them explicitly.

A section whose ``w:sectPr`` names no header (footer) of a type shows the previous section's
(ECMA-376 Part 1, 17.10.5: "the header from the previous section is used"). Word then shows
one part on the pages of both sections; LibreOffice makes a page style per section and copies
the inherited part's content into the second one, where a tracked change inside it stops being
a change: its deleted and inserted text both show as plain text, and Accept All leaves them
("1923 October 2025"). When an edit changes a header or footer part, :func:`pin_references`
writes the inherited reference into each section that inherits it, so that every section names
the part itself: Word shows exactly what it showed before, and LibreOffice imports the part,
with its tracked changes, into every page style that shows it.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from .oxml import qn, w_attr

__all__ = ["pin_references"]

_SECT_PR = qn("w:sectPr")
_REFS = {qn("w:headerReference"): "header", qn("w:footerReference"): "footer"}
_R_ID, _TYPE = qn("r:id"), w_attr("type")


def _sections(main: Any) -> list[Any]:
    """The ``w:sectPr`` of the body in document order (tracked old properties left out)."""
    return [s for s in main.iter(_SECT_PR) if s.getparent() is not None and s.getparent().tag != qn("w:sectPrChange")]


def pin_references(main: Any, rels: Mapping[str, Any], edited: Iterable[str]) -> int:
    """Name each edited header or footer part in the sections that inherit it.

    ``main`` is the main part's root, ``rels`` its relationships (id -> an object with a
    ``target``), ``edited`` the part names an edit changed. Returns how many references
    were added (0: the main part is unchanged).
    """
    edited = set(edited)
    current: dict[tuple[str, str], tuple[str, Any]] = {}  # (kind, type) -> (r:id, its element)
    added = 0
    for sect in _sections(main):
        own = {(_REFS[ch.tag], ch.get(_TYPE) or "default"): ch for ch in sect if ch.tag in _REFS}
        for key, (rid, el) in list(current.items()):
            if key in own:
                continue
            rel = rels.get(rid)
            if rel is None or rel.target not in edited:
                continue
            copy = el.makeelement(el.tag, dict(el.attrib))
            refs = [ch for ch in sect if ch.tag in _REFS]
            at = sect.index(refs[-1]) + 1 if refs else 0  # the references come first in w:sectPr
            sect.insert(at, copy)
            own[key] = copy
            added += 1
        for key, el in own.items():
            current[key] = (el.get(_R_ID) or "", el)
    return added
