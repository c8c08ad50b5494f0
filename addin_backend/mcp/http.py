"""``/mcp`` on ``ledger serve``: the same MCP server over streamable HTTP, inside the Flask app.

The route is an ordinary Flask view, so the API's keys, rate limits, CORS, size limit and
access log apply to it as to ``/api/`` (``api/security.py``). The view hands each request to
the SDK's streamable-HTTP session manager, which runs on an event loop of its own in a daemon
thread of the worker (one per worker, started on the first request), and streams its answer
back (JSON, or server-sent events carrying progress notifications).

Stateless mode: any gunicorn worker can answer any request (documents, graphs and proposals
live in the shared store), so there are no MCP sessions to pin to a worker. Over HTTP the
server reads and writes no files: documents come by upload (``open_document`` with
``content_base64``) or by id (a REST upload is the same document), and applying a proposal
makes a revision to download from the REST API.
"""
from __future__ import annotations

import queue
import threading
from dataclasses import replace
from typing import Any, Iterator, MutableMapping

from flask import Blueprint, Flask, Response, current_app, g, request

from ..errors import ForbiddenOriginError
from .workspace import CLIENT_HEADER, QUOTA_HEADER

__all__ = ["bp", "MCP_PATH", "bridge"]

MCP_PATH = "/mcp"
#: Seconds to wait for the start of an answer (tools that build a graph answer within its timeout).
START_TIMEOUT = 900.0

bp = Blueprint("mcp", __name__)


class _Bridge:
    """The SDK's session manager on its own event loop, answering WSGI requests."""

    def __init__(self, app: Flask) -> None:
        from adapters.package import DEFAULT_LIMITS
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
        from mcp.server.transport_security import TransportSecuritySettings

        from .server import build_server
        from .workspace import Workspace

        cfg = app.config
        ws = Workspace(store=app.extensions["ledger.store"], runner=app.extensions["ledger.jobs"],
                       semantic=cfg["GRAPH_SEMANTIC"], audit_log=cfg["AUDIT_LOG"],
                       limits=replace(DEFAULT_LIMITS, max_input_bytes=cfg["MAX_CONTENT_LENGTH"]),
                       roots=None, who="anonymous", quota_bytes=int(float(cfg["QUOTA_MB"]) * 1024 * 1024))
        server = build_server(ws)
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

    def request(self, scope: dict[str, Any], body: bytes) -> tuple[int, list[tuple[str, str]], Iterator[bytes]]:
        """Run one HTTP request through the session manager: status, headers and the body's
        chunks as they come (an SSE answer streams)."""
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

        def chunks() -> Iterator[bytes]:
            try:
                while True:
                    message = out.get()
                    if message is None:
                        return
                    if message.get("type") == "http.response.body":
                        if message.get("body"):
                            yield message["body"]
                        if not message.get("more_body"):
                            return
            finally:
                hang_up()

        return int(start["status"]), headers, chunks()


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


@bp.route(MCP_PATH, methods=["GET", "POST", "DELETE"])
def mcp_endpoint() -> Response:
    """Hand the request to the MCP server (after the API's key and rate checks ran)."""
    if not _origin_allowed(request.headers.get("Origin")):
        raise ForbiddenOriginError("this origin may not call the MCP server (LEDGER_CORS_ORIGINS)")
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in request.headers.items()
               if k.lower() not in (CLIENT_HEADER, QUOTA_HEADER)]
    headers.append((CLIENT_HEADER.encode("latin-1"), str(g.get("client", "anonymous")).encode("latin-1")))
    from ..api.context import client_id

    headers.append((QUOTA_HEADER.encode("latin-1"), client_id().encode("latin-1")))
    server_name, _, server_port = request.host.partition(":")
    scope = {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
        "method": request.method, "scheme": request.scheme, "path": MCP_PATH, "raw_path": MCP_PATH.encode(),
        "query_string": request.query_string, "root_path": "", "headers": headers,
        "client": (request.remote_addr or "", 0),
        "server": (server_name, int(server_port) if server_port.isdigit() else 80),
    }
    body = request.get_data(cache=False)
    status, out_headers, chunks = bridge(current_app._get_current_object()).request(scope, body)  # type: ignore[attr-defined]  # the proxy's own method: the app itself
    response = Response(chunks, status=status, direct_passthrough=True)
    for key, value in out_headers:
        if key.lower() == "content-type":
            response.headers["Content-Type"] = value
        elif key.lower() not in ("content-length", "transfer-encoding", "connection"):
            response.headers.add(key, value)
    return response
