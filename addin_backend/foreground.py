"""Interactive work first: while a request the pane waits for is being served in this process
(a check, a preview, an apply), the upload's background analysis holds at its next progress
report, so that the two do not share the cores and the interpreter's lock.

A request works on what the job has already stored and never waits for the job inside
:func:`serving` (a check computes on its own; a proposal waits for DEPENDS before it plans), so
holding the job delays only the job. The graph job calls :func:`give_way` at each progress
report (:mod:`.service.graph_job`; RELATED reports once per batch of embeddings), each wait bounded,
and all its waits together bounded too, so that a stream of requests slows the analysis but
never stops it. Requests
served by another process (another gunicorn worker, a ``ledger worker``) are not seen here:
the operating system shares the cores between processes. That is how it works for the job
processes of ``ledger serve`` (:mod:`.jobs.processes`), where the graph job runs by default:
they run at a lower CPU priority (``LEDGER_JOB_NICE``), so the kernel gives the cores to the web
worker's requests first, and the job shares no interpreter lock with them. A request that waits for another
machine (a model's answer, :func:`idle` around it) holds nothing meanwhile: the cores are free,
and a model that takes minutes must not stop every analysis in the process for as long.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Iterator

__all__ = ["serving", "idle", "give_way", "busy"]

_cond = threading.Condition()
_serving = 0
_mine = threading.local()  # how many of the marks are this thread's (``depth``)


@contextmanager
def serving() -> Iterator[None]:
    """Mark the enclosed work as a request someone waits for (nested and concurrent uses count)."""
    global _serving
    with _cond:
        _serving += 1
    _mine.depth = getattr(_mine, "depth", 0) + 1
    try:
        yield
    finally:
        _mine.depth -= 1
        with _cond:
            _serving -= 1
            if _serving == 0:
                _cond.notify_all()


@contextmanager
def idle() -> Iterator[None]:
    """Lift this thread's marks while it waits for another machine (nothing when it holds none).

    >>> with serving():
    ...     with idle():
    ...         busy()
    ...     busy()
    0
    1
    """
    global _serving
    held = getattr(_mine, "depth", 0)
    if not held:
        yield
        return
    with _cond:
        _serving -= held
        if _serving == 0:
            _cond.notify_all()
    try:
        yield
    finally:
        with _cond:
            _serving += held


def busy() -> int:
    """How many requests are being served now (in this process)."""
    return _serving


def give_way(limit: float) -> float:
    """Wait while a request is being served in this process, at most ``limit`` seconds; returns
    the seconds waited (0.0 when none was).

    >>> give_way(1.0)
    0.0
    """
    if _serving == 0 or limit <= 0:
        return 0.0
    t = time.monotonic()
    with _cond:
        _cond.wait_for(lambda: _serving == 0, timeout=limit)
    return time.monotonic() - t
