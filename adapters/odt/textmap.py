"""The one walk from a paragraph's XML to its text, public so the writer maps offsets back.

A paragraph's text (``text:p``/``text:h``) is built from :class:`Segment` objects: a piece of
text, the node that holds it (an element's ``.text``, its ``.tail``, or an element that stands
for characters, such as ``text:s`` or ``text:tab``), the raw offsets of the piece in that
string, the field it belongs to, and the tracked change it lies in. ODF white-space rules are
applied as LibreOffice applies them: runs of spaces, tabs and newlines collapse to one space,
across span boundaries, and spaces at the start of a paragraph are dropped; ``text:s``,
``text:tab`` and ``text:line-break`` give a space run, ``\\t`` and ``\\n``.

The reader and :func:`paragraph_segments` share :class:`InlineWalker`, so joining the
segments of a paragraph reproduces the unit text exactly. :func:`resolve_anchor` (from
:mod:`adapters.odt.anchors`, re-exported here) finds the paragraphs of a unit from its
:class:`~adapters.model.Anchor`, in the order the unit's text joins them.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from lxml import etree

from .anchors import block_paragraphs, element_path, relative_path, resolve_anchor
from .odfxml import prefixed, qn

if TYPE_CHECKING:  # pragma: no cover
    from .context import OdtContext

__all__ = [
    "Segment",
    "Event",
    "InlineWalker",
    "FIELD_KINDS",
    "paragraph_segments",
    "paragraph_text",
    "deletion_segments",
    "deleted_segments",
    "rejected_segments",
    "walk_paragraph",
    "resolve_anchor",
    "block_paragraphs",
    "element_path",
    "relative_path",
    "PARAGRAPH_TAGS",
]

_P = qn("text:p")
_H = qn("text:h")
PARAGRAPH_TAGS = (_P, _H)
_SPAN = qn("text:span")
_A = qn("text:a")
_S = qn("text:s")
_C = qn("text:c")
_TAB = qn("text:tab")
_LINE_BREAK = qn("text:line-break")
_SOFT_BREAK = qn("text:soft-page-break")
_NOTE = qn("text:note")
_NOTE_CITATION = qn("text:note-citation")
_ANNOTATION = qn("office:annotation")
_ANNOTATION_END = qn("office:annotation-end")
_CHANGE = qn("text:change")
_CHANGE_START = qn("text:change-start")
_CHANGE_END = qn("text:change-end")
_CHANGE_ID = qn("text:change-id")
_STYLE_NAME = qn("text:style-name")
_HIDDEN_TEXT = qn("text:hidden-text")
_IS_HIDDEN = qn("text:is-hidden")
_STRING_VALUE = qn("text:string-value")
_RUBY_TEXT = qn("text:ruby-text")

_ANCHOR_TYPE = qn("text:anchor-type")
_DRAW_NS = "{" + qn("draw:x")[1:].partition("}")[0] + "}"

#: Field elements and the normalised ``Field.kind`` of the neutral model.
FIELD_KINDS: dict[str, str] = {
    qn("text:sequence"): "sequence",
    qn("text:sequence-ref"): "sequence_ref",
    qn("text:bookmark-ref"): "bookmark_ref",
    qn("text:reference-ref"): "reference_ref",
    qn("text:note-ref"): "note_ref",
}
for _name in (
    "chapter date time page-number page-count page-continuation page-variable-get "
    "page-variable-set title subject description keywords initial-creator creator "
    "creation-date creation-time modification-date modification-time print-date print-time "
    "printed-by editing-cycles editing-duration author-name author-initials sender-firstname "
    "sender-lastname sender-initials sender-title sender-position sender-email "
    "sender-phone-private sender-fax sender-company sender-phone-work sender-street sender-city "
    "sender-postal-code sender-country sender-state-or-province variable-get variable-set "
    "variable-input user-field-get user-field-input user-defined expression text-input "
    "placeholder drop-down conditional-text file-name template-name sheet-name table-formula "
    "database-display database-name database-next database-row-select database-row-number "
    "word-count character-count paragraph-count table-count image-count object-count "
    "bibliography-mark script execute-macro measure meta-field hidden-paragraph hidden-text "
    "sequence-ref-entry"
).split():
    FIELD_KINDS.setdefault(qn(f"text:{_name}"), "other")

# Inline elements that only mark a place or a range: no text of their own.
_MARKS = {
    qn(f"text:{n}"): n
    for n in (
        "bookmark",
        "bookmark-start",
        "bookmark-end",
        "reference-mark",
        "reference-mark-start",
        "reference-mark-end",
        "toc-mark",
        "toc-mark-start",
        "toc-mark-end",
        "alphabetical-index-mark",
        "alphabetical-index-mark-start",
        "alphabetical-index-mark-end",
        "user-index-mark",
        "user-index-mark-start",
        "user-index-mark-end",
    )
}
_WRAPPERS = {_SPAN, _A, qn("text:meta"), qn("text:ruby"), qn("text:ruby-base")}
_IGNORED = {_SOFT_BREAK, _RUBY_TEXT, qn("text:number"), qn("office:annotation-end")}

_WS = re.compile(r"[ \t\n\r]+")


class Segment(NamedTuple):
    """One piece of a paragraph's text and where it comes from.

    ``slot`` is ``"text"`` (the piece lies in ``node.text``), ``"tail"`` (in ``node.tail``) or
    ``"self"`` (``node`` itself stands for the piece: ``text:s``, ``text:tab``,
    ``text:line-break``, a hidden-text field, or a paragraph break of deleted content).
    ``start``/``end`` are the raw offsets in that string; the piece equals
    ``string[start:end]`` except where white space collapsed (then it is one space).
    ``field`` is the innermost field element (or ``text:note`` for a citation mark) that
    holds the piece: a writer must not cut inside it. ``change`` is the id of the tracked
    change the piece lies in and ``change_kind`` its kind (``insertion``, ``deletion`` for
    deleted text shown in the rejected view, ``format-change``).
    """

    text: str
    node: Any
    slot: str
    start: int
    end: int
    field: Any = None
    change: str | None = None
    change_kind: str | None = None


class Event(NamedTuple):
    """Something found at an offset of the paragraph's accepted text.

    ``kind`` is one of ``bookmark``, ``bookmark-start``, ``bookmark-end``, ``reference-mark``
    (and its ``-start``/``-end``), ``field`` (``end`` is the end offset), ``note``,
    ``annotation``, ``annotation-end``, ``frame``, ``change``, ``change-start``,
    ``change-end``, ``hidden`` (a range hidden by a character style), ``lang`` (a range whose
    character style sets a language), ``code`` (a range whose character style marks code: a code
    style's name or a fixed-pitch font), ``link``, ``unknown``.
    """

    kind: str
    start: int
    end: int
    node: Any
    name: str | None = None


class Deletion(NamedTuple):
    """A ``text:change`` point: deleted content shown in the rejected view at ``index``."""

    position: int  # in the accepted segments list
    offset: int
    change: str
    node: Any


class InlineWalker:
    """Walks the inline content of one paragraph into segments, events and deletion points.

    ``open_changes`` are the ids of change regions open where the paragraph starts (an
    insertion that began in an earlier paragraph); the walker updates the list as it meets
    ``text:change-start``/``text:change-end`` so the caller can carry it to the next one.
    """

    __slots__ = (
        "ctx",
        "segments",
        "events",
        "deletions",
        "length",
        "ignore_space",
        "field",
        "open_changes",
        "_change",
        "_change_kind",
        "_kinds",
        "slots",
    )

    def __init__(self, ctx: "OdtContext", open_changes: list[str] | None = None, record: bool = False) -> None:
        self.ctx = ctx
        #: With ``record``: every non-empty string walked, as ``(node, slot)``, in order
        #: (strings that show nothing included), so a writer can respell white space.
        self.slots: list[tuple[Any, str]] | None = [] if record else None
        self.segments: list[Segment] = []
        self.events: list[Event] = []
        self.deletions: list[Deletion] = []
        self.length = 0
        self.ignore_space = True
        self.field: Any = None
        self.open_changes: list[str] = list(open_changes or ())
        self._kinds = ctx.change_kinds
        self._change: str | None = None
        self._change_kind: str | None = None
        self._recompute_change()

    # -- state --------------------------------------------------------------------------------

    def _recompute_change(self) -> None:
        change = kind = None
        for cid in self.open_changes:
            k = self._kinds.get(cid)
            if k == "insertion" or kind is None:
                change, kind = cid, k
        self._change, self._change_kind = change, kind

    def _emit(self, text: str, node: Any, slot: str, start: int, end: int) -> None:
        self.segments.append(
            Segment(text, node, slot, start, end, self.field, self._change, self._change_kind)
        )
        self.length += len(text)

    # -- text ---------------------------------------------------------------------------------

    def text(self, s: str | None, node: Any, slot: str) -> None:
        """Add the string ``s`` (``node.text`` or ``node.tail``) under ODF white-space rules."""
        if not s:
            return
        if self.slots is not None:
            self.slots.append((node, slot))
        if "  " not in s and "\t" not in s and "\n" not in s and "\r" not in s:
            start = 1 if self.ignore_space and s[0] == " " else 0
            if start < len(s):
                self._emit(s[start:] if start else s, node, slot, start, len(s))
                self.ignore_space = s[-1] == " "
            return
        run_start = None  # start of a verbatim run being collected
        pos = 0
        for m in _WS.finditer(s):
            a, b = m.start(), m.end()
            if a > pos:  # non-space characters before this run
                if run_start is None:
                    run_start = pos
                self.ignore_space = False
            if self.ignore_space:
                if run_start is not None:
                    self._emit(s[run_start:a], node, slot, run_start, a)
                    run_start = None
            elif b - a == 1 and s[a] == " ":
                if run_start is None:
                    run_start = a
                self.ignore_space = True
            else:
                if run_start is not None:
                    self._emit(s[run_start:a], node, slot, run_start, a)
                    run_start = None
                self._emit(" ", node, slot, a, b)
                self.ignore_space = True
            pos = b
        if pos < len(s):
            if run_start is None:
                run_start = pos
            self.ignore_space = False
        if run_start is not None:
            self._emit(s[run_start:], node, slot, run_start, len(s))

    # -- elements -----------------------------------------------------------------------------

    def children(self, el: etree._Element) -> None:
        """Walk ``el.text`` and every child with its tail."""
        self.text(el.text, el, "text")
        for child in el:
            self.element(child)
            self.text(child.tail, child, "tail")

    def element(self, el: etree._Element) -> None:
        tag = el.tag
        if tag in _WRAPPERS:
            if tag == _SPAN:
                style = el.get(_STYLE_NAME)
                if style:
                    hidden, lang = self.ctx.styles.span(style)
                    if hidden:
                        start = self.length
                        self.children(el)
                        self.events.append(Event("hidden", start, self.length, el))
                        return
                    code = self.ctx.styles.code("text", style)
                    if lang is not None or code:
                        start = self.length
                        self.children(el)
                        if lang is not None:  # a span in another language than its paragraph
                            self.events.append(Event("lang", start, self.length, el))
                        if code and self.length > start:  # a span written as code (adapters.monospace)
                            self.events.append(Event("code", start, self.length, el))
                        return
            elif tag == _A:
                start = self.length
                self.children(el)
                self.events.append(Event("link", start, self.length, el))
                return
            self.children(el)
            return
        if tag == _S:
            try:
                count = int(el.get(_C, "1"))
            except ValueError:
                count = 1
            self._emit(" " * max(count, 1), el, "self", 0, 0)
            self.ignore_space = False
            return
        if tag == _TAB:
            self._emit("\t", el, "self", 0, 0)
            self.ignore_space = False
            return
        if tag == _LINE_BREAK:
            self._emit("\n", el, "self", 0, 0)
            self.ignore_space = False
            return
        kind = FIELD_KINDS.get(tag)
        if kind is not None:
            start = self.length
            outer = self.field
            self.field = el
            if tag == _HIDDEN_TEXT:
                if el.get(_IS_HIDDEN) != "true":
                    value = el.get(_STRING_VALUE, "")
                    if value:
                        self._emit(value, el, "self", 0, 0)
                        self.ignore_space = value[-1] == " "
            else:
                self.children(el)
            self.field = outer
            self.events.append(Event("field", start, self.length, el))
            return
        mark = _MARKS.get(tag)
        if mark is not None:
            self.events.append(Event(mark, self.length, self.length, el))
            return
        if tag == _NOTE:
            self.events.append(Event("note", self.length, self.length, el))
            outer = self.field
            self.field = el
            for child in el:
                if child.tag == _NOTE_CITATION:
                    self.children(child)
            self.field = outer
            return
        if tag == _CHANGE_START or tag == _CHANGE_END or tag == _CHANGE:
            self._change_mark(el, tag)
            return
        if tag == _ANNOTATION:
            self.events.append(Event("annotation", self.length, self.length, el))
            return
        if tag == _ANNOTATION_END:
            self.events.append(Event("annotation-end", self.length, self.length, el))
            return
        if tag in _IGNORED:
            return
        if isinstance(tag, str) and tag.startswith(_DRAW_NS):
            self.events.append(Event("frame", self.length, self.length, el))
            if el.get(_ANCHOR_TYPE) == "as-char":  # a character to LibreOffice: a space after it shows
                self.ignore_space = False
            return
        if not isinstance(tag, str):  # comments, processing instructions
            return
        # Unknown inline element: keep its text (a field of a newer version, a foreign
        # element) so nothing visible is lost, and say so.
        self.events.append(Event("unknown", self.length, self.length, el))
        self.children(el)

    def _change_mark(self, el: etree._Element, tag: str) -> None:
        cid = el.get(_CHANGE_ID, "")
        if tag == _CHANGE:
            self.events.append(Event("change", self.length, self.length, el, cid))
            if self._kinds.get(cid) == "deletion":
                self.deletions.append(Deletion(len(self.segments), self.length, cid, el))
            return
        if tag == _CHANGE_START:
            self.events.append(Event("change-start", self.length, self.length, el, cid))
            if cid not in self.open_changes:
                self.open_changes.append(cid)
        else:
            self.events.append(Event("change-end", self.length, self.length, el, cid))
            if cid in self.open_changes:
                self.open_changes.remove(cid)
        self._recompute_change()


def walk_paragraph(
    p: etree._Element, ctx: "OdtContext", open_changes: list[str] | None = None, record: bool = False
) -> InlineWalker:
    """Run the walk over one ``text:p``/``text:h`` and return the walker with its results."""
    w = InlineWalker(ctx, open_changes, record)
    w.children(p)
    return w


class Walked(Protocol):
    """What :func:`rejected_segments` reads of a walked paragraph (an :class:`InlineWalker`, a
    parsed ``body.Paragraph``)."""

    segments: list[Segment]
    deletions: list[Deletion]


def rejected_segments(w: Walked, ctx: "OdtContext") -> list[Segment]:
    """The rejected view of one walked paragraph: insertions out, deleted content in.

    Deleted content that spans paragraphs adds ``"\\n"`` segments (``slot="self"``, ``node``
    the deleted paragraph that ends there).
    """
    out: list[Segment] = []
    points = w.deletions
    j = 0
    segs = w.segments
    for i in range(len(segs) + 1):
        while j < len(points) and points[j].position == i:
            region = ctx.changes.get(points[j].change)
            if region is None or not region.inserted:  # deleted text that was itself inserted: gone in both views
                out.extend(deleted_segments(ctx, points[j].change))
            j += 1
        if i < len(segs):
            seg = segs[i]
            if seg.change_kind != "insertion":
                out.append(seg)
    return out


def deletion_segments(ctx: "OdtContext", change_id: str) -> list[Segment]:
    """The content of a ``text:deletion`` as segments of the rejected view.

    Each deleted paragraph is walked on its own (as LibreOffice imports it); paragraph breaks
    between them are ``"\\n"`` segments whose node is the deleted paragraph they end.
    """
    region = ctx.changes.get(change_id)
    out: list[Segment] = []
    if region is None or region.kind != "deletion":
        return out
    paras: list[etree._Element] = []
    for block in region.content:
        paras.extend(block_paragraphs(block))
    for i, p in enumerate(paras):
        w = walk_paragraph(p, ctx)
        out.extend(s._replace(change=change_id, change_kind="deletion") for s in w.segments)
        if i < len(paras) - 1:
            out.append(Segment("\n", p, "self", 0, 0, None, change_id, "deletion"))
    return out


def deleted_segments(ctx: "OdtContext", change_id: str) -> list[Segment]:
    """:func:`deletion_segments`, read once per context (kept in its ``_deleted``)."""
    cached = ctx._deleted.get(change_id)
    if cached is None:
        cached = ctx._deleted[change_id] = deletion_segments(ctx, change_id)
    return cached


def paragraph_segments(p: etree._Element, ctx: "OdtContext", view: str = "accepted") -> list[Segment]:
    """The segments of one paragraph in a view (``accepted`` or ``rejected``).

    Joining the texts of the accepted segments gives the paragraph's part of ``Unit.text``.
    The rejected view is the paragraph's own: insertions removed, deleted content put back
    at its ``text:change`` point (paragraph breaks inside it as ``"\\n"`` segments).

    :param ctx: the package context from :func:`adapters.odt.context.load_context`.
    :raise ValueError: for an unknown view.
    """
    if p.tag not in PARAGRAPH_TAGS:
        raise ValueError(f"not a paragraph: {prefixed(p.tag)}")
    w = walk_paragraph(p, ctx, list(ctx.open_changes.get(p, ())))
    if view == "accepted":
        return w.segments
    if view == "rejected":
        return rejected_segments(w, ctx)
    raise ValueError(f"unknown view {view!r}")


def paragraph_text(p: etree._Element, ctx: "OdtContext", view: str = "accepted") -> str:
    """``"".join`` of :func:`paragraph_segments`."""
    return "".join(s.text for s in paragraph_segments(p, ctx, view))
