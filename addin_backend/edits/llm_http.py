"""The LLM engine's HTTP client: one chat-completions request to a model that is not trusted.

A model server is a remote party: it may be slow, never answer, trickle bytes, redirect, or send
an answer of any size and shape. So every exchange here is bounded by itself, not by the good
manners of the server:

- **one overall deadline** (:class:`Deadline`): the engine gives every attempt what is left of the
  call's deadline (``LEDGER_LLM_DEADLINE``, and sooner the request's or job's budget); a watchdog
  shuts the socket down when it passes, whatever the exchange is doing (connecting, waiting for
  headers, reading a body that trickles a byte a second);
- **an idle timeout** (``LEDGER_LLM_TIMEOUT``): each read that waits longer for a byte fails;
- **no redirect is followed**: a ``3xx`` is an error naming the status, so the key (``api-key``
  and ``Authorization``) never goes to another address;
- **a size cap** (``LEDGER_LLM_MAX_ANSWER_MB``): the body is read in pieces and dropped past it,
  and no compression is asked for (a small body cannot inflate);
- **parsed defensively** (:func:`parse_json`): nesting past :data:`MAX_DEPTH`, a lone surrogate,
  or a body that is not UTF-8 JSON is a :class:`ModelAnswerError`, never an exception that
  escapes as a 500.

Proxies named by ``HTTPS_PROXY``/``HTTP_PROXY`` (and ``NO_PROXY``) are used as the SDK used them.
Only the standard library: ``http.client`` gives the socket the watchdog needs.
"""
from __future__ import annotations

import http.client
import json
import socket
import ssl
import threading
import time
import urllib.request
from dataclasses import dataclass
from typing import Any, Mapping
from urllib.parse import urlencode, urlsplit

__all__ = ["Deadline", "Answer", "ModelAnswerError", "TransportError", "post_json", "parse_json", "MAX_DEPTH",
           "DEFAULT_MAX_ANSWER_BYTES"]

#: JSON from a model nests at most this deep (an answer of operations needs 6 levels).
MAX_DEPTH = 64
#: The most bytes of one answer (``LEDGER_LLM_MAX_ANSWER_MB``): an answer of 2,048 tokens is ~10 KB.
DEFAULT_MAX_ANSWER_BYTES = 4 << 20
_CHUNK = 64 << 10


class ModelAnswerError(ValueError):
    """The model's answer cannot be used as it came (too large, not JSON, too deep, bad text)."""


class TransportError(Exception):
    """The exchange failed before an answer came: ``kind`` ``timeout``, ``deadline`` or ``unreachable``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class Deadline:
    """The one deadline of a model call, over all its attempts (monotonic seconds)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.due = time.monotonic() + seconds

    def left(self) -> float:
        return self.due - time.monotonic()

    def passed(self) -> bool:
        return self.left() <= 0


@dataclass
class Answer:
    """A model server's answer: the status, its headers (lower-case names) and the body's bytes."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        """The body as JSON, parsed defensively (:func:`parse_json`).

        :raise ModelAnswerError: not UTF-8 JSON, nested too deep, or holding a lone surrogate.
        """
        try:
            text = self.body.decode("utf-8")
        except UnicodeDecodeError:
            raise ModelAnswerError("the answer is not UTF-8") from None
        return parse_json(text)

    def text(self, limit: int = 300) -> str:
        """The start of the body as text, for an error message."""
        return self.body[:limit * 4].decode("utf-8", "replace")[:limit]


def parse_json(text: str) -> Any:
    """``text`` as JSON, refused with a clear error when it cannot be used safely.

    :raise ModelAnswerError: not JSON, nested deeper than :data:`MAX_DEPTH`, or a string (or key)
        holding a lone surrogate (``"\\ud800"``), which no document or store can encode.

    >>> parse_json('{"a": [1, "x"]}')
    {'a': [1, 'x']}
    >>> parse_json('[' * 100 + ']' * 100)
    Traceback (most recent call last):
    addin_backend.edits.llm_http.ModelAnswerError: the answer nests deeper than 64 levels
    >>> parse_json('"\\\\ud800"')
    Traceback (most recent call last):
    addin_backend.edits.llm_http.ModelAnswerError: the answer holds a lone surrogate (an unpaired \\uD800-\\uDFFF escape)
    """
    if _nesting(text) > MAX_DEPTH:  # before json.loads, which recurses (RecursionError)
        raise ModelAnswerError(f"the answer nests deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text)
    except RecursionError:
        raise ModelAnswerError(f"the answer nests deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise ModelAnswerError(f"the answer is not JSON ({str(exc)[:120]})") from None
    check_text(value)
    return value


def _nesting(text: str) -> int:
    """How deep brackets nest in ``text``, outside strings (one pass, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def check_text(value: Any) -> None:
    """Refuse a parsed JSON value with a string or key that is not text (a lone surrogate).

    :raise ModelAnswerError: the first such string.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ModelAnswerError("the answer holds a lone surrogate (an unpaired \\uD800-\\uDFFF escape)") from None
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _proxy_for(scheme: str, host: str) -> str | None:
    """The proxy the environment names for ``scheme://host`` (``NO_PROXY`` honoured), if any."""
    proxies = urllib.request.getproxies_environment()
    bypass = getattr(urllib.request, "proxy_bypass_environment")  # typeshed lacks it; in urllib since 3.x
    if not proxies or bypass(host, proxies):
        return None
    return proxies.get(scheme)


def _connection(url: str, timeout: float) -> http.client.HTTPConnection:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TransportError("unreachable", f"the endpoint {parts.scheme}://{parts.hostname or ''} is no http(s) URL")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    proxy = _proxy_for(parts.scheme, parts.hostname)
    if proxy:
        p = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        if parts.scheme == "https":
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                p.hostname or "", p.port or 8080, timeout=timeout, context=ssl.create_default_context())
            conn.set_tunnel(parts.hostname, port)
        else:  # plain HTTP through a proxy: the request names the whole URL
            conn = http.client.HTTPConnection(p.hostname or "", p.port or 8080, timeout=timeout)
        return conn
    if parts.scheme == "https":
        return http.client.HTTPSConnection(parts.hostname, port, timeout=timeout, context=ssl.create_default_context())
    return http.client.HTTPConnection(parts.hostname, port, timeout=timeout)


def post_json(url: str, body: Mapping[str, Any], *, headers: Mapping[str, str], params: Mapping[str, str] | None = None,
              idle: float, deadline: Deadline, max_bytes: int = DEFAULT_MAX_ANSWER_BYTES) -> Answer:
    """POST ``body`` as JSON to ``url`` and read the answer within ``deadline`` (see the module).

    ``idle`` bounds the connect and every wait for a byte; the deadline bounds the whole
    exchange (a watchdog shuts the socket down when it passes). A redirect is returned as it
    came (the caller refuses it); it is never followed.

    :raise TransportError: ``timeout`` (silent for ``idle``), ``deadline`` (the deadline passed:
        a slow or trickling server) or ``unreachable`` (connection refused, reset, DNS, TLS).
    :raise ModelAnswerError: the body is larger than ``max_bytes``.
    """
    left = deadline.left()
    if left <= 0:
        raise TransportError("deadline", "the call's deadline passed before the request")
    full = url + ("?" + urlencode(dict(params)) if params else "")
    parts = urlsplit(full)
    target = full if (_proxy_for(parts.scheme, parts.hostname or "") and parts.scheme == "http") else (
        (parts.path or "/") + (f"?{parts.query}" if parts.query else ""))
    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    conn = _connection(url, min(idle, left))
    cut = threading.Event()
    held: list[socket.socket] = []  # the connected socket: the connection drops its own reference once
    #                                 the answer is to be read to the close, the answer keeps reading it

    def watchdog() -> None:
        cut.set()
        for sock in held or ([conn.sock] if conn.sock is not None else []):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    resp: http.client.HTTPResponse | None = None
    timer = threading.Timer(left, watchdog)
    timer.daemon = True
    timer.start()
    try:
        conn.connect()
        if conn.sock is not None:
            conn.sock.settimeout(idle)
            held.append(conn.sock)
            if cut.is_set():  # the deadline passed while connecting
                watchdog()
        conn.putrequest("POST", target, skip_accept_encoding=True)
        for name, value in {**headers, "Content-Type": "application/json", "Accept": "application/json",
                            "Accept-Encoding": "identity", "Content-Length": str(len(data))}.items():
            conn.putheader(name, value)
        conn.endheaders(data)
        resp = conn.getresponse()
        announced = resp.getheader("Content-Length")
        if announced and announced.isdigit() and int(announced) > max_bytes:
            raise ModelAnswerError(f"the answer announces {int(announced):,} bytes; at most {max_bytes:,} are read "
                                   "(LEDGER_LLM_MAX_ANSWER_MB)")
        chunks, size = [], 0
        while True:
            piece = resp.read1(_CHUNK)
            if not piece:
                break
            size += len(piece)
            if size > max_bytes:
                raise ModelAnswerError(f"the answer is over {max_bytes:,} bytes (LEDGER_LLM_MAX_ANSWER_MB); "
                                       "the rest was not read")
            chunks.append(piece)
        if cut.is_set():
            raise TransportError("deadline", "the answer did not end before the call's deadline")
        return Answer(resp.status, {k.lower(): v for k, v in resp.getheaders()}, b"".join(chunks))
    except (socket.timeout, TimeoutError):
        if cut.is_set():
            raise TransportError("deadline", "the answer did not end before the call's deadline") from None
        raise TransportError("timeout", f"no byte for {idle:g} s") from None
    except (OSError, http.client.HTTPException) as exc:
        if cut.is_set():
            raise TransportError("deadline", "the answer did not end before the call's deadline") from None
        raise TransportError("unreachable", f"{type(exc).__name__}: {str(exc)[:200]}") from None
    finally:
        timer.cancel()
        if resp is not None:
            resp.close()
        conn.close()
        for sock in held:
            sock.close()
