"""A model that does not answer holds no web thread (issue 33, item 1), on a real ``ledger serve``
(1 worker x 4 threads, the default) with an OpenAI-compatible model on loopback that never answers.

Before: a proposal through the model was answered synchronously (201 after the model's 45 s),
so four of them held all four web threads and ``/healthz`` failed 5 of 7 probes, and two of them
held both job threads while another user's graph job waited. Now a proposal that may call a model
is a job at once (202, as a proposal waiting for its graph already was), run on the edit lane's
threads (``LEDGER_EDIT_THREADS``, 2), so the web threads answer and graph jobs go on.

Asserted is what it means: the answers given and the threads the model holds, no wall-clock margin.
"""
from __future__ import annotations

import time

import pytest
import requests

from tests.addin_backend.edits.chat_server import ChatServer, Step
from tests.conftest import corpus_file
from tests.servers import LedgerServer, finished_job

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

OCTETS = {"Content-Type": "application/octet-stream"}


def _upload(url: str, data: bytes) -> str:
    r = requests.post(f"{url}/api/v1/documents?filename=a.docx", data=data, headers=OCTETS, timeout=60)
    assert r.status_code == 201, r.text[:300]
    return r.json()["id"]


def _job(url: str, job_id: str, headers: dict | None = None, limit: float = 120) -> dict:
    return finished_job(url, job_id, headers, limit)


def test_proposals_waiting_for_a_model_are_jobs_that_hold_no_web_thread_and_no_graph_thread(tmp_path):
    data = corpus_file("zen_of_python.docx").read_bytes()
    with ChatServer() as model:
        model.script = [Step(hang=True) for _ in range(8)]
        env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_LLM_ENDPOINT": model.endpoint,
               "LEDGER_LLM_KEY": "k", "LEDGER_LLM_MODEL": "gpt-test", "LEDGER_LLM_DEADLINE": "240",
               "LEDGER_LLM_TIMEOUT": "240", "LEDGER_LLM_MAX_RETRIES": "0"}  # one call each, held
        with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
            doc = _upload(srv.url, data)
            assert _job(srv.url, f"{doc}-graph")["status"] == "done"
            jobs = []
            for _ in range(4):  # as many as the web threads
                r = requests.post(f"{srv.url}/api/v1/documents/{doc}/proposals", timeout=30, json={
                    "instruction": "Make the tone friendlier", "engine": "llm", "author": "A"})
                assert r.status_code == 202, r.text[:300]
                assert r.headers["Location"].endswith(r.json()["job"]["id"])
                jobs.append(r.json()["job"]["id"])
            deadline = time.monotonic() + 60
            while len(model.requests) < 2:  # the edit lane's two threads each wait for the model
                assert time.monotonic() < deadline, "the proposal jobs did not call the model"
                time.sleep(0.1)
            # the web threads answer, and another upload's graph job runs on the graph lane
            for _ in range(5):
                assert requests.get(f"{srv.url}/healthz", timeout=30).status_code == 200
            other = _upload(srv.url, data)
            assert _job(srv.url, f"{other}-graph")["status"] == "done"
            states = sorted(requests.get(f"{srv.url}/api/v1/jobs/{j}", timeout=30).json()["status"] for j in jobs)
            # two wait for the model on the edit lane, two wait their turn: none has ended
            assert states == ["queued", "queued", "running", "running"], states
            assert len(model.requests) == 2
