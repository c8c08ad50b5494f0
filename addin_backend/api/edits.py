"""Blueprint ``edits``: proposals, applying operations as tracked changes, the revisions' files."""
from __future__ import annotations

import io

from flask import Blueprint, Response, current_app, g, jsonify, send_file, url_for

from ..store import documents
from ..service import edits as service_edits
from ..service import review as service_review
from ..service import revisions
from .context import account, ensure_room, json_body, runner, store
from .jobs import job_view

__all__ = ["bp"]

bp = Blueprint("edits", __name__, url_prefix="/api/v1/documents")


@bp.post("/<document_id>/proposals")
def propose(document_id: str) -> tuple[Response, int, dict[str, str]]:
    body = json_body("ProposalRequest")
    params = {"engine": "rules", **body, "semantic": current_app.config["GRAPH_SEMANTIC"]}
    proposal, job = service_edits.request_proposal(store(), runner(), document_id, params, account=account())
    if job is not None:
        return jsonify(job=job_view(job)), 202, {"Location": url_for("jobs.job", job_id=job["id"])}
    assert proposal is not None  # (proposal, None) or (None, job)
    where = url_for("edits.proposal", document_id=document_id, proposal_id=proposal["id"])
    return jsonify(proposal), 201, {"Location": where}


@bp.get("/<document_id>/proposals/<proposal_id>")
def proposal(document_id: str, proposal_id: str) -> Response:
    return jsonify(service_edits.get_proposal(store(), document_id, proposal_id))


@bp.post("/<document_id>/apply")
def apply(document_id: str) -> tuple[Response, int, dict[str, str]]:
    body = json_body("ApplyRequest")
    pid = body.get("proposal_id")
    ensure_room(documents.get_meta(store(), document_id)["size"])  # a revision: at least about the upload
    # the revision itself is counted in the quota as it is kept (service.revisions.keep_revision)
    out = service_edits.apply(
        store(), document_id, author=body["author"].strip(), who=g.get("client", "-"),
        audit_log=current_app.config["AUDIT_LOG"], proposal_id=pid, keep=body.get("operations") if pid else None,
        operations=None if pid else body["operations"], instruction=body.get("instruction"),
        semantic=current_app.config["GRAPH_SEMANTIC"], comments=body.get("comments", True),
        threads=body.get("comment_threads", False),
        memory_mb=float(current_app.config["WORK_MEMORY_MB"]), account=account())
    download = url_for("edits.revision_file", document_id=document_id, rev=out["revision"])
    return jsonify(**out, download=download), 201, {"Location": download}


@bp.get("/<document_id>/revisions/<int:rev>/file")
def revision_file(document_id: str, rev: int) -> Response:
    data, media, name = revisions.revision_file(store(), document_id, rev)
    return send_file(io.BytesIO(data), mimetype=media, as_attachment=True, download_name=name)


@bp.post("/<document_id>/revisions/<int:rev>/review")
def review(document_id: str, rev: int) -> Response | tuple[Response, int, dict[str, str]]:
    """The reviewed file (raw body, or a multipart ``file`` part) judged against the revision: the
    same media types, and the same rule for another site's pages, as an upload. A large review
    (``LEDGER_SYNC_REVIEW_COST``) is answered 202 with a job whose result is the report."""
    from ..errors import InvalidRequestError
    from .documents import document_body

    data, _name = document_body()
    if not data:
        raise InvalidRequestError("send the reviewed document as the request body")
    report, job = service_review.request_review(store(), runner(), document_id, rev, data, account=account())
    if job is not None:
        return jsonify(job=job_view(job)), 202, {"Location": url_for("jobs.job", job_id=job["id"])}
    return jsonify(report)
