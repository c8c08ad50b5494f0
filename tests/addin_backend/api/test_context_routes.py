"""The context and check routes over HTTP (in process): retrieval and document-wide findings."""
from __future__ import annotations

import pytest

from adapters import read_path
from addin_backend.checks.document import check_document
from addin_backend.graph import build_graph
from addin_backend.retrieval import retrieve
from tests.addin_backend.api.editing import (  # noqa: F401  (app, client, report: fixtures)
    app, client, report, running_job, upload,
)
from tests.addin_backend.edits.propagate_docs import report_doc
from tests.conftest import corpus_file


UNKNOWN = "0123456789abcdef01234567"


def test_context_of_a_target_is_the_retrieval_result_with_texts(client, report):
    r = client.post(f"/api/v1/documents/{report}/context",
                    json={"instruction": "Shorten the caption of Figure 2", "target": "c2", "budget": 120})
    assert r.status_code == 200, r.json
    body = r.json
    doc = report_doc()
    want = retrieve(doc, build_graph(doc, semantic=False), ["c2"], instruction="Shorten the caption of Figure 2",
                    budget=120)
    assert body["document"] == report and body["targets"] == ["c2"] and body["complete"] is True
    assert [(c["id"], c["edge"], c["tokens"]) for c in body["context"]] == [
        (c.id, c.edge, c.tokens) for c in want.context]
    assert body["context"][0]["priority"] is None  # the target's infinite priority as JSON
    texts = {c["id"]: c["text"] for c in body["context"]}
    assert texts["c2"] == "Figure 2: Method"
    assert body["tokens"] == sum(c["tokens"] for c in body["context"]) <= 120
    assert body["budget"] == 120 and body["strategy"] == "ledger"
    assert body["candidates"] == [{"id": "c2", "score": 1.0, "how": "id", "evidence": ""}]


def test_context_targets_from_the_instruction_or_a_selection(client, report):
    named = client.post(f"/api/v1/documents/{report}/context", json={"instruction": "Delete Figure 3"}).json
    assert named["targets"] == ["f3"] and named["candidates"][0]["how"] == "label"
    sel = client.post(f"/api/v1/documents/{report}/context",
                      json={"instruction": "Fix this", "selection": {"text": "Every ledger balances."}}).json
    assert sel["targets"] == ["p5"] and sel["candidates"][0]["how"] == "selection"
    full = client.post(f"/api/v1/documents/{report}/context",
                       json={"instruction": "Fix this", "target": "p5", "strategy": "full"}).json
    assert full["strategy"] == "full" and len(full["context"]) == len(report_doc().units)


@pytest.mark.parametrize("body, status, code", [
    ({"target": "p5"}, 400, "invalid_request"),
    ({"instruction": ""}, 400, "invalid_request"),
    ({"instruction": "x", "budget": 0}, 400, "invalid_request"),
    ({"instruction": "x", "strategy": "magic"}, 400, "invalid_request"),
    ({"instruction": "x", "target": "p5", "extra": 1}, 400, "invalid_request"),
    ({"instruction": "x", "target": "p-nope"}, 404, "unknown_unit"),
])
def test_context_errors(client, report, body, status, code):
    r = client.post(f"/api/v1/documents/{report}/context", json=body)
    assert (r.status_code, r.json["error"]["code"]) == (status, code), r.json


def test_context_while_the_graph_is_not_ready(app, client):
    doc_id = running_job(app, report_doc())
    r = client.post(f"/api/v1/documents/{doc_id}/context", json={"instruction": "x", "target": "p5"})
    assert r.status_code == 409 and r.json["error"]["details"]["job"] == f"{doc_id}-graph"
    assert client.post(f"/api/v1/documents/{UNKNOWN}/context", json={"instruction": "x"}).status_code == 404


def test_check_lists_the_findings_of_the_upload(client):
    path = corpus_file("invalid_tag_name.docx")
    doc_id = upload(client, path, wait=False)["id"]
    r = client.get(f"/api/v1/documents/{doc_id}/check")
    assert r.status_code == 200 and r.json["document"] == doc_id and r.json["revision"] is None
    want = [f.to_json() for f in check_document(read_path(str(path)))]
    assert r.json["findings"] == want
    redefined = [f for f in r.json["findings"] if f["code"] == "acronym_redefined"]
    assert [f["evidence"] for f in redefined] == ["COR"] and redefined[0]["severity"] in ("warning", "error")


def test_check_errors(client, report):
    assert client.get(f"/api/v1/documents/{report}/check?revision=7").json["error"]["code"] == "unknown_revision"
    assert client.get(f"/api/v1/documents/{report}/check?revision=0").status_code == 400
    assert client.get(f"/api/v1/documents/{report}/check?revision=two").status_code == 400
    assert client.get(f"/api/v1/documents/{UNKNOWN}/check").json["error"]["code"] == "unknown_document"
    assert client.get(f"/api/v1/documents/{UNKNOWN}/check?revision=1").json["error"]["code"] == "unknown_document"
