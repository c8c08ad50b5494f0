"""Block-level tracked changes: paragraphs inserted, deleted and moved; tables deleted, inserted, moved.

A deleted paragraph has its runs in ``w:del`` and a deleted paragraph mark; an inserted one has
its runs in ``w:ins`` and an inserted mark. Which marks carry the change follows what Word and
LibreOffice need to remove or restore whole paragraphs without merging them wrongly
(:func:`mark_paragraph_groups`): normally each changed paragraph's own mark; when the changed
paragraphs end their container or stand before a table (a mark there cannot merge forward),
the marks shift one paragraph up. Tables change by rows (``w:trPr/w:del``, ``w:trPr/w:ins``)
with every run and cell paragraph mark changed too. Field structures are deleted only whole.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable

from lxml import etree

from ..errors import AnchorError
from .blocks import iter_blocks
from .oxml import qn
from .revision_xml import Stamp, base_props, change_paragraph_props, make_ins, mark_paragraph, mark_row, same_props, wrap_in_del, wrap_runs
from .tags import (
    FLDCHARTYPE,
    MC_AC,
    M_OMATH,
    M_OMATHPARA,
    W_BDO,
    W_BODY,
    W_COMMENT,
    W_CUSTOMXML,
    W_DEL,
    W_DIR,
    W_DRAWING,
    W_ENDNOTE,
    W_FLDCHAR,
    W_FLDSIMPLE,
    W_FOOTNOTE,
    W_HYPERLINK,
    W_INS,
    W_INSTRTEXT,
    W_OBJECT,
    W_P,
    W_PICT,
    W_PPR,
    W_R,
    W_RPR,
    W_SDT,
    W_SDTCONTENT,
    W_SMARTTAG,
    W_TC,
    W_TR,
    W_TXBXCONTENT,
)

__all__ = [
    "container_of",
    "paragraph_runs",
    "field_safe",
    "delete_paragraph",
    "delete_table",
    "insert_table",
    "new_paragraph",
    "mark_paragraph_groups",
    "holds_object",
]

_CONTAINERS = frozenset({W_BODY, W_TC, W_TXBXCONTENT, W_FOOTNOTE, W_ENDNOTE, W_COMMENT, qn("w:hdr"), qn("w:ftr")})
_WRAPPERS = frozenset({W_HYPERLINK, W_SMARTTAG, W_CUSTOMXML, W_SDTCONTENT, W_FLDSIMPLE, W_DIR, W_BDO, W_INS, qn("w:moveTo")})
_OBJECTS = (W_DRAWING, W_PICT, W_OBJECT, MC_AC)
_MOVE_FROM = qn("w:moveFrom")
_PLAIN = {_MOVE_FROM: W_DEL, qn("w:moveTo"): W_INS}


def container_of(el) -> Any:
    """The block container (body, cell, text box, note...) that holds a paragraph or table."""
    for anc in el.iterancestors():
        if anc.tag in _CONTAINERS:
            return anc
    return None


def holds_object(r) -> bool:
    """Whether a run holds a drawing, picture, embedded object or alternate content."""
    return any(c.tag in _OBJECTS for c in r)


def _collect(el, out: list[Any], keep_objects: bool) -> None:
    for ch in el:
        tag = ch.tag
        if tag == W_R:
            if not (keep_objects and holds_object(ch)):
                out.append(ch)
        elif tag == M_OMATH or tag == M_OMATHPARA:
            raise AnchorError("the paragraph holds an equation; equations are not written as tracked changes")
        elif tag == W_SDT:
            content = ch.find(W_SDTCONTENT)
            if content is not None:
                _collect(content, out, keep_objects)
        elif tag in _WRAPPERS:
            _collect(ch, out, keep_objects)


def paragraph_runs(p, keep_objects: bool = False) -> list[Any]:
    """The runs of a ``w:p`` that show in the accepted view, in order (through links, controls, insertions).

    Runs already deleted (``w:del``, ``w:moveFrom``) are left out. ``keep_objects`` leaves out
    runs holding drawings (their figures and text boxes are units of their own).
    """
    out: list[Any] = []
    _collect(p, out, keep_objects)
    return out


def field_safe(runs: list[Any]) -> list[Any]:
    """``runs`` without the field-structure runs of fields that do not begin and end among them.

    Deleting a ``w:fldChar`` begin whose end stays (a TOC spanning paragraphs) would break the
    field; such structure runs, and the instruction runs of a field begun outside, stay as they are.
    """
    stack: list[list[Any]] = []
    keep: set[int] = set()
    stray_sep: list[int] = []
    for i, r in enumerate(runs):
        for c in r:
            if c.tag != W_FLDCHAR:
                continue
            kind = c.get(FLDCHARTYPE)
            if kind == "begin":
                stack.append([i, None])
            elif kind == "separate":
                if stack:
                    stack[-1][1] = i
                else:
                    keep.add(i)
                    stray_sep.append(i)
            elif kind == "end":
                if stack:
                    stack.pop()
                else:
                    keep.add(i)
    for begin, sep in stack:
        keep.add(begin)
        stop = sep if sep is not None else len(runs)
        if sep is not None:
            keep.add(sep)
        keep.update(j for j in range(begin + 1, stop) if any(c.tag == W_INSTRTEXT for c in runs[j]))
    for sep in stray_sep:
        keep.update(j for j in range(sep) if any(c.tag == W_INSTRTEXT for c in runs[j]))
    return [r for i, r in enumerate(runs) if i not in keep]


def delete_paragraph(p, stamp: Stamp, tag: str = W_DEL, keep_objects: bool = False) -> bool:
    """Wrap every shown run of ``p`` in ``w:del`` (or ``w:moveFrom``); True when nothing shown is left.

    The paragraph mark is not marked here (see :func:`mark_paragraph_groups`).
    """
    if p.tag != W_P:
        raise AnchorError("a picture placed directly in the body cannot be deleted as a tracked change")
    runs = field_safe(paragraph_runs(p))
    if keep_objects:
        kept = [r for r in runs if holds_object(r)]
        runs = [r for r in runs if not holds_object(r)]
    else:
        kept = []
    if tag == W_DEL:
        wrap_in_del(runs, stamp)
    else:
        wrap_runs(runs, tag, stamp)
    return not kept


def _top_paragraphs(tbl) -> Iterable[Any]:
    """The paragraphs of a table's cells (nested tables included, text boxes not)."""
    for p in tbl.iter(W_P):
        if not any(a.tag == W_TXBXCONTENT for a in _ancestors_below(p, tbl)):
            yield p


def _ancestors_below(el, top) -> Iterable[Any]:
    for anc in el.iterancestors():
        if anc is top:
            return
        yield anc


def delete_table(tbl, stamp: Stamp) -> None:
    """A tracked table deletion: every row ``w:trPr/w:del``, every run and cell paragraph mark deleted."""
    for tr in tbl.iter(W_TR):
        mark_row(tr, W_DEL, stamp)
    for p in list(_top_paragraphs(tbl)):
        delete_paragraph(p, stamp)
        _mark_once(p, W_DEL, stamp)


def insert_table(tbl, stamp: Stamp) -> None:
    """A tracked table insertion (a moved table's copy): rows, runs and cell marks inserted."""
    for tr in tbl.iter(W_TR):
        mark_row(tr, W_INS, stamp)
    for p in list(_top_paragraphs(tbl)):
        wrap_runs(paragraph_runs(p), W_INS, stamp)
        _mark_once(p, W_INS, stamp)


def new_paragraph(ppr, rpr, text: str, stamp: Stamp) -> Any:
    """A new ``w:p`` (a copy of ``ppr``) whose text is one inserted run formatted by ``rpr``."""
    p = etree.Element(W_P)
    if ppr is not None:
        p.append(copy.deepcopy(ppr))
    p.append(make_ins(text, rpr, stamp))
    return p


def _mark_once(p, tag: str, stamp: Stamp) -> None:
    ppr = p.find(W_PPR)
    rpr = ppr.find(W_RPR) if ppr is not None else None
    if rpr is not None and rpr.find(tag) is not None:
        return
    mark_paragraph(p, tag, stamp)


#: Markers that may stand between two paragraphs that merge.
_BETWEEN = frozenset(
    qn("w:" + t)
    for t in (
        "bookmarkStart", "bookmarkEnd", "commentRangeStart", "commentRangeEnd", "permStart", "permEnd", "proofErr",
        "moveFromRangeStart", "moveFromRangeEnd", "moveToRangeStart", "moveToRangeEnd",
    )
)


def _sibling(p, which: str) -> Any:
    """The ``w:p`` next to ``p`` in the same parent (markers skipped) that its mark can merge with."""
    sibs = p.itersiblings(preceding=(which == "previous"))
    for sib in sibs:
        if not isinstance(sib.tag, str) or sib.tag in _BETWEEN:
            continue
        return sib if sib.tag == W_P else None
    return None


def _keep_properties(above, survivor, tag: str, stamp: Stamp) -> None:
    """With shifted marks, ``above``'s text ends in ``survivor``'s paragraph mark in one view;
    a tracked property change gives that paragraph ``above``'s properties in that view.

    Word keeps the properties of the surviving (last) mark when paragraphs merge, LibreOffice
    those of the first paragraph; with the change both show ``above`` as it was. Nothing is
    written when the two paragraphs have the same properties.
    """
    mine, theirs = base_props(survivor), base_props(above)
    if same_props(mine, theirs):
        return
    if tag in (W_DEL, _MOVE_FROM):  # accepted: above's text + survivor's mark
        change_paragraph_props(survivor, theirs, mine, stamp)
    else:  # rejected: above's text + survivor's mark
        change_paragraph_props(survivor, None, theirs, stamp)


def mark_paragraph_groups(changed: dict[Any, tuple[str, Stamp]]) -> None:
    """Mark the paragraph marks of inserted (or deleted) paragraphs so whole paragraphs come and go.

    ``changed`` maps each ``w:p`` to the tag of its change (``w:ins``/``w:moveTo`` or
    ``w:del``/``w:moveFrom``) and the stamp to use. Per stretch of adjacent changed paragraphs
    in one container: when a paragraph follows as a sibling, each one's own mark is marked;
    when a table, a block content control or nothing follows (a mark there cannot merge
    forward), the marks shift to the paragraphs before, starting with the unchanged sibling
    paragraph above (whose properties a tracked property change keeps, see
    :func:`_keep_properties`). With no paragraph above: each paragraph's own mark when
    something follows (Word resolves it; LibreOffice 7.4 leaves an empty paragraph there),
    else all but the last (an empty paragraph remains, as a container needs one).
    """
    by_container: dict[int, tuple[Any, list[Any]]] = {}
    for p in changed:
        c = container_of(p)
        if c is None:
            continue
        by_container.setdefault(id(c), (c, []))[1].append(p)
    for container, _ps in by_container.values():
        blocks = list(iter_blocks(container))
        where = {id(b): i for i, b in enumerate(blocks)}
        idxs = sorted(where[id(p)] for p in _ps if id(p) in where)
        runs: list[list[int]] = []
        for i in idxs:
            if runs and runs[-1][-1] == i - 1:
                runs[-1].append(i)
            else:
                runs.append([i])
        for run in runs:
            first, last = run[0], run[-1]
            nxt = blocks[last + 1] if last + 1 < len(blocks) else None
            if nxt is not None and nxt is _sibling(blocks[last], "next"):
                pairs = [(blocks[k], blocks[k]) for k in run]
            elif first > 0 and blocks[first - 1] is _sibling(blocks[first], "previous"):
                pairs = [(blocks[k - 1], blocks[k]) for k in run]
                _keep_properties(blocks[first - 1], blocks[last], *changed[blocks[last]])
            elif nxt is not None:  # a table or a content control follows, no paragraph above
                pairs = [(blocks[k], blocks[k]) for k in run]
            else:
                pairs = [(blocks[k], blocks[k]) for k in run[:-1]]
            for holder, src in pairs:
                tag, stamp = changed[src]
                if holder is not src:  # a mark outside a move's range records a plain change
                    tag = _PLAIN.get(tag, tag)
                _mark_once(holder, tag, stamp)
