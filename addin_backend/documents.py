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
from datetime import datetime, timezone
from typing import Any

from adapters import read
from adapters.model import UNIT_KINDS, Document, Unit
from adapters.package import DEFAULT_LIMITS, Limits

from .errors import InvalidRequestError, UnknownDocumentError, UnknownUnitError
from .graph.label_index import typed_heading, unit_keys
from .graph.lexicon import canonical_label
from .store import Store, dumps

__all__ = [
    "MEDIA_TYPES",
    "OUTLINE_KINDS",
    "upload",
    "keep",
    "get_meta",
    "load",
    "original",
    "delete",
    "list_units",
    "get_unit",
    "outline",
    "clean_filename",
]

#: The media type of each format we read, for downloads.
MEDIA_TYPES = {
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "odt": "application/vnd.oasis.opendocument.text",
}

#: Units that make up the outline (the task pane's navigation tree).
OUTLINE_KINDS = ("title", "section")


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


def upload(store: Store, data: bytes, *, filename: str | None = None,
           limits: Limits = DEFAULT_LIMITS) -> tuple[dict[str, Any], Document]:
    """Read ``data`` and keep it with its model under a new document id.

    Returns the document's meta record and the model (so the caller can start work on it
    without reading it back).

    :raise adapters.errors.AdapterError: the bytes are not a readable .docx/.odt.
    """
    doc = read(data, path=None, limits=limits)
    return keep(store, data, doc, filename=filename), doc


def keep(store: Store, data: bytes, doc: Document, *, filename: str | None = None) -> dict[str, Any]:
    """Store the bytes as they came and their model under a new id; returns the meta record."""
    meta = {
        "id": secrets.token_hex(12),
        "format": doc.format,
        "filename": clean_filename(filename),
        "size": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "units": len(doc.units),
        "warnings": len(doc.warnings),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    store.put(meta["id"], {
        "original": data,
        "document": dumps(doc.to_json(lossless=True)),
        "meta": dumps(meta),
    })
    return meta


def get_meta(store: Store, doc_id: str) -> dict[str, Any]:
    """The meta record of a stored document.

    :raise UnknownDocumentError: never uploaded, deleted or expired.
    """
    meta = store.get_json(doc_id, "meta")
    if meta is None:
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    return meta


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
    """The tree of titles and sections, with labels and numbers, for navigation.

    A node's parent is its nearest ancestor that is itself in the outline, so the tree does
    not depend on whether a reader parents sections to sections or to other units. Clause
    headings a conversion left as text join it as ``clause`` nodes (:func:`clause_heads`).
    """
    nodes: dict[str, dict[str, Any]] = {}
    roots: list[dict[str, Any]] = []
    heads = clause_heads(doc)
    section: dict[str, Any] | None = None
    clauses: list[tuple[int, dict[str, Any]]] = []  # open clause nodes since the last section
    for u in doc.units:
        if u.kind in OUTLINE_KINDS:
            node = {"id": u.id, "kind": u.kind, "label": u.label, "number": u.number,
                    "title": u.title if u.title is not None else u.text, "level": u.level,
                    "children": []}
            nodes[u.id] = node
            parent = _outline_parent(doc, u.parent, nodes)
            (parent["children"] if parent else roots).append(node)
            if u.kind == "section":
                section, clauses = node, []
            continue
        num = heads.get(u.id)
        if num is None:
            continue
        depth = num.count(".") + 1
        typed = typed_heading(u.text) if u.kind == "paragraph" else None
        title = typed[1] if typed else u.text.strip()
        node = {"id": u.id, "kind": "clause", "label": canonical_label("section", num), "number": num,
                "title": title.split(". ", 1)[0][:80] or u.text.strip()[:80], "level": depth, "children": []}
        while clauses and clauses[-1][0] >= depth:
            clauses.pop()
        parent = clauses[-1][1] if clauses else section
        (parent["children"] if parent else roots).append(node)
        clauses.append((depth, node))
    return roots


def _shown_section_number(u: Unit) -> str | None:
    """A heading's number, from the reader or typed before its title ("2. License Grants")."""
    if u.number:
        return u.number.rstrip(".")
    words = (u.title or u.text).split(None, 1)
    head = words[0].rstrip(".") if words else ""
    return head if head.replace(".", "").isdigit() else None


def clause_heads(doc: Document) -> dict[str, str]:
    """Unit id -> number of the clause headings a conversion left as text.

    Under a heading whose number a typed paragraph extends ("2.1. Grants" under "2. License
    Grants"); in a document without headings, typed headings and clauses numbered by a list
    ("7. Additional Terms.") when they read as the document's outline: at least three, each
    top-level number once, and most of them followed by text of their own (a plain numbered
    list is not an outline).
    """
    out: dict[str, str] = {}
    if any(u.kind == "section" for u in doc.units):
        prefix: str | None = None
        for u in doc.body():
            if u.kind == "section":
                shown = _shown_section_number(u)
                prefix = shown + "." if shown else None
            elif prefix and u.kind == "paragraph":
                for (family, num), rank in unit_keys(u):
                    if family == "section" and rank == 2 and num.startswith(prefix):
                        out[u.id] = num
                        break
        return out
    flow = list(doc.body())
    cands: list[tuple[int, str, int]] = []
    for i, u in enumerate(flow):
        if u.kind not in ("paragraph", "list_item"):
            continue
        for (family, num), rank in unit_keys(u):
            if family == "section" and (rank == 2 or u.kind == "list_item"):
                cands.append((i, num, rank))
                break
    tops = [num for _, num, _ in cands if "." not in num]
    ends = [c[0] for c in cands[1:]] + [len(flow)]
    # text of its own: units before the next clause, or a whole clause in the item ("2. Grant of ...")
    bodies = sum(1 for (i, _, rank), end in zip(cands, ends) if end > i + 1 or rank == 3)
    if len(cands) < 3 or len(tops) != len(set(tops)) or bodies * 2 < len(cands):
        return out
    return {flow[i].id: num for i, num, _ in cands}


def _outline_parent(doc: Document, unit_id: str | None,
                    nodes: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    seen: set[str] = set()
    while unit_id is not None and unit_id not in seen:
        if unit_id in nodes:
            return nodes[unit_id]
        seen.add(unit_id)
        parent = doc.get(unit_id)
        unit_id = parent.parent if parent else None
    return None
