"""``/mcp`` on ``ledger serve``: the same MCP server over streamable HTTP, inside the Flask app.

The route is an ordinary Flask view, so the API's keys, rate limits, CORS, size limit and
access log apply to it as to ``/api/`` (``api/security.py``). The view hands each request to
the SDK's streamable-HTTP session manager, which runs on an event loop of its own in a daemon
thread of the worker (one per worker, started on the first request), and streams its answer
back (JSON, or server-sent events carrying progress notifications).

No web thread waits for a tool: the view takes what the answer holds within
:data:`QUICK_SECONDS` and, when the answer is still coming (a tool waiting for a graph, with its
progress notifications), hands the connection to the worker's event hub with an
:class:`McpStream` (the same hand-over as ``/api/v1/jobs/{id}/events``), counted among the
client's open streams (``LEDGER_SSE_PER_CLIENT``). A tool call's work has the request budget
(``LEDGER_REQUEST_SECONDS``): past it the tool answers ``deadline_exceeded``.

Stateless mode: any gunicorn worker can answer any request (documents, graphs and proposals
live in the shared store), so there are no MCP sessions to pin to a worker. Over HTTP the
server reads and writes no files: documents come by upload (``open_document`` with
``content_base64``) or by id (a REST upload is the same document), and applying a proposal
makes a revision to download from the REST API.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import replace
from typing import Any, Callable, Iterator, MutableMapping

from flask import Blueprint, Flask, Response, current_app, g, request

from ..errors import ForbiddenOriginError
from .workspace import CLIENT_HEADER, DOOR_HEADERS, OWNER_HEADER, QUOTA_HEADER, Workspace

__all__ = ["bp", "MCP_PATH", "bridge", "workspace"]

MCP_PATH = "/mcp"
#: Seconds to wait for the start of an answer: the SDK starts an event-stream answer at once and
#: sends the tool's result on it later, so this is short (it used to cover a whole graph build).
START_TIMEOUT = 30.0
#: Seconds the request thread waits for a whole answer before the event hub takes the rest.
QUICK_SECONDS = 0.25

bp = Blueprint("mcp", __name__)


def workspace(app: Flask) -> Workspace:
    """The MCP tools' workspace on the app's store, job runner and limits: no roots (the server
    reads no files), uploads read where the REST door reads them."""
    from adapters.package import DEFAULT_LIMITS

    cfg = app.config
    return Workspace(store=app.extensions["ledger.store"], runner=app.extensions["ledger.jobs"],
                     semantic=cfg["GRAPH_SEMANTIC"], audit_log=cfg["AUDIT_LOG"],
                     limits=replace(DEFAULT_LIMITS, max_input_bytes=cfg["MAX_CONTENT_LENGTH"]),
                     roots=None, who="anonymous", request_seconds=float(cfg["REQUEST_SECONDS"]),
                     quota_bytes=int(float(cfg["QUOTA_MB"]) * 1024 * 1024),
                     work_memory_mb=float(cfg["WORK_MEMORY_MB"]))


class _Bridge:
    """The SDK's session manager on its own event loop, answering WSGI requests."""

    def __init__(self, app: Flask) -> None:
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
        from mcp.server.transport_security import TransportSecuritySettings

        from .server import build_server

        cfg = app.config
        server = build_server(workspace(app))
        # Host and Origin are checked by the view (CORS origins), not by the SDK's loopback-only default.
        self.manager = StreamableHTTPSessionManager(
            app=server._lowlevel_server, stateless=True, json_response=False,
            security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
            # an upload arrives as base64 inside JSON: 4/3 of the document, plus the envelope
            max_request_body_size=cfg["MAX_CONTENT_LENGTH"] * 4 // 3 + 64 * 1024)
        self._portal: Any = None
        ready = threading.Event()
        failed: list[BaseException] = []

        def loop() -> None:
            import anyio
            from anyio.from_thread import BlockingPortal

            async def main() -> None:
                async with BlockingPortal() as portal, self.manager.run():
                    self._portal = portal
                    ready.set()
                    await portal.sleep_until_stopped()

            try:
                anyio.run(main)
            except BaseException as exc:  # pragma: no cover - reported to the first request
                failed.append(exc)
                ready.set()

        threading.Thread(target=loop, name="ledger-mcp", daemon=True).start()
        ready.wait(30)
        if self._portal is None:
            raise RuntimeError(f"the MCP event loop did not start: {failed[0] if failed else 'timeout'}")

    def request(self, scope: dict[str, Any], body: bytes) -> tuple[int, list[tuple[str, str]], "_Answer"]:
        """Run one HTTP request through the session manager: status, headers and the body as it
        comes (an SSE answer streams)."""
        import anyio

        out: queue.Queue = queue.Queue()
        state: dict[str, Any] = {}

        async def serve() -> None:
            gone = anyio.Event()
            state["gone"] = gone
            sent = False

            async def receive() -> dict[str, Any]:
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}
                await gone.wait()
                return {"type": "http.disconnect"}

            async def send(message: MutableMapping[str, Any]) -> None:
                out.put(message)

            try:
                await self.manager.handle_request(scope, receive, send)
            finally:
                out.put(None)

        self._portal.start_task_soon(serve)

        def hang_up() -> None:
            gone = state.get("gone")
            if gone is not None:
                try:
                    self._portal.call(gone.set)
                except RuntimeError:  # pragma: no cover - the loop is shutting down
                    pass

        start = out.get(timeout=START_TIMEOUT)
        if start is None or start.get("type") != "http.response.start":
            hang_up()
            raise RuntimeError("the MCP server ended the request without an answer")
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in start.get("headers", [])]
        return int(start["status"]), headers, _Answer(out, hang_up)


class _Answer:
    """The body of one MCP answer as the SDK sends it: read it without waiting (:meth:`take`),
    or as a blocking iterator (:meth:`chunks`, where no serving worker takes the connection)."""

    def __init__(self, out: "queue.Queue[Any]", hang_up: Callable[[], None]) -> None:
        self._out, self._hang_up = out, hang_up
        self.done = False

    def _part(self, message: Any) -> bytes:
        if message is None:
            self.done = True
            return b""
        if message.get("type") != "http.response.body":
            return b""
        if not message.get("more_body"):
            self.done = True
        return bytes(message.get("body") or b"")

    def take(self, wait: float = 0.0) -> bytes:
        """What has come so far (waiting up to ``wait`` seconds for the end)."""
        parts, until = [], time.monotonic() + wait
        while not self.done:
            left = until - time.monotonic()
            try:
                message = self._out.get(timeout=left) if left > 0 else self._out.get_nowait()
            except queue.Empty:
                break
            parts.append(self._part(message))
        return b"".join(parts)

    def chunks(self) -> Iterator[bytes]:
        try:
            while not self.done:
                part = self._part(self._out.get())
                if part:
                    yield part
        finally:
            self.close()

    def close(self) -> None:
        self.done = True
        self._hang_up()


class McpStream:
    """An MCP answer still coming, as the worker's event hub follows a stream (the protocol of
    :class:`addin_backend.api.jobs.JobEvents`: ``poll``, ``read``, ``step``, ``stop``, ``done``,
    ``close``): every :attr:`poll` seconds it sends what the SDK has written since; it ends with
    the answer, or after ``limit`` seconds."""

    poll = 0.05

    def __init__(self, answer: _Answer, limit: float, release: Callable[[], None]) -> None:
        self.job_id = f"mcp:{id(self)}"  # the hub reads one record per id: each answer is its own
        self._answer, self._release = answer, release
        self._deadline = time.monotonic() + limit

    @property
    def done(self) -> bool:
        return self._answer.done

    def read(self) -> None:
        return None

    def step(self, record: Any = None) -> bytes:
        part = self._answer.take()
        if not self.done and time.monotonic() > self._deadline:
            self._answer.close()
        return part

    def stop(self, message: str) -> bytes:
        self._answer.close()
        return b""

    def close(self) -> None:
        self._answer.close()
        self._release()


_lock = threading.Lock()


def bridge(app: Flask) -> _Bridge:
    """The app's MCP bridge, started on first use (after gunicorn's fork: one per worker)."""
    found = app.extensions.get("ledger.mcp")
    if found is None:
        with _lock:
            found = app.extensions.get("ledger.mcp")
            if found is None:
                found = app.extensions["ledger.mcp"] = _Bridge(app)
    return found


def _origin_allowed(origin: str | None) -> bool:
    allowed = current_app.config["CORS_ORIGINS"]
    return origin is None or "*" in allowed or origin in allowed


# No GET: in stateless mode the SDK's standalone SSE stream (GET /mcp) can never carry a
# message (each POST has its own transport), and each one held a web thread until the client
# closed; the MCP spec lets a server answer 405 there, and the SDK's client then does without.
@bp.route(MCP_PATH, methods=["POST", "DELETE"])
def mcp_endpoint() -> Response:
    """Hand the request to the MCP server (after the API's key and rate checks ran)."""
    if not _origin_allowed(request.headers.get("Origin")):
        raise ForbiddenOriginError("this origin may not call the MCP server (LEDGER_CORS_ORIGINS)")
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in request.headers.items()
               if k.lower() not in DOOR_HEADERS]
    headers.append((CLIENT_HEADER.encode("latin-1"), str(g.get("client", "anonymous")).encode("latin-1")))
    from ..api.context import client_id, owner

    headers.append((QUOTA_HEADER.encode("latin-1"), client_id().encode("latin-1")))
    headers.append((OWNER_HEADER.encode("latin-1"), (owner() or "").encode("latin-1")))
    server_name, _, server_port = request.host.partition(":")
    scope = {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
        "method": request.method, "scheme": request.scheme, "path": MCP_PATH, "raw_path": MCP_PATH.encode(),
        "query_string": request.query_string, "root_path": "", "headers": headers,
        "client": (request.remote_addr or "", 0),
        "server": (server_name, int(server_port) if server_port.isdigit() else 80),
    }
    body = request.get_data(cache=False)
    status, out_headers, answer = bridge(current_app._get_current_object()).request(scope, body)  # type: ignore[attr-defined]  # the proxy's own method: the app itself
    response = Response(_body(answer), status=status, direct_passthrough=True)
    for key, value in out_headers:
        if key.lower() == "content-type":
            response.headers["Content-Type"] = value
        elif key.lower() not in ("content-length", "transfer-encoding", "connection"):
            response.headers.add(key, value)
    return response


def _body(answer: _Answer) -> Iterator[bytes]:
    """The response body: all of it when it comes within :data:`QUICK_SECONDS`; else what there
    is, and the worker's event hub sends the rest (no thread waits for the tool)."""
    from ..api.jobs import DETACH, hold_stream
    from ..api.context import client_id
    from ..errors import RateLimitedError

    first = answer.take(QUICK_SECONDS)
    detach: Callable[[Any], bool] | None = request.environ.get(DETACH)
    if answer.done:
        return iter([first])
    if detach is None:  # no serving worker to take it (the test client): this thread follows it
        return _prefixed(first, answer.chunks())
    cfg = current_app.config
    try:
        release = hold_stream(client_id(), int(cfg["SSE_PER_CLIENT"]))
    except RateLimitedError:
        answer.close()
        raise
    stream = McpStream(answer, float(cfg["REQUEST_SECONDS"]) + 30 if cfg["REQUEST_SECONDS"] else
                       float(cfg["SSE_MAX_SECONDS"]), release)
    if not detach(stream):
        stream.close()
        raise RateLimitedError("this server process holds as many open answers as it can; retry later",
                               retry_after=5, limit="event_streams")
    return iter([first])


def _prefixed(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest
