"""JSON errors everywhere: handlers registered from ``ERROR_TABLE``, HTTP errors, the unexpected.

Every error body is ``{"error": {"code": ..., "message": ...}}``. Views never catch errors to
format them: they raise, and these handlers answer.
"""
from __future__ import annotations

import logging
import traceback

from flask import Flask, Response, current_app, g, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from ..errors import ERROR_TABLE, describe

__all__ = ["register_error_handlers", "error_response", "HTTP_CODES"]

log = logging.getLogger("ledger.http")

#: Codes for the HTTP errors Flask and Werkzeug raise themselves.
HTTP_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
}


def error_response(status: int, error: dict, headers: dict | None = None) -> Response:
    response = jsonify(error=error)
    response.status_code = status
    response.headers.update(headers or {})
    g.error_code = error["code"]
    return response


def _known(exc: Exception) -> Response:
    known = describe(exc)
    if known is None:  # (registered for the table's classes only)
        return _unexpected(exc)
    error, status, _exit = known
    details = error.get("details") or {}
    if isinstance(details.get("job"), str):  # graph_not_ready: the job to follow
        details["links"] = {"job": url_for("jobs.job", job_id=details["job"]),
                            "events": url_for("jobs.events", job_id=details["job"])}
    headers = {}
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="ledger"'
    retry = (error.get("details") or {}).get("retry_after")
    if retry is not None:
        headers["Retry-After"] = str(retry)
    return error_response(status, error, headers)


def _drain_refused_body() -> None:
    """Read and drop the rest of a refused upload (up to four times the limit, 16 MiB at least).

    A server that answers 413 and closes while the client is still sending makes the client
    see a broken connection instead of the answer; past the cap, closing is the lesser evil.
    """
    stream = request.environ.get("wsgi.input")
    todo = max(4 * (current_app.config.get("MAX_CONTENT_LENGTH") or 0), 16 << 20)
    if request.content_length is not None:
        todo = min(todo, request.content_length)
    while stream is not None and todo > 0:
        chunk = stream.read(min(1 << 16, todo))
        if not chunk:
            break
        todo -= len(chunk)


def _http(exc: HTTPException) -> Response:
    status = exc.code or 500
    if status == 413:
        _drain_refused_body()
    code = HTTP_CODES.get(status) or (exc.name or "error").lower().replace(" ", "_")
    headers = {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}
    return error_response(status, {"code": code, "message": exc.description or exc.name}, headers)


def _unexpected(exc: Exception) -> Response:
    # The type and the stack, never the message: it may quote the document.
    log.error("unexpected %s on request %s\n%s", type(exc).__name__, g.get("request_id"),
              "".join(traceback.format_tb(exc.__traceback__)))
    return error_response(500, {
        "code": "internal_error",
        "message": f"an unexpected error occurred (request {g.get('request_id')}); it was logged",
    })


def register_error_handlers(app: Flask) -> None:
    for klass, _status, _exit in ERROR_TABLE:
        app.register_error_handler(klass, _known)
    app.register_error_handler(HTTPException, _http)
    app.register_error_handler(Exception, _unexpected)
