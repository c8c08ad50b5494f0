"""Accept all or reject all tracked changes of a .docx, as Word's Review > Accept/Reject All does.

:func:`resolve_tree` works on any element (a part's root, or copies of paragraphs that a move
carries in their accepted state); :func:`accept_all`/:func:`reject_all` apply it to every
WordprocessingML part of a package and copy every other member byte for byte.

A paragraph whose mark goes away (deleted and accepted, inserted and rejected) merges with the
next paragraph, which keeps its own properties (the reader's convention for merged
paragraphs); a paragraph followed by a table, a content control or nothing keeps its mark,
except that an emptied paragraph before a table or a control goes.
"""
from __future__ import annotations

from typing import Any

from ..package import open_package
from ..repack import rewrite_zip
from .blocks import inside_textbox
from .context import read_rels
from .oxml import load_part, qn, serialize_part
from .tags import (
    W_DEL,
    W_DELINSTRTEXT,
    W_DELTEXT,
    W_INS,
    W_INSTRTEXT,
    W_MOVEFROM,
    W_MOVETO,
    W_P,
    W_PPR,
    W_RPR,
    W_SECTPR,
    W_T,
    W_TBL,
    W_TC,
    W_TR,
    W_TRPR,
)

__all__ = ["accept_all", "reject_all", "resolve_tree", "revision_parts"]

_W = qn("w:p")[:-1]
_M = qn("m:r")[:-1]
_RANGE_MARKERS = frozenset(
    _W + t
    for t in (
        "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd",
        "customXmlInsRangeStart", "customXmlInsRangeEnd", "customXmlDelRangeStart", "customXmlDelRangeEnd",
        "customXmlMoveFromRangeStart", "customXmlMoveFromRangeEnd", "customXmlMoveToRangeStart",
        "customXmlMoveToRangeEnd",
    )
)
#: Markers that may sit between two paragraphs without stopping them from merging.
_BETWEEN = _RANGE_MARKERS | frozenset(
    _W + t for t in ("bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "permStart", "permEnd", "proofErr")
)
_CELL_INS, _CELL_DEL, _CELL_MERGE = _W + "cellIns", _W + "cellDel", _W + "cellMerge"
_TCPR, _TBLPR, _TBLPREX, _TBLGRID = _W + "tcPr", _W + "tblPr", _W + "tblPrEx", _W + "tblGrid"
_HEADER_REFS = (_W + "headerReference", _W + "footerReference")
#: A ``*PrChange`` element -> the tag of the old properties it holds.
_CHANGES = {
    _W + "rPrChange": W_RPR,
    _W + "pPrChange": W_PPR,
    _W + "sectPrChange": W_SECTPR,
    _W + "tblPrChange": _TBLPR,
    _W + "tblPrExChange": _TBLPREX,
    _W + "trPrChange": W_TRPR,
    _W + "tcPrChange": _TCPR,
    _W + "tblGridChange": _TBLGRID,
}
_NUMBERING_CHANGE = _W + "numberingChange"
_MARK_TAGS = (W_INS, W_DEL, W_MOVEFROM, W_MOVETO)
#: Part relationship types whose parts hold WordprocessingML text.
_TEXT_PART_TYPES = ("footnotes", "endnotes", "comments", "header", "footer")


def _remove(el) -> None:
    """Remove an element, keeping its tail text (whitespace between elements, usually)."""
    parent = el.getparent()
    if parent is None:
        return
    if el.tail:
        prev = el.getprevious()
        if prev is not None:
            prev.tail = (prev.tail or "") + el.tail
        else:
            parent.text = (parent.text or "") + el.tail
    parent.remove(el)


def _unwrap(el) -> None:
    """Replace an element by its children."""
    parent = el.getparent()
    if parent is None:
        return
    idx = parent.index(el)
    kids = list(el)
    if el.text and kids:
        kids[0].tail = el.text + (kids[0].tail or "")
    for i, ch in enumerate(kids):
        parent.insert(idx + i, ch)
    if kids and el.tail:
        kids[-1].tail = (kids[-1].tail or "") + el.tail
        el.tail = None
    _remove(el)


def _attached(el, root) -> bool:
    while el is not None:
        if el is root:
            return True
        el = el.getparent()
    return False


def _undelete_text(el) -> None:
    """``w:delText``/``w:delInstrText`` back to ``w:t``/``w:instrText`` (not inside text boxes below)."""
    for t in el.iter(W_DELTEXT, W_DELINSTRTEXT):
        if not inside_textbox(t, el):
            t.tag = W_T if t.tag == W_DELTEXT else W_INSTRTEXT


def _restore(change, accept: bool) -> None:
    """Accept (drop) or reject (restore the old properties from) a ``w:*PrChange``."""
    props = change.getparent()
    if accept or props is None:
        _remove(change)
        return
    old = change.find(_CHANGES[change.tag])
    keep_first: list[Any] = []
    keep_last: list[Any] = []
    for ch in props:
        if ch is change:
            continue
        if change.tag == _W + "rPrChange" and ch.tag in _MARK_TAGS:
            keep_first.append(ch)
        elif change.tag == _W + "pPrChange" and ch.tag in (W_RPR, W_SECTPR):
            keep_last.append(ch)
        elif change.tag == _W + "sectPrChange" and ch.tag in _HEADER_REFS:
            keep_first.append(ch)
    for ch in list(props):
        props.remove(ch)
    for ch in keep_first + (list(old) if old is not None else []) + keep_last:
        props.append(ch)


def _next_paragraph(p) -> tuple[Any, list[Any]]:
    """The ``w:p`` right after ``p`` (markers between allowed) and those markers; (None, []) if none."""
    between: list[Any] = []
    for sib in p.itersiblings():
        if not isinstance(sib.tag, str):
            continue
        if sib.tag == W_P:
            return sib, between
        if sib.tag in _BETWEEN:
            between.append(sib)
            continue
        return None, []
    return None, []


def _merge_into_next(p, merged: dict[Any, Any]) -> None:
    target, between = _next_paragraph(p)
    if target is None:
        nxt = next((s for s in p.itersiblings() if isinstance(s.tag, str) and s.tag not in _BETWEEN), None)
        if nxt is not None and nxt.tag != W_SECTPR and not any(ch.tag != W_PPR for ch in p):
            _remove(p)  # an emptied paragraph whose mark goes, before a table or a control: it goes
        return
    ppr = target.find(W_PPR)
    pos = 1 if ppr is not None and target.index(ppr) == 0 else 0
    moving = [ch for ch in p if ch.tag != W_PPR] + between
    for i, ch in enumerate(moving):
        target.insert(pos + i, ch)
    _remove(p)
    merged[p] = target


def resolve_tree(root, accept: bool) -> dict[Any, Any]:
    """Accept (``accept=True``) or reject every tracked change below ``root``, in place.

    Returns ``{w:p removed by a merge: the w:p its content went into}``.
    """
    gone, keep = ((W_DEL, W_MOVEFROM), (W_INS, W_MOVETO)) if accept else ((W_INS, W_MOVETO), (W_DEL, W_MOVEFROM))
    marks_to_merge: list[Any] = []
    rows_to_drop: list[Any] = []
    content_gone: list[Any] = []
    content_keep: list[Any] = []
    markers: list[Any] = []
    for el in root.iter(*_MARK_TAGS):
        parent = el.getparent()
        ptag = parent.tag if parent is not None else None
        if ptag == W_RPR:
            grand = parent.getparent()
            if grand is not None and grand.tag == W_PPR and el.tag in gone:
                marks_to_merge.append(grand.getparent())
            markers.append(el)
        elif ptag == W_TRPR:
            if el.tag in gone:
                rows_to_drop.append(parent.getparent())
            markers.append(el)
        elif ptag is None or not (ptag == W_P or _is_content_parent(parent)):
            markers.append(el)  # numbering or math-control revisions: the marker goes
        elif el.tag in gone:
            content_gone.append(el)
        else:
            content_keep.append(el)
    cells_gone = [tc for tc in root.iter(W_TC) if _cell_mark(tc, _CELL_DEL if accept else _CELL_INS)]
    for el in root.iter(_CELL_INS, _CELL_DEL, _CELL_MERGE, _NUMBERING_CHANGE):
        markers.append(el)
    changes = list(root.iter(*_CHANGES))
    ranges = list(root.iter(*_RANGE_MARKERS))

    for el in content_gone:
        _remove(el)
    for el in content_keep:
        if _attached(el, root):
            if not accept:
                _undelete_text(el)
            _unwrap(el)
    for tr in rows_to_drop:
        tbl = tr.getparent()
        _remove(tr)
        if tbl is not None and tbl.tag == W_TBL and tbl.find(W_TR) is None:
            _remove(tbl)
    for tc in cells_gone:
        _remove(tc)
    for el in markers + ranges:
        if _attached(el, root):
            _remove(el)
    for ch in changes:
        if _attached(ch, root):
            _restore(ch, accept)
    merged: dict[Any, Any] = {}
    for p in marks_to_merge:
        if _attached(p, root):
            _merge_into_next(p, merged)
    return merged


_CONTENT_PARENTS = frozenset(
    _W + t
    for t in (
        "hyperlink", "smartTag", "customXml", "sdtContent", "fldSimple", "dir", "bdo", "ins", "del", "moveFrom",
        "moveTo", "body", "tc", "txbxContent", "footnote", "endnote", "comment", "hdr", "ftr", "rubyBase", "rt",
    )
)


def _is_content_parent(parent) -> bool:
    """Whether a revision element under ``parent`` wraps content (runs, paragraphs, math)."""
    tag = parent.tag
    if tag in _CONTENT_PARENTS:
        return True
    return isinstance(tag, str) and tag.startswith(_M)  # math: w:ins/w:del around m:r


def _cell_mark(tc, tag: str) -> bool:
    tcpr = tc.find(_TCPR)
    return tcpr is not None and tcpr.find(tag) is not None


def revision_parts(pkg) -> list[str]:
    """The main part and its text parts (notes, comments, headers, footers), by relationships."""
    main = pkg.main_part
    out = [main]
    for rel in read_rels(pkg, main).values():
        if not rel.external and rel.type in _TEXT_PART_TYPES and pkg.has(rel.target) and rel.target not in out:
            out.append(rel.target)
    return out


def _resolve_package(data: bytes, accept: bool) -> bytes:
    pkg = open_package(data)
    if pkg.format != "docx":
        from ..errors import UnsupportedFormatError

        raise UnsupportedFormatError("not a .docx package")
    changed: dict[str, bytes] = {}
    for name in revision_parts(pkg):
        root = load_part(pkg, name)
        strict = root is not pkg.xml(name)
        if next(root.iter(*_MARK_TAGS, *_CHANGES, *_RANGE_MARKERS, _CELL_INS, _CELL_DEL), None) is None:
            continue
        resolve_tree(root, accept)
        changed[name] = serialize_part(pkg.read(name), root, strict)
    return rewrite_zip(data, changed) if changed else data


def accept_all(data: bytes) -> bytes:
    """The package with every tracked change accepted (text, paragraph marks, rows, formatting).

    :raise adapters.errors.AdapterError: the bytes are not a readable .docx.
    """
    return _resolve_package(data, True)


def reject_all(data: bytes) -> bytes:
    """The package with every tracked change rejected: the text before any of them was made.

    :raise adapters.errors.AdapterError: the bytes are not a readable .docx.
    """
    return _resolve_package(data, False)
