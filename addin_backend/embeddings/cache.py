"""A persistent cache of embedding vectors, keyed by the encoder (model, version, backend) and a
hash of the text, so that a unit's vector is computed once per machine, not once per process.

One SQLite file, shared by every process that names it: the server and its workers keep theirs
in the data folder (``DATA_DIR/embeddings.sqlite3``), the command line in the user's cache
folder (:func:`addin_backend.embeddings.encoders.cache_home`). The second ``ledger context`` on a document
therefore loads no model at all. WAL journaling lets several processes read while one writes; a
write that finds the file busy is skipped (the vectors are only a cache). The file is bounded:
past ``max_rows`` vectors the oldest are dropped.
"""
from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from typing import Iterable, Mapping

__all__ = ["EmbeddingCache", "DEFAULT_MAX_ROWS"]

log = logging.getLogger("ledger.embed_cache")

#: About 0.9 GB of 384-dimensional float32 vectors.
DEFAULT_MAX_ROWS = 500_000
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS vectors (encoder TEXT NOT NULL, key TEXT NOT NULL, vec BLOB NOT NULL, "
    "made REAL NOT NULL, PRIMARY KEY (encoder, key)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS vectors_made ON vectors (made)",
)
_CHUNK = 500  # SQLite's host parameters per statement stay well under its limit


class EmbeddingCache:
    """Vectors in one SQLite file: :meth:`get_many` and :meth:`put_many` by text hash."""

    def __init__(self, path: str, max_rows: int = DEFAULT_MAX_ROWS) -> None:
        self.path = path
        self.max_rows = max_rows
        self._local = threading.local()
        self._writes = 0
        os.makedirs(os.path.dirname(os.path.abspath(path)) or ".", exist_ok=True)
        db = self._db()
        for statement in _SCHEMA:
            db.execute(statement)

    def _db(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or self._local.pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn, self._local.pid = conn, os.getpid()
        return conn

    def get_many(self, encoder: str, keys: Iterable[str]) -> dict[str, "object"]:
        """``{key: vector}`` (float32 arrays) for the keys that are cached."""
        import numpy as np

        keys = list(dict.fromkeys(keys))
        out: dict[str, object] = {}
        try:
            db = self._db()
            for lo in range(0, len(keys), _CHUNK):
                chunk = keys[lo : lo + _CHUNK]
                marks = ",".join("?" * len(chunk))
                for key, blob in db.execute(
                    f"SELECT key, vec FROM vectors WHERE encoder = ? AND key IN ({marks})", (encoder, *chunk)
                ):
                    out[key] = np.frombuffer(blob, dtype=np.float32).copy()
        except sqlite3.Error as exc:
            log.warning("embedding cache %s unreadable: %s", self.path, exc)
        return out

    def put_many(self, encoder: str, vectors: Mapping[str, "object"]) -> None:
        """Keep ``{key: vector}``; a busy or unwritable file is logged and skipped."""
        import numpy as np

        if not vectors:
            return
        now = time.time()
        rows = [(encoder, k, np.asarray(v, dtype=np.float32).tobytes(), now) for k, v in vectors.items()]
        try:
            db = self._db()
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany("INSERT OR REPLACE INTO vectors (encoder, key, vec, made) VALUES (?, ?, ?, ?)", rows)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            self._bound()
        except sqlite3.Error as exc:
            log.warning("embedding cache %s not written: %s", self.path, exc)

    def _bound(self) -> None:
        """Drop the oldest vectors past ``max_rows`` (counted on every 64th write of a process)."""
        self._writes += 1
        if self._writes % 64 != 1:
            return
        db = self._db()
        (count,) = db.execute("SELECT count(*) FROM vectors").fetchone()
        if count > self.max_rows:
            db.execute("DELETE FROM vectors WHERE (encoder, key) IN "
                       "(SELECT encoder, key FROM vectors ORDER BY made LIMIT ?)", (count - self.max_rows,))

    def __len__(self) -> int:
        (count,) = self._db().execute("SELECT count(*) FROM vectors").fetchone()
        return int(count)

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None and self._local.pid == os.getpid():
            conn.close()
        self._local = threading.local()
