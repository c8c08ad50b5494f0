"""How much one client keeps in the store, and its quota (``LEDGER_QUOTA_MB``).

A client is an API key (its fingerprint), or an address on a server without keys. Each upload
is listed in the client's scope ``quota:<client>`` (:func:`charge`); what the client keeps is
the sum of what those documents' scopes hold now (the upload, its model, graph, proposals,
revisions and kept checks: about 3.6 times the upload), so a deleted or expired document stops
counting by itself. A write that would take the client past its quota (an upload, an apply) is
refused before it is made (:func:`ensure_room`: 507 ``quota_exceeded``). The list lives as long
as a document (``LEDGER_TTL_SECONDS``) after the client's last write.
"""
from __future__ import annotations

from ..errors import QuotaExceededError
from ..store import Store

__all__ = ["usage", "ensure_room", "charge", "MB"]

MB = 1024 * 1024


def _scope(client: str) -> str:
    return f"quota:{client}"


def usage(store: Store, client: str) -> int:
    """Bytes the documents ``client`` uploaded hold in the store now (gone ones are forgotten)."""
    scope = _scope(client)
    total, gone = 0, []
    for doc_id in store.names(scope):
        size = store.scope_bytes(doc_id)
        if size == 0 and store.expires_in(doc_id) is None:
            gone.append(doc_id)
        total += size
    store.discard(scope, gone)
    return total


def ensure_room(store: Store, client: str, incoming: int, quota: int) -> None:
    """Refuse a write of about ``incoming`` bytes that would take ``client`` past ``quota`` bytes
    (0: no quota).

    :raise QuotaExceededError: over the quota (the message says how much is kept and the limit).
    """
    if quota <= 0:
        return
    used = usage(store, client)
    if used + incoming > quota:
        raise QuotaExceededError(
            f"this client keeps {used / MB:,.1f} MB in the store; {incoming / MB:,.1f} MB more would pass its "
            f"quota of {quota / MB:,.0f} MB (LEDGER_QUOTA_MB): delete documents it no longer needs "
            "(DELETE /api/v1/documents/{id}) or wait for them to expire",
            used=used, incoming=incoming, quota=quota)


def charge(store: Store, client: str, doc_id: str) -> None:
    """Count the document ``doc_id`` (and all it will hold) to ``client``."""
    store.put(_scope(client), {doc_id: b""})
