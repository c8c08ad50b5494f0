"""Progressive analysis on a real server (``ledger serve`` on loopback) with a 100K-token standard:
the outline, the dependency panel and a proposal answer while the semantic stage (RELATED, the
embeddings, most of the job) still runs, and the job names every stage, in order, as it goes."""
from __future__ import annotations

import time

import pytest
import requests

from tests.addin_backend.reviewkit import need
from tests.conftest import DEVSET_DOCS
from tests.servers import LedgerServer

pytestmark = pytest.mark.slow

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
PLAN = ["read", "contains", "references", "depends", "check", "related"]


def _done(rec: dict) -> list[str]:
    return [s["name"] for s in rec["stage_log"] if s["status"] == "done"]


def test_outline_panel_and_proposal_come_before_the_semantic_stage_ends(tmp_path):
    data = need(DEVSET_DOCS / "rfc9000.A.docx").read_bytes()
    # a fresh data folder: no embedding is cached, so RELATED takes its real time
    with LedgerServer(tmp_path, workers=1, threads=4, env={"LEDGER_GRAPH_SEMANTIC": "1"}) as srv:
        api = srv.url + "/api/v1"
        up = requests.post(f"{api}/documents?filename=rfc9000.A.docx", data=data, headers={"Content-Type": DOCX},
                           timeout=60)
        assert up.status_code == 201, up.text
        doc = up.json()
        job = doc["job"]
        # from the upload's answer on: every stage is named, and the outline is usable
        assert [s["name"] for s in job["stage_log"]] == PLAN and _done(job) == ["read"]
        assert {"outline", "units", "check"} <= set(job["ready"]) and "impact" not in job["ready"]
        outline = requests.get(f"{api}/documents/{doc['id']}/outline", timeout=30)
        assert outline.status_code == 200 and outline.json()["outline"]

        seen: list[dict] = []
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            rec = requests.get(f"{api}/jobs/{job['id']}", timeout=30).json()
            seen.append(rec)
            if "proposals" in rec["ready"] or rec["status"] in ("done", "failed"):
                break
            time.sleep(0.2)
        assert rec["status"] == "running", rec
        assert _done(rec) == PLAN[:4]  # read, contains, references, depends: RELATED is still to come
        assert rec["ready"][:5] == ["outline", "units", "check", "graph", "impact"]
        assert rec["edges"] == ["CONTAINS", "REFERENCES", "DEPENDS"]
        assert all(s["seconds"] is not None for s in rec["stage_log"][1:4])
        # every poll saw a prefix of the plan done: the stages come in order, none skipped
        for r in seen:
            assert _done(r) == PLAN[:len(_done(r))]

        graph = requests.get(f"{api}/documents/{doc['id']}/graph?types=REFERENCES", timeout=60).json()
        assert graph["complete"] is False and graph["stages"] == PLAN[1:4]
        citing = next(e["source"] for e in graph["edges"] if e["type"] == "REFERENCES")
        panel = requests.post(f"{api}/documents/{doc['id']}/impact", json={"unit": citing}, timeout=30)
        assert panel.status_code == 200, panel.text
        assert panel.json()["partial"] == ["RELATED"] and panel.json()["references"]

        prop = requests.post(f"{api}/documents/{doc['id']}/proposals", timeout=120,
                             json={"instruction": 'Rename "connection ID" to "connection identifier" everywhere'})
        assert prop.status_code == 201, prop.text  # no job to wait for: DEPENDS is there
        body = prop.json()
        assert body["partial"] == ["RELATED"] and len(body["operations"]) > 100
        assert any("related passages" in w for w in body["warnings"])
        still = requests.get(f"{api}/jobs/{job['id']}", timeout=30).json()
        assert still["status"] == "running" and "related" not in _done(still)
        # the first check is kept before the semantic stage: then Run check answers what it kept
        while still["stage"] != "related" and time.monotonic() < deadline:
            time.sleep(0.2)
            still = requests.get(f"{api}/jobs/{job['id']}", timeout=30).json()
        assert _done(still) == PLAN[:5] and "findings" in still["ready"], still
        # the semantic stage is reported as it runs
        assert still["stage"] == "related" and [s["status"] for s in still["stage_log"]][-1] == "running"
        found = requests.get(f"{api}/documents/{doc['id']}/check", timeout=30)
        assert found.status_code == 200 and found.json()["findings"]
        assert requests.delete(f"{api}/documents/{doc['id']}", timeout=30).status_code == 204
