"""The intermediate model of the ODT reader: dataclasses that mirror ODF elements.

:func:`adapters.odt.parse.parse` fills them; :func:`adapters.odt.convert.to_units` reads
them. Each block keeps its element and its locator (element indexes from ``office:text``),
so units can be anchored back into ``content.xml``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from .textmap import Deletion, Event, Segment

__all__ = [
    "ListRef",
    "ListPos",
    "Paragraph",
    "Frame",
    "Note",
    "Annotation",
    "Cell",
    "Table",
    "Index",
    "Body",
    "Block",
]


@dataclass(eq=False)
class ListRef:
    """One ``text:list`` element: its id, style and continuation attributes."""

    element: Any
    xml_id: str | None
    style_name: str | None
    continue_numbering: bool
    continue_list: str | None
    parent: "ListRef | None" = None

    @property
    def top(self) -> "ListRef":
        ref = self
        while ref.parent is not None:
            ref = ref.parent
        return ref

    def effective_style(self) -> str | None:
        """The list style of this level: its own, or the closest enclosing list's."""
        ref: ListRef | None = self
        while ref is not None:
            if ref.style_name:
                return ref.style_name
            ref = ref.parent
        return None


@dataclass(eq=False)
class ListPos:
    """Where a paragraph sits in a list: its list, level (1-based), header or item."""

    list: ListRef
    level: int
    header: bool = False
    #: ``text:start-value`` of the ``text:list-item`` (only on its first paragraph).
    start_value: int | None = None
    #: Only the first paragraph of an item carries the number; later ones continue it.
    first_in_item: bool = True


@dataclass(eq=False)
class Annotation:
    """An ``office:annotation`` (a comment) at an offset of its paragraph."""

    element: Any
    name: str | None
    author: str | None
    date: str | None
    paragraphs: list["Paragraph"]
    offset: int
    end_offset: int | None = None
    #: The paragraph of the ``office:annotation-end`` when it is not the annotation's own.
    end_paragraph: "Paragraph | None" = None


@dataclass(eq=False)
class Note:
    """A ``text:note``: class, citation and the blocks of its body."""

    element: Any
    path: tuple[int, ...]
    id: str | None
    note_class: str
    citation: str
    blocks: list["Block"]
    offset: int


@dataclass(eq=False)
class Frame:
    """A ``draw:frame`` (or another drawing shape) with what it shows.

    ``kind``: ``image``, ``object`` (an embedded formula, chart...), ``text-box`` or
    ``shape``; ``object_part`` is the embedded object's folder (``Object 1``).
    """

    element: Any
    path: tuple[int, ...]
    kind: str
    name: str | None
    title: str | None
    desc: str | None
    href: str | None = None
    object_part: str | None = None
    blocks: list["Block"] = field(default_factory=list)
    offset: int = 0


@dataclass(eq=False)
class Paragraph:
    """A ``text:p`` or ``text:h`` with its walked text.

    ``heading`` is true for a ``text:h`` and for a ``text:p`` whose style is assigned to an
    outline level (``style:default-outline-level``); ``outline_level`` is then its level.
    """

    element: Any
    path: tuple[int, ...]
    heading: bool
    style: str | None
    outline_level: int | None
    segments: list[Segment]
    events: list[Event]
    deletions: list[Deletion]
    #: Ids of change regions open where the paragraph starts.
    open_at_start: tuple[str, ...] = ()
    restart: bool = False
    start_value: int | None = None
    is_list_header: bool = False
    listpos: ListPos | None = None
    section: str | None = None
    notes: list[Note] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    annotations: list[Annotation] = field(default_factory=list)
    #: The enclosing text box frame, for paragraphs of a text box.
    container: Frame | None = None
    #: The accepted text: the segments joined.
    text: str = ""



@dataclass(eq=False)
class Cell:
    """A ``table:table-cell`` (or a covered cell) and its blocks."""

    element: Any
    blocks: list["Block"]
    colspan: int = 1
    rowspan: int = 1
    covered: bool = False


@dataclass(eq=False)
class Table:
    """A ``table:table``: rows of cells, and how many rows are header rows."""

    element: Any
    path: tuple[int, ...]
    name: str | None
    rows: list[list[Cell]]
    header_rows: int = 0
    section: str | None = None
    #: Ids of the change regions open where the table starts (a table inside an insertion).
    open_at_start: tuple[str, ...] = ()


@dataclass(eq=False)
class Index:
    """A generated index (table of contents, illustration index...) and its current body."""

    element: Any
    path: tuple[int, ...]
    kind: str
    name: str | None
    blocks: list["Block"]


Block = Union[Paragraph, Table, Index, Frame]


@dataclass
class Body:
    """The parsed ``office:text``: blocks in document order, and what the walk warned about."""

    blocks: list[Block]
    warnings: list[str]


