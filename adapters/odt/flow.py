"""Where blocks sit in a flow of paragraphs: the paragraph before or after a place, list
wrappers, and shallow copies of them for the change table.

A *flow* is the paragraphs of one container (the body, a table cell, a note, a text box, a
section) read through ``text:list``/``text:list-item`` wrappers; a table ends the search for
a neighbouring paragraph. These helpers speak XML only.
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from .revision_xml import CHANGE, CHANGE_END, CHANGE_START, detach, insert_after, shallow_copy
from .odfxml import qn

__all__ = [
    "elements", "edge", "first_paragraph", "last_paragraph", "empty_like", "sibling", "neighbour", "follows",
    "list_chain", "split_list", "prune", "Cloner", "has_change_marks", "keepers", "PARAS", "LISTY", "SKIP", "TABLE", "ITEM", "HEADER", "LIST",
]

_P = qn("text:p")
_H = qn("text:h")
PARAS = (_P, _H)
TABLE = qn("table:table")
LIST = qn("text:list")
ITEM = qn("text:list-item")
HEADER = qn("text:list-header")
_NOTE = qn("text:note")
_ANNOTATION = qn("office:annotation")
_ANNOTATION_END = qn("office:annotation-end")
_STYLE = qn("text:style-name")
_DRAW_NS = "{" + qn("draw:x")[1:].partition("}")[0] + "}"
LISTY = {LIST, ITEM, HEADER, qn("text:numbered-paragraph")}
#: Block-level siblings a paragraph search steps over.
SKIP = {qn(f"text:{n}") for n in ("soft-page-break", "tracked-changes", "variable-decls", "sequence-decls",
                                   "user-field-decls", "dde-connection-decls", "bookmark", "bookmark-start",
                                   "bookmark-end")} | {qn("office:forms")}
_CHANGE_TAGS = (CHANGE, CHANGE_START, CHANGE_END)
_CONTINUE_NUMBERING = qn("text:continue-numbering")
_CONTINUE_LIST = qn("text:continue-list")


def elements(nodes) -> list[Any]:
    """The elements among nodes (comments and processing instructions left out)."""
    return [n for n in nodes if isinstance(n.tag, str)]


# -- paragraphs around a place ----------------------------------------------------------------


def edge(block: Any, first: bool, tables: bool = False) -> Any:
    """The first (last) paragraph of a block, through list wrappers; a table is ``None``
    (or itself, with ``tables``)."""
    if block.tag in PARAS or (tables and block.tag == TABLE):
        return block
    if block.tag in LISTY:
        kids = [c for c in elements(block) if c.tag not in SKIP]
        if kids:
            return edge(kids[0] if first else kids[-1], first, tables)
    return None


def first_paragraph(block: Any) -> Any:
    """The first paragraph of a block (``None`` for a table)."""
    return edge(block, True)


def last_paragraph(block: Any) -> Any:
    """The last paragraph of a block (``None`` for a table)."""
    return edge(block, False)


def empty_like(p: Any) -> Any:
    """An empty ``text:p`` in the style of paragraph ``p`` (a heading gives a plain paragraph)."""
    el = etree.Element(_P)
    if p is not None and p.tag == _P and p.get(_STYLE):
        el.set(_STYLE, p.get(_STYLE))
    return el


def sibling(el: Any, forward: bool) -> Any:
    """The next (previous) element sibling, stepping over page breaks and declarations."""
    node = el.getnext() if forward else el.getprevious()
    while node is not None and (not isinstance(node.tag, str) or node.tag in SKIP):
        node = node.getnext() if forward else node.getprevious()
    return node


def neighbour(el: Any, forward: bool, tables: bool = False) -> Any:
    """The paragraph right after (before) ``el`` in its flow, through list wrappers only."""
    node = el
    while True:
        sib = sibling(node, forward)
        if sib is not None:
            return edge(sib, forward, tables)
        parent = node.getparent()
        if parent is None or parent.tag not in LISTY:
            return None
        node = parent


def follows(a: Any, b: Any) -> bool:
    """Whether block ``b`` comes right after block ``a`` in their flow."""
    nxt = neighbour(a, True, tables=True)
    return nxt is not None and (nxt is b or any(anc is b for anc in nxt.iterancestors()))


def list_chain(el: Any) -> list[Any]:
    """The list wrappers around ``el`` up to its flow, innermost first."""
    out = []
    node = el.getparent()
    while node is not None and node.tag in LISTY:
        out.append(node)
        node = node.getparent()
    return out


def split_list(top: Any, branch: Any, after: bool) -> Any:
    """Cut ``text:list`` ``top`` after (before) its child ``branch``; return the second list.

    The second list is a shallow copy that continues the numbering
    (``text:continue-numbering``), as LibreOffice writes a list that a plain paragraph
    interrupts.

    >>> body = etree.Element(qn("office:text")); top = etree.SubElement(body, qn("text:list"))
    >>> items = [etree.SubElement(top, qn("text:list-item")) for _ in range(3)]
    >>> second = split_list(top, items[0], True)
    >>> (len(top), len(second), second.get(qn("text:continue-numbering")))
    (1, 2, 'true')
    """
    second = shallow_copy(top)
    for attr in (_CONTINUE_LIST,):
        if attr in second.attrib:
            del second.attrib[attr]
    second.set(_CONTINUE_NUMBERING, "true")
    start = branch.getnext() if after else branch
    moving = []
    node = start
    while node is not None:
        moving.append(node)
        node = node.getnext()
    insert_after(top, second)
    for node in moving:
        second.append(node)
    return second


def prune(el: Any) -> None:
    """Remove list wrappers left without any block inside."""
    node = el
    while node is not None and node.tag in LISTY and not any(
        isinstance(c.tag, str) and c.tag not in SKIP for c in node
    ):
        parent = node.getparent()
        detach(node)
        node = parent


class Cloner:
    """Places blocks into a deletion with shallow copies of their list wrappers (shared)."""

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}
        self.top: list[Any] = []

    def place(self, chain: list[Any], node: Any) -> None:
        parent = None
        for anc in reversed(chain):
            c = self.memo.get(anc)
            if c is None:
                c = shallow_copy(anc)
                if parent is None:
                    self.top.append(c)
                else:
                    parent.append(c)
                self.memo[anc] = c
            parent = c
        node.tail = None
        if parent is None:
            self.top.append(node)
        else:
            parent.append(node)


def has_change_marks(blocks: list[Any]) -> bool:
    """Whether the blocks hold any ``text:change``, ``text:change-start`` or ``text:change-end``."""
    return any(True for b in blocks for _ in b.iter(*_CHANGE_TAGS))


def keepers(block: Any) -> list[Any]:
    """Comments and frames of a deleted block (not those inside notes, comments or frames)."""
    out = []
    for d in block.iterdescendants():
        tag = d.tag
        if not isinstance(tag, str) or not (tag in (_ANNOTATION, _ANNOTATION_END) or tag.startswith(_DRAW_NS)):
            continue
        sheltered = False
        for a in d.iterancestors():
            if a is block:
                break
            if a.tag in (_NOTE, _ANNOTATION) or a.tag.startswith(_DRAW_NS):
                sheltered = True
                break
        if not sheltered:
            out.append(d)
    return out
