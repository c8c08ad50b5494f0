"""The SQLite store keeps documents private (issue 16): the file is made 0600 like the audit log,
and an expired document leaves the disk within seconds without waiting for the next write."""
from __future__ import annotations

import os
import stat
import time

from addin_backend.store.sqlite_store import SqliteStore

MARKER = b"CONFIDENTIAL-CLAUSE-7f3a"


def _on_disk(folder) -> bytes:
    return b"".join((folder / name).read_bytes() for name in os.listdir(folder))


def test_the_database_file_is_created_0600(tmp_path):
    store = SqliteStore(str(tmp_path / "ledger.sqlite3"))
    try:
        store.put("doc", {"original": b"x"})
        for name in os.listdir(tmp_path):
            assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o600, name
    finally:
        store.close()


def test_an_expired_document_is_removed_from_disk_without_another_write(tmp_path):
    store = SqliteStore(str(tmp_path / "ledger.sqlite3"), ttl=1)
    try:
        store.put("doc", {"original": MARKER * 50})
        assert MARKER in _on_disk(tmp_path)
        deadline = time.monotonic() + 10
        while MARKER in _on_disk(tmp_path):  # no request comes: the sweeper alone removes it
            assert time.monotonic() < deadline, "the expired document is still on disk"
            time.sleep(0.2)
        assert store.get("doc", "original") is None
    finally:
        store.close()


def test_the_counter_can_be_read_without_adding_to_it(tmp_path):
    store = SqliteStore(str(tmp_path / "ledger.sqlite3"))
    try:
        assert store.count("c") == 0
        store.incr("c", 60)
        store.incr("c", 60)
        assert store.count("c") == 2 and store.count("c") == 2
    finally:
        store.close()
