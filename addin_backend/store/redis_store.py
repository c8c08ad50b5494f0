"""The shared store: Redis, for several workers or machines serving the same users.

A scope is one Redis hash (``ledger:s:<scope>``) with one expiry, so deleting or expiring a
document is a single key operation. Counters are plain keys with ``EXPIRE NX``. The client's
connection pool is thread-safe and re-creates its connections after a ``fork``.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Mapping

import redis

from ..errors import StoreUnavailableError
from .base import DEFAULT_TTL, Store

__all__ = ["RedisStore"]

# KEYS[1] the scope's hash; ARGV[1] ttl, ARGV[2] "1" to create, then field, value, ...
# Redis drops an empty hash, so a created scope always holds the field "." (its marker).
_PUT = """
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], '.', '')
elseif redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
if #ARGV > 2 then redis.call('HSET', KEYS[1], unpack(ARGV, 3)) end
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
"""


# KEYS[1] the scope's hash: the total length of its values (HSTRLEN: no value is copied).
_SIZE = """
local n = 0
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do n = n + redis.call('HSTRLEN', KEYS[1], f) end
return n
"""


def _bytes(value: bytes | str | None) -> bytes | None:
    """A reply as bytes (the client is made without ``decode_responses``: it is bytes already)."""
    return value.encode("utf-8") if isinstance(value, str) else value


def _text(value: bytes | str) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


class RedisStore(Store):
    """:class:`Store` in a Redis server named by a ``redis://`` URL."""

    kind = "redis"

    def __init__(self, url: str, ttl: int = DEFAULT_TTL, prefix: str = "ledger:") -> None:
        super().__init__(ttl)
        self.url = url
        self._prefix = prefix
        self._client = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=5)
        self._put = self._client.register_script(_PUT)
        self._size = self._client.register_script(_SIZE)

    def _scope(self, scope: str) -> str:
        return f"{self._prefix}s:{scope}"

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except redis.RedisError as exc:
            raise StoreUnavailableError(f"the Redis store failed: {type(exc).__name__}") from None

    def put(self, scope: str, items: Mapping[str, bytes], *, create: bool = True) -> bool:
        args: list[bytes | str | int] = [self.ttl, "1" if create else "0"]
        for name, value in items.items():
            args += [name, value]
        with self._guard():
            return bool(self._put(keys=[self._scope(scope)], args=args))

    def get(self, scope: str, name: str) -> bytes | None:
        with self._guard():
            return _bytes(self._client.hget(self._scope(scope), name))

    def names(self, scope: str) -> list[str]:
        with self._guard():
            keys = self._client.hkeys(self._scope(scope))
        return sorted(_text(k) for k in keys if k != b".")

    def discard(self, scope: str, names: list[str]) -> None:
        if names:
            with self._guard():
                self._client.hdel(self._scope(scope), *names)

    def scope_bytes(self, scope: str) -> int:
        with self._guard():
            return int(self._size(keys=[self._scope(scope)]))

    def delete(self, scope: str) -> bool:
        with self._guard():
            return bool(self._client.delete(self._scope(scope)))

    def expires_in(self, scope: str) -> float | None:
        with self._guard():
            ms = self._client.pttl(self._scope(scope))
        return None if ms < 0 else ms / 1000.0

    def incr(self, key: str, window: int) -> int:
        name = f"{self._prefix}c:{key}"
        with self._guard():
            pipe = self._client.pipeline(transaction=True)
            pipe.incr(name)
            pipe.expire(name, window, nx=True)
            value, _ = pipe.execute()
        return int(value)

    def count(self, key: str) -> int:
        with self._guard():
            value = self._client.get(f"{self._prefix}c:{key}")
        return int(value or 0)

    def ping(self) -> None:
        with self._guard():
            self._client.ping()

    def close(self) -> None:
        self._client.close()
