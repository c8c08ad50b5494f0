"""Comments a writer adds (why a change was made): ``office:annotation`` ... ``office:annotation-end``.

An ODF comment is an ``office:annotation`` (``dc:creator``, ``dc:date``,
``meta:creator-initials``, its paragraphs) where its range starts and an
``office:annotation-end`` of the same ``office:name`` where it ends (ODF 1.3, §14.1). The
range of a comment on an edit runs from the first to the last change marker of the regions
the edit made (a deletion is a point in the text, and LibreOffice shows the deleted text
there, inside the range); a comment on a finding wraps its evidence in the unit's paragraph.
LibreOffice 7.4 has no threads: a reply is a comment at its parent's place.
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from .revision_xml import CHANGE, CHANGE_END, CHANGE_ID, CHANGE_START, detach, insert_after, insert_before
from .odfxml import qn

__all__ = ["Annotator", "ANNOTATION", "ANNOTATION_END"]

ANNOTATION = qn("office:annotation")
ANNOTATION_END = qn("office:annotation-end")
_NAME = qn("office:name")


class Annotator:
    """Fresh annotation names for one content.xml, and the two elements of each comment."""

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self._used = {el.get(_NAME) for el in root.iter(ANNOTATION, ANNOTATION_END)}
        self._n = 0
        self.count = 0
        self._markers: dict[str, list[Any]] | None = None

    def _name(self) -> str:
        while True:
            self._n += 1
            name = f"__Annotation__ledger_{self._n}"
            if name not in self._used:
                self._used.add(name)
                return name

    def elements(self, text: str, author: str, initials: str, date: str | None) -> tuple[Any, Any]:
        """A new ``office:annotation`` and its ``office:annotation-end``."""
        name = self._name()
        ann = etree.Element(ANNOTATION)
        ann.set(_NAME, name)
        etree.SubElement(ann, qn("dc:creator")).text = author
        if date:
            etree.SubElement(ann, qn("dc:date")).text = date.rstrip("Z")
        etree.SubElement(ann, qn("meta:creator-initials")).text = initials
        for line in text.split("\n"):
            etree.SubElement(ann, qn("text:p")).text = line or None
        end = etree.Element(ANNOTATION_END)
        end.set(_NAME, name)
        self.count += 1
        return ann, end

    def markers(self, office_text: etree._Element, rids: list[str]) -> tuple[Any, Any] | None:
        """The first and last change marker (in document order) of the regions ``rids``.

        The markers are indexed once (comments are placed after every change is written, and
        placing one moves no marker): one pass for all comments, not one per comment.
        """
        if self._markers is None:
            self._markers = {}
            for i, el in enumerate(office_text.iter(CHANGE_START, CHANGE_END, CHANGE)):
                self._markers.setdefault(el.get(CHANGE_ID) or "", []).append((i, el))
        found = sorted((m for rid in set(rids) for m in self._markers.get(rid, ())), key=lambda m: m[0])
        return (found[0][1], found[-1][1]) if found else None

    @staticmethod
    def wrap(ann: Any, end: Any, first: Any, last: Any) -> None:
        """``ann`` right before ``first`` and ``end`` right after ``last`` (text stays in place)."""
        insert_before(first, ann)
        insert_after(last, end)

    @staticmethod
    def at_milestones(ann: Any, end: Any, a: Any, b: Any) -> None:
        """``ann`` and ``end`` where milestones ``a`` and ``b`` are; the milestones go."""
        insert_before(a, ann)
        detach(a)
        insert_before(b, end)
        detach(b)
