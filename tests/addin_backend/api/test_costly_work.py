"""Renames and reviews past a small size are jobs, their cost is estimated before any work, and
what they derive counts against the quota (issue 33, items 1, 2 and 4), on a real ``ledger serve``
on loopback.

Before: a rename was planned on the web thread however large (a 10,000-character term on a
1 MB document held it 162 s), a review too (four of 1,200 changes held the web threads until
their deadline), and one paragraph with 5,000 occurrences of a term (a small upload) made a
127 MB proposal, stored past a 100 MB quota. Now a rename's cost (occurrences x paragraph size,
what its proposal will carry) and a review's (changes x paragraphs) are estimated from sizes first:
small ones are answered at once, larger ones are 202 with a job on the edit lane, and past
``LEDGER_MAX_<KIND>_COST`` they are ``413 too_large`` with the estimate and the limit; a proposal
or a revision is capped (``LEDGER_MAX_DERIVED_MB``) and counted in the key's quota before it is
stored. The documents are built here with python-docx: one paragraph with N occurrences of a term.

Asserted is what is answered and what is kept, never a wall-clock margin.
"""
from __future__ import annotations

import asyncio
import base64
import io
import time

import pytest
import requests

from tests.servers import LedgerServer, finished_job

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

OCTETS = {"Content-Type": "application/octet-stream"}
RENAME = "Rename 'widget' to 'gadget'"


def occurrences(n: int) -> bytes:
    """A .docx with the term ``widget`` ``n + 2`` times: in its heading, and ``n + 1`` times in one paragraph."""
    import docx

    d = docx.Document()
    d.add_heading("Widgets", 1)
    d.add_paragraph("A widget is a part. " + "widget " * n)
    d.add_paragraph("Nothing else here.")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def _upload(url: str, data: bytes) -> str:
    r = requests.post(f"{url}/api/v1/documents?filename=w.docx", data=data, headers=OCTETS, timeout=60)
    assert r.status_code == 201, r.text[:300]
    doc = r.json()["id"]
    assert _job(url, f"{doc}-graph")["status"] == "done"
    return doc


def _job(url: str, job_id: str, headers: dict | None = None, limit: float = 300) -> dict:
    return finished_job(url, job_id, headers, limit)


def _propose(url: str, doc: str, instruction: str = RENAME) -> requests.Response:
    return requests.post(f"{url}/api/v1/documents/{doc}/proposals", timeout=120,
                         json={"instruction": instruction, "author": "A"})


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}  # the cost settings at their defaults
    with LedgerServer(tmp_path_factory.mktemp("costly"), workers=1, threads=4, env=env) as srv:
        yield srv


def test_a_small_rename_is_answered_a_large_one_is_a_job_and_a_huge_one_is_refused_before_any_work(server):
    url = server.url
    small, large, huge = _upload(url, occurrences(100)), _upload(url, occurrences(600)), _upload(url, occurrences(5000))
    # about 100 x 1 KB: answered at once (LEDGER_SYNC_RENAME_COST 1,000,000)
    r = _propose(url, small)
    assert r.status_code == 201, r.text[:300]
    assert len(r.json()["operations"]) == 102
    # about 600 x 4.6 KB = 2.8 M characters: a job on the edit lane, its result the proposal
    r = _propose(url, large)
    assert r.status_code == 202, r.text[:300]
    job = r.json()["job"]
    assert job["kind"] == "proposal" and r.headers["Location"].endswith(job["id"])
    for _ in range(3):  # the web threads answer while it runs
        assert requests.get(f"{url}/healthz", timeout=30).status_code == 200
    done = _job(url, job["id"])
    assert done["status"] == "done", done
    proposal = done["result"]
    assert len(proposal["operations"]) == 602
    kept = requests.get(f"{url}/api/v1/documents/{large}/proposals/{proposal['id']}", timeout=30)
    assert kept.status_code == 200 and len(kept.json()["operations"]) == 602
    # 5,000 occurrences in one 35 KB paragraph: a proposal of ~177 M characters, refused at once
    cpu = server.cpu_seconds()
    r = _propose(url, huge)
    assert r.status_code == 413, r.text[:300]
    err = r.json()["error"]
    assert err["code"] == "too_large"
    assert err["details"]["occurrences"] == 5002 and err["details"]["limit"] == 40_000_000
    assert err["details"]["estimated_cost"] > err["details"]["limit"]
    assert "LEDGER_MAX_RENAME_COST" in err["message"] and "one section at a time" in err["message"]
    assert server.cpu_seconds() - cpu < 5  # the estimate is one pass over the text, not the rename
    # no job was made for it, and the document keeps no proposal
    r = _propose(url, huge, "Rename 'nothing here' to 'something'")
    assert r.status_code == 201 and r.json()["operations"] == []
    # the same rename as a client's operation to apply: refused before any writing
    r = requests.post(f"{url}/api/v1/documents/{huge}/apply", timeout=120, json={
        "author": "A", "operations": [{"op": "rename", "old": "widget", "text": "gadget"}]})
    assert r.status_code == 413 and r.json()["error"]["details"]["occurrences"] == 5002, r.text[:300]


def test_a_rename_through_mcp_is_the_same_orchestration(server):
    from tests.mcp.helpers import http_client, ok, refused

    async def session() -> tuple[dict, dict]:
        async with http_client(server.url, None) as c:
            large = ok(await c.call_tool("open_document", {
                "content_base64": base64.b64encode(occurrences(600)).decode(), "filename": "w.docx"}))
            got = ok(await c.call_tool("propose_edit", {"document_id": large["document_id"], "instruction": RENAME}))
            huge = ok(await c.call_tool("open_document", {
                "content_base64": base64.b64encode(occurrences(5000)).decode(), "filename": "h.docx"}))
            no = refused(await c.call_tool("propose_edit", {"document_id": huge["document_id"],
                                                            "instruction": RENAME}), "too_large")
            return got, no

    got, no = asyncio.run(session())
    assert len(got["operations"]) == 602  # run as a job on the edit lane and followed by the tool
    assert no["details"]["occurrences"] == 5002


def test_the_command_line_refuses_the_same_rename_and_review_before_any_work(tmp_path):
    import os
    import subprocess
    import sys

    from tests.mcp.helpers import ROOT

    env = {**{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}, "HF_HUB_OFFLINE": "1"}
    huge = tmp_path / "huge.docx"
    huge.write_bytes(occurrences(5000))

    def ledger(*args: str, **more: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "addin_backend.cli", *args], cwd=ROOT, capture_output=True,
                              text=True, timeout=300, env={**env, **more})

    said = ledger("edit", str(huge), "--no-semantic", "--dry-run", "--json", "--instruction", RENAME)
    assert said.returncode != 0 and "too_large" in said.stdout + said.stderr, (said.stdout + said.stderr)[-800:]
    assert "LEDGER_MAX_RENAME_COST" in said.stdout + said.stderr
    # a small edit, written, then reviewed against itself: refused past LEDGER_MAX_REVIEW_COST, answered below
    small, edited = tmp_path / "small.docx", tmp_path / "small.ledger.docx"
    small.write_bytes(occurrences(2))
    done = ledger("edit", str(small), "--no-semantic", "-o", str(edited), "--instruction", RENAME)
    assert done.returncode == 0, (done.stdout + done.stderr)[-800:]
    refused = ledger("review", str(edited), "--against", str(edited), "--json", LEDGER_MAX_REVIEW_COST="5")
    assert refused.returncode != 0 and "too_large" in refused.stdout + refused.stderr, refused.stdout[-800:]
    answered = ledger("review", str(edited), "--against", str(edited), "--json")
    assert answered.returncode == 0, (answered.stdout + answered.stderr)[-800:]


def _revision(url: str, doc: str, operations: list[dict]) -> tuple[int, bytes]:
    r = requests.post(f"{url}/api/v1/documents/{doc}/apply", timeout=120, json={"author": "A", "operations": operations})
    assert r.status_code == 201, r.text[:300]
    data = requests.get(url + r.json()["download"], timeout=60).content
    return r.json()["revision"], data


def test_reviews_past_a_small_size_are_jobs_and_past_the_limit_are_refused(tmp_path):
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_SYNC_REVIEW_COST": "3",
           "LEDGER_MAX_REVIEW_COST": "7"}
    with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
        url = srv.url
        doc = _upload(url, occurrences(2))  # 3 units
        units = requests.get(f"{url}/api/v1/documents/{doc}/units", timeout=30).json()["units"]
        last = units[-1]
        one = [{"op": "set_text", "unit": last["id"], "before": last["text"], "text": "Nothing at all here."}]
        rev, data = _revision(url, doc, one)
        # 1 change x 3 paragraphs = 3: answered at once
        r = requests.post(f"{url}/api/v1/documents/{doc}/revisions/{rev}/review", data=data, headers=OCTETS, timeout=60)
        assert r.status_code == 200, r.text[:300]
        assert r.json()["counts"]["pending"] == 1
        # a rename of 4 occurrences: 4 changes x 3 paragraphs = 12, past the limit of 7: refused
        r = _propose(url, doc)
        assert r.status_code == 201
        applied = requests.post(f"{url}/api/v1/documents/{doc}/apply", timeout=120,
                                json={"author": "A", "proposal_id": r.json()["id"]})
        assert applied.status_code == 201, applied.text[:300]
        data3 = requests.get(url + applied.json()["download"], timeout=60).content
        r = requests.post(f"{url}/api/v1/documents/{doc}/revisions/{applied.json()['revision']}/review", data=data3,
                          headers=OCTETS, timeout=60)
        assert r.status_code == 413, r.text[:300]
        err = r.json()["error"]
        assert err["code"] == "too_large" and err["details"]["changes"] == 4 and err["details"]["limit"] == 7
        assert "LEDGER_MAX_REVIEW_COST" in err["message"]
        # 2 changes x 3 paragraphs = 6: past the synchronous size, a job whose result is the review
        two = [one[0], {"op": "replace", "unit": units[1]["id"], "before": units[1]["text"], "start": 2,
                        "end": 8, "text": "gadget"}]
        rev2, data2 = _revision(url, doc, two)
        r = requests.post(f"{url}/api/v1/documents/{doc}/revisions/{rev2}/review", data=data2, headers=OCTETS,
                          timeout=60)
        assert r.status_code == 202, r.text[:300]
        job = r.json()["job"]
        assert job["kind"] == "review" and r.headers["Location"].endswith(job["id"])
        done = _job(url, job["id"])
        assert done["status"] == "done", done
        assert done["result"]["revision"] == rev2 and done["result"]["counts"]["pending"] == 2
        # the reviewed file waited in the document's scope for its job only
        names = [n for n in _scope_names(srv, doc) if n.startswith("review-file:")]
        assert names == []


def _scope_names(srv: LedgerServer, doc: str) -> list[str]:
    """What the document's scope holds, read from the server's own store (SQLite in its data folder)."""
    from addin_backend.store import open_store

    store = open_store(None, str(srv.folder / "data"))
    try:
        return store.names(doc)
    finally:
        store.close()


def test_a_proposal_is_counted_in_the_quota_and_capped_before_it_is_stored(tmp_path):
    # a 2 MB quota: the upload (36 KB, ~4x with its model and graph) fits, its 600-occurrence
    # rename's proposal (~2.8 MB) does not
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_QUOTA_MB": "2"}
    with LedgerServer(tmp_path / "quota", workers=1, threads=4, env=env) as srv:
        doc = _upload(srv.url, occurrences(600))
        r = _propose(srv.url, doc)
        assert r.status_code == 202, r.text[:300]
        failed = _job(srv.url, r.json()["job"]["id"])
        assert failed["status"] == "failed" and failed["error"]["code"] == "quota_exceeded", failed
        assert "LEDGER_QUOTA_MB" in failed["error"]["message"]
        assert not [n for n in _scope_names(srv, doc) if n.startswith("proposal:")]  # nothing was stored
        small = _propose(srv.url, doc, "Rename 'nothing here' to 'something'")
        assert small.status_code == 201  # a small one still fits
    # no quota, but one derived thing is at most 1 MB
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_MAX_DERIVED_MB": "1"}
    with LedgerServer(tmp_path / "cap", workers=1, threads=4, env=env) as srv:
        doc = _upload(srv.url, occurrences(600))
        failed = _job(srv.url, _propose(srv.url, doc).json()["job"]["id"])
        assert failed["status"] == "failed" and failed["error"]["code"] == "quota_exceeded", failed
        assert "LEDGER_MAX_DERIVED_MB" in failed["error"]["message"]
        assert not [n for n in _scope_names(srv, doc) if n.startswith("proposal:")]


def test_a_check_whose_style_sheet_would_search_too_many_units_is_refused_before_any_search(tmp_path):
    """The cost of a check is what its word index says each entry will be searched in: a sheet of
    terms all starting with a word the document uses costs a scan per term (issue 33: a sheet of
    20,000 terms within the caps ran past 600 s), one with words it never uses costs nothing."""
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_MAX_CHECK_COST": "50"}
    with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
        doc = _upload(srv.url, occurrences(2))  # 'widget' in one paragraph
        sheets = {"few": "".join(f'"widget x{i}" = "gadget"\n' for i in range(10)),
                  "rare": "".join(f'"q{i} site" = "y"\n' for i in range(2000)),
                  "many": "".join(f'"widget x{i}" = "gadget"\n' for i in range(60))}
        for name, terms in sheets.items():
            r = requests.put(f"{srv.url}/api/v1/styles/{name}", data=("[terms]\n" + terms).encode(), timeout=30,
                             headers={"Content-Type": "application/toml"})
            assert r.status_code in (200, 201), r.text[:300]
        for name in ("few", "rare"):
            r = requests.get(f"{srv.url}/api/v1/documents/{doc}/check?style={name}", timeout=60)
            assert r.status_code == 200, r.text[:300]
        r = requests.get(f"{srv.url}/api/v1/documents/{doc}/check?style=many", timeout=60)
        assert r.status_code == 413, r.text[:300]
        err = r.json()["error"]
        assert err["code"] == "too_large" and "LEDGER_MAX_CHECK_COST" in err["message"]
        assert err["details"]["estimated_cost"] == 60 and err["details"]["limit"] == 50
        assert err["details"]["style_sheet_entries"] == 60

def measure(folder: str, counts: tuple[int, ...] = (5000, 10000), **env: str) -> list[dict]:
    """For each paragraph of ``counts`` occurrences, on a fresh ``ledger serve`` (1 x 4) with
    ``env``: the answer to its rename, the worker's CPU seconds and peak resident memory growth,
    and what the document's scope stores afterwards. ``python -m tests.addin_backend.api.test_costly_work``
    prints it with the defaults (the estimate refuses) and with ``LEDGER_MAX_RENAME_COST=0`` (no
    estimate: what the proposal would have been, now capped and counted in the quota)."""
    import threading
    from pathlib import Path

    from addin_backend.store import open_store

    out = []
    base = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_QUOTA_MB": "100", **env}
    with LedgerServer(Path(folder), workers=1, threads=4, env=base) as srv:
        for n in counts:
            data = occurrences(n)
            doc = _upload(srv.url, data)
            store = open_store(None, str(srv.folder / "data"))
            before, start, cpu = store.scope_bytes(doc), max(srv.rss_kib().values()), srv.cpu_seconds()
            peak, stop = [start], threading.Event()

            def sample() -> None:
                while not stop.is_set():
                    peak[0] = max(peak[0], max(srv.rss_kib().values(), default=0))
                    time.sleep(0.05)

            watcher = threading.Thread(target=sample, daemon=True)
            watcher.start()
            r = _propose(srv.url, doc)
            answer = r.json()
            if r.status_code == 202:
                answer = _job(srv.url, answer["job"]["id"], limit=1800)
            stop.set()
            watcher.join()
            error = answer.get("error") or {}
            out.append({"occurrences": n + 2, "upload_bytes": len(data), "http": r.status_code,
                        "status": answer.get("status"), "code": error.get("code"),
                        "message": (error.get("message") or "")[:160], "cpu_s": round(srv.cpu_seconds() - cpu, 2),
                        "peak_rss_growth_mb": round((peak[0] - start) / 1024, 1),
                        "stored_growth_bytes": store.scope_bytes(doc) - before})
            store.close()
    return out


if __name__ == "__main__":  # the figures of docs/hardening.md
    import json
    import sys
    import tempfile

    counts = tuple(int(a) for a in sys.argv[1:]) or (5000, 10000)
    with tempfile.TemporaryDirectory() as tmp:
        print("defaults:", json.dumps(measure(f"{tmp}/a", counts), indent=1))
        print("LEDGER_MAX_RENAME_COST=0:", json.dumps(measure(f"{tmp}/b", counts, LEDGER_MAX_RENAME_COST="0"), indent=1))
