"""Applied revisions: kept in the store per upload, read back, downloaded; and accepting or
rejecting every tracked change of a package (``ledger accept`` / ``ledger reject``).

An apply keeps ``revision:<n>`` (the written bytes) and ``revision:<n>:meta`` (what was applied)
in the document's scope; ``n`` counts 1, 2, … per document.
"""
from __future__ import annotations

import os
from typing import Any, Literal

from ..store import documents
from ..errors import InvalidRequestError, UnknownDocumentError, UnknownRevisionError
from ..store import Store, dumps
from . import quota
from .jsonable import json_safe

__all__ = ["next_revision", "keep_revision", "revision_bytes", "revision_file", "resolve"]


def next_revision(store: Store, doc_id: str) -> int:
    """A revision number no other apply of this document has taken (counted in the store)."""
    while True:
        rev = store.incr(f"revisions:{doc_id}", store.ttl)
        if store.get(doc_id, f"revision:{rev}:meta") is None:
            return rev


def keep_revision(store: Store, doc_id: str, rev: int, data: bytes, record: dict[str, Any], *,
                  account: quota.Account | None = None) -> None:
    """Keep a revision's bytes and its record, capped and counted in ``account``'s quota first
    (:func:`.quota.keep`: the file of a small upload's edit can be far larger than the upload).

    :raise UnknownDocumentError: the document expired meanwhile.
    :raise QuotaExceededError: over ``LEDGER_MAX_DERIVED_MB``, or past the account's quota.
    """
    items = {f"revision:{rev}": data, f"revision:{rev}:meta": dumps(json_safe(record))}
    if not quota.keep(store, doc_id, items, account=account, what=f"revision {rev}"):
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")


def revision_bytes(store: Store, doc_id: str, rev: int) -> bytes:
    """The bytes of one applied revision of a document.

    :raise UnknownDocumentError: no such document.
    :raise UnknownRevisionError: no such revision of it.
    """
    documents.get_meta(store, doc_id)
    data = store.get(doc_id, f"revision:{rev}")
    if data is None:
        raise UnknownRevisionError(f"document {doc_id!r} has no revision {rev}", revision=rev)
    return data


def revision_file(store: Store, doc_id: str, rev: int) -> tuple[bytes, str, str]:
    """``(bytes, media type, download name)`` of a revision: ``<name>.ledger.<ext>``.

    :raise UnknownDocumentError, UnknownRevisionError: no such document or revision.
    """
    meta = documents.get_meta(store, doc_id)
    data = revision_bytes(store, doc_id, rev)
    stem = os.path.splitext(meta.get("filename") or doc_id)[0] or doc_id
    return data, documents.MEDIA_TYPES[meta["format"]], f"{stem}.ledger.{meta['format']}"


def resolve(data: bytes, which: Literal["accept", "reject"]) -> bytes:
    """The package with every tracked change accepted (``"accept"``) or rejected (``"reject"``).

    :raise EngineUnavailableError: the writers are not installed.
    :raise InvalidRequestError: ``which`` is neither.
    """
    from ..edits.pipeline import writer_functions

    if which not in ("accept", "reject"):
        raise InvalidRequestError(f"resolve accepts or rejects, not {which!r}")
    _, accept_all, reject_all = writer_functions()
    return accept_all(data) if which == "accept" else reject_all(data)
