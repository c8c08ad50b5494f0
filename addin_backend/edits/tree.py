"""Walking the unit tree of a Document: subtrees, enclosing sections, levels, neighbours."""
from __future__ import annotations

from adapters.model import Document, Unit, descendant_ids

from ..outline import level
from adapters.vocabulary import OUTSIDE_FLOW_KINDS

__all__ = [
    "body_units",
    "enclosing_section",
    "is_note",
    "section_level",
    "subtree",
]

def is_note(unit: Unit) -> bool:
    """Whether a unit lives outside the main flow: a note, a page header or footer."""
    return unit.kind in OUTSIDE_FLOW_KINDS


def body_units(doc: Document) -> list[Unit]:
    """The units of the main flow in document order (notes, headers, footers live in other parts)."""
    return [u for u in doc.units if not is_note(u)]


def subtree(doc: Document, unit_id: str) -> list[Unit]:
    """A unit and its descendants, in document order."""
    ids = descendant_ids(doc.units, unit_id)
    return [u for u in doc.units if u.id in ids]


def section_level(unit: Unit) -> int:
    """A section's depth (:func:`addin_backend.outline.level`: its level, else its heading
    style's, else the depth of its number, else 1)."""
    return level(unit)


def enclosing_section(doc: Document, unit: Unit) -> Unit | None:
    """The nearest section that is the unit or one of its ancestors."""
    seen: set[str] = set()
    cur: Unit | None = unit
    while cur is not None and cur.id not in seen:
        if cur.kind == "section":
            return cur
        seen.add(cur.id)
        cur = doc.get(cur.parent) if cur.parent else None
    return None
