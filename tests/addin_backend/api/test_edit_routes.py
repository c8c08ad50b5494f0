"""Proposals, apply and revision files over HTTP (in process).

The proposal routes run on the hand-built report (its real graph) and on real uploads; applying
writes through ``adapters.write`` into both formats.
"""
from __future__ import annotations

import re

import hashlib

import networkx as nx
import pytest

from adapters import read
from addin_backend.service import audit
from addin_backend.service import graph_job
from addin_backend.checks.document import check_document
from addin_backend.edits.pipeline import plan_edit
from addin_backend.graph import FAST_STAGES, build_graph
from tests.addin_backend.api.editing import (  # noqa: F401  (app, client, report: fixtures)
    app, client, report, running_job, upload, wait_job,
)
from tests.addin_backend.edits.propagate_docs import report_doc
from tests.conftest import corpus_file


UNKNOWN = "0123456789abcdef01234567"
VIEW = {"unit_label", "unit_kind", "after_label", "before_label", "dest_text", "comment"}
REF_TEXT = "A reference to Some text, A list item and A header."


def _propose(client, doc_id, **body):
    return client.post(f"/api/v1/documents/{doc_id}/proposals", json=body)


def test_a_proposal_carries_every_operation_with_ids_sources_and_display_keys(client, report):
    r = _propose(client, report, instruction="Delete Figure 2", author="Ana")
    assert r.status_code == 201, r.json
    p = r.json
    assert r.headers["Location"] == f"/api/v1/documents/{report}/proposals/{p['id']}"
    doc = report_doc()
    plan = plan_edit(doc, build_graph(doc, semantic=False), "Delete Figure 2", author="Ana", semantic=False)
    for got, want in zip(p["operations"], plan.edits, strict=True):
        assert {k: v for k, v in got.items() if k not in VIEW | {"old", "date"}} == {
            k: v for k, v in want.to_json().items() if k not in ("old", "date")}
    assert [op["id"] for op in p["operations"]] == ["op-1", "op-2"] + [f"prop-{i}" for i in range(1, 8)]
    assert p["propagated"] == [f"prop-{i}" for i in range(1, 8)]
    assert [op["source"] for op in p["operations"]] == ["rules", "rules"] + ["op-1"] * 7
    first, caption = p["operations"][0], p["operations"][2]
    assert (first["unit_label"], first["unit_kind"]) == ("Figure 2", "figure")
    assert (caption["unit"], caption["old"], caption["text"], caption["unit_label"]) == ("c3", "3", "2", "Figure 3")
    assert caption["old"] == caption["before"][caption["start"]:caption["end"]]
    assert caption["reason"] == "numbering: Figure 3 is now Figure 2 (its typed number)"
    assert [(f["code"], f["unit"]) for f in p["findings"]] == [
        ("reference_to_deleted", "p1"), ("reference_to_deleted", "p2"), ("reference_to_deleted", "p3")]
    assert p["targets"] == ["f2"] and p["explanation"] == "Delete Figure 2." and p["warnings"] == []
    assert p["renumbered"] == {"Figure 3": "Figure 2"}
    assert (p["engine"], p["author"], p["usage"], p["graph_complete"]) == ("rules", "Ana", None, True)
    assert 0 < p["context_tokens"] <= p["budget"] == 1500 and p["document_tokens"] > 0
    assert p["context"][0]["id"] == "f2" and p["context"][0]["edge"] == "TARGET"
    again = client.get(r.headers["Location"])
    assert again.status_code == 200 and again.json == p


def test_a_move_names_its_destination_and_carries_its_text(client, report):
    p = _propose(client, report, instruction="Move Section 3 before Section 2").json
    move = p["operations"][0]
    assert (move["op"], move["unit"], move["before_unit"]) == ("move", "s3", "s2")
    assert (move["unit_label"], move["before_label"], move["dest_text"]) == ("Section 3", "Section 2", "Method")
    assert "after_label" not in move
    assert {op["source"] for op in p["operations"][1:]} == {"op-1"} and len(p["propagated"]) == 10
    unlabelled = _propose(client, report, instruction="Rename 'ledger' to 'journal' everywhere").json
    assert [op["unit_label"] for op in unlabelled["operations"]] == [
        "Title: Ledger Design Report", "Paragraph: Theorem 1. Every ledger balances.",
        "Paragraph: Theorem 2. Every ledger grows, by Theore\u2026"]  # first 40 characters


def test_a_selection_or_target_scopes_the_proposal(client):
    doc_id = upload(client, corpus_file("referenceAllInOne.odt"))["id"]
    units = {u["text"]: u["id"] for u in client.get(f"/api/v1/documents/{doc_id}/units").json["units"]}
    ref = units[REF_TEXT]
    p = _propose(client, doc_id, instruction="Replace the selection with 'One'",
                 selection={"text": "A", "unit": ref, "start": 0, "end": 1}).json
    assert [(op["op"], op["unit"], op["start"], op["end"], op["old"], op["text"]) for op in p["operations"]] == [
        ("replace", ref, 0, 1, "A", "One")]
    assert p["targets"] == [ref]


@pytest.mark.parametrize("body, status, code", [
    ({"instruction": "Make it sound friendlier"}, 422, "instruction_not_understood"),
    ({"instruction": "Delete Figure 2", "target": "p-nope"}, 404, "unknown_unit"),
    ({"instruction": "Delete Figure 2", "engine": "magic"}, 400, "invalid_request"),
    ({"instruction": "Delete Figure 2", "engine": "llm"}, 503, "engine_unavailable"),
    ({"instruction": "   "}, 400, "invalid_request"),
    ({"instruction": "Delete Figure 2", "author": ""}, 400, "invalid_request"),
    ({"instruction": "Delete Figure 2", "budget": -3}, 400, "invalid_request"),
    ({"instruction": "Delete Figure 2", "selection": {"unit": "p1"}}, 400, "invalid_request"),
    ({"instruction": "Delete Figure 2", "note": "x"}, 400, "invalid_request"),
])
def test_proposal_errors(client, report, body, status, code, monkeypatch):
    monkeypatch.delenv("LEDGER_LLM_ENDPOINT", raising=False)
    monkeypatch.delenv("LEDGER_LLM_KEY", raising=False)
    r = _propose(client, report, **body)
    assert (r.status_code, r.json["error"]["code"]) == (status, code), r.json


def test_unknown_documents_and_proposals(client, report):
    assert _propose(client, UNKNOWN, instruction="Delete Figure 2").json["error"]["code"] == "unknown_document"
    r = client.get(f"/api/v1/documents/{report}/proposals/0123456789abcdef")
    assert r.status_code == 404 and r.json["error"]["code"] == "unknown_proposal"
    assert client.get(f"/api/v1/documents/{UNKNOWN}/proposals/x").json["error"]["code"] == "unknown_document"


def test_while_the_graph_grows_a_proposal_is_a_job_whose_result_is_the_proposal(app, client):
    doc = report_doc()
    doc_id = running_job(app, doc, graph=build_graph(doc, stages=FAST_STAGES))
    assert _propose(client, doc_id, instruction="Delete Figure 2", target="p-nope").status_code == 404
    r = _propose(client, doc_id, instruction="Delete Figure 2", author="Ana")
    assert r.status_code == 202, r.json
    job = r.json["job"]
    assert (job["kind"], job["document"], job["stage"]) == ("proposal", doc_id, "graph")
    assert r.headers["Location"] == job["links"]["self"] == f"/api/v1/jobs/{job['id']}"
    # the graph job finishes: the complete graph is stored and its record says done
    store, runner = app.extensions["ledger.store"], app.extensions["ledger.jobs"]
    full = build_graph(doc, semantic=False)
    full.graph["complete"] = True
    store.put_json(doc_id, "graph", nx.node_link_data(full, edges="edges"))
    rec = runner.get(graph_job.graph_job_id(doc_id))
    store.put_json(doc_id, f"job:{rec['id']}", {**rec, "status": "done", "progress": 1.0})
    done = wait_job(client, job, limit=60)
    assert done["status"] == "done" and done["stages"] == ["graph", "plan"], done
    proposal = done["result"]
    assert [op["id"] for op in proposal["operations"]][:2] == ["op-1", "op-2"] and proposal["graph_complete"] is True
    assert client.get(f"/api/v1/documents/{doc_id}/proposals/{proposal['id']}").json == proposal


def test_apply_errors_found_before_writing(client, report):
    pid = _propose(client, report, instruction="Delete Figure 2").json["id"]
    url = f"/api/v1/documents/{report}/apply"
    doc = report_doc()
    p1 = doc.unit("p1").text
    cases = [
        ({"proposal_id": pid}, 400, "invalid_request"),  # no author
        ({"proposal_id": pid, "author": "  "}, 400, "invalid_request"),
        ({"proposal_id": "0123456789abcdef", "author": "Ana"}, 404, "unknown_proposal"),
        ({"proposal_id": pid, "author": "Ana", "operations": ["op-9"]}, 400, "invalid_request"),
        ({"proposal_id": pid, "author": "Ana", "operations": []}, 400, "invalid_request"),
        ({"proposal_id": pid, "author": "Ana", "operations": [{"op": "delete", "unit": "p1"}]}, 400, "invalid_request"),
        ({"author": "Ana", "operations": []}, 400, "invalid_request"),
        ({"author": "Ana", "operations": [{"op": "delete"}]}, 400, "invalid_request"),
        ({"author": "Ana", "operations": [{"op": "explode", "unit": "p1"}]}, 400, "invalid_request"),
        ({"author": "Ana", "operations": [{"op": "delete", "unit": "p-nope"}]}, 404, "unknown_unit"),
        ({"author": "Ana", "operations": [{"op": "replace", "unit": "p1", "start": 0, "end": 6, "text": "Fig.",
                                          "before": "Some older text of p1"}]}, 409, "edit_conflict"),
        ({"author": "Ana", "operations": [{"op": "replace", "unit": "p1", "start": 0, "end": 900, "text": "x",
                                          "before": p1}]}, 400, "invalid_request"),
    ]
    for body, status, code in cases:
        r = client.post(url, json=body)
        assert (r.status_code, r.json["error"]["code"]) == (status, code), (body, r.json)
    # a propagated operation whose source is left out is not applied: here nothing is left
    r = client.post(url, json={"proposal_id": pid, "author": "Ana", "operations": ["prop-1"]})
    assert r.status_code == 400 and "follows from the " in r.json["error"]["message"]
    assert not re.search(r"\b(?:op|prop)-\d", r.json["error"]["message"])  # words for people...
    assert r.json["error"]["details"]["skipped"][0]["id"] == "prop-1"  # ...ids for machines
    assert r.json["error"]["details"]["skipped"][0]["source"] == "op-1"
    assert client.post(f"/api/v1/documents/{UNKNOWN}/apply",
                       json={"proposal_id": pid, "author": "Ana"}).json["error"]["code"] == "unknown_document"


def test_unknown_revisions(client, report):
    r = client.get(f"/api/v1/documents/{report}/revisions/1/file")
    assert r.status_code == 404 and r.json["error"]["code"] == "unknown_revision"
    assert client.get(f"/api/v1/documents/{report}/revisions/x/file").status_code == 404
    assert client.get(f"/api/v1/documents/{UNKNOWN}/revisions/1/file").json["error"]["code"] == "unknown_document"


@pytest.mark.parametrize("name, old, new, media", [
    pytest.param("referenceAllInOne.odt", "A reference", "One reference", "application/vnd.oasis.opendocument.text",
                 id="odt"),
    pytest.param("zen_of_python.docx", "Explicit", "Clear",
                 "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                 id="docx"),
])
def test_apply_a_proposal_then_download_and_check_the_revision(app, client, name, old, new, media):
    path = corpus_file(name)
    doc_id = upload(client, path)["id"]
    instruction = f'Replace "{old}" with "{new}"'
    p = _propose(client, doc_id, instruction=instruction).json
    r = client.post(f"/api/v1/documents/{doc_id}/apply", json={"proposal_id": p["id"], "author": "Ada Lovelace"})
    assert r.status_code == 201, r.json
    a = r.json
    assert a["revision"] == 1 and a["download"] == f"/api/v1/documents/{doc_id}/revisions/1/file"
    assert r.headers["Location"] == a["download"] and a["proposal"] == p["id"]
    assert a["instruction"] == instruction and a["skipped"] == []
    assert [(op["id"], op["author"], op["old"], op["text"]) for op in a["operations"]] == [
        ("op-1", "Ada Lovelace", old, new)]
    assert a["findings"] == []
    f = client.get(a["download"])
    assert f.status_code == 200 and f.mimetype == media
    stem, ext = name.rsplit(".", 1)
    assert f.headers["Content-Disposition"] == f"attachment; filename={stem}.ledger.{ext}"
    original = read(path.read_bytes())
    written = read(f.data)
    assert written.lines("accepted") == [line.replace(old, new) for line in original.lines()] != original.lines()
    assert written.lines("rejected") == original.lines()
    entry = audit.entries(app.config["AUDIT_LOG"])[-1]
    assert (entry["who"], entry["author"], entry["document"]) == ("anonymous", "Ada Lovelace", doc_id)
    assert entry["instruction"] == instruction and [o["id"] for o in entry["operations"]] == ["op-1"]
    logged = entry["operations"][0]  # the document's texts as digests
    assert logged["text"] == {"sha256": hashlib.sha256(new.encode()).hexdigest(), "chars": len(new)}
    assert logged["old"]["chars"] == len(old) and logged["source"] == "rules"
    check = client.get(f"/api/v1/documents/{doc_id}/check?revision=1").json
    assert check["revision"] == 1 and check["findings"] == [x.to_json() for x in check_document(written)]
    second = client.post(f"/api/v1/documents/{doc_id}/apply", json={
        "author": "Bob", "operations": [{k: v for k, v in a["operations"][0].items() if k != "id"}]})
    assert second.status_code == 201 and second.json["revision"] == 2
    assert second.json["operations"][0]["id"] == "op-1" and second.json["operations"][0]["source"] == "rules"
    assert client.get(second.json["download"]).data != f.data  # another author
