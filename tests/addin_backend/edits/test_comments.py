"""The comment texts: what changed and why, in words a reviewer reads."""
from __future__ import annotations

from adapters.model import Delete, Document, Replace, Unit
from addin_backend.edits.comments import NEEDS_HUMAN, comment_notes, note_map, operation_text
from addin_backend.findings import Finding


def _doc() -> Document:
    units = [
        Unit("sec-1", "section", "Definitions", 0, label="Section 2.1", number="2.1", title="Definitions"),
        Unit("p-def", "paragraph", "We define net load as demand minus solar output.", 1, parent="sec-1"),
        Unit("cap-1", "caption", "Figure 2: Daily demand", 2, label="Figure 2", number="2", title="Daily demand"),
        Unit("cap-2", "caption", "Figure 3: Weekly demand", 3, label="Figure 3", number="3", title="Weekly demand"),
        Unit("p-ref", "paragraph", "The weekly profile in Figure 3 repeats the net load peak.", 4),
    ]
    return Document("docx", units)


INSTR = "Delete Figure 2"


def test_a_renumbered_reference_says_which_deletion_made_it_necessary():
    doc = _doc()
    op = Delete("cap-1", before=doc.unit("cap-1").text, id="op-1", reason=INSTR)
    text = doc.unit("p-ref").text
    at = text.index("3")
    prop = Replace("p-ref", text="2", start=at, end=at + 1, before=text, id="prop-1", source="op-1",
                reason="REFERENCES: Figure 3 is now Figure 2")
    ops = {"op-1": op, "prop-1": prop}
    assert operation_text(doc, op, ops, INSTR) == "Deleted Figure 2 'Daily demand' (instruction: Delete Figure 2)"
    assert operation_text(doc, prop, ops, INSTR) == (
        "Figure 3 → Figure 2: Figure 2 'Daily demand' was deleted (reference; instruction: Delete Figure 2)")


def test_a_rename_carried_to_a_dependent_unit_names_where_the_term_is_defined():
    doc = _doc()
    d = doc.unit("p-def").text
    op = Replace("p-def", text="residual load", start=d.index("net"), end=d.index("net") + 8, before=d,
              id="op-1", reason="Rename net load")
    t = doc.unit("p-ref").text
    prop = Replace("p-ref", text="residual load", start=t.index("net"), end=t.index("net") + 8, before=t,
                id="prop-1", source="op-1", reason="DEPENDS: uses 'net load', whose definition is renamed to 'residual load'")
    got = operation_text(doc, prop, {"op-1": op, "prop-1": prop}, "Rename net load")
    assert got == "Renamed with 'net load' → 'residual load' (defined in Section 2.1; instruction: Rename net load)"
    plural = Replace("p-ref", text="residual loads", start=0, end=9, before="net loads peak", id="prop-2",
                  source="op-1", reason="DEPENDS: uses 'net load'")
    assert operation_text(doc, plural, {"op-1": op}, "Rename net load") == (
        "'net loads' → 'residual loads': renamed with 'net load' → 'residual load' "
        "(defined in Section 2.1; instruction: Rename net load)")


def test_notes_one_per_operation_replies_on_request_and_findings_at_their_place():
    doc = _doc()
    op = Delete("cap-1", before=doc.unit("cap-1").text, id="op-1", reason=INSTR, author="Ada", date="D")
    t = doc.unit("p-ref").text
    prop = Replace("p-ref", text="2", start=t.index("3"), end=t.index("3") + 1, before=t, id="prop-1",
                source="op-1", reason="REFERENCES: Figure 3 is now Figure 2", author="Ada", date="D")
    finding = Finding("reference_to_deleted", "error", "p-ref", "'Figure 2' refers to a deleted figure",
                      "Figure 2", start=10, end=18)
    info = Finding("numbering_gap", "info", "cap-2", "a gap")
    notes = comment_notes(doc, [op, prop], [finding, info], instruction=INSTR)
    assert [(n.edit, n.unit, n.parent) for n in notes] == [("op-1", None, None), ("prop-1", None, None),
                                                           (None, "p-ref", None)]
    assert {n.author for n in notes} == {"Ada"} and {n.initials for n in notes} == {"LEDGER"}
    assert notes[2].text.startswith("To check: ") and notes[2].evidence == "Figure 2"
    assert note_map(notes) == {"op-1": notes[0].text, "prop-1": notes[1].text}
    threaded = comment_notes(doc, [op, prop], [], instruction=INSTR, threads=True)
    assert (threaded[1].edit, threaded[1].parent) == ("op-1", "c-op-1")
    assert threaded[1].text.startswith("paragraph 'The weekly profile in Figure 3")
    assert "reference_to_deleted" in NEEDS_HUMAN and "numbering_gap" not in NEEDS_HUMAN
