"""Anchors of ODT units: locators into content.xml and the paragraphs they lead to.

A unit's :class:`~adapters.model.Anchor` holds ``part`` (``content.xml``), ``path`` (element
indexes from ``office:text``, comments and processing instructions not counted) and
``extra`` (``tag``: the element's prefixed name; ``kind``: ``figure``/``equation`` for units
whose text is not paragraph text; ``view``: ``rejected`` for a paragraph that exists in the
rejected view only, whose path leads into the tracked-changes table).
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from ..errors import AnchorError
from ..model import Anchor
from .odfxml import prefixed, qn

__all__ = ["element_path", "relative_path", "block_paragraphs", "resolve_anchor", "follow"]

_P = qn("text:p")
_H = qn("text:h")
_PARAGRAPHS = (_P, _H)
_NOTE = qn("text:note")
_NOTE_BODY = qn("text:note-body")
_OFFICE_TEXT = qn("office:text")
_OFFICE_BODY = qn("office:body")
_TRACKED = qn("text:tracked-changes")
_MASTER_STYLES = qn("office:master-styles")
_TEXT_NS = "{" + qn("text:x")[1:].partition("}")[0] + "}"
_TABLE_NS = "{" + qn("table:x")[1:].partition("}")[0] + "}"
#: Containers whose paragraphs belong to the unit text of the block around them.
_INDEXES = {qn(f"text:{n}") for n in ("table-of-content", "illustration-index", "table-index", "object-index",
                                      "user-index", "alphabetical-index", "bibliography")}


def element_path(indexes: list[int] | tuple[int, ...]) -> str:
    """The locator of an element: child indexes (elements only) from ``office:text`` (in
    styles.xml: from ``office:master-styles``, where headers and footers are).

    >>> element_path([3, 0, 2])
    '/3/0/2'
    """
    return "/" + "/".join(str(i) for i in indexes)


def relative_path(el: etree._Element, stop: Any) -> tuple[int, ...]:
    """Element indexes from an ancestor down to ``el``.

    ``stop`` is the ancestor element itself, or a tuple of tags: the walk up ends at the
    first ancestor with one of them (the enclosing paragraph of an inline object).
    """
    steps: list[int] = []
    node = el
    parent = node.getparent()
    while parent is not None and parent is not stop:
        steps.append(_index(node))
        if isinstance(stop, tuple) and parent.tag in stop:
            break
        node, parent = parent, parent.getparent()
    if parent is not None and parent is stop:
        steps.append(_index(node))
    return tuple(reversed(steps))


def _index(node: etree._Element) -> int:
    """The index of ``node`` among its parent's element children (comments not counted)."""
    return sum(1 for _ in node.itersiblings(etree.Element, preceding=True))


def follow(root: etree._Element, anchor: Anchor, cache: dict | None = None) -> etree._Element:
    """The element an anchor's locator leads to (checked against its recorded tag).

    ``cache`` (a dict the caller keeps while the tree does not change) holds each element's
    children, for a writer that follows thousands of locators through one long body.

    :raise AnchorError: the locator leads nowhere or to an element of another tag.
    """
    el = _follow(root, anchor.path, cache)
    tag = anchor.get("tag")
    if tag is not None and prefixed(el.tag) != tag:
        raise AnchorError(f"locator {anchor.path!r} leads to {prefixed(el.tag)}, not {tag}")
    return el


def _follow(root: etree._Element, path: str, cache: dict | None = None) -> etree._Element:
    el = root
    if el.tag != _OFFICE_TEXT:
        body = el.find(_OFFICE_BODY)
        # content.xml: from office:text; styles.xml: from the master pages (headers, footers)
        el = body.find(_OFFICE_TEXT) if body is not None else el.find(_MASTER_STYLES)
        if el is None:
            raise AnchorError("the part has no office:text body and no master pages")
    for step in path.strip("/").split("/"):
        if not step:
            continue
        try:
            i = int(step)
        except ValueError:
            raise AnchorError(f"bad locator {path!r}") from None
        hit = cache.get(id(el)) if cache is not None else None
        if hit is None or hit[0] is not el:  # the element is kept: a dropped proxy's id is reused
            hit = (el, [c for c in el if isinstance(c.tag, str)])
            if cache is not None:
                cache[id(el)] = hit
        kids = hit[1]
        if not 0 <= i < len(kids):
            raise AnchorError(f"locator {path!r} points past the end of {prefixed(el.tag)}")
        el = kids[i]
    return el


def block_paragraphs(el: etree._Element) -> list[etree._Element]:
    """The paragraphs of a block in the order its unit text joins them.

    A paragraph is itself; a table gives its cell paragraphs row by row (nested tables in
    place); a note gives the paragraphs of its body; a text box its paragraphs. Paragraphs
    inside frames anchored in those paragraphs are not included (they are units of their own).
    """
    tag = el.tag
    if tag in _PARAGRAPHS:
        return [el]
    out: list[etree._Element] = []
    if tag == _NOTE:
        for child in el:
            if child.tag == _NOTE_BODY:
                _collect(child, out)
        return out
    _collect(el, out)
    return out


def _collect(el: etree._Element, out: list[etree._Element]) -> None:
    for child in el:
        tag = child.tag
        if tag in _PARAGRAPHS:
            out.append(child)
        elif isinstance(tag, str) and (tag.startswith(_TEXT_NS) or tag.startswith(_TABLE_NS)):
            if tag == _TRACKED or tag in _INDEXES:
                continue
            _collect(child, out)


def resolve_anchor(root: etree._Element, anchor: Anchor) -> list[etree._Element]:
    """The paragraph elements of a unit, in the order the unit's text joins them.

    :param root: the parsed part the anchor names (``content.xml``'s root, or its
        ``office:text``).
    :raise AnchorError: the locator no longer leads to an element of the recorded tag.
    """
    el = follow(root, anchor)
    if anchor.get("kind") in ("figure", "equation"):
        return []
    return block_paragraphs(el)
