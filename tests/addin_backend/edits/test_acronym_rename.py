"""An acronym renamed with its expansion (issue 21b, item 1).

The rule: the expansion follows the acronym only where the user gave the new expansion; a
rename that gives only one of them renames that one and verification warns where the written
expansion no longer fits (nothing is made up).
"""
from __future__ import annotations

import re

import pytest

from adapters.model import Document, Unit
from addin_backend.edits import apply_to_document
from addin_backend.edits.renaming import acronym_parts, initials_fit
from addin_backend.edits.rules import propose
from addin_backend.verify.after_edit import verify


def doc_of(*texts: str) -> Document:
    return Document("docx", [Unit(f"p{i}", "paragraph", t, i, style="Normal") for i, t in enumerate(texts)])


def rename(doc: Document, instruction: str):
    p = propose(doc, instruction, author="t")
    after = apply_to_document(doc, p.edits)
    findings = verify(doc, after, None, p.edits, semantic=False)
    return p, after, [f for f in findings if f.kind == "expansion_mismatch"]


@pytest.mark.parametrize("term, parts", [
    ("Transmission Sequence Number (TSN)", ("TSN", "Transmission Sequence Number")),
    ("TSN (Transmission Sequence Number)", ("TSN", "Transmission Sequence Number")),
    ('"SSN" (Stream Sequence Number)', ("SSN", "Stream Sequence Number")),
    ("TSN", ("TSN", None)),
    ("stream sequence number", (None, "stream sequence number")),
    ("widget", (None, None)),
    ("the widget (new)", (None, None)),  # no acronym in the parentheses
])
def test_a_term_names_an_acronym_its_expansion_or_both(term, parts):
    assert acronym_parts(term) == parts


def test_an_acronym_may_take_more_than_one_letter_of_a_word():
    assert initials_fit("PTO", "Probe Timeout") and initials_fit("WAL", "Write-Ahead Log")
    assert not initials_fit("TO", "Probe Timeout")  # every long word starts a letter
    assert not initials_fit("PT", "Probe Timeout Value")
    assert not initials_fit("SSN", "Transmission Sequence Number")


TEXT = ("Each chunk carries a Transmission Sequence Number (TSN). The receiver acknowledges TSNs in order.",
        "A transmission sequence number wraps around; the TSN is 32 bits.")


@pytest.mark.parametrize("instruction", [
    'Rename "TSN (Transmission Sequence Number)" to "SSN (Stream Sequence Number)"',
    'Rename "Transmission Sequence Number (TSN)" to "Stream Sequence Number (SSN)" everywhere',
    'Rename "TSN" to "SSN (Stream Sequence Number)"',
    'Rename "TSN" to "SSN" (Stream Sequence Number)',
    'Rename "transmission sequence number" to "stream sequence number (SSN)"',
])
def test_both_given_renames_the_acronym_and_its_expansion_in_every_form(instruction):
    p, after, mismatch = rename(doc_of(*TEXT), instruction)
    assert [u.text for u in after.units] == [
        "Each chunk carries a Stream Sequence Number (SSN). The receiver acknowledges SSNs in order.",
        "A stream sequence number wraps around; the SSN is 32 bits.",
    ]
    assert mismatch == [] and p.warnings == []
    assert "'TSN' to 'SSN'" in p.explanation and "'Transmission Sequence Number' to 'Stream Sequence Number'" in p.explanation


def test_the_new_expansion_is_written_in_the_case_the_document_writes_the_old_one():
    doc = doc_of("Each chunk carries a transmission sequence number (TSN); a TSN wraps.")
    _, after, mismatch = rename(doc, 'Rename "TSN" to "SSN (Stream Sequence Number)"')
    assert after.units[0].text == "Each chunk carries a stream sequence number (SSN); a SSN wraps."
    assert mismatch == []


def test_only_the_acronym_renamed_leaves_the_expansion_and_warns():
    _, after, mismatch = rename(doc_of(*TEXT), 'Rename "TSN" to "SSN"')
    assert "Transmission Sequence Number (SSN)" in after.units[0].text  # no expansion made up
    [f] = mismatch
    assert f.unit == "p0" and f.evidence == "Transmission Sequence Number (SSN)" and "spells TSN" in f.message


def test_only_the_expansion_renamed_leaves_the_acronym_and_warns():
    _, after, mismatch = rename(doc_of(*TEXT), 'Rename "Transmission Sequence Number" to "Stream Sequence Number"')
    assert "Stream Sequence Number (TSN)" in after.units[0].text and "the TSN is" in after.units[1].text
    [f] = mismatch
    assert f.evidence == "Stream Sequence Number (TSN)" and "TSN" in f.message


def test_the_old_pair_to_a_new_acronym_alone_renames_the_acronym_and_warns():
    p, after, mismatch = rename(doc_of(*TEXT), 'Rename "Transmission Sequence Number (TSN)" to "SSN"')
    assert "Transmission Sequence Number (SSN)" in after.units[0].text
    assert [f.evidence for f in mismatch] == ["Transmission Sequence Number (SSN)"]


def test_a_new_pair_whose_letters_do_not_fit_is_renamed_as_given_and_said():
    p, after, _ = rename(doc_of(*TEXT), 'Rename "TSN" to "XQ (Stream Sequence Number)"')
    assert "Stream Sequence Number (XQ)" in after.units[0].text
    assert any("'XQ' does not spell 'Stream Sequence Number'" in w for w in p.warnings)


def test_a_document_that_never_spells_the_acronym_out_is_said():
    p, after, _ = rename(doc_of("The TSN wraps around."), 'Rename "TSN" to "SSN (Stream Sequence Number)"')
    assert after.units[0].text == "The SSN wraps around."
    assert any("never spells out TSN" in w for w in p.warnings)


# --- a real standard --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rfc9002():
    from adapters import read
    from addin_backend.graph.build import build_graph
    from tests.conftest import DEVSET_DOCS

    path = DEVSET_DOCS / "rfc9002.A.docx"
    if not path.exists():
        pytest.skip(f"the development set is not at {path.parent}")
    doc = read(path.read_bytes())
    return doc, build_graph(doc, semantic=False)


def test_rfc9002_probe_timeout_renamed_with_its_acronym(rfc9002):
    from addin_backend.edits.pipeline import plan_edit

    doc, G = rfc9002
    plan = plan_edit(doc, G, 'Rename "PTO (Probe Timeout)" to "RTD (Retransmission Timer Deadline)"', semantic=False)
    after = apply_to_document(doc, plan.edits)
    prose = [u for u in after.units if u.meta.get("absent_in") != "accepted" and "code" not in (u.style or "").lower()
             and "pre" not in (u.style or "").lower()]
    text = "\n".join(u.text for u in prose)
    # the document spells it out as "Probe Timeout (PTO)" and "probe timeout (PTO; see ...)"
    assert "Retransmission Timer Deadline (RTD)" in text and "retransmission timer deadline (RTD;" in text
    assert not re.search(r"(?i)\bprobe timeouts?\b", text)
    assert not [f for f in plan.findings if f.kind == "expansion_mismatch"]
    olds = {e.before[e.start:e.end] for e in plan.edits if e.op == "replace" and e.before}
    assert {"PTO", "PTOs", "Probe Timeout", "probe timeout"} <= olds

    # the acronym alone: the expansion stays and the reviewer is told
    plan = plan_edit(doc, G, 'Rename "PTO" to "RTD"', semantic=False)
    assert [f.evidence for f in plan.findings if f.kind == "expansion_mismatch"] == ["Probe Timeout (RTD)"]
