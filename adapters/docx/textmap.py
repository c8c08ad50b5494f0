"""The one text walk of WordprocessingML, shared by the reader and the (future) writer.

A paragraph's text is built from :class:`Segment` pieces, each naming the element it came
from (``w:t``, ``w:delText``, ``w:tab``, ``w:br``, a note reference, an ``m:oMath``...), the
views it shows in, whether it lies in a field result and which revision wraps it. Joining the
segments of a unit's paragraphs (see :func:`unit_segments`) gives exactly ``Unit.text`` (or
``Unit.rejected_text``), so an offset in the text maps back to one element.

Text conventions (what a reader sees): ``w:tab``/``w:ptab`` -> ``"\\t"``; a line break
(``w:br`` of type textWrapping, ``w:cr``) -> ``"\\u2028"`` (LINE SEPARATOR, so one paragraph
stays one line); page and column breaks add nothing; ``w:sym`` -> its character code;
``w:noBreakHyphen`` -> U+2011, ``w:softHyphen`` -> U+00AD; a footnote/endnote reference ->
its rendered mark ("1", "i"); fields show their cached result, never their instruction;
hidden text (``w:vanish``, directly or through styles) is left out; math shows as linear text.

Anchor paths (``Anchor.path``) are ``/``-separated steps from the part's body: ``N`` the Nth
block (``w:p``/``w:tbl`` after unwrapping ``w:sdt``, ``w:customXml``, ``mc:AlternateContent``),
``N-M`` blocks N..M (paragraphs merged by a tracked paragraph-mark change), ``#ID`` the note or
comment with that ``w:id``, ``cN`` the Nth paragraph of a table in text order, ``tN`` the Nth
text box of a paragraph, ``dN`` its Nth figure.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping, NamedTuple

from .fields import FieldCode, parse_instruction
from .omml import math_text
from .oxml import qn, w_attr
from .styles import EMPTY_STYLES

__all__ = [
    "ACCEPTED",
    "REJECTED",
    "BOTH",
    "Segment",
    "FieldRecord",
    "ParagraphScan",
    "Walker",
    "paragraph_segments",
    "iter_blocks",
    "iter_block_items",
    "iter_rows",
    "iter_cells",
    "cell_props",
    "is_floating",
    "row_views",
    "table_paragraphs",
    "join_segments",
    "resolve_anchor",
    "unit_segments",
    "view_bit",
    "classify_object",
    "choose_alternate",
    "SILENT_TAGS",
]

ACCEPTED = 1
REJECTED = 2
BOTH = 3


def view_bit(view: str) -> int:
    """``"accepted"`` -> :data:`ACCEPTED`, ``"rejected"`` -> :data:`REJECTED`."""
    if view == "accepted":
        return ACCEPTED
    if view == "rejected":
        return REJECTED
    raise ValueError(f"unknown view {view!r}")


class Segment(NamedTuple):
    """One piece of a paragraph's text and where it comes from.

    ``el`` is the source element (``w:t``, ``w:delText``, ``w:tab``, ``w:br``, ``w:cr``,
    ``w:sym``, ``w:footnoteReference``, ``m:oMath``, ``wp:docPr`` for a figure's alt text, or the
    previous ``w:p`` for a paragraph-mark separator); ``offset`` is where ``text`` starts in that
    element's own text. ``kind`` is one of ``text``, ``deleted``, ``tab``, ``break``,
    ``symbol``, ``hyphen``, ``note``, ``math``, ``mark``, ``alt``. ``views`` is a bit mask of
    :data:`ACCEPTED` / :data:`REJECTED`; ``in_field`` says the piece is a field's shown result;
    ``revision`` is the innermost ``w:ins``/``w:del``/``w:moveFrom``/``w:moveTo`` around it.
    """

    text: str
    el: Any
    offset: int
    kind: str
    views: int
    in_field: bool
    revision: Any


@dataclass
class FieldRecord:
    """A field (complex, simple) or hyperlink met in a paragraph; offsets in the accepted text."""

    kind: str
    code: str
    target: str | None
    result: str
    start: int
    end: int
    el: Any = None
    parsed: FieldCode | None = None


@dataclass
class ParagraphScan:
    """Everything one walk of a ``w:p`` found: segments plus the side facts the reader needs."""

    p: Any
    segments: list[Segment] = field(default_factory=list)
    style_id: str | None = None
    num_id: str | None = None
    ilvl: int | None = None
    outline: int | None = None
    mark_views: int = BOTH
    mark_change: tuple[str, Any] | None = None
    ppr_change: Any = None
    fields: list[FieldRecord] = field(default_factory=list)
    #: ("bm_start", id, name, off) ("bm_end", id, off) ("c_start"|"c_end"|"c_ref", id, off)
    #: ("note", kind, id, start, end) -- offsets in the accepted text
    events: list[tuple] = field(default_factory=list)
    #: ("figure"|"textbox", element, views, alt text) in walk order
    objects: list[tuple[str, Any, int, str]] = field(default_factory=list)
    #: (element, display, start, end)
    math: list[tuple[Any, bool, int, int]] = field(default_factory=list)
    #: (kind, element, text)
    revisions: list[tuple[str, Any, str]] = field(default_factory=list)
    open_fields: tuple[str, ...] = ()
    acc_len: int = 0
    section_break: bool = False

    def text(self, bit: int = ACCEPTED) -> str:
        return "".join([s.text for s in self.segments if s.views & bit])


# --- tags -------------------------------------------------------------------------------------

_W = qn("w:p")[:-1]
_M = qn("m:r")[:-1]
W_P, W_TBL, W_R, W_T, W_RPR, W_PPR = (_W + t for t in ("p", "tbl", "r", "t", "rPr", "pPr"))
W_TR, W_TC, W_TCPR, W_TRPR, W_BODY = (_W + t for t in ("tr", "tc", "tcPr", "trPr", "body"))
W_INS, W_DEL, W_MOVEFROM, W_MOVETO = (_W + t for t in ("ins", "del", "moveFrom", "moveTo"))
W_HYPERLINK, W_FLDSIMPLE, W_SDT, W_SDTCONTENT = (_W + t for t in ("hyperlink", "fldSimple", "sdt", "sdtContent"))
W_SMARTTAG, W_CUSTOMXML, W_DIR, W_BDO = (_W + t for t in ("smartTag", "customXml", "dir", "bdo"))
W_BOOKMARKSTART, W_BOOKMARKEND = _W + "bookmarkStart", _W + "bookmarkEnd"
W_COMMENTRANGESTART, W_COMMENTRANGEEND = _W + "commentRangeStart", _W + "commentRangeEnd"
W_TAB, W_PTAB, W_BR, W_CR, W_SYM = (_W + t for t in ("tab", "ptab", "br", "cr", "sym"))
W_DELTEXT, W_INSTRTEXT, W_DELINSTRTEXT, W_FLDCHAR = (_W + t for t in ("delText", "instrText", "delInstrText", "fldChar"))
W_NOBREAKHYPHEN, W_SOFTHYPHEN = _W + "noBreakHyphen", _W + "softHyphen"
W_FOOTNOTEREFERENCE, W_ENDNOTEREFERENCE = _W + "footnoteReference", _W + "endnoteReference"
W_COMMENTREFERENCE = _W + "commentReference"
W_DRAWING, W_PICT, W_OBJECT, W_TXBXCONTENT = (_W + t for t in ("drawing", "pict", "object", "txbxContent"))
W_VANISH, W_RSTYLE, W_RPRCHANGE, W_PPRCHANGE = (_W + t for t in ("vanish", "rStyle", "rPrChange", "pPrChange"))
W_PSTYLE, W_NUMPR, W_NUMID, W_ILVL, W_OUTLINELVL = (_W + t for t in ("pStyle", "numPr", "numId", "ilvl", "outlineLvl"))
W_RUBY, W_RUBYBASE = _W + "ruby", _W + "rubyBase"
W_GRIDSPAN, W_VMERGE, W_HMERGE, W_GRIDBEFORE, W_GRIDAFTER = (_W + t for t in ("gridSpan", "vMerge", "hMerge", "gridBefore", "gridAfter"))
W_FOOTNOTE, W_ENDNOTE, W_COMMENT = _W + "footnote", _W + "endnote", _W + "comment"
W_SECTPR, W_FRAMEPR = _W + "sectPr", _W + "framePr"
W_TBLPR, W_TBLPPR = _W + "tblPr", _W + "tblpPr"
_DROPCAP = w_attr("dropCap")
M_OMATHPARA, M_OMATH = _M + "oMathPara", _M + "oMath"
MC_AC, MC_CHOICE, MC_FALLBACK = qn("mc:AlternateContent"), qn("mc:Choice"), qn("mc:Fallback")
WP_DOCPR = qn("wp:docPr")
V_SHAPE, V_IMAGEDATA = qn("v:shape"), qn("v:imagedata")
_FIGURE_TAGS = (qn("pic:pic"), qn("c:chart"), qn("dgm:relIds"), qn("a:blip"), V_IMAGEDATA)

_VAL, _ID, _NAME, _TYPE = w_attr("val"), w_attr("id"), w_attr("name"), w_attr("type")
_AUTHOR, _DATE = w_attr("author"), w_attr("date")
_FLDCHARTYPE, _INSTR, _CHAR, _ANCHOR = w_attr("fldCharType"), w_attr("instr"), w_attr("char"), w_attr("anchor")
_R_ID = qn("r:id")
_O_TITLE = qn("o:title")

_REVISIONS = {W_INS: ("insertion", ACCEPTED), W_DEL: ("deletion", REJECTED), W_MOVETO: ("move_to", ACCEPTED), W_MOVEFROM: ("move_from", REJECTED)}
_UNWRAP = {W_SMARTTAG, W_CUSTOMXML, W_DIR, W_BDO, W_SDTCONTENT}
# Elements that carry no visible text and need no record.
_SILENT = {
    _W + t
    for t in (
        "proofErr", "permStart", "permEnd", "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart",
        "moveToRangeEnd", "customXmlInsRangeStart", "customXmlInsRangeEnd", "customXmlDelRangeStart",
        "customXmlDelRangeEnd", "customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd",
        "customXmlMoveToRangeStart", "customXmlMoveToRangeEnd", "lastRenderedPageBreak", "annotationRef",
        "separator", "continuationSeparator", "footnoteRef", "endnoteRef", "pgNum", "dayShort", "dayLong",
        "monthShort", "monthLong", "yearShort", "yearLong", "contentPart", "fldData", "subDoc", "sectPr",
        "rPr", "pPr", "smartTagPr", "customXmlPr", "sdtPr", "sdtEndPr", "bookmarkStart", "bookmarkEnd",
        "tblPr", "tblGrid", "tblPrEx", "trPr", "tcPr", "altChunk", "commentRangeStart", "commentRangeEnd",
    )
}
SILENT_TAGS = frozenset(_SILENT)
W_ALTCHUNK = _W + "altChunk"
_XML_WS = " \t\r\n"
_XML_SPACE = qn("xml:space")
_NOTE_KIND = {W_FOOTNOTEREFERENCE: "footnote", W_ENDNOTEREFERENCE: "endnote"}


def _on(el) -> bool:
    val = el.get(_VAL)
    return val is None or val in ("1", "true", "on")


def choose_alternate(ac) -> Any:
    """The branch of an ``mc:AlternateContent`` we read: the first ``mc:Choice``, else ``mc:Fallback``.

    Word writes the same content twice (modern ``w:drawing`` + VML fallback); reading one
    branch only keeps text boxes from appearing twice.
    """
    for ch in ac:
        if ch.tag == MC_CHOICE:
            return ch
    for ch in ac:
        if ch.tag == MC_FALLBACK:
            return ch
    return None


# --- block structure --------------------------------------------------------------------------


def iter_block_items(container) -> Iterator[Any]:
    """Children of a block container in order, looking through ``w:sdt``/``w:customXml``/mc.

    Yields ``w:p``, ``w:tbl`` and the other children (markers such as ``w:bookmarkStart``).
    """
    for ch in container:
        tag = ch.tag
        if tag == W_P or tag == W_TBL:
            yield ch
        elif tag == W_SDT:
            content = ch.find(W_SDTCONTENT)
            if content is not None:
                yield from iter_block_items(content)
        elif tag == W_CUSTOMXML or tag == W_SDTCONTENT:
            yield from iter_block_items(ch)
        elif tag == MC_AC:
            branch = choose_alternate(ch)
            if branch is not None:
                yield from iter_block_items(branch)
        elif tag in _REVISIONS:
            # block-level w:ins/w:del are not in the schema, but some writers produce them
            yield from iter_block_items(ch)
        else:
            yield ch


def iter_blocks(container) -> Iterator[Any]:
    """The blocks of a container in order: ``w:p``, ``w:tbl`` and stray block-level pictures.

    Anchor block indexes count these. A ``w:pict``/``w:drawing`` directly in the body is not in
    the schema, but some producers write one; it is read as a paragraph holding a figure.
    """
    for el in iter_block_items(container):
        tag = el.tag
        if tag == W_P or tag == W_TBL or tag == W_PICT or tag == W_DRAWING:
            yield el


def _iter_wrapped(container, tag: str) -> Iterator[Any]:
    for ch in container:
        if ch.tag == tag:
            yield ch
        elif ch.tag == W_SDT:
            content = ch.find(W_SDTCONTENT)
            if content is not None:
                yield from _iter_wrapped(content, tag)
        elif ch.tag == W_CUSTOMXML or ch.tag == W_SDTCONTENT:
            yield from _iter_wrapped(ch, tag)


def iter_rows(tbl) -> Iterator[Any]:
    """The ``w:tr`` of a table (through row-level content controls)."""
    return _iter_wrapped(tbl, W_TR)


def iter_cells(tr) -> Iterator[Any]:
    """The ``w:tc`` of a row (through cell-level content controls)."""
    return _iter_wrapped(tr, W_TC)


def row_views(tr) -> tuple[int, tuple[str, Any] | None, int, int]:
    """``(views, change, gridBefore, gridAfter)`` of a row; an inserted/deleted row shows in one view."""
    views, change, before, after = BOTH, None, 0, 0
    trpr = tr.find(W_TRPR)
    if trpr is not None:
        for c in trpr:
            if c.tag == W_INS:
                views, change = ACCEPTED, ("insertion", c)
            elif c.tag == W_DEL:
                views, change = REJECTED, ("deletion", c)
            elif c.tag == W_GRIDBEFORE:
                before = _int(c.get(_VAL), 0)
            elif c.tag == W_GRIDAFTER:
                after = _int(c.get(_VAL), 0)
    return views, change, before, after


def cell_props(tc) -> tuple[int, bool]:
    """``(gridSpan, continues_merge)``: a cell continuing a vertical merge shows no text."""
    span, cont = 1, False
    tcpr = tc.find(W_TCPR)
    if tcpr is not None:
        for c in tcpr:
            if c.tag == W_GRIDSPAN:
                span = max(1, _int(c.get(_VAL), 1))
            elif c.tag == W_VMERGE or c.tag == W_HMERGE:
                cont = c.get(_VAL) in (None, "continue")
    return span, cont


def _int(val, default: int) -> int:
    try:
        return int(val)
    except (TypeError, ValueError):
        return default


def is_floating(tbl) -> bool:
    """Whether a table floats (``w:tblPr/w:tblpPr``): positioned on the page, not in the text flow."""
    tblpr = tbl.find(W_TBLPR)
    return tblpr is not None and tblpr.find(W_TBLPPR) is not None


def table_paragraphs(tbl, views: int = BOTH) -> list[tuple[Any, int]]:
    """A table's paragraphs in text order with the views they show in.

    Rows top to bottom, cells left to right, nested tables in place; cells that continue a
    vertical merge are skipped (their text is not shown).
    """
    out: list[tuple[Any, int]] = []
    for tr in iter_rows(tbl):
        rv = row_views(tr)[0] & views
        for tc in iter_cells(tr):
            if cell_props(tc)[1]:
                continue
            for b in iter_blocks(tc):
                if b.tag == W_P:
                    out.append((b, rv))
                elif b.tag == W_TBL:
                    out.extend(table_paragraphs(b, rv))
    return out


# --- the paragraph walk -----------------------------------------------------------------------


class _Frame:
    __slots__ = ("code", "phase", "start", "seg_start", "el", "fresh")

    def __init__(self, phase: str, el: Any = None, code: str = "") -> None:
        self.code = [code] if code else []
        self.phase = phase
        self.start = 0
        self.seg_start = 0
        self.el = el
        self.fresh = True


class Walker:
    """Walks paragraphs in document order, keeping complex-field state between them.

    ``context`` (a :class:`~adapters.docx.context.PackageContext`) supplies styles (hidden
    text), note marks and hyperlink targets; without it those come out empty.
    """

    def __init__(self, context: Any = None, warnings: dict[str, int] | None = None) -> None:
        self.ctx = context
        self.styles = context.styles if context is not None else EMPTY_STYLES
        self.note_marks = context.note_marks if context is not None else {}
        self.unknown: dict[str, int] = warnings if warnings is not None else {}
        self.stack: list[_Frame] = []
        self.instr_depth = 0
        self._scan: ParagraphScan | None = None
        self._views = BOTH
        self._rev: Any = None
        self._para_hidden = False
        self._acc = 0
        self._para = {
            W_R: self._run,
            W_INS: self._revision,
            W_DEL: self._revision,
            W_MOVETO: self._revision,
            W_MOVEFROM: self._revision,
            W_HYPERLINK: self._hyperlink,
            W_FLDSIMPLE: self._fldsimple,
            W_SDT: self._sdt,
            W_BOOKMARKSTART: self._bookmark_start,
            W_BOOKMARKEND: self._bookmark_end,
            W_COMMENTRANGESTART: self._comment_start,
            W_COMMENTRANGEEND: self._comment_end,
            M_OMATHPARA: self._math,
            M_OMATH: self._math,
            MC_AC: self._alternate,
            W_RUBY: self._ruby,
        }

    # state ---------------------------------------------------------------------------------

    def save_fields(self) -> tuple[list[_Frame], int]:
        saved = (self.stack, self.instr_depth)
        self.stack, self.instr_depth = [], 0
        return saved

    def restore_fields(self, saved: tuple[list[_Frame], int]) -> None:
        self.stack, self.instr_depth = saved

    def open_fields(self, phases: tuple[str, ...]) -> None:
        """Start inside fields left open by earlier paragraphs (``"instr"``/``"result"`` each)."""
        self.stack = [_Frame(ph) for ph in phases]
        self.instr_depth = sum(1 for ph in phases if ph == "instr")

    # paragraph -----------------------------------------------------------------------------

    def paragraph(self, p) -> ParagraphScan:
        """Walk one ``w:p``: its segments (all views) and side facts."""
        scan = ParagraphScan(p)
        scan.open_fields = tuple(f.phase for f in self.stack)
        for f in self.stack:
            f.start = 0
            f.seg_start = 0
            f.fresh = False
        self._scan = scan
        self._views = BOTH
        self._rev = None
        self._acc = 0
        ppr = p.find(W_PPR)
        if ppr is not None:
            self._ppr(ppr)
        self._para_hidden = self.styles.para(scan.style_id).vanish
        self._children(p)
        for f in self.stack:
            if f.phase == "result" and not self.instr_depth:
                self._record_field(f, partial=True)
        scan.acc_len = self._acc
        self._scan = None
        return scan

    def object_block(self, el) -> ParagraphScan:
        """A picture written directly in the body: an empty paragraph holding it."""
        scan = ParagraphScan(el)
        for kind, obj, alt in classify_object(el):
            scan.objects.append((kind, obj, BOTH, alt))
        return scan

    def _children(self, el) -> None:
        table = self._para
        for ch in el:
            tag = ch.tag
            handler = table.get(tag)
            if handler is not None:
                handler(ch)
            elif tag in _UNWRAP:
                self._children(ch)
            elif tag not in _SILENT:
                self._unknown(ch)

    def _unknown(self, el) -> None:
        tag = el.tag
        if not isinstance(tag, str):
            return  # comments and processing instructions
        self.unknown[tag] = self.unknown.get(tag, 0) + 1

    # paragraph properties ------------------------------------------------------------------

    def _ppr(self, ppr) -> None:
        scan = self._scan
        for c in ppr:
            tag = c.tag
            if tag == W_PSTYLE:
                scan.style_id = c.get(_VAL)
            elif tag == W_NUMPR:
                for n in c:
                    if n.tag == W_NUMID:
                        scan.num_id = n.get(_VAL)
                    elif n.tag == W_ILVL:
                        scan.ilvl = _int(n.get(_VAL), 0)
            elif tag == W_OUTLINELVL:
                scan.outline = _int(c.get(_VAL), 9)
            elif tag == W_RPR:
                for m in c:
                    if m.tag == W_INS or m.tag == W_MOVETO:
                        scan.mark_views = ACCEPTED
                        scan.mark_change = ("paragraph_insertion", m)
                    elif m.tag == W_DEL or m.tag == W_MOVEFROM:
                        scan.mark_views = REJECTED
                        scan.mark_change = ("paragraph_deletion", m)
            elif tag == W_PPRCHANGE:
                scan.ppr_change = c
            elif tag == W_SECTPR:
                scan.section_break = True
            elif tag == W_FRAMEPR:
                if c.get(_DROPCAP) in ("drop", "margin"):
                    scan.mark_views = 0  # a drop cap is the first letter of the next paragraph

    # runs ----------------------------------------------------------------------------------

    def _run(self, r) -> None:
        hidden = self._para_hidden
        for ch in r:
            tag = ch.tag
            if tag == W_T:
                if not hidden or self.instr_depth:
                    self._t(ch)
            elif tag == W_RPR:
                hidden = self._run_props(ch, r)
            else:
                self._run_child(ch, tag, hidden)

    def _run_child(self, ch, tag, hidden: bool) -> None:
        if tag == W_INSTRTEXT or tag == W_DELINSTRTEXT:
            self._instr(ch.text or "")
        elif tag == W_FLDCHAR:
            self._fldchar(ch)
        elif hidden:
            if tag == W_DRAWING or tag == W_PICT or tag == W_OBJECT:
                return
            if tag in _NOTE_KIND:
                self._note(ch, tag, hidden=True)
        elif tag == W_TAB or tag == W_PTAB:
            self._text("\t", ch, "tab")
        elif tag == W_DELTEXT:
            self._t(ch, "deleted", REJECTED)
        elif tag == W_BR:
            if ch.get(_TYPE) in (None, "textWrapping"):
                self._text("\u2028", ch, "break")
        elif tag == W_CR:
            self._text("\u2028", ch, "break")
        elif tag == W_SYM:
            code = ch.get(_CHAR) or ""
            try:
                self._text(chr(int(code, 16)), ch, "symbol")
            except ValueError:
                pass
        elif tag == W_NOBREAKHYPHEN:
            self._text("\u2011", ch, "hyphen")
        elif tag == W_SOFTHYPHEN:
            self._text("\u00ad", ch, "hyphen")
        elif tag in _NOTE_KIND:
            self._note(ch, tag)
        elif tag == W_COMMENTREFERENCE:
            self._scan.events.append(("c_ref", ch.get(_ID), self._acc))
        elif tag == W_DRAWING or tag == W_PICT or tag == W_OBJECT:
            self._objects(ch)
        elif tag == MC_AC:
            branch = choose_alternate(ch)
            if branch is not None:
                for sub in branch:
                    if sub.tag == W_T:
                        self._t(sub)
                    else:
                        self._run_child(sub, sub.tag, hidden)
        elif tag not in _SILENT:
            self._unknown(ch)

    def _run_props(self, rpr, r) -> bool:
        vanish = None
        rstyle = None
        for c in rpr:
            tag = c.tag
            if tag == W_VANISH:
                vanish = _on(c)
            elif tag == W_RSTYLE:
                rstyle = c.get(_VAL)
            elif tag == W_RPRCHANGE:
                self._scan.revisions.append(("format_change", c, _run_text(r)))
        if vanish is not None:
            return vanish
        if rstyle:
            cv = self.styles.char_vanish(rstyle)
            if cv is not None:
                return cv
        return self._para_hidden

    def _t(self, el, kind: str = "text", mask: int = BOTH) -> None:
        """A ``w:t``/``w:delText``: without ``xml:space="preserve"`` Word ignores its edge whitespace."""
        text = el.text
        if not text:
            return
        if (text[0] in _XML_WS or text[-1] in _XML_WS) and el.get(_XML_SPACE) != "preserve":
            stripped = text.lstrip(_XML_WS)
            offset = len(text) - len(stripped)
            text = stripped.rstrip(_XML_WS)
            if offset and text:
                self._text(text, el, kind, mask, offset)
                return
        self._text(text, el, kind, mask)

    def _text(self, text: str, el, kind: str, mask: int = BOTH, offset: int = 0) -> None:
        if self.instr_depth:
            self._instr(text)
            return
        views = self._views & mask
        if not views or not text:
            return
        self._scan.segments.append(Segment(text, el, offset, kind, views, len(self.stack) > 0, self._rev))
        if views & ACCEPTED:
            self._acc += len(text)

    def _note(self, ch, tag, hidden: bool = False) -> None:
        kind = _NOTE_KIND[tag]
        nid = ch.get(_ID)
        start = self._acc
        if not hidden and not self.instr_depth:
            mark = self.note_marks.get((kind, nid), "")
            if mark:
                self._text(mark, ch, "note")
        self._scan.events.append(("note", kind, nid, start, self._acc))

    # containers ----------------------------------------------------------------------------

    def _revision(self, el) -> None:
        kind, mask = _REVISIONS[el.tag]
        saved_views, saved_rev = self._views, self._rev
        self._views &= mask
        self._rev = el
        segs = self._scan.segments
        first = len(segs)
        self._children(el)
        text = "".join([s.text for s in segs[first:]])
        self._scan.revisions.append((kind, el, text))
        self._views, self._rev = saved_views, saved_rev

    def _sdt(self, el) -> None:
        content = el.find(W_SDTCONTENT)
        if content is not None:
            self._children(content)

    def _ruby(self, el) -> None:
        base = el.find(W_RUBYBASE)
        if base is not None:
            self._children(base)

    def _alternate(self, el) -> None:
        branch = choose_alternate(el)
        if branch is not None:
            self._children(branch)

    def _hyperlink(self, el) -> None:
        anchor = el.get(_ANCHOR)
        url = None
        rid = el.get(_R_ID)
        if rid and self.ctx is not None:
            url = self.ctx.hyperlink_target(rid)
        start = self._acc
        segs = self._scan.segments
        first = len(segs)
        self._children(el)
        if self.instr_depth:
            return
        result = "".join([s.text for s in segs[first:] if s.views & ACCEPTED])
        target = anchor or url
        code = f'HYPERLINK \\l "{anchor}"' if anchor else (f'HYPERLINK "{url}"' if url else "HYPERLINK")
        self._scan.fields.append(FieldRecord("hyperlink", code, target, result, start, self._acc, el))

    def _fldsimple(self, el) -> None:
        frame = _Frame("result", el, el.get(_INSTR) or "")
        frame.start = self._acc
        frame.seg_start = len(self._scan.segments)
        self.stack.append(frame)
        self._children(el)
        if frame in self.stack:
            self.stack.remove(frame)
        if not self.instr_depth:
            self._record_field(frame)

    def _fldchar(self, ch) -> None:
        typ = ch.get(_FLDCHARTYPE)
        if typ == "begin":
            self.stack.append(_Frame("instr", ch))
            self.instr_depth += 1
        elif typ == "separate":
            if self.stack and self.stack[-1].phase == "instr":
                frame = self.stack[-1]
                frame.phase = "result"
                self.instr_depth -= 1
                frame.start = self._acc
                frame.seg_start = len(self._scan.segments)
        elif typ == "end":
            if not self.stack:
                return
            frame = self.stack.pop()
            if frame.phase == "instr":
                self.instr_depth -= 1
                frame.start = self._acc
                frame.seg_start = len(self._scan.segments)
            if not self.instr_depth:
                self._record_field(frame)

    def _instr(self, text: str) -> None:
        for frame in reversed(self.stack):
            if frame.phase == "instr":
                frame.code.append(text)
                return

    def _record_field(self, frame: _Frame, partial: bool = False) -> None:
        code = "".join(frame.code).strip()
        fc = parse_instruction(code)
        segs = self._scan.segments[frame.seg_start:]
        result = "".join([s.text for s in segs if s.views & ACCEPTED])
        rec = FieldRecord(fc.kind, code, fc.target, result, frame.start, self._acc, frame.el, fc)
        self._scan.fields.append(rec)

    # markers -------------------------------------------------------------------------------

    def _bookmark_start(self, el) -> None:
        self._scan.events.append(("bm_start", el.get(_ID), el.get(_NAME), self._acc))

    def _bookmark_end(self, el) -> None:
        self._scan.events.append(("bm_end", el.get(_ID), self._acc))

    def _comment_start(self, el) -> None:
        self._scan.events.append(("c_start", el.get(_ID), self._acc))

    def _comment_end(self, el) -> None:
        self._scan.events.append(("c_end", el.get(_ID), self._acc))

    # math and objects ----------------------------------------------------------------------

    def _math(self, el) -> None:
        start = self._acc
        text = math_text(el)
        if not self._para_hidden:
            self._text(text, el, "math")
        self._scan.math.append((el, el.tag == M_OMATHPARA, start, self._acc))

    def _objects(self, el) -> None:
        for kind, obj, alt in classify_object(el):
            self._scan.objects.append((kind, obj, self._views, alt))


def _run_text(r) -> str:
    return "".join(t.text or "" for t in r.iter(W_T, W_DELTEXT))


def classify_object(el) -> list[tuple[str, Any, str]]:
    """The figure (a picture, chart or diagram) and text boxes in a ``w:drawing``/``w:pict``/``w:object``.

    Returns ``("figure", el, alt)`` first when the object shows a picture, then one
    ``("textbox", w:txbxContent, "")`` per top-level text box, in document order.
    """
    out: list[tuple[str, Any, str]] = []
    if next(el.iter(*_FIGURE_TAGS), None) is not None:
        out.append(("figure", el, _alt_text(el)))
    top = None
    for tx in el.iter(W_TXBXCONTENT):
        if top is not None and any(a is top for a in tx.iterancestors(W_TXBXCONTENT)):
            continue
        top = tx
        out.append(("textbox", tx, ""))
    return out


def _alt_text(el) -> str:
    doc_pr = next(el.iter(WP_DOCPR), None)
    if doc_pr is not None:
        return (doc_pr.get("descr") or doc_pr.get("title") or "").strip()
    for shape in el.iter(V_SHAPE):
        alt = shape.get("alt")
        if alt:
            return alt.strip()
    img = next(el.iter(V_IMAGEDATA), None)
    if img is not None:
        return (img.get(_O_TITLE) or "").strip()
    return ""


def alt_element(el) -> Any:
    """The element holding a figure's alt text (``wp:docPr`` or the VML shape), for segments."""
    doc_pr = next(el.iter(WP_DOCPR), None)
    if doc_pr is not None:
        return doc_pr
    return next(el.iter(V_SHAPE), el)


# --- public walk API --------------------------------------------------------------------------


def paragraph_segments(p, context: Any = None, view: str = "accepted", open_fields: tuple[str, ...] = ()) -> list[Segment]:
    """The segments of one ``w:p`` that show in ``view`` (no paragraph-mark separator).

    ``"".join(s.text for s in paragraph_segments(p, ctx))`` is the paragraph's accepted text
    exactly as the reader built it. Pass the document's ``PackageContext`` so hidden styles
    and note marks resolve as they did when reading; ``open_fields`` is the anchor's
    ``open_fields`` extra when a field began in an earlier paragraph.
    """
    bit = view_bit(view)
    w = Walker(context)
    w.open_fields(open_fields)
    return [s for s in w.paragraph(p).segments if s.views & bit]


def join_segments(items: list[tuple[Any, list[Segment], int, int]], bit: int) -> list[Segment]:
    """Join paragraphs into one unit's segments for one view.

    ``items`` holds ``(w:p, segments, mark_views, presence)`` per paragraph. Paragraphs absent
    from the view are skipped; between two shown paragraphs the first one's mark adds ``"\\n"``
    when it exists in the view and ``""`` when a tracked change removes it (the paragraphs
    merge, as Word's Accept/Reject All does).
    """
    out: list[Segment] = []
    prev = None
    for p, segs, mark, presence in items:
        if not presence & bit:
            continue
        if prev is not None:
            pp, pmark = prev
            out.append(Segment("\n" if pmark & bit else "", pp, 0, "mark", BOTH, False, None))
        out.extend([s for s in segs if s.views & bit])
        prev = (p, mark)
    return out


def _container_of(root, part_is_body: bool):
    if part_is_body:
        body = root.find(W_BODY)
        return body if body is not None else root
    return root


def _note_container(root, nid: str):
    for ch in root:
        if ch.tag in (W_FOOTNOTE, W_ENDNOTE, W_COMMENT) and ch.get(_ID) == nid:
            return ch
    raise KeyError(f"no note or comment with id {nid!r}")


def _paragraph_objects(p, kind: str) -> list[Any]:
    if p.tag != W_P:
        return [obj for k, obj, _a in classify_object(p) if k == kind]
    scan = Walker().paragraph(p)
    return [obj for k, obj, _v, _a in scan.objects if k == kind]


def _resolve(root_by_part: Mapping[str, Any], anchor) -> tuple[list[tuple[Any, int]], Any]:
    """Paragraphs ``(w:p, presence)`` of an anchor, plus the figure element for ``dN`` anchors."""
    from ..errors import AnchorError

    root = root_by_part.get(anchor.part)
    if root is None:
        raise AnchorError(f"the package has no part {anchor.part!r}")
    steps = [s for s in anchor.path.split("/") if s]
    current: Any = None
    container = None
    items: list[tuple[Any, int]] | None = None
    figure = None
    presence = BOTH
    try:
        if steps and steps[0].startswith("#"):
            container = _note_container(root, steps[0][1:])
            steps = steps[1:]
        else:
            container = _container_of(root, True)
        for i, step in enumerate(steps):
            last = i == len(steps) - 1
            if step[0].isdigit():
                blocks = list(iter_blocks(container))
                if "-" in step:
                    a, b = (int(x) for x in step.split("-"))
                    items = [(blk, presence) for blk in blocks[a : b + 1]]
                    current = None
                else:
                    current = blocks[int(step)]
                    container = None
            elif step[0] == "c":
                current = table_paragraphs(current)[int(step[1:])][0]
            elif step[0] == "t":
                container = _paragraph_objects(current, "textbox")[int(step[1:])]
                current = None
            elif step[0] == "d":
                figure = _paragraph_objects(current, "figure")[int(step[1:])]
            else:
                raise AnchorError(f"bad anchor step {step!r}")
            if last:
                break
    except (IndexError, KeyError, ValueError, TypeError) as exc:
        raise AnchorError(f"anchor {anchor.part}:{anchor.path} does not resolve: {exc}") from None
    if items is None:
        if current is None:
            items = []
            for blk in iter_blocks(container):
                if blk.tag == W_P:
                    items.append((blk, BOTH))
                elif blk.tag == W_TBL:
                    items.extend(table_paragraphs(blk))
        elif current.tag == W_TBL:
            items = table_paragraphs(current)
        elif current.tag != W_P:
            items = []
        else:
            items = [(current, presence)]
    return items, figure


def resolve_anchor(root_by_part: Mapping[str, Any], anchor) -> list[Any]:
    """The ``w:p`` elements of a unit, in the order its text joins them.

    ``root_by_part`` maps part names to parsed roots (``PackageContext.parts`` will do). A
    table gives its cell paragraphs in text order; a note or comment its paragraphs; a figure
    the paragraph that holds it.

    :raise adapters.errors.AnchorError: the anchor does not resolve in these parts.
    """
    items, _figure = _resolve(root_by_part, anchor)
    return [p for p, _ in items]


def unit_segments(root_by_part: Mapping[str, Any], anchor, context: Any = None, view: str = "accepted") -> list[Segment]:
    """The segments whose texts join to the unit's text in ``view`` (separators included).

    >>> # "".join(s.text for s in unit_segments(ctx.parts, unit.anchor, ctx)) == unit.text
    """
    bit = view_bit(view)
    items, figure = _resolve(root_by_part, anchor)
    if figure is not None:
        alt = _alt_text(figure)
        return [Segment(alt, alt_element(figure), 0, "alt", BOTH, False, None)] if alt else []
    w = Walker(context)
    w.open_fields(tuple(anchor.get("open_fields", ())))
    rows = []
    for p, presence in items:
        scan = w.paragraph(p)
        rows.append((p, scan.segments, scan.mark_views, presence))
    return join_segments(rows, bit)
