"""Dangling anaphors after an edit, decided with the real spaCy pipeline."""
from __future__ import annotations

import pytest

from adapters.model import Delete, Document, SetText, Unit
from addin_backend.verify.anaphora import dangling_anaphora, noun_lemmas
from addin_backend.edits.operations import apply_to_document
from addin_backend.graph import build_graph
from addin_backend.verify.after_edit import verify

pytestmark = pytest.mark.models


def _doc() -> Document:
    return Document("docx", [
        Unit("s1", "section", "Method", 0, label="Section 1", number="1", level=1),
        Unit("p1", "paragraph", "We propose a batching approach that groups commits into epochs.", 1, parent="s1"),
        Unit("p2", "paragraph", "This approach halves the number of fsync calls on every node.", 2, parent="s1"),
        Unit("p3", "paragraph", "Latency stays flat under load for all tenants we measured.", 3, parent="s1"),
    ])


def test_spacy_reads_nouns_in_context():
    got = noun_lemmas(["The tests results in fewer failures.", "These results hold."])
    assert "result" not in got[0] and "result" in got[1]


def test_rewriting_the_antecedent_away_from_the_head_noun_is_flagged():
    doc = _doc()
    G = build_graph(doc, semantic=False)
    assert any(d.get("origin") == "anaphora" for _, _, d in G.in_edges("p1", data=True))
    edit = SetText(unit="p1", text="We group commits into epochs and flush them together.")
    after = apply_to_document(doc, [edit])
    found = dangling_anaphora(doc, after, G, ["p1"])
    assert [(f.kind, f.unit, f.evidence) for f in found] == [("dangling_anaphor", "p2", "This approach")]
    assert "approach" in found[0].message and found[0].related == ["p1"]
    # and verify() reports it among its findings
    kinds = {f.kind for f in verify(doc, after, G, [edit.validate()], semantic=False)}
    assert "dangling_anaphor" in kinds


def test_an_edit_that_keeps_the_head_noun_or_touches_nothing_referred_is_clean():
    doc = _doc()
    G = build_graph(doc, semantic=False)
    keep = apply_to_document(doc, [SetText(unit="p1", text="We propose an approach that batches commits.")])
    assert dangling_anaphora(doc, keep, G, ["p1"]) == []
    other = apply_to_document(doc, [SetText(unit="p3", text="Latency stays flat.")])
    assert dangling_anaphora(doc, other, G, ["p3"]) == []


def test_deleting_the_antecedent_is_flagged():
    doc = _doc()
    G = build_graph(doc, semantic=False)
    after = apply_to_document(doc, [Delete(unit="p1")])
    found = dangling_anaphora(doc, after, G, ["p1"])
    assert [(f.unit, f.severity) for f in found] == [("p2", "warning")] and "deletes" in found[0].message
