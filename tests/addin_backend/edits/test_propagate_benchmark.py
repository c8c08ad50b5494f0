"""Propagation over the synthetic benchmark: every numbered unit deleted, every chapter moved."""
from __future__ import annotations

import pytest

from adapters.model import Delete, Move, Replace
from addin_backend.edits import apply_to_document, validate_edits
from addin_backend.edits.pipeline import merge_findings
from addin_backend.edits.propagate import propagate
from adapters.model import descendant_ids
from addin_backend.graph import build_graph
from addin_backend.graph.build import FAST_STAGES
from addin_backend.numbering import collect_entries
from addin_backend.verify.after_edit import verify


@pytest.fixture(scope="module", params=["docx", "odt"])
def synth(request, tmp_path_factory):
    from adapters import read_path
    from benchmarks.synth import build, write_package

    path = write_package(build("10k", 0), tmp_path_factory.mktemp("synth"), request.param)
    doc = read_path(str(path))
    return doc, build_graph(doc, stages=FAST_STAGES)


def _run(doc, G, edits):
    ops = validate_edits(doc, edits)
    prop = propagate(doc, G, ops)
    every = ops + prop.edits
    return prop, merge_findings(prop.findings, verify(doc, apply_to_document(doc, every), G, every, semantic=False))


def test_deleting_any_numbered_unit_leaves_only_reported_references(synth):
    doc, G = synth
    entries = [e for e in collect_entries(doc) if e.family in ("figure", "table", "equation", "theorem", "lemma")
               or (e.family == "section" and e.depth == 1)]
    assert len(entries) >= 15
    for e in entries:
        gone = set().union(*(descendant_ids(doc.units, u) for u in e.units))
        prop, findings = _run(doc, G, [Delete(unit=u.id) for u in doc.units if u.id in gone])
        assert {f.kind for f in findings} <= {"reference_to_deleted"}, (e.label, [f.message for f in findings])
        cited = [u for u, _, k in G.in_edges(e.units, keys=True) if k == "REFERENCES" and u not in gone]
        if cited:
            assert {f.unit for f in findings} >= set(cited) - gone, e.label


def test_moving_any_chapter_is_verified_clean(synth):
    doc, G = synth
    chapters = [e for e in collect_entries(doc) if e.family == "section" and e.depth == 1 and not e.appendix]
    last = chapters[-1].carrier
    for e in chapters[:-1]:
        prop, findings = _run(doc, G, [Move(unit=e.carrier, after=last)])
        assert findings == [], (e.label, [f.message for f in findings])
        assert prop.to_json()["renumbered"][e.label] == chapters[-1].label


@pytest.mark.models
def test_renaming_a_definition_reaches_its_dependents(tmp_path):
    from adapters import read_path
    from addin_backend.edits.terms import find_term
    from addin_backend.graph.definitions import definition_registry
    from benchmarks.synth import build, write_package

    doc = read_path(str(write_package(build("10k", 0), tmp_path, "docx")))
    G = build_graph(doc, semantic=False)
    terms = [(d, uid) for lst in definition_registry(doc.units).values() for _, uid, d in lst[:1]
             if d.kind == "term" and len(d.term) > 4]
    assert len(terms) >= 4
    for d, uid in terms:
        unit = doc.unit(uid)
        [(start, end, repl)] = find_term(unit.text, d.term, "zeta quantity")[:1]
        edit = Replace(unit=uid, start=start, end=end, text=repl, before=unit.text)
        prop, findings = _run(doc, G, [edit])
        users = {u for u, _, k in G.in_edges(uid, keys=True) if k == "DEPENDS" and find_term(doc.unit(u).text, d.term, "x")}
        assert users and users <= {e.unit for e in prop.edits}, d.term
        assert [f for f in findings if f.severity != "info"] == [], (d.term, [f.message for f in findings])
