"""Expansion: from the target units through typed edges to everything the edit depends on.

Upstream is what a target needs (its outgoing REFERENCES and DEPENDS edges), downstream is
what needs the target (incoming ones: the units an edit may break). The containing sections
come through CONTAINS, neighbours through RELATED. A candidate's priority is the weight of
the edge type that reached it, decayed by hops; the best path wins.
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:  # (a kept graph is read without networkx: graph.stored)
    import networkx as nx

from adapters.model import Document, Unit

from .result import Weights
from adapters.vocabulary import OUTSIDE_FLOW_KINDS

__all__ = ["Candidate", "expand", "scope_of"]

_HARD = ("REFERENCES", "DEPENDS")


@dataclass
class Candidate:
    id: str
    edge: str
    hops: int
    priority: float
    direction: str
    reason: str
    #: Offsets, in this unit's text, of the span that ties it to the target (downstream edges).
    span: tuple[int, int] | None = None
    #: Background (siblings, RELATED): fills only what the dependencies leave of the budget.
    background: bool = False


def scope_of(doc: Document, targets: Iterable[str]) -> set[str]:
    """The targets and, for sections, tables and figures, everything they contain.

    Moving or deleting Section 4 breaks references to 4.2 and to Figure 5 inside it too.
    """
    children: dict[str | None, list[str]] = {}
    for u in doc.units:
        children.setdefault(u.parent, []).append(u.id)
    out: set[str] = set()
    stack = list(targets)
    while stack:
        uid = stack.pop()
        if uid in out:
            continue
        out.add(uid)
        stack.extend(children.get(uid, ()))
    return out


def _edges_out(G: nx.MultiDiGraph, node: str):
    if node in G:
        for _, v, data in G.out_edges(node, data=True):
            yield v, data


def _edges_in(G: nx.MultiDiGraph, node: str):
    if node in G:
        for u, _, data in G.in_edges(node, data=True):
            yield u, data


def _span(data: dict) -> tuple[int, int] | None:
    start, end = data.get("start"), data.get("end")
    return (start, end) if isinstance(start, int) and isinstance(end, int) else None


def _evidence(data: dict) -> str:
    ev = data.get("evidence") or ""
    return ev if len(ev) <= 80 else ev[:77] + "..."


def _siblings_by_distance(doc: Document, unit: Unit) -> list[tuple[int, Unit]]:
    """The other units under ``unit``'s parent with their distance from it, nearest first."""
    siblings = [u for u in doc.children(unit.parent) if u.kind not in OUTSIDE_FLOW_KINDS]
    pos = next((i for i, u in enumerate(siblings) if u.id == unit.id), None)
    if pos is None:
        return []
    out = [(abs(i - pos), u) for i, u in enumerate(siblings) if i != pos]
    return sorted(out, key=lambda x: (x[0], x[1].order))


def _document_neighbours(doc: Document, unit: Unit, exclude: set[str], reach: int = 40) -> list[tuple[int, Unit]]:
    """Body units within ``reach`` positions of ``unit`` in document order, nearest first."""
    body = [u for u in doc.units if u.kind not in OUTSIDE_FLOW_KINDS]
    pos = next((i for i, u in enumerate(body) if u.id == unit.id), None)
    if pos is None:
        return []
    near = [(abs(i - pos), u) for i, u in enumerate(body[max(0, pos - reach): pos + reach + 1], max(0, pos - reach))
            if u.id not in exclude and i != pos]
    return sorted(near, key=lambda x: (x[0], x[1].order))


def expand(
    G: nx.MultiDiGraph,
    doc: Document,
    targets: list[str],
    weights: Weights = Weights(),
    prerequisites: Iterable[tuple[str, str]] = (),
) -> list[Candidate]:
    """Every unit reachable from the targets within ``weights.max_hops``, best priority first.

    Directions are kept along a path: past the first hop, downstream stays downstream
    (dependents of dependents) and upstream stays upstream (prerequisites of prerequisites).
    """
    scope = scope_of(doc, targets)
    target_set = set(targets)
    best: dict[str, Candidate] = {}
    # (−priority, hops, id, direction)
    heap: list[tuple[float, int, str, str]] = []

    def offer(uid: str, edge: str, hops: int, direction: str, reason: str, span=None, background=False) -> None:
        if uid in target_set:
            return
        pri = weights.of(edge) * (weights.decay ** (hops - 1))
        if pri <= 0:
            return
        cur = best.get(uid)
        if cur is not None and (cur.priority > pri or (cur.priority == pri and cur.hops <= hops)):
            return
        best[uid] = Candidate(uid, edge, hops, pri, direction, reason, span, background)
        if hops < weights.max_hops:
            heapq.heappush(heap, (-pri, hops, uid, direction))

    # Hop 1 from every unit in the targets' scope (a section's descendants included), in document
    # order: which unit's edge reaches a candidate first gives its reason, the same in every process
    # (a set's order changes with the hash seed).
    in_order = [u.id for u in doc.units if u.id in scope]
    for src in in_order + sorted(scope.difference(in_order)):
        for v, data in _edges_out(G, src):
            t = data.get("type")
            if t in _HARD:
                offer(v, t, 1, "upstream", f"target needs it: {t.lower()} '{_evidence(data)}'")
            elif t == "RELATED":
                offer(v, t, 1, "related", f"similar to the target ({data.get('score', 0):.2f})", background=True)
        for u, data in _edges_in(G, src):
            t = data.get("type")
            if t in _HARD:
                offer(u, t, 1, "downstream", f"needs the target: {t.lower()} '{_evidence(data)}'", _span(data))
    # Units the instruction itself needs (the definition of a term it uses).
    for uid, why in prerequisites:
        offer(uid, "DEPENDS", 1, "upstream", why)
    # Containing sections (heading + summary) and the captions of a target figure/table.
    for tid in targets:
        try:
            unit = doc.unit(tid)
        except KeyError:
            continue
        parent, hops = unit.parent, 1
        while parent is not None:
            offer(parent, "CONTAINS", hops, "context", "containing section")
            parent_unit = doc.get(parent)
            parent = parent_unit.parent if parent_unit else None
            hops += 1
        for child in doc.children(tid):
            if child.kind == "caption":
                offer(child.id, "CONTAINS", 1, "context", "caption of the target")
        # Background: the rest of the target's section, nearest first (hop 1 + distance), so the
        # editor sees the local flow; it only fills what the hard dependencies leave of the budget.
        for distance, sibling in _siblings_by_distance(doc, unit):
            offer(sibling.id, "CONTAINS", 1 + distance, "context",
                  "next to the target in its section" if distance == 1 else f"{distance} units from the target",
                  background=True)
        # Then the document around it, beyond its section, nearest first (decayed one hop further).
        for distance, near in _document_neighbours(doc, unit, scope):
            offer(near.id, "CONTAINS", 2 + distance, "context", f"{distance} units from the target in the document",
                  background=True)
    # RELATED neighbours of what the target is tied to (one hop further, lowest priority).
    for c in [c for c in best.values() if c.hops == 1 and c.edge in _HARD]:
        for v, data in _edges_out(G, c.id):
            if data.get("type") == "RELATED":
                offer(v, "RELATED", 2, "related", f"similar to {c.id} ({data.get('score', 0):.2f})", background=True)
    # Further hops, best first, keeping each path's direction.
    while heap:
        neg, hops, uid, direction = heapq.heappop(heap)
        cur = best.get(uid)
        if cur is None or -neg < cur.priority or hops != cur.hops:
            continue
        if direction in ("upstream", "related"):
            for v, data in _edges_out(G, uid):
                if data.get("type") in _HARD and direction == "upstream":
                    offer(v, data["type"], hops + 1, "upstream", f"needed by {uid}: '{_evidence(data)}'")
        if direction == "downstream":
            for u, data in _edges_in(G, uid):
                if data.get("type") in _HARD:
                    offer(u, data["type"], hops + 1, "downstream", f"needs {uid}: '{_evidence(data)}'", _span(data))
    return sorted(best.values(), key=lambda c: (-c.priority, c.hops, c.id))
