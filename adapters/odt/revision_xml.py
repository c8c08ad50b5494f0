"""Element helpers for ODF change tracking: regions, markers, mixed content, splitting.

These speak XML only (STYLE.md habit 3): a ``text:changed-region`` with its
``office:change-info``, the ``text:change``/``text:change-start``/``text:change-end``
markers, and the few tree operations a tracked edit needs on mixed content (text and tails):
put an element at a raw text position, detach one keeping its tail, split the wrappers
around a milestone until it is a child of a given ancestor (:func:`hoist`), cut the content
between two sibling milestones (:func:`take_between`), and spell a string as ODF inline
content (``text:s``, ``text:tab``, ``text:line-break``) so that white space survives the
collapsing rules of ODF.

Mixed content is passed around as *items*: a list of ``str`` (text) and elements whose
``tail`` is ``None``; :func:`append_items` and :func:`insert_items` put them back.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable, Iterator, Union

from lxml import etree

from .odfxml import XML_ID, qn

__all__ = [
    "Item",
    "ChangeIds",
    "tracked_changes",
    "make_region",
    "change_info",
    "marker",
    "nested_copies",
    "shallow_copy",
    "strip_ids",
    "insert_before",
    "insert_after",
    "insert_at",
    "detach",
    "hoist",
    "take_between",
    "content_items",
    "append_items",
    "insert_items",
    "text_items",
    "is_empty",
    "split_space",
    "iter_between",
    "REGION",
    "TRACKED",
    "CHANGE",
    "CHANGE_START",
    "CHANGE_END",
    "CHANGE_ID",
]

Item = Union[str, Any]

TRACKED = qn("text:tracked-changes")
REGION = qn("text:changed-region")
CHANGE = qn("text:change")
CHANGE_START = qn("text:change-start")
CHANGE_END = qn("text:change-end")
CHANGE_ID = qn("text:change-id")
_INFO = qn("office:change-info")
_CREATOR = qn("dc:creator")
_DATE = qn("dc:date")
_TEXT_ID = qn("text:id")
_S = qn("text:s")
_C = qn("text:c")
_TAB = qn("text:tab")
_LINE_BREAK = qn("text:line-break")
_KINDS = {"insertion": qn("text:insertion"), "deletion": qn("text:deletion"),
          "format-change": qn("text:format-change")}

#: Children of ``office:text`` that come before ``text:tracked-changes`` (ODF 1.3, 3.4:
#: office-text-content-prelude = office:forms, text:tracked-changes, declarations...).
_SEQ_BEFORE_TRACKED = (qn("office:forms"),)


class ChangeIds:
    """Fresh change ids (``text:id`` = ``xml:id``) that no id of the part already uses."""

    def __init__(self, root: etree._Element, prefix: str = "ledger-ct") -> None:
        self._used: set[str] = set()
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            for attr in (XML_ID, _TEXT_ID):
                value = el.get(attr)
                if value:
                    self._used.add(value)
        self._prefix = prefix
        self._n = 0

    def new(self) -> str:
        while True:
            self._n += 1
            rid = f"{self._prefix}{self._n}"
            if rid not in self._used:
                self._used.add(rid)
                return rid


def tracked_changes(office_text: etree._Element) -> etree._Element:
    """The ``text:tracked-changes`` of ``office:text``, made (in schema order) when missing."""
    found = office_text.find(TRACKED)
    if found is not None:
        return found
    el = etree.Element(TRACKED)
    i = 0
    for child in office_text:
        if child.tag in _SEQ_BEFORE_TRACKED or not isinstance(child.tag, str):
            i += 1
            continue
        break
    office_text.insert(i, el)
    el.tail = None
    return el


def change_info(author: str | None, date: str | None) -> etree._Element:
    """``office:change-info`` with ``dc:creator`` and ``dc:date``."""
    info = etree.Element(_INFO)
    creator = etree.SubElement(info, _CREATOR)
    creator.text = author or ""
    when = etree.SubElement(info, _DATE)
    when.text = date or ""
    return info


def make_region(
    tracked: etree._Element,
    rid: str,
    kind: str,
    author: str | None,
    date: str | None,
    content: Iterable[etree._Element] = (),
    inserted_info: etree._Element | None = None,
    after: etree._Element | None = None,
) -> etree._Element:
    """A ``text:changed-region`` (``text:id`` and ``xml:id``) holding one change.

    ``content`` is the deleted blocks of a deletion. ``inserted_info`` (an
    ``office:change-info``) adds a ``text:insertion`` after the deletion, as LibreOffice writes
    a deletion of text that another author inserted. The region goes after ``after`` or at
    the end of ``tracked``.
    """
    region = etree.Element(REGION)
    region.set(XML_ID, rid)
    region.set(_TEXT_ID, rid)
    change = etree.SubElement(region, _KINDS[kind])
    change.append(change_info(author, date))
    for block in content:
        change.append(block)
    if inserted_info is not None:
        ins = etree.SubElement(region, _KINDS["insertion"])
        ins.append(copy.deepcopy(inserted_info))
    if after is not None:
        after.addnext(region)
        region.tail = None
    else:
        tracked.append(region)
    return region


def marker(tag: str, rid: str) -> etree._Element:
    """A ``text:change``/``text:change-start``/``text:change-end`` naming region ``rid``."""
    el = etree.Element(tag)
    el.set(CHANGE_ID, rid)
    return el


def nested_copies(outer: etree._Element, spans: list[etree._Element]) -> tuple[etree._Element, etree._Element]:
    """Shallow copies of ``outer`` and of the ``spans`` inside it (innermost first, as a walk up
    from the text gives them), nested as in the text: the formatting that text written or kept
    elsewhere (a change table's paragraph, an insertion) carries. Returns the outermost copy and
    the innermost, where the text goes."""
    top = shallow_copy(outer)
    inner = top
    for anc in reversed(spans):
        c = shallow_copy(anc)
        inner.append(c)
        inner = c
    return top, inner


def shallow_copy(el: etree._Element) -> etree._Element:
    """The element with its attributes but no content, tail or ``xml:id``/``text:id``."""
    out = etree.Element(el.tag, attrib=dict(el.attrib), nsmap=None)
    for attr in (XML_ID, _TEXT_ID):
        if attr in out.attrib and el.tag != qn("text:note"):
            del out.attrib[attr]
    return out


def strip_ids(el: etree._Element) -> etree._Element:
    """Remove ``xml:id`` from an element and its descendants (copies must not repeat ids)."""
    for sub in el.iter():
        if isinstance(sub.tag, str) and XML_ID in sub.attrib:
            del sub.attrib[XML_ID]
    return el


# -- mixed content -----------------------------------------------------------------------------


def _add_text(parent: etree._Element, before: etree._Element | None, s: str) -> None:
    """Append ``s`` to the text that precedes ``before`` in ``parent`` (its end if None)."""
    if not s:
        return
    if before is None:
        if len(parent):
            last = parent[-1]
            last.tail = (last.tail or "") + s
        else:
            parent.text = (parent.text or "") + s
        return
    prev = before.getprevious()
    if prev is None:
        parent.text = (parent.text or "") + s
    else:
        prev.tail = (prev.tail or "") + s


def insert_before(ref: etree._Element, el: etree._Element) -> None:
    """Put ``el`` (no tail) right before ``ref``; the text before ``ref`` stays before both."""
    el.tail = None
    ref.addprevious(el)
    el.tail = None


def insert_after(ref: etree._Element, el: etree._Element) -> None:
    """Put ``el`` right after ``ref``, before ``ref``'s tail text."""
    tail = ref.tail
    ref.tail = None
    ref.addnext(el)
    el.tail = tail


def insert_at(node: etree._Element, slot: str, offset: int, el: etree._Element) -> None:
    """Put ``el`` at raw offset ``offset`` of ``node.text`` (slot ``text``) or ``node.tail``.

    >>> p = etree.fromstring('<p>ab<b/>cd</p>')
    >>> insert_at(p[0], "tail", 1, etree.Element("m"))
    >>> etree.tostring(p)
    b'<p>ab<b/>c<m/>d</p>'
    """
    if slot == "text":
        s = node.text or ""
        node.text = s[:offset] or None
        node.insert(0, el)
        el.tail = s[offset:] or None
    elif slot == "tail":
        s = node.tail or ""
        node.tail = s[:offset] or None
        node.addnext(el)
        el.tail = s[offset:] or None
    else:
        raise ValueError(f"unknown slot {slot!r}")


def detach(el: etree._Element) -> None:
    """Remove ``el`` from its parent; its tail text stays where it was."""
    parent = el.getparent()
    if parent is None:
        return
    tail = el.tail
    el.tail = None
    if tail:
        _add_text(parent, el, tail)
    parent.remove(el)


def is_empty(el: etree._Element) -> bool:
    """No text and no children."""
    return not el.text and len(el) == 0


def hoist(m: etree._Element, stop: etree._Element, splittable: frozenset | set) -> None:
    """Split the ancestors of milestone ``m`` until it is a child of ``stop``.

    Each ancestor ``E`` below ``stop`` becomes ``E`` (content before ``m``), ``m``, and a
    shallow copy of ``E`` (content after ``m``); halves left empty are removed. Only elements
    whose tag is in ``splittable`` may be split.

    :raise ValueError: an ancestor may not be split (a field, a note, ruby text).

    >>> p = etree.fromstring('<p><s a="1">ab<m/>cd</s>e</p>')
    >>> hoist(p[0][0], p, {"s"})
    >>> etree.tostring(p)
    b'<p><s a="1">ab</s><m/><s a="1">cd</s>e</p>'
    """
    while True:
        parent = m.getparent()
        if parent is None:
            raise ValueError("milestone is not inside the stop element")
        if parent is stop:
            return
        if parent.tag not in splittable:
            raise ValueError(f"cannot split {parent.tag}")
        grand = parent.getparent()
        right = shallow_copy(parent)
        right.text = m.tail
        m.tail = None
        for sib in list(m.itersiblings()):
            right.append(sib)
        parent.remove(m)
        right.tail = parent.tail
        parent.tail = None
        parent.addnext(m)
        m.addnext(right)
        if is_empty(right):
            m.tail = right.tail
            right.tail = None
            grand.remove(right)
        else:
            m.tail = None
        if is_empty(parent):
            grand.remove(parent)


def take_between(a: etree._Element, b: etree._Element) -> list[Item]:
    """Cut the content between sibling milestones ``a`` and ``b`` (exclusive) as items.

    >>> p = etree.fromstring('<p>x<a/>1<i/>2<b/>y</p>')
    >>> [i if isinstance(i, str) else i.tag for i in take_between(p[0], p[2])]
    ['1', 'i', '2']
    >>> etree.tostring(p)
    b'<p>x<a/><b/>y</p>'
    """
    if a.getparent() is not b.getparent():
        raise ValueError("milestones are not siblings")
    items: list[Item] = []
    if a.tail:
        items.append(a.tail)
    a.tail = None
    node = a.getnext()
    while node is not None and node is not b:
        nxt = node.getnext()
        tail = node.tail
        node.tail = None
        node.getparent().remove(node)
        items.append(node)
        if tail:
            items.append(tail)
        node = nxt
    if node is None:
        raise ValueError("second milestone does not follow the first")
    return items


def content_items(el: etree._Element, stop: etree._Element | None = None) -> list[Item]:
    """Cut the content of ``el`` (its text and children with tails) as items: all of it, or
    what comes before its child ``stop``.

    >>> p = etree.fromstring('<p>a<i/>b<m/>c</p>')
    >>> [i if isinstance(i, str) else i.tag for i in content_items(p, p[1])]
    ['a', 'i', 'b']
    >>> etree.tostring(p)
    b'<p><m/>c</p>'
    """
    items: list[Item] = []
    if el.text:
        items.append(el.text)
    el.text = None
    for child in list(el):
        if child is stop:
            break
        tail = child.tail
        child.tail = None
        el.remove(child)
        items.append(child)
        if tail:
            items.append(tail)
    return items


def append_items(parent: etree._Element, items: Iterable[Item]) -> None:
    """Append items at the end of ``parent``'s content."""
    for item in items:
        if isinstance(item, str):
            _add_text(parent, None, item)
        else:
            item.tail = None
            parent.append(item)


def insert_items(ref: etree._Element, items: Iterable[Item]) -> None:
    """Insert items right after ``ref`` (before its tail text)."""
    tail = ref.tail
    ref.tail = None
    last: etree._Element = ref
    for item in items:
        if isinstance(item, str):
            last.tail = (last.tail or "") + item
        else:
            last.addnext(item)
            item.tail = None
            last = item
    if tail:
        last.tail = (last.tail or "") + tail


def _space(count: int) -> etree._Element:
    el = etree.Element(_S)
    if count > 1:
        el.set(_C, str(count))
    return el


def text_items(text: str, after_space: bool) -> list[Item]:
    """``text`` as ODF inline content that shows exactly ``text``.

    ``after_space`` says whether the content lands where a space would collapse (the
    paragraph start, or right after a space): a leading space is then a ``text:s``. A run of
    spaces keeps its first space literal (when it shows) and spells the rest as ``text:s``;
    tabs and line breaks become ``text:tab`` and ``text:line-break``.

    >>> [i if isinstance(i, str) else (i.tag.split('}')[1], i.get(qn('text:c'))) for i in text_items(" a  b\\t", True)]
    [('s', None), 'a ', ('s', None), 'b', ('tab', None)]
    """
    items: list[Item] = []
    buf: list[str] = []
    prev_space = after_space
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == " ":
            j = i
            while j < n and text[j] == " ":
                j += 1
            run = j - i
            if not prev_space:
                buf.append(" ")
                run -= 1
            if run:
                if buf:
                    items.append("".join(buf))
                    buf = []
                items.append(_space(run))
            prev_space = True
            i = j
            continue
        if ch in "\t\n\r":
            if buf:
                items.append("".join(buf))
                buf = []
            items.append(etree.Element(_TAB if ch == "\t" else _LINE_BREAK))
            prev_space = False
            i += 1
            continue
        buf.append(ch)
        prev_space = False
        i += 1
    if buf:
        items.append("".join(buf))
    return items


def split_space(el: etree._Element, k: int) -> etree._Element:
    """Split ``text:s text:c="n"`` after ``k`` spaces; return the second element.

    >>> s = etree.Element(qn("text:s")); s.set(qn("text:c"), "3")
    >>> p = etree.Element("p"); p.append(s)
    >>> second = split_space(s, 1)
    >>> (s.get(qn("text:c")), second.get(qn("text:c")))
    (None, '2')
    """
    try:
        n = int(el.get(_C, "1"))
    except ValueError:
        n = 1
    if not 0 < k < n:
        raise ValueError(f"cannot split text:s of {n} at {k}")
    second = _space(n - k)
    if _C in el.attrib:
        del el.attrib[_C]
    if k > 1:
        el.set(_C, str(k))
    insert_after(el, second)
    return second


def iter_between(a: etree._Element, b: etree._Element) -> Iterator[etree._Element]:
    """Elements strictly after ``a`` and before ``b`` in document order (not ancestors of ``b``)."""
    ancestors = set(b.iterancestors())
    node = a
    while True:
        node = _next_in_order(node)
        if node is None or node is b:
            return
        if node in ancestors:
            continue
        yield node


def _next_in_order(el: etree._Element) -> etree._Element | None:
    """The next element in document order: the first child, else the next sibling up the tree."""
    if len(el):
        return el[0]
    while el is not None:
        nxt = el.getnext()
        if nxt is not None:
            return nxt
        el = el.getparent()
    return None
