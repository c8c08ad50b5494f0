"""The gunicorn worker of ``ledger serve``: gthread, where no thread ever waits for a client.

gunicorn's gthread worker hands a connection to a thread once its headers arrive; the thread
then read the body from the socket, and a TLS handshake blocked the thread that took the
connection. A client that sends ``Content-Length: 1000000`` and then 2 bytes at a time, or a
TLS record a byte a second, held a thread as long as it liked, and a handful of such clients
froze the server (issue 16). Here a thread that picks a connection up only does what the socket
already allows, without blocking, and gives the connection back to the worker's poller (no
thread held) until there is more:

- the TLS handshake runs step by step (:meth:`BufferingThreadWorker._handshake`);
- the whole request is read before a thread parses and answers it: headers and a body up to
  :data:`BUFFER_LIMIT` bytes in memory, a larger one (up to the upload limit,
  ``LEDGER_MAX_UPLOAD_MB``) into a temporary file that spills to disk; a request must be
  complete within :func:`request_deadline` seconds (and never be silent for gunicorn's
  ``keepalive`` seconds), else ``408``;
- a body announced over the upload limit is ``413 too_large`` at once, and what the client
  still sends is read and dropped by the poller (so it sees the answer), then the connection
  closes; a chunked body over :data:`BUFFER_LIMIT` is ``411 length_required``;
- an event stream (``/jobs/{id}/events``) is handed, after its first event, to the process's
  event hub (:mod:`addin_backend.serving.http_events`), which follows every open stream from one thread;
- a connection that closes after its answer lingers for the client's end in the hub, not on
  the worker's main loop;
- an answer is written without waiting: a thread sends what the client's socket takes at once
  and queues the rest (:class:`_Sender`), which the hub sends as the client reads; a client that
  takes no byte for ``LEDGER_SEND_STALL_SECONDS`` is dropped (a client that never read its
  20 MB download held a thread for good);
- request bodies held in memory by the poller are counted for the whole process: past
  ``LEDGER_BUFFER_TOTAL_MB`` a body goes to a temporary file on disk instead (64 connections
  sending 4 MiB each before their key was checked took 261 MB);
- requests that send work or read much (uploads, edits, reviews, proposals, MCP calls, a
  document's units, text or graph: all but :func:`is_light`'s) take at most all threads but one
  (:attr:`BufferingThreadWorker.heavy_slots`); the next such request waits, read whole and holding
  no thread, until one of them ends, so a light read (``/healthz``, a job's status) always finds a
  thread. Twelve attacks posted at once on 1x4 threads (uploads read by a child process, reviews,
  proposals) held all four threads while ``/healthz`` waited up to 2.3 s (issue 33).

Errors gunicorn answers itself (a request line over the limit, bad headers, the 408) are JSON
bodies like the application's, ``{"error": {"code", "message"}}``, and never echo the request.
"""
from __future__ import annotations

import json
import re
import ssl
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import IO, Any, Callable

from gunicorn import http, sock as gsock, util
from gunicorn.http.unreader import SocketUnreader
from gunicorn.workers import gthread

from .. import memory
from .http_events import EventHub, send_some

__all__ = ["BufferingThreadWorker", "is_light", "complete_length", "request_deadline", "BUFFER_LIMIT", "REQUEST_DEADLINE",
           "HEADER_LIMIT", "MIN_BODY_RATE"]

#: Request bodies up to this size are read whole into memory by the poller before a thread
#: takes them; larger ones go to a temporary file (in memory up to this size, then on disk).
BUFFER_LIMIT = 4 * 1024 * 1024
#: Seconds a connection may take to finish its TLS handshake and send one request of up to
#: :data:`BUFFER_LIMIT` bytes.
REQUEST_DEADLINE = 30.0
#: A larger body may take longer: this many bytes a second at least.
MIN_BODY_RATE = 256 * 1024
#: Headers beyond this size stop the buffering: more than gunicorn's own limits allow (100
#: fields of 8,190 bytes), so its parser then refuses them without waiting for more.
HEADER_LIMIT = 1024 * 1024
#: ``complete_length`` for a request the poller does not buffer whole in memory.
UNBUFFERED = -1
#: A refused body is read and dropped up to this many times the upload limit (16 MiB at least),
#: then the connection closes: a client still sending when it closes sees a broken connection,
#: not the answer.
DISCARD_FACTOR = 4
DISCARD_MIN = 16 * 1024 * 1024

_CONTENT_LENGTH = re.compile(rb"(?im)^content-length[ \t]*:[ \t]*(\d{1,20})[ \t]*\r?$")
_CHUNKED = re.compile(rb"(?im)^transfer-encoding[ \t]*:.*chunked")
_EXPECT = re.compile(rb"(?im)^expect[ \t]*:[ \t]*100-continue[ \t]*\r\n")
_CHUNK_SIZE = re.compile(rb"([0-9A-Fa-f]{1,16})[^\r\n]*\r\n")
_DETACHED = object()  # handle(): the event hub owns the connection now
_PARKED = object()  # handle(): the request waits for a heavy slot (no thread, not on the poller)
#: Requests answered from one small record or a file (a preflight, health, the version and the
#: API's description, a document's or a job's status and its event stream, the pane's files): they
#: never wait for a heavy slot. Every other request takes one, reads included: a document's units,
#: text, outline, graph or findings cost seconds on a large document, and four of them at once took
#: every thread while ``/healthz`` waited. ``tests/addin_backend/api/test_heavy_slots.py`` holds this list
#: against the app's routes.
_LIGHT = re.compile(rb"(?:OPTIONS [^ ]+|(?:GET|HEAD) (?:/|/healthz|/readyz|/manifest\.xml|/taskpane/?|"
                    rb"/(?:taskpane|static)/[^ ?]+|/api/v1/(?:version|openapi\.json|documents/[0-9a-f]{24}|"
                    rb"jobs/[^/ ?]+(?:/events)?))(?:\?[^ ]*)?) HTTP/1\.[01]\r\n")


def is_light(head: bytes) -> bool:
    """Whether the request that ``head`` starts never waits for a heavy slot.

    >>> is_light(b"GET /healthz HTTP/1.1\\r\\n"), is_light(b"GET /api/v1/documents/" + b"a" * 24 + b"/units HTTP/1.1\\r\\n")
    (True, False)
    """
    return _LIGHT.match(head) is not None

#: Bodies (and chunked heads) up to this size are not counted against the process's buffer total.
SMALL_BODY = 64 * 1024

_CODES = {400: "invalid_request", 403: "forbidden", 408: "request_timeout", 411: "length_required",
          413: "too_large", 414: "uri_too_long", 417: "expectation_failed", 431: "headers_too_large",
          500: "internal_error", 501: "not_implemented"}


def complete_length(data: bytes) -> int | None:
    """How many bytes make the first request in ``data``, once its headers are there (the caller
    waits until it holds that many); ``None`` while the headers, or a chunked body, are still
    incomplete; :data:`UNBUFFERED` when the request is not to be held in memory whole (a body
    over :data:`BUFFER_LIMIT`, headers over :data:`HEADER_LIMIT`).

    >>> complete_length(b"GET / HTTP/1.1\\r\\nHost: x\\r\\n\\r\\nGET")
    27
    >>> complete_length(b"POST / HTTP/1.1\\r\\nContent-Length: 5\\r\\n\\r\\nab"), complete_length(b"GET / HTTP/1.1\\r\\n")
    (43, None)
    >>> complete_length(b"POST / HTTP/1.1\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n2\\r\\nab\\r\\n0\\r\\n\\r\\n")
    59
    >>> complete_length(b"POST / HTTP/1.1\\r\\nContent-Length: 5000000\\r\\n\\r\\n")
    -1
    """
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return UNBUFFERED if len(data) > HEADER_LIMIT else None
    head, body = data[:end + 2], end + 4
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
    length = content_length(head)
    if length is None:
        return body
    return UNBUFFERED if length > BUFFER_LIMIT else body + length


def content_length(head: bytes) -> int | None:
    """The ``Content-Length`` of a request's head (``None`` without one, or when chunked)."""
    if _CHUNKED.search(head):
        return None
    m = _CONTENT_LENGTH.search(head)
    return None if m is None else int(m.group(1))


def request_deadline(body_bytes: int) -> float:
    """Seconds a request with a body of ``body_bytes`` may take to arrive whole: 30 s, and for a
    body over :data:`BUFFER_LIMIT` as long again as the rest takes at :data:`MIN_BODY_RATE`.

    >>> request_deadline(1000), request_deadline(64 * 1024 * 1024)
    (30.0, 270.0)
    """
    return REQUEST_DEADLINE + max(0, body_bytes - BUFFER_LIMIT) / MIN_BODY_RATE


def _json_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own error answers as JSON (the message is the reason only: no request text)."""
    _answer(sock, status_int, reason, reason)


def _answer(sock: Any, status: int, reason: str, message: str) -> None:
    body = json.dumps({"error": {"code": _CODES.get(status, "error"), "message": message}}).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1")
    try:
        util.write_nonblock(sock, head + body)
    except OSError:
        pass


@dataclass(eq=False)
class _Pending:
    """A request the poller is still reading."""

    started: float
    raw: bytearray = field(default_factory=bytearray)  # the head, and a small body
    need: int | None = None  # bytes that make the whole request, once known
    spool: IO[bytes] | None = None  # a large body
    spooled: int = 0
    discard: int = 0  # refused: bytes still to read and drop
    deadline: float = REQUEST_DEADLINE
    decided: bool = False
    reserved: int = 0  # bytes of the process's buffer total this request holds


class _Sender:
    """The socket a request thread writes its answer to: it sends what the client's socket takes
    at once and queues the rest for the event hub (:meth:`take`), so the thread never waits for a
    client that reads slowly or not at all. Everything else is the socket's own."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self._queue: list[memoryview] = []
        self.queued = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def sendall(self, data: Any, flags: int = 0) -> None:
        view = memoryview(data if isinstance(data, bytes) else bytes(data)).cast("B")
        if not self._queue:
            self._sock.setblocking(False)
            try:
                while view:
                    try:
                        sent = send_some(self._sock, view)
                    except (BlockingIOError, InterruptedError, ssl.SSLWantWriteError, ssl.SSLWantReadError):
                        break
                    view = view[sent:]
            finally:
                self._sock.setblocking(True)
        if view:
            self._queue.append(view)
            self.queued += len(view)

    def send(self, data: Any, flags: int = 0) -> int:
        self.sendall(data)
        return len(data)

    def take(self) -> bytearray:
        """What the client has not taken yet (and forget it)."""
        out = bytearray().join(self._queue)
        self._queue, self.queued = [], 0
        return out


class _SpoolUnreader(SocketUnreader):
    """The parser's source for a request whose large body the poller has read into a file."""

    def __init__(self, sock: Any, spool: IO[bytes]) -> None:
        super().__init__(sock)
        self._spool: IO[bytes] | None = spool

    def chunk(self, size_hint: int | None = None) -> bytes:
        if self._spool is not None:
            data = self._spool.read(min(max(size_hint or 0, 65536), self.max_body_chunk))
            if data:
                return data
            self._spool.close()
            self._spool = None
        return super().chunk(size_hint)


class BufferingThreadWorker(gthread.ThreadWorker):
    """gthread whose threads never wait for a client (see the module docstring)."""

    #: the application gunicorn loads (its base class is untyped)
    wsgi: Callable[[dict[str, Any], Any], Any]

    def init_process(self) -> None:
        util.write_error = _json_error  # this process only: gunicorn's error pages become JSON
        #: requests that send work served at once: every thread but one, kept for reads
        self.heavy_slots = max(1, int(self.cfg.threads) - 1)
        self._heavy_running = 0
        self._heavy_waiting: deque[Any] = deque()
        self._heavy_lock = threading.Lock()
        from ..api.config import load_config

        cfg = load_config()
        self.body_limit = int(cfg["MAX_CONTENT_LENGTH"])
        self.buffer_total = int(float(cfg["BUFFER_TOTAL_MB"]) * 1024 * 1024)
        self.buffered = 0  # bytes of request bodies this process holds in memory, in all
        self._buffer_lock = threading.Lock()
        self._ssl_context: ssl.SSLContext | None = None
        self._local = threading.local()
        self.hub = EventHub(lambda: self.alive, self._hub_closed,
                            limit=max(1, self.cfg.worker_connections // 2),
                            stall=float(cfg["SEND_STALL_SECONDS"]))
        super().init_process()  # runs the worker; never returns

    def load_wsgi(self) -> None:
        super().load_wsgi()
        app = self.wsgi
        try:  # the MCP server's event loop starts with the worker, not in a request's thread
            from ..mcp.http import bridge

            bridge(app)  # type: ignore[arg-type]  # the Flask app gunicorn loaded
        except Exception:  # the first /mcp request tries again and answers the error
            self.log.exception("the MCP server did not start")

        def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
            environ["ledger.detach"] = lambda stream: self._detach(start_response, stream)
            return app(environ, start_response)

        self.wsgi = wsgi

    # --- reading requests in the poller -----------------------------------------------------------

    def handle(self, conn: Any) -> Any:
        if conn.__dict__.pop("ledger_parked", False):  # its heavy slot was handed to it
            return self._serve_heavy(conn)
        if conn.is_http2:
            return super().handle(conn)
        state: _Pending | None = conn.__dict__.get("ledger_pending")
        if "ledger_close" not in conn.__dict__:
            conn.ledger_close = conn.close
            conn.close = lambda graceful=False: self._close(conn, graceful)
        try:
            if state is None:
                state = conn.ledger_pending = _Pending(time.monotonic())
            if not conn.initialized:
                if self.cfg.is_ssl:
                    if not self._handshake(conn):
                        return self._wait(conn, state)
                else:
                    conn.init()  # the parser
                if conn.is_http2:
                    del conn.ledger_pending
                    return super().handle(conn)
                if not state.raw:
                    state.raw.extend(conn.parser.unreader.take_buffered())
            else:
                state.raw[:0] = conn.parser.unreader.take_buffered()  # read ahead of a kept-alive request
            whole = self._fill(conn, state)
        except (OSError, ssl.SSLError, ValueError):
            return False
        if whole is None:  # answered (refused) and done
            return False
        if not whole:
            return self._wait(conn, state)
        del conn.ledger_pending
        self._release(state)
        unreader = conn.parser.unreader
        if state.spool is not None:
            state.spool.seek(0)
            unreader = conn.parser.unreader = _SpoolUnreader(conn.sock, state.spool)
        unreader.unread(bytes(state.raw))
        if is_light(bytes(state.raw[:8192]).lstrip()):
            return super().handle(conn)
        with self._heavy_lock:
            if self._heavy_running >= self.heavy_slots:
                self._heavy_waiting.append(conn)
                return _PARKED
            self._heavy_running += 1
        return self._serve_heavy(conn)

    def _serve_heavy(self, conn: Any) -> Any:
        """Serve a request holding a heavy slot; then hand the slot to the first request that
        waits for one (queued for a thread again), or free it."""
        try:
            return super().handle(conn)
        finally:
            with self._heavy_lock:
                waiting = self._heavy_waiting.popleft() if self._heavy_waiting else None
                if waiting is None:
                    self._heavy_running -= 1
            if waiting is not None:
                waiting.ledger_parked = True
                self.method_queue.defer(self.enqueue_req, waiting)

    def _wait(self, conn: Any, state: _Pending) -> Any:
        """Back to the poller until the client sends more (408 once its time is up)."""
        if time.monotonic() - state.started > state.deadline:
            if state.discard <= 0:
                _answer(conn.sock, 408, "Request Timeout", "the request did not arrive in time")
            self._drop_spool(state)
            self._release(state)
            return False
        conn.sock.setblocking(False)
        return gthread._DEFER

    def _handshake(self, conn: Any) -> bool:
        """One step of the TLS handshake, without waiting; whether it is done (the connection
        then has its parser, as gunicorn's own ``init`` would make it)."""
        if not isinstance(conn.sock, ssl.SSLSocket):
            if self._ssl_context is None:
                self._ssl_context = gsock.ssl_context(self.cfg)
            conn.sock = self._ssl_context.wrap_socket(conn.sock, server_side=True, do_handshake_on_connect=False,
                                                      suppress_ragged_eofs=self.cfg.suppress_ragged_eofs)
        conn.sock.setblocking(False)
        try:
            conn.sock.do_handshake()
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            return False
        conn.initialized = True
        if gsock.is_http2_negotiated(conn.sock):
            conn.is_http2 = True
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client, http2_connection=True)
            conn.parser.initiate_connection()
        else:
            conn.parser = http.get_parser(self.cfg, conn.sock, conn.client)
        return True

    def _fill(self, conn: Any, state: _Pending) -> bool | None:
        """Read what the socket holds, without waiting; whether the first request is all in
        (``None``: it was refused and the connection is done)."""
        sock = conn.sock
        sock.setblocking(False)
        while True:
            if not state.decided and not self._decide(conn, state):
                if state.discard <= 0:
                    return None  # refused, nothing more to read
            if state.discard > 0:
                want = min(65536, state.discard)
            elif state.spool is not None and state.need is not None:  # a spool is opened once need is known
                want = min(1 << 20, state.need - len(state.raw) - state.spooled)
                if want <= 0:
                    return True
            else:
                if state.need is not None and (state.need == UNBUFFERED or len(state.raw) >= state.need):
                    return True
                want = 65536
            try:
                chunk = sock.recv(want)
            except (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
                if isinstance(sock, ssl.SSLSocket) and sock.pending():
                    continue
                return False
            if not chunk:  # the client closed: the parser sees what there is
                if state.discard > 0:
                    return None
                return True
            if state.discard > 0:
                state.discard -= len(chunk)
                if state.discard <= 0:
                    return None
            elif state.spool is not None:
                state.spool.write(chunk)
                state.spooled += len(chunk)
            else:
                state.raw.extend(chunk)
                if state.need is None and len(state.raw) > SMALL_BODY + state.reserved:
                    grow = len(state.raw) - state.reserved
                    if not self._reserve(state, grow):  # a chunked body while memory is spoken for
                        _answer(conn.sock, 411, "Length Required", "the server is holding as many request "
                                "bodies as it may; send this one with a Content-Length")
                        return None

    def _decide(self, conn: Any, state: _Pending) -> bool:
        """Once the head is in: how the rest is read (memory, a file, refused). ``False`` when
        the request is refused (answered here)."""
        end = state.raw.find(b"\r\n\r\n")
        if end < 0:
            if len(state.raw) > HEADER_LIMIT:
                state.decided, state.need = True, UNBUFFERED  # gunicorn's parser refuses it
            return True
        size = content_length(bytes(state.raw[:end + 2]))
        if size is not None and size > self.body_limit:
            _answer(conn.sock, 413, "Content Too Large",
                    f"the request body is {size:,} bytes; the limit is {self.body_limit:,} (LEDGER_MAX_UPLOAD_MB)")
            if _EXPECT.search(state.raw, 0, end + 4):
                return False  # the client waits for "100 Continue" and sends nothing more
            state.decided = True
            state.discard = min(size, max(DISCARD_FACTOR * self.body_limit, DISCARD_MIN)) - (len(state.raw) - end - 4)
            state.deadline = request_deadline(state.discard)
            return False
        if _EXPECT.search(state.raw, 0, end + 4):
            self._continue(conn, state, end)
            end = state.raw.find(b"\r\n\r\n")
        need = complete_length(bytes(state.raw))
        if need is None:
            return True  # a chunked body still coming
        state.decided = True
        if need != UNBUFFERED:
            body_len = need - end - 4
            if size is None or body_len <= SMALL_BODY or self._reserve(state, body_len - state.reserved):
                state.need = need
                return True
            disk = True  # memory is spoken for: this body waits on disk
        elif size is None:  # chunked, over the buffer limit
            _answer(conn.sock, 411, "Length Required",
                    f"a chunked request body over {BUFFER_LIMIT >> 20} MiB; send it with a Content-Length")
            return False
        else:
            disk = not self._reserve(state, BUFFER_LIMIT - state.reserved)
        assert size is not None
        state.need = end + 4 + size
        state.deadline = request_deadline(size)
        state.spool = (tempfile.TemporaryFile(prefix="ledger-body-") if disk else
                       tempfile.SpooledTemporaryFile(max_size=BUFFER_LIMIT, prefix="ledger-body-"))
        body = state.raw[end + 4:]
        del state.raw[end + 4:]
        state.spool.write(body)
        state.spooled = len(body)
        return True

    @staticmethod
    def _continue(conn: Any, state: _Pending, end: int) -> None:
        """Answer ``Expect: 100-continue`` here (the body is read by the poller, not gunicorn's
        parser) and drop the header, so the parser does not answer it again."""
        util.write_nonblock(conn.sock, b"HTTP/1.1 100 Continue\r\n\r\n")
        head = _EXPECT.sub(b"", bytes(state.raw[:end + 4]), count=1)
        state.raw[:end + 4] = head

    @staticmethod
    def _drop_spool(state: _Pending) -> None:
        if state.spool is not None:
            state.spool.close()
            state.spool = None

    def _reserve(self, state: _Pending, size: int) -> bool:
        """Count ``size`` more bytes of ``state``'s body in the process's memory, when
        ``LEDGER_BUFFER_TOTAL_MB`` leaves room (0: no total)."""
        with self._buffer_lock:
            if self.buffer_total and self.buffered + size > self.buffer_total:
                return False
            self.buffered += size
            state.reserved += size
            return True

    def _release(self, state: _Pending) -> None:
        with self._buffer_lock:
            self.buffered -= state.reserved
            state.reserved = 0

    # --- event streams handed to the hub ----------------------------------------------------------

    def _detach(self, start_response: Any, stream: Any) -> bool:
        """``environ["ledger.detach"]``: the response now being made ends with its body's first
        event; the hub sends the rest (``False`` when it follows as many streams as it may)."""
        if len(self.hub) >= self.hub.limit:
            return False
        resp = start_response.__self__  # gunicorn's Response
        self._local.detached = (resp, stream)
        resp.close = resp.send_headers  # no end-of-body chunk: the stream goes on in the hub
        return True

    def handle_request(self, req: Any, conn: Any) -> Any:
        self._local.detached = None
        sock = conn.sock
        sender = conn.sock = _Sender(sock)
        started = time.monotonic()
        try:
            keep = super().handle_request(req, conn)
        except BaseException:
            detached = self._local.detached
            if detached is not None:
                detached[1].close()
            raise
        finally:
            conn.sock = sock
            memory.after(time.monotonic() - started)  # what a costly request took goes back to the system
        detached, self._local.detached = self._local.detached, None
        if detached is None:
            if sender.queued:  # the client has not taken the whole answer: the hub sends the rest
                self.hub.finish(conn, sender.take())
                return _DETACHED
            return keep
        resp, stream = detached
        if not self.hub.add(conn, stream, chunked=resp.chunked, out=sender.take()):
            stream.close()
            return False
        return _DETACHED

    def _keepalive_after(self, conn: Any, keepalive: Any) -> Any:
        if keepalive is _DETACHED:
            return keepalive
        return super()._keepalive_after(conn, keepalive)

    def finish_request(self, conn: Any, fs: Any) -> None:
        if not fs.cancelled() and fs.exception() is None and fs.result() in (_DETACHED, _PARKED):
            return  # the hub closes it (_hub_closed counts it gone), or it waits for a heavy slot
        super().finish_request(conn, fs)

    def _close(self, conn: Any, graceful: bool) -> None:
        """A connection's close: a graceful one (RFC 9112 9.6: half-close, then wait for the
        client's end) lingers in the hub, not on the main loop, which it would stall."""
        state = conn.__dict__.pop("ledger_pending", None)
        if state is not None:  # a request the poller was reading: its memory is free again
            self._drop_spool(state)
            self._release(state)
        if graceful:
            self.hub.linger(conn.sock)
        else:
            conn.ledger_close()

    def _hub_closed(self, conn: Any) -> None:
        self.method_queue.defer(self._count_closed)

    def _count_closed(self) -> None:
        self.nr_conns -= 1
