"""How much one client keeps in the store, and its quota (``LEDGER_QUOTA_MB``).

A client is an API key (its fingerprint), or an address on a server without keys. Everything a
client stores is listed in its scope ``quota:<client>`` (:func:`charge`): its uploads through
either door (REST, MCP ``open_document``), the documents ``accept_all``/``reject_all`` make, and
its style sheets. What the client keeps is the sum of what those scopes hold now (an upload
with its model, graph, proposals, revisions and kept checks: about 3.6 times the upload), so a
deleted or expired one stops counting by itself.

A write is *reserved* before it is made (:func:`reserve`): a hold of its size goes into the
client's scope ``quota-hold:<client>`` first, then the holds and what is kept are summed, and a
write that takes the client past its quota is refused (507 ``quota_exceeded``) and its hold
dropped. Concurrent writes each see the others' holds, so together they cannot pass the quota
(at worst one of them is refused that would just have fitted, and a retry succeeds). A hold
ends with its write; one left by a killed process stops counting after :data:`HOLD_SECONDS`.
The lists live as long as a document (``LEDGER_TTL_SECONDS``) after the client's last write.
"""
from __future__ import annotations

import time
import uuid
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, Sequence

from ..errors import QuotaExceededError
from ..store import Store

__all__ = ["usage", "ensure_room", "reserve", "charge", "keep", "count_result", "hold", "max_derived_bytes", "Account", "MB", "HOLD_SECONDS",
           "DEFAULT_MAX_DERIVED_MB"]

MB = 1024 * 1024
#: The most one thing derived from a document (a proposal, a revision's file and record, a kept
#: check, a review's file) may store (``LEDGER_MAX_DERIVED_MB``): a 2 KB upload can derive a
#: proposal of hundreds of MB (issue 33, item 4).
DEFAULT_MAX_DERIVED_MB = 64.0
#: Whose quota a write counts in: ``(client, quota bytes)`` (a list once it travels as a job's
#: JSON argument); ``None``: no quota (the command line, a single user).
Account = Sequence[Any]
#: How long a hold counts at most (a write that takes longer than this is not a write).
HOLD_SECONDS = 600.0


def _scope(client: str) -> str:
    return f"quota:{client}"


def _holds(client: str) -> str:
    return f"quota-hold:{client}"


def _held(store: Store, client: str) -> int:
    """Bytes the client's writes in progress hold (stale holds are dropped)."""
    scope, total, stale, now = _holds(client), 0, [], time.time()
    for token in store.names(scope):
        raw = store.get(scope, token)
        try:
            size, since = (raw or b"").decode("ascii").split(":")
            if now - float(since) > HOLD_SECONDS:
                raise ValueError("stale")
            total += int(size)
        except ValueError:
            stale.append(token)
    if stale:
        store.discard(scope, stale)
    return total


def usage(store: Store, client: str) -> int:
    """Bytes what ``client`` stored holds now, plus its writes in progress (gone ones are forgotten)."""
    scope = _scope(client)
    total, gone = 0, []
    for name in store.names(scope):
        size = store.scope_bytes(name)
        if size == 0 and store.expires_in(name) is None:
            gone.append(name)
        total += size
    if gone:
        store.discard(scope, gone)
    return total + _held(store, client)


def _refuse(used: int, incoming: int, quota: int) -> QuotaExceededError:
    return QuotaExceededError(
        f"this client keeps {used / MB:,.1f} MB in the store; {incoming / MB:,.1f} MB more would pass its "
        f"quota of {quota / MB:,.0f} MB (LEDGER_QUOTA_MB): delete documents it no longer needs "
        "(DELETE /api/v1/documents/{id}) or wait for them to expire",
        used=used, incoming=incoming, quota=quota)


def ensure_room(store: Store, client: str, incoming: int, quota: int) -> None:
    """Refuse a write of about ``incoming`` bytes that would take ``client`` past ``quota`` bytes
    (0: no quota). A check only: a write that others may race uses :func:`reserve`.

    :raise QuotaExceededError: over the quota (the message says how much is kept and the limit).
    """
    if quota <= 0:
        return
    used = usage(store, client)
    if used + incoming > quota:
        raise _refuse(used, incoming, quota)


@contextmanager
def reserve(store: Store, client: str, incoming: int, quota: int) -> Iterator[Callable[[str], None]]:
    """Hold ``incoming`` bytes of ``client``'s quota while the block writes; the block is given
    ``charge(scope)`` to count what it stored to the client (before the hold ends).

    :raise QuotaExceededError: the write would pass the quota (nothing is held then).
    """
    def count(scope: str) -> None:
        charge(store, client, scope)

    if quota <= 0:
        yield count
        return
    token = uuid.uuid4().hex
    store.put(_holds(client), {token: f"{max(0, int(incoming))}:{time.time():.3f}".encode("ascii")})
    try:
        used = usage(store, client)  # ours and every other hold included
        if used > quota:
            raise _refuse(used - incoming, incoming, quota)
        yield count
    finally:
        store.discard(_holds(client), [token])


@contextmanager
def hold(store: Store, account: Account | None, incoming: int) -> Iterator[None]:
    """:func:`reserve` ``incoming`` bytes of ``account``'s quota while the block writes (no
    account: nothing to hold). For a write whose scope a door charges (an upload's model).

    :raise QuotaExceededError: the write would pass the quota (nothing is held then).
    """
    if not account:
        yield
        return
    with reserve(store, str(account[0]), incoming, int(account[1])):
        yield


def charge(store: Store, client: str, scope: str) -> None:
    """Count the scope ``scope`` (a document and all it will hold, a style sheet) to ``client``."""
    store.put(_scope(client), {scope: b""})


def max_derived_bytes(environ: dict[str, str] | None = None) -> int:
    """``LEDGER_MAX_DERIVED_MB`` in bytes (default :data:`DEFAULT_MAX_DERIVED_MB`; 0: no cap).

    >>> max_derived_bytes({}) == 64 * MB, max_derived_bytes({"LEDGER_MAX_DERIVED_MB": "0"})
    (True, 0)
    """
    import os

    from ..errors import InvalidRequestError

    raw = (os.environ if environ is None else environ).get("LEDGER_MAX_DERIVED_MB")
    try:
        mb = DEFAULT_MAX_DERIVED_MB if raw is None else float(raw)
    except ValueError:
        raise InvalidRequestError(f"LEDGER_MAX_DERIVED_MB={raw!r} is not a number of MB") from None
    return max(0, int(mb * MB))


def _capped(size: int, what: str) -> None:
    """Refuse one derived thing over ``LEDGER_MAX_DERIVED_MB`` (507 ``quota_exceeded``)."""
    cap = max_derived_bytes()
    if cap and size > cap:
        raise QuotaExceededError(
            f"{what} would store {size / MB:,.1f} MB; one thing derived from a document is at most "
            f"{cap / MB:,.0f} MB (LEDGER_MAX_DERIVED_MB): make the edit smaller (one section at a time)",
            incoming=size, cap=cap)


def keep(store: Store, scope: str, items: Mapping[str, bytes], *, account: Account | None, what: str,
         carried: int = 0) -> bool:
    """Store ``items`` (what was derived from the document ``scope``: a proposal, a revision, a
    kept check) in ``scope``, capped and counted in the account's quota before anything is
    written; ``False`` when the scope is gone (as :meth:`Store.put` with ``create=False``).
    ``carried`` is what a job's record will carry of the same as its result (a proposal made by a
    job is kept and is the job's result: both are reserved here, at once).

    :raise QuotaExceededError: 507 ``quota_exceeded``: over ``LEDGER_MAX_DERIVED_MB`` by itself,
        or past the account's quota with what it keeps already; nothing is stored.
    """
    size = sum(len(v) for v in items.values())
    _capped(size, what)
    if not account:
        return store.put(scope, items, create=False)
    client, quota = str(account[0]), int(account[1])
    with reserve(store, client, size + max(0, carried), quota):
        return store.put(scope, items, create=False)


def count_result(store: Store, result: Any, *, account: Account | None, what: str) -> Any:
    """A job's result (a review's report), refused before the job's record stores it when it is
    over ``LEDGER_MAX_DERIVED_MB`` or would take the account past its quota, every other write's
    hold included (the record is written by the job runner as the job returns: the check is the
    last thing before it); returned as it came.

    :raise QuotaExceededError: 507 ``quota_exceeded``; the job fails with it and keeps no result.
    """
    from ..store import dumps

    size = len(dumps(result))
    _capped(size, what)
    if account:
        ensure_room(store, str(account[0]), size, int(account[1]))
    return result
