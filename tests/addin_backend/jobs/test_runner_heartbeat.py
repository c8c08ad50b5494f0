"""Dead workers are noticed through heartbeats (issue 16): after ``kill -9`` of a process running
a graph job and holding three queued ones, within 30 s (not ``LEDGER_JOB_STALE_SECONDS``, 900 s)
a live process (as a restarted worker would) has its running job recorded ``failed``
(``job_lost``: a closure, which cannot run again; a running task runs again once), runs its
queued tasks again (another document's graph job ends ``done``; a proposal waiting on the dead
graph fails at once with the graph's error), and reports a queued
job it cannot run again (a closure, not a task) ``job_lost``; its own work goes on meanwhile.
A stopping process does not wait for a blocked job thread. A poison job (issue 33) is identified
by running the suspects alone, and quarantined; the innocent job that died beside it ends."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

from adapters.model import Document, Unit
import pytest

from addin_backend.store import documents
from addin_backend.errors import GraphFailedError
from addin_backend.jobs.runner import LOST_AFTER, QUARANTINED, JobRunner
from addin_backend.service.graph_job import GRAPH_JOB, wait_for_graph
from addin_backend.store.sqlite_store import SqliteStore

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

_WORKER = textwrap.dedent("""
    import sys, time
    from addin_backend.store import documents
    from addin_backend.jobs.runner import JobRunner
    from addin_backend.service.edits import _proposal_job
    from addin_backend.service.graph_job import build_in_stages, graph_stages, start_graph_job
    from addin_backend.store.sqlite_store import SqliteStore
    store = SqliteStore(sys.argv[1])
    runner = JobRunner(store, threads=1)
    doc_id = sys.argv[2]
    running = runner.create(doc_id, "graph", "read", name="graph")
    waiting = runner.create(doc_id, "graph", "read", name="other")  # behind the graph, in its lane
    runner.start(running, lambda progress: time.sleep(3600))
    runner.start(waiting, lambda progress: {"ran": True})
    if len(sys.argv) > 4:  # tasks queued behind: a proposal on this document, another's graph
        proposal = runner.create(doc_id, "proposal", "graph", name="proposal")
        runner.submit(proposal, _proposal_job, doc_id=doc_id, timeout=600,
                      request={"instruction": "Change load to demand", "semantic": False})
        other = sys.argv[4]
        start_graph_job(runner, other, documents.load(store, other), builder=build_in_stages, semantic=False,
                        stages=graph_stages())
    while store.get_json(doc_id, "job:" + running["id"])["status"] != "running":
        time.sleep(0.05)
    print("ready", flush=True)
    if sys.argv[3] == "kill":
        time.sleep(3600)
    # else: return with the job thread blocked in sleep
""")


def _doc() -> Document:
    return Document("docx", units=[Unit("p-1", "paragraph", "Net load is defined here.", 0)])


def _spawn(db: str, doc_id: str, how: str, *more: str) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", _WORKER, db, doc_id, how, *more], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout.readline().strip() == "ready"
    return proc


def test_kill_9_of_a_jobs_worker_fails_its_running_job_and_runs_its_queued_tasks_again(tmp_path):
    db = str(tmp_path / "ledger.sqlite3")
    store = SqliteStore(db)
    doc_id = documents.keep(store, b"PK\x03\x04", _doc(), filename="a.docx")["id"]
    other = documents.keep(store, b"PK\x03\x04", _doc(), filename="b.docx")["id"]
    proc = _spawn(db, doc_id, "kill", other)
    runner = JobRunner(store, threads=2, stale_after=900)
    runner.watch()  # a serving process: it looks for the tasks of dead processes
    jobs = {"graph": f"{doc_id}-graph", "other": f"{doc_id}-other", "proposal": f"{doc_id}-proposal",
            "other_graph": f"{other}-graph"}
    try:
        time.sleep(2 * 2.0 + 0.5)  # heartbeats keep a live worker's jobs alive past their last report
        assert runner.get(jobs["graph"])["status"] == "running"
        assert {runner.get(jobs[k])["status"] for k in ("other", "other_graph")} == {"queued"}
        assert runner.get(jobs["proposal"])["status"] == "running"  # waiting for the graph, in its own lane
        assert store.names("jobs:open") == sorted([jobs["proposal"], jobs["other_graph"]])  # the tasks
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        killed = time.monotonic()
        # a live process's work goes on meanwhile
        mine = runner.create(doc_id, "other", "read")
        runner.start(mine, lambda progress: {"ok": True})
        while True:
            states = {k: runner.get(v) for k, v in jobs.items()}
            if all(s["status"] in ("done", "failed") for s in states.values()):
                break
            assert time.monotonic() - killed < 30, states
            time.sleep(0.5)
        assert time.monotonic() - killed <= LOST_AFTER + 10
        assert states["graph"]["error"]["code"] == "job_lost" and states["other"]["error"]["code"] == "job_lost"
        # the queued tasks ran again here: the other document's graph is built...
        assert states["other_graph"]["status"] == "done" and states["other_graph"]["requeued"] == 1
        assert states["other_graph"]["result"]["graph"]["complete"] is True
        # ...and the proposal that waited on the dead graph failed at once, with the graph's error
        proposal = states["proposal"]
        assert proposal["requeued"] == 1 and proposal["status"] == "failed"
        assert proposal["error"]["code"] == "graph_failed"
        assert proposal["error"]["details"]["cause"]["code"] == "job_lost"
        assert runner.get(mine["id"])["status"] == "done"
        unlisted = time.monotonic() + 10  # nothing left to take over, once the job threads are through
        while store.names("jobs:open"):
            assert time.monotonic() < unlisted, store.names("jobs:open")
            time.sleep(0.1)
        # a proposal that waits for the dead graph now fails at once (it ran on the early graph)
        started = time.monotonic()
        with pytest.raises(GraphFailedError) as failed:
            wait_for_graph(store, runner, doc_id, timeout=600, poll=0.1)
        assert time.monotonic() - started < 5 and failed.value.details["cause"]["code"] == "job_lost"
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        runner.shutdown()
        store.close()


def test_a_lost_task_is_taken_over_by_one_process_only(tmp_path):
    db = str(tmp_path / "ledger.sqlite3")
    store = SqliteStore(db)
    doc_id = documents.keep(store, b"PK\x03\x04", _doc(), filename="a.docx")["id"]
    dead = JobRunner(store, threads=1)
    rec = dead.create(doc_id, "graph", "read", name="graph")
    # as a process that died right after listing the task: its record stopped beating long ago
    store.put_json("jobs:open", rec["id"], {"task": "addin_backend.service.graph_job:run_graph_job",
                                            "kwargs": {"doc_id": doc_id, "semantic": False, "stages": []},
                                            "created": rec["created"]})
    stale = {**rec, "beat": 2.0, "updated": "2020-01-01T00:00:00.000+00:00"}
    store.put_json(doc_id, f"job:{rec['id']}", stale)
    assert dead.get(rec["id"])["status"] == "queued"  # listed: it will run again, it is not lost
    first, second = JobRunner(store, threads=1), JobRunner(store, threads=1)
    try:
        assert (first.recover(), second.recover()) == (1, 0)
        deadline = time.monotonic() + 30
        while first.get(rec["id"])["status"] != "done":
            assert time.monotonic() < deadline, first.get(rec["id"])
            time.sleep(0.1)
        assert store.names("jobs:open") == []
        # a listed task from outside LEDGER is never run: its job is lost
        job = dead.create(doc_id, "graph", "read", name="evil")
        store.put_json("jobs:open", job["id"], {"task": "os:system", "kwargs": {"command": "true"},
                                                "created": job["created"]})
        store.put_json(doc_id, f"job:{job['id']}", {**job, "beat": 2.0, "updated": "2020-01-01T00:00:00.000+00:00"})
        assert first.recover() == 0
        assert first.get(job["id"])["error"]["code"] == "job_lost" and store.names("jobs:open") == []
    finally:
        first.shutdown()
        second.shutdown()
        store.close()


def test_a_task_running_when_its_worker_died_runs_again_alone_and_a_second_death_quarantines_it(tmp_path):
    db = str(tmp_path / "ledger.sqlite3")
    store = SqliteStore(db)
    doc_id = documents.keep(store, b"PK\x03\x04", _doc(), filename="a.docx")["id"]
    dead = JobRunner(store, threads=1)
    spec = {"task": "addin_backend.service.graph_job:run_graph_job",
            "kwargs": {"doc_id": doc_id, "semantic": False, "stages": []}}

    def died_running(name: str, **before) -> dict:
        """A graph task as a process left it when it was killed while running it, long ago."""
        rec = dead.create(doc_id, "graph", "read", name=name)
        store.put_json("jobs:open", rec["id"], {**spec, "created": rec["created"]})
        store.put_json(doc_id, f"job:{rec['id']}", {**rec, "status": "running", "beat": 2.0, "process": "h:1:dead",
                                                    "updated": "2020-01-01T00:00:00.000+00:00", **before})
        return rec

    # the first died beside another job of its process; the second had died once before and was
    # run again alone (solo), and its worker died again: it is the poison
    once = died_running("graph")
    beside = died_running("graph3")
    twice = died_running("graph2", deaths=1, solo=True, reruns=1, process="h:2:dead")
    live = JobRunner(store, threads=1)
    try:
        assert dead.get(once["id"])["status"] == "queued"  # it will run again: not reported lost
        assert live.recover() == 2
        deadline = time.monotonic() + 60
        for job in (once, beside):
            while (got := live.get(job["id"]))["status"] != "done":
                assert time.monotonic() < deadline and got["status"] != "failed", got
                time.sleep(0.1)
            assert got["reruns"] == 1 and got["requeued"] == 1 and got["result"]["graph"]["complete"] is True
            assert got["solo"] is True and got["deaths"] == 1 and got["alone_deaths"] == 0
        # the task that was running both times its worker died, the last time alone: set aside
        bad = live.get(twice["id"])
        assert bad["status"] == "failed" and bad["error"]["code"] == QUARANTINED, bad
        assert "2 times" in bad["error"]["message"] and bad["deaths"] == 2 and bad["alone_deaths"] == 1
        assert store.names("jobs:open") == []
    finally:
        live.shutdown()
        store.close()


_POISON_WORKER = textwrap.dedent("""
    # A worker process (as gunicorn starts one, and starts again when it dies) whose graph task kills
    # its process when it builds the graph of one document: a poison job
    import os, signal, sys, time
    import addin_backend.jobs.runner as runner_module
    import addin_backend.service.graph_job as gj
    runner_module.LOST_AFTER, runner_module.RECOVER_SECONDS = 4.0, 1.0  # the test's clock, not production's
    real = gj.run_graph_job
    def run_graph_job(store, runner, progress, *, doc_id, **kwargs):
        time.sleep(1.0)
        if store.get_json(doc_id, "meta")["filename"] == "poison.docx":
            os.kill(os.getpid(), signal.SIGKILL)
        return real(store, runner, progress, doc_id=doc_id, **kwargs)
    run_graph_job.__module__, run_graph_job.__qualname__ = gj.__name__, "run_graph_job"
    gj.run_graph_job = run_graph_job
    from addin_backend.store import documents
    from addin_backend.jobs.runner import JobRunner
    from addin_backend.store.sqlite_store import SqliteStore
    store = SqliteStore(sys.argv[1])
    runner = JobRunner(store, threads=2)
    runner.watch()
    for doc_id in sys.argv[2:]:
        gj.start_graph_job(runner, doc_id, documents.load(store, doc_id), builder=gj.build_in_stages,
                           semantic=False, stages=gj.graph_stages())
    print("ready", flush=True)
    time.sleep(3600)
""")


@pytest.mark.slow
def test_a_poison_job_is_quarantined_and_the_innocent_job_beside_it_finishes(tmp_path):
    """Issue 33, item 7: a job that kills its worker, running beside an innocent one. Each dead
    worker is started again (as gunicorn does); the poison is identified by running the suspects
    alone, quarantined after its second death, and the innocent document's graph ends ``done``.
    Before: both were lost ("its worker stopped while it ran, 2 times")."""
    db = str(tmp_path / "ledger.sqlite3")
    store = SqliteStore(db)
    poison = documents.keep(store, b"PK\x03\x04", _doc(), filename="poison.docx")["id"]
    innocent = documents.keep(store, b"PK\x03\x04", _doc(), filename="innocent.docx")["id"]
    procs: list[subprocess.Popen] = []

    def start(*docs: str) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-c", _POISON_WORKER, db, *docs], cwd=ROOT, stdout=subprocess.PIPE,
                                text=True)
        procs.append(proc)
        assert proc.stdout.readline().strip() == "ready"
        return proc

    runner = JobRunner(store)
    try:
        proc = start(poison, innocent)  # both graph jobs run side by side in the first worker
        deadline = time.monotonic() + 120
        deaths = 0
        while True:
            if proc.poll() is not None:  # the worker died: start another, as gunicorn does
                deaths += 1
                proc.stdout.close()
                proc = start()
            states = {d: runner.get(f"{d}-graph") for d in (poison, innocent)}
            if all(s["status"] in ("done", "failed") for s in states.values()):
                break
            assert time.monotonic() < deadline, (deaths, states)
            time.sleep(0.2)
        assert states[innocent]["status"] == "done", states[innocent]
        assert states[innocent]["result"]["graph"]["complete"] is True
        bad = states[poison]
        assert bad["status"] == "failed" and bad["error"]["code"] == QUARANTINED, bad
        assert deaths == 2  # beside the innocent, then alone: then set aside, and the third worker lives
        time.sleep(2)
        assert proc.poll() is None and store.names("jobs:open") == []
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()
            if not p.stdout.closed:
                p.stdout.close()
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
