"""Issue 33: documents belong to their key, on a real ``ledger serve`` on loopback.

Key A's document, its text, file, units, graph, jobs, proposals, revisions and checks answer
key B ``404`` exactly as an id that never existed, on every route that names a document or a job
(the routes are read from the app, so a new route is covered too), through REST and MCP; B's
apply, fix and delete change nothing of A's. Keys of one group (``LEDGER_KEY_GROUPS``) share
their documents and their style sheets. Before this, B read and changed A's documents by id.
"""
from __future__ import annotations

import base64
import re
import time

import anyio
import pytest
import requests

from addin_backend.api.config import key_fingerprint
from tests.adapters.docx.docxkit import paragraphs_docx
from tests.mcp.helpers import http_client, ok, refused
from tests.servers import LedgerServer

KEYS = {name: f"ownership-key-{name}-0123456789" for name in ("a", "b", "c", "d")}
OCTETS = "application/octet-stream"
PARAS = ["The widget is blue.", "A widget holds the frame.", "See the widget again."]


def _auth(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[name]}"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # c and d are one team (c by its key, d by its fingerprint, as the access log names it)
    groups = f"team={KEYS['c']},{key_fingerprint(KEYS['d'])}"
    env = {"LEDGER_API_KEYS": ",".join(KEYS.values()), "LEDGER_KEY_GROUPS": groups, "LEDGER_RATE_LIMIT": "off",
           "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_QUOTA_MB": "off"}
    with LedgerServer(tmp_path_factory.mktemp("ownership"), workers=1, threads=4, env=env) as s:
        yield s


def _upload(s: LedgerServer, who: str) -> dict:
    r = requests.post(f"{s.url}/api/v1/documents?filename=w.docx", data=paragraphs_docx(PARAS),
                      headers={**_auth(who), "Content-Type": OCTETS}, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()


def _wait_graph(s: LedgerServer, who: str, job: dict) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rec = requests.get(s.url + job["links"]["self"], headers=_auth(who), timeout=30).json()
        if rec["status"] in ("done", "failed"):
            assert rec["status"] == "done", rec
            return
        time.sleep(0.2)
    raise AssertionError("the graph job did not end")


def _owned_world(s: LedgerServer, who: str) -> dict:
    """An upload of ``who`` with a graph, a proposal, a revision and a check."""
    doc = _upload(s, who)
    _wait_graph(s, who, doc["job"])
    base = f"{s.url}/api/v1/documents/{doc['id']}"
    prop = requests.post(base + "/proposals", json={"instruction": "Rename 'widget' to 'gadget'"},
                         headers=_auth(who), timeout=120)
    assert prop.status_code in (201, 202), prop.text
    pid = prop.json()["id"] if prop.status_code == 201 else _job_result(s, who, prop.json()["job"])["proposal"]
    applied = requests.post(base + "/apply", json={"proposal_id": pid, "author": "A"}, headers=_auth(who), timeout=120)
    assert applied.status_code == 201, applied.text
    assert requests.get(base + "/check", headers=_auth(who), timeout=120).status_code == 200
    unit = requests.get(base + "/units", headers=_auth(who), timeout=30).json()["units"][0]["id"]
    return {"doc": doc["id"], "job": doc["job"]["id"], "proposal": pid, "rev": applied.json()["revision"],
            "unit": unit, "revision_file": applied.json()["download"]}


def _job_result(s: LedgerServer, who: str, job: dict) -> dict:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rec = requests.get(s.url + job["links"]["self"], headers=_auth(who), timeout=30).json()
        if rec["status"] == "done":
            return rec["result"]
        assert rec["status"] != "failed", rec
        time.sleep(0.2)
    raise AssertionError("the job did not end")


def _routes() -> list[tuple[str, str]]:
    """Every route of the app that names a document or a job, with its method."""
    from addin_backend.api import create_app

    app = create_app({"DATA_DIR": "/tmp/ledger-ownership-routes", "GRAPH_SEMANTIC": False})
    app.extensions["ledger.jobs"].shutdown(wait=False)
    out = []
    for rule in app.url_map.iter_rules():
        if "<document_id>" in rule.rule or "<job_id>" in rule.rule:
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                out.append((method, rule.rule))
    return out


def _fill(rule: str, world: dict) -> str:
    path = rule.replace("<document_id>", world["doc"]).replace("<job_id>", world["job"])
    path = path.replace("<proposal_id>", world["proposal"]).replace("<int:rev>", str(world["rev"]))
    return path.replace("<unit_id>", world["unit"])


_BODIES = {"impact": {"unit": None}, "context": {"instruction": "x"}, "proposals": {"instruction": "Rename 'a' to 'b'"},
           "apply": {"operations": [], "author": "B"}, "fix": {"apply": True, "author": "B"}}


def _call(s: LedgerServer, who: str, method: str, path: str) -> requests.Response:
    last = path.rstrip("/").rsplit("/", 1)[-1]
    if path.endswith("/review"):
        return requests.post(s.url + path, data=b"PK\x03\x04", headers={**_auth(who), "Content-Type": OCTETS}, timeout=60)
    body = _BODIES.get(last)
    return requests.request(method, s.url + path, json=body if method == "POST" else None, headers=_auth(who),
                            timeout=60, stream=path.endswith("/events"))


def test_key_b_gets_404_for_everything_of_key_a(server):
    s = server
    world = _owned_world(s, "a")
    routes = _routes()
    assert len(routes) >= 18, routes  # documents, units, text, file, graph, jobs, proposals, revisions, checks
    never = {**world, "doc": "0" * 24, "job": "0" * 24 + "-graph"}
    for method, rule in routes:
        theirs, missing = _call(s, "b", method, _fill(rule, world)), _call(s, "b", method, _fill(rule, never))
        assert theirs.status_code == 404, (method, rule, theirs.status_code, theirs.text[:300])
        # indistinguishable from an id that never existed (the ids in the message aside)
        assert theirs.json()["error"]["code"] == missing.json()["error"]["code"], (method, rule)
        assert re.sub(r"[0-9a-f]{24}", "ID", theirs.json()["error"]["message"]) == \
            re.sub(r"[0-9a-f]{24}", "ID", missing.json()["error"]["message"]), (method, rule)
    # nothing of A's changed: B's apply, fix and delete were refused before they ran
    base = f"{s.url}/api/v1/documents/{world['doc']}"
    mine = requests.get(base, headers=_auth("a"), timeout=30)
    assert mine.status_code == 200 and "owner" not in mine.json()
    assert requests.get(s.url + world["revision_file"], headers=_auth("a"), timeout=30).status_code == 200
    assert requests.get(f"{base}/revisions/{world['rev'] + 1}/file", headers=_auth("a"), timeout=30).status_code == 404
    assert requests.get(f"{base}/proposals/{world['proposal']}", headers=_auth("a"), timeout=30).status_code == 200


def test_a_group_shares_its_documents_and_style_sheets(server):
    s = server
    world = _owned_world(s, "c")
    base = f"{s.url}/api/v1/documents/{world['doc']}"
    for path in ("", "/text", "/file", f"/proposals/{world['proposal']}", f"/revisions/{world['rev']}/file", "/check"):
        assert requests.get(base + path, headers=_auth("d"), timeout=60).status_code == 200, path
        assert requests.get(base + path, headers=_auth("a"), timeout=60).status_code == 404, path
    applied = requests.post(base + "/apply", json={"proposal_id": world["proposal"], "author": "D"},
                            headers=_auth("d"), timeout=120)
    assert applied.status_code == 201 and applied.json()["revision"] == world["rev"] + 1
    sheet = '[terms]\n"gadget" = "device"\n'
    assert requests.put(f"{s.url}/api/v1/styles/house", data=sheet.encode(), headers={**_auth("c"),
                        "Content-Type": "application/toml"}, timeout=30).status_code == 201
    assert requests.get(f"{s.url}/api/v1/styles/house", headers=_auth("d"), timeout=30).status_code == 200
    assert requests.get(f"{s.url}/api/v1/styles/house", headers=_auth("b"), timeout=30).status_code == 404
    assert requests.delete(base, headers=_auth("a"), timeout=30).status_code == 404
    assert requests.delete(base, headers=_auth("d"), timeout=30).status_code == 204


def test_mcp_reaches_only_the_keys_documents(server):
    s = server
    theirs = _upload(s, "a")["id"]

    async def scenario() -> None:
        async with http_client(s.url, KEYS["b"]) as c:
            for tool, args in (("open_document", {"document_id": theirs, "wait_for_graph": False}),
                               ("outline", {"document_id": theirs}),
                               ("read_units", {"document_id": theirs}),
                               ("check_document", {"document_id": theirs}),
                               ("accept_all", {"document_id": theirs})):
                refused(await c.call_tool(tool, args), "unknown_document")
            with pytest.raises(Exception, match="unknown_document"):
                await c.read_resource(f"ledger://documents/{theirs}/text")
            mine = ok(await c.call_tool("open_document", {"content_base64": base64.b64encode(
                paragraphs_docx(PARAS)).decode(), "filename": "m.docx", "wait_for_graph": False}))
            ok(await c.call_tool("outline", {"document_id": mine["document_id"]}))
        # what B uploaded over MCP is B's on the REST door too
        assert requests.get(f"{s.url}/api/v1/documents/{mine['document_id']}", headers=_auth("b"),
                            timeout=30).status_code == 200
        assert requests.get(f"{s.url}/api/v1/documents/{mine['document_id']}", headers=_auth("a"),
                            timeout=30).status_code == 404

    anyio.run(scenario)


def test_groups_are_checked_at_start():
    from addin_backend.api.config import load_config

    keys = {"LEDGER_API_KEYS": ",".join(KEYS.values())}
    with pytest.raises(ValueError, match="no key of LEDGER_API_KEYS"):
        load_config(environ={**keys, "LEDGER_KEY_GROUPS": "team=not-a-configured-key-000"})
    with pytest.raises(ValueError, match="another group"):
        load_config(environ={**keys, "LEDGER_KEY_GROUPS": f"x={KEYS['a']};y={KEYS['a']}"})
    with pytest.raises(ValueError, match="a group's name"):
        load_config(environ={**keys, "LEDGER_KEY_GROUPS": f"bad name={KEYS['a']}"})
    cfg = load_config(environ={**keys, "LEDGER_KEY_GROUPS": f"x={KEYS['a']},{KEYS['b']}"})
    assert set(cfg["GROUPS"].values()) == {"group:x"} and len(cfg["GROUPS"]) == 2
