"""A kept graph read without networkx: what a second ``ledger context`` needs of it.

A graph is kept as a record (``{"graph", "nodes", "edges"}``, written by
``service.graph_cache.graph_record``). Turning it back into a ``networkx.MultiDiGraph``
(:func:`networkx_from_record`) costs importing networkx (130-180 ms, more than the rest of a
second context) and building its dictionaries. Packing a context only asks whether a unit is in
the graph, the edges into and out of it, and the graph's attributes: :class:`StoredGraph`
answers those from the same adjacency, in the order networkx would (successors, predecessors
and keys in the order the record adds them), and builds the networkx graph the first time
anything else is asked of it, answering that and everything after from it. So a reader that
needs more than the view holds gets networkx's answer, never a different one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["StoredGraph", "networkx_from_record"]


def networkx_from_record(record: dict[str, Any]) -> nx.MultiDiGraph:
    """The ``networkx.MultiDiGraph`` of a record: attributes, nodes, then keyed edges in order."""
    import networkx as nx

    G: nx.MultiDiGraph = nx.MultiDiGraph()
    G.graph.update(record["graph"])
    G.add_nodes_from((n, d) for n, d in record["nodes"])
    for u, v, k, d in record["edges"]:
        G.add_edge(u, v, key=k, **d)
    return G


class StoredGraph:
    """A read-only stand-in for the ``MultiDiGraph`` of a record (see the module docstring).

    ``graph``, ``in G``, ``len``, iteration, ``has_node``, ``in_edges`` and ``out_edges`` (of one
    node or all, with ``keys`` and ``data`` as ``True``/``False``) are read off the record's
    adjacency; any other attribute builds the networkx graph (sharing ``graph``) and is its.
    """

    def __init__(self, record: dict[str, Any]) -> None:
        self.graph: dict[str, Any] = dict(record["graph"])
        self._record: dict[str, Any] | None = record
        self._nx: nx.MultiDiGraph | None = None
        succ: dict[Any, dict[Any, dict[Any, dict[str, Any]]]] = {}
        pred: dict[Any, dict[Any, dict[Any, dict[str, Any]]]] = {}
        for n, _d in record["nodes"]:
            if n not in succ:
                succ[n], pred[n] = {}, {}
        for u, v, k, d in record["edges"]:
            for n in (u, v):  # networkx adds an edge's unknown ends, source first
                if n not in succ:
                    succ[n], pred[n] = {}, {}
            keys = succ[u].get(v)
            if keys is None:
                keys = succ[u][v] = pred[v][u] = {}
            if k in keys:
                keys[k].update(d)
            else:
                keys[k] = dict(d)
        self._succ, self._pred = succ, pred

    def networkx(self) -> nx.MultiDiGraph:
        """The networkx graph of the record (built once; its ``graph`` is this view's)."""
        if self._nx is None:
            assert self._record is not None
            G = networkx_from_record(self._record)
            G.graph = self.graph
            self._nx, self._record = G, None
        return self._nx

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_succ", "_pred", "_nx", "_record"):
            raise AttributeError(name)
        return getattr(self.networkx(), name)

    def __contains__(self, n: object) -> bool:
        if self._nx is not None:
            return n in self._nx
        try:
            return n in self._succ
        except TypeError:  # an unhashable "node", as networkx answers
            return False

    def has_node(self, n: object) -> bool:
        return n in self

    def __len__(self) -> int:
        return len(self._nx) if self._nx is not None else len(self._succ)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._nx) if self._nx is not None else iter(self._succ)

    def __getitem__(self, n: Any) -> Any:
        return self.networkx()[n]

    def _edges(self, out: bool, nbunch: Any, keys: bool, data: Any, default: Any) -> Any:
        """The edges out of (``out``) or into ``nbunch`` (one node in the graph, or all), as
        networkx lists them; networkx's own answer for anything else (another ``data``, a
        ``default``, a node not in the graph, or once the networkx graph is built)."""
        if self._nx is not None or data not in (True, False) or default is not None \
                or (nbunch is not None and nbunch not in self):
            G: Any = self.networkx()
            return (G.out_edges if out else G.in_edges)(nbunch, data=data, keys=keys, default=default)
        adj = self._succ if out else self._pred
        got: list[tuple[Any, ...]] = []
        for n in (adj if nbunch is None else (nbunch,)):
            for nbr, kd in adj[n].items():
                ends = (n, nbr) if out else (nbr, n)
                for k, d in kd.items():
                    got.append((*ends, *((k,) if keys else ()), *((d,) if data else ())))
        return got

    def out_edges(self, nbunch: Any = None, data: Any = False, keys: bool = False, default: Any = None) -> Any:
        """As ``MultiDiGraph.out_edges``."""
        return self._edges(True, nbunch, keys, data, default)

    def in_edges(self, nbunch: Any = None, data: Any = False, keys: bool = False, default: Any = None) -> Any:
        """As ``MultiDiGraph.in_edges``."""
        return self._edges(False, nbunch, keys, data, default)
