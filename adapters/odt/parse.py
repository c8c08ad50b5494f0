"""Stage two of the ODT reader: ``office:text`` -> the dataclasses of :mod:`adapters.odt.body`.

Nothing here decides what a unit is. Paragraphs and headings keep their segments and the
events the inline walk found (bookmarks, fields, notes, frames, comments, change marks);
lists are flattened into paragraphs that remember their ``text:list`` and level; sections
are flattened into paragraphs that remember the section; tables keep rows and cells; frames
keep their image, object or text box; indexes (tables of contents) keep their body. Every
block knows its locator (element indexes from ``office:text``). Unknown block elements are
skipped with a warning.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from .body import Annotation, Block, Body, Cell, Frame, Index, ListPos, ListRef, Note, Paragraph, Table
from .odfxml import XML_ID, name_of, qn
from .textmap import relative_path, walk_paragraph

if TYPE_CHECKING:  # pragma: no cover
    from .context import OdtContext

__all__ = ["parse", "parse_blocks", "paragraph_frames"]

_P = qn("text:p")
_H = qn("text:h")
_PARAGRAPHS = (_P, _H)
_DRAW_NS = "{" + qn("draw:x")[1:].partition("}")[0] + "}"
_LIST = qn("text:list")
_LIST_ITEM = qn("text:list-item")
_LIST_HEADER = qn("text:list-header")
_NUMBERED_PARAGRAPH = qn("text:numbered-paragraph")
_SECTION = qn("text:section")
_SECTION_SOURCE = qn("text:section-source")
_SOFT_BREAK = qn("text:soft-page-break")
_TABLE = qn("table:table")
_TABLE_ROW = qn("table:table-row")
_TABLE_ROWS = qn("table:table-rows")
_TABLE_HEADER_ROWS = qn("table:table-header-rows")
_TABLE_ROW_GROUP = qn("table:table-row-group")
_TABLE_CELL = qn("table:table-cell")
_COVERED_CELL = qn("table:covered-table-cell")
_NOTE_BODY = qn("text:note-body")
_NOTE_CITATION = qn("text:note-citation")
_DRAW_A = qn("draw:a")
_DRAW_G = qn("draw:g")
_IMAGE = qn("draw:image")
_OBJECT = qn("draw:object")
_OBJECT_OLE = qn("draw:object-ole")
_TEXT_BOX = qn("draw:text-box")
_SVG_TITLE = qn("svg:title")
_SVG_DESC = qn("svg:desc")
_INDEX_BODY = qn("text:index-body")
_INDEX_TITLE = qn("text:index-title")
_CREATOR = qn("dc:creator")
_DATE = qn("dc:date")

_A_STYLE = qn("text:style-name")
_A_LEVEL = qn("text:outline-level")
_A_RESTART = qn("text:restart-numbering")
_A_START = qn("text:start-value")
_A_LIST_HEADER = qn("text:is-list-header")
_A_CONT_NUM = qn("text:continue-numbering")
_A_CONT_LIST = qn("text:continue-list")
_A_NAME = qn("text:name")
_A_DRAW_NAME = qn("draw:name")
_A_HREF = qn("xlink:href")
_A_NOTE_CLASS = qn("text:note-class")
_A_ID = qn("text:id")
_A_OFFICE_NAME = qn("office:name")
_A_NP_LEVEL = qn("text:level")
_A_LIST_ID = qn("text:list-id")

_INDEXES = {
    qn(f"text:{n}"): n
    for n in (
        "table-of-content",
        "illustration-index",
        "table-index",
        "object-index",
        "user-index",
        "alphabetical-index",
        "bibliography",
    )
}
# Declarations and other body children that hold no text of the flow.
_SIDE = {
    qn(f"text:{n}")
    for n in (
        "tracked-changes",
        "variable-decls",
        "sequence-decls",
        "user-field-decls",
        "dde-connection-decls",
        "alphabetical-index-auto-mark-file",
    )
} | {qn("office:forms"), qn("table:calculation-settings"), qn("table:content-validations"),
     qn("table:label-ranges"), _SOFT_BREAK, _SECTION_SOURCE, qn("office:text-content-prelude"),
     qn("office:text-content-epilogue"), qn("text:page-sequence")}
_TABLE_SKIP = {qn("table:table-column"), qn("table:table-columns"), qn("table:table-column-group"),
               qn("table:table-header-columns"), qn("table:table-source"), qn("table:scenario"),
               qn("table:shapes"), qn("office:dde-source"), qn("table:title"), qn("table:desc"),
               _SOFT_BREAK}


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _text_of(el: etree._Element) -> str:
    return "".join(el.itertext())


class _Parser:
    def __init__(self, ctx: "OdtContext") -> None:
        self.ctx = ctx
        self.warnings: list[str] = []
        self._warned: set[str] = set()
        self._annotations: dict[str, Annotation] = {}

    def warn(self, message: str) -> None:
        if message not in self._warned:
            self._warned.add(message)
            self.warnings.append(message)

    # -- blocks -------------------------------------------------------------------------------

    def blocks(
        self,
        container: etree._Element,
        path: tuple[int, ...],
        flow: list[str],
        section: str | None = None,
        listpos: ListPos | None = None,
        box: Frame | None = None,
    ) -> list[Block]:
        """Parse the block children of ``container``; ``flow`` holds the open change ids."""
        out: list[Block] = []
        for i, child in enumerate(container.iterchildren(etree.Element)):
            tag = child.tag
            here = path + (i,)
            if tag == _P or tag == _H:
                out.append(self.paragraph(child, here, flow, section, listpos, box))
                if listpos is not None and listpos.first_in_item:
                    listpos = ListPos(listpos.list, listpos.level, listpos.header, None, False)
            elif tag == _LIST:
                parent = listpos.list if listpos is not None else None
                level = listpos.level + 1 if listpos is not None else 1
                self.text_list(child, here, flow, section, parent, level, out, box)
            elif tag == _SECTION:
                out.extend(self.blocks(child, here, flow, child.get(_A_NAME) or section, listpos, box))
            elif tag == _TABLE:
                out.append(self.table(child, here, flow, section))
            elif tag in _INDEXES:
                out.append(self.index(child, here, flow))
            elif tag == _NUMBERED_PARAGRAPH:
                self.numbered_paragraph(child, here, flow, section, out, box)
            elif tag in _SIDE:
                continue
            elif tag.startswith(_DRAW_NS):
                frame = self.frame(child, here, flow, 0)
                if frame is not None:
                    out.append(frame)
            else:
                self.warn(f"skipped unknown element {name_of(child)} in {name_of(container)}")
        return out

    def paragraph(
        self,
        el: etree._Element,
        path: tuple[int, ...],
        flow: list[str],
        section: str | None,
        listpos: ListPos | None,
        box: Frame | None,
    ) -> Paragraph:
        open_at_start = tuple(flow)
        w = walk_paragraph(el, self.ctx, flow)
        flow[:] = w.open_changes
        style = el.get(_A_STYLE)
        level: int | None
        if el.tag == _H:
            # LibreOffice reads a text:h without text:outline-level as level 1, whatever its style
            heading, level = True, _int(el.get(_A_LEVEL)) or 1
        else:
            # a text:p in a style assigned to an outline level is numbered and read as a heading
            level = self.ctx.styles.outline_level(style)
            heading = level is not None
        para = Paragraph(
            element=el,
            path=path,
            heading=heading,
            style=style,
            outline_level=level,
            segments=w.segments,
            events=w.events,
            deletions=w.deletions,
            text="".join(seg.text for seg in w.segments),
            open_at_start=open_at_start,
            restart=el.get(_A_RESTART) == "true",
            start_value=_int(el.get(_A_START)),
            is_list_header=el.get(_A_LIST_HEADER) == "true",
            listpos=listpos,
            section=section,
            container=box,
        )
        for ev in w.events:
            kind = ev.kind
            if kind == "note":
                para.notes.append(self.note(ev.node, path, ev.start))
            elif kind == "frame":
                frame = self.frame(ev.node, path + relative_path(ev.node, _PARAGRAPHS), flow, ev.start)
                if frame is not None:
                    para.frames.append(frame)
            elif kind == "annotation":
                ann = self.annotation(ev.node, path, ev.start)
                para.annotations.append(ann)
                if ann.name:
                    self._annotations[ann.name] = ann
            elif kind == "annotation-end":
                ended = self._annotations.pop(ev.node.get(_A_OFFICE_NAME) or "", None)
                if ended is not None:
                    ended.end_offset = ev.start
                    if ended not in para.annotations:
                        ended.end_paragraph = para
            elif kind == "unknown":
                self.warn(f"unknown inline element {name_of(ev.node)}: its text is kept")
        return para

    def text_list(
        self,
        el: etree._Element,
        path: tuple[int, ...],
        flow: list[str],
        section: str | None,
        parent: ListRef | None,
        level: int,
        out: list[Block],
        box: Frame | None,
    ) -> None:
        ref = ListRef(
            element=el,
            xml_id=el.get(XML_ID),
            style_name=el.get(_A_STYLE),
            continue_numbering=el.get(_A_CONT_NUM) == "true",
            continue_list=el.get(_A_CONT_LIST),
            parent=parent,
        )
        for i, item in enumerate(el.iterchildren(etree.Element)):
            tag = item.tag
            if tag == _LIST_ITEM or tag == _LIST_HEADER:
                pos = ListPos(ref, level, tag == _LIST_HEADER, _int(item.get(_A_START)), True)
                out.extend(self.blocks(item, path + (i,), flow, section, pos, box))
            elif tag != _SOFT_BREAK and tag != qn("text:list-header") and not tag.endswith("}number"):
                self.warn(f"skipped unknown element {name_of(item)} in text:list")

    def numbered_paragraph(self, el, path, flow, section, out, box) -> None:
        """``text:numbered-paragraph`` (ODF 1.2): one list paragraph; ``text:list-id`` ties
        paragraphs of the same list together."""
        list_id = el.get(_A_LIST_ID)
        ref = ListRef(el, list_id, el.get(_A_STYLE), False, list_id, None)
        pos = ListPos(ref, _int(el.get(_A_NP_LEVEL)) or 1, False, _int(el.get(_A_START)), True)
        for i, child in enumerate(el.iterchildren(etree.Element)):
            if child.tag in _PARAGRAPHS:
                out.append(self.paragraph(child, path + (i,), flow, section, pos, box))

    def table(self, el: etree._Element, path: tuple[int, ...], flow: list[str], section: str | None) -> Table:
        rows: list[list[Cell]] = []
        header_rows = 0

        def add_rows(container: etree._Element, cpath: tuple[int, ...], header: bool) -> None:
            nonlocal header_rows
            for i, child in enumerate(container.iterchildren(etree.Element)):
                tag = child.tag
                if tag == _TABLE_ROW:
                    rows.append(self.row(child, cpath + (i,)))
                    if header:
                        header_rows += 1
                elif tag == _TABLE_HEADER_ROWS:
                    add_rows(child, cpath + (i,), True)
                elif tag in (_TABLE_ROWS, _TABLE_ROW_GROUP):
                    add_rows(child, cpath + (i,), header)
                elif tag not in _TABLE_SKIP:
                    self.warn(f"skipped unknown element {name_of(child)} in {name_of(container)}")

        add_rows(el, path, False)
        return Table(el, path, el.get(qn("table:name")), rows, header_rows, section, tuple(flow))

    def row(self, el: etree._Element, path: tuple[int, ...]) -> list[Cell]:
        cells: list[Cell] = []
        for i, child in enumerate(el.iterchildren(etree.Element)):
            tag = child.tag
            if tag == _TABLE_CELL or tag == _COVERED_CELL:
                flow: list[str] = []
                blocks = self.blocks(child, path + (i,), flow)
                cells.append(
                    Cell(
                        child,
                        blocks,
                        _int(child.get(qn("table:number-columns-spanned"))) or 1,
                        _int(child.get(qn("table:number-rows-spanned"))) or 1,
                        tag == _COVERED_CELL,
                    )
                )
            elif tag not in _TABLE_SKIP:
                self.warn(f"skipped unknown element {name_of(child)} in table:table-row")
        return cells

    def index(self, el: etree._Element, path: tuple[int, ...], flow: list[str]) -> Index:
        blocks: list[Block] = []
        for i, child in enumerate(el.iterchildren(etree.Element)):
            if child.tag == _INDEX_BODY:
                inner: list[str] = []
                blocks = self._index_body(child, path + (i,), inner)
        return Index(el, path, _INDEXES[el.tag], el.get(_A_NAME), blocks)

    def _index_body(self, el, path, flow) -> list[Block]:
        out: list[Block] = []
        for i, child in enumerate(el.iterchildren(etree.Element)):
            if child.tag == _INDEX_TITLE:
                out.extend(self._index_body(child, path + (i,), flow))
            elif child.tag in (_P, _H):
                out.append(self.paragraph(child, path + (i,), flow, None, None, None))
        return out

    # -- inline objects -----------------------------------------------------------------------

    def note(self, el: etree._Element, para_path: tuple[int, ...], offset: int) -> Note:
        citation = ""
        blocks: list[Block] = []
        path = para_path + relative_path(el, _PARAGRAPHS)
        for i, child in enumerate(el.iterchildren(etree.Element)):
            if child.tag == _NOTE_CITATION:
                citation = _text_of(child).strip()
            elif child.tag == _NOTE_BODY:
                blocks = self.blocks(child, path + (i,), [])
        return Note(el, path, el.get(_A_ID), el.get(_A_NOTE_CLASS, "footnote"), citation, blocks, offset)

    def annotation(self, el: etree._Element, para_path: tuple[int, ...], offset: int) -> Annotation:
        author = date = None
        paras: list[Paragraph] = []
        path = para_path + relative_path(el, _PARAGRAPHS)
        for i, child in enumerate(el.iterchildren(etree.Element)):
            if child.tag == _CREATOR:
                author = (child.text or "").strip() or None
            elif child.tag == _DATE:
                date = (child.text or "").strip() or None
            elif child.tag in (_P, _H):
                paras.append(self.paragraph(child, path + (i,), [], None, None, None))
            elif child.tag == _LIST:
                out: list[Block] = []
                self.text_list(child, path + (i,), [], None, None, 1, out, None)
                paras.extend(b for b in out if isinstance(b, Paragraph))
        return Annotation(el, el.get(_A_OFFICE_NAME), author, date, paras, offset)

    def frame(self, el: etree._Element, path: tuple[int, ...], flow: list[str], offset: int) -> Frame | None:
        """A drawing object (``draw:frame``, or a link or group around frames) at ``path``."""
        tag = el.tag
        if tag in (_DRAW_A, _DRAW_G):
            frames: list[Frame] = []
            for i, c in enumerate(el.iterchildren(etree.Element)):
                if c.tag.startswith(_DRAW_NS):
                    f = self.frame(c, path + (i,), flow, offset)
                    if f is not None:
                        frames.append(f)
            if not frames:
                return None
            # a group: keep the first object and gather the text of the others into it
            first = frames[0]
            for f in frames[1:]:
                first.blocks.extend(f.blocks)
            return first
        frame = Frame(el, path, "shape", el.get(_A_DRAW_NAME), None, None, offset=offset)
        for i, child in enumerate(el.iterchildren(etree.Element)):
            ctag = child.tag
            if ctag == _SVG_TITLE:
                frame.title = _text_of(child).strip() or None
            elif ctag == _SVG_DESC:
                frame.desc = _text_of(child).strip() or None
            elif ctag == _OBJECT or ctag == _OBJECT_OLE:
                frame.kind = "object"
                href = child.get(_A_HREF)
                if href:
                    frame.href = href
                    frame.object_part = href[2:] if href.startswith("./") else href
            elif ctag == _IMAGE:
                if frame.kind != "object":
                    frame.kind = "image"
                    frame.href = child.get(_A_HREF)
            elif ctag == _TEXT_BOX:
                frame.kind = "text-box"
                frame.blocks = self.blocks(child, path + (i,), [], None, None, frame)
            elif ctag in (_P, _H, _LIST) and not frame.blocks:  # text of a custom shape
                frame.blocks = self.blocks(el, path, [], None, None, frame)
        return frame



def parse_blocks(container: etree._Element, ctx: "OdtContext") -> Body:
    """Parse the block children of any container (``office:text``, a cell, a note body)."""
    p = _Parser(ctx)
    blocks = p.blocks(container, (), [])
    return Body(blocks, p.warnings)


def paragraph_frames(el: etree._Element, ctx: "OdtContext", path: tuple[int, ...]) -> list[Frame]:
    """The pictures, objects and text boxes of one paragraph read on its own (a deleted
    paragraph in the tracked-changes table), each with its offset in the paragraph's text."""
    if not any(True for _ in el.iter(_DRAW_NS + "*")):
        return []
    return _Parser(ctx).paragraph(el, path, [], None, None, None).frames


def parse(ctx: "OdtContext") -> Body:
    """Parse the body of the package (``content.xml``'s ``office:text``)."""
    return parse_blocks(ctx.office_text, ctx)
