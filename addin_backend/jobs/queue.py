"""Graph and proposal jobs on a real job queue: RQ (https://python-rq.org) in the Redis store.

With ``LEDGER_STORE=redis://…`` (and ``LEDGER_JOBS`` ``auto`` or ``queue``) the web workers only
write a job's record and enqueue it (:class:`QueueRunner`); ``ledger worker`` processes
(:mod:`addin_backend.serving.queue_worker`) on any machine that reaches the Redis server take the jobs and run
them (:func:`perform`). The record (status, stage, progress, error, result) stays in the store,
in the document's scope, exactly as with the in-process threads, so polling, server-sent events
and deleting a document work as before.

Queues, taken in this order by a worker that serves them all:

- ``ledger-edits``: proposals a person waits for (they run after the document's graph job:
  an RQ dependency, so no worker sits waiting for a graph that is still queued);
- ``ledger-small``: graph jobs of documents under ``LEDGER_QUEUE_LARGE_TOKENS`` (20,000) tokens;
- ``ledger-large``: graph jobs of larger documents.

A burst of large documents thus waits behind the small ones, never the other way round, and
workers started with ``--queues edits,small`` keep capacity that large documents cannot take.

A dead worker's job is run again by another one: each job is enqueued with RQ's ``Retry``; the
worker heartbeats RQ's execution entry and the LEDGER record (``updated``) every few seconds while
the job runs; when the heartbeats stop, RQ's abandoned-job handling (the ``StartedJobRegistry``
clean-up that every idle worker runs) requeues the job at the front of its queue, and
:func:`on_job_failure` sets the record back to ``queued`` (``attempt`` counts the runs), so the
client sees it finish, not ``job_lost``. With no retries left the record fails as ``job_lost``.
Deleting a document cancels its queued jobs (:meth:`QueueRunner.cancel`); a running one stops at
its next progress report, as in-process.
"""
from __future__ import annotations

import logging
import os
import socket
import threading
from typing import Any, Callable

from .runner import QUARANTINE_AFTER, JobRunner, Progress, _key, _now, resolve_task, scope_of, task_path
from ..store import Store

__all__ = ["QUEUES", "DEFAULT_QUEUES", "LARGE_TOKENS", "queue_name", "QueueRunner", "perform",
           "on_job_failure", "current_progress", "configure_worker_context", "QUARANTINE_AFTER"]

log = logging.getLogger("ledger.queue")

#: The queues, in the order a worker serving all of them takes jobs.
QUEUES = ("edits", "small", "large")
DEFAULT_QUEUES = QUEUES
#: Documents of more tokens (estimated: characters / 4) go to the ``large`` queue.
LARGE_TOKENS = 20_000
_PREFIX = "ledger-"
#: RQ statuses of a job that has not run yet (and may be cancelled).
_WAITING = ("queued", "deferred", "scheduled")
_ALIVE = _WAITING + ("started",)


def queue_name(short: str) -> str:
    """The RQ queue of a short name (``small`` -> ``ledger-small``).

    >>> queue_name("small"), queue_name("ledger-large")
    ('ledger-small', 'ledger-large')
    >>> queue_name("huge")
    Traceback (most recent call last):
    ValueError: queue must be one of edits, small, large, not 'huge'
    """
    name = short.strip()
    name = name[len(_PREFIX):] if name.startswith(_PREFIX) else name
    if name not in QUEUES:
        raise ValueError(f"queue must be one of {', '.join(QUEUES)}, not {short!r}")
    return _PREFIX + name


def _serializer():
    from rq.serializers import JSONSerializer

    return JSONSerializer


class QueueRunner(JobRunner):
    """:class:`~addin_backend.jobs.runner.JobRunner` that enqueues jobs on RQ instead of running them.

    ``retries``: how many times a job whose worker died is run again; ``timeout``: the most
    seconds one run may take; ``large_tokens``: the size from which a graph job is ``large``.
    """

    mode = "queue"

    def __init__(self, store: Store, *, stale_after: float = 900.0, retries: int = 2,
                 timeout: int = 1800, large_tokens: int = LARGE_TOKENS) -> None:
        super().__init__(store, threads=1, stale_after=stale_after, edit_threads=1)
        import redis

        self.retries = max(0, int(retries))
        self.timeout = int(timeout)
        self.large_tokens = int(large_tokens)
        # RQ's own client on the store's Redis (RQ reads bytes; the store's client is the store's)
        url = getattr(store, "url", None)  # a RedisStore's (make_runner checks the store's kind)
        if not isinstance(url, str):
            raise ValueError("the job queue needs the Redis store")
        self.connection = redis.Redis.from_url(url, socket_timeout=30, socket_connect_timeout=5)

    def queue_for(self, tokens: int, interactive: bool) -> str:
        """The short queue name of a job (see the module docstring).

        >>> r = QueueRunner.__new__(QueueRunner); r.large_tokens = 20_000
        >>> r.queue_for(500, True), r.queue_for(5_000, False), r.queue_for(90_000, False)
        ('edits', 'small', 'large')
        """
        if interactive:
            return "edits"
        return "large" if tokens > self.large_tokens else "small"

    def _queue(self, short: str):
        from rq import Queue

        return Queue(queue_name(short), connection=self.connection, serializer=_serializer())

    def _jobs_key(self, scope: str) -> str:
        return f"ledger:q:{scope}"

    def submit(self, record: dict[str, Any], task: Callable[..., dict[str, Any] | None], *,
               tokens: int = 0, interactive: bool = False, after: str | None = None,
               local: dict[str, Any] | None = None, **kwargs: Any) -> None:
        from rq import Callback, Retry
        from rq.job import Dependency

        from ..errors import StoreUnavailableError

        import redis

        queue = self._queue(self.queue_for(tokens, interactive))
        scope = scope_of(record["id"])
        try:
            depends = None
            if after is not None and self._rq_status(after) in _ALIVE:
                depends = Dependency(jobs=[after], allow_failure=True, enqueue_at_front=True)
            pipe = self.connection.pipeline()
            pipe.sadd(self._jobs_key(scope), record["id"])
            pipe.expire(self._jobs_key(scope), self.store.ttl)
            pipe.execute()
            queue.enqueue(
                perform, record["id"], task_path(task), kwargs,
                job_id=record["id"], description=f"{record['kind']} {record['id']}",
                retry=Retry(max=self.retries, enqueue_at_front=True) if self.retries else None,
                job_timeout=self.timeout, result_ttl=600, failure_ttl=self.store.ttl, ttl=self.store.ttl,
                depends_on=depends, on_failure=Callback(on_job_failure),
                meta={"attempts": self.retries + 1})
        except redis.RedisError as exc:  # the job cannot run: say so in its record, and 503
            failed = {**record, "status": "failed", "updated": _now(),
                      "error": {"code": "store_unavailable", "message": "the job could not be queued"}}
            try:
                self.store.put_json(scope, _key(record["id"]), failed, create=False)
            except StoreUnavailableError:
                pass
            raise StoreUnavailableError(f"the job queue failed: {type(exc).__name__}") from None

    def _rq_status(self, job_id: str) -> str | None:
        from rq.exceptions import NoSuchJobError
        from rq.job import Job

        try:
            status = Job.fetch(job_id, connection=self.connection, serializer=_serializer()).get_status()
        except NoSuchJobError:
            return None
        return None if status is None else str(getattr(status, "value", status))

    def cancel(self, scope: str) -> int:
        """Cancel the document's jobs that have not started (and forget its job list)."""
        from rq.exceptions import InvalidJobOperation, NoSuchJobError
        from rq.job import Job

        key = self._jobs_key(scope)
        ids = sorted(i.decode() if isinstance(i, bytes) else str(i) for i in self.connection.smembers(key))
        cancelled = 0
        for job_id in ids:
            try:
                job = Job.fetch(job_id, connection=self.connection, serializer=_serializer())
                if str(getattr(job.get_status(), "value", job.get_status())) in _WAITING:
                    job.cancel()
                    cancelled += 1
            except (NoSuchJobError, InvalidJobOperation):
                continue
        self.connection.delete(key)
        if cancelled:
            log.info("cancelled %d queued job(s) of deleted document %s", cancelled, scope)
        return cancelled

    def get(self, job_id: str) -> dict[str, Any]:
        """The record as :meth:`JobRunner.get` gives it, except that a job waiting in the queue
        is never ``job_lost`` while RQ still holds it (a long queue is no dead worker)."""
        rec = super().get(job_id)
        lost = (rec.get("error") or {}).get("code") == "job_lost" and rec["status"] == "failed"
        if lost:
            stored = self.store.get_json(scope_of(job_id), _key(job_id)) or {}
            if stored.get("status") == "queued" and self._rq_status(job_id) in _ALIVE:
                return stored
        return rec

    def start(self, record: dict[str, Any], fn: Callable[[Progress], dict[str, Any] | None], *,
              solo: bool = False) -> None:
        raise TypeError("a queued job is a task (JobRunner.submit), not a callable")


# --- the worker side ------------------------------------------------------------------------

_context: dict[str, Any] = {}
_context_lock = threading.Lock()
_current: Progress | None = None


def configure_worker_context(store: Store, runner: JobRunner) -> None:
    """The store and runner :func:`perform` uses in this process (``ledger worker`` sets them)."""
    with _context_lock:
        _context.update(store=store, runner=runner)


def _worker_context() -> tuple[Store, JobRunner]:
    with _context_lock:
        if "store" not in _context:  # a plain `rq worker`: the store named in the environment
            from ..store import DEFAULT_TTL, open_store

            store = open_store(os.environ.get("LEDGER_STORE"), os.environ.get("LEDGER_DATA_DIR", "data"),
                               int(os.environ.get("LEDGER_TTL_SECONDS") or DEFAULT_TTL))
            _context.update(store=store, runner=QueueRunner(store))
        return _context["store"], _context["runner"]


def current_progress() -> Progress | None:
    """The progress of the job this process is running, for the worker's heartbeat."""
    return _current


def _worker_identity() -> dict[str, Any]:
    return {"name": os.environ.get("RQ_WORKER_ID") or f"{socket.gethostname()}.{os.getpid()}",
            "host": socket.gethostname(), "pid": os.getpid()}


def perform(job_id: str, task: str, kwargs: dict[str, Any]) -> None:
    """Run one queued job in this worker: the task with the store's record as its progress.

    A job whose document is gone (deleted, expired) returns at once. Errors end up in the
    record (as with threads), so RQ sees every run that got this far succeed: only a run whose
    worker died is retried.
    """
    global _current
    from functools import partial

    store, runner = _worker_context()
    rec = store.get_json(scope_of(job_id), _key(job_id))
    if rec is None:
        log.info("job %s skipped: its document is gone", job_id)
        return None
    try:
        from rq import get_current_job

        rq_job = get_current_job()
    except Exception:  # not inside RQ (a test calling perform directly)
        rq_job = None
    rec["worker"] = _worker_identity()
    rec["attempt"] = int(rec.get("attempt") or 0) + 1
    rec["queue"] = getattr(rq_job, "origin", None)
    progress = Progress(store, rec)
    fn = resolve_task(task)  # only our own tasks run from the queue
    _current = progress
    try:
        runner._run(progress, partial(fn, store, runner, **kwargs))
    finally:
        _current = None
    return None


def on_job_failure(job: Any, connection: Any, exc_type: Any, exc_value: Any, tb: Any) -> None:
    """RQ's failure callback: a run that did not end (its worker died, found by the abandoned-job
    clean-up) puts the record back to ``queued`` when RQ retries it, else fails it ``job_lost``.

    A job whose worker died :data:`QUARANTINE_AFTER` times while it ran is the poison (each ran
    alone in its worker): it is quarantined (``failed``, ``job_quarantined``) and RQ's retries are
    cancelled, so it stops no more workers; the supervised workers it killed are started again.
    """
    from .runner import QUARANTINED

    try:
        store, _runner = _worker_context()
        scope = scope_of(job.id)
        rec = store.get_json(scope, _key(job.id))
        if rec is None or rec["status"] in ("done", "failed"):
            return
        attempts = int((job.meta or {}).get("attempts") or 1)
        why = getattr(exc_type, "__name__", str(exc_type))
        deaths = int(rec.get("deaths") or 0) + 1
        rec["deaths"] = deaths
        if deaths >= QUARANTINE_AFTER:
            job.retries_left = 0  # RQ reads it right after this callback: no more runs
            rec.update(status="failed", updated=_now(), error={
                "code": QUARANTINED,
                "message": f"the job stopped the worker that ran it {deaths} times ({why}): it was set aside, so "
                           "that it stops no other work"})
            log.error("job %s: its worker stopped (%s) %d times while it ran; quarantined", job.id, why, deaths)
        elif job.retries_left:
            rec.update(status="queued", error=None, updated=_now(),
                       requeued={"reason": "worker_lost", "detail": why, "at": _now()})
            log.warning("job %s: its worker stopped (%s); queued again (%d retries left)", job.id, why,
                        job.retries_left)
        else:
            rec.update(status="failed", updated=_now(), error={
                "code": "job_lost",
                "message": f"the job's worker stopped ({why}) on each of {attempts} attempts"})
            log.error("job %s: its worker stopped (%s); no retries left", job.id, why)
        store.put_json(scope, _key(job.id), rec, create=False)
    except Exception:  # a callback must never break RQ's clean-up
        log.exception("failure callback of job %s", getattr(job, "id", "?"))
