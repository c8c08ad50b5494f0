"""The embedded store: one SQLite file in the data folder, shared by threads and worker processes.

WAL journaling lets readers run beside the one writer; every write is a short ``BEGIN
IMMEDIATE`` transaction, and ``busy_timeout`` makes other processes wait for it instead of
failing. Each thread of each process opens its own connection (SQLite connections must not
cross a ``fork`` or be shared between threads).
"""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from typing import Iterator, Mapping

from ..errors import StoreUnavailableError
from .base import DEFAULT_TTL, Store

__all__ = ["SqliteStore"]

#: A value larger than this is written and read through SQLite's incremental blob I/O, this
#: much at a time: a value bound whole is copied by SQLite first (a 40 MB upload: +80 MB peak to
#: store it, +80 MB to read it back), a blob written in chunks is not.
BLOB_CHUNK = 1 << 20


def _write_blob(db: sqlite3.Connection, scope: str, name: str, value: bytes) -> None:
    """Write one large value in place, :data:`BLOB_CHUNK` bytes at a time, in the caller's transaction."""
    db.execute(
        "INSERT INTO entries (scope, name, value) VALUES (?, ?, zeroblob(?)) "
        "ON CONFLICT (scope, name) DO UPDATE SET value = excluded.value",
        (scope, name, len(value)),
    )
    (rowid,) = db.execute("SELECT rowid FROM entries WHERE scope = ? AND name = ?", (scope, name)).fetchone()
    view = memoryview(value)
    with db.blobopen("entries", "value", rowid) as blob:
        for at in range(0, len(view), BLOB_CHUNK):
            blob.write(view[at:at + BLOB_CHUNK])


_SCHEMA = """
CREATE TABLE IF NOT EXISTS scopes (scope TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS scopes_expires ON scopes (expires);
CREATE TABLE IF NOT EXISTS entries (
    scope TEXT NOT NULL REFERENCES scopes (scope) ON DELETE CASCADE,
    name TEXT NOT NULL,
    value BLOB NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS entries_key ON entries (scope, name);
CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL, expires REAL NOT NULL);
"""

#: Expired rows are swept at most this often per process (reads ignore them meanwhile), by
#: writes and by a background thread, so an expired document leaves the disk within this time
#: even when no request comes.
_SWEEP_SECONDS = 60.0


class SqliteStore(Store):
    """:class:`Store` in one SQLite database file."""

    kind = "sqlite"

    def __init__(self, path: str, ttl: int = DEFAULT_TTL, busy_timeout: float = 30.0,
                 sweep_seconds: float | None = None) -> None:
        super().__init__(ttl)
        self.path = path
        self._busy_timeout = busy_timeout
        self._local = threading.local()
        self._last_sweep = 0.0
        self.sweep_seconds = sweep_seconds or min(_SWEEP_SECONDS, max(1.0, ttl / 4))
        self._sweeper_pid = 0
        self._stop = threading.Event()
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        if not os.path.exists(path):
            # documents are private: the file (and the -wal/-shm files SQLite makes alike) 0600
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        with self._tx() as db:
            for statement in filter(str.strip, _SCHEMA.split(";")):
                db.execute(statement)

    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None or self._local.pid != os.getpid():
            conn = sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA secure_delete=ON")  # deleted documents are overwritten, not left in free pages
            self._local.conn, self._local.pid = conn, os.getpid()
            self._start_sweeper()
        return conn

    def _start_sweeper(self) -> None:
        """One daemon thread per process that sweeps every ``sweep_seconds``."""
        if self._sweeper_pid == os.getpid():
            return
        self._sweeper_pid = os.getpid()
        stop = self._stop = threading.Event()

        def loop() -> None:
            while not stop.wait(self.sweep_seconds):
                try:
                    self.sweep()
                except Exception:  # a busy or vanished database: the next round tries again
                    pass

        threading.Thread(target=loop, name="ledger-store-sweeper", daemon=True).start()

    def sweep(self) -> int:
        """Remove expired scopes and counters now; returns how many scopes went. What they held
        is overwritten (``secure_delete``) and the write-ahead log truncated."""
        now = time.time()
        with self._tx() as db:
            gone = db.execute("DELETE FROM scopes WHERE expires <= ?", (now,)).rowcount
            db.execute("DELETE FROM counters WHERE expires <= ?", (now,))
        self._last_sweep = now
        if gone:
            self._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return gone

    @contextmanager
    def _tx(self, write: bool = True) -> Iterator[sqlite3.Connection]:
        """A connection inside one transaction (``IMMEDIATE`` for writes); errors become 503s."""
        try:
            db = self._connection()
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise StoreUnavailableError(f"the SQLite store failed: {exc}") from None

    def put(self, scope: str, items: Mapping[str, bytes], *, create: bool = True) -> bool:
        now = time.time()
        with self._tx() as db:
            db.execute("DELETE FROM scopes WHERE scope = ? AND expires <= ?", (scope, now))
            if create:
                db.execute(
                    "INSERT INTO scopes (scope, expires) VALUES (?, ?) "
                    "ON CONFLICT (scope) DO UPDATE SET expires = excluded.expires",
                    (scope, now + self.ttl),
                )
            elif not db.execute(
                "UPDATE scopes SET expires = ? WHERE scope = ?", (now + self.ttl, scope)
            ).rowcount:
                return False
            db.executemany(
                "INSERT INTO entries (scope, name, value) VALUES (?, ?, ?) "
                "ON CONFLICT (scope, name) DO UPDATE SET value = excluded.value",
                [(scope, name, sqlite3.Binary(value)) for name, value in items.items() if len(value) <= BLOB_CHUNK],
            )
            for name, value in items.items():
                if len(value) > BLOB_CHUNK:
                    _write_blob(db, scope, name, value)
            self._sweep(db, now)
        return True

    def get(self, scope: str, name: str) -> bytes | None:
        with self._tx(write=False) as db:
            row = db.execute(  # a small value comes with the row; a large one is read from its blob
                "SELECT e.rowid, CASE WHEN length(e.value) <= ? THEN e.value END FROM entries e "
                "JOIN scopes s ON s.scope = e.scope WHERE e.scope = ? AND e.name = ? AND s.expires > ?",
                (BLOB_CHUNK, scope, name, time.time()),
            ).fetchone()
            if row is None:
                return None
            if row[1] is not None:
                return bytes(row[1])
            with db.blobopen("entries", "value", row[0], readonly=True) as blob:
                return blob.read()  # straight into the value returned: SQLite keeps no copy of its own

    def names(self, scope: str) -> list[str]:
        with self._tx(write=False) as db:
            rows = db.execute(
                "SELECT e.name FROM entries e JOIN scopes s ON s.scope = e.scope "
                "WHERE e.scope = ? AND s.expires > ? ORDER BY e.name",
                (scope, time.time()),
            ).fetchall()
        return [row[0] for row in rows]

    def discard(self, scope: str, names: list[str]) -> None:
        if not names:
            return
        with self._tx() as db:
            db.executemany("DELETE FROM entries WHERE scope = ? AND name = ?", [(scope, n) for n in names])

    def scope_bytes(self, scope: str) -> int:
        with self._tx(write=False) as db:
            (size,) = db.execute(
                "SELECT coalesce(sum(length(e.value)), 0) FROM entries e JOIN scopes s ON s.scope = e.scope "
                "WHERE e.scope = ? AND s.expires > ?",
                (scope, time.time()),
            ).fetchone()
        return int(size)

    def delete(self, scope: str) -> bool:
        with self._tx() as db:
            live = db.execute(
                "SELECT 1 FROM scopes WHERE scope = ? AND expires > ?", (scope, time.time())
            ).fetchone()
            db.execute("DELETE FROM scopes WHERE scope = ?", (scope,))
        return live is not None

    def expires_in(self, scope: str) -> float | None:
        now = time.time()
        with self._tx(write=False) as db:
            row = db.execute(
                "SELECT expires FROM scopes WHERE scope = ? AND expires > ?", (scope, now)
            ).fetchone()
        return None if row is None else row[0] - now

    def incr(self, key: str, window: int) -> int:
        now = time.time()
        with self._tx() as db:
            (value,) = db.execute(
                "INSERT INTO counters (key, value, expires) VALUES (:key, 1, :exp) "
                "ON CONFLICT (key) DO UPDATE SET "
                "value = CASE WHEN expires <= :now THEN 1 ELSE value + 1 END, "
                "expires = CASE WHEN expires <= :now THEN :exp ELSE expires END "
                "RETURNING value",
                {"key": key, "exp": now + window, "now": now},
            ).fetchone()
        return int(value)

    def count(self, key: str) -> int:
        with self._tx(write=False) as db:
            row = db.execute("SELECT value FROM counters WHERE key = ? AND expires > ?", (key, time.time())).fetchone()
        return 0 if row is None else int(row[0])

    def ping(self) -> None:
        with self._tx(write=False) as db:
            db.execute("SELECT count(*) FROM scopes WHERE expires < 0").fetchone()

    def close(self) -> None:
        self._stop.set()
        self._sweeper_pid = 0
        conn = getattr(self._local, "conn", None)
        if conn is not None and self._local.pid == os.getpid():
            conn.close()
        self._local = threading.local()

    def _sweep(self, db: sqlite3.Connection, now: float) -> None:
        """Drop expired scopes (their entries cascade) and counters, at most every ``sweep_seconds``."""
        if now - self._last_sweep < self.sweep_seconds:
            return
        self._last_sweep = now
        db.execute("DELETE FROM scopes WHERE expires <= ?", (now,))
        db.execute("DELETE FROM counters WHERE expires <= ?", (now,))
