"""The one store interface: scoped blobs with a shared expiry, counters, and JSON helpers.

Everything of one document lives in one *scope* (its id): the uploaded bytes, the parsed
model, the graph, its job records. A scope expires as a whole ``ttl`` seconds after its last
write, and :meth:`Store.delete` removes it as a whole, so "delete removes everything of a
document" holds by construction. Counters (rate limits) live beside the scopes with their own
window. Implementations must be safe to use from several threads and several processes.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any, Mapping

__all__ = ["Store", "DEFAULT_TTL", "dumps"]

#: One day: long enough for an editing session, short enough that uploads do not pile up.
DEFAULT_TTL = 24 * 3600


class Store(ABC):
    """Scoped byte values that expire together; see the module docstring."""

    #: ``sqlite`` or ``redis``: reported by ``/readyz`` and ``/api/v1/version``.
    kind = "abstract"

    def __init__(self, ttl: int = DEFAULT_TTL) -> None:
        if ttl <= 0:
            raise ValueError(f"the store's TTL must be positive, not {ttl}")
        self.ttl = ttl

    @abstractmethod
    def put(self, scope: str, items: Mapping[str, bytes], *, create: bool = True) -> bool:
        """Write ``items`` into ``scope`` atomically and restart the scope's expiry.

        With ``create=False`` nothing is written unless the scope exists: a background job
        writing progress for a document that was deleted meanwhile must not bring it back.
        Returns whether the items were written.
        """

    @abstractmethod
    def get(self, scope: str, name: str) -> bytes | None:
        """One value, or ``None`` when the scope or the name does not exist (or expired)."""

    @abstractmethod
    def names(self, scope: str) -> list[str]:
        """The names a scope holds, sorted (``[]`` when it does not exist or expired)."""

    @abstractmethod
    def discard(self, scope: str, names: list[str]) -> None:
        """Remove some names of a scope (the scope and its expiry stay)."""

    @abstractmethod
    def scope_bytes(self, scope: str) -> int:
        """How many bytes the values of a scope hold (0 when it does not exist or expired)."""

    @abstractmethod
    def delete(self, scope: str) -> bool:
        """Remove the scope and all it holds; ``False`` when there was nothing to remove."""

    @abstractmethod
    def expires_in(self, scope: str) -> float | None:
        """Seconds until the scope expires, or ``None`` when it does not exist."""

    @abstractmethod
    def incr(self, key: str, window: int) -> int:
        """Add one to a counter that vanishes ``window`` seconds after its first increment."""

    @abstractmethod
    def count(self, key: str) -> int:
        """A counter's value without adding to it (0 when it is not there or its window ended)."""

    @abstractmethod
    def ping(self) -> None:
        """Return when the store answers; raise :class:`StoreUnavailableError` otherwise."""

    def close(self) -> None:
        """Release connections held by this process (the store itself stays)."""

    # --- JSON on top of bytes --------------------------------------------------------------

    def put_json(self, scope: str, name: str, obj: Any, *, create: bool = True) -> bool:
        return self.put(scope, {name: dumps(obj)}, create=create)

    def get_json(self, scope: str, name: str) -> Any | None:
        raw = self.get(scope, name)
        return None if raw is None else json.loads(raw)


def dumps(obj: Any) -> bytes:
    """Compact UTF-8 JSON, the one encoding of JSON values in every store."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
