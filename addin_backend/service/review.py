"""Reviews: ``POST /documents/{id}/revisions/{rev}/review`` and ``ledger review REVIEWED --against EDITED``.

The reviewed bytes (the revision's file as it came back from Word or LibreOffice) are judged
against the operations that revision applied, planned on the original upload
(:func:`addin_backend.verify.review.review`): each operation accepted, rejected or pending, and the
findings of a check of what the review leaves.
"""
from __future__ import annotations

from typing import Any

from ..store import documents
from ..errors import UnknownRevisionError
from ..store import Store
from .graph_job import load_graph
from .jsonable import json_safe

__all__ = ["review_revision", "review_files"]


def review_revision(store: Store, doc_id: str, rev: int, reviewed: bytes) -> dict[str, Any]:
    """``{document, revision, operations, findings, consistent, exact, counts}``.

    :raise UnknownDocumentError, UnknownRevisionError: nothing to review against.
    :raise AdapterError: the reviewed bytes are not a readable document.
    """
    from adapters import read

    from ..edits.operations import edits_from_json
    from ..verify.review import review
    from .edits import VIEW_KEYS

    documents.get_meta(store, doc_id)
    record = store.get_json(doc_id, f"revision:{rev}:meta")
    if record is None:
        raise UnknownRevisionError(f"document {doc_id!r} has no revision {rev}", revision=rev)
    reviewed_doc = read(reviewed)  # unreadable input is a clear error before any work
    ops = edits_from_json([{k: v for k, v in op.items() if k not in VIEW_KEYS}
                           for op in record["operations"]])
    comments = {op["id"]: op["comment"] for op in record["operations"] if op.get("comment")}
    original = documents.load(store, doc_id)
    report = review(original, ops, reviewed_doc, comments=comments, G=load_graph(store, doc_id))
    return json_safe({"document": doc_id, "revision": rev, **report})


def review_files(reviewed: bytes, edited: bytes) -> dict[str, Any]:
    """``ledger review REVIEWED --against EDITED``: the operations from EDITED's record, planned
    on EDITED with every change rejected (the original text).

    :raise InvalidRequestError: EDITED carries no record (not written by ``ledger edit``).
    """
    from adapters import read, reject_all

    from ..errors import InvalidRequestError
    from ..verify.review import read_record, record_edits, review

    rec = read_record(edited)
    if rec is None:
        raise InvalidRequestError("the --against file carries no LEDGER operations record "
                                  "(give the file `ledger edit` wrote)")
    ops, comments = record_edits(rec)
    original = read(reject_all(edited))
    report = review(original, ops, reviewed, comments=comments)
    report["instruction"] = rec.get("instruction")
    return report
