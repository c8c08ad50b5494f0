"""What one walk of a paragraph produces: text segments (with their sources) and side facts."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .fields import FieldCode
from .views import ACCEPTED, BOTH

__all__ = ["Segment", "FieldRecord", "ParagraphScan"]


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


@dataclass(eq=False)  # identity semantics: these hold lxml elements
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


@dataclass(eq=False)  # identity semantics: these hold lxml elements
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
    #: Accepted characters per run language (``w:lang`` of the run or its character style;
    #: None: the run sets none, so the paragraph style's applies).
    langs: dict[str | None, int] = field(default_factory=dict)
    #: ``(start, end)`` of the accepted text written as code: a code character style or a
    #: fixed-pitch font (:mod:`adapters.monospace`), the paragraph style's included.
    code: list[tuple[int, int]] = field(default_factory=list)

    def text(self, bit: int = ACCEPTED) -> str:
        return "".join([s.text for s in self.segments if s.views & bit])
