"""Documents in the store: upload (read, keep the bytes as they came), load, views, delete.

Plain functions over a :class:`~addin_backend.store.Store`, called by the HTTP views and
callable from the command line alike. A document's scope holds ``original`` (the uploaded
bytes, untouched: writers patch them later), ``document`` (the neutral model as lossless
JSON) and ``meta`` (what the status route shows).
"""
from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass
from typing import Any

from adapters import read
from adapters.model import UNIT_KINDS, Document
from adapters.package import DEFAULT_LIMITS, Limits
from adapters.vocabulary import timestamp

from ..errors import InvalidRequestError, UnknownDocumentError, UnknownUnitError
from ..outline import OUTLINE_KINDS
from ..outline import tree as _tree
from . import Store, dumps

__all__ = [
    "MEDIA_TYPES",
    "OUTLINE_KINDS",
    "Reading",
    "upload",
    "keep",
    "model_bytes",
    "get_meta",
    "load",
    "original",
    "delete",
    "list_units",
    "get_unit",
    "outline",
    "clean_filename",
    "check_owner",
]

#: The media type of each format we read, for downloads.
MEDIA_TYPES = {
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "odt": "application/vnd.oasis.opendocument.text",
}

def clean_filename(name: str | None) -> str | None:
    """The last path component of a client-supplied file name, bounded; ``None`` if empty.

    >>> clean_filename("C:\\\\Users\\\\ann\\\\report.docx")
    'report.docx'
    >>> clean_filename("../../etc/passwd")
    'passwd'
    """
    if not name:
        return None
    base = os.path.basename(name.replace("\\", "/")).strip()
    base = "".join(ch for ch in base if ch.isprintable())
    return base[:255] or None


@dataclass(frozen=True)
class Reading:
    """An upload as read for keeping: what :func:`keep` records of its model (format, counts),
    the model as it is stored (:func:`model_bytes`), its size in tokens (for the graph job's
    queue) and, when it was read in this process, the model itself (``doc``). Read in a job
    process (:meth:`addin_backend.jobs.processes.ProcessRunner.call`), everything but ``doc``
    comes back: the web worker never builds the model, which the graph job reads back."""

    format: str
    units: int
    warnings: int
    tokens: int
    model: bytes
    doc: Document | None = None

    def __reduce__(self) -> tuple[Any, ...]:  # the model itself stays in the process that read it
        return (Reading, (self.format, self.units, self.warnings, self.tokens, self.model))


def upload(store: Store, data: bytes, *, filename: str | None = None,
           limits: Limits = DEFAULT_LIMITS, owner: str | None = None) -> tuple[dict[str, Any], Document]:
    """Read ``data`` and keep it with its model under a new document id (owned by ``owner``:
    :func:`keep`).

    Returns the document's meta record and the model (so the caller can start work on it
    without reading it back).

    :raise adapters.errors.AdapterError: the bytes are not a readable .docx/.odt.
    """
    doc = read(data, path=None, limits=limits)
    return keep(store, data, doc, filename=filename, owner=owner), doc


def keep(store: Store, data: bytes, doc: Document | Reading, *, filename: str | None = None,
         owner: str | None = None, model: bytes | None = None) -> dict[str, Any]:
    """Store the bytes as they came and their model under a new id; returns the meta record.

    ``owner`` is who may reach the document and everything kept in its scope (jobs, proposals,
    revisions, checks): an API key's fingerprint or its group (:func:`check_owner`); ``None``
    on a server without keys and on the command line. ``model`` is :func:`model_bytes` of
    ``doc`` when the caller made it already (to reserve its size before it is stored); a
    :class:`Reading` brings its own."""
    if isinstance(doc, Reading):
        fmt, units, warnings, model = doc.format, doc.units, doc.warnings, doc.model
    else:
        fmt, units, warnings = doc.format, len(doc.units), len(doc.warnings)
        model = model_bytes(doc) if model is None else model
    meta: dict[str, Any] = {
        "id": secrets.token_hex(12),
        "format": fmt,
        "filename": clean_filename(filename),
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "units": units,
        "warnings": warnings,
        "created": timestamp(),
    }
    if owner:
        meta["owner"] = owner
    store.put(meta["id"], {
        "original": data,
        "document": model,
        "meta": dumps(meta),
    })
    return meta


def model_bytes(doc: Document) -> bytes:
    """The neutral model as it is stored (lossless JSON): what keeping an upload adds to its bytes."""
    return dumps(doc.to_json(lossless=True))


def get_meta(store: Store, doc_id: str) -> dict[str, Any]:
    """The meta record of a stored document.

    :raise UnknownDocumentError: never uploaded, deleted or expired.
    """
    meta = store.get_json(doc_id, "meta")
    if meta is None:
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    return meta


def check_owner(store: Store, doc_id: str, owner: str | None, *, missing: type[Exception] = UnknownDocumentError,
                message: str | None = None) -> None:
    """Refuse ``owner`` a document it does not own, exactly as a document that does not exist
    (a 404 that tells nothing of another key's ids), whatever in its scope is asked for.

    ``owner`` ``None`` (a server without keys, a job, the command line) reaches every document.
    A document kept without an owner (uploaded before keys were set) belongs to no key. A door
    checks before it reads the request's body, so a missing document and another's are refused
    alike, at the same point. ``missing`` and ``message`` are the error a door gives for what
    was asked (a job: ``UnknownJobError``).

    :raise UnknownDocumentError: (or ``missing``) the document is another owner's, or none.
    """
    if owner is None:
        return
    meta = store.get_json(doc_id, "meta")
    if meta is None or meta.get("owner") != owner:
        raise missing(message or f"no document {doc_id!r} (never uploaded, deleted or expired)")


def load(store: Store, doc_id: str) -> Document:
    """The stored neutral model of a document.

    :raise UnknownDocumentError: never uploaded, deleted or expired.
    """
    data = store.get_json(doc_id, "document")
    if data is None:
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    return Document.from_json(data)


def original(store: Store, doc_id: str) -> tuple[bytes, dict[str, Any]]:
    """The uploaded bytes, exactly as they came, with the meta record.

    :raise UnknownDocumentError: never uploaded, deleted or expired.
    """
    meta = get_meta(store, doc_id)
    data = store.get(doc_id, "original")
    if data is None:  # expired between the two reads
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    return data, meta


def delete(store: Store, doc_id: str) -> None:
    """Remove the document and everything kept for it (model, graph, jobs).

    :raise UnknownDocumentError: there was nothing to delete.
    """
    if not store.delete(doc_id):
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")


def list_units(doc: Document, *, kind: str | None = None, offset: int = 0,
               limit: int | None = None) -> dict[str, Any]:
    """A page of units as the public unit JSON, optionally of one kind.

    :raise InvalidRequestError: ``kind`` is not a unit kind.
    """
    if kind is not None and kind not in UNIT_KINDS:
        raise InvalidRequestError(f"kind must be one of {', '.join(UNIT_KINDS)}; not {kind!r}")
    units = [u for u in doc.units if kind is None or u.kind == kind]
    page = units[offset:] if limit is None else units[offset:offset + limit]
    return {"total": len(units), "offset": offset, "units": [u.to_json() for u in page]}


def get_unit(doc: Document, unit_id: str) -> dict[str, Any]:
    """One unit as public JSON.

    :raise UnknownUnitError: the document has no unit with this id.
    """
    unit = doc.get(unit_id)
    if unit is None:
        raise UnknownUnitError(f"the document has no unit {unit_id!r}")
    return unit.to_json()


def outline(doc: Document) -> list[dict[str, Any]]:
    """The tree of titles, sections and clauses, with labels and numbers, for navigation
    (:func:`addin_backend.outline.tree`: one outline rule for the route, the graph and the edits)."""
    return _tree(doc)
