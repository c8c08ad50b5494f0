"""One writing session over a parsed content.xml: the change table, fresh ids, walks.

:class:`Tracker` wraps the reader's :class:`~adapters.odt.context.OdtContext` of the package
being written. It adds regions to ``text:tracked-changes`` and registers them in the context
(so that :func:`adapters.odt.textmap.paragraph_segments` tags the new changes like the
reader would), finds and retargets change markers, splits another author's region around a
new change, and walks paragraphs with the reader's own walk.
"""
from __future__ import annotations

import copy
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator

from lxml import etree

from .changes import ChangedRegion
from .context import open_changes
from .revision_xml import (
    CHANGE_END,
    CHANGE_ID,
    CHANGE_START,
    ChangeIds,
    detach,
    insert_after,
    insert_before,
    make_region,
    marker,
    tracked_changes,
)
from .odfxml import XML_ID, qn
from .textmap import InlineWalker, walk_paragraph

if TYPE_CHECKING:  # pragma: no cover
    from .context import OdtContext

__all__ = ["Tracker"]

_TEXT_ID = qn("text:id")
_INFO = qn("office:change-info")


class Tracker:
    """The mutable state of one write: the context, the change table and fresh ids."""

    def __init__(self, ctx: "OdtContext") -> None:
        self.ctx = ctx
        self.office_text = ctx.office_text
        self.ids = ChangeIds(ctx.content)
        self._dirty = False
        self._tracked: etree._Element | None = None
        self._local: etree._Element | None = None  # the paragraph :meth:`local` edits
        #: the edits the regions made now belong to (set by the writer around each edit)
        self.owners: tuple[Any, ...] = ()
        #: id(edit) -> ids of the regions it made (where a comment on the edit is anchored)
        self.owned: dict[int, list[str]] = {}

    # -- regions ------------------------------------------------------------------------------

    @property
    def tracked(self) -> etree._Element:
        if self._tracked is None or self._tracked.getparent() is not self.office_text:
            self._tracked = tracked_changes(self.office_text)
        return self._tracked

    def region(
        self,
        kind: str,
        author: str | None,
        date: str | None,
        content: list[etree._Element] | tuple = (),
        inserted_info: etree._Element | None = None,
    ) -> str:
        """Add a changed region and register it in the context; return its id."""
        rid = self.ids.new()
        for owner in self.owners:
            self.owned.setdefault(id(owner), []).append(rid)
        el = make_region(self.tracked, rid, kind, author, date, content, inserted_info)
        self._register(rid, kind, author, date, el, tuple(content), inserted_info is not None and kind == "deletion")
        return rid

    def _register(self, rid, kind, author, date, el, content, inserted) -> None:
        self.ctx.changes[rid] = ChangedRegion(rid, kind, author, date, el, content, inserted)
        self.ctx.change_kinds[rid] = kind
        self._dirty = True

    def clone_region(self, rid: str) -> str:
        """A copy of region ``rid`` (same change, author, date) under a fresh id, right after it."""
        old = self.ctx.changes[rid]
        new_id = self.ids.new()
        el = copy.deepcopy(old.element)
        el.tail = None
        el.set(XML_ID, new_id)
        el.set(_TEXT_ID, new_id)
        old.element.addnext(el)
        el.tail = None
        self._register(new_id, old.kind, old.author, old.date, el, old.content, old.inserted)
        return new_id

    def info(self, rid: str) -> etree._Element | None:
        """The ``office:change-info`` of region ``rid``."""
        region = self.ctx.changes.get(rid)
        if region is None:
            return None
        for change in region.element:
            for child in change:
                if child.tag == _INFO:
                    return child
        return None

    def drop_region(self, rid: str) -> None:
        region = self.ctx.changes.pop(rid, None)
        self.ctx.change_kinds.pop(rid, None)
        if region is not None and region.element.getparent() is not None:
            region.element.getparent().remove(region.element)
        self._dirty = True

    def sort_regions(self) -> None:
        """Order the change table by where each change starts in the text, as LibreOffice
        writes it (regions without a marker keep their place at the end)."""
        tracked = self.office_text.find(qn("text:tracked-changes"))
        if tracked is None:
            return
        first: dict[str, int] = {}
        for i, el in enumerate(self.office_text.iter(CHANGE_START, qn("text:change"))):
            first.setdefault(el.get(CHANGE_ID, ""), i)
        regions = [r for r in tracked if isinstance(r.tag, str)]
        order = sorted(range(len(regions)), key=lambda k: (first.get(regions[k].get(_TEXT_ID) or regions[k].get(XML_ID) or "", 1 << 62), k))
        if order == list(range(len(regions))):
            return
        tail = regions[-1].tail
        for r in regions:
            tracked.remove(r)
        for k in order:
            regions[k].tail = None
            tracked.append(regions[k])
        tracked[-1].tail = tail

    # -- markers ------------------------------------------------------------------------------

    def find_marker(self, tag: str, rid: str) -> etree._Element | None:
        for el in self.office_text.iter(tag):
            if el.get(CHANGE_ID) == rid:
                return el
        return None

    def split_region(self, rid: str, first: etree._Element, last: etree._Element) -> None:
        """Close region ``rid`` before ``first`` and reopen it (as a copy) after ``last``.

        LibreOffice never nests changes: a new change inside another author's insertion
        splits it in two. Halves left empty are dropped.
        """
        old_end = self.find_marker(CHANGE_END, rid)
        r2 = self.clone_region(rid)
        insert_before(first, marker(CHANGE_END, rid))
        insert_after(last, marker(CHANGE_START, r2))
        if old_end is not None:
            old_end.set(CHANGE_ID, r2)
        self._dirty = True
        self.drop_if_empty(rid)
        self.drop_if_empty(r2)

    def drop_if_empty(self, rid: str) -> None:
        """Remove a region whose start and end markers are adjacent (it holds nothing)."""
        start = self.find_marker(CHANGE_START, rid)
        end = self.find_marker(CHANGE_END, rid)
        if start is None or end is None:
            return
        if start.getnext() is end and not start.tail:
            detach(start)
            detach(end)
            self.drop_region(rid)

    # -- walking ------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Recompute which paragraphs start inside a change (after markers moved)."""
        if not self._dirty:
            return
        self.ctx.open_changes.clear()
        self.ctx.open_changes.update(open_changes(self.office_text, self.ctx.change_kinds))
        self._dirty = False

    def _after(self, p: etree._Element) -> tuple[str, ...]:
        """The regions open after paragraph ``p``: those open at its start, through its markers."""
        open_ = list(self.ctx.open_changes.get(p, ()))
        for el in p.iter(CHANGE_START, CHANGE_END):
            cid = el.get(CHANGE_ID, "")
            if el.tag == CHANGE_START and cid not in open_:
                open_.append(cid)
            elif el.tag == CHANGE_END and cid in open_:
                open_.remove(cid)
        return tuple(open_)

    @contextmanager
    def local(self, p: etree._Element) -> Iterator[None]:
        """Changes made inside paragraph ``p`` only. What is open at ``p``'s start does not change
        meanwhile; when the regions open after it are the same afterwards, no other paragraph starts
        inside another region either, and the open regions are not computed again over the whole
        text (a renumbering makes a thousand such edits)."""
        self.refresh()
        before = self._after(p)
        self._local = p
        try:
            yield
        finally:
            self._local = None
        if self._dirty and self._after(p) == before:
            self._dirty = False

    def touch(self) -> None:
        """Say that markers or paragraphs moved (the next walk recomputes open changes)."""
        self._dirty = True

    def open_at_start(self, p: etree._Element) -> list[str]:
        if p is not self._local:  # markers inside a paragraph never change what is open at its start
            self.refresh()
        return list(self.ctx.open_changes.get(p, ()))

    def walk(self, p: etree._Element, record: bool = False) -> InlineWalker:
        """The reader's walk of paragraph ``p`` as it stands now."""
        return walk_paragraph(p, self.ctx, self.open_at_start(p), record)

    def open_at(self, p: etree._Element, spot: Any) -> list[str]:
        """Ids of the regions open at element ``spot`` inside paragraph ``p``."""
        open_ = self.open_at_start(p)
        for el in p.iter(CHANGE_START, CHANGE_END, spot.tag):
            if el is spot:
                break
            cid = el.get(CHANGE_ID, "")
            if el.tag == CHANGE_START:
                if cid not in open_:
                    open_.append(cid)
            elif el.tag == CHANGE_END and cid in open_:
                open_.remove(cid)
        return open_
