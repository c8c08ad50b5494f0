"""Jobs on a real queue: RQ on a real redis-server, `ledger worker` processes started here.

The web side is the Flask app in this process (its store is Redis, so its jobs go to the queue);
the workers are separate processes, as in a deployment. Covers: a job runs on a worker, not in
the web process; `kill -9` of the worker mid-build ends with the job done by another worker and
the graph complete; deleting a document cancels its queued jobs; small documents are taken
before large ones; the health check; a job waiting in the queue is never reported lost.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.servers import ROOT, WorkerProcess

pytestmark = pytest.mark.slow

KEY = "queue-test-key-0123456789"
AUTH = {"Authorization": f"Bearer {KEY}"}


@pytest.fixture(autouse=True)
def _clean(redis_url, monkeypatch):
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    for var in [v for v in os.environ if v.startswith("LEDGER_")]:
        monkeypatch.delenv(var)
    monkeypatch.setenv("LEDGER_EMBEDDING_CACHE", "off")


@pytest.fixture
def make_app(tmp_path, redis_url):
    from addin_backend.api import create_app

    made = []

    def make(**settings):
        app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "web"), "STORE": redis_url,
                          "API_KEYS": [KEY], "RATE_LIMIT": "off", **settings})
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["ledger.store"].close()


def _docx(paragraphs: int, *, seed: int = 0) -> bytes:
    """A .docx with sections of distinct, topical paragraphs (what RELATED embeds)."""
    import random

    from docx import Document

    rng = random.Random(seed)
    topics = ["congestion window", "packet loss", "key exchange", "certificate chain", "stream limits",
              "flow control", "retransmission timer", "handshake keys", "path validation", "ack frequency"]
    verbs = ["limits", "updates", "delays", "protects", "signals", "controls", "measures", "resets"]
    nouns = ["the sender", "each endpoint", "the receiver", "a server", "the client", "an implementation"]
    d = Document()
    d.add_heading("Transport Behaviour", 0)
    for i in range(paragraphs):
        if i % 12 == 0:
            d.add_heading(f"{i // 12 + 1}. {rng.choice(topics).title()}", 1)
        topic = rng.choice(topics)
        words = [rng.choice(nouns), rng.choice(verbs), "the", topic, "when", rng.choice(nouns),
                 rng.choice(verbs), "its", rng.choice(topics), f"after {rng.randint(2, 90)} ms", "and",
                 rng.choice(verbs), "the", rng.choice(topics), "as Section", str(rng.randint(1, 9)), "describes."]
        d.add_paragraph(" ".join(words).capitalize())
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def _upload(client, data: bytes, name: str = "spec.docx") -> dict:
    r = client.post(f"/api/v1/documents?filename={name}", data=data, headers=AUTH,
                    content_type="application/octet-stream")
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _job(client, job_id: str) -> dict:
    r = client.get(f"/api/v1/jobs/{job_id}", headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _until(client, job_id: str, done, timeout: float = 240.0, poll: float = 0.05) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        rec = _job(client, job_id)
        if done(rec) or time.monotonic() > deadline:
            return rec
        time.sleep(poll)


def _final(rec: dict) -> bool:
    return rec["status"] in ("done", "failed")


def _rq_status(redis_url: str, job_id: str) -> str:
    import redis
    from rq.job import Job
    from rq.serializers import JSONSerializer

    job = Job.fetch(job_id, connection=redis.Redis.from_url(redis_url), serializer=JSONSerializer)
    return str(getattr(job.get_status(), "value", job.get_status()))


def test_a_job_runs_on_a_ledger_worker_not_in_the_web_worker(make_app, tmp_path, redis_url):
    app = make_app(GRAPH_SEMANTIC=False)
    assert app.extensions["ledger.jobs"].mode == "queue"
    client = app.test_client()
    with WorkerProcess(tmp_path / "w1", redis_url, args=["--heartbeat", "1"],
                       env={"LEDGER_GRAPH_SEMANTIC": "0"}) as worker:
        worker.ready()
        body = _upload(client, _docx(30))
        assert body["job"]["status"] == "queued"  # the web worker only enqueued it
        rec = _until(client, body["job"]["id"], _final)
        assert rec["status"] == "done", rec
        assert rec["worker"]["pid"] == worker.pid != os.getpid()
        assert rec["queue"] == "ledger-small" and rec["attempt"] == 1
        graph = client.get(f"/api/v1/documents/{body['id']}/graph", headers=AUTH).get_json()
        assert graph["complete"] is True and graph["nodes"]


def test_kill_9_of_the_worker_mid_build_ends_with_another_worker_completing_the_graph(make_app, tmp_path, redis_url):
    app = make_app(GRAPH_SEMANTIC=True)
    client = app.test_client()
    env = {"LEDGER_GRAPH_SEMANTIC": "1", "LEDGER_EMBEDDING_CACHE": "off"}
    with WorkerProcess(tmp_path / "w1", redis_url, args=["--heartbeat", "1"], env=env, name="first") as first, \
         WorkerProcess(tmp_path / "w2", redis_url, args=["--heartbeat", "1"], env=env, name="second") as second:
        first.ready(), second.ready()
        body = _upload(client, _docx(900, seed=1))
        job_id = body["job"]["id"]
        # mid-build: running, past the fast stages, the graph not complete yet
        rec = _until(client, job_id, lambda r: _final(r) or (r["status"] == "running" and r["stage"] in ("depends", "related")),
                     poll=0.02)
        assert rec["status"] == "running", rec
        victim = first if rec["worker"]["pid"] == first.pid else second
        survivor = second if victim is first else first
        victim.kill()
        rec = _until(client, job_id, _final, timeout=300)
        assert rec["status"] == "done", (rec, survivor.log.read_text()[-3000:])
        assert rec["worker"]["pid"] == survivor.pid and rec["attempt"] == 2
        assert rec["requeued"]["reason"] == "worker_lost"
        graph = client.get(f"/api/v1/documents/{body['id']}/graph", headers=AUTH).get_json()
        assert graph["complete"] is True
        assert graph["stages"] == ["contains", "references", "depends", "related"]
        assert rec["result"]["graph"]["edges"] == len(graph["edges"])


def test_deleting_a_document_cancels_its_queued_jobs(make_app, tmp_path, redis_url):
    app = make_app(GRAPH_SEMANTIC=False)
    client = app.test_client()
    body = _upload(client, _docx(20))  # no worker yet: the job waits in the queue
    graph_job = body["job"]["id"]
    proposal = client.post(f"/api/v1/documents/{body['id']}/proposals", headers=AUTH,
                           json={"instruction": 'Replace "sender" with "SENDER"'})
    assert proposal.status_code == 202
    edit_job = proposal.get_json()["job"]["id"]
    assert _rq_status(redis_url, graph_job) == "queued"
    assert _rq_status(redis_url, edit_job) == "deferred"  # it runs after the graph job
    assert client.delete(f"/api/v1/documents/{body['id']}", headers=AUTH).status_code == 204
    assert _rq_status(redis_url, graph_job) == "canceled"
    assert _rq_status(redis_url, edit_job) == "canceled"
    with WorkerProcess(tmp_path / "w", redis_url, args=["--burst", "--no-preload"]) as worker:
        assert worker.proc.wait(120) == 0
    log = worker.log.read_text()
    assert graph_job not in log and edit_job not in log  # nothing of it ever ran


def test_small_documents_are_taken_before_large_ones_queued_earlier(make_app, tmp_path, redis_url):
    app = make_app(GRAPH_SEMANTIC=False, QUEUE_LARGE_TOKENS=400)
    client = app.test_client()
    large = [_upload(client, _docx(60, seed=s)) for s in range(2)]
    small = _upload(client, _docx(5))
    assert [_rq_status(redis_url, d["job"]["id"]) for d in large + [small]] == ["queued"] * 3
    with WorkerProcess(tmp_path / "w", redis_url, args=["--burst", "--no-preload"],
                       env={"LEDGER_GRAPH_SEMANTIC": "0"}) as worker:
        assert worker.proc.wait(180) == 0
    recs = [_job(client, d["job"]["id"]) for d in large + [small]]
    assert [r["queue"] for r in recs] == ["ledger-large", "ledger-large", "ledger-small"]
    assert all(r["status"] == "done" for r in recs)
    log = worker.log.read_text()
    order = sorted(recs, key=lambda r: log.index(f"{r['id']} ({r['kind']}) done"))
    assert order[0]["id"] == small["job"]["id"]


def _health(redis_url: str, *args: str) -> tuple[int, dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
    env.update(LEDGER_STORE=redis_url, PYTHONPATH=str(ROOT))
    run = subprocess.run([sys.executable, "-m", "addin_backend.cli", "worker", "--health", "--json", *args],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    return run.returncode, json.loads(run.stdout)


def test_worker_health_tells_whether_every_queue_is_served(tmp_path, redis_url):
    code, report = _health(redis_url)
    assert code == 1 and report["redis"] == "ok"
    assert "no worker serves the small queue" in report["problems"]
    with WorkerProcess(tmp_path / "w", redis_url, args=["--queues", "edits,small", "--no-preload"]) as worker:
        worker.ready()
        code, report = _health(redis_url, "--queues", "edits,small")
        assert code == 0 and report["healthy"], report
        assert [w["pid"] for w in report["workers"]] == [worker.pid]
        assert report["queues"]["small"] == {"queued": 0, "started": 0, "failed": 0, "workers": 1,
                                             "oldest_queued_s": None}
        code, report = _health(redis_url)  # nobody serves "large"
        assert code == 1 and report["problems"] == ["no worker serves the large queue"]
    from tests.servers import free_port

    code, report = _health(f"redis://127.0.0.1:{free_port()}/0")
    assert code == 2 and report["healthy"] is False


def test_a_job_waiting_in_the_queue_is_not_reported_lost(make_app):
    app = make_app(GRAPH_SEMANTIC=False, JOB_STALE_SECONDS=0.5)
    client = app.test_client()
    body = _upload(client, _docx(5))
    time.sleep(1.0)
    rec = _job(client, body["job"]["id"])
    assert rec["status"] == "queued" and rec["error"] is None


def test_the_web_side_refuses_a_callable_job_on_the_queue(make_app):
    runner = make_app().extensions["ledger.jobs"]
    with pytest.raises(TypeError):
        runner.start({"id": "x-1"}, lambda progress: None)


def test_queue_mode_needs_redis(tmp_path):
    from addin_backend.jobs.modes import make_runner
    from addin_backend.store import open_store

    store = open_store(None, str(tmp_path))
    assert make_runner(store).mode == "threads"
    with pytest.raises(ValueError, match="needs LEDGER_STORE=redis"):
        make_runner(store, mode="queue")


def test_a_poison_job_is_quarantined_and_the_supervised_workers_keep_serving(make_app, tmp_path, redis_url):
    """Issue 33, item 7 on the queue: a job that kills its worker. ``ledger worker --processes 2``
    (a supervisor) starts each dead worker again; the poison is quarantined after its second death
    (it never kills a third worker), an innocent document's graph and a new upload's both end
    ``done``, and ``ledger worker --health`` finds every queue served. Before: with two workers
    not restarted, the poison killed both, the health check found no worker and a new upload's
    graph job waited queued indefinitely."""
    from addin_backend.jobs.runner import QUARANTINED

    app = make_app(GRAPH_SEMANTIC=False)
    client = app.test_client()
    env = {"LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_TEST_POISON": "poison.docx",
           "PYTHONPATH": f"{Path(__file__).parent / 'poison'}:{ROOT}"}
    with WorkerProcess(tmp_path / "w", redis_url, args=["--heartbeat", "1", "--processes", "2", "--no-preload"],
                       env=env, supervise=True) as pool:
        deadline = time.monotonic() + 120
        while len(pool.children()) < 2:
            assert time.monotonic() < deadline, pool.log.read_text()[-2000:]
            time.sleep(0.2)
        first = pool.children()
        poison = _upload(client, _docx(12), name="poison.docx")["job"]["id"]
        innocent = _upload(client, _docx(12, seed=3), name="innocent.docx")["job"]["id"]
        bad = _until(client, poison, _final, timeout=240)
        assert bad["status"] == "failed" and bad["error"]["code"] == QUARANTINED, bad
        assert bad["deaths"] == 2
        assert _until(client, innocent, _final, timeout=240)["status"] == "done"
        later = _upload(client, _docx(12, seed=5), name="later.docx")["job"]["id"]
        assert _until(client, later, _final, timeout=240)["status"] == "done"
        assert len(pool.children()) == 2 and pool.children() != first  # the dead were replaced
        health = subprocess.run([sys.executable, "-m", "addin_backend.cli", "worker", "--health", "--json"],
                                cwd=ROOT, capture_output=True, text=True, timeout=60,
                                env={**{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
                                     "LEDGER_STORE": redis_url, "PYTHONPATH": str(ROOT)})
        report = json.loads(health.stdout)
        assert health.returncode == 0 and report["healthy"], report
    assert "died (signal 9)" in pool.log.read_text()
