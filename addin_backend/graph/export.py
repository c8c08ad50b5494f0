"""The graph as JSON (the ``ledger graph --json`` contract), GraphML (Gephi, yEd) and node-link."""
from __future__ import annotations

import json
from typing import IO, Any, cast

import networkx as nx

from .edges import EDGE_TYPES
from .references import BROKEN_KEY

__all__ = ["to_json", "to_graphml", "write_graphml", "to_node_link", "from_node_link"]

_NODE_EXTRA = ("order", "parent", "preview")
_EDGE_EXTRA = ("origin", "start", "end")


def _node_sort(G: nx.MultiDiGraph):
    return sorted(G.nodes(data=True), key=lambda nd: (nd[1].get("order", 0), nd[0]))


def _edge_sort(G: nx.MultiDiGraph):
    order = {n: d.get("order", 0) for n, d in G.nodes(data=True)}
    rank = {t: i for i, t in enumerate(EDGE_TYPES)}
    return sorted(
        G.edges(keys=True, data=True),
        key=lambda e: (rank.get(e[2], 9), order.get(e[0], 0), order.get(e[1], 0), e[0], e[1]),
    )


def to_json(G: nx.MultiDiGraph) -> dict[str, Any]:
    """``{"nodes": [...], "edges": [...], "stats": {...}, "broken_references": [...]}``.

    Nodes carry ``id, kind, label`` (plus ``order, parent, preview``); edges carry
    ``source, target, type, evidence, score`` (plus ``origin`` and the ``start``/``end`` of the
    evidence in the source's text where it is a span). Sorted: nodes in document order, edges by
    type then document order.
    """
    nodes = []
    for n, d in _node_sort(G):
        item = {"id": n, "kind": d.get("kind"), "label": d.get("label")}
        item.update({k: d.get(k) for k in _NODE_EXTRA})
        nodes.append(item)
    edges = []
    for u, v, k, d in _edge_sort(G):
        item = {"source": u, "target": v, "type": d.get("type", k), "evidence": d.get("evidence", ""), "score": d.get("score", 1.0)}
        item.update({x: d[x] for x in _EDGE_EXTRA if x in d})
        edges.append(item)
    stats = json.loads(json.dumps(G.graph.get("stats", {})))
    return {"nodes": nodes, "edges": edges, "stats": stats, "broken_references": list(G.graph.get(BROKEN_KEY, []))}


def _safe(value: Any) -> Any:
    """A GraphML-writable value: None becomes "", containers become JSON text."""
    if value is None:
        return ""
    if isinstance(value, bool) or isinstance(value, (int, float, str)):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def to_graphml(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy of ``G`` whose every attribute GraphML can hold (for Gephi and yEd)."""
    H: nx.MultiDiGraph = nx.MultiDiGraph()
    H.graph.update({k: _safe(v) for k, v in G.graph.items() if k in ("stages", "related_threshold")})
    H.graph["stats"] = _safe(G.graph.get("stats", {}))
    for n, d in _node_sort(G):
        attrs = {k: _safe(v) for k, v in d.items()}
        attrs.setdefault("label", "")
        attrs["label"] = attrs["label"] or d.get("preview", "")[:40] or n
        H.add_node(n, **attrs)
    for u, v, k, d in _edge_sort(G):
        H.add_edge(u, v, key=k, **{x: _safe(y) for x, y in d.items()})
    # Every node and edge must declare the same attribute types for GraphML readers.
    for _, d in H.nodes(data=True):
        for key in ("kind", "label", "parent", "number", "title", "preview"):
            d[key] = str(d.get(key, ""))
        d["order"] = int(d.get("order") or 0)
        d["level"] = int(d.get("level") or 0)
    for _, _, d in H.edges(data=True):
        d["start"] = int(d.get("start", -1))
        d["end"] = int(d.get("end", -1))
        d["origin"] = str(d.get("origin", ""))
        d["score"] = float(d.get("score", 1.0))
    return H


def write_graphml(G: nx.MultiDiGraph, path_or_stream: str | IO[bytes]) -> None:
    """Write ``G`` as GraphML (readable back with ``networkx.read_graphml``)."""
    nx.write_graphml(to_graphml(G), path_or_stream, encoding="utf-8", prettyprint=True)


def to_node_link(G: nx.MultiDiGraph) -> dict[str, Any]:
    """JSON-serialisable node-link data for storage (the store keeps graphs this way)."""
    return nx.node_link_data(G, edges="edges")


def from_node_link(data: dict[str, Any]) -> nx.MultiDiGraph:
    """The graph stored by :func:`to_node_link`."""
    return cast(nx.MultiDiGraph, nx.node_link_graph(data, directed=True, multigraph=True, edges="edges"))
