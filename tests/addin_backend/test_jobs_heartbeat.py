"""Dead workers are noticed through heartbeats (issue 16): ``kill -9`` of a process running a job
(and holding another queued) gets both reported ``failed`` (``job_lost``) within seconds, not
after ``LEDGER_JOB_STALE_SECONDS`` (900 s); work in live processes goes on; a proposal waiting
for that graph stops waiting; a stopping process does not wait for a blocked job thread."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from adapters.model import Document, Unit
from addin_backend import documents
from addin_backend.jobs import LOST_AFTER, JobRunner
from addin_backend.service.graph_job import GRAPH_JOB, wait_for_graph
from addin_backend.store.sqlite_store import SqliteStore

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_WORKER = textwrap.dedent("""
    import sys, time
    from addin_backend.jobs import JobRunner
    from addin_backend.store.sqlite_store import SqliteStore
    store = SqliteStore(sys.argv[1])
    runner = JobRunner(store, threads=1)
    doc_id = sys.argv[2]
    running = runner.create(doc_id, "graph", "read", name="graph")
    waiting = runner.create(doc_id, "other", "read", name="other")
    runner.start(running, lambda progress: time.sleep(3600))
    runner.start(waiting, lambda progress: {"ran": True})
    while store.get_json(doc_id, "job:" + running["id"])["status"] != "running":
        time.sleep(0.05)
    print("ready", flush=True)
    if sys.argv[3] == "kill":
        time.sleep(3600)
    # else: return with the job thread blocked in sleep
""")


def _doc() -> Document:
    return Document("docx", units=[Unit("p-1", "paragraph", "Net load is defined here.", 0)])


def _spawn(db: str, doc_id: str, how: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", _WORKER, db, doc_id, how], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc


def test_kill_9_of_a_jobs_worker_fails_its_running_and_queued_jobs_within_seconds(tmp_path):
    db = str(tmp_path / "ledger.sqlite3")
    store = SqliteStore(db)
    meta = documents.keep(store, b"PK\x03\x04", _doc(), filename="a.docx")
    doc_id = meta["id"]
    proc = _spawn(db, doc_id, "kill")
    runner = JobRunner(store, threads=1, stale_after=900)
    try:
        time.sleep(2 * 2.0 + 0.5)  # heartbeats keep a live worker's jobs alive past their last report
        assert runner.get(f"{doc_id}-graph")["status"] == "running"
        assert runner.get(f"{doc_id}-other")["status"] == "queued"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        killed = time.monotonic()
        # a live process's work goes on meanwhile
        mine = runner.create(doc_id, "other", "read")
        runner.start(mine, lambda progress: {"ok": True})
        while True:
            states = [runner.get(f"{doc_id}-{name}") for name in ("graph", "other")]
            if all(s["status"] == "failed" for s in states):
                break
            assert time.monotonic() - killed < 30, states
            time.sleep(0.5)
        assert all(s["error"]["code"] == "job_lost" for s in states)
        assert time.monotonic() - killed <= LOST_AFTER + 5
        assert runner.get(mine["id"])["status"] == "done"

        # a proposal waiting for the dead graph stops waiting (on the early graph it can build)
        started = time.monotonic()
        G = wait_for_graph(store, runner, doc_id, timeout=600, poll=0.1)
        assert time.monotonic() - started < 5 and G.graph["complete"] is False
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        runner.shutdown()
        store.close()


def test_a_process_with_a_blocked_job_thread_exits_at_once(tmp_path):
    db = str(tmp_path / "ledger.sqlite3")
    store = SqliteStore(db)
    doc_id = documents.keep(store, b"PK\x03\x04", _doc(), filename="a.docx")["id"]
    try:
        proc = _spawn(db, doc_id, "exit")
        started = time.monotonic()
        assert proc.wait(timeout=20) == 0
        assert time.monotonic() - started < 5  # ThreadPoolExecutor's exit hook waited for the job forever
        proc.stdout.close()
    finally:
        store.close()
    assert GRAPH_JOB == "graph"
