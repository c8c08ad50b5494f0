"""Uploads read outside the web worker (issue 33, ``/healthz`` under uploads): with job processes
(``LEDGER_JOBS=processes``, the default of ``ledger serve``) ``POST /documents`` hands the reading
(unzipping, parsing, the model and its JSON) to a child process kept for requests
(:meth:`addin_backend.jobs.processes.ProcessRunner.call`) and waits on its pipe, so a large upload
no longer holds the web worker's interpreter lock while other requests wait. Observed here: the
web process's own reader is never called, a request child is alive, the stored model is the one
the reader makes, and every refusal is the answer the request gives when it reads in-process."""
from __future__ import annotations

import os
import signal

import pytest

import adapters
from adapters.model import Document
from addin_backend.jobs.processes import ProcessRunner
from tests.adapters.docx.docxkit import make_docx, paragraphs_docx

pytestmark = pytest.mark.slow  # job and request children start for each app (a few seconds each)

OCTETS = {"Content-Type": "application/octet-stream"}
TEXTS = [f"Clause {i} says that the widget sends frame {i} to the server." for i in range(1, 13)]


def _app(make_app, mode: str):
    return make_app(JOBS=mode, GRAPH_SEMANTIC=False, MAX_PARAGRAPHS=20)


def _upload(client, data: bytes):
    return client.post("/api/v1/documents?filename=a.docx", data=data, headers=OCTETS)


def test_an_upload_is_read_in_a_request_child_and_its_model_kept(make_app, monkeypatch):
    data = paragraphs_docx(TEXTS)
    expected = adapters.read(data)
    app = _app(make_app, "processes")
    runner = app.extensions["ledger.jobs"]
    assert isinstance(runner, ProcessRunner) and runner.call_children() == []
    here: list[int] = []

    def read_here(*args, **kwargs):  # the web process's reader: must not be what reads the upload
        here.append(len(args[0]) if args else 0)
        raise AssertionError("the upload was read in the web process")

    monkeypatch.setattr(adapters, "read", read_here)
    res = _upload(app.test_client(), data)
    assert res.status_code == 201, res.get_json()
    body = res.get_json()
    assert here == []
    children = runner.call_children()
    assert len(children) == 1 and children[0] != os.getpid()
    assert body["units"] == len(expected.units) and body["format"] == "docx" and body["size"] == len(data)
    store = app.extensions["ledger.store"]
    kept = Document.from_json(store.get_json(body["id"], "document"))
    assert [u.text for u in kept.units] == [u.text for u in expected.units]
    assert store.get(body["id"], "original") == data


BAD = {
    "too many paragraphs": paragraphs_docx(TEXTS * 2),  # 24 > MAX_PARAGRAPHS 20: TooLargeError
    "not well-formed": make_docx("<w:p><w:r><w:t>open</w:t></w:r>"),  # MalformedXmlError(part, why)
    "not a document": b"just some text, no package",
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_refusal_read_in_a_child_is_the_answer_read_in_process(make_app, name):
    answers = []
    for mode in ("threads", "processes"):
        res = _upload(_app(make_app, mode).test_client(), BAD[name])
        answers.append((res.status_code, res.get_json()))
    assert answers[0][0] in (413, 415, 422), answers
    assert answers[1] == answers[0]


def test_a_request_child_killed_between_uploads_is_started_again(make_app):
    app = _app(make_app, "processes")
    runner = app.extensions["ledger.jobs"]
    client = app.test_client()
    assert _upload(client, paragraphs_docx(TEXTS[:3])).status_code == 201
    (first,) = runner.call_children()
    os.kill(first, signal.SIGKILL)
    os.waitpid(first, 0)
    res = _upload(client, paragraphs_docx(TEXTS[3:6]))
    assert res.status_code == 201 and res.get_json()["units"] == 3, res.get_json()
    (second,) = runner.call_children()
    assert second != first


def test_an_upload_over_mcp_is_read_in_the_same_request_child(make_app, monkeypatch):
    """``open_document`` with ``content_base64`` takes the REST door's path: read in a request
    child, the model loaded back from the store for the tool's answer."""
    import base64

    import anyio
    from mcp import Client

    from addin_backend.mcp.http import workspace
    from addin_backend.mcp.server import build_server
    from tests.mcp.helpers import ok

    data = paragraphs_docx(TEXTS)
    expected = adapters.read(data)
    app = _app(make_app, "processes")
    runner = app.extensions["ledger.jobs"]
    monkeypatch.setattr(adapters, "read", lambda *a, **k: pytest.fail("the upload was read in the web process"))

    async def scenario() -> dict:
        async with Client(build_server(workspace(app))) as c:
            return ok(await c.call_tool("open_document", {"content_base64": base64.b64encode(data).decode(),
                                                          "filename": "m.docx", "wait_for_graph": False}))

    got = anyio.run(scenario)
    assert got["units"] == len(expected.units), got
    (child,) = runner.call_children()
    assert child != os.getpid()
    kept = Document.from_json(app.extensions["ledger.store"].get_json(got["document_id"], "document"))
    assert [u.text for u in kept.units] == [u.text for u in expected.units]
