"""Paragraph-level tracked changes: units inserted, deleted and moved, as LibreOffice writes them.

LibreOffice's conventions (checked against files it saved with change recording on):

* a paragraph inserted after paragraph ``M`` is one insertion from the end of ``M`` (its
  paragraph break) to the end of the new paragraph: ``text:change-start`` as the last child
  of ``M``, ``text:change-end`` as the last child of the new paragraph. Where no paragraph
  comes before (after a table), the insertion runs from the start of the new paragraph to
  the start of the next one; an inserted table is followed by an empty paragraph that ends
  the insertion;
* a deleted paragraph (with its paragraph mark) moves into the change table followed by an
  empty copy of the next paragraph ``N``, and the ``text:change`` marker opens ``N``. When
  nothing follows in its flow, the marker closes the previous paragraph ``M`` and the table
  holds an empty copy of ``M`` then the deleted paragraph. Deleted list items keep their
  ``text:list``/``text:list-item`` wrappers (shallow copies), consecutive ones sharing them;
* a move is a deletion where the unit was and an insertion of its copy where it goes (ODF
  has no move-tracking of its own).

Comments and frames of a deleted paragraph stay in the text (they move to the marker); a
paragraph that holds another author's tracked change is not deleted or moved (an
:class:`~adapters.errors.AnchorError` says so).
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from lxml import etree

from ..errors import AnchorError
from ..model import Edit
from .changes_xml import (
    CHANGE,
    CHANGE_END,
    CHANGE_START,
    detach,
    insert_after,
    insert_before,
    marker,
    shallow_copy,
    strip_ids,
    text_items,
    append_items,
)
from .inline import replace_in_paragraph
from .odfxml import prefixed, qn
from .textmap import block_paragraphs

if TYPE_CHECKING:  # pragma: no cover
    from .writer import _Writer

__all__ = ["apply_structure", "subtree"]

_P = qn("text:p")
_H = qn("text:h")
_PARAS = (_P, _H)
_TABLE = qn("table:table")
_LIST = qn("text:list")
_ITEM = qn("text:list-item")
_HEADER = qn("text:list-header")
_NOTE = qn("text:note")
_ANNOTATION = qn("office:annotation")
_ANNOTATION_END = qn("office:annotation-end")
_STYLE = qn("text:style-name")
_LEVEL = qn("text:outline-level")
_DRAW_NS = "{" + qn("draw:x")[1:].partition("}")[0] + "}"
_LISTY = {_LIST, _ITEM, _HEADER, qn("text:numbered-paragraph")}
_FLOW = {qn("office:text"), qn("table:table-cell"), qn("table:covered-table-cell"), qn("text:note-body"),
         qn("draw:text-box"), qn("text:section")}
#: Block-level siblings a paragraph search steps over.
_SKIP = {qn(f"text:{n}") for n in ("soft-page-break", "tracked-changes", "variable-decls", "sequence-decls",
                                    "user-field-decls", "dde-connection-decls", "bookmark", "bookmark-start",
                                    "bookmark-end")} | {qn("office:forms")}
_MOVABLE = {_P, _H, _TABLE, _LIST}
_CHANGE_TAGS = (CHANGE, CHANGE_START, CHANGE_END)
_TRACKED = qn("text:tracked-changes")


def _elements(nodes) -> list[Any]:
    return [n for n in nodes if isinstance(n.tag, str)]


# -- paragraphs around a place ----------------------------------------------------------------


def _edge(block: Any, first: bool, tables: bool = False) -> Any:
    """The first (last) paragraph of a block, through list wrappers; a table is ``None``
    (or itself, with ``tables``)."""
    if block.tag in _PARAS or (tables and block.tag == _TABLE):
        return block
    if block.tag in _LISTY:
        kids = [c for c in _elements(block) if c.tag not in _SKIP]
        if kids:
            return _edge(kids[0] if first else kids[-1], first, tables)
    return None


def _first_para(block: Any) -> Any:
    return _edge(block, True)


def _last_para(block: Any) -> Any:
    return _edge(block, False)


def _empty_like(p: Any) -> Any:
    """An empty ``text:p`` in the style of paragraph ``p`` (a heading gives a plain paragraph)."""
    el = etree.Element(_P)
    if p is not None and p.tag == _P and p.get(_STYLE):
        el.set(_STYLE, p.get(_STYLE))
    return el


def _sibling(el: Any, forward: bool) -> Any:
    node = el.getnext() if forward else el.getprevious()
    while node is not None and (not isinstance(node.tag, str) or node.tag in _SKIP):
        node = node.getnext() if forward else node.getprevious()
    return node


def _neighbour(el: Any, forward: bool, tables: bool = False) -> Any:
    """The paragraph right after (before) ``el`` in its flow, through list wrappers only."""
    node = el
    while True:
        sib = _sibling(node, forward)
        if sib is not None:
            return _edge(sib, forward, tables)
        parent = node.getparent()
        if parent is None or parent.tag not in _LISTY:
            return None
        node = parent


def _follows(a: Any, b: Any) -> bool:
    """Whether block ``b`` comes right after block ``a`` in their flow."""
    nxt = _neighbour(a, True, tables=True)
    return nxt is not None and (nxt is b or any(anc is b for anc in nxt.iterancestors()))


def _list_chain(el: Any) -> list[Any]:
    """The list wrappers around ``el`` up to its flow, innermost first."""
    out = []
    node = el.getparent()
    while node is not None and node.tag in _LISTY:
        out.append(node)
        node = node.getparent()
    return out


def _prune(el: Any) -> None:
    """Remove list wrappers left without any block inside."""
    node = el
    while node is not None and node.tag in _LISTY and not any(
        isinstance(c.tag, str) and c.tag not in _SKIP for c in node
    ):
        parent = node.getparent()
        detach(node)
        node = parent


class _Cloner:
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


def _has_changes(t, blocks: list[Any]) -> bool:
    for b in blocks:
        for p in block_paragraphs(b):
            if t.open_at_start(p):
                return True
        if any(True for _ in b.iter(*_CHANGE_TAGS)):
            return True
    return False


def _keepers(block: Any) -> list[Any]:
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


# -- the structure edits ------------------------------------------------------------------------


class _Structure:
    def __init__(self, w: "_Writer") -> None:
        self.w = w
        self.t = w.t
        self.ctx = w.ctx
        self.placed_after: dict[str, Any] = {}
        #: (block, author, date, move) for every block deleted, written at the end
        self.deletions: list[tuple[Any, str | None, str | None, bool]] = []
        self.notes: list[tuple[Any, Edit]] = []

    # -- where units are --

    def element(self, uid: str) -> Any:
        el = self.w.located[uid][0]
        return self.w.moved.get(el, el)

    def last_block(self, uid: str) -> Any:
        """The block after which a unit ends: its paragraph, table, or the paragraph of a figure."""
        if uid in self.placed_after:
            return self.placed_after[uid]
        el = self.element(uid)
        if el.tag in _PARAS or el.tag == _TABLE:
            return el
        para = next((a for a in el.iterancestors() if a.tag in _PARAS), None)
        if para is None:
            raise AnchorError(f"unit {uid} ({prefixed(el.tag)}) has no paragraph to insert after")
        return self.w.moved.get(para, para)

    def first_block(self, uid: str) -> Any:
        el = self.element(uid)
        if el.tag in _PARAS or el.tag == _TABLE:
            return el
        para = next((a for a in el.iterancestors() if a.tag in _PARAS), None)
        if para is None:
            raise AnchorError(f"unit {uid} ({prefixed(el.tag)}) has no paragraph to move before")
        return para

    # -- insertion --

    def place(self, blocks: list[Any], list_chain: list[Any], ref: Any, after: bool) -> None:
        """Put new blocks after (before) block ``ref``, honouring lists.

        ``list_chain`` is the wrappers (innermost first) the blocks belong in when they are
        list-item content; empty for blocks of the flow itself.
        """
        ref_item = ref.getparent() if ref.getparent() is not None and ref.getparent().tag in (_ITEM, _HEADER) else None
        if list_chain:
            if ref_item is not None:
                siblings_after = _sibling(ref, True) is not None if after else _sibling(ref, False) is not None
                if siblings_after:  # inside the item, right next to ref
                    self._put(blocks, ref, after)
                    return
                item = shallow_copy(list_chain[0]) if list_chain[0].tag in (_ITEM, _HEADER) else etree.Element(_ITEM)
                for b in blocks:
                    item.append(b)
                self._put([item], ref_item, after)
                return
            cl = _Cloner()
            for b in blocks:
                cl.place(list_chain, b)
            self._put(cl.top, ref, after)
            return
        if ref_item is not None:
            top = _list_chain(ref)[-1]
            edge = _last_para(top) if after else _first_para(top)
            if edge is not ref:
                raise AnchorError("a paragraph cannot be put in the middle of a list; place it after the list's last item")
            ref = top
        self._put(blocks, ref, after)

    @staticmethod
    def _put(blocks: list[Any], ref: Any, after: bool) -> None:
        if after:
            for b in reversed(blocks):
                insert_after(ref, b)
        else:
            for b in blocks:
                insert_before(ref, b)

    def mark_inserted(self, blocks: list[Any], author: str | None, date: str | None) -> None:
        """Make placed blocks one tracked insertion with their paragraph breaks."""
        t = self.t
        first_block, last_block = blocks[0], blocks[-1]
        prev = _neighbour(first_block, False)
        nxt = _neighbour(last_block, True)
        rid = t.region("insertion", author, date)
        cs, ce = marker(CHANGE_START, rid), marker(CHANGE_END, rid)
        if prev is not None:
            last = _last_para(last_block)
            if last is None:  # an inserted table: an empty paragraph after it ends the insertion
                last = _empty_like(prev)
                insert_after(last_block, last)
            prev.append(cs)
            last.append(ce)
        else:
            first = _first_para(first_block)
            if first is None:
                first = _empty_like(nxt)
                insert_before(first_block, first)
            cs.tail = first.text
            first.text = None
            first.insert(0, cs)
            if nxt is not None:
                ce.tail = nxt.text
                nxt.text = None
                nxt.insert(0, ce)
            else:
                last = _last_para(last_block)
                if last is None:
                    last = _empty_like(first)
                    insert_after(last_block, last)
                last.append(ce)
        t.touch()
        if prev is not None:
            for r in t.open_at(prev, cs):
                if t.ctx.change_kinds.get(r) in ("insertion", "format-change") and r != rid:
                    t.split_region(r, cs, ce)

    def insert_after(self, e: Edit) -> None:
        unit = self.w.doc.unit(e.unit)
        ref = self.last_block(unit.id)
        kind = e.kind or "paragraph"
        el = etree.Element(_H if kind == "section" else _P)
        style = self.style_name(e.style, ref)
        if style:
            el.set(_STYLE, style)
        if kind == "section":
            level = self.ctx.styles.outline_level(style) or unit.level or 1
            el.set(_LEVEL, str(level))
        append_items(el, text_items(e.text or "", True))
        chain: list[Any] = []
        if kind == "list_item":
            chain = _list_chain(ref) or self._nearest_list_chain(ref)
        self.place([el], chain, ref, True)
        self.mark_inserted([el], e.author, e.date or self.w.now())
        self.placed_after[unit.id] = el

    def _nearest_list_chain(self, ref: Any) -> list[Any]:
        """List wrappers for a new list item after a paragraph that is in no list."""
        for el in ref.itersiblings(preceding=True):
            if el.tag == _LIST:
                items = [c for c in el if c.tag == _ITEM]
                if items:
                    return [items[-1], el]
        style = None
        for el in self.ctx.office_text.iter(_LIST):
            style = el
            break
        if style is None:
            raise AnchorError("the document has no list to take a list item's style from")
        return [etree.Element(_ITEM), style]

    def style_name(self, display: str | None, ref: Any) -> str | None:
        if not display:
            return ref.get(_STYLE) if ref.tag in _PARAS else None
        styles = self.ctx.styles
        name = styles.find("paragraph", display)
        if name:
            return name
        if ref.tag in _PARAS and styles.display_name("paragraph", ref.get(_STYLE)) == display:
            return ref.get(_STYLE)
        return None

    # -- moves --

    def run_of(self, uid: str) -> tuple[list[Any], list[Any]]:
        """The blocks a unit and its descendants occupy, and the list wrappers they sit in."""
        doc = self.w.doc
        ids = subtree(doc, uid)
        els = [self.element(u.id) for u in doc.units
               if u.id in ids and u.kind not in ("footnote", "endnote") and u.id in self.w.located
               and u.meta.get("absent_in") != "accepted"]
        if not els:
            raise AnchorError(f"unit {uid} has nothing to move")
        first, last = els[0], els[-1]
        common = set(first.iterancestors())
        container = next((a for a in last.iterancestors() if a in common), None) if first is not last else first.getparent()
        if container is None:
            raise AnchorError(f"unit {uid} cannot be moved (its parts are in different places)")

        def top(el: Any) -> Any:
            node = el
            while node.getparent() is not container:
                node = node.getparent()
            return node

        a, b = top(first), top(last)
        blocks = []
        node = a
        while node is not None:
            if isinstance(node.tag, str):
                blocks.append(node)
            if node is b:
                break
            node = node.getnext()
        for blk in blocks:
            if blk.tag not in _MOVABLE and blk.tag not in _SKIP:
                raise AnchorError(f"unit {uid} cannot be moved: it holds a {prefixed(blk.tag)}")
        blocks = [blk for blk in blocks if blk.tag in _MOVABLE]
        chain = _list_chain(blocks[0]) if container.tag in (_ITEM, _HEADER) else []
        return blocks, chain

    def move(self, e: Edit) -> None:
        blocks, chain = self.run_of(e.unit)
        if _has_changes(self.t, blocks):
            raise AnchorError(f"unit {e.unit} holds another tracked change; it cannot be moved")
        copies = [copy.deepcopy(b) for b in blocks]
        for b, c in zip(blocks, copies):
            c.tail = None
            for o, n in zip(b.iter(), c.iter()):
                if isinstance(o.tag, str):
                    self.w.moved[o] = n
        if e.after:
            ref, after = self.last_block(e.after), True
        else:
            ref, after = self.first_block(e.before_unit), False
        self.place(copies, chain, ref, after)
        self.mark_inserted(copies, e.author, e.date or self.w.now())
        if e.after:
            self.placed_after[e.after] = copies[-1]
        for b in blocks:
            self.deletions.append((b, e.author, e.date or self.w.now(), True))

    # -- deletion --

    def delete(self, e: Edit) -> None:
        unit = self.w.doc.unit(e.unit)
        el = self.w.located[unit.id][0]
        if unit.kind in ("footnote", "endnote"):
            self.notes.append((el, e))
            return
        if el.tag not in _PARAS and el.tag != _TABLE:
            raise AnchorError(f"unit {unit.id} is a {unit.kind}: delete its paragraph or caption instead")
        if _has_changes(self.t, [el]):
            raise AnchorError(f"unit {unit.id} holds another tracked change; it cannot be deleted")
        self.deletions.append((el, e.author, e.date or self.w.now(), False))

    def flush_deletions(self) -> None:
        """Write the deletions; blocks of one author that follow each other in a flow make one
        region (with the date of the first)."""
        order = {el: i for i, el in enumerate(self.ctx.office_text.iter())}
        clusters: list[list[list[tuple[Any, str | None, str | None, bool]]]] = []
        for item in sorted(self.deletions, key=lambda d: order.get(d[0], -1)):
            if clusters and _follows(clusters[-1][-1][-1][0], item[0]):
                runs = clusters[-1]
                if runs[-1][0][1] == item[1]:  # one author: one region, as LibreOffice merges them
                    runs[-1].append(item)
                else:
                    runs.append([item])
            else:
                clusters.append([[item]])
        for runs in clusters:
            # Adjacent deletions by different authors chain their markers in one paragraph:
            # the one after the run first when it exists, else the one before it.
            forward = _neighbour(runs[-1][-1][0], True) is None
            for run in runs if forward else reversed(runs):
                self.delete_run(run, use_next=not forward)
        for note, e in self.notes:
            para = next((a for a in note.iterancestors() if a.tag in _PARAS), None)
            if para is None or any(a.tag == _TRACKED for a in note.iterancestors()):
                continue  # gone with its paragraph
            w = self.t.walk(para)
            ev = next((ev for ev in w.events if ev.kind == "note" and ev.node is note), None)
            if ev is None:
                continue
            end = ev.start + sum(len(seg.text) for seg in w.segments if seg.field is note)
            replace_in_paragraph(self.t, para, ev.start, end, "", e.author, e.date or self.w.now())

    def delete_run(self, run: list[tuple[Any, str | None, str | None, bool]], use_next: bool) -> None:
        """Delete adjacent blocks as one region: the marker opens the paragraph after them
        (``use_next``) or closes the one before them."""
        t = self.t
        blocks = [item[0] for item in run]
        _, author, date, _ = run[0]
        nxt = _neighbour(blocks[-1], True) if use_next else None
        prev = _neighbour(blocks[0], False) if nxt is None else None
        if nxt is None and prev is None:
            # The whole flow goes: its last paragraph stays, emptied, and the rest are deleted
            # into it (a flow keeps one paragraph, as in a word processor).
            last = blocks[-1]
            if len(blocks) > 1 and last.tag in _PARAS:
                self.delete_run(run[:-1], use_next=True)
            else:
                last = None
            for b in blocks if last is None else [last]:
                for p in block_paragraphs(b):
                    text = "".join(seg.text for seg in t.walk(p).segments)
                    if text:
                        replace_in_paragraph(t, p, 0, len(text), "", author, date)
            return
        chains = [_list_chain(b) for b in blocks]
        kept: list[Any] = []
        for b, _, _, move in run:
            if move:  # the copy carries the comments; ids stay with the copy
                for k in list(b.iter(_ANNOTATION, _ANNOTATION_END)):
                    detach(k)
                strip_ids(b)
            else:
                for k in _keepers(b):
                    detach(k)
                    kept.append(k)
        parents = [b.getparent() for b in blocks]
        cl = _Cloner()
        if nxt is None:
            cl.place(_list_chain(prev), shallow_copy(prev))
        for b, chain in zip(blocks, chains):
            detach(b)
            cl.place(chain, b)
        if nxt is not None:
            cl.place(_list_chain(nxt), shallow_copy(nxt))
        for parent in parents:
            _prune(parent)
        rid = t.region("deletion", author, date, cl.top)
        mk = marker(CHANGE, rid)
        if nxt is not None:
            mk.tail = nxt.text
            nxt.text = None
            nxt.insert(0, mk)
        else:
            prev.append(mk)
        for k in kept:
            insert_before(mk, k)
        t.touch()


def subtree(doc: Any, uid: str) -> set[str]:
    """The id of a unit and of all its descendants (the units a move carries)."""
    kids: dict[str | None, list[str]] = {}
    for u in doc.units:
        kids.setdefault(u.parent, []).append(u.id)
    seen, stack = {uid}, [uid]
    while stack:
        for c in kids.get(stack.pop(), ()):
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return seen


def apply_structure(w: "_Writer", edits: list[Edit]) -> None:
    """Write the ``insert_after``, ``delete`` and ``move`` edits, in their list order
    (deletions, which other edits cannot refer to, last)."""
    if not edits:
        return
    s = _Structure(w)
    for e in edits:
        if e.op == "insert_after":
            s.insert_after(e)
        elif e.op == "move":
            s.move(e)
        elif e.op == "delete":
            s.delete(e)
    s.flush_deletions()
