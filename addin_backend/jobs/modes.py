"""Which job runner a deployment uses: the threads of each web worker or the RQ queue
(``LEDGER_JOBS``). Above both runners, so that neither imports the other (moved from
``jobs/runner.py``)."""
from __future__ import annotations

from typing import Any

from ..store import Store
from .processes import ProcessRunner
from .queue import QueueRunner
from .runner import MODEL_JOBS_PER_CLIENT, JobRunner

__all__ = ["JOB_MODES", "make_runner"]

#: ``LEDGER_JOBS``: ``threads`` (each web worker's job threads), ``processes`` (each web worker's
#: job processes, :mod:`.processes`), ``queue`` (RQ, needs Redis), ``auto`` (the queue when the
#: store is Redis, else ``local``: processes under ``ledger serve``, threads in an app made in-process).
JOB_MODES = ("auto", "threads", "processes", "queue")


def make_runner(store: Store, *, mode: str = "auto", threads: int = 2, stale_after: float = 900.0,
                edit_threads: int = 2, local: str = "threads", processes: int = 1, model_jobs: int = 2,
                model_per_client: int = MODEL_JOBS_PER_CLIENT, settings: dict[str, Any] | None = None,
                **queue_options: Any) -> JobRunner:
    """The job runner of ``mode`` (:data:`JOB_MODES`) on ``store``.

    ``threads`` and ``edit_threads`` are each process's job threads for graph jobs and for edit
    jobs (threads mode); ``processes`` its job processes for each (processes mode, which opens the
    store again from ``settings``: :func:`.processes.child_settings`); ``model_jobs`` and
    ``model_per_client`` the model lane's slots, and those one client may hold. ``queue_options``
    go to :class:`~addin_backend.jobs.queue.QueueRunner` (``retries``, ``timeout``, ``large_tokens``).

    :raise ValueError: an unknown mode, ``queue`` on a store that is not Redis, or ``processes``
        without ``settings``.
    """
    if mode not in JOB_MODES or local not in ("threads", "processes"):
        raise ValueError(f"LEDGER_JOBS must be one of {', '.join(JOB_MODES)}, not {mode!r}")
    if mode == "auto":
        mode = "queue" if store.kind == "redis" else local
    if mode == "threads":
        return JobRunner(store, threads, stale_after, edit_threads=edit_threads, model_threads=model_jobs,
                         model_per_client=model_per_client)
    if mode == "processes":
        if settings is None:
            raise ValueError("LEDGER_JOBS=processes needs the store's settings for its job processes")
        return ProcessRunner(store, settings, processes=processes, stale_after=stale_after,
                             model_processes=model_jobs, model_per_client=model_per_client)
    if store.kind != "redis":
        raise ValueError("LEDGER_JOBS=queue needs LEDGER_STORE=redis://... (the queue lives in Redis)")
    return QueueRunner(store, stale_after=stale_after, **queue_options)
