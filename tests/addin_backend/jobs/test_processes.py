"""Jobs in both embedded modes (issue 33): on the web worker's threads, and in the job processes it
supervises (``LEDGER_JOBS=processes``, the default of ``ledger serve``). The same tasks end the same
way in both; in processes mode they run in another process, a child killed under its job is
noticed at once, the job runs again and is quarantined at its second death while an innocent job
beside it ends, deleting a document stops its job in the child, and budgets hold. The model lane
(either mode) keeps a key whose model hangs from holding the slots another key's proposals need."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from adapters.model import Document, Unit
from addin_backend.budget import for_client
from addin_backend.errors import UnknownJobError
from addin_backend.jobs.modes import make_runner
from addin_backend.jobs.processes import ProcessRunner, child_settings
from addin_backend.jobs.runner import MODEL_LANE, QUARANTINED, JobRunner
from addin_backend.service.edits import _proposal_job
from addin_backend.service.graph_job import build_in_stages, graph_stages, start_graph_job
from addin_backend.store import documents
from addin_backend.store.sqlite_store import SqliteStore

POISON = str(Path(__file__).parent / "poison")
ROOT = str(Path(__file__).resolve().parents[3])


def _doc(n: int = 3) -> Document:
    return Document("docx", units=[Unit(f"p-{i}", "paragraph", f"Net load {i} is defined here. See load {i}.", i)
                                   for i in range(1, n + 1)])


def _keep(store: SqliteStore, name: str, n: int = 3) -> tuple[str, Document]:
    doc = _doc(n)
    return documents.keep(store, b"PK\x03\x04", doc, filename=name)["id"], doc


def _graph(runner: JobRunner, doc_id: str, doc: Document) -> str:
    return start_graph_job(runner, doc_id, doc, builder=build_in_stages, semantic=False, stages=graph_stages())["id"]


def _end(runner: JobRunner, job_id: str, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while (rec := runner.get(job_id))["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, rec
        time.sleep(0.1)
    return rec


@pytest.fixture
def db(tmp_path):
    store = SqliteStore(str(tmp_path / "ledger.sqlite3"))
    yield store
    store.close()


def _runner(mode: str, store: SqliteStore, tmp_path, **kw) -> JobRunner:
    return make_runner(store, mode=mode, settings=child_settings(f"sqlite:///{tmp_path / 'ledger.sqlite3'}",
                                                                 str(tmp_path), 3600), **kw)


@pytest.mark.parametrize("mode", ["threads", "processes"])
def test_a_graph_and_a_proposal_end_the_same_in_either_mode(mode, db, tmp_path):
    doc_id, doc = _keep(db, "a.docx")
    runner = _runner(mode, db, tmp_path)
    try:
        graph = _end(runner, _graph(runner, doc_id, doc))
        assert graph["status"] == "done" and graph["result"]["graph"]["complete"] is True, graph
        rec = runner.create(doc_id, "proposal", "graph")
        runner.submit(rec, _proposal_job, doc_id=doc_id, timeout=60,
                      request={"instruction": "Change load to demand", "semantic": False})
        proposal = _end(runner, rec["id"])
        assert proposal["status"] == "done", proposal
        assert proposal["result"]["operations"] and proposal["stages"][-1] == "plan"
        # where it ran: another process (a child of this one), or this one
        ran_in = int(graph["process"].split(":")[1])
        if mode == "processes":
            assert isinstance(runner, ProcessRunner) and ran_in != os.getpid() and ran_in in runner.children()
        else:
            assert ran_in == os.getpid()
    finally:
        runner.shutdown()


@pytest.mark.parametrize("mode", ["threads", "processes"])
def test_a_job_past_its_cpu_budget_fails_in_either_mode(mode, db, tmp_path):
    doc_id, doc = _keep(db, "a.docx", 400)
    runner = _runner(mode, db, tmp_path)
    runner.job_cpu_seconds = 0.001
    try:
        rec = _end(runner, _graph(runner, doc_id, doc))
        assert rec["status"] == "failed" and rec["error"]["code"] == "deadline_exceeded", rec
    finally:
        runner.shutdown()


@pytest.mark.slow
def test_a_killed_job_process_is_noticed_its_job_rerun_then_quarantined_and_the_innocent_job_ends(
        db, tmp_path, monkeypatch):
    """The poison's graph task kill -9s the job process that runs it (tests/.../poison); the web
    worker (this process) notices at once, starts a child again, runs the job again and
    quarantines it at its second death; the innocent graph beside it, in the other child, ends."""
    monkeypatch.setenv("LEDGER_TEST_POISON", "poison.docx")
    monkeypatch.setenv("PYTHONPATH", f"{POISON}:{ROOT}")
    poison, pdoc = _keep(db, "poison.docx")
    innocent, idoc = _keep(db, "innocent.docx")
    runner = _runner("processes", db, tmp_path, processes=2)
    try:
        jobs = [_graph(runner, poison, pdoc), _graph(runner, innocent, idoc)]
        bad, good = _end(runner, jobs[0]), _end(runner, jobs[1])
        assert good["status"] == "done" and good["result"]["graph"]["complete"] is True, good
        assert not good.get("deaths")  # it never noticed: it ran in its own process
        assert bad["status"] == "failed" and bad["error"]["code"] == QUARANTINED, bad
        assert bad["deaths"] == 2 and bad["requeued"] == 1
        deadline = time.monotonic() + 10  # unlisted by this process once its child answered
        while db.names("jobs:open"):
            assert time.monotonic() < deadline, db.names("jobs:open")
            time.sleep(0.1)
        # the children are there again for the next job
        other, odoc = _keep(db, "later.docx")
        assert _end(runner, _graph(runner, other, odoc))["status"] == "done"
    finally:
        runner.shutdown()


@pytest.mark.slow
def test_deleting_a_document_stops_its_job_in_the_job_process(db, tmp_path, monkeypatch):
    monkeypatch.setenv("LEDGER_TEST_SLOW", "slow.docx")
    monkeypatch.setenv("PYTHONPATH", f"{POISON}:{ROOT}")
    slow, sdoc = _keep(db, "slow.docx")
    after, adoc = _keep(db, "after.docx")
    runner = _runner("processes", db, tmp_path)  # one graph child: the next job waits for it
    try:
        job = _graph(runner, slow, sdoc)
        deadline = time.monotonic() + 60
        while runner.get(job)["status"] != "running":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        nxt = _graph(runner, after, adoc)
        documents.delete(db, slow)
        with pytest.raises(UnknownJobError):
            runner.get(job)
        assert _end(runner, nxt, timeout=40)["status"] == "done"  # the child was free again within seconds
    finally:
        runner.shutdown()


def test_a_key_whose_model_hangs_holds_only_its_own_share_of_the_model_lane(db):
    """Issue 33, item 1: proposals that wait for a model have their own lane, and one key runs at
    most one of them at a time there: key A's four hanging proposals leave a slot for key B's, and
    the edit lane (a review) is not touched."""
    db.put("doc", {"meta": b"{}"})
    runner = JobRunner(db, threads=1, edit_threads=1, model_threads=2, model_per_client=1)
    hang, running = threading.Event(), []
    lock = threading.Lock()

    def model(who):
        def work(progress):
            with lock:
                running.append(who)
            hang.wait(30)
            return {"who": who}
        return work

    try:
        a_jobs = []
        for _ in range(4):
            with for_client("key-a"):
                rec = runner.create("doc", "proposal", "graph", extra={"lane": MODEL_LANE})
                runner.start(rec, model("a"))
                a_jobs.append(rec["id"])
        with for_client("key-b"):
            b = runner.create("doc", "proposal", "graph", extra={"lane": MODEL_LANE})
            runner.start(b, model("b"))
            review = runner.create("doc", "review", "review")
            runner.start(review, lambda progress: {"reviewed": True})
        assert _end(runner, review["id"], timeout=10)["status"] == "done"  # the edit lane is free
        deadline = time.monotonic() + 10
        while sorted(running) != ["a", "b"]:
            assert time.monotonic() < deadline, running
            time.sleep(0.05)
        time.sleep(0.3)
        assert sorted(running) == ["a", "b"]  # a second slot is free, but key A has its share
        assert [runner.get(j)["status"] for j in a_jobs].count("queued") == 3
        hang.set()
        assert all(_end(runner, j)["status"] == "done" for j in a_jobs)
    finally:
        hang.set()
        runner.shutdown()


@pytest.mark.slow
def test_another_keys_small_graph_runs_while_one_keys_long_graphs_hold_the_lane(db, tmp_path, monkeypatch):
    """Issue 33, fair share between keys: key A's three long graphs (held until this test lets them
    go: tests/.../poison, LEDGER_TEST_GATE) hold the graph lane's own job process and queue; key B's
    small graph starts in the lane's kept slot and ends while all of A's are still held, and A's
    queued graphs never take that slot. Once idle, the lane's second child is stopped (the busy
    one stays); after everything ends one child of the lane stays, its models loaded."""
    gate = tmp_path / "gate"
    gate.mkdir()
    monkeypatch.setenv("LEDGER_TEST_GATE", str(gate))
    monkeypatch.setenv("PYTHONPATH", f"{POISON}:{ROOT}")
    runner = ProcessRunner(db, child_settings(f"sqlite:///{tmp_path / 'ledger.sqlite3'}", str(tmp_path), 3600),
                           processes=1, idle_seconds=1.0)
    try:
        held = []
        with for_client("key:aaaaaaaaaaaa"):
            for i in range(3):
                doc_id, doc = _keep(db, f"held-{i}.docx")
                held.append(_graph(runner, doc_id, doc))
        deadline = time.monotonic() + 60
        while runner.get(held[0])["status"] != "running":
            assert time.monotonic() < deadline, runner.get(held[0])
            time.sleep(0.1)
        with for_client("key:bbbbbbbbbbbb"):
            small_id, small = _keep(db, "small.docx")
            small_job = _graph(runner, small_id, small)
        rec = _end(runner, small_job, timeout=120)
        assert rec["status"] == "done" and rec["result"]["graph"]["complete"] is True, rec
        assert not list(gate.iterdir())  # none of A's was let go
        assert [runner.get(j)["status"] for j in held] == ["running", "queued", "queued"]
        assert int(rec["process"].split(":")[1]) != int(runner.get(held[0])["process"].split(":")[1])
        deadline = time.monotonic() + 60  # B's child, idle, is stopped; A's, busy, stays
        while len(runner.children()) != 1:
            assert time.monotonic() < deadline, runner.children()
            time.sleep(0.2)
        assert runner.get(held[0])["status"] == "running"
        for i in range(3):
            (gate / f"held-{i}.docx").write_text("go")
        assert all(_end(runner, j)["status"] == "done" for j in held)
        deadline = time.monotonic() + 60  # a second child A's later graphs may have started stops too
        while len(runner.children()) != 1:
            assert time.monotonic() < deadline, runner.children()
            time.sleep(0.2)
        time.sleep(3.0)  # past idle_seconds, heartbeats: the lane keeps its last child
        assert len(runner.children()) == 1
    finally:
        for i in range(3):
            (gate / f"held-{i}.docx").write_text("go")
        runner.shutdown()


_GIVES_WAY = """
import sys, time
from addin_backend import foreground
foreground.watch(int(sys.argv[1]))
print(foreground.busy(), flush=True)  # the worker's requests, seen from here
sys.stdin.readline()  # the worker now serves one request
print(foreground.busy(), round(foreground.give_way(30.0), 1), flush=True)
"""


def test_a_job_process_gives_way_to_the_requests_its_web_worker_serves():
    """Foreground across processes: a job process reads its web worker's count of requests on the
    shared board and holds at give_way while one is served, as a job thread does."""
    import subprocess
    import sys

    from addin_backend import foreground

    fd = foreground.board()
    child = subprocess.Popen([sys.executable, "-c", _GIVES_WAY, str(fd)], pass_fds=(fd,), cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().split() == ["0"]
        with foreground.serving():
            child.stdin.write("go\n")
            child.stdin.flush()
            time.sleep(1.0)  # the request takes a second: the job holds meanwhile
        busy, waited = child.stdout.readline().split()
        assert busy == "1" and 0.5 <= float(waited) < 30, (busy, waited)
    finally:
        child.kill()
        child.wait()
        child.stdin.close()
        child.stdout.close()
