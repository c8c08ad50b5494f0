"""Fixtures for the backend: a real Redis server per session, and a store of each kind."""
from __future__ import annotations

import shutil

import pytest

from tests.servers import RedisServer

@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """A real redis-server on a free loopback port, stopped after the session."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (make system-deps installs it)")
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture(params=["sqlite", "redis"])
def store_url(request, tmp_path):
    """The ``LEDGER_STORE`` value of each store kind (a fresh database for each test)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    import redis

    url = request.getfixturevalue("redis_url")
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture
def store(store_url, tmp_path):
    from addin_backend.store import open_store

    s = open_store(store_url, str(tmp_path), ttl=60)
    yield s
    s.close()
