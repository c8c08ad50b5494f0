"""Jobs: stages and progress kept in the store, readable by another runner (another worker)."""
from __future__ import annotations

import logging
import threading
import time

import pytest

from addin_backend.errors import UnknownJobError, UnknownUnitError
from addin_backend.jobs.processes import ProcessRunner, child_settings
from addin_backend.jobs.runner import JobRunner, scope_of


def _wait(runner: JobRunner, job_id: str, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        rec = runner.get(job_id)
        if rec["status"] in ("done", "failed") or time.monotonic() > deadline:
            return rec
        time.sleep(0.02)


@pytest.fixture(params=["threads", "processes"])
def runner(store, request, tmp_path):
    """Either embedded runner: these jobs are callables, which run on the worker's threads in
    both (tasks in job processes: test_processes.py)."""
    if request.param == "threads":
        r = JobRunner(store, threads=2)
    else:
        r = ProcessRunner(store, child_settings(None, str(tmp_path), 60), processes=2)
    yield r
    r.shutdown()


def test_a_job_reports_stages_and_progress_that_another_worker_can_read(store, runner):
    store.put("doc", {"meta": b"{}"})
    other_worker = JobRunner(store)  # shares nothing with ``runner`` but the store
    gate, seen = threading.Event(), []

    def work(progress):
        progress("contains", 0.25)
        progress("references", 0.5)
        seen.append(other_worker.get(job["id"]))
        gate.wait(5)
        progress("references", 0.4)  # never backwards
        return {"answer": 42}

    job = runner.create("doc", "graph", "read", name="graph", progress=0.1)
    assert job["id"] == "doc-graph" and job["status"] == "queued"
    runner.start(job, work)
    deadline = time.monotonic() + 5
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
    mid = seen[0]
    assert (mid["status"], mid["stage"], mid["progress"]) == ("running", "references", 0.5)
    assert mid["stages"] == ["read", "contains", "references"]
    gate.set()
    done = _wait(other_worker, job["id"])
    assert (done["status"], done["progress"], done["result"], done["error"]) == ("done", 1.0, {"answer": 42}, None)


def test_a_known_error_fails_the_job_with_its_code(store, runner):
    store.put("doc", {})

    def work(progress):
        raise UnknownUnitError("the document has no unit 'p-x'")

    job = runner.create("doc", "graph", "read")
    runner.start(job, work)
    rec = _wait(runner, job["id"])
    assert rec["status"] == "failed"
    assert rec["error"] == {"code": "unknown_unit", "message": "the document has no unit 'p-x'"}


def test_an_unexpected_error_is_logged_without_its_message(store, runner, caplog):
    store.put("doc", {})
    secret = "Confidential merger terms: 42 million"

    def work(progress):
        raise ValueError(secret)

    caplog.set_level(logging.DEBUG)
    job = runner.create("doc", "graph", "read")
    runner.start(job, work)
    rec = _wait(runner, job["id"])
    assert rec["error"] == {"code": "internal_error", "message": "the job failed unexpectedly"}
    assert "ValueError" in caplog.text and "test_runner.py" in caplog.text
    assert secret not in caplog.text and secret not in str(rec)


def test_deleting_the_document_cancels_its_job_and_forgets_it(store, runner):
    store.put("doc", {})
    started, release, outcome = threading.Event(), threading.Event(), []

    def work(progress):
        started.set()
        release.wait(5)
        try:
            progress("references", 0.9)
        except BaseException as exc:
            outcome.append(type(exc).__name__)
            raise
        return {}

    job = runner.create("doc", "graph", "read")
    runner.start(job, work)
    assert started.wait(5)
    assert store.delete("doc")
    release.set()
    runner.shutdown(wait=True)
    assert outcome == ["JobCancelled"]
    assert store.get("doc", f"job:{job['id']}") is None  # the job did not bring the scope back
    with pytest.raises(UnknownJobError):
        runner.get(job["id"])


def test_a_job_whose_worker_died_is_reported_lost(store):
    store.put("doc", {})
    runner = JobRunner(store, stale_after=0.2)
    job = runner.create("doc", "graph", "read", status="running")  # nobody runs it
    assert runner.get(job["id"])["status"] == "running"
    time.sleep(0.4)
    rec = runner.get(job["id"])
    assert rec["status"] == "failed" and rec["error"]["code"] == "job_lost"


def test_job_ids_name_their_scope_and_junk_ids_are_unknown(store, runner):
    store.put("abc123", {})
    job = runner.create("abc123", "graph", "read")
    assert scope_of(job["id"]) == "abc123" and len(job["id"]) == len("abc123-") + 8
    for junk in ("nodash", "-x", "abc123-", "abc123-ffffffff"):
        with pytest.raises(UnknownJobError) as exc:
            runner.get(junk)
        assert exc.value.code == "unknown_job"


def test_a_job_needs_an_existing_scope(runner):
    with pytest.raises(UnknownJobError):
        runner.create("never-uploaded", "graph", "read")


def _started(runner: JobRunner, job_id: str, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while (rec := runner.get(job_id))["status"] == "queued":
        assert time.monotonic() < deadline, rec
        time.sleep(0.01)
    return rec


def test_edit_jobs_have_their_own_lane_and_each_client_a_fair_share_of_a_lane(store):
    """Issue 33, item 1: a proposal waiting on a slow model holds an edit thread, never a graph
    thread; a client that queued many graph jobs holds the lane's own threads, never the one kept
    for a client with nothing running there (B's one job starts at once while A's run); and when
    a thread frees, the client with the fewest running jobs goes first (C's, though younger than
    A's third)."""
    from addin_backend.budget import for_client

    store.put("doc", {"meta": b"{}"})
    runner = JobRunner(store, threads=2, edit_threads=1)
    gates = {name: threading.Event() for name in ("model", "a1", "a2", "a3", "b1", "c1")}
    order: list[str] = []

    def blocked(name):
        def work(progress):
            order.append(name)
            assert gates[name].wait(60)
            return {"name": name}
        return work

    try:
        slow = runner.create("doc", "proposal", "read", name="slow")  # a model that does not answer
        runner.start(slow, blocked("model"))
        assert _started(runner, slow["id"])["status"] == "running"
        jobs = {}
        with for_client("key:aaaaaaaaaaaa"):
            for name in ("a1", "a2", "a3"):
                jobs[name] = runner.create("doc", "graph", "read", name=name)
                runner.start(jobs[name], blocked(name))
        _started(runner, jobs["a1"]["id"]), _started(runner, jobs["a2"]["id"])  # the graph lane's own threads
        with for_client("key:bbbbbbbbbbbb"):
            jobs["b1"] = runner.create("doc", "graph", "read", name="b1")
            runner.start(jobs["b1"], blocked("b1"))
        # the kept thread: B's job runs while both of A's still hold theirs (no A job has ended)
        assert _started(runner, jobs["b1"]["id"])["status"] == "running"
        assert not gates["a1"].is_set() and runner.get(jobs["a3"]["id"])["status"] == "queued"
        with for_client("key:cccccccccccc"):
            jobs["c1"] = runner.create("doc", "graph", "read", name="c1")
            runner.start(jobs["c1"], blocked("c1"))
        time.sleep(0.2)
        assert runner.get(jobs["a3"]["id"])["status"] == runner.get(jobs["c1"]["id"])["status"] == "queued"
        gates["a1"].set()  # a thread frees: C has no job running, A has one: C's goes first, though younger
        assert _started(runner, jobs["c1"]["id"])["status"] == "running"
        time.sleep(0.2)
        assert runner.get(jobs["a3"]["id"])["status"] == "queued"
        for name in ("a2", "a3", "b1", "c1", "model"):
            gates[name].set()
        for job in (*jobs.values(), slow):
            assert _wait(runner, job["id"])["status"] == "done"
        assert order.index("b1") < order.index("a3") and order.index("c1") < order.index("a3")
        assert order[0] == "model"
    finally:
        for gate in gates.values():
            gate.set()
        runner.shutdown()


def test_one_client_alone_never_takes_the_kept_thread(store):
    """The kept thread serves another client, not a third job of the same one: with one graph
    thread, a client's second job waits for its first, as it did before the kept thread."""
    from addin_backend.budget import for_client

    store.put("doc", {"meta": b"{}"})
    runner = JobRunner(store, threads=1)
    gates = {name: threading.Event() for name in ("a1", "a2")}

    def blocked(name):
        def work(progress):
            assert gates[name].wait(60)
            return {"name": name}
        return work

    try:
        with for_client("key:aaaaaaaaaaaa"):
            jobs = {name: runner.create("doc", "graph", "read", name=name) for name in gates}
            for name, rec in jobs.items():
                runner.start(rec, blocked(name))
        assert _started(runner, jobs["a1"]["id"])["status"] == "running"
        time.sleep(0.3)
        assert runner.get(jobs["a2"]["id"])["status"] == "queued"
        gates["a1"].set()
        assert _started(runner, jobs["a2"]["id"])["status"] in ("running", "done")
        gates["a2"].set()
        assert _wait(runner, jobs["a2"]["id"])["status"] == "done"
    finally:
        for gate in gates.values():
            gate.set()
        runner.shutdown()


def test_a_job_past_its_cpu_budget_fails_with_deadline_exceeded(store, runner):
    """The CPU budget (LEDGER_JOB_CPU_SECONDS) counts the job thread's own CPU time, read by the
    same check as the wall-clock budget, which here is far away."""
    from addin_backend.budget import check

    store.put("doc", {"meta": b"{}"})
    runner.job_seconds, runner.job_cpu_seconds = 600.0, 0.2

    def spin(progress):
        while True:
            check()

    job = runner.create("doc", "graph", "read", name="spin")
    runner.start(job, spin)
    rec = _wait(runner, job["id"], timeout=60)
    assert rec["status"] == "failed" and rec["error"]["code"] == "deadline_exceeded", rec
    assert "LEDGER_JOB_CPU_SECONDS" in rec["error"]["message"]
