"""The format-independent document both writers render: blocks of inline pieces, plus truth keys.

A :class:`Block` is one unit of the ground truth (a heading, a paragraph, a caption, a whole
table...). Its visible text is the concatenation of its pieces' texts, so the writers and the
ground truth cannot disagree about what a reader sees.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

__all__ = [
    "Block",
    "Math",
    "Piece",
    "RefField",
    "SeqNumber",
    "Text",
    "pieces_text",
]


@dataclass(frozen=True)
class Text:
    """Plain run text (optionally bold, for "Theorem 2." heads)."""

    text: str
    bold: bool = False


@dataclass(frozen=True)
class SeqNumber:
    """A caption number from a field: DOCX ``SEQ <seq> \\* ARABIC``, ODT ``text:sequence``.

    ``ref_name`` is the ODT ``text:ref-name`` (``refFigure0``: LibreOffice's own naming).
    """

    seq: str
    number: int
    ref_name: str

    @property
    def text(self) -> str:
        return str(self.number)


@dataclass(frozen=True)
class RefField:
    """A cross-reference field whose shown result is ``result``.

    ``to`` is ``heading`` (DOCX ``REF name \\r \\h`` -> "2.1"; ODT ``text:bookmark-ref``
    with format ``number``) or ``caption`` (DOCX ``REF name \\h`` over the bookmarked
    "Figure 3"; ODT ``text:sequence-ref`` with format ``category-and-value``).
    ``name`` is the DOCX bookmark (and the ODT heading bookmark); ``odt_name`` is the
    bookmark or sequence ref-name the ODT field points at.
    """

    target: str
    to: str
    name: str
    odt_name: str
    result: str

    @property
    def text(self) -> str:
        return self.result


@dataclass(frozen=True)
class Math:
    """A display formula: tokens ``(kind, text)`` with kind ``i`` (identifier), ``o``, ``n``."""

    tokens: tuple[tuple[str, str], ...]

    @property
    def text(self) -> str:
        return "".join(t for _, t in self.tokens)


Piece = Union[Text, SeqNumber, RefField, Math]


def pieces_text(pieces: list) -> str:
    """The visible text of a run of pieces."""
    return "".join(p.text for p in pieces)


@dataclass
class Block:
    """One unit of the document, in document order.

    ``kind`` is a neutral-model kind. ``style`` tells the writers how to render it: ``title``,
    ``heading``, ``body``, ``caption``, ``list``, ``figure``, ``table``, ``equation``.
    ``bookmark`` names a bookmark over the whole heading text, or over the first ``bookmark_span``
    pieces of a caption ("Figure " + its number), as Word's cross-reference dialog makes them.
    """

    key: str
    kind: str
    style: str
    pieces: list = field(default_factory=list)
    label: str | None = None
    number: str | None = None
    parent: str | None = None
    level: int | None = None
    appendix: bool = False
    bookmark: str | None = None
    bookmark_span: int = 0
    list_id: int | None = None
    rows: list[list[list]] | None = None
    image: bytes | None = None
    alt: str | None = None

    @property
    def text(self) -> str:
        """What a reader sees: a table's cells row by row joined by newlines; a figure's alt text."""
        if self.style == "table" and self.rows is not None:
            return "\n".join(pieces_text(cell) for row in self.rows for cell in row)
        if self.style == "figure":
            return self.alt or ""
        return pieces_text(self.pieces)
