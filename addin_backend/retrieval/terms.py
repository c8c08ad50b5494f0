"""Defined terms an instruction names: their defining units are context (or the target itself).

"Rename 'net load' to 'residual demand'" is about the unit that defines net load; "Insert a
paragraph on SLA penalties" needs the unit that expands SLA. The registry of definitions is
computed once per graph and kept on it.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from adapters.model import Document

from ..graph.definitions import definition_registry, registry_key, usage_pattern

__all__ = ["TermHit", "terms_in"]

_KEY = "_definition_registry"


@dataclass(frozen=True)
class TermHit:
    term: str
    unit: str  # the (first) defining unit
    span: str  # the defining phrase
    case_sensitive: bool = False

    def inside(self, other: "TermHit") -> bool:
        """Whether this term is part of ``other`` ("service level" in "service level agreement")."""
        if self.case_sensitive or other.case_sensitive:
            return self.term in other.term
        return self.term.lower() in other.term.lower()


def _registry(doc: Document, G: nx.MultiDiGraph | None) -> dict:
    if G is not None:
        reg = G.graph.get(_KEY)
        key = registry_key(doc.units)  # the content, not the length: an edit keeps the count
        if reg is None or reg[0] != key:
            reg = (key, definition_registry(doc.units))
            G.graph[_KEY] = reg
        return reg[1]
    return definition_registry(doc.units)


def terms_in(doc: Document, G: nx.MultiDiGraph | None, text: str) -> list[TermHit]:
    """Terms defined in ``doc`` that ``text`` uses, longest first, each with its defining unit.

    >>> from adapters.model import Unit
    >>> d = Document("docx", [Unit("a", "paragraph", "We define net load as demand minus generation.", 0)])
    >>> [(h.term, h.unit) for h in terms_in(d, None, "Rename 'net load' to 'residual demand'")]
    [('net load', 'a')]

    Symbols keep their case: the Θ defined in one unit is not the θ of another.
    """
    hits: list[TermHit] = []
    for entries in _registry(doc, G).values():
        _order, uid, d = entries[0]
        if usage_pattern(d.term, d.kind, d.case_sensitive).search(text):
            hits.append(TermHit(d.term, uid, d.span, d.case_sensitive))
    hits.sort(key=lambda h: -len(h.term))
    # "service level" inside "service level agreement": keep the longest term only
    out: list[TermHit] = []
    for h in hits:
        if not any(h.inside(o) for o in out):
            out.append(h)
    return out
