"""The one text walk of WordprocessingML, shared by the reader and the writer.

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
hidden text (``w:vanish``, directly or through styles) is left out; math shows as linear text;
whitespace at the edges of a ``w:t`` without ``xml:space="preserve"`` is ignored (as Word
does); a drop-cap frame paragraph is the start of the paragraph after it. A note's own mark
(``w:footnoteRef``) is not part of the note's text: the note unit's ``number`` holds it.

Anchor paths (``Anchor.path``) are ``/``-separated steps from the part's body: ``N`` the Nth
block (``w:p``/``w:tbl`` after unwrapping ``w:sdt``, ``w:customXml``, ``mc:AlternateContent``),
``N-M`` blocks N..M (paragraphs merged by a tracked paragraph-mark change), ``#ID`` the note or
comment with that ``w:id``, ``cN`` the Nth paragraph of a table in text order, ``tN`` the Nth
text box of a paragraph, ``dN`` its Nth figure (a picture written directly in the body counts
as a block of its own). Examples: ``"12"``, ``"3-4"``, ``"7/c5"``, ``"0/t0/2"``, ``"2/d0"``,
``"#1"`` (in the footnotes part).
"""
from __future__ import annotations

from typing import Any, Mapping

from .blocks import alt_element, alt_text, classify_object, iter_blocks, table_paragraphs
from .tags import ID, W_BODY, W_COMMENT, W_ENDNOTE, W_FOOTNOTE, W_P, W_TBL
from .views import ACCEPTED, BOTH, REJECTED, view_bit
from .scan import ParagraphScan, Segment
from .walk import Walker

__all__ = [
    "ACCEPTED",
    "REJECTED",
    "BOTH",
    "Segment",
    "ParagraphScan",
    "Walker",
    "view_bit",
    "paragraph_segments",
    "join_segments",
    "resolve_anchor",
    "resolve_items",
    "items_segments",
    "unit_segments",
]


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
        if ch.tag in (W_FOOTNOTE, W_ENDNOTE, W_COMMENT) and ch.get(ID) == nid:
            return ch
    raise KeyError(f"no note or comment with id {nid!r}")


def _paragraph_objects(p, kind: str) -> list[Any]:
    if p.tag != W_P:
        return [obj for k, obj, _a in classify_object(p) if k == kind]
    scan = Walker().paragraph(p)
    return [obj for k, obj, _v, _a in scan.objects if k == kind]


def _resolve(root_by_part: Mapping[str, Any], anchor, cache: dict | None = None) -> tuple[list[tuple[Any, int]], Any, list[Any]]:
    """Paragraphs ``(w:p, presence)`` of an anchor, the figure element for ``dN`` anchors and
    the anchor's own blocks (the ``w:p``/``w:tbl`` it names; a figure's holding paragraph)."""
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
    own: list[Any] = []
    try:
        if steps and steps[0].startswith("#"):
            container = _note_container(root, steps[0][1:])
            steps = steps[1:]
        else:
            container = _container_of(root, True)
        for i, step in enumerate(steps):
            last = i == len(steps) - 1
            if step[0].isdigit():
                if cache is None:
                    blocks = list(iter_blocks(container))
                else:
                    # keyed by the element's id, and holding the element: lxml makes a new proxy
                    # (with a new id) for a node whose proxy was dropped
                    hit = cache.get(id(container))
                    if hit is None or hit[0] is not container:
                        hit = cache[id(container)] = (container, list(iter_blocks(container)))
                    blocks = hit[1]
                if "-" in step:
                    a, b = (int(x) for x in step.split("-"))
                    items = [(blk, presence) for blk in blocks[a : b + 1]]
                    own = [blk for blk, _ in items]
                    current = None
                else:
                    current = blocks[int(step)]
                    own = [current]
                    container = None
            elif step[0] == "c":
                current = table_paragraphs(current)[int(step[1:])][0]
                own = [current]
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
    if not own and container is not None:  # a whole note: its blocks
        own = list(iter_blocks(container))
    return items, figure, own


def resolve_anchor(root_by_part: Mapping[str, Any], anchor) -> list[Any]:
    """The ``w:p`` elements of a unit, in the order its text joins them.

    ``root_by_part`` maps part names to parsed roots (``PackageContext.parts`` will do). A
    table gives its cell paragraphs in text order; a note or comment its paragraphs; a figure
    the paragraph that holds it.

    :raise adapters.errors.AnchorError: the anchor does not resolve in these parts.
    """
    items, _figure, _own = _resolve(root_by_part, anchor)
    return [p for p, _ in items]


def resolve_items(root_by_part: Mapping[str, Any], anchor, cache: dict | None = None) -> tuple[list[tuple[Any, int]], Any, list[Any]]:
    """``([(w:p, presence), ...], figure, blocks)`` of an anchor.

    The items and figure are what :func:`items_segments` walks; ``blocks`` are the elements
    the anchor names (a ``w:p``, the ``w:p`` run of an ``N-M`` step, a ``w:tbl``, a figure's
    holding paragraph, a note's blocks): where a writer inserts after, deletes or moves. A
    writer resolves every anchor once, before it changes the tree (block indexes shift when
    paragraphs are inserted), and walks the same elements again after each change; ``cache``
    (a dict the caller keeps while the tree does not change) holds each container's blocks.

    :raise adapters.errors.AnchorError: the anchor does not resolve in these parts.
    """
    return _resolve(root_by_part, anchor, cache)


def items_segments(
    items: list[tuple[Any, int]], figure: Any = None, context: Any = None, view: str = "accepted",
    open_fields: tuple[str, ...] = (),
) -> list[Segment]:
    """The joined segments of resolved paragraphs (or of a figure's alt text) in ``view``."""
    bit = view_bit(view)
    if figure is not None:
        alt = alt_text(figure)
        return [Segment(alt, alt_element(figure), 0, "alt", BOTH, False, None)] if alt else []
    w = Walker(context)
    w.open_fields(tuple(open_fields))
    rows = []
    for p, presence in items:
        scan = w.paragraph(p)
        rows.append((p, scan.segments, scan.mark_views, presence))
    return join_segments(rows, bit)


def unit_segments(root_by_part: Mapping[str, Any], anchor, context: Any = None, view: str = "accepted") -> list[Segment]:
    """The segments whose texts join to the unit's text in ``view`` (separators included).

    >>> # "".join(s.text for s in unit_segments(ctx.parts, unit.anchor, ctx)) == unit.text
    """
    items, figure, _own = _resolve(root_by_part, anchor)
    return items_segments(items, figure, context, view, tuple(anchor.get("open_fields", ())))
