"""Give freed memory back to the system after a costly request or job.

CPython frees a request's objects, but glibc's allocator keeps the pages of small objects in
its arenas (one per thread that allocated), so a worker that once parsed a large document kept
that much resident for good: apply of a 4 MB upload left about 245 MB behind (issue 24).
``malloc_trim`` returns the free pages of every arena; it costs milliseconds and runs without
the GIL (a ctypes call), so it runs only after work that took a while (:data:`AFTER_SECONDS`).
No ``gc.collect()`` here: a full collection holds the GIL for as long as the heap is large
(the poller and every thread stop), and reference counting has freed the request's objects.
"""
from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

__all__ = ["trim", "AFTER_SECONDS"]

#: Work that took at least this many seconds is followed by a trim.
AFTER_SECONDS = 0.25

_libc: Any = None


def trim() -> bool:
    """Hand free heap pages back to the system (glibc only; elsewhere nothing). Whether pages
    could be handed back.

    >>> isinstance(trim(), bool)
    True
    """
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _libc.malloc_trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):
            _libc = False
    if not _libc:
        return False
    return bool(_libc.malloc_trim(0))
