"""Background jobs with named stages and a progress fraction, answerable from any worker.

Each worker process runs its jobs on its own job threads, in two lanes (:data:`LANES`: graph jobs,
and edit jobs such as proposals, applies and reviews, so that a slow model's proposals never keep
an upload's graph waiting), each client's jobs given a fair share of a lane and one slot of
each lane kept for a client with nothing running there (:data:`RESERVED`); a job's state (status,
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
once each per loss; a task it was *running* is run again too, but alone (nothing else runs beside
it in that process). A task whose worker died twice while it ran, once alone, is what kills
workers: it is quarantined (``failed``, :data:`QUARANTINED`) and never runs again, while the
innocent jobs that died beside it run again and end. A job that is no task (a closure) cannot
be run again and is lost. What waited
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
import itertools
import logging
import os
import secrets
import socket
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial
from typing import Any, Callable

from .. import memory
from ..budget import budget, check as check_budget, current_client, for_client
from ..errors import UnknownJobError, describe
from ..store import Store

__all__ = ["JobRunner", "JobCancelled", "Progress", "STATUSES", "OPEN_JOBS", "scope_of", "task_path",
           "resolve_task", "LANES", "MODEL_LANE", "RESERVED", "lane_of", "QUARANTINED", "QUARANTINE_AFTER", "job_error"]

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
#: The job threads of a process, by lane: graph jobs (uploads), edit jobs (proposals, applies,
#: reviews) and proposals that may wait for a model (:data:`MODEL_LANE`), so that no kind waits
#: behind another: a slow model's proposals never hold a slot a review or an upload's graph needs.
MODEL_LANE = "models"
LANES = ("graph", "edits", MODEL_LANE)
#: Jobs of one client that may run at once in the model lane (``LEDGER_MODEL_JOBS_PER_KEY``): a
#: key whose model hangs keeps its own proposals waiting, never another key's.
MODEL_JOBS_PER_CLIENT = 1
#: Slots of the graph and edit lanes kept for a client with nothing running in that lane, beyond
#: the lane's own (issue 33): a key whose long jobs fill the lane's slots cannot also take this
#: one, so another key's small graph starts at once instead of waiting for a long job to end.
#: The model lane has its cap per client instead.
RESERVED = {"graph": 1, "edits": 1, MODEL_LANE: 0}
#: The error code of a job set aside because it stopped its worker (a poison job).
QUARANTINED = "job_quarantined"
#: The deaths of its process after which a job is quarantined (with at least one of them while it
#: ran alone): the threads' recovery, a job process's supervisor and ``ledger worker`` all count so.
QUARANTINE_AFTER = 2
#: Each process's name in the records of the jobs it runs: whose death a job's silence means.
_PROCESS = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def lane_of(kind: str, lane: str | None = None) -> str:
    """The lane of a job: the one its record names (``lane``: :data:`MODEL_LANE` for a proposal
    that may wait for a model), else by kind: graph jobs, or edit jobs (everything else).

    >>> lane_of("graph"), lane_of("proposal"), lane_of("review"), lane_of("proposal", "models")
    ('graph', 'edits', 'edits', 'models')
    """
    if lane in LANES:
        return str(lane)
    return "graph" if kind == "graph" else "edits"


def _process() -> str:
    """This process's name (made again after a fork: a forked child is another process)."""
    global _PROCESS
    if _PROCESS.split(":")[1] != str(os.getpid()):
        _PROCESS = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
    return _PROCESS


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
        self._handed_over = False  # the record is written by another process now (a job process)

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
        heartbeat between progress reports). Raises :class:`JobCancelled` as a report would.
        Nothing once :meth:`hand_over` was called."""
        with self._lock:
            if not self._handed_over:
                self._write()

    def hand_over(self) -> None:
        """Stop writing the record here: another process (a job process) writes it from now on.
        Returns once a heartbeat that was writing it has written."""
        with self._lock:
            self._handed_over = True

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
    #: CPU seconds one job may take (``LEDGER_JOB_CPU_SECONDS``; 0: no budget), likewise.
    job_cpu_seconds: float = 0.0

    def __init__(self, store: Store, threads: int = 2, stale_after: float = 900.0, edit_threads: int = 2,
                 model_threads: int = 2, model_per_client: int = MODEL_JOBS_PER_CLIENT,
                 reserved: dict[str, int] | None = None) -> None:
        self.store = store
        self.threads = max(1, threads)
        self.edit_threads = max(1, edit_threads)
        self.model_threads = max(1, model_threads)
        self.model_per_client = max(1, model_per_client)
        #: each lane's slots kept for a client with nothing running there (:data:`RESERVED`)
        self.reserved = dict(RESERVED if reserved is None else reserved)
        self.stale_after = stale_after
        self._pool: _Lanes | None = None
        self._pid = 0
        self._lock = threading.Lock()
        self._live: dict[str, Progress] = {}  # this process's queued and running jobs, heartbeaten
        self._listed: set[str] = set()  # those of them listed in OPEN_JOBS
        self._recovered = 0.0

    def _executor(self) -> "_Lanes":
        # A pool made before a fork has no threads in the child: make one per process.
        with self._lock:
            if self._pool is None or self._pid != os.getpid():
                self._pool = _Lanes({"graph": self.threads, "edits": self.edit_threads, MODEL_LANE: self.model_threads},
                                    "ledger-job", self._beat, caps={MODEL_LANE: self.model_per_client},
                                    reserved=self.reserved)
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
        beating): a queued one runs here (``requeued`` counts how often); so does a running one,
        but **alone** (``solo``: nothing else runs in this process beside it, so that if it is what
        kills workers, it takes no innocent job with it, and its next death names it). A task
        whose worker died twice while it ran, once with nothing beside it, is the poison:
        recorded ``failed``, :data:`QUARANTINED`, and never run again; the innocent jobs that died
        beside it run again and end. Each lost job is claimed by one process only. Returns how
        many were queued again."""
        found = []
        # the jobs each silent process was running: one alone is the only suspect of its death
        beside: Counter[str | None] = Counter()
        for job_id in self.store.names(OPEN_JOBS):
            if job_id in self._live or self._mine(job_id):
                continue
            spec = self.store.get_json(OPEN_JOBS, job_id)
            try:
                rec = self.store.get_json(scope_of(job_id), _key(job_id))
            except UnknownJobError:
                rec = None
            if spec is None or rec is None or rec["status"] in _FINAL:
                self.store.discard(OPEN_JOBS, [job_id])  # ended, or its document is gone
                continue
            if rec["status"] == "running" and _silent_for(rec) > 2 * HEARTBEAT_SECONDS:
                beside[rec.get("process")] += 1  # a job its process (perhaps dead) was running
            if _silent_for(rec) > LOST_AFTER:
                found.append((spec.get("created") or rec["created"], job_id, spec, rec))
        requeued = 0
        for _created, job_id, spec, rec in sorted(found):  # in the order they were made
            # one claim per loss: the record's last write names it, whoever sees it first wins
            if self.store.incr(f"jobclaim:{job_id}:{rec['updated']}", 3600) != 1:
                continue
            running = rec["status"] == "running"
            if running:
                alone = bool(rec.get("solo")) or beside[rec.get("process")] <= 1
                deaths = int(rec.get("deaths") or 0) + 1
                alone_deaths = int(rec.get("alone_deaths") or 0) + (1 if alone else 0)
                rec = {**rec, "deaths": deaths, "alone_deaths": alone_deaths}
                if deaths >= QUARANTINE_AFTER and alone_deaths >= 1:
                    self._quarantine(rec, deaths)
                    continue
            try:
                task = resolve_task(spec["task"])
            except (ValueError, ImportError, AttributeError):
                self._lose(rec, "its task cannot be run here")
                continue
            rec = {**rec, "status": "queued", "requeued": int(rec.get("requeued") or 0) + 1}
            if running:
                rec["reruns"] = int(rec.get("reruns") or 0) + 1
                rec["solo"] = True
            log.info("job %s (%s) queued again: its worker stopped%s", job_id, rec["kind"],
                     " while it ran; it runs alone" if running else "")
            # written at once: should this process die before the job starts, the next one sees a
            # record it has not claimed (the claim names the record's last write)
            rec["updated"] = _now()
            self.store.put_json(rec["document"], _key(job_id), rec, create=False)
            self._listed.add(job_id)
            with for_client(spec.get("client")):
                self.start(rec, self._task_call(task, spec.get("kwargs", {})), solo=running)
            requeued += 1
        return requeued

    def _quarantine(self, rec: dict[str, Any], deaths: int) -> None:
        """Set a poison job aside: ``failed`` with :data:`QUARANTINED`; it never runs again."""
        failed = {**rec, "status": "failed", "updated": _now(), "error": {
            "code": QUARANTINED,
            "message": f"the job stopped the worker that ran it {deaths} times, the last time with nothing else "
                       "running beside it: it was set aside, so that it stops no other work"}}
        self.store.put_json(rec["document"], _key(rec["id"]), failed, create=False)
        self.store.discard(OPEN_JOBS, [rec["id"]])
        log.warning("job %s (%s) quarantined: its worker died %d times while it ran", rec["id"], rec["kind"], deaths)

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
        self.store.put_json(OPEN_JOBS, record["id"], {"task": path, "kwargs": kwargs, "created": record["created"],
                                                      "client": current_client()})
        self._listed.add(record["id"])
        self.start(record, self._task_call(task, kwargs, local))

    def _task_call(self, task: Callable[..., dict[str, Any] | None], kwargs: dict[str, Any],
                   local: dict[str, Any] | None = None) -> Callable[[Progress], dict[str, Any] | None]:
        """What :meth:`start` runs for a task: here the task on this process's store and runner
        (a job process runner hands the task's path and ``kwargs`` to a child instead)."""
        return partial(task, self.store, self, **kwargs, **(local or {}))

    def _mine(self, job_id: str) -> bool:
        """Whether this process runs the job elsewhere than on its own threads (a job process
        it supervises): :meth:`recover` leaves it alone."""
        return False

    def cancel(self, scope: str) -> int:
        """Drop the queued jobs of a deleted document; returns how many. Here none wait: a
        running job stops at its next progress report (:class:`JobCancelled`)."""
        return 0

    def start(self, record: dict[str, Any], fn: Callable[[Progress], dict[str, Any] | None], *,
              solo: bool = False) -> None:
        """Run ``fn(progress)`` in the background for a record made by :meth:`create`.

        ``fn`` returns the job's result (a small JSON object) or raises; a known error
        (``addin_backend.errors.describe``) becomes the job's ``error``, anything else is
        logged with its traceback (never its message, which may quote the document) and
        reported as ``internal_error``. The job waits in its kind's lane (:func:`lane_of`),
        where the clients with the fewest running jobs go first (:func:`..budget.current_client`:
        one client's jobs cannot starve another's); ``solo`` runs it with nothing beside it.
        """
        # A deep copy: the job thread must not mutate the record the caller is answering with.
        progress = Progress(self.store, {**copy.deepcopy(record), "beat": HEARTBEAT_SECONDS})
        pool = self._executor()
        self._live[record["id"]] = progress
        pool.submit(lane_of(str(record.get("kind", "")), record.get("lane")), current_client(), solo, self._run,
                    progress, fn)

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
            progress.finish("running", process=_process())
            with budget(self.job_seconds, f"the {rec.get('kind', '')} job", cpu=self.job_cpu_seconds):
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

    def call(self, task: Callable[..., Any], /, **kwargs: Any) -> Any:
        """``task(**kwargs)`` for a request, which waits for its result: here on the request's
        own thread (a job process runner runs it in a child process it keeps for requests, so
        that a long parse does not hold the web worker's interpreter lock)."""
        return task(**kwargs)

    def shutdown(self, wait: bool = True) -> None:
        with self._lock:
            if self._pool is not None and self._pid == os.getpid():
                self._pool.shutdown(wait=wait)
            self._pool = None


def job_error(rec: dict[str, Any]) -> Exception:
    """The error a failed job's record states, as the exception a door answers it with (the same
    code, message and details as the work had raised it in the request itself), for a door that
    waits for a job on its caller's behalf (an MCP tool)."""
    from ..errors import ERROR_TABLE, LedgerError

    err = rec.get("error") or {}
    code, message = str(err.get("code") or "internal_error"), str(err.get("message") or "the job failed")
    given = err.get("details")
    details: dict[str, Any] = given if isinstance(given, dict) else {}
    for klass, _status, _exit in ERROR_TABLE:
        if getattr(klass, "code", None) == code:
            try:
                return klass(message, **details)
            except TypeError:  # a constructor of its own: the message alone
                return klass(message)
    failed = LedgerError(message, **details)
    failed.code = code
    return failed


def _rerunnable(rec: dict[str, Any]) -> bool:
    """Whether a running job whose worker died is run again (it is no poison yet: its worker did
    not die before while it ran alone; :meth:`JobRunner.recover` decides)."""
    return rec["status"] == "running" and not (int(rec.get("deaths") or 0) >= 1 and rec.get("solo"))


def _silent_for(rec: dict[str, Any]) -> float:
    """Seconds since the record was last written."""
    return time.time() - datetime.fromisoformat(rec["updated"]).timestamp()


@dataclass(order=True)
class _Entry:
    seq: int
    lane: str = field(compare=False)
    client: str | None = field(compare=False)
    solo: bool = field(compare=False)
    call: Callable[[], None] = field(compare=False)


class _Lanes:
    """The job threads of a process: a fixed set of daemon threads per lane, taking work from one
    waiting list, and a heartbeat thread.

    A free thread of a lane takes, of its lane's waiting jobs, one of the client with the fewest
    jobs running in that lane (then the oldest): a client that queued a hundred jobs gets one
    thread while another's single job waits for the next; a lane with a cap (``caps``: the model
    lane) runs no more than that many jobs of one client at once, even with threads free. A lane
    with ``reserved`` slots has that many threads more than it was given, and its last
    ``reserved`` free threads take only a client with nothing running in the lane: one client's
    long jobs hold at most the lane's own threads, and another client's job starts at once
    instead of waiting for one of them to end (issue 33: a key's small graph waited 96-99 s
    behind another key's large one). A ``solo`` job (one whose worker died while it ran) starts
    only when nothing runs, and nothing starts beside it.

    Unlike :class:`concurrent.futures.ThreadPoolExecutor`, whose threads the interpreter joins
    at exit, a process that stops here does not wait for a job blocked in I/O (its record is
    then lost within :data:`LOST_AFTER` seconds, as if the process had been killed).
    """

    def __init__(self, lanes: dict[str, int], prefix: str, beat: Callable[[], None],
                 caps: dict[str, int] | None = None, reserved: dict[str, int] | None = None) -> None:
        self._caps = dict(caps or {})
        self._reserved = {lane: max(0, int((reserved or {}).get(lane, 0))) for lane in lanes}
        lanes = {lane: max(1, n) + self._reserved[lane] for lane, n in lanes.items()}
        self._size = dict(lanes)
        self._cond = threading.Condition()
        self._waiting: list[_Entry] = []
        self._running: Counter[tuple[str, str | None]] = Counter()
        self._in_lane: Counter[str] = Counter()
        self._busy = 0
        self._solo = False
        self._seq = itertools.count()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._work, args=(lane,), name=f"{prefix}-{lane}_{i}", daemon=True)
                         for lane, n in lanes.items() for i in range(max(1, n))]
        for t in self._threads:
            t.start()

        def heartbeat() -> None:
            while not self._stop.wait(HEARTBEAT_SECONDS):
                beat()

        threading.Thread(target=heartbeat, name=f"{prefix}-heartbeat", daemon=True).start()

    def submit(self, lane: str, client: str | None, solo: bool, fn: Callable[..., None], *args: Any) -> None:
        entry = _Entry(next(self._seq), lane, client, solo, partial(fn, *args))
        with self._cond:
            self._waiting.append(entry)
            self._cond.notify_all()

    def _pick(self, lane: str) -> _Entry | None:
        """The next job for a free thread of ``lane`` (see the class), or ``None`` for now."""
        if self._solo:
            return None
        if any(e.solo for e in self._waiting):  # one waits to run alone: let what runs end
            solo = next((e for e in self._waiting if e.solo and e.lane == lane), None)
            return solo if solo is not None and self._busy == 0 else None
        cap = self._caps.get(lane)
        # the last reserved free threads are for a client with nothing running in the lane
        open_to_all = self._size[lane] - self._in_lane[lane] > self._reserved[lane]
        mine = [e for e in self._waiting if e.lane == lane and (cap is None or self._running[(lane, e.client)] < cap)
                and (open_to_all or not self._running[(lane, e.client)])]
        if not mine:
            return None
        return min(mine, key=lambda e: (self._running[(lane, e.client)], e.seq))

    def _work(self, lane: str) -> None:
        while True:
            with self._cond:
                while not self._stop.is_set() and (entry := self._pick(lane)) is None:
                    self._cond.wait()
                if self._stop.is_set():
                    return
                assert entry is not None
                self._waiting.remove(entry)
                self._running[(lane, entry.client)] += 1
                self._in_lane[lane] += 1
                self._busy += 1
                self._solo = entry.solo
            try:
                with for_client(entry.client):  # the job runs as its client's work (the jobs it queues too)
                    entry.call()
            except Exception:  # _run catches what jobs raise; this only keeps the thread alive
                log.exception("job thread")
            finally:
                with self._cond:
                    self._running[(lane, entry.client)] -= 1
                    if self._running[(lane, entry.client)] <= 0:
                        del self._running[(lane, entry.client)]
                    self._in_lane[lane] -= 1
                    self._busy -= 1
                    if entry.solo:
                        self._solo = False
                    self._cond.notify_all()

    def shutdown(self, wait: bool = True, timeout: float = 5.0) -> None:
        """Stop taking work (queued jobs are dropped); with ``wait``, give running jobs up to
        ``timeout`` seconds to end, never more."""
        self._stop.set()
        with self._cond:
            self._waiting.clear()
            self._cond.notify_all()
        if wait:
            deadline = time.monotonic() + timeout
            for t in self._threads:
                t.join(max(0.0, deadline - time.monotonic()))
