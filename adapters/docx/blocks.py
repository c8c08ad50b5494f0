"""Where text lives in a WordprocessingML part: blocks, table rows and cells, drawings and text boxes.

Every walker of the package (the reader, anchor resolution, the writer) goes through these
iterators, so block indexes in anchor paths mean the same thing everywhere.
"""
from __future__ import annotations

from typing import Any, Iterator

from .tags import (
    FIGURE_TAGS,
    MC_AC,
    MC_CHOICE,
    MC_FALLBACK,
    O_TITLE,
    VAL,
    V_IMAGEDATA,
    V_SHAPE,
    WP_DOCPR,
    W_CUSTOMXML,
    W_DEL,
    W_DRAWING,
    W_GRIDAFTER,
    W_GRIDBEFORE,
    W_GRIDSPAN,
    W_HMERGE,
    W_INS,
    W_MOVEFROM,
    W_MOVETO,
    W_P,
    W_PICT,
    W_SDT,
    W_SDTCONTENT,
    W_TBL,
    W_TBLPPR,
    W_TBLPR,
    W_TC,
    W_TCPR,
    W_TR,
    W_TRPR,
    W_TXBXCONTENT,
    W_VMERGE,
)
from .views import ACCEPTED, BOTH, REJECTED

__all__ = [
    "choose_alternate",
    "iter_block_items",
    "iter_blocks",
    "iter_rows",
    "iter_cells",
    "row_views",
    "cell_props",
    "is_floating",
    "table_paragraphs",
    "classify_object",
    "alt_text",
    "alt_element",
    "inside_textbox",
    "int_or",
]

_REVISION_TAGS = (W_INS, W_DEL, W_MOVEFROM, W_MOVETO)


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
        elif tag in _REVISION_TAGS:
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
                before = int_or(c.get(VAL), 0)
            elif c.tag == W_GRIDAFTER:
                after = int_or(c.get(VAL), 0)
    return views, change, before, after


def cell_props(tc) -> tuple[int, bool]:
    """``(gridSpan, continues_merge)``: a cell continuing a vertical merge shows no text."""
    span, cont = 1, False
    tcpr = tc.find(W_TCPR)
    if tcpr is not None:
        for c in tcpr:
            if c.tag == W_GRIDSPAN:
                span = max(1, int_or(c.get(VAL), 1))
            elif c.tag == W_VMERGE or c.tag == W_HMERGE:
                cont = c.get(VAL) in (None, "continue")
    return span, cont


def int_or(val, default: int) -> int:
    """``int(val)``, or ``default`` for a missing or malformed attribute."""
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


def classify_object(el) -> list[tuple[str, Any, str]]:
    """The figure (a picture, chart or diagram) and text boxes in a ``w:drawing``/``w:pict``/``w:object``.

    Returns ``("figure", el, alt)`` first when the object shows a picture, then one
    ``("textbox", w:txbxContent, "")`` per top-level text box, in document order.
    """
    out: list[tuple[str, Any, str]] = []
    if any(not inside_textbox(hit, el) for hit in el.iter(*FIGURE_TAGS)):
        out.append(("figure", el, alt_text(el)))
    top = None
    for tx in el.iter(W_TXBXCONTENT):
        if top is not None and any(a is top for a in tx.iterancestors(W_TXBXCONTENT)):
            continue
        top = tx
        out.append(("textbox", tx, ""))
    return out


def inside_textbox(node, top) -> bool:
    """Whether ``node`` lies in a ``w:txbxContent`` below its ancestor ``top`` (a picture or
    deleted text there belongs to the text box, not to ``top``)."""
    for anc in node.iterancestors():
        if anc is top:
            return False
        if anc.tag == W_TXBXCONTENT:
            return True
    return False


def alt_text(el) -> str:
    doc_pr = next(el.iter(WP_DOCPR), None)
    if doc_pr is not None:
        return (doc_pr.get("descr") or doc_pr.get("title") or "").strip()
    for shape in el.iter(V_SHAPE):
        alt = shape.get("alt")
        if alt:
            return alt.strip()
    img = next(el.iter(V_IMAGEDATA), None)
    if img is not None:
        return (img.get(O_TITLE) or "").strip()
    return ""


def alt_element(el) -> Any:
    """The element holding a figure's alt text (``wp:docPr`` or the VML shape), for segments."""
    doc_pr = next(el.iter(WP_DOCPR), None)
    if doc_pr is not None:
        return doc_pr
    return next(el.iter(V_SHAPE), el)
