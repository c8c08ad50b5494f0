"""Everything a client's requests make the server keep counts in its quota (issue 33, item 4),
on a real ``ledger serve`` on loopback: a proposal made by a job is kept twice (``proposal:<id>``
and the job's result) and both are reserved before either is written; a check's findings are
kept and reserved like a proposal. Past the quota the answer is ``507 quota_exceeded`` and
nothing is kept, never half of it.

Each case measures on a server without a quota what the same requests keep, then sets a quota
that the old accounting (one copy of the proposal; findings not counted) would have let pass and
the real sizes do not. The client is the loopback address (a server without keys)."""
from __future__ import annotations

from pathlib import Path

import pytest
import requests

from tests.addin_backend.api.test_costly_work import occurrences
from tests.servers import LedgerServer, finished_job

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

CLIENT = "ip:127.0.0.1"
MB = 1024 * 1024
BASE = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}
SHEET = b'[terms]\n"widget" = "gadget"\n'


def _usage(srv: LedgerServer) -> int:
    """What the client keeps now, read from the server's own store as the quota reads it."""
    from addin_backend.service.quota import usage
    from addin_backend.store import open_store

    store = open_store(None, str(srv.folder / "data"))
    try:
        return usage(store, CLIENT)
    finally:
        store.close()


def _names(srv: LedgerServer, doc: str) -> dict[str, int]:
    from addin_backend.store import open_store

    store = open_store(None, str(srv.folder / "data"))
    try:
        return {n: len(store.get(doc, n) or b"") for n in store.names(doc)}
    finally:
        store.close()


def _upload(srv: LedgerServer, data: bytes) -> str:
    r = requests.post(f"{srv.url}/api/v1/documents?filename=w.docx", data=data, timeout=120,
                      headers={"Content-Type": "application/octet-stream"})
    assert r.status_code == 201, r.text[:300]
    assert finished_job(srv.url, f"{r.json()['id']}-graph")["status"] == "done"
    return r.json()["id"]


def _propose(srv: LedgerServer, doc: str) -> requests.Response:
    return requests.post(f"{srv.url}/api/v1/documents/{doc}/proposals", timeout=120,
                         json={"instruction": "Rename 'widget' to 'gadget'", "author": "A"})


def test_a_proposal_made_by_a_job_is_reserved_twice_before_it_is_kept(tmp_path):
    data = occurrences(600)  # its rename is a job (about 2.8 M characters to carry)
    with LedgerServer(tmp_path / "measure", workers=1, threads=4, env=BASE) as srv:
        doc = _upload(srv, data)
        kept = _usage(srv)
        job = finished_job(srv.url, _propose(srv, doc).json()["job"]["id"])
        assert job["status"] == "done", job
        proposal = _names(srv, doc)[f"proposal:{job['result']['id']}"]
        grown = _usage(srv) - kept
        assert grown >= 2 * proposal  # the proposal and the job's record both hold it
    quota = kept + proposal * 3 // 2  # one copy fits, two do not
    env = {**BASE, "LEDGER_QUOTA_MB": f"{quota / MB:.6f}"}
    with LedgerServer(tmp_path / "quota", workers=1, threads=4, env=env) as srv:
        doc = _upload(srv, data)
        r = _propose(srv, doc)
        assert r.status_code == 202, r.text[:300]
        failed = finished_job(srv.url, r.json()["job"]["id"])
        assert failed["status"] == "failed" and failed["error"]["code"] == "quota_exceeded", failed
        assert failed["result"] is None
        assert not [n for n in _names(srv, doc) if n.startswith("proposal:")]  # nothing half-kept
        assert _usage(srv) <= quota


def test_a_checks_findings_are_counted_in_the_quota_before_they_are_kept(tmp_path):
    data = occurrences(600)  # 'widget' 602 times: as many findings for the sheet below

    def check(srv: LedgerServer, doc: str) -> requests.Response:
        r = requests.put(f"{srv.url}/api/v1/styles/house", data=SHEET, timeout=30,
                         headers={"Content-Type": "application/toml"})
        assert r.status_code in (200, 201), r.text[:300]
        return requests.get(f"{srv.url}/api/v1/documents/{doc}/check?style=house", timeout=120)

    with LedgerServer(tmp_path / "measure", workers=1, threads=4, env=BASE) as srv:
        doc = _upload(srv, data)
        before = set(_names(srv, doc))
        kept = _usage(srv) + len(SHEET)
        r = check(srv, doc)
        assert r.status_code == 200 and r.json()["findings"], r.text[:300]
        (key,) = set(_names(srv, doc)) - before
        findings = _names(srv, doc)[key]
        assert key.startswith("check:") and findings > 50_000
        assert _usage(srv) >= kept + findings
    quota = kept + findings // 2
    env = {**BASE, "LEDGER_QUOTA_MB": f"{quota / MB:.6f}"}
    with LedgerServer(tmp_path / "quota", workers=1, threads=4, env=env) as srv:
        doc = _upload(srv, data)
        before = set(_names(srv, doc))
        r = check(srv, doc)
        assert r.status_code == 507 and r.json()["error"]["code"] == "quota_exceeded", r.text[:300]
        assert "LEDGER_QUOTA_MB" in r.json()["error"]["message"]
        assert set(_names(srv, doc)) == before  # nothing kept
        assert _usage(srv) <= quota


def test_a_review_jobs_report_is_counted_before_its_record_keeps_it(tmp_path):
    import json

    data = occurrences(300)  # one paragraph with 301 'widget'
    env = {**BASE, "LEDGER_SYNC_REVIEW_COST": "10"}  # any review here is a job

    def revision(srv: LedgerServer, doc: str) -> tuple[int, bytes]:
        units = requests.get(f"{srv.url}/api/v1/documents/{doc}/units", timeout=30).json()["units"]
        para = max(units, key=lambda u: u["text"].count("widget"))
        text, ops, at = para["text"], [], para["text"].find("widget")
        while at >= 0:
            ops.append({"op": "replace", "unit": para["id"], "before": text, "start": at, "end": at + 6,
                        "text": "gadget"})
            at = text.find("widget", at + 6)
        r = requests.post(f"{srv.url}/api/v1/documents/{doc}/apply", timeout=300,
                          json={"author": "A", "operations": ops, "comments": False})
        assert r.status_code == 201, r.text[:300]
        return r.json()["revision"], requests.get(srv.url + r.json()["download"], timeout=60).content

    def review(srv: LedgerServer, doc: str, rev: int, file: bytes) -> dict:
        r = requests.post(f"{srv.url}/api/v1/documents/{doc}/revisions/{rev}/review", data=file, timeout=120,
                          headers={"Content-Type": "application/octet-stream"})
        assert r.status_code == 202, r.text[:300]
        return finished_job(srv.url, r.json()["job"]["id"])

    with LedgerServer(tmp_path / "measure", workers=1, threads=4, env=env) as srv:
        doc = _upload(srv, data)
        rev, file = revision(srv, doc)
        kept = _usage(srv)
        done = review(srv, doc, rev, file)
        assert done["status"] == "done" and done["result"]["counts"]["pending"] == 301, done
        report = len(json.dumps(done["result"], ensure_ascii=False, separators=(",", ":")).encode())
        assert report > len(file) + 16_384, (report, len(file))
    # the reviewed file fits while it waits (it is dropped when the review ends); the report does not
    quota = kept + (len(file) + report) // 2
    with LedgerServer(tmp_path / "quota", workers=1, threads=4, env={**env, "LEDGER_QUOTA_MB": f"{quota / MB:.6f}"}) as srv:
        doc = _upload(srv, data)
        rev, file = revision(srv, doc)
        failed = review(srv, doc, rev, file)
        assert failed["status"] == "failed" and failed["error"]["code"] == "quota_exceeded", failed
        assert failed["result"] is None
        assert not [n for n in _names(srv, doc) if n.startswith("review-file:")]  # the waiting file is gone too
        assert _usage(srv) <= quota


def test_an_uploads_model_is_reserved_with_it_before_it_is_kept(tmp_path):
    """A compressed upload's model can be many times its size (12,000 alike paragraphs: 110 KB
    zipped, megabytes of JSON): the door held the upload's bytes only, and the model was stored
    past the quota."""
    from benchmarks.apply_memory import document

    data = document(12000)
    env = {**BASE, "LEDGER_QUOTA_MB": "1"}
    with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
        assert len(data) < MB // 4
        r = requests.post(f"{srv.url}/api/v1/documents?filename=m.docx", data=data, timeout=120,
                          headers={"Content-Type": "application/octet-stream"})
        assert r.status_code == 507 and r.json()["error"]["code"] == "quota_exceeded", r.text[:300]
        assert _usage(srv) == 0  # nothing kept
        _upload(srv, occurrences(2))  # a small document and its model still fit
        assert 0 < _usage(srv) <= MB
