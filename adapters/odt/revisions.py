"""The tracked changes found in a document, as ``Document.revisions``.

:class:`ChangeLog` is fed paragraph by paragraph while units are made: it notes the unit
where each change sits and the text each insertion holds (paragraph breaks included), then
lists every region of the tracked-changes table with the kind names of the neutral model.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model import Revision, Unit
from .odfxml import qn
from .textmap import deleted_segments

if TYPE_CHECKING:  # pragma: no cover
    from .body import Paragraph
    from .context import OdtContext

__all__ = ["ChangeLog"]

_PARAGRAPHS = (qn("text:p"), qn("text:h"))


class ChangeLog:
    """Where the changes of a document sit and what they hold."""

    def __init__(self, ctx: "OdtContext") -> None:
        self.ctx = ctx
        self.units: dict[str, Unit] = {}
        self.inserted: dict[str, list[str]] = {}
        self.paragraph_insertions: set[str] = set()

    def at(self, change_id: str | None, unit: Unit | None) -> None:
        """Record the unit of a change (the first one seen wins)."""
        if change_id and unit is not None and change_id not in self.units:
            self.units[change_id] = unit

    def paragraph(self, p: "Paragraph", unit: Unit | None) -> None:
        """Note the change marks and inserted text of one paragraph held by ``unit``."""
        if not self.ctx.changes:
            return
        for ev in p.events:
            if ev.kind in ("change", "change-start"):
                self.at(ev.name, unit)
        kinds = self.ctx.change_kinds
        for cid in p.open_at_start:
            if kinds.get(cid) == "insertion":
                self.inserted.setdefault(cid, []).append("\n")
                self.paragraph_insertions.add(cid)
        for seg in p.segments:
            if seg.change_kind == "insertion" and seg.change is not None:
                self.inserted.setdefault(seg.change, []).append(seg.text)

    def revisions(self) -> list[Revision]:
        """One :class:`~adapters.model.Revision` per changed region, in table order."""
        out: list[Revision] = []
        for cid, region in self.ctx.changes.items():
            unit = self.units.get(cid)
            if region.kind == "insertion":
                text = "".join(self.inserted.get(cid, []))
                kind = "paragraph_insertion" if cid in self.paragraph_insertions else "insertion"
            elif region.kind == "deletion":
                segs = deleted_segments(self.ctx, cid)
                text = "".join(s.text for s in segs)
                kind = "paragraph_deletion" if any(_is_break(s) for s in segs) else "deletion"
            else:
                text = ""
                kind = "format_change"
            out.append(Revision(cid, kind, region.author, region.date, text, unit.id if unit else None))
        return out


def _is_break(seg: Any) -> bool:
    return seg.slot == "self" and seg.text == "\n" and seg.node.tag in _PARAGRAPHS
