"""Propagation of structural edits: renumbering mentions, ranges, fields, captions, headings."""
from __future__ import annotations

import pytest

from adapters.model import Delete, InsertAfter, Move, Replace, SetText
from addin_backend.edits import apply_to_document, validate_edits
from addin_backend.edits.propagate import propagate
from addin_backend.errors import UnknownUnitError
from addin_backend.numbering import collect_entries, detect_schemes, renumber

from .propagate_docs import chapter_doc, delete, report_doc, standard_doc


def _result(doc, edits):
    ops = validate_edits(doc, edits)
    prop = propagate(doc, None, ops)
    after = apply_to_document(doc, ops + prop.edits)
    changed = {u.id: u.text for u in after.units if doc.get(u.id) is not None and doc.unit(u.id).text != u.text}
    return prop, after, changed


def test_schemes_of_the_report():
    schemes, shared = detect_schemes(collect_entries(report_doc()))
    assert schemes == {"section": ("hierarchy", "."), "figure": ("flat", ""), "equation": ("flat", ""),
                       "table": ("flat", ""), "theorem": ("flat", "")}
    assert shared is False


def test_delete_figure_renumbers_mentions_ranges_fields_and_captions():
    doc = report_doc()
    prop, after, changed = _result(doc, delete(doc, "f2", "c2"))
    assert changed == {
        "c3": "Figure 2: Results",
        "p1": "Figure 1 shows the pipeline and Figure 2 the results. Sections 2 and 3 give details; "
              "see Section 2.1 and Fig. 2(b).",
        "p2": "The method in Figure 2 uses Equation (1). Compare Figures 1 and 2.",
        "p3": "Table 1 lists the settings behind Figures 1-2 and Eq. (2).",
        "p4": "As Figure 2 shows, the results hold (Eq. (1) and Section 2).",
    }
    # minimal spans: only the digits (and the plural word of a range that now names one figure)
    assert sorted((e.unit, e.old, e.text) for e in prop.edits) == [
        ("c3", "3", "2"), ("p1", "2-3", "2"), ("p1", "3", "2"), ("p1", "Figures", "Figure"),
        ("p2", "3", "2"), ("p3", "3", "2"), ("p4", "3", "2"),
    ]
    field_edit = next(e for e in prop.edits if e.unit == "p4")
    assert field_edit.reason == "REFERENCES (reference field): Figure 3 is now Figure 2"  # words, no bookmark
    assert (field_edit.start, field_edit.end) == (10, 11)  # inside the field's shown result "Figure 3"
    assert all(e.source == "op-1" and e.id.startswith("prop-") for e in prop.edits)
    validate_edits(doc, validate_edits(doc, delete(doc, "f2", "c2")) + prop.edits)


def test_references_to_the_deleted_figure_are_reported_not_removed():
    doc = report_doc()
    prop, after, _ = _result(doc, delete(doc, "f2", "c2"))
    gone = [(f.unit, f.evidence, f.severity) for f in prop.findings if f.kind == "reference_to_deleted"]
    assert gone == [("p1", "Figures 2-3", "error"), ("p2", "Figure 2", "error"), ("p3", "Figures 1-3", "error")]
    assert "Figure 2" in after.unit("p2").text  # kept for the author to resolve
    msg = next(f.message for f in prop.findings if f.unit == "p2")
    assert msg == ("'Figure 2' refers to Figure 2, which the edit deletes; kept for you to resolve "
                   "(after renumbering, Figure 2 is the former Figure 3)")
    assert all(f.related == ["f2", "c2"] for f in prop.findings if f.kind == "reference_to_deleted")


def test_move_section_swaps_section_and_figure_numbers():
    doc = report_doc()
    prop, after, changed = _result(doc, [Move(unit="s3", before_unit="s2")])
    assert changed == {
        "p1": "Figure 1 shows the pipeline and Figures 2-3 the results. Sections 3 and 2 give details; "
              "see Section 3.1 and Fig. 2(b).",
        "p2": "The method in Figure 3 uses Equation (1). Compare Figures 1 and 2.",
        "c2": "Figure 3: Method",
        "c3": "Figure 2: Results",
        "p4": "As Figure 2 shows, the results hold (Eq. (1) and Section 3).",
    }
    assert prop.findings == []
    assert prop.to_json()["renumbered"] == {
        "Section 2": "Section 3", "Section 2.1": "Section 3.1", "Section 3": "Section 2",
        "Figure 2": "Figure 3", "Figure 3": "Figure 2",
    }


def test_inserted_caption_takes_its_place_in_the_sequence():
    doc = report_doc()
    prop, after, changed = _result(doc, [InsertAfter(unit="f1", text="Figure 2: Data flow", kind="caption")])
    assert changed["p3"] == "Table 1 lists the settings behind Figures 1, 3 and 4 and Eq. (2)."
    assert changed["p1"].startswith("Figure 1 shows the pipeline and Figures 3-4 the results.")
    assert changed["c3"] == "Figure 4: Results"
    assert prop.findings == []


def test_inserted_caption_with_a_wrong_number_is_flagged():
    doc = report_doc()
    prop, after, _ = _result(doc, [InsertAfter(unit="f1", text="Figure 9: Data flow", kind="caption")])
    [f] = prop.findings
    assert (f.kind, f.severity, f.suggestion) == ("numbering_mismatch", "warning", "Figure 2")
    assert after.unit(f.unit).text == "Figure 9: Data flow"


def test_inserted_heading_renumbers_the_sections_after_it():
    doc = report_doc()
    prop, after, changed = _result(
        doc, [InsertAfter(unit="c1", text="Background", kind="section", style="Heading 1")])
    assert changed == {
        "p1": "Figure 1 shows the pipeline and Figures 2-3 the results. Sections 3 and 4 give details; "
              "see Section 3.1 and Fig. 3(b).",
        "p4": "As Figure 3 shows, the results hold (Eq. (1) and Section 3).",
    }


def test_typed_equation_numbers_and_equation_ranges():
    doc = report_doc()
    prop, after, changed = _result(doc, delete(doc, "eq1"))
    assert changed == {
        "eq2": "d = 2a\t(1)",
        "p3": "Table 1 lists the settings behind Figures 1-3 and Eq. (1).",
        "p7": "Theorem 2 and Equation (1) close the argument.",
    }
    assert [(f.unit, f.evidence) for f in prop.findings] == [
        ("p2", "Equation (1)"), ("p4", "Eq. (1)"), ("p7", "Equations (1)-(2)")]


def test_typed_theorem_heads_and_mentions():
    doc = report_doc()
    prop, after, changed = _result(doc, delete(doc, "p5"))
    assert changed == {"p6": "Theorem 1. Every ledger grows, by Theorem 1.",
                       "p7": "Theorem 1 and Equations (1)-(2) close the argument."}
    [f] = prop.findings
    assert (f.kind, f.unit, f.evidence, f.start, f.end) == ("reference_to_deleted", "p6", "Theorem 1", 34, 43)


def test_typed_clause_numbers_in_headings():
    doc = standard_doc()
    prop, after, changed = _result(doc, delete(doc, "c2", "p21"))
    assert changed == {
        "p11": "This clause scopes the protocol; Clause 2 defines the handshake.",
        "c3": "2 Handshake", "c31": "2.1 Keys", "c4": "3 Transfer", "c41": "3.1 Framing",
        "p31": "Keys rotate as specified in 3.1 and 2.1.",
        "p41": "Frames follow Clause 2.1.",
    }


def test_lists_are_renumbered_item_by_item():
    doc = standard_doc()
    prop, after, changed = _result(doc, [Move(unit="c4", before_unit="c3")])
    assert changed["p21"] == "Terms are defined here and used in Clauses 4 and 3."
    assert changed["c4"] == "3 Transfer" and changed["c3"] == "4 Handshake"


def test_per_chapter_numbering():
    doc = chapter_doc()
    prop, after, changed = _result(doc, [Move(unit="s3", before_unit="s2")])
    assert changed == {
        "p1": "Figures 3.1 and 3.2 and Figure 2.1 are discussed later.",
        "c31": "Figure 2.1: Speed", "c21": "Figure 3.1: Layout", "c22": "Figure 3.2: Flow",
        "p3": "Figure 2.1 repeats Figure 3.2.",
    }


def test_numbers_that_follow_no_scheme_are_left_alone():
    doc = report_doc()
    doc.unit("c3").text, doc.unit("c3").label, doc.unit("f3").label = "Figure 5: Results", "Figure 5", "Figure 5"
    prop, after, changed = _result(doc, delete(doc, "f1", "c1"))
    assert [e for e in prop.edits if "Figure" in e.reason] == []
    assert [(f.kind, f.severity) for f in prop.findings if f.kind == "numbering_not_recomputed"] == [
        ("numbering_not_recomputed", "info")]
    assert renumber(doc, after).unsupported == {"figure": "its numbers do not follow document order"}


def test_propagation_never_overlaps_the_original_edits():
    doc = report_doc()
    text = doc.unit("p2").text
    at = text.index("Figures 1 and 3")
    user = Replace(unit="p2", start=at, end=at + len("Figures 1 and 3"), text="Figures 1 and 3 (revised)",
                before=text)
    prop, after, changed = _result(doc, [user] + delete(doc, "f2", "c2"))
    assert after.unit("p2").text == "The method in Figure 2 uses Equation (1). Compare Figures 1 and 3 (revised)."
    skipped = [f for f in prop.findings if f.kind == "propagation_skipped"]
    assert [(f.unit, f.evidence, f.suggestion) for f in skipped] == [("p2", "3", "2")]
    assert all(e.source == "op-2" for e in prop.edits)  # the deletion, not the user's replace


def test_a_rewritten_unit_gets_no_propagated_edit():
    doc = report_doc()
    rewrite = SetText(unit="p4", text="Figure 3 is gone from here too.", before=doc.unit("p4").text)
    prop, after, changed = _result(doc, [rewrite] + delete(doc, "f2", "c2"))
    assert all(e.unit != "p4" for e in prop.edits)
    assert after.unit("p4").text == "Figure 3 is gone from here too."


def test_unknown_units_are_a_clear_error():
    with pytest.raises(UnknownUnitError):
        propagate(report_doc(), None, [Delete(unit="nope")])


def test_text_only_edits_propagate_nothing_structural():
    doc = report_doc()
    text = doc.unit("p5").text
    at = text.index("balances")
    prop = propagate(doc, None, [Replace(unit="p5", start=at, end=at + 8, text="tallies", before=text)])
    assert prop.edits == [] and prop.findings == []



def _odf_ref(doc, uid: str, where: str, shown: str, target: str, fmt: str, kind: str = "bookmark_ref") -> None:
    """An ODF reference field showing ``shown`` at the start of ``where`` (unique in ``uid``)."""
    from adapters.model import Field

    start = doc.unit(uid).text.index(where)
    assert doc.unit(uid).text.startswith(shown, start)
    doc.unit(uid).fields.append(Field(
        kind, f'text:{kind.replace("_", "-")} text:ref-name="r_{target}" text:reference-format="{fmt}"',
        f"r_{target}", target, shown, start, start + len(shown)))


def test_reference_fields_renumber_by_what_they_show():
    """A field re-renders as LibreOffice does: a number or a chapter changes; the text of a
    heading numbered automatically, a page number and a caption's title do not."""
    from .docs import make_doc

    doc = make_doc([
        ("s1", "section", "Overview", None, "Section 1", "1", "Heading 1", None, 1),
        ("s2", "section", "Phase 2 rollout", None, "Section 2", "2", "Heading 1", None, 1),
        ("s3", "section", "Results", None, "Section 3", "3", "Heading 1", None, 1),
        ("c1", "caption", "Figure 1: Chart", "s3", "Figure 1", "1", "Caption"),
        ("p1", "paragraph", "See section 2 (p. 2), 'Phase 2 rollout', chapter 3; the figure of chapter 3, "
         "'Chart' and Figure 1.", "s3"),
    ], fmt="odt")
    _odf_ref(doc, "p1", "2 (p.", "2", "s2", "number")
    _odf_ref(doc, "p1", "2),", "2", "s2", "page")
    _odf_ref(doc, "p1", "Phase 2 rollout'", "Phase 2 rollout", "s2", "text")
    _odf_ref(doc, "p1", "3;", "3", "s3", "chapter")
    _odf_ref(doc, "p1", "3, 'Chart'", "3", "c1", "chapter", kind="sequence_ref")
    _odf_ref(doc, "p1", "Chart'", "Chart", "c1", "caption", kind="sequence_ref")
    _odf_ref(doc, "p1", "Figure 1.", "Figure 1", "c1", "category-and-value", kind="sequence_ref")
    prop, after, changed = _result(doc, delete(doc, "s1"))
    assert changed == {"p1": "See section 1 (p. 2), 'Phase 2 rollout', chapter 2; the figure of chapter 2, "
                             "'Chart' and Figure 1."}
    assert prop.findings == []
