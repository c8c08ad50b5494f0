"""Defined terms an instruction names: their defining units are context (or the target itself).

"Rename 'net load' to 'residual demand'" is about the unit that defines net load; "Insert a
paragraph on SLA penalties" needs the unit that expands SLA. What this reads of the registry of
definitions (each term's first definition: :func:`term_index`) is kept on the graph when the
graph is built (:mod:`addin_backend.graph.term_index`), so a graph kept by the command line or
the store answers it without building the registry again.
"""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from adapters.model import Document

from ..graph.definitions import usage_pattern
from ..graph.term_index import TERM_INDEX, term_index

__all__ = ["TermHit", "terms_in", "term_index", "TERM_INDEX"]


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


def terms_in(doc: Document, G: nx.MultiDiGraph | None, text: str) -> list[TermHit]:
    """Terms defined in ``doc`` that ``text`` uses, longest first, each with its defining unit.

    >>> from adapters.model import Unit
    >>> d = Document("docx", [Unit("a", "paragraph", "We define net load as demand minus generation.", 0)])
    >>> [(h.term, h.unit) for h in terms_in(d, None, "Rename 'net load' to 'residual demand'")]
    [('net load', 'a')]

    Symbols keep their case: the Θ defined in one unit is not the θ of another.
    """
    hits: list[TermHit] = []
    for term, kind, case_sensitive, uid, span in term_index(doc, G):
        if usage_pattern(term, kind, case_sensitive).search(text):
            hits.append(TermHit(term, uid, span, case_sensitive))
    hits.sort(key=lambda h: -len(h.term))
    # "service level" inside "service level agreement": keep the longest term only
    out: list[TermHit] = []
    for h in hits:
        if not any(h.inside(o) for o in out):
            out.append(h)
    return out
