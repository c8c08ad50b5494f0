"""Edge types, the edge attribute schema and the one function that adds (or merges) an edge.

Every edge is keyed by its type (at most one edge per type per ordered pair) and carries:

- ``type``: CONTAINS (container -> unit), REFERENCES (citing -> cited), DEPENDS (dependent ->
  prerequisite) or RELATED (both directions);
- ``evidence``: the minimal span ("Figure 3", "Sections 2-4") for REFERENCES; ``"used -> defining
  span"`` or ``"anaphor -> antecedent"`` for DEPENDS; a reason for CONTAINS ("structure",
  "heading level", "note reference 3") and RELATED ("similar summaries (cosine 0.62)");
- ``score``: confidence in [0, 1] (fields and exact mentions 1.0, bare clause numbers 0.9,
  ambiguous labels 0.8; definitions 0.9-0.95, notation 0.8, anaphora 0.8 by head noun, 0.7 for
  "this table", 0.5-0.6 by fallback; RELATED: the cosine);
- ``origin`` (optional): field, text, bare, definition, acronym, notation, anaphora, embedding;
- ``start``/``end`` (optional): offsets of the evidence in the source unit's text.
- ``quoted`` (optional, DEPENDS): the use is an exact use of a term quoted in a defining
  statement, which the document asks its reader to read as defined.
"""
from __future__ import annotations

from typing import Any, Iterable

import networkx as nx

from adapters.vocabulary import EDGE_TYPES

__all__ = [
    "CONTAINS",
    "REFERENCES",
    "DEPENDS",
    "RELATED",
    "EDGE_TYPES",
    "DOCUMENT_ID",
    "add_edge",
    "edges_of_type",
    "remove_out_edges",
]

#: The edge types, in retrieval priority order (the paper's REF > DEP > REL, with the hierarchy
#: first), as :mod:`adapters.vocabulary` spells them for every layer and the task pane.
CONTAINS, REFERENCES, DEPENDS, RELATED = EDGE_TYPES

#: The id of the root node that stands for the whole document.
DOCUMENT_ID = "document"


def _rank(attrs: dict[str, Any]) -> tuple:
    """A total order on candidate edges for one (source, target, type): best first."""
    return (-float(attrs.get("score", 0.0)), int(attrs.get("start", -1)), str(attrs.get("evidence", "")))


def add_edge(
    G: nx.MultiDiGraph,
    source: str,
    target: str,
    type: str,
    evidence: str,
    score: float = 1.0,
    **extra: Any,
) -> bool:
    """Add one typed edge, keyed by its type, so a pair holds at most one edge of each type.

    When the pair already has an edge of this type the better one is kept (higher score, then
    earlier span, then evidence text): the result does not depend on the order in which
    detectors run, which is what lets an incremental update equal a full rebuild.
    Self-loops are ignored. Returns whether the graph changed.

    >>> G = nx.MultiDiGraph(); G.add_nodes_from(["a", "b"])
    >>> add_edge(G, "a", "b", REFERENCES, "Figure 3", 1.0, start=10)
    True
    >>> add_edge(G, "a", "b", REFERENCES, "Fig. 3", 1.0, start=40)
    False
    >>> G.edges["a", "b", REFERENCES]["evidence"]
    'Figure 3'
    """
    if source == target:
        return False
    attrs = {"type": type, "evidence": evidence, "score": round(float(score), 4)}
    attrs.update({k: v for k, v in extra.items() if v is not None})
    if G.has_edge(source, target, key=type):
        old = G.edges[source, target, type]
        if _rank(old) <= _rank(attrs):
            return False
        old.clear()
        old.update(attrs)
        return True
    G.add_edge(source, target, key=type, **attrs)
    return True


def edges_of_type(G: nx.MultiDiGraph, type: str) -> Iterable[tuple[str, str, dict[str, Any]]]:
    """``(source, target, attrs)`` of every edge of one type."""
    return ((u, v, d) for u, v, k, d in G.edges(keys=True, data=True) if k == type)


def remove_out_edges(G: nx.MultiDiGraph, sources: Iterable[str], type: str, *, both: bool = False) -> None:
    """Drop the edges of one type that leave ``sources`` (and enter them, with ``both``)."""
    doomed: list[tuple[str, str]] = []
    for s in sources:
        if s not in G:
            continue
        doomed.extend((s, v) for _, v, k in G.out_edges(s, keys=True) if k == type)
        if both:
            doomed.extend((u, s) for u, _, k in G.in_edges(s, keys=True) if k == type)
    for u, v in doomed:
        if G.has_edge(u, v, key=type):
            G.remove_edge(u, v, key=type)
