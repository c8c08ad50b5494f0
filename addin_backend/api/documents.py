"""Blueprint ``documents``: upload, status, delete, and the read-only views of a document."""
from __future__ import annotations

import io
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, send_file, url_for
from werkzeug.exceptions import UnsupportedMediaType

from adapters.model import UNIT_KINDS, VIEWS

from ..store import documents
from ..service import graph_job, uploads
from ..errors import ForbiddenOriginError, InvalidRequestError
from .context import account, choice_arg, int_arg, limits, owner, reserve, runner, store
from .jobs import job_view

__all__ = ["bp", "document_body", "spooled_body"]

bp = Blueprint("documents", __name__, url_prefix="/api/v1/documents")


#: Media types a raw upload may carry. None of them is one a cross-origin page may send without
#: a CORS preflight, so a server without keys takes no upload from another site's page.
UPLOAD_TYPES = (*documents.MEDIA_TYPES.values(), "application/octet-stream")


def document_body() -> tuple[bytes, str | None]:
    """The bytes and file name of a document sent to the server (an upload, a reviewed file): a
    multipart ``file`` part, or the raw body.

    A raw body needs one of :data:`UPLOAD_TYPES`; a multipart form, which any page may post,
    is taken only without an ``Origin`` or from this server's own or an allowed origin.

    :raise UnsupportedMediaType: no document media type (415 ``unsupported_media_type``).
    :raise ForbiddenOriginError: a multipart form posted by another site's page.
    :raise InvalidRequestError: a multipart request without a ``file`` part.
    """
    if request.mimetype == "multipart/form-data":
        origin = request.headers.get("Origin")
        allowed = current_app.config["CORS_ORIGINS"]
        if origin is not None and origin != request.host_url.rstrip("/") and "*" not in allowed and origin not in allowed:
            raise ForbiddenOriginError("a multipart upload from another site's page (LEDGER_CORS_ORIGINS)")
        part = request.files.get("file")
        if part is None:
            raise InvalidRequestError("a multipart upload needs a part named 'file'")
        return part.read(), part.filename
    if request.mimetype not in UPLOAD_TYPES:
        raise UnsupportedMediaType(f"send the document as {', '.join(UPLOAD_TYPES)} "
                                   f"(Content-Type), or as a multipart form with a 'file' part")
    return spooled_body(int(current_app.config["MAX_CONTENT_LENGTH"])), request.args.get("filename")


#: A raw body is read this much at a time; past :data:`SPOOL_IN_MEMORY` it waits on disk.
BODY_CHUNK = 64 * 1024
SPOOL_IN_MEMORY = 1024 * 1024


def spooled_body(limit: int) -> bytes:
    """The raw request body, read :data:`BODY_CHUNK` bytes at a time into a temporary file that
    spills to disk and counted as it arrives: refused (413 ``too_large``) as soon as it passes
    ``limit`` (``LEDGER_MAX_UPLOAD_MB``), whatever its ``Content-Length`` said or when it had
    none; then its bytes, read once. Reading it whole at once (``request.get_data``) held it two
    or three times over in the server's buffers (a 40 MB upload: +136 MB peak).

    :raise RequestEntityTooLarge: more than ``limit`` bytes came.
    """
    import tempfile

    from werkzeug.exceptions import RequestEntityTooLarge

    refused = RequestEntityTooLarge(f"the request body passed {limit:,} bytes, the limit (LEDGER_MAX_UPLOAD_MB); "
                                    "it was refused as it arrived")
    stream = request.stream
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY, prefix="ledger-upload-") as spool:
        size = 0
        while True:
            try:
                chunk = stream.read(BODY_CHUNK)
            except RequestEntityTooLarge:  # the WSGI layer counted it first (a body without a length)
                raise refused from None
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise refused
            spool.write(chunk)
        spool.seek(0)
        return spool.read()


def _document_view(meta: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    expires = store().expires_in(meta["id"])
    shown = {k: v for k, v in meta.items() if k != "owner"}
    return {**shown, "expires_in": None if expires is None else int(expires), "job": job_view(job),
            "links": {"self": url_for("documents.status", document_id=meta["id"]),
                      "units": url_for("documents.units", document_id=meta["id"]),
                      "outline": url_for("documents.outline", document_id=meta["id"])}}


@bp.post("")
def upload() -> tuple[Response, int, dict[str, str]]:
    data, filename = document_body()
    with reserve(len(data)) as charge:  # the upload's bytes; its model is reserved once read (take_in)
        meta, _doc, job = uploads.take_in_upload(store(), runner(), data, filename=filename, limits=limits(),
                                           semantic=current_app.config["GRAPH_SEMANTIC"], owner=owner(),
                                           account=account())
        charge(meta["id"])
    body = _document_view(meta, job)
    return jsonify(body), 201, {"Location": body["links"]["self"]}


@bp.get("/<document_id>")
def status(document_id: str) -> Response:
    meta = documents.get_meta(store(), document_id)
    return jsonify(_document_view(meta, runner().get(graph_job.graph_job_id(document_id))))


@bp.delete("/<document_id>")
def delete(document_id: str) -> tuple[str, int]:
    documents.delete(store(), document_id)
    runner().cancel(document_id)  # its queued jobs never start
    return "", 204


@bp.get("/<document_id>/units")
def units(document_id: str) -> Response:
    kind = choice_arg("kind", UNIT_KINDS, None)
    offset, limit = int_arg("offset", 0), int_arg("limit", None, minimum=1)
    doc = documents.load(store(), document_id)
    return jsonify(document=document_id, **documents.list_units(doc, kind=kind, offset=offset, limit=limit))


@bp.get("/<document_id>/units/<unit_id>")
def unit(document_id: str, unit_id: str) -> Response:
    return jsonify(documents.get_unit(documents.load(store(), document_id), unit_id))


@bp.get("/<document_id>/outline")
def outline(document_id: str) -> Response:
    doc = documents.load(store(), document_id)
    return jsonify(document=document_id, outline=documents.outline(doc))


@bp.get("/<document_id>/text")
def text(document_id: str) -> Response:
    view = choice_arg("view", VIEWS, "accepted")
    doc = documents.load(store(), document_id)
    return jsonify(document=document_id, view=view, lines=doc.lines(view))


@bp.get("/<document_id>/file")
def file(document_id: str) -> Response:
    data, meta = documents.original(store(), document_id)
    name = meta["filename"] or f"{document_id}.{meta['format']}"
    return send_file(io.BytesIO(data), mimetype=documents.MEDIA_TYPES[meta["format"]],
                     as_attachment=True, download_name=name)
