"""Which job runner a deployment uses: the threads of each web worker or the RQ queue
(``LEDGER_JOBS``). Above both runners, so that neither imports the other (moved from
``jobs/runner.py``)."""
from __future__ import annotations

from typing import Any

from ..store import Store
from .queue import QueueRunner
from .runner import JobRunner

__all__ = ["JOB_MODES", "make_runner"]

#: ``LEDGER_JOBS``: ``threads`` (each web worker's pool), ``queue`` (RQ, needs Redis), ``auto``
#: (the queue when the store is Redis, else threads).
JOB_MODES = ("auto", "threads", "queue")


def make_runner(store: Store, *, mode: str = "auto", threads: int = 2, stale_after: float = 900.0,
                edit_threads: int = 2, **queue_options: Any) -> JobRunner:
    """The job runner of ``mode`` (:data:`JOB_MODES`) on ``store``.

    ``threads`` and ``edit_threads`` are each process's job threads for graph jobs and for edit
    jobs (threads mode). ``queue_options`` go to :class:`~addin_backend.jobs.queue.QueueRunner` (``retries``,
    ``timeout``, ``large_tokens``).

    :raise ValueError: an unknown mode, or ``queue`` on a store that is not Redis.
    """
    if mode not in JOB_MODES:
        raise ValueError(f"LEDGER_JOBS must be one of {', '.join(JOB_MODES)}, not {mode!r}")
    if mode == "auto":
        mode = "queue" if store.kind == "redis" else "threads"
    if mode == "threads":
        return JobRunner(store, threads, stale_after, edit_threads=edit_threads)
    if store.kind != "redis":
        raise ValueError("LEDGER_JOBS=queue needs LEDGER_STORE=redis://... (the queue lives in Redis)")
    return QueueRunner(store, stale_after=stale_after, **queue_options)
