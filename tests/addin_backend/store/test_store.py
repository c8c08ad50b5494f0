"""The store, against SQLite and a real Redis server: scopes, expiry, delete-all, counters, concurrency."""
from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from addin_backend.errors import StoreUnavailableError
from addin_backend.store import open_store
from addin_backend.store.redis_store import RedisStore
from addin_backend.store.sqlite_store import SqliteStore
from tests.servers import free_port


def test_values_come_back_byte_for_byte(store):
    blob = bytes(range(256)) * 1000
    assert store.put("doc1", {"original": blob, "meta": b"{}"})
    assert store.get("doc1", "original") == blob
    assert store.get("doc1", "meta") == b"{}"
    assert store.get("doc1", "nothing") is None
    assert store.get("doc2", "original") is None


def test_large_values_are_written_and_read_in_pieces_and_come_back_whole(store):
    """Values past the SQLite store's BLOB_CHUNK go through incremental blob I/O (a value bound
    whole was copied by SQLite first: a 40 MB upload took +80 MB to store): byte for byte,
    overwritten larger and smaller, counted in the scope's size, in one transaction with the
    small values written beside them."""
    import os

    from addin_backend.store.sqlite_store import BLOB_CHUNK

    big = os.urandom(3 * BLOB_CHUNK + 12345)
    assert store.put("doc1", {"original": big, "meta": b"{}"})
    assert store.get("doc1", "original") == big and store.get("doc1", "meta") == b"{}"
    assert store.scope_bytes("doc1") == len(big) + 2
    bigger = os.urandom(5 * BLOB_CHUNK + 1)
    store.put("doc1", {"original": bigger})
    assert store.get("doc1", "original") == bigger
    store.put("doc1", {"original": b"small now"})
    assert store.get("doc1", "original") == b"small now" and store.scope_bytes("doc1") == 11
    exact = os.urandom(BLOB_CHUNK + 1)
    assert store.put("gone", {"x": exact}, create=False) is False and store.get("gone", "x") is None
    store.put("doc2", {"x": exact})
    assert store.get("doc2", "x") == exact


def test_json_helpers_round_trip_unicode(store):
    store.put_json("doc1", "meta", {"title": "Über – 1", "units": [1, 2]})
    assert store.get_json("doc1", "meta") == {"title": "Über – 1", "units": [1, 2]}
    assert store.get_json("doc1", "other") is None


def test_put_overwrites_and_keeps_other_names(store):
    store.put("d", {"a": b"1", "b": b"2"})
    store.put("d", {"a": b"3"})
    assert (store.get("d", "a"), store.get("d", "b")) == (b"3", b"2")


def test_update_only_put_does_not_create_a_scope(store):
    assert store.put("gone", {"job:1": b"x"}, create=False) is False
    assert store.get("gone", "job:1") is None
    assert store.expires_in("gone") is None
    store.put("here", {"a": b"1"})
    assert store.put("here", {"job:1": b"x"}, create=False) is True
    assert store.get("here", "job:1") == b"x"
    assert store.put("empty", {}) is True  # a scope exists from its creation, even empty
    assert store.expires_in("empty") > 0
    assert store.put("empty", {"a": b"1"}, create=False) is True


def test_names_discard_and_the_size_of_a_scope(store):
    store.put("d", {"original": b"12345", "job:b": b"xy", "job:a": b"{}"})
    assert store.names("d") == ["job:a", "job:b", "original"] and store.names("none") == []
    assert store.scope_bytes("d") == 9 and store.scope_bytes("none") == 0
    store.discard("d", ["job:b", "not-there"])
    assert store.names("d") == ["job:a", "original"] and store.get("d", "job:b") is None
    assert store.scope_bytes("d") == 7 and store.expires_in("d") > 0
    store.discard("d", [])
    assert store.names("d") == ["job:a", "original"]


def test_delete_removes_everything_of_the_scope_only(store):
    store.put("d1", {"original": b"o", "document": b"{}", "graph": b"{}", "job:d1-graph": b"{}"})
    store.put("d2", {"original": b"keep"})
    assert store.delete("d1") is True
    for name in ("original", "document", "graph", "job:d1-graph"):
        assert store.get("d1", name) is None
    assert store.delete("d1") is False
    assert store.get("d2", "original") == b"keep"


def test_scope_expires_as_a_whole_after_its_ttl(store_url, tmp_path):
    s = open_store(store_url, str(tmp_path), ttl=1)
    s.put("d", {"a": b"1", "b": b"2"})
    assert 0 < s.expires_in("d") <= 1
    time.sleep(1.3)
    assert s.get("d", "a") is None and s.get("d", "b") is None
    assert s.expires_in("d") is None
    assert s.put("d", {"job": b"late"}, create=False) is False  # an expired scope is gone
    s.put("d", {"a": b"new"})
    assert s.get("d", "b") is None  # nothing of the old scope comes back
    s.close()


def test_writes_restart_the_expiry(store_url, tmp_path):
    s = open_store(store_url, str(tmp_path), ttl=2)
    s.put("d", {"a": b"1"})
    time.sleep(1.2)
    s.put("d", {"b": b"2"}, create=False)
    assert s.expires_in("d") > 1.5
    s.close()


def test_counter_counts_then_resets_after_its_window(store):
    assert [store.incr("rate:k", 1) for _ in range(3)] == [1, 2, 3]
    assert store.incr("rate:other", 1) == 1
    time.sleep(1.2)
    assert store.incr("rate:k", 1) == 1


def test_counter_is_exact_under_threads(store):
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: store.incr("rate:t", 60), range(400)))
    assert store.incr("rate:t", 60) == 401


def _count(url: str, folder: str, n: int) -> None:
    s = open_store(url, folder, ttl=60)
    for _ in range(n):
        s.incr("rate:p", 60)
        s.put("shared", {"last": b"x"})


def test_counter_and_writes_are_exact_across_processes(store, store_url, tmp_path):
    store.put("shared", {"first": b"1"})
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_count, args=(store_url, str(tmp_path), 50)) for _ in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    assert store.incr("rate:p", 60) == 201
    assert store.get("shared", "first") == b"1"


def test_ping_answers_and_a_dead_redis_is_unavailable(store):
    store.ping()
    dead = RedisStore(f"redis://127.0.0.1:{free_port()}/0")
    with pytest.raises(StoreUnavailableError) as exc:
        dead.ping()
    assert exc.value.code == "store_unavailable"
    with pytest.raises(StoreUnavailableError):
        dead.get("d", "a")


def test_store_urls_pick_the_implementation(tmp_path, redis_url):
    default = open_store(None, str(tmp_path))
    assert isinstance(default, SqliteStore) and default.path == str(tmp_path / "ledger.sqlite3")
    explicit = open_store(f"sqlite:///{tmp_path}/other.db", str(tmp_path), ttl=5)
    assert explicit.path == f"{tmp_path}/other.db" and explicit.ttl == 5
    assert isinstance(open_store(redis_url, str(tmp_path)), RedisStore)
    with pytest.raises(ValueError, match="LEDGER_STORE"):
        open_store("postgres://x", str(tmp_path))
    with pytest.raises(ValueError, match="TTL"):
        open_store("sqlite", str(tmp_path), ttl=0)
