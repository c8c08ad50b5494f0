"""Verification after an edit: reference integrity, numbering, terminology, semantic drift."""
from __future__ import annotations

import numpy as np
import pytest

from adapters.model import InsertAfter, Move, Rename, Replace, SetText
from addin_backend.edits import apply_to_document, validate_edits
from addin_backend.edits.propagate import propagate
from addin_backend.findings import FINDING_KINDS, Finding
from addin_backend.graph import build_graph
from addin_backend.verify.after_edit import DRIFT_THRESHOLD, semantic_drift, verify

from ..edits.docs import make_doc
from ..edits.propagate_docs import delete, report_doc
from ..edits.test_propagate_terms import credits_doc, rep


def _verify(doc, edits, *, propagated=True, G=None):
    ops = validate_edits(doc, edits)
    if propagated:
        ops = ops + propagate(doc, G, ops).edits
    return verify(doc, apply_to_document(doc, ops), G, ops, semantic=False)


def _kinds(findings):
    return [(f.kind, f.severity, f.unit, f.evidence) for f in findings]


def test_clean_bill_after_propagation():
    doc = report_doc()
    assert _verify(doc, [Move(unit="s3", before_unit="s2")]) == []
    assert _verify(doc, [InsertAfter(unit="f1", text="Figure 2: Data flow", kind="caption")]) == []


def test_a_move_without_propagation_breaks_references():
    doc = report_doc()
    got = _kinds(_verify(doc, [Move(unit="s3", before_unit="s2")], propagated=False))
    assert got == [
        ("broken_reference", "error", "p1", "Section 2.1"),
        ("reference_retargeted", "error", "p1", "Fig. 3"),
        ("reference_retargeted", "error", "p4", "Section 2"),
        ("stale_field", "warning", "p4", "Figure 3"),
        ("reference_retargeted", "error", "p2", "Figure 2"),
        ("reference_retargeted", "error", "p2", "Figures 1 and 3"),
        ("numbering_mismatch", "warning", "c3", "3"),
        ("numbering_mismatch", "warning", "c2", "2"),
    ]  # "Sections 2 and 3" still names both sections (they swap numbers): not a finding
    broken = _verify(doc, [Move(unit="s3", before_unit="s2")], propagated=False)[0]
    assert broken.message.endswith("(the former Section 2.1 is now Section 3.1)")
    assert broken.suggestion == "Section 3.1"
    f = _verify(doc, [Move(unit="s3", before_unit="s2")], propagated=False)[4]
    assert f.message == "'Figure 2' pointed at Figure 2 before the edit and now reads as a reference to Figure 2 (formerly Figure 3)"


def test_references_to_a_deleted_unit():
    doc = report_doc()
    got = _kinds(_verify(doc, delete(doc, "c4", "tb1")))
    assert got == [("reference_to_deleted", "error", "p3", "Table 1")]
    doc = report_doc()
    got = _kinds(_verify(doc, delete(doc, "f3", "c3")))
    assert ("reference_to_deleted", "error", "p4", "Figure 3") in got  # the field
    assert all(k == "reference_to_deleted" for k, *_ in got)


def test_a_new_broken_mention_is_reported():
    doc = report_doc()
    text = doc.unit("p5").text
    got = _kinds(_verify(doc, [Replace(unit="p5", start=len(text), end=len(text), text=" See Figure 8.",
                                    before=text)]))
    assert got == [("broken_reference", "error", "p5", "Figure 8")]


def test_the_old_term_left_in_a_dependent_is_an_error():
    doc = credits_doc()
    edits = [rep(doc, "d1", "Service Credit", "Fee Credit"), rep(doc, "p1", "Service Credit", "Fee Credit")]
    got = _kinds(_verify(doc, edits, propagated=False))
    assert got == [
        ("old_term", "error", "p1", "Service Credits"),
        ("old_term", "error", "p1", "SERVICE CREDITS"),
        ("old_term", "error", "p2", "Service Credit"),
        ("old_term", "error", "c1", "Service Credit"),
        ("old_term", "error", "tb", "Service Credits"),  # its cell uses the term: a dependent
        ("old_term", "info", "p3", "Service Credit"),
        ("old_term", "error", "p4", "Service Credit"),
    ]
    after = _kinds(_verify(doc, edits))
    assert after == [("old_term", "info", "p3", "Service Credit")]  # "Customer Service Credit Union"


def test_a_new_term_containing_the_old_one_is_not_flagged():
    doc = credits_doc()
    edits = [Rename(old="Service Credit", text="Service Credit Note")]
    assert [f for f in _verify(doc, edits) if f.kind == "old_term"] == []


def _bag(texts):
    """A bag-of-words embedding (deterministic, for the drift arithmetic)."""
    vocab = sorted({w for t in texts for w in t.lower().split()})
    rows = np.array([[t.lower().split().count(w) for w in vocab] for t in texts], dtype=np.float32)
    return rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)


def test_drift_arithmetic_with_a_bag_of_words():
    doc = make_doc([
        ("p1", "paragraph", "Service credits are paid monthly to the customer.", None),
        ("p2", "paragraph", "Service credits are capped at the monthly fee of the customer.", None),
    ])
    G = build_graph(doc, stages=("contains", "references"))
    G.add_edge("p2", "p1", key="RELATED", type="RELATED", evidence="", score=0.9)
    rewrite = SetText(unit="p2", text="Weather in spring is mild and sunny.", before=doc.unit("p2").text)
    [f] = semantic_drift(doc, apply_to_document(doc, [rewrite]), G, ["p2"], embed=_bag)
    assert (f.kind, f.severity, f.unit, f.related) == ("semantic_drift", "warning", "p2", ["p1"])
    assert "RELATED" in f.message and "drop" in f.message
    small = Replace(unit="p2", start=0, end=0, text="All ", before=doc.unit("p2").text)
    assert semantic_drift(doc, apply_to_document(doc, [small]), G, ["p2"], embed=_bag) == []


def test_a_rename_with_propagation_in_its_units_embeds_nothing():
    """A unit whose own edits only rename a term is not drift-checked, whatever propagation adds
    to it (a listing's copy of a statement renamed elsewhere): a rename loads no embedding model.
    A rewrite of the same unit still is."""
    doc = make_doc([
        ("p1", "paragraph", "Service credits are paid monthly to the customer.", None),
        ("p2", "paragraph", "Service credits are capped at the monthly fee. See the list: paid monthly.", None),
    ])
    G = build_graph(doc, stages=("contains", "references"))
    G.add_edge("p2", "p1", key="RELATED", type="RELATED", evidence="", score=0.9)
    text = doc.unit("p2").text
    renamed = [rep(doc, "p2", "Service credits", "Fee credits", reason='Rename "service credit" to "fee credit"'),
               rep(doc, "p1", "Service credits", "Fee credits", reason='Rename "service credit" to "fee credit"')]
    at = text.index("paid monthly")
    copied = Replace(unit="p2", start=at, end=at + len("paid monthly"), text="paid each month", before=text,
                     reason="REFERENCES (listing): the list copies p1", id="prop-1")
    embedded: list[list[str]] = []

    def embed(texts):
        embedded.append(list(texts))
        return _bag(texts)

    ops = validate_edits(doc, [*renamed, copied])
    verify(doc, apply_to_document(doc, ops), G, ops, semantic=True, embed=embed)
    assert embedded == []
    rewrite = rep(doc, "p2", "capped at the monthly fee", "waived in spring")
    ops = validate_edits(doc, [renamed[0], rewrite, copied])
    verify(doc, apply_to_document(doc, ops), G, ops, semantic=True, embed=embed)
    assert embedded and doc.unit("p2").text in embedded[0]


@pytest.mark.models
def test_drift_with_minilm():
    doc = credits_doc()
    G = build_graph(doc, stages=("contains", "references", "depends"))
    assert ("p2", "d1") in {(u, v) for u, v, k in G.edges(keys=True) if k == "DEPENDS"}
    rewrite = SetText(unit="p2", text="The football season starts in August with a home match.",
                   before=doc.unit("p2").text)
    after = apply_to_document(doc, [rewrite])
    found = verify(doc, after, G, [rewrite], semantic=True)
    drift = [f for f in found if f.kind == "semantic_drift"]
    assert [f.unit for f in drift] == ["p2"] and "d1" in drift[0].related
    text = doc.unit("p2").text
    at = text.index("monthly fee")
    benign = Replace(unit="p2", start=at, end=at + len("monthly fee"), text="annual fee", before=text)
    assert verify(doc, apply_to_document(doc, [benign]), G, [benign], semantic=True) == []
    assert 0.05 < DRIFT_THRESHOLD < 0.3


def test_finding_json_and_kinds():
    f = Finding("old_term", "warning", "p1", "left", "Widget", ["p2"], 3, 9, "Gadget")
    assert f.to_json() == {"kind": "old_term", "code": "old_term", "severity": "warning", "unit": "p1", "message": "left",
                           "evidence": "Widget", "related": ["p2"], "start": 3, "end": 9, "suggestion": "Gadget"}
    with pytest.raises(ValueError):
        Finding("no_such_kind", "error", None, "x")
    with pytest.raises(ValueError):
        Finding("old_term", "fatal", None, "x")
    assert "semantic_drift" in FINDING_KINDS


def test_a_heading_that_starts_with_a_year_is_not_a_number():
    doc = make_doc([
        ("s1", "section", "Intro", None, "Section 1", "1", "Heading 1", None, 1),
        ("s2", "section", "2020 Review", None, "Section 2", "2", "Heading 1", None, 1),
        ("p", "paragraph", "See Section 2.", "s2"),
    ])
    assert _verify(doc, [Move(unit="s2", before_unit="s1")]) == []


def test_a_retarget_the_edit_asked_for_is_no_finding():
    # a stale_reference fix turns "Figure 2" into "Figure 3": the edit's own words name the new
    # target; the same number written by propagation is still checked (it must keep the target)
    doc = report_doc()
    at = doc.unit("p2").text.index("Figure 2") + len("Figure ")
    fix = Replace(unit="p2", start=at, end=at + 1, text="3", reason="check stale_reference: names Figure 3",
                  source="check")
    assert [f for f in _verify(doc, [fix], propagated=False) if f.kind == "reference_retargeted"] == []
    prop = Replace(unit="p2", start=at, end=at + 1, text="3", reason="REFERENCES: renumbered", source="op-1",
                   id="prop-1")
    ops = validate_edits(doc, [prop])
    got = verify(doc, apply_to_document(doc, ops), None, ops, semantic=False)
    assert [(f.kind, f.evidence) for f in got if f.kind == "reference_retargeted"] == [
        ("reference_retargeted", "Figure 3")]


def test_whether_the_edited_document_numbers_its_sections_is_read_over_all_its_headings():
    # STIX: 4 typed heading numbers among some 300 unnumbered headings; a deletion renumbered those
    # 4, and the index of the renumbered units alone said "numbers its sections", so citations of
    # other specifications ("section 7") became broken references after any deletion
    from addin_backend.numbering import Renumbering
    from addin_backend.verify.after_edit import after_index

    rows = [(f"h{i}", "section", f"Topic {i}", None, None, None, "Heading 1", None, 1) for i in range(30)]
    doc = make_doc(rows + [("b", "section", "9.1 Beta", None, "Section 9.1", "9.1", "Heading 2", None, 2)])
    renum = Renumbering(before=[], after=[], changes={}, deleted={}, numbers={"b": ("section", "9.1")},
                        schemes={}, shared=False, unsupported={})
    assert after_index(doc, renum).numbered_sections is False
    numbered = make_doc([(f"h{i}", "section", f"Topic {i}", None, f"Section {i}", str(i), "Heading 1", None, 1)
                         for i in range(1, 30)])
    assert after_index(numbered, renum).numbered_sections is True
