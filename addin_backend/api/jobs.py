"""Blueprint ``jobs``: poll a job, or follow it as server-sent events until it ends."""
from __future__ import annotations

import json
import time
from typing import Any, Iterator

from flask import Blueprint, Response, current_app, jsonify, url_for

from ..errors import LedgerError
from ..jobs import JobRunner
from .context import runner

__all__ = ["bp", "job_view", "KEEPALIVE_SECONDS"]

bp = Blueprint("jobs", __name__, url_prefix="/api/v1/jobs")

#: A comment line keeps proxies from closing a quiet stream.
KEEPALIVE_SECONDS = 15.0


def job_view(job: dict[str, Any]) -> dict[str, Any]:
    """A job record with the links a client follows."""
    return {**job, "links": {"self": url_for("jobs.job", job_id=job["id"]),
                             "events": url_for("jobs.events", job_id=job["id"])}}


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def _stream(jobs: JobRunner, first: dict[str, Any], links: dict[str, str],
            poll: float, limit: float) -> Iterator[str]:
    """Events ``progress`` (on every change), then one of ``done``, ``failed``, ``error``, ``timeout``."""
    rec, last = first, None
    sent = time.monotonic()
    deadline = sent + limit
    while True:
        if rec != last:
            final = rec["status"] in ("done", "failed")
            yield _sse(rec["status"] if final else "progress", {**rec, "links": links})
            if final:
                return
            last, sent = rec, time.monotonic()
        elif time.monotonic() - sent > KEEPALIVE_SECONDS:
            yield ": keepalive\n\n"
            sent = time.monotonic()
        if time.monotonic() > deadline:
            yield _sse("timeout", {"id": rec["id"], "message": f"the stream ends after {int(limit)} s; poll the job"})
            return
        time.sleep(poll)
        try:
            rec = jobs.get(rec["id"])
        except LedgerError as exc:
            yield _sse("error", {"error": exc.to_dict()})
            return


@bp.get("/<job_id>")
def job(job_id: str) -> Response:
    return jsonify(job_view(runner().get(job_id)))


@bp.get("/<job_id>/events")
def events(job_id: str) -> Response:
    first = job_view(runner().get(job_id))  # an unknown job is a 404 before the stream starts
    cfg = current_app.config
    stream = _stream(runner(), first, first.pop("links"), cfg["SSE_POLL_SECONDS"], cfg["SSE_MAX_SECONDS"])
    return Response(stream, mimetype="text/event-stream", headers={"X-Accel-Buffering": "no"})
