"""Documents and jobs over HTTP (in process): bad uploads, the read-only views, delete, polling, SSE."""
from __future__ import annotations

import io
import json
import threading

import pytest

from adapters import read
from tests.addin_backend.api.bad_inputs import BAD_INPUTS, bad_input
from tests.addin_backend.api.conftest import sample_document, seed
from tests.conftest import corpus_file


@pytest.fixture
def app(make_app):
    return make_app()


@pytest.fixture
def client(app):
    return app.test_client()


def _healthy(client) -> None:
    assert client.get("/readyz").json == {"status": "ready", "store": "sqlite"}
    good = client.post("/api/v1/documents", data=corpus_file("lorem.odt").read_bytes(),
                       content_type="application/vnd.oasis.opendocument.text")
    assert good.status_code == 201, good.json


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_each_bad_upload_gets_its_status_and_code_then_the_app_is_healthy(client, name):
    status, code = BAD_INPUTS[name]
    raw = client.post("/api/v1/documents", data=bad_input(name), content_type="application/octet-stream")
    assert (raw.status_code, raw.json["error"]["code"]) == (status, code), raw.json
    assert raw.json["error"]["message"]
    _healthy(client)


@pytest.mark.parametrize("name", ["encrypted_odt", "entity_expansion", "zip_bomb"])
def test_multipart_uploads_are_checked_the_same_way(client, name):
    status, code = BAD_INPUTS[name]
    r = client.post("/api/v1/documents", data={"file": (io.BytesIO(bad_input(name)), f"{name}.docx")},
                    content_type="multipart/form-data")
    assert (r.status_code, r.json["error"]["code"]) == (status, code)
    _healthy(client)


def test_multipart_without_a_file_part_is_400(client):
    r = client.post("/api/v1/documents", data={"upload": (io.BytesIO(b"x"), "a.docx")},
                    content_type="multipart/form-data")
    assert r.status_code == 400 and r.json["error"]["code"] == "invalid_request" and "'file'" in r.json["error"]["message"]


@pytest.mark.parametrize("path", ["", "/units", "/units/p-1", "/outline", "/text", "/file"])
def test_unknown_documents_are_404_on_every_route(client, path):
    r = client.get(f"/api/v1/documents/0123456789abcdef01234567{path}")
    assert r.status_code == 404 and r.json["error"]["code"] == "unknown_document"


def test_the_views_of_a_stored_document(app, client):
    doc_id = seed(app, data=b"PK\x03\x04 the original bytes")
    status = client.get(f"/api/v1/documents/{doc_id}").json
    assert (status["id"], status["format"], status["units"], status["filename"]) == (doc_id, "docx", 5, "agreement.docx")
    assert 0 < status["expires_in"] <= 86400
    assert status["job"]["id"] == f"{doc_id}-graph" and status["job"]["status"] == "done"
    assert status["job"]["links"]["events"] == f"/api/v1/jobs/{doc_id}-graph/events"

    units = client.get(f"/api/v1/documents/{doc_id}/units").json
    assert units["total"] == 5 and [u["id"] for u in units["units"]] == [u.id for u in sample_document().units]
    assert "anchor" not in units["units"][0]  # anchors stay inside the backend
    sections = client.get(f"/api/v1/documents/{doc_id}/units?kind=section&offset=1&limit=5").json
    assert (sections["total"], [u["label"] for u in sections["units"]]) == (2, ["Section 2"])
    assert client.get(f"/api/v1/documents/{doc_id}/units/tbl-1").json["label"] == "Table 1"
    missing = client.get(f"/api/v1/documents/{doc_id}/units/p-404")
    assert missing.status_code == 404 and missing.json["error"]["code"] == "unknown_unit"

    outline = client.get(f"/api/v1/documents/{doc_id}/outline").json["outline"]
    assert [(n["kind"], n["label"], n["title"]) for n in outline] == [
        ("title", None, "Service Agreement"), ("section", "Section 1", "Term"), ("section", "Section 2", "Fees")]

    accepted = client.get(f"/api/v1/documents/{doc_id}/text").json
    rejected = client.get(f"/api/v1/documents/{doc_id}/text?view=rejected").json
    assert "The term is 24 months." in accepted["lines"] and "The term is 12 months." in rejected["lines"]
    assert client.get(f"/api/v1/documents/{doc_id}/text?view=both").status_code == 400

    download = client.get(f"/api/v1/documents/{doc_id}/file")
    assert download.data == b"PK\x03\x04 the original bytes"
    assert download.mimetype.endswith("wordprocessingml.document")
    assert 'filename=agreement.docx' in download.headers["Content-Disposition"]
    download.close()


def test_delete_removes_the_document_and_its_job(app, client):
    doc_id = seed(app)
    assert client.delete(f"/api/v1/documents/{doc_id}").status_code == 204
    for path in (f"/api/v1/documents/{doc_id}", f"/api/v1/documents/{doc_id}/units", f"/api/v1/jobs/{doc_id}-graph"):
        assert client.get(path).status_code == 404
    again = client.delete(f"/api/v1/documents/{doc_id}")
    assert again.status_code == 404 and again.json["error"]["code"] == "unknown_document"


def test_a_job_is_polled_and_streamed_as_server_sent_events(make_app):
    app = make_app(SSE_POLL_SECONDS=0.01)
    client = app.test_client()
    doc_id = seed(app)
    store, runner = app.extensions["ledger.store"], app.extensions["ledger.jobs"]
    step = threading.Semaphore(0)

    def work(progress):
        for stage, fraction in (("contains", 0.3), ("references", 0.6)):
            step.acquire(timeout=5)
            progress(stage, fraction)
        step.acquire(timeout=5)
        return {"graph": {"nodes": 5, "edges": 4}}

    job = runner.create(doc_id, "graph", "read", name="rebuild", progress=0.1)
    runner.start(job, work)
    polled = client.get(f"/api/v1/jobs/{job['id']}").json
    assert polled["stage"] == "read" and polled["links"]["self"] == f"/api/v1/jobs/{job['id']}"

    stream = client.get(f"/api/v1/jobs/{job['id']}/events", buffered=False)
    assert stream.mimetype == "text/event-stream"
    events = []
    for chunk in stream.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        event, data = text.strip().split("\n")
        events.append((event.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
        step.release()
    stream.close()
    stages = [(e, d["stage"]) for e, d in events]
    assert ("progress", "contains") in stages and ("progress", "references") in stages
    assert events[-1][0] == "done" and events[-1][1]["result"] == {"graph": {"nodes": 5, "edges": 4}}
    assert [d["progress"] for _, d in events] == sorted(d["progress"] for _, d in events)
    assert store.get_json(doc_id, f"job:{job['id']}")["status"] == "done"


def test_events_of_an_unknown_job_are_a_404_before_any_stream(client):
    r = client.get("/api/v1/jobs/abc-def/events")
    assert r.status_code == 404 and r.is_json and r.json["error"]["code"] == "unknown_job"


@pytest.mark.parametrize("name", ["cross_reference.docx", "lorem.odt"])
def test_upload_raw_and_multipart_then_read_back(client, name):
    data = corpus_file(name).read_bytes()
    expected = read(data)
    raw = client.post(f"/api/v1/documents?filename={name}", data=data,
                      content_type="application/octet-stream")
    multi = client.post("/api/v1/documents", data={"file": (io.BytesIO(data), name)},
                        content_type="multipart/form-data")
    for r in (raw, multi):
        assert r.status_code == 201, r.json
        body = r.json
        assert r.headers["Location"] == f"/api/v1/documents/{body['id']}"
        assert (body["format"], body["units"], body["filename"]) == (expected.format, len(expected.units), name)
        assert body["job"]["id"] == f"{body['id']}-graph" and body["job"]["stages"][0] == "read"
        units = client.get(f"/api/v1/documents/{body['id']}/units").json["units"]
        assert units == [u.to_json() for u in expected.units]
        assert client.get(f"/api/v1/documents/{body['id']}/file").data == data
    assert raw.json["id"] != multi.json["id"]
