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
the operating system shares the cores between processes. The job processes of ``ledger serve``
(:mod:`.jobs.processes`), where the graph job runs by default, see their web worker's requests
through a small shared board (:func:`board`, :func:`watch`: one counter in shared memory, its file
descriptor handed to each child), so a graph job there holds at its progress reports as it does on
a thread; they also run at a lower CPU priority (``LEDGER_JOB_NICE``) and share no interpreter
lock with the requests. A request that waits for another
machine (a model's answer, :func:`idle` around it) holds nothing meanwhile: the cores are free,
and a model that takes minutes must not stop every analysis in the process for as long.
"""
from __future__ import annotations

import mmap
import os
import struct
import threading
import time
from contextlib import contextmanager
from typing import Iterator

__all__ = ["serving", "idle", "give_way", "busy", "board", "watch"]

_cond = threading.Condition()
_serving = 0
_mine = threading.local()  # how many of the marks are this thread's (``depth``)
#: This process's count, shared with its job processes (:func:`board`: its pid, the file
#: descriptor and the map), and the board of the web worker a job process watches (:func:`watch`).
_board: tuple[int, int, mmap.mmap] | None = None
_watched: mmap.mmap | None = None
#: How often a job process looks at its web worker's board while it gives way.
_POLL = 0.05


def board() -> int:
    """The file descriptor of this process's board (made on first use, once per process): shared
    memory where :func:`serving` keeps the count of requests served here, for a job process to
    :func:`watch`."""
    global _board
    with _cond:
        if _board is None or _board[0] != os.getpid():
            if hasattr(os, "memfd_create"):
                fd = os.memfd_create("ledger-foreground", 0)
            else:  # no memfd: an unlinked temporary file
                import tempfile

                fd, path = tempfile.mkstemp(prefix="ledger-foreground-")
                os.unlink(path)
            os.ftruncate(fd, mmap.PAGESIZE)
            _board = (os.getpid(), fd, mmap.mmap(fd, mmap.PAGESIZE))
            _publish()
        return _board[1]


def watch(fd: int) -> None:
    """In a job process: read the web worker's board from ``fd`` (:func:`board`), so that
    :func:`busy` and :func:`give_way` see the requests served there."""
    global _watched
    _watched = mmap.mmap(fd, mmap.PAGESIZE, prot=mmap.PROT_READ)


def _publish() -> None:
    """Write this process's count on its board (under ``_cond``)."""
    if _board is not None and _board[0] == os.getpid():
        _board[2][:4] = struct.pack("i", _serving)


def _elsewhere() -> int:
    """The requests served now by the web worker this job process watches (0 when none)."""
    return struct.unpack("i", _watched[:4])[0] if _watched is not None else 0


@contextmanager
def serving() -> Iterator[None]:
    """Mark the enclosed work as a request someone waits for (nested and concurrent uses count)."""
    global _serving
    with _cond:
        _serving += 1
        _publish()
    _mine.depth = getattr(_mine, "depth", 0) + 1
    try:
        yield
    finally:
        _mine.depth -= 1
        with _cond:
            _serving -= 1
            _publish()
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
        _publish()
        if _serving == 0:
            _cond.notify_all()
    try:
        yield
    finally:
        with _cond:
            _serving += held
            _publish()


def busy() -> int:
    """How many requests are being served now (in this process, or in the web worker of this
    job process)."""
    return _serving + _elsewhere()


def give_way(limit: float) -> float:
    """Wait while a request is being served in this process, at most ``limit`` seconds; returns
    the seconds waited (0.0 when none was).

    >>> give_way(1.0)
    0.0
    """
    if limit <= 0 or busy() == 0:
        return 0.0
    t = time.monotonic()
    if _watched is not None:  # a job process: its web worker's requests, read on the board
        while busy() and time.monotonic() - t < limit:
            time.sleep(_POLL)
        return time.monotonic() - t
    with _cond:
        _cond.wait_for(lambda: _serving == 0, timeout=limit)
    return time.monotonic() - t
