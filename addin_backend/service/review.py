"""Reviews: ``POST /documents/{id}/revisions/{rev}/review`` and ``ledger review REVIEWED --against EDITED``.

The reviewed bytes (the revision's file as it came back from Word or LibreOffice) are judged
against the operations that revision applied, planned on the original upload
(:func:`addin_backend.verify.review.review`): each operation accepted, rejected or pending, and the
findings of a check of what the review leaves.

The reviewed file is a client's bytes (:mod:`addin_backend.verify.provenance`): the operations
record it carries is never trusted over the stored revision (one that differs, or an ODT copy
outside ``office:meta``, is ignored with a ``review_record_ignored`` finding), and a file that
is another document altogether gets every operation ``unrelated`` and an ``unrelated_document``
error instead of a verdict.
"""
from __future__ import annotations

from typing import Any

from ..store import documents
from ..errors import UnknownDocumentError, UnknownRevisionError
from ..jobs.runner import JobRunner, Progress
from ..store import Store
from . import quota
from .graph_job import load_graph
from ..verify.provenance import record_findings, unrelated
from ..verify.record import RECORD
from .jsonable import json_safe

__all__ = ["review_revision", "review_files", "request_review", "REVIEW_JOB"]

REVIEW_JOB = "review"
#: The scope name a review job's reviewed file waits under, until the job has read it.
_REVIEWED = "review-file:"


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
    from .costs import refuse_review

    refuse_review(len(record["operations"]), len(reviewed_doc.units))  # before any alignment
    ops = edits_from_json([{k: v for k, v in op.items() if k not in VIEW_KEYS}
                           for op in record["operations"]])
    comments = {op["id"]: op["comment"] for op in record["operations"] if op.get("comment")}
    original = documents.load(store, doc_id)
    if unrelated(original, reviewed_doc, ops):
        return json_safe({"document": doc_id, "revision": rev, **_unrelated_report(ops, comments)})
    report = review(original, ops, reviewed_doc, comments=comments, G=load_graph(store, doc_id))
    ignored = record_findings(reviewed, record["operations"], name=RECORD)
    report["findings"] = [f.to_json() for f in ignored] + report["findings"]
    return json_safe({"document": doc_id, "revision": rev, **report})


def request_review(store: Store, runner: JobRunner, doc_id: str, rev: int, reviewed: bytes, *,
                   account: quota.Account | None = None) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``(report, None)`` for a small review, ``(None, job)`` for one whose estimated cost
    (:func:`.costs.review_cost`: the revision's changes x the document's paragraphs) is past
    ``LEDGER_SYNC_REVIEW_COST``: a job on the edit lane whose result is the report, so that a
    large review holds a job thread, never a web thread (issue 33). Past
    ``LEDGER_MAX_REVIEW_COST`` it is refused before any work. The reviewed file waits for its job
    in the document's scope, counted in ``account``'s quota, and is dropped once read.

    :raise UnknownDocumentError, UnknownRevisionError: nothing to review against.
    :raise WorkTooLargeError: ``413 too_large``: the estimated cost is past the limit.
    :raise QuotaExceededError: no room in the quota for the reviewed file.
    """
    import secrets

    from . import costs

    meta = documents.get_meta(store, doc_id)
    record = store.get_json(doc_id, f"revision:{rev}:meta")
    if record is None:
        raise UnknownRevisionError(f"document {doc_id!r} has no revision {rev}", revision=rev)
    cost = costs.refuse_review(len(record["operations"]), int(meta.get("units") or 0))
    if not costs.needs_job("review", cost):
        return review_revision(store, doc_id, rev, reviewed), None
    name = f"{_REVIEWED}{secrets.token_hex(8)}"
    if not quota.keep(store, doc_id, {name: reviewed}, account=account, what="the reviewed file"):
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    job = runner.create(doc_id, REVIEW_JOB, "review")
    runner.submit(job, _review_job, interactive=True, doc_id=doc_id, rev=rev, name=name,
                  account=list(account) if account else None)
    return None, job


def _review_job(store: Store, runner: JobRunner, progress: Progress, *, doc_id: str, rev: int,
                name: str, account: quota.Account | None = None) -> dict[str, Any]:
    """The review job as a task (:meth:`JobRunner.submit`): read the waiting file, review it; the
    report, the job's result, is capped and counted in ``account``'s quota before the job's
    record keeps it (:func:`.quota.count_result`)."""
    reviewed = store.get(doc_id, name)
    if reviewed is None:
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    try:
        progress("review", 0.1, stage_fraction=0.0)
        report = review_revision(store, doc_id, rev, reviewed)
    finally:
        store.discard(doc_id, [name])
    return quota.count_result(store, report, account=account, what="the review's report")


def _unrelated_report(ops: list[Any], comments: dict[str, str]) -> dict[str, Any]:
    """The answer for a file that is not the reviewed document: no operation has a verdict."""
    from ..findings import Finding

    found = Finding("unrelated_document", "error", None,
                    "the file under review is not the document these operations were written into (most of "
                    "its text is not the original's): no operation was accepted, rejected or left in it")
    out_ops = [{"id": e.id, "unit": e.unit, "op": e.op, "status": "unrelated",
                "reason": comments.get(e.id or "") or e.reason} for e in ops if e.id]
    return {"operations": out_ops, "findings": [found.to_json()], "consistent": False,
            "new_findings": [found.to_json()], "exact": False, "related": False,
            "counts": {"accepted": 0, "rejected": 0, "pending": 0, "unrelated": len(out_ops)}}


def review_files(reviewed: bytes, edited: bytes) -> dict[str, Any]:
    """``ledger review REVIEWED --against EDITED``: the operations of EDITED's record, planned on
    EDITED with every change rejected (the original text), their texts read back from EDITED's
    tracked changes (:func:`addin_backend.verify.record.record_edits`: the record holds none).

    :raise InvalidRequestError: EDITED carries no record (not written by ``ledger edit``), or a
        record whose operations cannot be read back from it.
    """
    from adapters import read, reject_all

    from ..errors import InvalidRequestError
    from ..findings import Finding
    from ..verify.record import read_record, record_edits
    from ..verify.review import review

    ignored = record_findings(edited, None, name=RECORD)  # copies outside office:meta
    rec = read_record(edited)
    if rec is None:
        raise InvalidRequestError("the --against file carries no LEDGER operations record "
                                  "(give the file `ledger edit` wrote)"
                                  + (f"; {ignored[0].message}" if ignored else ""))
    edited_doc = read(edited)
    original = read(reject_all(edited))
    got = record_edits(rec, original, edited_doc)
    ops, comments = got.edits, got.comments
    from .costs import refuse_review

    refuse_review(len(ops), len(edited_doc.units))  # ledger review: before any alignment
    authors = {e.author for e in ops if e.author} or ({rec["author"]} if isinstance(rec.get("author"), str) else set())
    if authors and not authors & {r.author for r in edited_doc.revisions}:
        raise InvalidRequestError("the --against file's LEDGER record does not belong to it: none of its tracked "
                                  f"changes is by the record's author ({', '.join(sorted(authors))}); the record was "
                                  "ignored")
    if not ops and got.lost:
        raise InvalidRequestError(f"none of the {len(got.lost)} operation(s) of the --against file's LEDGER record "
                                  "can be read back from its tracked changes: give the file `ledger edit` wrote, "
                                  "unchanged")
    if got.lost:
        ignored.append(Finding("review_record_ignored", "warning", None,
                               f"{len(got.lost)} of {len(got.lost) + len(ops)} operation(s) of the record were ignored: they could not be "
                               "read back from the --against file's tracked changes (it was changed after LEDGER "
                               f"wrote it?); they are not classified: {', '.join(got.lost[:8])}"
                               + (" …" if len(got.lost) > 8 else "")))
    if unrelated(original, read(reviewed), ops):
        report = _unrelated_report(ops, comments)
    else:
        report = review(original, ops, reviewed, comments=comments)
        report["findings"] = [f.to_json() for f in ignored] + report["findings"]
    report["instruction"] = got.instruction
    return report
