"""A kept graph read without networkx (graph.stored): the same edges, in the same order, as the
networkx graph of the same record, and networkx's answer to anything else."""
from __future__ import annotations

import json

import networkx as nx

from addin_backend.graph import build_graph
from addin_backend.graph.stored import StoredGraph, networkx_from_record
from addin_backend.service.graph_cache import graph_record

from graph_docs import standard


def _record(G: nx.MultiDiGraph) -> dict:
    return json.loads(json.dumps(graph_record(G)))  # as kept: through JSON


def _tangled() -> nx.MultiDiGraph:
    """Predecessors added in another order than the nodes', two keys on one pair, an edge whose
    ends are not among the nodes, and a key written twice (its data merged)."""
    G = nx.MultiDiGraph()
    G.graph.update({"stages": ["contains", "depends"], "n": 1})
    G.add_nodes_from([("a", {"kind": "p"}), "b", "t", "u"])
    G.add_edge("b", "t", key="DEPENDS", evidence="addresses")
    G.add_edge("a", "t", key="DEPENDS", evidence="address")
    G.add_edge("a", "u", key="REFERENCES")
    G.add_edge("b", "u", key="REFERENCES")
    G.add_edge("a", "t", key="RELATED", score=0.5)
    G.add_edge("x", "y", key="CONTAINS")
    G.add_edge("a", "t", key="RELATED", note="again")
    return G


def _same_reads(view: StoredGraph, H: nx.MultiDiGraph) -> None:
    assert list(view) == list(H) and len(view) == len(H)
    for n in H:
        assert n in view and view.has_node(n)
        for keys in (False, True):
            for data in (False, True):
                assert list(view.in_edges(n, keys=keys, data=data)) == list(H.in_edges(n, keys=keys, data=data))
                assert list(view.out_edges(n, keys=keys, data=data)) == list(H.out_edges(n, keys=keys, data=data))
    assert list(view.out_edges(keys=True, data=True)) == list(H.out_edges(keys=True, data=True))
    assert list(view.in_edges(keys=True)) == list(H.in_edges(keys=True))
    assert "nowhere" not in view and [] not in view and view.graph == H.graph


def test_the_view_reads_the_edges_networkx_reads_in_its_order():
    for G in (_tangled(), build_graph(standard()[0], semantic=False)):
        record = _record(G)
        view = StoredGraph(record)
        _same_reads(view, networkx_from_record(record))
        assert view._nx is None  # all of that without building the networkx graph


def test_anything_else_is_networkx_s_answer_on_one_graph():
    record = _record(_tangled())
    view = StoredGraph(record)
    H = networkx_from_record(record)
    view.graph["added"] = True  # as a context keeps its term index on the graph
    assert view.number_of_edges() == H.number_of_edges() == 6
    assert view._nx is not None and view.networkx().graph is view.graph and view.networkx().graph["added"]
    assert dict(view["a"]["t"]) == dict(H["a"]["t"]) and list(view.nodes(data=True)) == list(H.nodes(data=True))
    assert list(view.out_edges("a", data="score")) == list(H.out_edges("a", data="score"))
    view.networkx().add_edge("t", "a", key="DEPENDS")  # once built, the view reads the networkx graph
    assert ("t", "a") in list(view.out_edges("t"))
    assert list(view.in_edges("zz")) == list(H.in_edges("zz")) == []  # networkx reads an unknown node so
