"""JSON per the ``ledger graph --json`` contract, GraphML that networkx reads back, node-link."""
from __future__ import annotations

import json

import networkx as nx

from addin_backend.graph import FAST_STAGES, build_graph, from_node_link, to_json, to_node_link, write_graphml

import graph_docs as gd


def test_json_contract():
    doc, ids = gd.standard()
    data = to_json(build_graph(doc, stages=FAST_STAGES))
    assert set(data) == {"nodes", "edges", "stats", "broken_references"}
    assert data["nodes"][0] == {"id": "document", "kind": "document", "label": "Secure Transfer Protocol \u2014 Specification",
                                "order": -1, "parent": None, "preview": "Secure Transfer Protocol \u2014 Specification"}
    assert [n["id"] for n in data["nodes"][1:]] == [u.id for u in doc.units]
    for n in data["nodes"]:
        assert {"id", "kind", "label"} <= set(n)
    for e in data["edges"]:
        assert {"source", "target", "type", "evidence", "score"} <= set(e)
    refs = [e for e in data["edges"] if e["type"] == "REFERENCES"]
    at = doc.unit(ids["p411"]).text.index("Clause 5.2")
    assert refs[0] == {"source": ids["p411"], "target": ids["c52"], "type": "REFERENCES", "evidence": "Clause 5.2",
                       "score": 1.0, "origin": "text", "start": at, "end": at + 10}
    assert data["stats"]["edges_by_type"] == {"CONTAINS": 21, "REFERENCES": 5, "DEPENDS": 0, "RELATED": 0}
    assert set(data["stats"]["seconds_by_stage"]) == {"nodes", "contains", "references"}
    at = doc.unit(ids["p421"]).text.index("Clause 7")
    assert data["broken_references"] == [{"source": ids["p421"], "mention": "Clause 7", "label": "Clause 7",
                                          "start": at, "end": at + 8, "reason": "no unit is labelled Clause 7"}]
    json.dumps(data)  # serialisable as it stands


def test_graphml_reads_back_with_networkx(tmp_path):
    doc, ids = gd.paper()
    G = build_graph(doc, stages=FAST_STAGES)
    out = tmp_path / "paper.graphml"
    write_graphml(G, str(out))
    H = nx.read_graphml(out, force_multigraph=True)
    assert H.number_of_nodes() == G.number_of_nodes()
    assert H.number_of_edges() == G.number_of_edges()
    assert H.nodes[ids["s21"]]["label"] == "Section 2.1"
    assert H.nodes[ids["p1"]]["label"].startswith("Long documents")  # unlabelled units show their text
    e = H.get_edge_data(ids["p5"], ids["s21"])
    (attrs,) = [d for d in e.values() if d["type"] == "REFERENCES"]
    assert attrs["evidence"] == "Section 2.1" and attrs["score"] == 1.0 and attrs["origin"] == "text"
    assert json.loads(H.graph["stats"])["edges_by_type"]["REFERENCES"] == 10


def test_node_link_round_trip_keeps_everything():
    doc, _ = gd.contract()
    G = build_graph(doc, stages=FAST_STAGES)
    data = json.loads(json.dumps(to_node_link(G)))
    H = from_node_link(data)
    assert dict(H.nodes(data=True)) == dict(G.nodes(data=True))
    assert sorted(H.edges(keys=True, data=True), key=str) == sorted(G.edges(keys=True, data=True), key=str)
    assert H.graph["broken_references"] == G.graph["broken_references"]
