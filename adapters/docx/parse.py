"""Stage 2 of the reader: WordprocessingML -> dataclasses that mirror it (no units yet).

:func:`parse` walks the main part's body once, in document order, with one
:class:`~adapters.docx.textmap.Walker`; tables, text boxes, notes and comments become
:class:`Table`, text-box block lists, :class:`Note` and :class:`CommentDef`. Existing tracked
changes stay data (:class:`TrackedChange` on paragraphs, segments tagged with their views).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Union

from .context import PackageContext
from .oxml import prefixed, w_attr
from .blocks import cell_props, is_floating, iter_block_items, iter_cells, iter_rows, row_views
from .tags import (
    SILENT_TAGS,
    W_ALTCHUNK,
    W_BODY,
    W_BOOKMARKEND,
    W_BOOKMARKSTART,
    W_COMMENT,
    W_COMMENTRANGEEND,
    W_COMMENTRANGESTART,
    W_DRAWING,
    W_ENDNOTE,
    W_FOOTNOTE,
    W_P,
    W_PICT,
    W_TBL,
)
from .views import BOTH
from .scan import ParagraphScan
from .walk import Walker

__all__ = [
    "TrackedChange",
    "Paragraph",
    "Cell",
    "Row",
    "Table",
    "Note",
    "MarginPart",
    "CommentDef",
    "DocxBody",
    "Block",
    "parse",
]

_ID, _NAME, _AUTHOR, _DATE, _TYPE = (w_attr(a) for a in ("id", "name", "author", "date", "type"))


@dataclass(frozen=True)
class TrackedChange:
    """A ``w:ins``/``w:del``/``w:moveFrom``/``w:moveTo``/``w:*PrChange`` as data."""

    kind: str
    id: str | None
    author: str | None
    date: str | None

    @classmethod
    def of(cls, kind: str, el: Any) -> "TrackedChange":
        return cls(kind, el.get(_ID), el.get(_AUTHOR), el.get(_DATE))


@dataclass(eq=False)  # identity semantics: these hold lxml elements
class Paragraph:
    """A ``w:p`` with its walk (:class:`ParagraphScan`) and where it sits."""

    scan: ParagraphScan
    part: str
    path: str
    where: str = "body"  # body | table | textbox | note | comment
    presence: int = BOTH
    textboxes: list[list["Block"]] = field(default_factory=list)

    @property
    def el(self) -> Any:
        return self.scan.p

    @property
    def mark_change(self) -> TrackedChange | None:
        mc = self.scan.mark_change
        return TrackedChange.of(mc[0], mc[1]) if mc else None


@dataclass(eq=False)  # identity semantics: these hold lxml elements
class Cell:
    """A ``w:tc``: its blocks, grid span and whether it continues a vertical merge."""

    blocks: list["Block"]
    span: int = 1
    merged: bool = False


@dataclass(eq=False)  # identity semantics: these hold lxml elements
class Row:
    """A ``w:tr``; ``views`` says in which views it exists (tracked row insertion/deletion)."""

    cells: list[Cell]
    views: int = BOTH
    change: TrackedChange | None = None
    grid_before: int = 0
    grid_after: int = 0


@dataclass(eq=False)  # identity semantics: these hold lxml elements
class Table:
    """A ``w:tbl``; ``paragraphs`` are its cell paragraphs in text order (nested tables inside)."""

    el: Any
    part: str
    path: str
    rows: list[Row]
    paragraphs: list[Paragraph]
    floating: bool = False


Block = Union[Paragraph, Table]


@dataclass(eq=False)  # identity semantics: these hold lxml elements
class Note:
    """A ``w:footnote`` or ``w:endnote``."""

    kind: str
    id: str
    part: str
    blocks: list[Block]


@dataclass(eq=False)  # identity semantics: these hold lxml elements
class MarginPart:
    """A header or footer part (``w:hdr``/``w:ftr``) and the pages it styles."""

    kind: str
    part: str
    types: tuple[str, ...]
    blocks: list[Block]


@dataclass(eq=False)  # identity semantics: these hold lxml elements
class CommentDef:
    """A ``w:comment`` of the comments part."""

    id: str
    author: str | None
    date: str | None
    blocks: list[Block]


@dataclass(eq=False)  # identity semantics: these hold lxml elements
class DocxBody:
    """The whole parsed document, still in WordprocessingML terms."""

    context: PackageContext
    blocks: list[Block]
    notes: dict[tuple[str, str], Note]
    comments: dict[str, CommentDef]
    unknown: dict[str, int]
    warnings: list[str]
    margins: list[MarginPart] = field(default_factory=list)


class _Parser:
    def __init__(self, ctx: PackageContext, warnings: list[str]) -> None:
        self.ctx = ctx
        self.warnings = warnings
        self.unknown: dict[str, int] = {}
        self.walker = Walker(ctx, self.unknown)

    def blocks(self, container, part: str, prefix: str, where: str) -> list[Block]:
        self.walker.part = part
        out: list[Block] = []
        pending: list[tuple] = []
        last: Paragraph | None = None
        index = 0
        for el in iter_block_items(container):
            tag = el.tag
            if tag == W_P:
                para = self.paragraph(el, part, f"{prefix}{index}", where)
                if pending:
                    para.scan.events[:0] = pending
                    pending = []
                out.append(para)
                last = para
                index += 1
            elif tag == W_TBL:
                out.append(self.table(el, part, f"{prefix}{index}", where))
                last = None
                index += 1
            elif tag == W_PICT or tag == W_DRAWING:
                out.append(Paragraph(self.walker.object_block(el), part, f"{prefix}{index}", where))
                last = None
                index += 1
            elif tag == W_BOOKMARKSTART:
                pending.append(("bm_start", el.get(_ID), el.get(_NAME), 0))
            elif tag == W_COMMENTRANGESTART:
                pending.append(("c_start", el.get(_ID), 0))
            elif tag == W_BOOKMARKEND or tag == W_COMMENTRANGEEND:
                kind = "bm_end" if tag == W_BOOKMARKEND else "c_end"
                if last is not None:
                    last.scan.events.append((kind, el.get(_ID), last.scan.acc_len))
                else:
                    pending.append((kind, el.get(_ID), 0))
            elif tag == W_ALTCHUNK:
                self.warnings.append("an imported chunk (w:altChunk) was not read")
            elif isinstance(tag, str) and tag not in SILENT_TAGS:
                self.unknown[tag] = self.unknown.get(tag, 0) + 1
        return out

    def paragraph(self, el, part: str, path: str, where: str, presence: int = BOTH) -> Paragraph:
        scan = self.walker.paragraph(el)
        para = Paragraph(scan, part, path, where, presence)
        n = 0
        for kind, obj, _views, _alt in scan.objects:
            if kind == "textbox":
                saved = self.walker.save_fields()
                para.textboxes.append(self.blocks(obj, part, f"{path}/t{n}/", "textbox"))
                self.walker.restore_fields(saved)
                n += 1
        return para

    def table(self, tbl, part: str, path: str, where: str) -> Table:
        table = Table(tbl, part, path, [], [], floating=is_floating(tbl))
        table.rows = self._rows(tbl, table, BOTH)
        return table

    def _rows(self, tbl, table: Table, views: int) -> list[Row]:
        rows: list[Row] = []
        for tr in iter_rows(tbl):
            rv, change, before, after = row_views(tr)
            rv &= views
            row = Row([], rv, TrackedChange.of(change[0], change[1]) if change else None, before, after)
            for tc in iter_cells(tr):
                span, merged = cell_props(tc)
                cell = Cell([], span, merged)
                if not merged:
                    for el in iter_block_items(tc):
                        if el.tag == W_P:
                            k = len(table.paragraphs)
                            para = self.paragraph(el, table.part, f"{table.path}/c{k}", "table", rv)
                            table.paragraphs.append(para)
                            cell.blocks.append(para)
                        elif el.tag == W_TBL:
                            # a nested table's paragraphs belong to the outer table's text
                            nested = Table(el, table.part, table.path, [], [], floating=is_floating(el))
                            nested.rows = self._rows(el, table, rv)
                            cell.blocks.append(nested)
                row.cells.append(cell)
            rows.append(row)
        return rows

    def note(self, kind: str, el, part: str) -> Note:
        nid = el.get(_ID) or ""
        saved = self.walker.save_fields()
        blocks = self.blocks(el, part, f"#{nid}/", "note")
        self.walker.restore_fields(saved)
        return Note(kind, nid, part, blocks)


def parse(ctx: PackageContext, warnings: list[str]) -> DocxBody:
    """Walk the main part's body, then the cited notes, the comments, the headers and footers."""
    parser = _Parser(ctx, warnings)
    main = ctx.root(ctx.main_part)
    body = main.find(W_BODY)
    blocks = parser.blocks(body, ctx.main_part, "", "body")
    notes: dict[tuple[str, str], Note] = {}
    for kind, part, tag in (("footnote", ctx.footnotes_part, W_FOOTNOTE), ("endnote", ctx.endnotes_part, W_ENDNOTE)):
        if part is None:
            continue
        for el in ctx.root(part):
            if el.tag != tag or el.get(_TYPE) in ("separator", "continuationSeparator", "continuationNotice"):
                continue
            nid = el.get(_ID)
            if nid is not None and (kind, nid) in ctx.note_marks:
                notes[(kind, nid)] = parser.note(kind, el, part)
    comments: dict[str, CommentDef] = {}
    if ctx.comments_part is not None:
        for el in ctx.root(ctx.comments_part):
            if el.tag != W_COMMENT:
                continue
            cid = el.get(_ID) or ""
            saved = parser.walker.save_fields()
            cblocks = parser.blocks(el, ctx.comments_part, f"#{cid}/", "comment")
            parser.walker.restore_fields(saved)
            comments[cid] = CommentDef(cid, el.get(_AUTHOR), el.get(_DATE), cblocks)
    margins = []
    for m in ctx.margins:
        saved = parser.walker.save_fields()
        margins.append(MarginPart(m.kind, m.part, m.types, parser.blocks(ctx.root(m.part), m.part, "", "margin")))
        parser.walker.restore_fields(saved)
    for tag, n in sorted(parser.unknown.items(), key=lambda kv: kv[0]):
        warnings.append(f"skipped unknown element <{prefixed(tag)}> ({n}x)")
    return DocxBody(ctx, blocks, notes, comments, parser.unknown, warnings, margins)
