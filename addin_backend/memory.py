"""Give freed memory back to the system after a costly request or job.

CPython frees a request's objects, but glibc's allocator keeps the pages of small objects in
its arenas (one per thread that allocated), so a worker that once parsed a large document kept
that much resident for good: apply of a 4 MB upload left about 245 MB behind (issue 24).
A parsed document and its graph hold reference cycles, which only a full collection frees,
and ``malloc_trim`` then returns the free pages of every arena. A full collection holds the GIL
(the poller and every thread wait) for as long as the heap is large, so :func:`trim` runs only
after work that took :data:`AFTER_SECONDS` or more, and at most once every
:data:`MIN_INTERVAL` seconds in a process.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import threading
import time
from typing import Any

__all__ = ["trim", "after", "AFTER_SECONDS", "MIN_INTERVAL"]

#: Work that took at least this many seconds is followed by a trim.
AFTER_SECONDS = 1.0
#: Seconds between two trims of one process, at least.
MIN_INTERVAL = 10.0

_libc: Any = None
_last = 0.0
_lock = threading.Lock()


def after(seconds: float) -> None:
    """Call after work that took ``seconds``: :func:`trim` when it took long enough and the
    process has not trimmed in the last :data:`MIN_INTERVAL` seconds."""
    global _last
    if seconds < AFTER_SECONDS:
        return
    with _lock:
        now = time.monotonic()
        if now - _last < MIN_INTERVAL:
            return
        _last = now
    trim()


def trim() -> bool:
    """Collect garbage, then hand free heap pages back to the system (glibc only; elsewhere it
    only collects). Whether pages could be handed back.

    >>> isinstance(trim(), bool)
    True
    """
    global _libc
    gc.collect()
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _libc.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):
            _libc = False
    if not _libc:
        return False
    return bool(_libc.malloc_trim(0))
