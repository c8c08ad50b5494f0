"""Background jobs with named stages and a progress fraction, answerable from any worker.

Each worker process runs its jobs on its own small thread pool, but a job's state (status,
stage, progress, error, result) lives in the store, in the scope of the document it works
on. Any worker can therefore answer a poll, and deleting the document deletes its jobs: the
next progress report of a job whose scope is gone raises :class:`JobCancelled` inside the job,
which stops it quietly. A job whose record has not moved for ``stale_after`` seconds (its
worker died) is reported as failed with the code ``job_lost``.

In this embedded mode every process heartbeats the records of its queued and running jobs every
:data:`HEARTBEAT_SECONDS` (a record so kept says ``"beat"``), so a worker killed with its jobs is
noticed within :data:`LOST_AFTER` seconds, not ``stale_after``. A job handed over as a task
(:meth:`JobRunner.submit`) is also listed in the store's scope :data:`OPEN_JOBS` until it ends;
every process that serves (:meth:`JobRunner.watch`) looks there every :data:`RECOVER_SECONDS`,
so a dead process's *queued* tasks are run again by a live one (a restarted worker included),
once each per loss; a task it was *running* is run again too, once (:data:`RERUNS`): a task that
was running each time its worker died is recorded ``failed`` (``job_lost``), as it may be what
kills workers. A job that is no task (a closure) cannot be run again and is lost. What waited
on a lost job (a proposal on its graph) fails with the graph's error at once. The job threads
are daemon threads: a stopping worker does not wait for a blocked job.

That is the embedded default (SQLite, nothing else to start). With a Redis store the jobs can go
to a real queue instead (:func:`addin_backend.jobs.modes.make_runner`, :mod:`addin_backend.jobs.queue`): the web workers
only enqueue and answer, ``ledger worker`` processes on any machine run them, and the records
stay in the store as here. Work is handed over as a *task* (:meth:`JobRunner.submit`): a
module-level function ``task(store, runner, progress, **kwargs)`` with JSON-able ``kwargs``, so
that either runner can carry it.
"""
from __future__ import annotations

import copy
import importlib
import logging
import os
import queue
import secrets
import threading
import time
import traceback
from datetime import datetime, timezone
from functools import partial
from typing import Any, Callable

from .. import memory
from ..budget import budget, check as check_budget
from ..errors import UnknownJobError, describe
from ..store import Store

__all__ = ["JobRunner", "JobCancelled", "Progress", "STATUSES", "OPEN_JOBS", "scope_of", "task_path",
           "resolve_task"]

log = logging.getLogger("ledger.jobs")

STATUSES = ("queued", "running", "done", "failed")
_FINAL = ("done", "failed")
#: Progress is written when it moved this much, or the stage changed, or this long passed.
_MIN_STEP = 0.01
_MIN_INTERVAL = 1.0
#: Seconds between a process's heartbeats of its jobs, and the silence after which a job whose
#: record carries ``beat`` counts as lost (several missed beats: a busy store may delay one).
HEARTBEAT_SECONDS = 2.0
LOST_AFTER = 15.0
#: The store scope that lists the tasks not ended yet (name: job id; value: the task and its
#: arguments), and how often a serving process looks there for those of dead processes.
OPEN_JOBS = "jobs:open"
#: How often a task whose worker died while it ran is run again before it is lost.
RERUNS = 1
RECOVER_SECONDS = 5.0


class JobCancelled(Exception):
    """The job's document was deleted or expired while the job ran."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _key(job_id: str) -> str:
    return f"job:{job_id}"


def scope_of(job_id: str) -> str:
    """The scope (document id) a job id belongs to: job ids are ``<scope>-<random>``.

    >>> scope_of("3f2a9c-0b1c2d3e")
    '3f2a9c'
    """
    scope, sep, tail = job_id.rpartition("-")
    if not sep or not scope or not tail:
        raise UnknownJobError(f"no job {job_id!r}")
    return scope


class Progress:
    """The callback a job function receives: ``progress(stage, fraction, stage_fraction=None)``.

    ``fraction`` is the job's overall progress in [0, 1] and never goes backwards;
    ``stage_fraction`` how far the current stage is, when the work knows it. Writes are
    throttled. Raises :class:`JobCancelled` when the job's scope no longer exists.
    """

    def __init__(self, store: Store, record: dict[str, Any]) -> None:
        self._store = store
        self.record = record
        self._written = self._state() + (time.monotonic(),)
        self._lock = threading.Lock()

    def _state(self) -> tuple[str, float, float]:
        rec = self.record
        return rec["stage"], rec["progress"], rec.get("stage_progress") or 0.0

    def __call__(self, stage: str, fraction: float, stage_fraction: float | None = None) -> None:
        check_budget()  # a report is a point where the job may stop: past its budget it does
        with self._lock:
            rec = self.record
            rec["progress"] = max(rec["progress"], _clamp(fraction))
            rec["stage_progress"] = None if stage_fraction is None else _clamp(stage_fraction)
            if stage != rec["stage"]:
                rec["stage"] = stage
                if stage not in rec["stages"]:
                    rec["stages"].append(stage)
            (last_stage, last_progress, last_in_stage, last_time) = self._written
            _stage, now_progress, now_in_stage = self._state()
            if (
                stage == last_stage
                and now_progress - last_progress < _MIN_STEP
                and abs(now_in_stage - last_in_stage) < _MIN_STEP
                and time.monotonic() - last_time < _MIN_INTERVAL
            ):
                return
            self._write()

    def touch(self) -> None:
        """Write the record as it is, with a fresh ``updated``: the job is alive (a worker's
        heartbeat between progress reports). Raises :class:`JobCancelled` as a report would."""
        with self._lock:
            self._write()

    def finish(self, status: str, **fields: Any) -> None:
        with self._lock:
            self.record.update(status=status, **fields)
            if status == "done":
                self.record["progress"] = 1.0
            self._write()

    def _write(self) -> None:
        rec = self.record
        rec["updated"] = _now()
        if not self._store.put_json(rec["document"], _key(rec["id"]), rec, create=False):
            raise JobCancelled(rec["id"])
        self._written = self._state() + (time.monotonic(),)


def _clamp(value: float) -> float:
    return min(1.0, max(0.0, float(value)))


def task_path(task: Callable[..., Any]) -> str:
    """``module:function`` of a task, as a queue carries it.

    >>> task_path(scope_of)
    'addin_backend.jobs.runner:scope_of'
    """
    name = getattr(task, "__qualname__", "")
    if not name or "<" in name or "." in name:
        raise TypeError(f"a task must be a module-level function, not {task!r}")
    return f"{task.__module__}:{name}"


def resolve_task(path: str) -> Callable[..., Any]:
    """The task function named ``module:function`` (:func:`task_path`); only LEDGER's own tasks.

    >>> resolve_task("addin_backend.jobs.runner:scope_of") is scope_of
    True
    >>> resolve_task("os:system")
    Traceback (most recent call last):
    ValueError: not a LEDGER task: 'os:system'
    """
    module, _, name = path.partition(":")
    if not module.startswith("addin_backend.") or not name:
        raise ValueError(f"not a LEDGER task: {path!r}")
    return getattr(importlib.import_module(module), name)


class JobRunner:
    """Starts jobs on a per-process thread pool and reads job records back from the store."""

    #: ``threads`` here; ``queue`` for :class:`addin_backend.jobs.queue.QueueRunner`.
    mode = "threads"
    #: Wall-clock seconds one job may work (``LEDGER_JOB_SECONDS``; 0: no budget), then it is
    #: ``failed`` with ``deadline_exceeded`` (:mod:`addin_backend.budget`).
    job_seconds: float = 0.0

    def __init__(self, store: Store, threads: int = 2, stale_after: float = 900.0) -> None:
        self.store = store
        self.threads = max(1, threads)
        self.stale_after = stale_after
        self._pool: _DaemonPool | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self._live: dict[str, Progress] = {}  # this process's queued and running jobs, heartbeaten
        self._listed: set[str] = set()  # those of them listed in OPEN_JOBS
        self._recovered = 0.0

    def _executor(self) -> "_DaemonPool":
        # A pool made before a fork has no threads in the child: make one per process.
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                self._pool = _DaemonPool(self.threads, "ledger-job", self._beat)
                self._pid = os.getpid()
                self._live = {}
            return self._pool

    def _beat(self) -> None:
        """One heartbeat: touch the record of every queued or running job of this process (and,
        every :data:`RECOVER_SECONDS`, take over the queued tasks of dead processes)."""
        for job_id, progress in list(self._live.items()):
            try:
                progress.touch()
            except JobCancelled:
                self._live.pop(job_id, None)
            except Exception as exc:  # a busy store: the next beat tries again
                log.warning("heartbeat of job %s failed: %s", job_id, type(exc).__name__)
        if time.monotonic() - self._recovered >= RECOVER_SECONDS:
            self._recovered = time.monotonic()
            try:
                self.recover()
            except Exception as exc:  # a busy store: the next round tries again
                log.warning("looking for lost jobs failed: %s", type(exc).__name__)

    def watch(self) -> None:
        """Start this process's job threads and heartbeat now (a serving process calls it at
        start-up), so that it takes over the queued tasks of dead processes at once, not only
        once it has work of its own. Only the embedded mode: a queue has its own retries."""
        if self.mode == "threads":
            self._executor()
            self._recovered = 0.0

    def recover(self) -> int:
        """Take over the tasks of :data:`OPEN_JOBS` whose process died (their records stopped
        beating): a queued one runs here (``requeued`` counts how often), and so does a running
        one, :data:`RERUNS` times (``reruns``); then it is recorded ``failed``, ``job_lost``. Each
        lost job is claimed by one process only. Returns how many were queued again."""
        found = []
        for job_id in self.store.names(OPEN_JOBS):
            if job_id in self._live:
                continue
            spec = self.store.get_json(OPEN_JOBS, job_id)
            try:
                rec = self.store.get_json(scope_of(job_id), _key(job_id))
            except UnknownJobError:
                rec = None
            if spec is None or rec is None or rec["status"] in _FINAL:
                self.store.discard(OPEN_JOBS, [job_id])  # ended, or its document is gone
                continue
            if _silent_for(rec) > LOST_AFTER:
                found.append((spec.get("created") or rec["created"], job_id, spec, rec))
        requeued = 0
        for _created, job_id, spec, rec in sorted(found):  # in the order they were made
            # one claim per loss: the record's last write names it, whoever sees it first wins
            if self.store.incr(f"jobclaim:{job_id}:{rec['updated']}", 3600) != 1:
                continue
            running = rec["status"] == "running"
            if running and not _rerunnable(rec):
                self._lose(rec, f"its worker stopped while it ran, {RERUNS + 1} times")
                continue
            try:
                task = resolve_task(spec["task"])
            except (ValueError, ImportError, AttributeError):
                self._lose(rec, "its task cannot be run here")
                continue
            rec = {**rec, "status": "queued", "requeued": int(rec.get("requeued") or 0) + 1}
            if running:
                rec["reruns"] = int(rec.get("reruns") or 0) + 1
            log.info("job %s (%s) queued again: its worker stopped%s", job_id, rec["kind"],
                     " while it ran" if running else "")
            self._listed.add(job_id)
            self.start(rec, partial(task, self.store, self, **spec.get("kwargs", {})))
            requeued += 1
        return requeued

    def _lose(self, rec: dict[str, Any], why: str) -> None:
        age = int(_silent_for(rec))
        failed = {**rec, "status": "failed", "updated": _now(),
                  "error": {"code": "job_lost", "message": f"the job made no progress for {age} s; {why}"}}
        self.store.put_json(rec["document"], _key(rec["id"]), failed, create=False)
        self.store.discard(OPEN_JOBS, [rec["id"]])
        log.info("job %s (%s) lost: %s", rec["id"], rec["kind"], why)

    def create(self, scope: str, kind: str, stage: str, *, name: str | None = None,
               status: str = "queued", progress: float = 0.0,
               result: dict[str, Any] | None = None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """Write a new job record in ``scope`` and return it (the scope must exist).

        The id is ``<scope>-<name>``: a fixed ``name`` (``graph``) makes a document's one job
        of that kind findable without another lookup; without a name the id is random.
        ``extra`` adds fields of the job's own kind (a graph job's ``stage_log``, ``ready``).
        """
        now = _now()
        rec: dict[str, Any] = {
            "id": f"{scope}-{name or secrets.token_hex(4)}",
            "document": scope,
            "kind": kind,
            "status": status,
            "stage": stage,
            "stages": [stage],
            "progress": progress,
            "stage_progress": None,
            "error": None,
            "result": result,
            "created": now,
            "updated": now,
            **(extra or {}),
        }
        if not self.store.put_json(scope, _key(rec["id"]), rec, create=False):
            raise UnknownJobError(f"no scope {scope!r} to hold the job")
        return rec

    def submit(self, record: dict[str, Any], task: Callable[..., dict[str, Any] | None], *,
               tokens: int = 0, interactive: bool = False, after: str | None = None,
               local: dict[str, Any] | None = None, **kwargs: Any) -> None:
        """Run ``task(store, runner, progress, **kwargs, **local)`` in the background for a record
        made by :meth:`create` (as :meth:`start` runs a callable).

        ``task`` must be a module-level function and ``kwargs`` JSON-able: a queue carries them to
        another process. ``tokens`` (the document's size), ``interactive`` (a person waits for
        it: a proposal) and ``after`` (a job id whose end this one waits for) order the work on a
        queue; here every job starts at once. ``local`` holds in-process shortcuts (the parsed
        document) that a queue does not carry; the task must work without them.
        """
        path = task_path(task)
        # listed until it ends, so that another process runs it should this one die first
        self.store.put_json(OPEN_JOBS, record["id"], {"task": path, "kwargs": kwargs, "created": record["created"]})
        self._listed.add(record["id"])
        self.start(record, partial(task, self.store, self, **kwargs, **(local or {})))

    def cancel(self, scope: str) -> int:
        """Drop the queued jobs of a deleted document; returns how many. Here none wait: a
        running job stops at its next progress report (:class:`JobCancelled`)."""
        return 0

    def start(self, record: dict[str, Any], fn: Callable[[Progress], dict[str, Any] | None]) -> None:
        """Run ``fn(progress)`` in the background for a record made by :meth:`create`.

        ``fn`` returns the job's result (a small JSON object) or raises; a known error
        (``addin_backend.errors.describe``) becomes the job's ``error``, anything else is
        logged with its traceback (never its message, which may quote the document) and
        reported as ``internal_error``.
        """
        # A deep copy: the job thread must not mutate the record the caller is answering with.
        progress = Progress(self.store, {**copy.deepcopy(record), "beat": HEARTBEAT_SECONDS})
        pool = self._executor()
        self._live[record["id"]] = progress
        pool.submit(self._run, progress, fn)

    def _run(self, progress: Progress, fn: Callable[[Progress], dict[str, Any] | None]) -> None:
        job_id = progress.record["id"]
        try:
            self._work(progress, fn)
        finally:
            self._live.pop(job_id, None)
            if job_id in self._listed:
                self._listed.discard(job_id)
                try:
                    self.store.discard(OPEN_JOBS, [job_id])
                except Exception as exc:  # the next recovery round drops it (the record is final)
                    log.warning("could not unlist job %s: %s", job_id, type(exc).__name__)

    def _work(self, progress: Progress, fn: Callable[[Progress], dict[str, Any] | None]) -> None:
        rec = progress.record
        started = time.monotonic()
        try:
            progress.finish("running")
            with budget(self.job_seconds, f"the {rec.get('kind', '')} job"):
                result = fn(progress)
            progress.finish("done", result=result)
        except JobCancelled:
            log.info("job %s cancelled: its document is gone", rec["id"])
            return
        except Exception as exc:  # the job thread is the last place to catch it
            known = describe(exc)
            if known is None:
                log.error("job %s failed: %s\n%s", rec["id"], type(exc).__name__,
                          "".join(traceback.format_tb(exc.__traceback__)))
                error: dict[str, Any] = {"code": "internal_error", "message": "the job failed unexpectedly"}
            else:
                error = known[0]
                log.info("job %s failed: %s", rec["id"], error["code"])
            try:
                progress.finish("failed", error=error)
            except JobCancelled:
                pass
            return
        log.info("job %s (%s) done in %.2fs", rec["id"], rec["kind"], time.monotonic() - started)
        memory.after(time.monotonic() - started)  # what the job took goes back to the system

    def get(self, job_id: str) -> dict[str, Any]:
        """The job's record as any worker sees it.

        :raise UnknownJobError: no such job (or its document was deleted or expired).
        """
        rec = self.store.get_json(scope_of(job_id), _key(job_id))
        if rec is None:
            raise UnknownJobError(f"no job {job_id!r}")
        if rec["status"] not in _FINAL:
            age = _silent_for(rec)
            if age > (min(self.stale_after, LOST_AFTER) if rec.get("beat") else self.stale_after):
                if rec.get("beat") and (rec["status"] == "queued" or _rerunnable(rec)) \
                        and self.store.get(OPEN_JOBS, job_id) is not None:
                    return {**rec, "status": "queued"}  # a live process runs it again (recover); it is not lost
                rec["status"] = "failed"
                rec["error"] = {"code": "job_lost",
                                "message": f"the job made no progress for {int(age)} s; its worker stopped"}
        return rec

    def shutdown(self, wait: bool = True) -> None:
        with self._lock:
            if self._pool is not None and self._pid == os.getpid():
                self._pool.shutdown(wait=wait)
            self._pool = None


def _rerunnable(rec: dict[str, Any]) -> bool:
    """Whether a running job whose worker died is run again (it has not used its :data:`RERUNS`)."""
    return rec["status"] == "running" and int(rec.get("reruns") or 0) < RERUNS


def _silent_for(rec: dict[str, Any]) -> float:
    """Seconds since the record was last written."""
    return time.time() - datetime.fromisoformat(rec["updated"]).timestamp()


class _DaemonPool:
    """A fixed set of daemon threads taking work from one queue, and a heartbeat thread.

    Unlike :class:`concurrent.futures.ThreadPoolExecutor`, whose threads the interpreter joins
    at exit, a process that stops here does not wait for a job blocked in I/O (its record is
    then lost within :data:`LOST_AFTER` seconds, as if the process had been killed).
    """

    def __init__(self, threads: int, prefix: str, beat: Callable[[], None]) -> None:
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._work, name=f"{prefix}_{i}", daemon=True) for i in range(threads)]
        for t in self._threads:
            t.start()

        def heartbeat() -> None:
            while not self._stop.wait(HEARTBEAT_SECONDS):
                beat()

        threading.Thread(target=heartbeat, name=f"{prefix}-heartbeat", daemon=True).start()

    def submit(self, fn: Callable[..., None], *args: Any) -> None:
        self._queue.put((fn, args))

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if item is None or self._stop.is_set():
                return
            fn, args = item
            try:
                fn(*args)
            except Exception:  # _run catches what jobs raise; this only keeps the thread alive
                log.exception("job thread")

    def shutdown(self, wait: bool = True, timeout: float = 5.0) -> None:
        """Stop taking work (queued jobs are dropped); with ``wait``, give running jobs up to
        ``timeout`` seconds to end, never more."""
        self._stop.set()
        for _ in self._threads:
            self._queue.put(None)
        if wait:
            deadline = time.monotonic() + timeout
            for t in self._threads:
                t.join(max(0.0, deadline - time.monotonic()))
