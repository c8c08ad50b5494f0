"""Defined terms an instruction names: their defining units are context (or the target itself).

"Rename 'net load' to 'residual demand'" is about the unit that defines net load; "Insert a
paragraph on SLA penalties" needs the unit that expands SLA. What this reads of the registry of
definitions (each term's first definition: :func:`term_index`) is computed once per graph and
kept on it as JSON, so the command line keeps it with a file's graph and a second ``ledger
context`` does not build the registry again.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Sequence

import networkx as nx

from adapters.model import Document, Unit

from ..graph.definitions import definition_registry, usage_pattern

__all__ = ["TermHit", "terms_in", "term_index", "TERM_INDEX"]

#: Where :func:`term_index` keeps its answer on a graph: ``{"key": content digest, "terms": [...]}``.
TERM_INDEX = "_term_index"


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


def _digest(units: Sequence[Unit]) -> str:
    """A digest of what the registry reads of the units (as ``definitions._content``), stable
    across processes (``hash`` of a string is not), so a kept index can be checked."""
    h = hashlib.sha256()
    for u in units:
        h.update(json.dumps([u.id, u.kind, u.style, u.parent, u.title, u.text, len(u.meta.get("cells") or ()),
                             u.order, u.meta.get("lang")], ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def term_index(doc: Document, G: nx.MultiDiGraph | None) -> list[list[Any]]:
    """``[term, kind, case_sensitive, unit, span]`` of each defined term's first definition, in
    the registry's order: all :func:`terms_in` reads of the registry. Kept on ``G`` (JSON, under
    :data:`TERM_INDEX`) for the document's content: the registry is built only when none is kept."""
    key = _digest(doc.units) if G is not None else None
    if G is not None:
        kept = G.graph.get(TERM_INDEX)
        if isinstance(kept, dict) and kept.get("key") == key:
            return kept["terms"]
    terms = [[d.term, d.kind, bool(d.case_sensitive), uid, d.span]
             for entries in definition_registry(doc.units).values() for _order, uid, d in entries[:1]]
    if G is not None:
        G.graph[TERM_INDEX] = {"key": key, "terms": terms}
    return terms


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
