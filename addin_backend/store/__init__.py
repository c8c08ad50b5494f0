"""Where documents, graphs, jobs and counters live between requests: SQLite or Redis.

``open_store(url, data_dir, ttl)`` picks the implementation from ``LEDGER_STORE``: ``sqlite``
(the default, a file in the data folder), ``sqlite:///PATH`` (as SQLAlchemy spells it:
``sqlite:///relative.db``, ``sqlite:////absolute.db``), or ``redis://...``.
:mod:`.documents` is what a document's scope holds (the uploaded bytes, the neutral model,
its meta) and the functions that upload, load, show and delete it.
"""
from __future__ import annotations

import os

from .base import DEFAULT_TTL, Store, dumps

__all__ = ["Store", "DEFAULT_TTL", "dumps", "open_store"]


def open_store(url: str | None, data_dir: str, ttl: int = DEFAULT_TTL) -> Store:
    """The store named by ``url`` (see the module docstring).

    :raise ValueError: the URL names no store we know.

    >>> open_store("memcached://x", "/tmp")
    Traceback (most recent call last):
    ValueError: LEDGER_STORE must be 'sqlite', 'sqlite:///PATH' or 'redis://...', not 'memcached://x'
    """
    url = (url or "sqlite").strip()
    if url == "sqlite":
        from .sqlite_store import SqliteStore

        return SqliteStore(os.path.join(data_dir, "ledger.sqlite3"), ttl)
    if url.startswith("sqlite:///"):
        from .sqlite_store import SqliteStore

        return SqliteStore(url[len("sqlite:///"):], ttl)
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis_store import RedisStore

        return RedisStore(url, ttl)
    raise ValueError(f"LEDGER_STORE must be 'sqlite', 'sqlite:///PATH' or 'redis://...', not {url!r}")
