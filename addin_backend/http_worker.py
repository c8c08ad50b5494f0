"""The gunicorn worker of ``ledger serve``: gthread, with whole requests read before a thread runs.

gunicorn's gthread worker hands a connection to a thread once its headers arrive; the thread
then reads the body from the socket. A client that sends ``Content-Length: 1000000`` and then
2 bytes at a time held a thread for as long as it liked, and a handful of such clients froze the
server (issue 16). Here the thread that picks a connection up reads only what is already there,
without blocking, and gives the connection back to the worker's poller (no thread held) until the
whole request (headers, and a body up to :data:`BUFFER_LIMIT` bytes) is in memory; only then does
a thread parse and answer it. A request not complete within :data:`REQUEST_DEADLINE` seconds, or
silent for gunicorn's ``keepalive`` seconds, is answered 408 and closed. Bodies over the buffer
limit (large uploads) are read by the thread as before.

Errors gunicorn answers itself (a request line over the limit, bad headers, the 408) are JSON
bodies like the application's, ``{"error": {"code", "message"}}``, and never echo the request.
"""
from __future__ import annotations

import json
import re
import ssl
import time
from typing import Any

from gunicorn import util
from gunicorn.workers import gthread

__all__ = ["BufferingThreadWorker", "complete_length", "BUFFER_LIMIT", "REQUEST_DEADLINE", "HEADER_LIMIT"]

#: Request bodies up to this size are read whole by the poller before a thread takes them.
BUFFER_LIMIT = 4 * 1024 * 1024
#: Seconds a connection may take to send one whole (buffered) request.
REQUEST_DEADLINE = 30.0
#: Headers beyond this size stop the buffering; gunicorn's own limits then refuse them.
HEADER_LIMIT = 64 * 1024
#: ``complete_length`` for a request the poller does not buffer whole (big or streaming body).
UNBUFFERED = -1

_CONTENT_LENGTH = re.compile(rb"(?im)^content-length[ \t]*:[ \t]*(\d{1,20})[ \t]*\r?$")
_CHUNKED = re.compile(rb"(?im)^transfer-encoding[ \t]*:.*chunked")
_EXPECT = re.compile(rb"(?im)^expect[ \t]*:[ \t]*100-continue")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,16})[^\r\n]*\r\n")

_CODES = {400: "invalid_request", 403: "forbidden", 408: "request_timeout", 413: "too_large",
          414: "uri_too_long", 417: "expectation_failed", 431: "headers_too_large", 500: "internal_error",
          501: "not_implemented"}


def complete_length(data: bytes) -> int | None:
    """How many bytes make the first request in ``data``, once its headers are there (the caller
    waits until it holds that many); ``None`` while the headers, or a chunked body, are still
    incomplete; :data:`UNBUFFERED` when the poller should not wait for the whole of it.

    >>> complete_length(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET")
    27
    >>> complete_length(b"POST / HTTP/1.1\\r\\nContent-Length: 5\\r\\n\\r\\nab"), complete_length(b"GET / HTTP/1.1\\r\\n")
    (43, None)
    >>> complete_length(b"POST / HTTP/1.1\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n2\\r\\nab\\r\\n0\\r\\n\\r\\n")
    59
    """
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return UNBUFFERED if len(data) > HEADER_LIMIT else None
    head, body = data[:end + 2], end + 4
    if _EXPECT.search(head):
        return UNBUFFERED  # the client waits for "100 Continue" before it sends the body
    if _CHUNKED.search(head):
        pos = body
        while True:
            m = _CHUNK_SIZE.match(data, pos)
            if m is None:
                return None if len(data) - pos < 64 else UNBUFFERED  # let the parser refuse it
            size = int(m.group(1), 16)
            if m.end() + size - body > BUFFER_LIMIT:
                return UNBUFFERED
            if size == 0:
                trailer = data.find(b"\r\n\r\n", m.end() - 2)
                return None if trailer < 0 else trailer + 4
            pos = m.end() + size + 2
            if pos > len(data):
                return None
    m = _CONTENT_LENGTH.search(head)
    if m is None:
        return body
    size = int(m.group(1))
    return UNBUFFERED if size > BUFFER_LIMIT else body + size


def _json_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own error answers as JSON (the message is the reason only: no request text)."""
    body = json.dumps({"error": {"code": _CODES.get(status_int, "error"), "message": reason}}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    util.write_nonblock(sock, head + body)


class BufferingThreadWorker(gthread.ThreadWorker):
    """gthread with request buffering in the poller (see the module docstring)."""

    def init_process(self) -> None:
        util.write_error = _json_error  # this process only: gunicorn's error pages become JSON
        super().init_process()

    def handle(self, conn: Any) -> Any:
        if conn.is_http2:
            return super().handle(conn)
        try:
            if not conn.initialized:
                conn.init()  # the parser (and the TLS handshake)
            if conn.is_http2:
                return super().handle(conn)
            state = conn.__dict__.setdefault("ledger_buffer", {"raw": bytearray(), "started": time.monotonic()})
            whole = self._fill(conn, state["raw"])
        except (OSError, ssl.SSLError):
            return False
        if not whole:
            if time.monotonic() - state["started"] > REQUEST_DEADLINE:
                _json_error(conn.sock, 408, "Request Timeout", "")
                return False
            conn.sock.setblocking(False)
            return gthread._DEFER  # back to the poller: no thread waits for the rest
        conn.parser.unreader.unread(bytes(state["raw"]))
        del conn.ledger_buffer
        return super().handle(conn)

    @staticmethod
    def _fill(conn: Any, raw: bytearray) -> bool:
        """Read what the socket holds, without waiting; whether the first request is all in."""
        sock = conn.sock
        sock.setblocking(False)
        held = conn.parser.unreader.buf.getvalue()
        while True:
            need = complete_length(held + bytes(raw))
            if need is not None and (need == UNBUFFERED or len(held) + len(raw) >= need):
                return True
            try:
                chunk = sock.recv(65536)
            except (BlockingIOError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
                if isinstance(sock, ssl.SSLSocket) and sock.pending():
                    continue
                return False
            if not chunk:
                return True  # the client closed: the parser sees what there is
            raw.extend(chunk)
