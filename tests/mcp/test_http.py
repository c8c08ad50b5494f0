"""``/mcp`` on a real ``ledger serve`` (gunicorn, two workers) on loopback, driven by the SDK's client.

The same tools as over stdio, behind the API's keys and CORS: documents come by upload
(``content_base64``) or by the id of a REST upload, and applying a proposal makes a revision
that the REST API serves; LibreOffice opens it as intended. The server reads no files.
"""
from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import anyio
import pytest
import requests

from addin_backend.api.security import fingerprint
from addin_backend.mcp.server import READ_ONLY_TOOLS, TOOL_NAMES
from tests.conftest import corpus_file
from tests.libreoffice import probe, require_libreoffice
from tests.servers import LedgerServer

from .helpers import AUTHOR, Progress, http_client, ok, refused

KEY = "mcp-key-0123456789"
ORIGIN = "https://addin.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = {"LEDGER_API_KEYS": KEY, "LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0",
           "LEDGER_CORS_ORIGINS": ORIGIN}
    with LedgerServer(tmp_path_factory.mktemp("mcp-http"), workers=2, threads=4, env=env) as s:
        yield s


def _run(scenario, *args):
    return anyio.run(scenario, *args)


_INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
_ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def test_mcp_sits_behind_the_api_keys_and_cors(server):
    url = server.url + "/mcp"
    anonymous = requests.post(url, json=_INIT, headers=_ACCEPT, timeout=30)
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthorized"
    keyed = {**_ACCEPT, "Authorization": f"Bearer {KEY}"}
    foreign = requests.post(url, json=_INIT, headers={**keyed, "Origin": "https://evil.example"}, timeout=30)
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "forbidden_origin"
    allowed = requests.post(url, json=_INIT, headers={**keyed, "Origin": ORIGIN}, timeout=30)
    assert allowed.status_code == 200 and allowed.headers["Access-Control-Allow-Origin"] == ORIGIN
    assert allowed.headers["Cache-Control"].startswith("no-") and "X-Request-Id" in allowed.headers
    preflight = requests.options(url, headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
                                               "Access-Control-Request-Headers": "authorization,mcp-protocol-version"},
                                 timeout=30)
    assert preflight.status_code == 200 and "mcp-protocol-version" in preflight.headers[
        "Access-Control-Allow-Headers"].lower()


def test_the_tools_over_http_are_the_same_and_write_only_revisions(server):
    async def scenario():
        async with http_client(server.url, KEY) as c:
            return {t.name: t for t in (await c.list_tools()).tools}

    tools = _run(scenario)
    assert sorted(tools) == sorted(TOOL_NAMES)
    for name, tool in tools.items():
        notes = tool.annotations
        assert notes.read_only_hint is (name in READ_ONLY_TOOLS), name
        assert notes.destructive_hint is False, name  # over HTTP a writer only adds revisions and documents


@pytest.mark.slow
def test_a_session_over_http_on_a_corpus_document_opens_in_libreoffice_as_intended(server, tmp_path):
    require_libreoffice()
    path = tmp_path / "referenceAllInOne.odt"
    shutil.copyfile(corpus_file("referenceAllInOne.odt"), path)
    original = [p["text"] for p in probe([path], ("paragraphs",))[0]["paragraphs"]]
    rest = requests.Session()
    rest.headers["Authorization"] = f"Bearer {KEY}"
    uploaded = rest.post(server.url + "/api/v1/documents?filename=rest.odt", data=path.read_bytes(),
                         headers={"Content-Type": "application/octet-stream"}, timeout=60)
    assert uploaded.status_code == 201

    async def scenario():
        progress = Progress()
        async with http_client(server.url, KEY) as c:
            data = base64.b64encode(path.read_bytes()).decode()
            opened = ok(await c.call_tool("open_document", {"content_base64": data, "filename": path.name},
                                          progress_callback=progress))
            by_id = ok(await c.call_tool("open_document", {"document_id": uploaded.json()["id"]}))
            doc_id = opened["document_id"]
            ok(await c.call_tool("outline", {"document_id": doc_id}))
            found = ok(await c.call_tool("find", {"document_id": doc_id, "query": "A reference to"}))
            unit = found["matches"][0]["id"]
            context = ok(await c.call_tool("get_context", {"document_id": doc_id, "target": unit,
                                                           "instruction": "Replace 'A reference' with 'One reference'"}))
            text = ok(await c.call_tool("read_units", {"document_id": doc_id, "ids": [unit]}))["units"][0]["text"]
            proposal = ok(await c.call_tool("propose_operations", {"document_id": doc_id, "operations": [
                {"op": "replace", "unit": unit, "start": 0, "end": len("A reference"), "text": "One reference",
                 "before": text}]}))
            applied = ok(await c.call_tool("apply_proposal", {"document_id": doc_id, "proposal_id": proposal["id"],
                                                              "author": AUTHOR}))
            accepted = ok(await c.call_tool("accept_all", {"document_id": doc_id, "revision": applied["revision"]}))
            no_file = refused(await c.call_tool("open_document", {"path": str(path)}), "path_not_allowed")
            no_unit = refused(await c.call_tool("impact", {"document_id": doc_id, "unit_id": "p-nothing"}),
                              "unknown_unit")
            still = ok(await c.call_tool("outline", {"document_id": doc_id}))
            return opened, by_id, context, applied, accepted, no_file, no_unit, still, progress

    opened, by_id, context, applied, accepted, no_file, no_unit, still, progress = _run(scenario)
    assert opened["path"] is None and opened["graph"]["complete"] is True
    assert by_id["units"] == opened["units"] and by_id["reused"] is True
    assert context["targets"] and context["tokens"] <= context["budget"]
    assert progress.seen and progress.seen[-1][0] == 1.0  # progress notifications over HTTP (SSE)
    assert applied["path"] is None and applied["download"].endswith(f"/revisions/{applied['revision']}/file")
    assert "reads and writes no files" in no_file["message"] and still["outline"]
    written = tmp_path / "referenceAllInOne.ledger.odt"
    download = rest.get(server.url + applied["download"], timeout=60)
    assert download.status_code == 200
    written.write_bytes(download.content)
    (seen,) = probe([written], ("redlines", "accepted", "rejected"))
    assert "error" not in seen, seen
    assert {r["author"] for r in seen["redlines"]} == {AUTHOR}
    assert seen["accepted"] == [t.replace("A reference", "One reference") for t in original]
    assert seen["rejected"] == original
    lines = rest.get(f"{server.url}/api/v1/documents/{accepted['document_id']}/text", timeout=60).json()["lines"]
    assert "One reference to Some text, A list item and A header." in lines
    audit = [json.loads(line) for line in (server.folder / "data" / "audit.jsonl").read_text().splitlines()]
    assert audit[-1]["who"] == fingerprint(KEY) and audit[-1]["author"] == AUTHOR
