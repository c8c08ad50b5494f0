"""The event hub of ``ledger serve``'s worker: every open ``/jobs/{id}/events`` stream of the
process, followed by one thread, none of them holding a request thread.

The route (``api/jobs.py``) answers a stream's first event and hands the connection over
(:data:`~addin_backend.api.jobs.DETACH`); from then on this hub owns the socket. Every tick it
reads each followed job's record once (however many streams follow it), asks each stream what
to send (:meth:`~addin_backend.api.jobs.JobEvents.step`) and writes it without blocking. A
client that stops reading has at most :data:`MAX_BACKLOG` bytes kept for it, then it is dropped;
a client that closes is noticed by the selector. When the worker stops, every stream gets its
final ``timeout`` event and ends (an ``EventSource`` reconnects by itself; other clients poll).

The hub also sends the rest of any answer a client did not take at once (:meth:`EventHub.finish`:
the request thread queued it rather than wait), and drops a client that takes no byte of it for
``stall`` seconds (``LEDGER_SEND_STALL_SECONDS``).
"""
from __future__ import annotations

import errno
import logging
import os
import queue
import selectors
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["EventHub", "MAX_BACKLOG", "frame", "send_some"]

log = logging.getLogger("ledger.http")

#: Bytes of events kept for a client that does not read them; past this it is dropped.
MAX_BACKLOG = 256 * 1024
#: The hub wakes at least this often (to notice a stopping worker).
_IDLE_WAKE = 1.0
#: A gracefully closed connection waits this long, and drops this much, for the client's end
#: (gunicorn's ``close_graceful`` does the same, blocking).
LINGER_SECONDS = 2.0
LINGER_BYTES = 65536


#: The most one send to a TLS socket is given (four TLS records).
TLS_SLICE = 64 * 1024


def send_some(sock: Any, data: Any) -> int:
    """Send what a non-blocking ``sock`` takes of ``data`` now; the bytes it took.

    Python's TLS sockets do not write partially: a send of 18 MB reports nothing until all of it
    is out (OpenSSL keeps the place in between, and the caller retries with the same bytes), so
    a client reading steadily looked stalled and was dropped. A TLS socket is given a slice at a
    time, and every slice it takes counts; a retry after a refusal gives the same slice again
    (or a longer one, once more is queued), which OpenSSL accepts.

    :raise BlockingIOError, ssl.SSLWantWriteError, ssl.SSLWantReadError: it takes nothing now.
    """
    if isinstance(sock, ssl.SSLSocket):
        return sock.send(data[:TLS_SLICE])  # a copy of a bytearray: no export blocks its resizing
    return sock.send(data)


def frame(text: str | bytes, chunked: bool) -> bytes:
    """The bytes that carry ``text`` (text, or bytes as they are) on the connection: one HTTP/1.1
    chunk, or as it is.

    >>> frame("event: x\\n\\n", True), frame("", True), frame("a", False), frame(b"b", True)
    (b'a\\r\\nevent: x\\n\\n\\r\\n', b'', b'a', b'1\\r\\nb\\r\\n')
    """
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    if not chunked or not data:
        return data
    return f"{len(data):x}\r\n".encode("ascii") + data + b"\r\n"


@dataclass(eq=False)
class _Follow:
    conn: Any  # gunicorn's TConn
    stream: Any  # api.jobs.JobEvents (or a stream like it); None: the rest of an answer, then close
    chunked: bool
    due: float
    out: bytearray = field(default_factory=bytearray)
    ending: bool = False  # the last event is queued: close once it is written
    gone: bool = False  # closed
    moved: float = field(default_factory=time.monotonic)  # the client last took a byte (or the send began)
    deaf: bool = False  # the client closed its sending side: no more reads


@dataclass(eq=False)
class _Linger:
    sock: Any
    deadline: float
    drained: int = 0


class EventHub:
    """One thread per worker process that follows the streams handed to :meth:`add`.

    ``alive()`` says whether the worker still serves (when it turns false every stream ends);
    ``closed(conn)`` is called (from the hub's thread) for each connection the hub closed, so
    the worker can count it gone; ``limit`` bounds the streams one process follows.
    """

    def __init__(self, alive: Callable[[], bool], closed: Callable[[Any], None], limit: int,
                 stall: float = 30.0) -> None:
        self._alive, self._closed, self.limit, self.stall = alive, closed, limit, stall
        self._incoming: queue.SimpleQueue[_Follow | _Linger] = queue.SimpleQueue()
        self._follows: dict[int, _Follow] = {}
        self._lingers: dict[int, _Linger] = {}
        self._count = 0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._selector: selectors.BaseSelector | None = None
        self._wake_r, self._wake_w = -1, -1

    def __len__(self) -> int:
        return self._count

    def add(self, conn: Any, stream: Any, chunked: bool, out: bytes | bytearray = b"") -> bool:
        """Follow ``stream`` on ``conn`` (its first event is sent already, but for ``out``, which
        the client has not taken yet); ``False`` when the process follows :attr:`limit` streams
        (the caller then answers and closes as usual)."""
        with self._lock:
            if self._count >= self.limit:
                return False
            self._count += 1
            self._start()
        self._incoming.put(_Follow(conn, stream, chunked, time.monotonic() + stream.poll, bytearray(out)))
        self._wake()
        return True

    def finish(self, conn: Any, rest: bytearray) -> None:
        """Send ``rest`` (the end of an answer the client did not take at once) as the client
        reads it, then close ``conn``; a client that takes nothing for :attr:`stall` seconds is
        dropped. Never refused: the answer is made already, this only keeps it until it is sent."""
        with self._lock:
            self._start()
        self._incoming.put(_Follow(conn, None, False, float("inf"), rest, ending=True))
        self._wake()

    def linger(self, sock: Any) -> None:
        """Close ``sock`` gracefully: half-close it, drop what the client still sends (up to
        :data:`LINGER_BYTES`) until it closes or :data:`LINGER_SECONDS` pass, then close."""
        with self._lock:
            self._start()
        self._incoming.put(_Linger(sock, time.monotonic() + LINGER_SECONDS))
        self._wake()

    def _start(self) -> None:
        if self._thread is None:
            self._selector = selectors.DefaultSelector()
            self._wake_r, self._wake_w = os.pipe()
            os.set_blocking(self._wake_r, False)
            os.set_blocking(self._wake_w, False)
            self._selector.register(self._wake_r, selectors.EVENT_READ, None)
            self._thread = threading.Thread(target=self._run, name="ledger-event-hub", daemon=True)
            self._thread.start()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"\0")
        except OSError:  # the pipe is full: the hub is awake anyway
            pass

    # --- the hub's thread ----------------------------------------------------------------------

    def _run(self) -> None:
        sel = self._selector
        assert sel is not None
        while True:
            try:
                self._tick(sel)
            except Exception:  # the hub must outlive any one stream's trouble
                log.exception("event hub")
                time.sleep(0.1)

    def _tick(self, sel: selectors.BaseSelector) -> None:
        now = time.monotonic()
        due = min([f.due for f in self._follows.values() if not f.ending]
                  + [g.deadline for g in self._lingers.values()], default=now + _IDLE_WAKE)
        for key, mask in sel.select(max(0.0, min(due - now, _IDLE_WAKE))):
            if key.data is None:
                try:
                    os.read(self._wake_r, 4096)
                except OSError:
                    pass
                continue
            if isinstance(key.data, _Linger):
                self._drain(key.data)
                continue
            follow: _Follow = key.data
            if mask & selectors.EVENT_READ:
                self._on_readable(follow)
            if mask & selectors.EVENT_WRITE and not follow.gone:
                self._flush(follow)
        while True:
            try:
                item = self._incoming.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, _Linger):
                self._start_linger(sel, item)
                continue
            try:
                item.conn.sock.setblocking(False)
                sel.register(item.conn.sock, selectors.EVENT_READ, item)
            except (OSError, ValueError):
                self._close(item)
                continue
            self._follows[item.conn.sock.fileno()] = item
            if item.out:
                self._flush(item)
        now = time.monotonic()
        for linger in [g for g in self._lingers.values() if g.deadline <= now]:
            self._end_linger(linger)
        stopping = not self._alive()
        # a job is read once a tick, when any of its streams is due, and every stream that follows
        # it takes that record: the streams of one job keep one rhythm instead of drifting apart
        due_jobs = {f.stream.job_id for f in self._follows.values()
                    if not (f.ending or f.gone) and now >= f.due}
        records: dict[str, Any] = {}
        for follow in list(self._follows.values()):
            if follow.out and not follow.gone and now - follow.moved > self.stall:
                self._close(follow)  # the client takes nothing: drop it rather than keep its answer
                continue
            if follow.ending or follow.gone:
                continue
            if stopping:
                text = follow.stream.stop("the server is restarting; poll the job or follow it again")
            elif follow.stream.job_id in due_jobs:
                job = follow.stream.job_id
                if job not in records:  # one read per job, whatever number of streams follow it
                    records[job] = follow.stream.read()
                text = follow.stream.step(records[job])
                follow.due = now + follow.stream.poll
            else:
                continue
            follow.out += frame(text, follow.chunked)
            if follow.stream.done:
                follow.ending = True
                if follow.chunked:
                    follow.out += b"0\r\n\r\n"
            self._flush(follow)

    def _sel(self) -> selectors.BaseSelector:
        """The selector of the running loop (every caller runs on the loop's thread, after start)."""
        if self._selector is None:
            raise RuntimeError("the event hub is not running")
        return self._selector

    def _start_linger(self, sel: selectors.BaseSelector, linger: _Linger) -> None:
        try:
            linger.sock.shutdown(socket.SHUT_WR)
            linger.sock.setblocking(False)
            sel.register(linger.sock, selectors.EVENT_READ, linger)
        except (OSError, ValueError):
            self._end_linger(linger)
            return
        self._lingers[linger.sock.fileno()] = linger

    def _drain(self, linger: _Linger) -> None:
        try:
            data = linger.sock.recv(4096)
        except (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
            return
        except OSError:
            data = b""
        linger.drained += len(data)
        if not data or linger.drained >= LINGER_BYTES:
            self._end_linger(linger)

    def _end_linger(self, linger: _Linger) -> None:
        fd = -1
        try:
            fd = linger.sock.fileno()
            self._sel().unregister(linger.sock)
        except (KeyError, ValueError, OSError):
            pass
        self._lingers.pop(fd, None)
        try:
            linger.sock.close()
        except OSError:
            pass

    def _on_readable(self, follow: _Follow) -> None:
        """A client sends nothing on an event stream: what it sends is dropped, its end ends it."""
        try:
            data = follow.conn.sock.recv(4096)
        except (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
            return
        except OSError:
            data = b""
        if not data:
            if follow.stream is None and follow.out:  # it may still read the answer it asked for
                follow.deaf = True
                self._watch(follow)
                return
            self._close(follow)

    def _watch(self, follow: _Follow) -> None:
        events = (0 if follow.deaf else selectors.EVENT_READ) | (selectors.EVENT_WRITE if follow.out else 0)
        try:
            self._sel().modify(follow.conn.sock, events or selectors.EVENT_WRITE, follow)
        except (KeyError, ValueError, OSError):
            pass

    def _flush(self, follow: _Follow) -> None:
        sock = follow.conn.sock
        while follow.out:
            try:
                sent = send_some(sock, follow.out)
            except (BlockingIOError, InterruptedError, ssl.SSLWantReadError, ssl.SSLWantWriteError):
                break
            except OSError as exc:
                if exc.errno not in (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN, errno.EBADF):
                    log.warning("event stream write failed: %s", type(exc).__name__)
                self._close(follow)
                return
            del follow.out[:sent]
            if sent:
                follow.moved = time.monotonic()
        if not follow.out and follow.ending:
            self._close(follow)
        elif follow.stream is not None and len(follow.out) > MAX_BACKLOG:
            self._close(follow)  # the client does not read: drop it rather than keep its events
        else:
            self._watch(follow)

    def _close(self, follow: _Follow) -> None:
        if follow.gone:
            return
        follow.gone = True
        sock = follow.conn.sock
        fd = -1
        try:
            fd = sock.fileno()
            self._sel().unregister(sock)
        except (KeyError, ValueError, OSError):
            pass
        if self._follows.get(fd) is follow:
            del self._follows[fd]
        follow.out = bytearray()
        if follow.stream is not None:
            follow.stream.close()
            with self._lock:  # free the slot before the client can see the end and come back
                self._count -= 1
        try:
            follow.conn.close()
        except OSError:
            pass
        self._closed(follow.conn)
