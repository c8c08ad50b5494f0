"""A model that does not answer holds no web thread (issue 33, item 1), on a real ``ledger serve``
(1 worker x 4 threads, the default) with an OpenAI-compatible model on loopback that never answers.

Before: a proposal through the model was answered synchronously (201 after the model's 45 s),
so four of them held all four web threads and ``/healthz`` failed 5 of 7 probes, and two of them
held both job threads while another user's graph job waited. Now a proposal that may call a model
is a job at once (202, as a proposal waiting for its graph already was), run in the model lane
(``LEDGER_MODEL_JOBS``, 2 per worker), where one key runs one at a time
(``LEDGER_MODEL_JOBS_PER_KEY``): the web threads answer, graph jobs go on, and a key whose model
hangs leaves the lane's other slot to another key's proposal.

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


def _job(url: str, job_id: str, headers: dict | None = None, limit: float = 120) -> dict:
    return finished_job(url, job_id, headers, limit)


KEYS = {"a": "key-a-0123456789abcdef", "b": "key-b-0123456789abcdef"}


def _as(key: str) -> dict:
    return {"Authorization": f"Bearer {KEYS[key]}"}


def _upload(url: str, data: bytes, key: str) -> str:
    r = requests.post(f"{url}/api/v1/documents?filename=a.docx", data=data, headers={**OCTETS, **_as(key)},
                      timeout=60)
    assert r.status_code == 201, r.text[:300]
    return r.json()["id"]


def test_proposals_waiting_for_a_model_are_jobs_that_hold_no_web_thread_and_no_graph_thread(tmp_path):
    data = corpus_file("zen_of_python.docx").read_bytes()
    with ChatServer() as model:
        model.script = [Step(hang=True) for _ in range(8)]
        env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_LLM_ENDPOINT": model.endpoint,
               "LEDGER_LLM_KEY": "k", "LEDGER_LLM_MODEL": "gpt-test", "LEDGER_LLM_DEADLINE": "240",
               "LEDGER_LLM_TIMEOUT": "240", "LEDGER_LLM_MAX_RETRIES": "0",  # one call each, held
               "LEDGER_API_KEYS": ",".join(KEYS.values())}
        with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
            doc = _upload(srv.url, data, "a")
            assert _job(srv.url, f"{doc}-graph", _as("a"))["status"] == "done"
            jobs = []
            for _ in range(4):  # as many as the web threads
                r = requests.post(f"{srv.url}/api/v1/documents/{doc}/proposals", timeout=30, headers=_as("a"), json={
                    "instruction": "Make the tone friendlier", "engine": "llm", "author": "A"})
                assert r.status_code == 202, r.text[:300]
                assert r.headers["Location"].endswith(r.json()["job"]["id"])
                jobs.append(r.json()["job"]["id"])
            deadline = time.monotonic() + 60
            while len(model.requests) < 1:  # key A's share of the model lane waits for the model
                assert time.monotonic() < deadline, "the proposal jobs did not call the model"
                time.sleep(0.1)
            # the web threads answer, and another key's upload's graph job runs on the graph lane...
            for _ in range(5):
                assert requests.get(f"{srv.url}/healthz", timeout=30).status_code == 200
            other = _upload(srv.url, data, "b")
            assert _job(srv.url, f"{other}-graph", _as("b"))["status"] == "done"
            # ...and key B's proposal through the model gets the model lane's other slot
            r = requests.post(f"{srv.url}/api/v1/documents/{other}/proposals", timeout=30, headers=_as("b"), json={
                "instruction": "Make the tone friendlier", "engine": "llm", "author": "B"})
            assert r.status_code == 202, r.text[:300]
            theirs = r.json()["job"]["id"]
            deadline = time.monotonic() + 60
            while len(model.requests) < 2:
                assert time.monotonic() < deadline, "key B's proposal waited behind key A's"
                time.sleep(0.1)
            states = sorted(requests.get(f"{srv.url}/api/v1/jobs/{j}", timeout=30, headers=_as("a")).json()["status"]
                            for j in jobs)
            # one of key A's waits for the model, three wait their turn: none has ended
            assert states == ["queued", "queued", "queued", "running"], states
            assert requests.get(f"{srv.url}/api/v1/jobs/{theirs}", timeout=30,
                                headers=_as("b")).json()["status"] == "running"
            assert len(model.requests) == 2
