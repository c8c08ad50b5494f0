"""Accept or reject every tracked change of an .odt package, as LibreOffice's Accept All /
Reject All do (for the text; see the limits below).

``accept_all``: the body already reads as the accepted view; the markers and the
``text:tracked-changes`` table go. ``reject_all``: inserted content (between
``text:change-start`` and ``text:change-end``, paragraph breaks included) is removed, and
each deletion's content is put back at its ``text:change`` marker (a deletion of text that
was itself inserted, LibreOffice's stacked form, stays out). Format changes lose their
markers (ODF does not record the old formatting).

Limits: a restored multi-paragraph deletion replaces the paragraph that held the marker by
the deleted paragraphs (with their own styles and list wrappers), so list nesting and
labels can differ from LibreOffice's restoration; the text and its order are the same.
Headers and footers (styles.xml's master pages, :mod:`adapters.odt.margins`) are resolved the
same way, each over its own change table.
"""
from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from ..errors import AdapterError, UnsupportedFormatError
from ..package import ODT, open_package
from ..repack import rewrite_zip
from .revision_xml import (
    CHANGE,
    CHANGE_END,
    CHANGE_START,
    TRACKED,
    append_items,
    content_items,
    detach,
    hoist,
    insert_items,
    take_between,
)
from .flow import edge, prune
from .textedit import SPLITTABLE, canonicalize, replace_in_paragraph, spell_space_at
from .margins import MARGIN_PART, tracked_margins
from .odfxml import qn
from .context import load_context
from .tracking import Tracker

__all__ = ["accept_all", "reject_all"]

_P = qn("text:p")
_H = qn("text:h")
_PARAS = (_P, _H)
_MARKERS = (CHANGE, CHANGE_START, CHANGE_END)


def _open(data: bytes):
    pkg = open_package(data)
    if pkg.format != ODT:
        raise UnsupportedFormatError("accept_all/reject_all here need an .odt package")
    return load_context(pkg)


def _flows(ctx: Any) -> list[Any]:
    """The contexts whose change tables hold something: the body's, then each header's and
    footer's (their ``content`` is styles.xml's root)."""
    out = [ctx] if ctx.changes or ctx.office_text.find(TRACKED) is not None else []
    return out + [m for m in tracked_margins(ctx) if m.changes or m.office_text.find(TRACKED) is not None]


def _write(data: bytes, flows: list[Any]) -> bytes:
    parts = {}
    for c in flows:
        name = "content.xml" if c.content.find(qn("office:body")) is not None else MARGIN_PART
        parts[name] = etree.tostring(c.content.getroottree(), encoding="UTF-8", xml_declaration=True)
    return rewrite_zip(data, parts)


def _drop_table(office_text: etree._Element) -> None:
    for el in list(office_text.iter(*_MARKERS)):
        detach(el)
    for tracked in list(office_text.iterchildren(TRACKED)):
        detach(tracked)


def accept_all(data: bytes) -> bytes:
    """The package with every tracked change accepted (``content.xml``, and ``styles.xml`` where
    a header or footer holds one, are rewritten).

    :raise AdapterError: (a subclass) for a package that cannot be read.
    """
    flows = _flows(_open(data))
    if not flows:
        return data
    for c in flows:
        _drop_table(c.office_text)
    return _write(data, flows)


def reject_all(data: bytes) -> bytes:
    """The package with every tracked change rejected (``content.xml``, and ``styles.xml`` where
    a header or footer holds one, are rewritten).

    :raise AdapterError: (a subclass) for a package that cannot be read, or a change whose
        markers cannot be resolved.
    """
    flows = _flows(_open(data))
    if not flows:
        return data
    for ctx in flows:
        t = Tracker(ctx)
        try:
            for rid, region in list(ctx.changes.items()):
                if region.kind == "insertion":
                    _remove_insertion(t, rid)
            for rid, region in list(ctx.changes.items()):
                if region.kind == "deletion":
                    _restore_deletion(t, rid, region)
        except ValueError as exc:
            raise AdapterError(f"the tracked changes could not be rejected ({exc})") from exc
        _drop_table(ctx.office_text)
    return _write(data, flows)


# -- insertions ---------------------------------------------------------------------------------


def _paragraph_of(el: etree._Element) -> etree._Element | None:
    return next((a for a in el.iterancestors() if a.tag in _PARAS), None)


def _offset(t: Tracker, p: etree._Element, el: etree._Element) -> int:
    for ev in t.walk(p).events:
        if ev.node is el:
            return ev.start
    raise ValueError("a change marker is not where the walk expects it")


def _text(t: Tracker, p: etree._Element) -> str:
    return "".join(s.text for s in t.walk(p).segments)


def _remove_insertion(t: Tracker, rid: str) -> None:
    start = t.find_marker(CHANGE_START, rid)
    end = t.find_marker(CHANGE_END, rid)
    if start is None or end is None:
        for m in (start, end):
            if m is not None:
                detach(m)
        return
    x, y = _paragraph_of(start), _paragraph_of(end)
    if x is None or y is None:
        raise ValueError(f"change {rid} is not inside paragraphs")
    if x is y:
        a, b = _offset(t, x, start), _offset(t, x, end)
        replace_in_paragraph(t, x, a, b, "", None, None, tracking=False)
        detach(start)
        detach(end)
        t.drop_region(rid)
        return
    a = _offset(t, x, start)
    x_text = _text(t, x)
    if a < len(x_text):
        replace_in_paragraph(t, x, a, len(x_text), "", None, None, tracking=False)
    b = _offset(t, y, end)
    if b:
        replace_in_paragraph(t, y, 0, b, "", None, None, tracking=False)
    kept = [m for blk in _between(x, y) for m in blk.iter(CHANGE)]
    for blk in _between(x, y):
        parent = blk.getparent()
        detach(blk)
        prune(parent)
    detach(start)
    detach(end)
    t.drop_region(rid)
    if a == 0:  # whole paragraphs were inserted before y: x goes, y stays
        items = content_items(x)
        parent = x.getparent()
        detach(x)
        prune(parent)
        _prepend(y, items + kept)
    else:
        head = _text(t, x)
        tail = _text(t, y)
        if tail.startswith(" ") and (not head or head.endswith(" ")):
            spell_space_at(t, y, 0)
        items = content_items(y)
        parent = y.getparent()
        detach(y)
        prune(parent)
        append_items(x, kept + items)
    t.touch()


def _between(x: etree._Element, y: etree._Element) -> list[etree._Element]:
    """The outermost elements strictly between paragraphs ``x`` and ``y`` in document order."""
    out: list[etree._Element] = []
    y_anc = set(y.iterancestors())
    node = x
    while True:
        nxt = node.getnext()
        while nxt is None:
            node = node.getparent()
            if node is None:
                return out
            nxt = node.getnext()
        node = nxt
        while node in y_anc:  # descend towards y
            if not len(node):
                break
            node = node[0]
            if node is y:
                return out
        if node is y:
            return out
        if node in y_anc:
            continue
        if isinstance(node.tag, str):
            out.append(node)


def _prepend(p: etree._Element, items: list) -> None:
    if not items:
        return
    rest = content_items(p)
    append_items(p, items + rest)


# -- deletions ----------------------------------------------------------------------------------


def _restore_deletion(t: Tracker, rid: str, region: Any) -> None:
    mark = t.find_marker(CHANGE, rid)
    if mark is None:
        return
    if region.inserted or not region.content:
        detach(mark)
        return
    b = _paragraph_of(mark)
    if b is None:
        raise ValueError(f"deletion {rid} is not inside a paragraph")
    blocks = [copy.deepcopy(c) for c in region.content]
    for blk in blocks:
        for m in list(blk.iter(*_MARKERS)):
            detach(m)
        for p in [blk] if blk.tag in _PARAS else blk.iter(*_PARAS):
            canonicalize(t, p)
    canonicalize(t, b)
    x = _offset(t, b, mark)
    cur = _text(t, b)
    last = edge(blocks[-1], False)
    last_text = _text(t, last) if last is not None else ""
    if x < len(cur) and cur[x] == " " and (not last_text or last_text.endswith(" ")):
        spell_space_at(t, b, x)
        mark = t.find_marker(CHANGE, rid)
    if len(blocks) == 1 and blocks[0].tag in _PARAS:
        insert_items(mark, content_items(blocks[0]))
        detach(mark)
        t.touch()
        return
    try:
        hoist(mark, b, SPLITTABLE)
    except ValueError as exc:
        raise ValueError(f"deletion {rid}: {exc}") from None
    head = content_items(b, mark)
    tail = take_after(mark)
    detach(mark)
    first = edge(blocks[0], True)
    if first is None:
        first = etree.Element(_P)
        blocks.insert(0, first)
    if last is None:
        last = etree.Element(_P)
        blocks.append(last)
    _prepend(first, head)
    append_items(last, tail)
    for blk in blocks:
        b.addprevious(blk)
        blk.tail = None
    parent = b.getparent()
    detach(b)
    prune(parent)
    t.touch()


def take_after(m: etree._Element) -> list:
    """Cut the content after ``m`` (its tail and following siblings)."""
    end = etree.Element("ledger-end")
    m.getparent().append(end)
    items = take_between(m, end)
    detach(end)
    return items
