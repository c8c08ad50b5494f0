"""Fields, bookmarks and reference marks of ODT paragraphs, and what their names point at.

A caption number is a ``text:sequence``; cross-references are ``text:sequence-ref``,
``text:bookmark-ref``, ``text:reference-ref`` and ``text:note-ref``, each naming its target
with ``text:ref-name``. :func:`make_field` turns a walked field into a model
:class:`~adapters.model.Field`; :class:`FieldIndex` records which unit holds each bookmark,
reference mark, sequence and note, and fills ``Field.target_unit`` once all units exist.
"""
from __future__ import annotations

from typing import Any, Iterator, NamedTuple

from ..model import Document, Field, Unit
from .odfxml import prefixed, qn
from .body import Frame, Index, Paragraph, Table
from .textmap import FIELD_KINDS, Event

__all__ = ["make_field", "mark_events", "FieldIndex", "Mark"]

_REF_NAME = qn("text:ref-name")
_NAME = qn("text:name")
_HREF = qn("xlink:href")
_SEQUENCE = qn("text:sequence")
_CODE_ATTRS = (
    ("text:name", qn("text:name")),
    ("text:ref-name", _REF_NAME),
    ("text:reference-format", qn("text:reference-format")),
    ("text:note-class", qn("text:note-class")),
    ("text:formula", qn("text:formula")),
    ("text:display", qn("text:display")),
)


class Mark(NamedTuple):
    """A bookmark or reference mark found in a paragraph (offsets in its text)."""

    name: str
    start: int
    end: int


def make_field(ev: Event, text: str, base: int = 0, link: bool = False) -> Field:
    """A model :class:`~adapters.model.Field` from a walked field (or ``text:a``) event.

    ``code`` spells the element and its naming attributes
    (``text:bookmark-ref text:ref-name="x" text:reference-format="text"``); ``target`` is the
    ``text:ref-name`` (for a sequence, the name its references use) or, for a link inside the
    document, the bookmark after ``#``.
    """
    el = ev.node
    result = text[ev.start : ev.end]
    if link:
        href = el.get(_HREF) or ""
        target = href[1:] if href.startswith("#") else None
        return Field("hyperlink", f"text:a xlink:href={href!r}", target, None, result, ev.start + base, ev.end + base)
    kind = FIELD_KINDS.get(el.tag, "other")
    parts = [prefixed(el.tag)]
    for label, attr in _CODE_ATTRS:
        value = el.get(attr)
        if value is not None:
            parts.append(f'{label}="{value}"')
    target = el.get(_REF_NAME)
    if target is None and kind == "other":
        target = el.get(_NAME)
    return Field(kind, " ".join(parts), target, None, result, ev.start + base, ev.end + base)


def mark_events(events: list[Event], length: int) -> Iterator[tuple[Mark, bool]]:
    """Bookmarks and reference marks of a paragraph, paired start to end: ``(mark, is_reference)``.

    A start without its end in the same paragraph runs to the paragraph's end.
    """
    open_: dict[tuple[bool, str], int] = {}
    order: list[tuple[bool, str]] = []
    done: dict[tuple[bool, str], Mark] = {}
    for ev in events:
        kind = ev.kind
        if kind not in ("bookmark", "bookmark-start", "bookmark-end", "reference-mark",
                        "reference-mark-start", "reference-mark-end"):
            continue
        is_ref = kind.startswith("reference")
        name = ev.node.get(_NAME) or ""
        key = (is_ref, name)
        if kind.endswith("-start"):
            open_[key] = ev.start
            order.append(key)
        elif kind.endswith("-end"):
            if key in open_:
                done[key] = Mark(name, open_.pop(key), ev.start)
        else:
            done[key] = Mark(name, ev.start, ev.start)
            order.append(key)
    for key in order:
        if key in done:
            yield done.pop(key), key[0]
        elif key in open_:
            yield Mark(key[1], open_.pop(key), length), key[0]


class FieldIndex:
    """Names -> the units that hold them, and the paragraphs of the parsed body by element."""

    def __init__(self) -> None:
        self.bookmarks: dict[str, str] = {}
        self.refmarks: dict[str, str] = {}
        self.sequences: dict[str, str] = {}
        self.notes: dict[str, str] = {}
        self.para_of: dict[Any, Paragraph] = {}
        self.figures: list[Unit] = []
        self.tables: list[Unit] = []

    def note_field(self, unit: Unit, ev: Event) -> None:
        """Remember the unit of a sequence field (the target of ``text:sequence-ref``)."""
        if ev.node.tag == _SEQUENCE:
            name = ev.node.get(_REF_NAME)
            if name:
                self.sequences.setdefault(name, unit.id)

    def index_paragraphs(self, blocks: list) -> None:
        """Map every parsed paragraph (cells, notes, text boxes included) by its element."""
        stack = list(blocks)
        while stack:
            b = stack.pop()
            if isinstance(b, Paragraph):
                self.para_of[b.element] = b
                for note in b.notes:
                    stack.extend(note.blocks)
                for frame in b.frames:
                    stack.extend(frame.blocks)
            elif isinstance(b, Table):
                for row in b.rows:
                    for cell in row:
                        stack.extend(cell.blocks)
            elif isinstance(b, (Frame, Index)):
                stack.extend(b.blocks)

    def resolve(self, doc: Document) -> None:
        """Fill ``target_unit`` of every field whose target name is known.

        Links inside the document name a bookmark (``#name``) or, as LibreOffice writes
        them, an object by kind: ``#Heading text|outline``, ``#Table1|table``,
        ``#Image1|graphic`` (``|frame``, ``|ole``), ``#Section1|region``.
        """
        tables = {
            "sequence": self.sequences,
            "sequence_ref": self.sequences,
            "bookmark_ref": self.bookmarks,
            "reference_ref": self.refmarks,
            "note_ref": self.notes,
        }
        named: dict[str, dict[str, str]] | None = None
        for unit in doc.units:
            for f in unit.fields:
                if not f.target:
                    continue
                if f.kind == "hyperlink":
                    if "|" in f.target:
                        if named is None:
                            named = _named_units(doc)
                        name, _, kind = f.target.rpartition("|")
                        f.target_unit = named.get(kind, {}).get(name)
                    else:
                        f.target_unit = self.bookmarks.get(f.target)
                    continue
                table = tables.get(f.kind)
                if table is not None:
                    f.target_unit = table.get(f.target)


def _named_units(doc: Document) -> dict[str, dict[str, str]]:
    """Units by the names LibreOffice's internal links use, per link kind."""
    out: dict[str, dict[str, str]] = {"outline": {}, "table": {}, "graphic": {}, "region": {}}
    for u in doc.units:
        if u.kind == "section":
            out["outline"].setdefault(u.text, u.id)
            shown = u.meta.get("list_label")
            if shown:  # "#1.2. Title|outline" in newer files
                out["outline"].setdefault(f"{shown}{u.text}", u.id)
                out["outline"].setdefault(f"{shown} {u.text}", u.id)
        name = u.meta.get("name")
        if name and u.kind == "table":
            out["table"].setdefault(name, u.id)
        elif name and u.kind in ("figure", "equation"):
            out["graphic"].setdefault(name, u.id)
        section = u.meta.get("section")
        if section:
            out["region"].setdefault(section, u.id)
    out["frame"] = out["ole"] = out["graphic"]
    return out
