"""Retrieval over a hand-built document and graph: expansion, priorities, budget, order, baselines."""
from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from adapters.model import Document, Unit
from addin_backend.errors import InvalidRequestError, UnknownUnitError
from addin_backend.retrieval import Weights, retrieve
from addin_backend.retrieval.pack import order_for_prompt
from addin_backend.retrieval.result import ContextItem
from addin_backend.retrieval.tokens import count_tokens

FILLER = "The cache layer keeps recent pages in memory and evicts the least recently used ones. " * 3


def _doc() -> Document:
    units = [
        Unit("s1", "section", "Introduction", 0, label="Section 1", number="1", level=1),
        Unit("p1", "paragraph", "We study write-ahead logging for ledgers. " + FILLER, 1, parent="s1"),
        Unit("s2", "section", "Method", 2, label="Section 2", number="2", level=1),
        Unit("p2", "paragraph", "We propose a batching approach that groups commits into epochs.", 3, parent="s2"),
        Unit("p3", "paragraph", "This approach halves the number of fsync calls.", 4, parent="s2"),
        Unit("s21", "section", "Epochs", 5, label="Section 2.1", number="2.1", level=2, parent="s2"),
        Unit("f1", "figure", "Epoch timeline", 6, label="Figure 1", number="1", parent="s21"),
        Unit("c1", "caption", "Figure 1: Epochs over time", 7, label="Figure 1", number="1", parent="f1"),
        Unit("p4", "paragraph", FILLER, 8, parent="s21"),
        Unit("s3", "section", "Evaluation", 9, label="Section 3", number="3", level=1),
        Unit("p5", "paragraph", "As Figure 1 shows, epochs of Section 2.1 cut latency.", 10, parent="s3"),
        Unit("p6", "paragraph", FILLER + "Unrelated discussion of caches.", 11, parent="s3"),
    ]
    return Document("docx", units)


def _graph(doc: Document) -> nx.MultiDiGraph:
    G = nx.MultiDiGraph()
    for u in doc.units:
        G.add_node(u.id, kind=u.kind, label=u.label)
        if u.parent:
            G.add_edge(u.parent, u.id, type="CONTAINS", evidence="", score=1.0)
    G.add_edge("p5", "f1", type="REFERENCES", evidence="Figure 1", score=1.0)
    G.add_edge("p5", "s21", type="REFERENCES", evidence="Section 2.1", score=1.0)
    G.add_edge("p3", "p2", type="DEPENDS", evidence="This approach -> approach", score=0.9)
    G.add_edge("p6", "p1", type="RELATED", evidence="", score=0.8)
    G.add_edge("p1", "p6", type="RELATED", evidence="", score=0.8)
    return G


def test_downstream_references_and_containing_section_come_with_their_priorities():
    doc = _doc()
    res = retrieve(doc, _graph(doc), ["f1"], budget=1500)
    by_id = {c.id: c for c in res.context}
    assert res.context[0].id == "f1" and res.context[0].edge == "TARGET"
    assert by_id["p5"].edge == "REFERENCES" and by_id["p5"].direction == "downstream"
    assert by_id["p5"].priority == 100
    assert by_id["s21"].edge == "CONTAINS" and by_id["s21"].priority == 30
    assert by_id["c1"].edge == "CONTAINS"
    assert by_id["s2"].priority == 15  # grandparent section, one hop further
    assert res.tokens == sum(c.tokens for c in res.context)
    assert res.document_tokens == sum(count_tokens(u.text) for u in doc.units)


def test_upstream_dependency_and_related_are_found_and_ranked():
    doc = _doc()
    res = retrieve(doc, _graph(doc), ["p3"])
    by_id = {c.id: c for c in res.context}
    assert by_id["p2"].edge == "DEPENDS" and by_id["p2"].direction == "upstream"
    assert by_id["p6"].edge == "CONTAINS" and by_id["p6"].priority < 10  # only as far background, not RELATED
    res = retrieve(doc, _graph(doc), ["p1"])
    assert {c.id: c.edge for c in res.context}["p6"] == "RELATED"


def test_a_section_target_pulls_what_references_its_contents():
    doc = _doc()
    res = retrieve(doc, _graph(doc), ["s2"])
    assert "p5" in res.ids  # cites Figure 1 and Section 2.1, both inside Section 2
    target = res.context[0]
    assert target.summarised and target.text.startswith("2 Method")


def test_budget_is_respected_and_what_did_not_fit_is_dropped_with_priority():
    doc = _doc()
    small = retrieve(doc, _graph(doc), ["p1"], budget=count_tokens(doc.unit("p1").text) + 5)
    assert small.tokens <= small.budget
    assert any(d["id"] == "p6" and d["priority"] == 10 for d in small.dropped)


def test_weights_are_configurable_and_change_the_ranking():
    doc = _doc()
    default = retrieve(doc, _graph(doc), ["f1"])
    flipped = retrieve(doc, _graph(doc), ["f1"], weights=Weights.parse("REFERENCES=1,CONTAINS=99"))
    rank = lambda res: [c.id for c in sorted(res.context, key=lambda c: -c.priority)]  # noqa: E731
    assert {c.id: c.priority for c in default.context}["p5"] == 100
    assert rank(default).index("p5") < rank(default).index("s21")
    assert rank(flipped).index("s21") < rank(flipped).index("p5")
    assert flipped.weights["contains"] == 99


def test_prompt_order_puts_targets_first_and_the_least_important_in_the_middle():
    items = [ContextItem(n, "TARGET" if n == "t" else "X", 1, p, 1, "", "") for n, p in
             [("t", 1e9), ("a", 100), ("b", 50), ("c", 30), ("d", 10)]]
    ordered = [i.id for i in order_for_prompt(items)]
    assert ordered == ["t", "a", "c", "d", "b"]


def test_unknown_targets_and_bad_requests_are_clear_errors():
    doc = _doc()
    with pytest.raises(UnknownUnitError):
        retrieve(doc, _graph(doc), ["nope"])
    with pytest.raises(InvalidRequestError):
        retrieve(doc, _graph(doc), [], budget=10)
    with pytest.raises(InvalidRequestError):
        retrieve(doc, _graph(doc), ["p1"], strategy="magic")


def _bag_embed(texts):
    vocab = ["cache", "epoch", "figure", "ledger", "latency", "approach", "fsync", "memory"]
    rows = []
    for t in texts:
        low = t.lower()
        v = np.array([low.count(w) for w in vocab], dtype=float) + 1e-3
        rows.append(v / np.linalg.norm(v))
    return np.vstack(rows)


def test_baselines_answer_through_the_same_interface():
    doc = _doc()
    G = _graph(doc)
    full = retrieve(doc, G, ["f1"], strategy="full")
    assert full.tokens == full.document_tokens and len(full.context) == len(doc.units)
    window = retrieve(doc, G, ["f1"], strategy="window")
    assert window.context[0].id == "f1" and {"c1", "s21"} <= set(window.ids)
    flat = retrieve(doc, G, ["p4"], strategy="flat_rag", instruction="cache memory", budget=300, embed=_bag_embed)
    assert flat.tokens <= 300 and flat.context[1].edge == "SIMILAR"
    hier = retrieve(doc, G, ["f1"], strategy="hier_rag", instruction="epoch latency", budget=400, embed=_bag_embed)
    assert "s21" in hier.ids  # the target's parent, through CONTAINS
    assert all(c.edge in ("TARGET", "CONTAINS", "SIMILAR") for c in hier.context)
    # Hierarchical RAG has no REFERENCES edges, so the citing paragraph comes only by luck.
    assert retrieve(doc, G, ["f1"]).ids.index("p5") > 0


def test_targets_by_id_selection_label_and_meaning():
    from addin_backend.retrieval.targets import identify_targets

    doc = _doc()
    assert identify_targets(doc, ids=["p3"]).ids == ["p3"]
    sel = identify_targets(doc, selection="batching approach that groups commits\rThis approach halves")
    assert sel.ids == ["p2", "p3"] and sel.how == "selection"
    fuzzy = identify_targets(doc, selection="This approch halves the number of fsync call")
    assert fuzzy.ids == ["p3"] and 0.6 < fuzzy.candidates[0].score < 0.9
    lab = identify_targets(doc, instruction="Shorten Figure 1 in Section 2.1")
    assert lab.ids == ["f1"] and lab.how == "label"
    sem = identify_targets(doc, instruction="talk about fsync calls", embed=_bag_embed)
    assert sem.how == "semantic" and sem.ids == ["p3"] and len(sem.candidates) > 1
    with pytest.raises(UnknownUnitError):
        identify_targets(doc, selection="text that appears nowhere at all in it")


def test_long_dependents_contribute_the_sentence_that_ties_them_to_the_target():
    long = ("Batteries age with every cycle. " * 12) + "As Figure 1 shows, epochs cut latency. " + ("Nothing else. " * 10)
    doc = _doc()
    doc.unit("p5").text = long
    G = _graph(doc)
    start = long.index("Figure 1")
    for _, _, k, d in G.out_edges("p5", keys=True, data=True):
        if d["type"] == "REFERENCES" and d["evidence"] == "Figure 1":
            d.update(start=start, end=start + 8)
    item = {c.id: c for c in retrieve(doc, G, ["f1"]).context}["p5"]
    assert item.summarised and item.text == "\u2026 As Figure 1 shows, epochs cut latency. \u2026"
    assert item.tokens < count_tokens(long) / 5


def test_a_defined_term_in_the_instruction_is_the_target_or_a_prerequisite():
    from addin_backend.retrieval.targets import identify_targets

    doc = _doc()
    doc.units.insert(3, Unit("d1", "paragraph", "We define an epoch as a group of commits flushed together.", 3, parent="s2"))
    for i, u in enumerate(doc.units):
        u.order = i
    doc._index = None
    G = _graph(doc)
    G.add_edge("p3", "d1", type="DEPENDS", evidence="epoch -> We define an epoch as", score=0.9)
    found = identify_targets(doc, instruction="Rename 'epoch' to 'batch window'", G=G)
    assert found.how == "term" and found.ids == ["d1"]
    res = retrieve(doc, G, ["p5"], instruction="Add that each epoch lasts 10 ms")
    item = {c.id: c for c in res.context}["d1"]
    assert item.edge == "DEPENDS" and "defined here" in item.reason


def test_background_fills_the_budget_but_leaves_headroom():
    from addin_backend.retrieval.pack import BACKGROUND_FILL

    doc = _doc()
    res = retrieve(doc, _graph(doc), ["p2"], budget=120)
    background = [c for c in res.context if c.edge == "CONTAINS" and c.direction == "context" and c.id != "s2"]
    assert background, "nearby units fill the unused budget"
    assert res.tokens <= 120
    assert sum(c.tokens for c in res.context) - sum(c.tokens for c in background) <= 120
    assert res.tokens <= max(int(120 * BACKGROUND_FILL), sum(c.tokens for c in res.context if c not in background))
    assert all(c.background for c in background) and res.dependency_tokens < res.tokens
