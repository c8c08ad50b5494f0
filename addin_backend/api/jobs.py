"""Blueprint ``jobs``: poll a job, or follow it as server-sent events until it ends.

An event stream is a :class:`JobEvents`, advanced one step at a time by whoever drives it. Under
``ledger serve`` the route answers the first event and hands the connection to the worker's
event hub (:mod:`addin_backend.serving.http_events`), which follows every open stream of the process
from one thread: an open stream of a running job holds no request thread. Elsewhere (the
development server, the test client) the request's own thread drives it. A client (an API
key, or an address when there are no keys) may hold :data:`DEFAULT_STREAMS_PER_CLIENT` open
streams in one worker process (``LEDGER_SSE_PER_CLIENT``); one more is ``429 rate_limited``.
"""
from __future__ import annotations

import json
import threading
import time
from collections import Counter
from typing import Any, Callable, Iterator

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from ..errors import LedgerError, RateLimitedError
from ..jobs.runner import JobRunner
from .context import client_id, runner

__all__ = ["bp", "job_view", "JobEvents", "KEEPALIVE_SECONDS", "DETACH", "open_streams", "hold_stream"]

bp = Blueprint("jobs", __name__, url_prefix="/api/v1/jobs")

#: A comment line keeps proxies from closing a quiet stream.
KEEPALIVE_SECONDS = 15.0
#: The WSGI environ key of the serving worker's hand-over: ``environ[DETACH](stream) -> bool``
#: (whether the worker took the stream; it then sends what follows the response's body).
DETACH = "ledger.detach"

_held: Counter[str] = Counter()  # open streams per client, in this process
_held_lock = threading.Lock()


def open_streams(client: str | None = None) -> int:
    """Event streams open in this process (of ``client``, or of everyone)."""
    with _held_lock:
        return _held[client] if client is not None else sum(_held.values())


def hold_stream(client: str, cap: int) -> Callable[[], None]:
    """Count one more open stream of ``client`` (a job's events, or an MCP answer still coming)
    in this process; the function returned gives it back (once).

    :raise RateLimitedError: the client holds ``cap`` already (``LEDGER_SSE_PER_CLIENT``).
    """
    with _held_lock:
        if _held[client] >= cap:
            raise RateLimitedError(f"at most {cap} open event streams per client (LEDGER_SSE_PER_CLIENT); "
                                   "close one, or poll the job", retry_after=5, limit="event_streams")
        _held[client] += 1
    held = [True]

    def release() -> None:
        with _held_lock:
            if held and held.pop():
                _held[client] -= 1
                if _held[client] <= 0:
                    del _held[client]

    return release


def job_view(job: dict[str, Any]) -> dict[str, Any]:
    """A job record with the links a client follows."""
    return {**job, "links": {"self": url_for("jobs.job", job_id=job["id"]),
                             "events": url_for("jobs.events", job_id=job["id"])}}


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


class JobEvents:
    """One client's event stream of one job: ``progress`` (on every change), then one of
    ``done``, ``failed``, ``error`` (the job is gone) or ``timeout`` (after ``limit`` seconds, or
    when the server stops).

    :meth:`step` reads the job's record (or takes one read for every stream of the job) and
    returns the text to send now; :attr:`done` says whether the stream has ended. The driver
    calls it every :attr:`poll` seconds and :meth:`close` once at the end.
    """

    def __init__(self, jobs: JobRunner, first: dict[str, Any], links: dict[str, str], *,
                 poll: float, limit: float) -> None:
        self.jobs, self.links, self.poll, self.limit = jobs, links, poll, limit
        self.job_id: str = first["id"]
        self.done = False
        self._rec: dict[str, Any] | None = first
        self._last: dict[str, Any] | None = None
        self._sent = time.monotonic()
        self._deadline = self._sent + limit
        self._release: Callable[[], None] | None = None

    def read(self) -> dict[str, Any] | LedgerError:
        """The job's record now, or the error that says it is gone."""
        try:
            return self.jobs.get(self.job_id)
        except LedgerError as exc:
            return exc

    def step(self, record: dict[str, Any] | LedgerError | None = None) -> str:
        """The text to send now ('' when there is nothing); ``record`` is :meth:`read`'s answer
        when the caller read it already (the first step sends the record the stream began with)."""
        if self.done:
            return ""
        rec = self._rec if self._rec is not None else (record if record is not None else self.read())
        self._rec = None
        if isinstance(rec, LedgerError):
            return self._end(_sse("error", {"error": rec.to_dict()}))
        now, out = time.monotonic(), ""
        if rec != self._last:
            final = rec["status"] in ("done", "failed")
            out = _sse(rec["status"] if final else "progress", {**rec, "links": self.links})
            if final:
                return self._end(out)
            self._last, self._sent = rec, now
        elif now - self._sent > KEEPALIVE_SECONDS:
            out, self._sent = ": keepalive\n\n", now
        if now > self._deadline:
            return self._end(out + self._timeout(f"the stream ends after {int(self.limit)} s; poll the job"))
        return out

    def stop(self, message: str) -> str:
        """End the stream now (the server is stopping): the final ``timeout`` event."""
        return "" if self.done else self._end(self._timeout(message))

    def _timeout(self, message: str) -> str:
        return _sse("timeout", {"id": self.job_id, "message": message})

    def _end(self, text: str) -> str:
        self.done = True
        return text

    def hold(self, client: str, cap: int) -> None:
        """Count this stream as one of ``client``'s open streams until :meth:`close`.

        :raise RateLimitedError: the client holds ``cap`` already.
        """
        self._release = hold_stream(client, cap)

    def close(self) -> None:
        """The stream is over (ended, or the client went away): it no longer counts."""
        self.done = True
        release, self._release = self._release, None
        if release is not None:
            release()


class _Driven:
    """The stream driven by the request's own thread (no serving worker took it): an iterable
    whose ``close`` (which WSGI servers call, also when the client went away) releases it."""

    def __init__(self, head: str, stream: JobEvents) -> None:
        self._head: str | None = head
        self._stream = stream

    def __iter__(self) -> "_Driven":
        return self

    def __next__(self) -> str:
        if self._head is not None:
            head, self._head = self._head, None
            return head
        while not self._stream.done:
            time.sleep(self._stream.poll)
            text = self._stream.step()
            if text:
                return text
        self.close()
        raise StopIteration

    def close(self) -> None:
        self._stream.close()


@bp.get("/<job_id>")
def job(job_id: str) -> Response:
    return jsonify(job_view(runner().get(job_id)))


@bp.get("/<job_id>/events")
def events(job_id: str) -> Response:
    first = job_view(runner().get(job_id))  # an unknown job is a 404 before the stream starts
    cfg = current_app.config
    links = first.pop("links")
    stream = JobEvents(runner(), first, links, poll=float(cfg["SSE_POLL_SECONDS"]), limit=float(cfg["SSE_MAX_SECONDS"]))
    head = stream.step()
    headers = {"X-Accel-Buffering": "no"}
    if stream.done:  # a finished job: one event, and the stream ends
        return Response(head, mimetype="text/event-stream", headers=headers)
    stream.hold(client_id(), int(cfg["SSE_PER_CLIENT"]))
    detach: Callable[[JobEvents], bool] | None = request.environ.get(DETACH)
    if detach is None:
        body: Iterator[str] = _Driven(head, stream)
    elif detach(stream):
        body = iter([head])  # the worker's event hub sends the rest; no thread waits for the job
    else:
        stream.close()
        raise RateLimitedError("this server process holds as many event streams as it can; poll the job",
                               retry_after=5, limit="event_streams")
    return Response(body, mimetype="text/event-stream", headers=headers)
