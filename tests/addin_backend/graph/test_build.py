"""The whole graph of three hand-built documents: exact edges, evidence and broken references."""
from __future__ import annotations

import pytest

from addin_backend.graph import CONTAINS, DEPENDS, FAST_STAGES, REFERENCES, RELATED, build_graph, run_stages

import graph_docs as gd

PAPER_REFERENCES = {
    ("p1", "s2"): "Section 2",
    ("p1", "s3"): "Section 3",
    ("p2", "fig1"): "Figure 1",
    ("p3", "eq1"): "Equation (1)",
    ("p5", "fig1"): "Fig. 1",
    ("p5", "s21"): "Section 2.1",
    ("p5", "tbl1"): "Table 1",
    ("p6", "tbl1"): "Table 1",
    ("p7", "s21"): "Sections 2.1-2.2",
    ("p7", "s22"): "Sections 2.1-2.2",
}
PAPER_DEPENDS = {
    ("p2", "p1"): "This approach -> a dependency-aware editing approach",
    ("p4", "p2"): "LLM -> Large Language Model (LLM)",
    ("p4", "p3"): "dependency graph -> We define the dependency graph as",
    ("p7", "p6"): "These results -> and report the results",
}
CONTRACT_REFERENCES = {
    ("li2", "a3"): "Article 3",
    ("p21", "a5"): "Article 5",
    ("p51", "a3"): "Articles 3 and 4",
    ("p51", "a4"): "Articles 3 and 4",
}
CONTRACT_DEPENDS = {
    ("p21", "p0"): 'Agreement -> (hereinafter the "Agreement")',
    ("p31", "li2"): 'Services -> "Services" means',
    ("p31", "li3"): "SLA -> Service Level Agreement (SLA)",
    ("p31", "p0"): 'Supplier -> (the "Supplier")',
    ("p41", "li1"): 'Confidential Information -> "Confidential Information" means',
    ("p41", "p0"): 'Customer -> (the "Customer")',
}
STANDARD_REFERENCES = {
    ("p411", "annexA"): "Annex A",
    ("p411", "c52"): "Clause 5.2",
    ("p411", "tblB1"): "Table B.1",
    ("p421", "c41"): "4.1",
    ("p421", "figA2"): "Figure A.2",
}
STANDARD_DEPENDS = {
    ("p31", "p11"): "STP -> Secure Transfer Protocol (STP)",
    ("p411", "p31"): 'Session -> "Session" means',
}


def broken(G, ids):
    back = {v: k for k, v in ids.items()}
    return [(back[b["source"]], b["mention"], b["label"]) for b in G.graph["broken_references"]]


def test_fast_stages_need_no_model_and_give_hierarchy_and_references():
    doc, ids = gd.paper()
    G = build_graph(doc, stages=FAST_STAGES)
    assert gd.edges(G, REFERENCES, ids) == PAPER_REFERENCES
    assert gd.edges(G, DEPENDS, ids) == {}
    contains = gd.edges(G, CONTAINS, ids)
    assert len(contains) == len(doc.units)  # every unit has exactly one container
    assert contains[("document", "s1")] == "structure"
    assert contains[("s2", "s21")] == "structure"
    assert contains[("fig1", "cap1")] == "structure"
    assert contains[("p6", "fn1")] == "note reference"  # the footnote body hangs from its citing paragraph
    assert broken(G, ids) == [("p7", "Figure 7", "Figure 7")]
    assert G.graph["stages"] == ["contains", "references"]


def test_reference_edges_carry_origin_span_and_score():
    doc, ids = gd.paper()
    G = build_graph(doc, stages=FAST_STAGES)
    field = G.edges[ids["p2"], ids["fig1"], REFERENCES]
    assert field["origin"] == "field" and field["score"] == 1.0
    text = doc.unit(ids["p5"]).text
    e = G.edges[ids["p5"], ids["s21"], REFERENCES]
    assert e["origin"] == "text" and text[e["start"] : e["end"]] == "Section 2.1"


@pytest.mark.models
def test_paper():
    doc, ids = gd.paper()
    G = build_graph(doc, semantic=False)
    assert gd.edges(G, REFERENCES, ids) == PAPER_REFERENCES
    assert gd.edges(G, DEPENDS, ids) == PAPER_DEPENDS
    assert G.edges[ids["p4"], ids["p2"], DEPENDS]["origin"] == "acronym"
    assert G.edges[ids["p2"], ids["p1"], DEPENDS]["origin"] == "anaphora"
    assert G.graph["stats"]["edges_by_type"] == {"CONTAINS": 19, "REFERENCES": 10, "DEPENDS": 4, "RELATED": 0}


@pytest.mark.models
def test_contract():
    doc, ids = gd.contract()
    G = build_graph(doc, semantic=False)
    assert gd.edges(G, REFERENCES, ids) == CONTRACT_REFERENCES
    assert gd.edges(G, DEPENDS, ids) == CONTRACT_DEPENDS
    assert broken(G, ids) == [("p51", "Article 9", "Article 9")]
    assert gd.edges(G, CONTAINS, ids)[("p51", "fn1")] == "note reference"


@pytest.mark.models
def test_standard():
    doc, ids = gd.standard()
    G = build_graph(doc, semantic=False)
    # "Section 3 of [RFC9110]", "RFC 8446, Section 4.2" and "ISO/IEC 27001 Annex A" are external;
    # "see 5.2.1" names no clause of this document and is dropped, "Clause 7" is a finding.
    assert gd.edges(G, REFERENCES, ids) == STANDARD_REFERENCES
    assert gd.edges(G, DEPENDS, ids) == STANDARD_DEPENDS
    assert broken(G, ids) == [("p421", "Clause 7", "Clause 7")]
    assert G.edges[ids["p421"], ids["c41"], REFERENCES]["score"] == 0.9  # a bare clause number


def test_progress_reports_each_stage_from_zero_to_one():
    doc, _ = gd.contract()
    seen = []
    build_graph(doc, stages=FAST_STAGES, progress=lambda s, f: seen.append((s, f)))
    assert seen == [("contains", 0.0), ("contains", 1.0), ("references", 0.0), ("references", 1.0)]


@pytest.mark.models
def test_slow_stages_run_later_on_the_same_graph():
    doc, ids = gd.contract()
    G = build_graph(doc, stages=FAST_STAGES)
    run_stages(G, doc, ["depends"])
    assert gd.edges(G, DEPENDS, ids) == CONTRACT_DEPENDS
    assert G.graph["stages"] == ["contains", "references", "depends"]
    assert set(G.graph["stats"]["seconds_by_stage"]) == {"nodes", "contains", "references", "depends"}


def test_unknown_stage_is_a_clear_error():
    doc, _ = gd.contract()
    with pytest.raises(ValueError, match="unknown graph stage"):
        build_graph(doc, stages=["contains", "magic"])


def test_nodes_carry_kind_label_order_parent_and_preview():
    doc, ids = gd.paper()
    G = build_graph(doc, stages=["contains"])
    n = G.nodes[ids["s21"]]
    assert (n["kind"], n["label"], n["order"], n["parent"]) == ("section", "Section 2.1", 7, ids["s2"])
    assert G.nodes[ids["p1"]]["preview"].startswith("Long documents are hard to edit")
    assert len(G.nodes[ids["p1"]]["preview"]) <= 80
    assert G.nodes["document"]["label"] == "Dependency Graphs for Consistent Document Editing"


def test_parents_are_inferred_from_heading_levels_when_the_reader_gave_none():
    specs = [dict(s, parent=None) for s in gd.PAPER]
    doc, ids = gd.build(specs)
    G = build_graph(doc, stages=["contains"])
    c = gd.edges(G, CONTAINS, ids)
    assert c[("s2", "s21")] == "heading level"
    assert c[("s21", "p3")] == "heading level"
    assert c[("document", "s3")] == "structure"


def test_no_model_is_imported_by_the_fast_stages(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, 'tests/addin_backend/graph'); import graph_docs as gd;"
        "from addin_backend.graph import build_graph, FAST_STAGES;"
        "import addin_backend.cli;"
        "doc, _ = gd.paper(); build_graph(doc, stages=FAST_STAGES);"
        "print(sorted(m for m in ('spacy', 'torch', 'thinc', 'sentence_transformers') if m in sys.modules))"
    )
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.models
def test_related_edges_are_symmetric_capped_and_skip_linked_pairs():
    doc, ids = gd.paper()
    G = build_graph(doc, related_threshold=0.3, related_relative=0)
    rel = [(u, v) for u, v, k in G.edges(keys=True) if k == RELATED]
    assert rel, "a 0.3 threshold relates some of the paper's units"
    for u, v in rel:
        assert G.has_edge(v, u, key=RELATED)
        assert G.edges[u, v, RELATED]["score"] >= 0.3
        assert not any(G.has_edge(a, b, key=k) for a, b in ((u, v), (v, u)) for k in (REFERENCES, DEPENDS, CONTAINS))
    per_node = {}
    for u, _ in rel:
        per_node[u] = per_node.get(u, 0) + 1
    assert max(per_node.values()) <= 5


def _captioned(nested: bool):
    """A figure and its caption (nested under the figure, or its sibling) and a paragraph whose
    cross-reference field points at the caption's bookmark, as Word and LibreOffice store it."""
    from adapters.model import Document, Field, Unit

    text = "The measured throughput is shown in Figure 3 for both sites."
    start = text.index("Figure 3")
    field = Field("ref", " REF _Ref123 \\h ", "_Ref123", "cap", "Figure 3", start, start + 8)
    return Document("docx", [
        Unit("s", "section", "Results", 0, label="Section 1", number="1"),
        Unit("fig", "figure", "Bar chart of throughput per site.", 1, parent="s", label="Figure 3", number="3"),
        Unit("cap", "caption", "Figure 3: Throughput per site", 2, parent="fig" if nested else "s",
             label="Figure 3", number="3"),
        Unit("p", "paragraph", text, 3, parent="s", fields=[field]),
    ])


@pytest.mark.parametrize("nested", [True, False])
def test_a_reference_field_into_a_caption_cites_the_figure(nested):
    G = build_graph(_captioned(nested), stages=FAST_STAGES)
    refs = [(u, v, d["origin"], d["evidence"]) for u, v, k, d in G.edges(keys=True, data=True) if k == REFERENCES]
    assert refs == [("p", "fig", "field", "Figure 3")]


def test_depends_loads_the_tagger_and_no_encoder(tmp_path):
    """DEPENDS reads the sentences that hold a candidate with spaCy's tagger (spaCy and thinc
    load); no encoder (no torch, no sentence-transformers) without semantic edges."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys; sys.path.insert(0, 'tests/addin_backend/graph'); import graph_docs as gd; "
        "from addin_backend.graph import build_graph; doc, ids = gd.paper(); "
        "G = build_graph(doc, semantic=False); "
        "print(G.graph['stats']['edges_by_type']['DEPENDS'], "
        "sorted(m for m in ('spacy', 'torch', 'thinc', 'sentence_transformers') if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "4 ['spacy', 'thinc']"


def test_table_of_contents_entries_are_navigation_not_references():
    """A Word TOC entry (style "toc 1", a PAGEREF and a hyperlink to a _Toc bookmark) cites nothing."""
    from adapters.model import Document, Field, Unit

    toc_fields = [Field("pageref", " PAGEREF _Toc1 \\h ", "_Toc1", "s1", "2", 23, 24),
                  Field("hyperlink", ' HYPERLINK \\l "_Toc1" ', "_Toc1", "s1", "SECTION 1\tIntroduction\t2", 0, 24),
                  Field("other", ' TOC \\o "1-3" \\h \\z \\u ', None, None, "", 0, 24)]
    see_fields = [Field("ref", " REF _Ref9 \\r \\h ", "_Ref9", "s1", "1", 12, 13)]
    doc = Document("docx", [
        Unit("toc", "paragraph", "SECTION 1\tIntroduction\t2", 0, style="toc 1", fields=toc_fields),
        Unit("s1", "section", "Introduction", 1, label="Section 1", number="1"),
        Unit("p", "paragraph", "See Section 1 above.", 2, parent="s1", fields=see_fields),
    ])
    G = build_graph(doc, stages=FAST_STAGES)
    refs = sorted((u, v) for u, v, k in G.edges(keys=True) if k == REFERENCES)
    assert refs == [("p", "s1")]


def test_headings_and_captions_typed_as_plain_paragraphs_are_reference_targets(tmp_path):
    """A standard converted from plain text: no heading or caption styles, only typed numbers."""
    import docx

    import adapters

    lines = [
        "Abstract", "This document specifies a protocol; Section 2.1 lists its terms.",
        "1.  Introduction", "The protocol is in Section 3.",
        "2.  Terminology", "2.1.  Requirements Language", "The key words are in [RFC2119], Section 2.",
        "3.  Protocol", "As Section 2.1 says, and per Table 1, it works.",
        "Table 1: Codes", "Table 1 shows the codes.", "Appendix A.  Examples", "See Appendix A and Section 4.",
    ]
    d = docx.Document()
    for line in lines:
        d.add_paragraph(line)
    d.save(tmp_path / "plain.docx")
    doc = adapters.read_path(str(tmp_path / "plain.docx"))
    G = build_graph(doc, stages=FAST_STAGES)
    text = {u.id: u.text for u in doc.units}
    got = {(text[s][:14], d["evidence"], text[t]) for s, t, d in G.edges(data=True) if d["type"] == REFERENCES}
    assert got == {
        ("This document ", "Section 2.1", "2.1.  Requirements Language"),
        ("The protocol i", "Section 3", "3.  Protocol"),
        ("As Section 2.1", "Section 2.1", "2.1.  Requirements Language"),
        ("As Section 2.1", "Table 1", "Table 1: Codes"),
        ("Table 1 shows ", "Table 1", "Table 1: Codes"),
        ("See Appendix A", "Appendix A", "Appendix A.  Examples"),
    }
    assert [b["mention"] for b in G.graph["broken_references"]] == ["Section 4"]
