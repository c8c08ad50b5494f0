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

Also: a deleted table goes whole into the change table (LibreOffice imports and accepts
it); adjacent deletions of one author make one region, of different authors chained markers
in one paragraph; deleting every paragraph of a flow keeps the last one, emptied; a plain
paragraph put inside a list cuts the list in two (the second part continues the numbering);
a new list item after an item that has sub-items becomes a second paragraph of that item; a
move whose target is where the unit already is changes nothing; a unit that is all the text
of its cell, note, text box or section is not moved out.

Comments and frames of a deleted paragraph stay in the text (they move to the marker); a
paragraph that holds another author's tracked change is not deleted or moved (an
:class:`~adapters.errors.AnchorError` says so).
"""
from __future__ import annotations

import copy
from typing import Any, Protocol

from lxml import etree

from ..errors import AnchorError
from ..model import ConcreteEdit, Delete, Document, InsertAfter, Move, descendant_ids
from .revision_xml import CHANGE, CHANGE_END, CHANGE_ID, CHANGE_START, append_items, detach, insert_after, insert_before, marker
from .revision_xml import nested_copies, shallow_copy, strip_ids, text_items
from .flow import (
    HEADER,
    ITEM,
    LIST,
    PARAS,
    TABLE,
    SKIP,
    Cloner,
    elements,
    empty_like,
    first_paragraph,
    follows,
    has_change_marks,
    keepers,
    last_paragraph,
    list_chain,
    neighbour,
    prune,
    sibling,
    split_list,
)
from .textedit import replace_in_paragraph
from .tracking import Tracker
from .odfxml import prefixed, qn
from .textmap import block_paragraphs
from ..vocabulary import NOTE_KINDS

__all__ = ["apply_structure", "WriteState"]


class WriteState(Protocol):
    """What the structure edits read and keep of the write of one part: the package context, the
    document, the tracker, the elements already located for the units and the copies of moved
    ones (:class:`adapters.odt.writer._Writer` is one; a protocol, so that this module and the
    writer that calls it do not import each other)."""

    ctx: Any
    doc: Document
    t: Tracker
    moved: dict[Any, Any]
    located: dict[str, tuple[Any, list[Any]]]

    def now(self) -> str: ...

_P = qn("text:p")
_H = qn("text:h")
_ANNOTATION = qn("office:annotation")
_ANNOTATION_END = qn("office:annotation-end")
_STYLE = qn("text:style-name")
_LEVEL = qn("text:outline-level")
_TRACKED = qn("text:tracked-changes")
_SECTION = qn("text:section")
_FRAME = qn("draw:frame")
_SPACE = qn("text:s")
_MOVABLE = {_P, _H, TABLE, LIST, _SECTION}


# -- the structure edits ------------------------------------------------------------------------


class _Structure:
    def __init__(self, w: "WriteState") -> None:
        self.w = w
        self.t = w.t
        self.ctx = w.ctx
        self.placed_after: dict[str, Any] = {}
        #: (block, author, date, move) for every block deleted, written at the end
        self.deletions: list[tuple[Any, str | None, str | None, bool]] = []
        self.notes: list[tuple[Any, ConcreteEdit]] = []
        #: id(block) -> the edit that deletes or moves it (the owner of its deletion region)
        self.edit_of: dict[int, ConcreteEdit] = {}
        #: blocks that deletions and moves will take out (an insertion must not lean on them)
        self.doomed: set[Any] = set()
        #: (frame, edit) of each figure or equation deleted: it goes with its paragraph, or alone
        self.frames: list[tuple[Any, Delete]] = []
        #: frames that leave with their deleted paragraph (not kept in the text as other frames are)
        self.gone: set[Any] = set()
        #: deleted paragraphs that hold earlier changes: their text is deleted piece by piece first
        self.changed: dict[Any, Delete] = {}

    def doom(self, edits: list[InsertAfter | Delete | Move]) -> None:
        for e in edits:
            if e.op == "move":
                try:
                    self.doomed.update(self.run_of(e.unit)[0])
                except AnchorError:
                    pass  # the move itself will say why
            elif e.op == "delete" and e.unit in self.w.located:
                self.doomed.add(self.w.located[e.unit][0])

    def is_doomed(self, p: Any) -> bool:
        return p in self.doomed or any(a in self.doomed for a in p.iterancestors())

    # -- where units are --

    def element(self, uid: str) -> Any:
        el = self.w.located[uid][0]
        return self.w.moved.get(el, el)

    def last_block(self, uid: str) -> Any:
        """The block after which a unit ends: its paragraph, table, or the paragraph of a figure."""
        if uid in self.placed_after:
            return self.placed_after[uid]
        el = self.element(uid)
        if el.tag in PARAS or el.tag == TABLE:
            return el
        para = next((a for a in el.iterancestors() if a.tag in PARAS), None)
        if para is None:
            raise AnchorError(f"unit {uid} ({prefixed(el.tag)}) has no paragraph to insert after")
        return self.w.moved.get(para, para)

    def first_block(self, uid: str) -> Any:
        el = self.element(uid)
        if el.tag in PARAS or el.tag == TABLE:
            return el
        para = next((a for a in el.iterancestors() if a.tag in PARAS), None)
        if para is None:
            raise AnchorError(f"unit {uid} ({prefixed(el.tag)}) has no paragraph to move before")
        return para

    # -- insertion --

    def place(self, blocks: list[Any], wrappers: list[Any], ref: Any, after: bool) -> None:
        """Put new blocks after (before) block ``ref``, honouring lists.

        ``wrappers`` is the list wrappers (innermost first) the blocks belong in when they are
        list-item content; empty for blocks of the flow itself.
        """
        ref_item = ref.getparent() if ref.getparent() is not None and ref.getparent().tag in (ITEM, HEADER) else None
        if wrappers:
            if ref_item is not None:
                siblings_after = sibling(ref, True) is not None if after else sibling(ref, False) is not None
                if siblings_after:  # inside the item, right next to ref
                    self._put(blocks, ref, after)
                    return
                item = shallow_copy(wrappers[0]) if wrappers[0].tag in (ITEM, HEADER) else etree.Element(ITEM)
                for b in blocks:
                    item.append(b)
                self._put([item], ref_item, after)
                return
            cl = Cloner()
            for b in blocks:
                cl.place(wrappers, b)
            self._put(cl.top, ref, after)
            return
        if ref_item is not None:
            top = list_chain(ref)[-1]
            ref_para = ref
            branch = next(a for a in [ref, *ref.iterancestors()] if a.getparent() is top)
            if (last_paragraph(branch) if after else first_paragraph(branch)) is not ref:
                raise AnchorError("a paragraph cannot go inside a list item's nested list; place it after the item's last sub-item")
            ref = top
            if (last_paragraph(top) if after else first_paragraph(top)) is not ref_para:
                second = split_list(top, branch, after)
                ref = top if after else second
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
        prev = neighbour(first_block, False)
        nxt = neighbour(last_block, True)
        if prev is not None and self.is_doomed(prev):
            prev = None
        if nxt is not None and self.is_doomed(nxt):
            nxt = None
        rid = t.region("insertion", author, date)
        cs, ce = marker(CHANGE_START, rid), marker(CHANGE_END, rid)
        if prev is not None:
            last = last_paragraph(last_block)
            if last is None:  # an inserted table: an empty paragraph after it ends the insertion
                last = empty_like(prev)
                insert_after(last_block, last)
            prev.append(cs)
            last.append(ce)
        else:
            first = first_paragraph(first_block)
            if first is None:
                first = empty_like(nxt)
                insert_before(first_block, first)
            cs.tail = first.text
            first.text = None
            first.insert(0, cs)
            if nxt is not None:
                ce.tail = nxt.text
                nxt.text = None
                nxt.insert(0, ce)
            else:
                last = last_paragraph(last_block)
                if last is None:
                    last = empty_like(first)
                    insert_after(last_block, last)
                last.append(ce)
        t.touch()
        if prev is not None:
            for r in t.open_at(prev, cs):
                if t.ctx.change_kinds.get(r) in ("insertion", "format-change") and r != rid:
                    t.split_region(r, cs, ce)

    def insert_after(self, e: InsertAfter) -> None:
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
        append_items(el, text_items(e.text, True))
        chain: list[Any] = []
        if kind == "list_item":
            chain = list_chain(ref) or self._nearest_list_chain(ref)
        self.place([el], chain, ref, True)
        self.t.owners = (e,)
        self.mark_inserted([el], e.author, e.date or self.w.now())
        self.t.owners = ()
        self.placed_after[unit.id] = el

    def _nearest_list_chain(self, ref: Any) -> list[Any]:
        """List wrappers for a new list item after a paragraph that is in no list."""
        for el in ref.itersiblings(preceding=True):
            if el.tag == LIST:
                items = [c for c in el if c.tag == ITEM]
                if items:
                    return [items[-1], el]
        style = None
        for el in self.ctx.office_text.iter(LIST):
            style = el
            break
        if style is None:
            raise AnchorError("the document has no list to take a list item's style from")
        return [etree.Element(ITEM), style]

    def style_name(self, display: str | None, ref: Any) -> str | None:
        if not display:
            return ref.get(_STYLE) if ref.tag in PARAS else None
        styles = self.ctx.styles
        name = styles.find("paragraph", display)
        if name:
            return name
        if ref.tag in PARAS and styles.display_name("paragraph", ref.get(_STYLE)) == display:
            return ref.get(_STYLE)
        return None

    # -- moves --

    def run_of(self, uid: str) -> tuple[list[Any], list[Any]]:
        """The blocks a unit and its descendants occupy, and the list wrappers they sit in."""
        doc = self.w.doc
        ids = descendant_ids(doc.units, uid)
        els = [self.element(u.id) for u in doc.units
               if u.id in ids and u.kind not in NOTE_KINDS and u.id in self.w.located
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
            if blk.tag not in _MOVABLE and blk.tag not in SKIP:
                raise AnchorError(f"unit {uid} cannot be moved: it holds a {prefixed(blk.tag)}")
        blocks = [blk for blk in blocks if blk.tag in _MOVABLE]
        while container.tag == _SECTION and [c for c in elements(container) if c.tag not in SKIP] == blocks:
            blocks, container = [container], container.getparent()  # the whole text:section moves
        chain = list_chain(blocks[0]) if container.tag in (ITEM, HEADER) else []
        return blocks, chain

    def move(self, e: Move) -> None:
        blocks, chain = self.run_of(e.unit)
        if _has_changes(self.t, blocks):
            raise AnchorError(f"unit {e.unit} holds another tracked change; it cannot be moved")
        if neighbour(blocks[-1], True) is None and neighbour(blocks[0], False) is None:
            raise AnchorError(f"unit {e.unit} is all the text of its cell, note or text box; it cannot be moved out (no paragraph before or after it in its cell, note, text box or section)")
        if e.after:
            ref, after = self.last_block(e.after), True
            if follows(ref, blocks[0]):
                return  # already there
        elif e.before_unit:
            ref, after = self.first_block(e.before_unit), False
            if follows(blocks[-1], ref):
                return
        else:  # pragma: no cover - Move.validate asks for one of the two
            raise AnchorError(f"a move of {e.unit} needs after or before_unit")
        copies = [copy.deepcopy(b) for b in blocks]
        for b, c in zip(blocks, copies):
            c.tail = None
            for o, n in zip(b.iter(), c.iter()):
                if isinstance(o.tag, str):
                    self.w.moved[o] = n
        self.place(copies, chain, ref, after)
        self.t.owners = (e,)
        self.mark_inserted(copies, e.author, e.date or self.w.now())
        self.t.owners = ()
        if e.after:
            self.placed_after[e.after] = copies[-1]
        for b in blocks:
            self.edit_of[id(b)] = e
            self.deletions.append((b, e.author, e.date or self.w.now(), True))

    # -- deletion --

    def delete(self, e: Delete) -> None:
        unit = self.w.doc.unit(e.unit)
        el = self.w.located[unit.id][0]
        if unit.kind in NOTE_KINDS:
            self.notes.append((el, e))
            return
        if el.tag not in PARAS and el.tag != TABLE:
            if unit.anchor is not None and unit.anchor.get("kind") in ("figure", "equation"):
                self.frames.append((el, e))  # where it goes is decided with the other deletions
                return
            raise AnchorError(f"unit {unit.id} is a {unit.kind}: delete its paragraph or caption instead")
        if _has_changes(self.t, [el]):
            if el.tag == TABLE or not _inline_changes(self.t, el):
                raise AnchorError(f"unit {unit.id} holds another tracked change; it cannot be deleted")
            self.changed[el] = e
        self.edit_of[id(el)] = e
        self.deletions.append((el, e.author, e.date or self.w.now(), False))

    def _place_frames(self) -> None:
        """Where each deleted figure or equation goes: with its paragraph when that is deleted,
        or when the paragraph holds nothing else (no text, no other frame: the paragraph goes
        whole, as in Word and LibreOffice); else alone, as a deletion of its anchor character."""
        deleted = {d[0] for d in self.deletions if not d[3]}
        going = {f for f, _ in self.frames}
        for frame, e in self.frames:
            holder = next((a for a in frame.iterancestors() if a.tag in PARAS), None)
            if holder is None:
                raise AnchorError(f"unit {e.unit} has no paragraph to delete it from")
            if holder in deleted or any(a in deleted for a in holder.iterancestors()):
                self.gone.add(frame)
                continue
            frames = [d for d in holder.iterdescendants() if d.tag == _FRAME
                      and not any(a.tag == _FRAME for a in d.iterancestors() if a is not holder)]
            text = "".join(seg.text for seg in self.t.walk(holder).segments)
            if not text.strip() and all(f in going for f in frames):
                if _has_changes(self.t, [holder]):
                    raise AnchorError(f"unit {e.unit} sits in a paragraph that holds another tracked change")
                self.gone.update(frames)
                deleted.add(holder)
                self.edit_of[id(holder)] = e
                self.deletions.append((holder, e.author, e.date or self.w.now(), False))
            elif frame not in self.gone:
                self.t.owners = (e,)
                _delete_frame(self.t, holder, frame, e.author, e.date or self.w.now())
                self.t.owners = ()

    def _empty_changed(self) -> None:
        """Delete the text of each deleted paragraph that holds earlier changes, piece by piece
        as LibreOffice does (:func:`replace_in_paragraph`: another author's deletion stays, an
        insertion is deleted in the stacked form); the paragraph keeps only the change marks,
        which :meth:`delete_run` sets at the deletion point in their order."""
        for p, e in self.changed.items():
            text = "".join(seg.text for seg in self.t.walk(p).segments)
            if text:
                self.t.owners = (e,)
                replace_in_paragraph(self.t, p, 0, len(text), "", e.author, e.date or self.w.now())
                self.t.owners = ()
            if any(True for _ in p.iter(CHANGE_START, CHANGE_END)):  # pragma: no cover - a writer bug
                raise AnchorError(f"unit {e.unit}: a change range is left in its emptied paragraph")

    def _split(self, run: list[tuple[Any, str | None, str | None, bool]], use_next: bool) -> list[tuple[list, Any]]:
        """A run cut at its paragraphs that hold earlier changes, each with the paragraph its
        region ends on (``use_next``) or starts from: the text of a changed paragraph comes back
        between two regions, so a changed paragraph opens a region (its marks go before it) or,
        with the marker closing the paragraph before, ends one (its marks go after it)."""
        out: list[list] = []
        for item in run:
            changed = item[0] in self.changed
            if not out or (changed and use_next) or (not use_next and out[-1][-1][0] in self.changed):
                out.append([item])
            else:
                out[-1].append(item)
        like: list[Any] = []
        for k, sub in enumerate(out):
            if use_next:
                n = out[k + 1][0][0] if k + 1 < len(out) else None
            else:
                n = out[k - 1][-1][0] if k > 0 else None
            like.append((list_chain(n), n) if n is not None else None)
        return list(zip(out, like))

    def flush_deletions(self) -> None:
        """Write the deletions; blocks of one author that follow each other in a flow make one
        region (with the date of the first)."""
        self._place_frames()
        self._empty_changed()
        order = {el: i for i, el in enumerate(self.ctx.office_text.iter())}
        clusters: list[list[list[tuple[Any, str | None, str | None, bool]]]] = []
        for item in sorted(self.deletions, key=lambda d: order.get(d[0], -1)):
            if clusters and follows(clusters[-1][-1][-1][0], item[0]):
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
            forward = neighbour(runs[-1][-1][0], True) is None
            subs = [sub for run in runs for sub in self._split(run, use_next=not forward)]
            for sub, like in subs if forward else reversed(subs):
                self.delete_run(sub, use_next=not forward, like=like)
        for note, e in self.notes:
            para = next((a for a in note.iterancestors() if a.tag in PARAS), None)
            if para is None or any(a.tag == _TRACKED for a in note.iterancestors()):
                continue  # gone with its paragraph
            w = self.t.walk(para)
            ev = next((ev for ev in w.events if ev.kind == "note" and ev.node is note), None)
            if ev is None:
                continue
            end = ev.start + sum(len(seg.text) for seg in w.segments if seg.field is note)
            self.t.owners = (e,)
            replace_in_paragraph(self.t, para, ev.start, end, "", e.author, e.date or self.w.now())
            self.t.owners = ()

    def delete_run(self, run: list[tuple[Any, str | None, str | None, bool]], use_next: bool,
                   like: tuple[list[Any], Any] | None = None) -> None:
        """Delete adjacent blocks as one region: the marker opens the paragraph after them
        (``use_next``) or closes the one before them. The region's empty paragraph at that end
        copies the paragraph there, or ``like`` (a list chain and a paragraph: the changed
        paragraph whose text comes back beside this region)."""
        t = self.t
        blocks = [item[0] for item in run]
        _, author, date, _ = run[0]
        owners: list[ConcreteEdit] = []
        for b in blocks:
            e = self.edit_of.get(id(b))
            if e is not None and not any(o is e for o in owners):
                owners.append(e)
        t.owners = tuple(owners)
        nxt = neighbour(blocks[-1], True) if use_next else None
        prev = neighbour(blocks[0], False) if nxt is None else None
        if nxt is None and prev is None:
            # The whole flow goes: its last paragraph stays, emptied, and the rest are deleted
            # into it (a flow keeps one paragraph, as in a word processor).
            last = blocks[-1]
            if len(blocks) > 1 and last.tag in PARAS:
                self.delete_run(run[:-1], use_next=True)
                t.owners = tuple(owners)
            else:
                last = None
            for b in blocks if last is None else [last]:
                for p in block_paragraphs(b):
                    text = "".join(seg.text for seg in t.walk(p).segments)
                    if text:
                        replace_in_paragraph(t, p, 0, len(text), "", author, date)
                    for frame in [f for f in p.iter(_FRAME) if f in self.gone]:
                        _delete_frame(t, p, frame, author, date)  # a deleted figure of the kept paragraph
            t.owners = ()
            return
        chains = [list_chain(b) for b in blocks]
        kept: list[Any] = []
        marks: list[Any] = []  # the change marks of emptied changed paragraphs, in their order
        for b, _, _, move in run:
            if move:  # the copy carries the comments; ids stay with the copy
                for k in list(b.iter(_ANNOTATION, _ANNOTATION_END)):
                    detach(k)
                strip_ids(b)
            else:
                for k in keepers(b):
                    if k not in self.gone and not any(a in self.gone for a in k.iterancestors()):
                        detach(k)
                        kept.append(k)
                for k in list(b.iter(CHANGE)) if b in self.changed else ():
                    detach(k)
                    marks.append(k)
        parents = [b.getparent() for b in blocks]
        cl = Cloner()
        if nxt is None:
            chain, end = like if like is not None else (list_chain(prev), prev)
            cl.place(chain, shallow_copy(end))
        for b, chain in zip(blocks, chains):
            detach(b)
            cl.place(chain, b)
        if nxt is not None:
            chain, end = like if like is not None else (list_chain(nxt), nxt)
            cl.place(chain, shallow_copy(end))
        for parent in parents:
            prune(parent)
        rid = t.region("deletion", author, date, cl.top)
        mk = marker(CHANGE, rid)
        if nxt is not None:
            mk.tail = nxt.text
            nxt.text = None
            nxt.insert(0, mk)
        elif prev is not None:  # (neither: the whole flow went, above)
            prev.append(mk)
        for k in kept:
            insert_before(mk, k)
        for k in marks if nxt is not None else reversed(marks):
            # the changed paragraph's text comes back before this region, or after it
            (insert_before if nxt is not None else insert_after)(mk, k)
        t.owners = ()
        t.touch()


def _inline_changes(t: Any, p: Any) -> bool:
    """Whether a paragraph's changes all lie inside it: no region open at its start, every
    change range that starts in it ends in it (a renamed word, not an inserted paragraph)."""
    if t.open_at_start(p):
        return False
    starts = {m.get(CHANGE_ID) for m in p.iter(CHANGE_START)}
    ends = {m.get(CHANGE_ID) for m in p.iter(CHANGE_END)}
    return starts == ends


def _delete_frame(t: Any, p: Any, frame: Any, author: str | None, date: str | None) -> None:
    """A frame deleted alone from a paragraph that stays: a deletion of its anchor, the frame
    (in the spans around it) in the region's paragraph, as LibreOffice keeps deleted objects.

    An anchored frame is a character to LibreOffice: between two spaces it keeps both shown.
    With the frame gone from the text the space after it would collapse into the one before
    (Reject All would give one space less), so the deletion takes the space before it (as a
    ``text:s``, which a deleted paragraph's start keeps), as deleting a word takes one of the
    spaces around it; the text keeps one space."""
    walked = t.walk(p)
    at = next((ev.start for ev in walked.events if ev.kind == "frame" and ev.node is frame), None)
    shown = "".join(seg.text for seg in walked.segments)
    before = _text_before(frame)
    space = at is not None and at > 0 and shown[at - 1] == " " and (frame.tail or "").startswith(" ")
    if space and before is not None:
        setattr(before[0], before[1], getattr(before[0], before[1])[:-1] or None)
    else:
        space = False
    wrap = []
    node = frame.getparent()
    while node is not p:
        wrap.append(node)
        node = node.getparent()
    rp, inner = nested_copies(p, wrap)
    rid = t.region("deletion", author, date, [rp])
    insert_before(frame, marker(CHANGE, rid))
    detach(frame)
    if space:
        inner.append(etree.Element(_SPACE))
    inner.append(frame)
    t.touch()


def _text_before(el: Any) -> tuple[Any, str] | None:
    """Where the literal text right before ``el`` is (its previous sibling's tail, or its parent's
    text), when it ends with a space."""
    prev = el.getprevious()
    node, slot = (prev, "tail") if prev is not None else (el.getparent(), "text")
    return (node, slot) if (getattr(node, slot) or "").endswith(" ") else None


def _has_changes(t: Any, blocks: list[Any]) -> bool:
    """Whether blocks hold a change marker or start inside a change region."""
    return has_change_marks(blocks) or any(t.open_at_start(p) for b in blocks for p in block_paragraphs(b))


def apply_structure(w: "WriteState", edits: list[InsertAfter | Delete | Move]) -> None:
    """Write the ``insert_after``, ``delete`` and ``move`` edits, in their list order
    (deletions, which other edits cannot refer to, last)."""
    if not edits:
        return
    s = _Structure(w)
    s.doom(edits)
    for e in edits:
        if e.op == "insert_after":
            s.insert_after(e)
        elif e.op == "move":
            s.move(e)
        elif e.op == "delete":
            s.delete(e)
    s.flush_deletions()
