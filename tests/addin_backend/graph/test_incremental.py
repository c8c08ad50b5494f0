"""An incremental update after an edit equals a full rebuild, and recomputes only what it must."""
from __future__ import annotations

import copy
import random

import pytest

from addin_backend.graph import DEPENDS, REFERENCES, build_graph, update_graph
from addin_backend.graph.incremental import changed_units

import graph_docs as gd

SENTENCES = [
    "See Section 2.1 and Figure 1.",
    "This approach is revisited in Table 1.",
    "These results motivate Theorem 3.",
    "We define the token budget as the maximum context size.",
    "The token budget is never exceeded.",
    "The Retrieval Augmented Generation (RAG) baseline is weaker.",
    "RAG misses references entirely.",
    "Sections 2-3 summarise it; see 2.2 for details.",
    "It follows from the previous paragraph.",
    "As described above, the Supplier pays within Article 2.",
    '"Fee" means the monthly charge.',
    "The Fee is due monthly under Article 4 and Clause 5.2.",
    "The dependency graph and the SLA are both affected.",
    "Such a mechanism needs the Services of Annex A.",
]


def snapshot(G):
    nodes = {n: dict(d) for n, d in G.nodes(data=True)}
    edges = {(u, v, k): dict(d) for u, v, k, d in G.edges(keys=True, data=True)}
    return nodes, edges, list(G.graph["broken_references"]), G.graph["stats"]["edges_by_type"], G.graph["stages"]


def assert_same(G_inc, G_full):
    a, b = snapshot(G_inc), snapshot(G_full)
    assert a[0] == b[0], "nodes differ"
    missing = {k: v for k, v in b[1].items() if a[1].get(k) != v}
    extra = {k: v for k, v in a[1].items() if k not in b[1]}
    assert not missing and not extra, f"incremental lacks {missing}; has extra {extra}"
    assert a[2:] == b[2:]


# --- edits on spec lists ---------------------------------------------------------------------


def edit_text(specs, rnd):
    cands = [s for s in specs if s["kind"] in ("paragraph", "list_item")]
    s = rnd.choice(cands)
    s["text"] = s["text"] + " " + rnd.choice(SENTENCES)
    s["fields"] = [f for f in s.get("fields", ()) if f[2] in s["text"]]


def insert(specs, rnd):
    i = rnd.randrange(1, len(specs) + 1)
    neighbour = specs[i - 1]
    parent = neighbour["key"] if neighbour["kind"] == "section" else neighbour.get("parent")
    key = f"new{rnd.randrange(10**6)}"
    specs.insert(i, {"key": key, "kind": "paragraph", "text": rnd.choice(SENTENCES) + " " + rnd.choice(SENTENCES),
                     "parent": parent})


def delete(specs, rnd):
    cands = [s for s in specs if s["kind"] != "title"]
    s = rnd.choice(cands)
    specs.remove(s)
    for t in specs:
        if t.get("parent") == s["key"]:
            t["parent"] = s.get("parent")
        if t.get("cited_by") == s["key"]:
            del t["cited_by"]


def relabel(specs, rnd):
    cands = [s for s in specs if s.get("label")]
    s = rnd.choice(cands)
    word, _, num = s["label"].rpartition(" ")
    s["label"] = f"{word} {rnd.choice(['1', '2', '3', '4', '2.1', 'A', 'B.1'])}"


def move(specs, rnd):
    cands = [s for s in specs if s["kind"] in ("paragraph", "list_item")]
    s = rnd.choice(cands)
    specs.remove(s)
    specs.insert(rnd.randrange(1, len(specs) + 1), s)


OPS = [edit_text, edit_text, insert, insert, delete, relabel, move]


@pytest.mark.models
@pytest.mark.parametrize("which, seed", [("paper", 1), ("contract", 2), ("standard", 3), ("paper", 4)])
def test_random_edit_sequences_match_full_rebuilds(which, seed):
    rnd = random.Random(seed)
    specs = copy.deepcopy({"paper": gd.PAPER, "contract": gd.CONTRACT, "standard": gd.STANDARD}[which])
    doc, _ = gd.build(specs)
    G = build_graph(doc, semantic=False)
    for step in range(20):
        op = rnd.choice(OPS)
        new_specs = copy.deepcopy(specs)
        op(new_specs, rnd)
        new_doc, _ = gd.build(new_specs)
        update_graph(G, doc, new_doc)
        assert_same(G, build_graph(new_doc, semantic=False))
        specs, doc = new_specs, new_doc


@pytest.mark.models
def test_one_edit_recomputes_only_the_units_it_touches():
    specs = copy.deepcopy(gd.PAPER) * 1
    doc, ids = gd.build(specs)
    G = build_graph(doc, semantic=False)
    new_specs = copy.deepcopy(specs)
    p5 = next(s for s in new_specs if s["key"] == "p5")
    p5["text"] = p5["text"].replace("Table 1", "Table 2")  # now a broken reference
    new_doc, new_ids = gd.build(new_specs)
    update_graph(G, doc, new_doc)
    stats = G.graph["stats"]["incremental"]
    assert (stats["added"], stats["removed"], stats["moved"]) == (1, 1, False)
    assert stats["recomputed"]["references"] == 1  # only the edited paragraph
    assert stats["recomputed"]["depends"] <= 1 + 8  # the edited unit and its anaphora window
    assert not G.has_edge(new_ids["p5"], new_ids["tbl1"], key=REFERENCES)
    assert [b["label"] for b in G.graph["broken_references"]] == ["Table 2", "Figure 7"]
    assert_same(G, build_graph(new_doc, semantic=False))


@pytest.mark.models
def test_a_renumbered_label_reaches_every_unit_that_mentions_it():
    doc, ids = gd.build(copy.deepcopy(gd.PAPER))
    G = build_graph(doc, semantic=False)
    specs = copy.deepcopy(gd.PAPER)
    for s in specs:
        if s["key"] in ("tbl1", "cap2"):
            s["label"] = "Table 2"
        if s["key"] == "cap2":
            s["text"] = s["text"].replace("Table 1", "Table 2")
    new_doc, new_ids = gd.build(specs)
    ch = changed_units(doc, new_doc)
    assert ch["reshaped"] == {ids["tbl1"]} and ch["added"] == {new_ids["cap2"]}
    update_graph(G, doc, new_doc)
    # the table and its new caption, and p5 and p6, which mention "Table 1", no longer carried
    assert G.graph["stats"]["incremental"]["recomputed"]["references"] == 4
    assert [b["label"] for b in G.graph["broken_references"]] == ["Table 1", "Table 1", "Figure 7"]
    assert_same(G, build_graph(new_doc, semantic=False))


@pytest.mark.models
def test_a_new_definition_reaches_later_users():
    specs = copy.deepcopy(gd.PAPER)
    doc, _ = gd.build(specs)
    G = build_graph(doc, semantic=False)
    new_specs = copy.deepcopy(specs)
    new_specs.insert(3, {"key": "def", "kind": "paragraph", "parent": "s1",
                         "text": "We define the editing cases as the benchmark's test inputs."})
    new_doc, ids = gd.build(new_specs)
    update_graph(G, doc, new_doc)
    assert G.edges[ids["p6"], ids["def"], DEPENDS]["evidence"] == (
        "editing cases -> We define the editing cases as")
    assert_same(G, build_graph(new_doc, semantic=False))


@pytest.mark.models
def test_incremental_with_related_edges_matches_a_rebuild():
    specs = copy.deepcopy(gd.PAPER)
    doc, _ = gd.build(specs)
    G = build_graph(doc, related_threshold=0.35, related_relative=0)
    rnd = random.Random(7)
    for op in (edit_text, insert, delete):
        new_specs = copy.deepcopy(specs)
        op(new_specs, rnd)
        new_doc, _ = gd.build(new_specs)
        update_graph(G, doc, new_doc)
        assert_same(G, build_graph(new_doc, related_threshold=0.35, related_relative=0))
        specs, doc = new_specs, new_doc


def test_a_unit_edited_in_place_keeps_its_id_and_still_updates_the_graph():
    """apply_to_document keeps ids of changed units: text changes must still count."""
    from adapters.model import SetText
    from addin_backend.edits.operations import apply_to_document

    doc, _ = gd.paper()
    G = build_graph(doc, semantic=False)
    target = next(u for u in doc.units if u.kind == "paragraph" and "Figure" not in u.text)
    new = apply_to_document(doc, [SetText(unit=target.id, text=target.text + " See Figure 1 and Section 2.")])
    assert new.unit(target.id).text != target.text
    update_graph(G, doc, new)
    assert_same(G, build_graph(new, semantic=False))


@pytest.mark.models
def test_a_heading_added_or_removed_redoes_the_heading_links_of_the_units_after_it():
    """Anaphora reads sections in document order: a heading inserted before "This approach ..."
    (no unit's parent changes) makes it open a section, whose subject it then speaks of; removing
    the heading gives it back its antecedent in the paragraph before."""
    specs = copy.deepcopy(gd.PAPER)
    doc, ids = gd.build(specs)
    G = build_graph(doc, semantic=False)
    assert G.has_edge(ids["p2"], ids["p1"], key=DEPENDS)
    with_heading = copy.deepcopy(specs)
    at = next(i for i, s in enumerate(with_heading) if s["key"] == "p2")
    with_heading.insert(at, gd._sec("h", None, "Key Update", "s1", level=2))
    new_doc, new_ids = gd.build(with_heading)
    update_graph(G, doc, new_doc)
    assert "the section's subject: Key Update" in G.edges[new_ids["p2"], new_ids["h"], DEPENDS]["evidence"]
    assert not G.has_edge(new_ids["p2"], new_ids["p1"], key=DEPENDS)
    assert_same(G, build_graph(new_doc, semantic=False))
    back, _ = gd.build(specs)
    update_graph(G, new_doc, back)
    assert G.has_edge(ids["p2"], ids["p1"], key=DEPENDS)
    assert_same(G, build_graph(back, semantic=False))


@pytest.mark.models
def test_rules_switched_off_at_build_stay_off_in_an_update():
    """``build_graph(switched_off=...)`` (issue 31's ablation) is kept with the graph: an update
    leaves the same rules out as a rebuild with them off."""
    off = ["anaphora:pronoun", "definition:acronym"]
    specs = copy.deepcopy(gd.PAPER)
    doc, _ = gd.build(specs)
    G = build_graph(doc, semantic=False, switched_off=off)
    assert G.graph["switched_off"] == off
    new_specs = copy.deepcopy(specs)
    edit_text(new_specs, random.Random(5))
    new_doc, _ = gd.build(new_specs)
    update_graph(G, doc, new_doc)
    full = build_graph(new_doc, semantic=False, switched_off=off)
    assert_same(G, full)
    origins = {d["origin"] for _, _, k, d in full.edges(keys=True, data=True) if k == DEPENDS}
    assert "acronym" not in origins and origins != {d["origin"] for _, _, k, d in build_graph(
        new_doc, semantic=False).edges(keys=True, data=True) if k == DEPENDS}
