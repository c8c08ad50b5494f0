"""End to end over HTTP on loopback: a real `ledger serve`, real documents, real LibreOffice.

Upload a corpus .odt and a benchmark .docx, follow the graph job, ask for the impact and the
context of an edit, propose it (rules engine), apply it as Ada Lovelace, download the revision
and open it in headless LibreOffice: the redlines are exactly the intended words with the
given author, Accept All gives the intended text, Reject All the original. The intended text is
computed here from what LibreOffice reads in the original, not by the backend.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import corpus_file
from tests.libreoffice import probe, require_libreoffice
from tests.servers import LedgerServer

pytestmark = pytest.mark.slow

KEY = "e2e-key-0123456789"
AUTHOR = "Ada Lovelace"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    require_libreoffice()
    env = {"LEDGER_API_KEYS": KEY, "LEDGER_RATE_LIMIT": "off"}
    with LedgerServer(tmp_path_factory.mktemp("e2e"), workers=2, threads=4, env=env) as s:
        yield s


@pytest.fixture(scope="module")
def api(server):
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {KEY}"

    def call(method: str, path: str, **kw) -> requests.Response:
        return session.request(method, server.url + path, timeout=300, **kw)

    yield call
    session.close()


@pytest.fixture(scope="module")
def synth_docx(tmp_path_factory) -> Path:
    from benchmarks.synth import build, write_package

    return write_package(build("5k", 0), tmp_path_factory.mktemp("synth"), "docx")


def _follow(api, job: dict, limit: float = 600) -> dict:
    deadline = time.monotonic() + limit
    while job["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, job
        time.sleep(0.3)
        job = api("GET", job["links"]["self"]).json()
    assert job["status"] == "done", job
    return job


def _upload(api, path: Path) -> dict:
    r = api("POST", f"/api/v1/documents?filename={path.name}", data=path.read_bytes(),
            headers={"Content-Type": "application/octet-stream"})
    assert r.status_code == 201, r.text
    doc = r.json()
    doc["job"] = _follow(api, doc["job"])
    return doc


def _propose(api, doc_id: str, instruction: str) -> dict:
    r = api("POST", f"/api/v1/documents/{doc_id}/proposals", json={"instruction": instruction, "author": AUTHOR})
    assert r.status_code in (201, 202), r.text
    return r.json() if r.status_code == 201 else _follow(api, r.json()["job"])["result"]


def _apply_and_probe(api, doc_id: str, proposal: dict, out: Path) -> tuple[dict, dict]:
    r = api("POST", f"/api/v1/documents/{doc_id}/apply",
            json={"proposal_id": proposal["id"], "author": AUTHOR, "instruction": proposal["instruction"]})
    assert r.status_code == 201, r.text
    applied = r.json()
    f = api("GET", applied["download"])
    assert f.status_code == 200
    out.write_bytes(f.content)
    (seen,) = probe([out], ("redlines", "accepted", "rejected"))
    assert "error" not in seen, seen
    return applied, seen


def _lo_texts(path: Path) -> list[str]:
    (orig,) = probe([path], ("paragraphs",))
    return [p["text"] for p in orig["paragraphs"]]


def test_a_corpus_odt_edited_over_http_opens_in_libreoffice_as_intended(api, tmp_path):
    path = corpus_file("referenceAllInOne.odt")
    doc = _upload(api, path)
    doc_id = doc["id"]
    graph = api("GET", f"/api/v1/documents/{doc_id}/graph").json()
    assert graph["complete"] is True and graph["stats"]["edges_by_type"]["REFERENCES"] == 3
    units = {u["text"]: u["id"] for u in api("GET", f"/api/v1/documents/{doc_id}/units").json()["units"]}
    ref = units["A reference to Some text, A list item and A header."]
    impact = api("POST", f"/api/v1/documents/{doc_id}/impact", json={"unit": units["Some text."]}).json()
    assert [(i["unit"], i["via"][0]["type"]) for i in impact["impacted"]] == [(ref, "REFERENCES")]
    context = api("POST", f"/api/v1/documents/{doc_id}/context",
                  json={"instruction": 'Replace "A reference" with "One reference"', "target": ref}).json()
    assert context["targets"] == [ref] and {c["id"] for c in context["context"]} >= {ref, units["Some text."]}

    proposal = _propose(api, doc_id, 'Replace "A reference" with "One reference"')
    assert [(op["id"], op["old"], op["text"], op["source"]) for op in proposal["operations"]] == [
        ("op-1", "A reference", "One reference", "rules")]
    original = _lo_texts(path)
    applied, seen = _apply_and_probe(api, doc_id, proposal, tmp_path / "referenceAllInOne.ledger.odt")
    assert applied["revision"] == 1 and applied["findings"] == []
    assert sorted((r["type"], r["author"], r["text"]) for r in seen["redlines"]) == [
        ("Delete", AUTHOR, "A"), ("Insert", AUTHOR, "One")]
    assert seen["accepted"] == [t.replace("A reference", "One reference") for t in original]
    assert seen["rejected"] == original
    check = api("GET", f"/api/v1/documents/{doc_id}/check?revision=1")
    assert check.status_code == 200 and check.json()["revision"] == 1


def test_a_benchmark_docx_rename_over_http_opens_in_libreoffice_as_intended(api, synth_docx, tmp_path):
    doc = _upload(api, synth_docx)
    doc_id = doc["id"]
    assert doc["job"]["result"]["graph"]["complete"] is True
    units = api("GET", f"/api/v1/documents/{doc_id}/units").json()["units"]
    definer = next(u["id"] for u in units if u["text"].startswith("We define net load as"))
    impact = api("POST", f"/api/v1/documents/{doc_id}/impact", json={"unit": definer}).json()
    users = [i for i in impact["impacted"] if i["via"][0]["type"] == "DEPENDS"]
    assert users and all("net load" in i["via"][0]["evidence"].lower() for i in users)

    instruction = "Rename 'net load' to 'residual load' everywhere"
    context = api("POST", f"/api/v1/documents/{doc_id}/context", json={"instruction": instruction}).json()
    assert definer in {c["id"] for c in context["context"]} and context["tokens"] <= context["budget"] == 1500
    proposal = _propose(api, doc_id, instruction)
    ops = proposal["operations"]
    assert sorted((op["old"], op["text"]) for op in ops) == [("Net load", "Residual load"), ("net load", "residual load")]
    assert all(op["source"] in ("rules", "op-1", "op-2") for op in ops)

    original = _lo_texts(synth_docx)
    intended = [re.sub(r"\bnet load\b", "residual load", re.sub(r"\bNet load\b", "Residual load", t)) for t in original]
    assert intended != original
    applied, seen = _apply_and_probe(api, doc_id, proposal, tmp_path / "synth-5k.ledger.docx")
    assert [op["author"] for op in applied["operations"]] == [AUTHOR] * len(ops)
    assert sorted((r["type"], r["author"], r["text"]) for r in seen["redlines"]) == sorted([
        ("Delete", AUTHOR, "net"), ("Insert", AUTHOR, "residual"),
        ("Delete", AUTHOR, "Net"), ("Insert", AUTHOR, "Residual")])
    assert seen["accepted"] == intended
    assert seen["rejected"] == original
