"""Propagation of renames (every form, dependents of a renamed definition) and value changes."""
from __future__ import annotations

import pytest

from adapters.model import Rename, Replace
from addin_backend.edits import apply_to_document, validate_edits
from addin_backend.edits.intents import renames, value_changes
from addin_backend.edits.propagate import propagate
from addin_backend.edits.rules import propose

from .docs import contract, contract_doc, make_doc  # noqa: F401  (fixture)


def credits_doc():
    return make_doc([
        ("s1", "section", "Definitions", None, "Section 1", "1", "Heading 1", None, 1),
        ("d1", "paragraph", '"Service Credit" means a refund of fees for missed targets.', "s1"),
        ("p1", "paragraph", "A Service Credit is paid monthly. Service Credits accrue; SERVICE CREDITS are final.", "s1"),
        ("p2", "paragraph", "The Service Credit\u2019s value is capped at the monthly fee.", "s1"),
        ("c1", "caption", "Table 1: Service Credit levels", "s1", "Table 1", "1", "Caption"),
        ("tb", "table", "Level\tService Credits\nGold\t10%", "s1", "Table 1", "1"),
        ("p3", "paragraph", "The Customer Service Credit Union is unrelated.", "s1"),
        ("s2", "section", "Fees", None, "Section 2", "2", "Heading 1", None, 1),
        ("p4", "paragraph", "Fees exclude any Service Credit.", "s2"),
    ])


def rep(doc, uid, old, new, occurrence=0, reason="use 'Fee Credit'"):
    text = doc.unit(uid).text
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(old, at + 1)
    return Replace(unit=uid, start=at, end=at + len(old), text=new, before=text, reason=reason)


def _after(doc, edits, prop):
    return apply_to_document(doc, validate_edits(doc, edits) + prop.edits)


def test_a_renamed_definition_reaches_every_form_and_every_dependent():
    doc = credits_doc()
    edits = [rep(doc, "d1", "Service Credit", "Fee Credit"), rep(doc, "p1", "Service Credit", "Fee Credit")]
    prop = propagate(doc, None, edits)
    after = _after(doc, edits, prop)
    assert after.unit("p1").text == "A Fee Credit is paid monthly. Fee Credits accrue; FEE CREDITS are final."
    assert after.unit("p2").text == "The Fee Credit\u2019s value is capped at the monthly fee."
    assert after.unit("c1").text == "Table 1: Fee Credit levels"
    assert after.unit("tb").text == "Level\tFee Credits\nGold\t10%"
    assert after.unit("p4").text == "Fees exclude any Fee Credit."
    assert after.unit("p3").text == "The Customer Service Credit Union is unrelated."  # a longer name
    reasons = {e.unit: e.reason for e in prop.edits}
    assert reasons["p2"] == "DEPENDS: uses 'Service Credit', whose definition is renamed to 'Fee Credit'"
    # a table's cell naming the term uses it (its cell ends the name): a dependent like the prose
    assert reasons["tb"] == "DEPENDS: uses 'Service Credit', whose definition is renamed to 'Fee Credit'"
    assert reasons["p1"] == "rename: another form of 'Service Credit' in a renamed unit"
    assert {e.source for e in prop.edits} == {"op-1"}
    assert prop.findings == []


@pytest.mark.models
def test_the_graph_dependents_of_a_renamed_definition():
    from addin_backend.graph import build_graph

    doc = credits_doc()
    G = build_graph(doc, semantic=False)
    edits = [rep(doc, "d1", "Service Credit", "Fee Credit"), rep(doc, "p1", "Service Credit", "Fee Credit")]
    prop = propagate(doc, G, edits)
    assert sorted({e.unit for e in prop.edits}) == ["c1", "p1", "p2", "p4", "tb"]


def test_a_local_replacement_outside_the_definition_stays_local():
    doc = credits_doc()
    edits = [rep(doc, "p4", "Service Credit", "Fee Credit")]
    assert renames(doc, validate_edits(doc, edits), defined=["Service Credit"])[0].old == "Service Credit"
    prop = propagate(doc, None, edits)
    assert prop.edits == []


def test_a_single_replacement_of_an_undefined_phrase_is_not_a_rename():
    doc = credits_doc()
    edits = [rep(doc, "p4", "Fees exclude", "Fees include")]
    assert renames(doc, validate_edits(doc, edits)) == []


def test_rules_engine_rename_leaves_only_the_field_result(contract):
    proposal = propose(contract, "Rename 'widget' to 'gadget' everywhere", author="Ana")
    assert len(proposal.edits) == 11
    prop = propagate(contract, None, proposal.edits)
    [e] = prop.edits  # p8's REF field shows the caption "Widget lifecycle" that the rename changed
    assert (e.unit, e.start, e.end, e.text) == ("p8", 15, 21, "Gadget")
    assert prop.findings == []


def test_explicit_rename_operation_is_expanded_and_complete(contract):
    prop = propagate(contract, None, [Rename(old="widget", text="gadget")])
    assert [e.unit for e in prop.edits] == ["p8"]  # every other form was reached by expand_rename


def test_value_change_lists_the_other_statements_of_the_quantity(contract):
    proposal = propose(contract, "Change the retention period from 30 days to 45 days", author="Ana")
    assert [(e.unit, e.old, e.text) for e in proposal.edits] == [("p3", "30", "45")]
    prop = propagate(contract, None, proposal.edits)
    assert prop.edits == []
    assert [(f.kind, f.unit, f.evidence, f.suggestion) for f in prop.findings] == [
        ("same_value", "p1", "thirty (30)", "forty-five (45)"),
        ("same_value", "p4", "30", "45"),
        ("same_value", "li1", "30", "45"),
        ("same_value", "p5", "30", "45"),
        ("same_value", "p6", "thirty", "forty-five"),
    ]
    f = prop.findings[0]
    assert contract.unit("p1").text[f.start:f.end] == "thirty (30)" and f.related == ["p3"]


def test_values_the_engine_already_changed_are_not_listed(contract):
    proposal = propose(contract, "Change 30 days to 45 days", author="Ana")
    changed = {e.unit for e in proposal.edits}
    assert changed == {"p1", "p3", "p4", "li1", "p5", "p6"}
    prop = propagate(contract, None, proposal.edits)
    assert prop.findings == [] and prop.edits == []


def test_value_changes_read_the_unit_after_a_bare_number():
    doc = contract_doc()
    text = doc.unit("p4").text
    at = text.index("30")
    [vc] = value_changes([Replace(unit="p4", start=at, end=at + 2, text="45", before=text)])
    assert (vc.old.number, vc.old.tail, vc.new.number, vc.new.tail) == ("30", "days", "45", "days")
