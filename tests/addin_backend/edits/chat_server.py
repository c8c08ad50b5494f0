"""A real chat-completions HTTP server on loopback that answers from a script, for the LLM engine tests.

It speaks what ``azure-ai-inference``'s ChatCompletionsClient calls: ``POST {endpoint}/chat/completions
?api-version=...`` with a JSON body, answered by a ``chat.completion`` object. Each request is
recorded (path, query, headers, body, arrival time) so tests can assert what the SDK sent.
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = ["ChatServer", "Step", "completion"]


def completion(content: str, *, prompt_tokens: int = 100, completion_tokens: int = 20, model: str = "gpt-test") -> dict:
    """A chat.completion body whose one choice says ``content``."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1767225600,
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


@dataclass
class Step:
    """One scripted answer: status, JSON body, extra headers, and a delay before answering.

    An untrusted model's ways: ``raw`` bytes sent as the body instead of ``body``'s JSON;
    ``trickle`` seconds between the body's bytes (after the headers); ``size`` bytes of filler
    sent as the body (made as they are sent, never held); ``hang`` never answers at all. A header
    given as ``""`` is left out (``{"Content-Length": ""}``: a body that ends when the server closes).
    """

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes | None = None
    trickle: float = 0.0
    size: int = 0
    hang: bool = False


@dataclass
class Request:
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: Any
    at: float


class _Handler(BaseHTTPRequestHandler):
    server: "_Server"

    def do_POST(self) -> None:  # noqa: N802 - the http.server spelling
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        url = urlsplit(self.path)
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        self.server.owner.requests.append(
            Request(url.path, parse_qs(url.query), {k.lower(): v for k, v in self.headers.items()}, body, time.monotonic())
        )
        script = self.server.owner.script
        step = script.pop(0) if script else Step(500, {"error": {"code": "script_exhausted", "message": "no more replies"}})
        if step.delay:
            self.server.owner.release.wait(step.delay)
        if step.hang:
            self.server.owner.release.wait(3600)
            return
        data = step.raw if step.raw is not None else json.dumps(step.body).encode("utf-8")
        length = step.size or len(data)
        try:
            self.send_response(step.status)
            self.send_header("Content-Type", "application/json")
            if not step.headers.get("Content-Length") == "":
                self.send_header("Content-Length", str(length))
            for k, v in step.headers.items():
                if v != "":
                    self.send_header(k, v)
            self.end_headers()
            if step.size:
                block = b'{"pad":"' + b"x" * (64 * 1024) + b'"}'
                while self.server.owner.sent < step.size:
                    self.wfile.write(block)
                    self.server.owner.sent += len(block)
            elif step.trickle:
                for i in range(len(data)):
                    self.wfile.write(data[i:i + 1])
                    self.wfile.flush()
                    self.server.owner.sent += 1
                    if self.server.owner.release.wait(step.trickle):
                        return
            else:
                self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            pass

    def log_message(self, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: "ChatServer"


class ChatServer:
    """Start with ``with ChatServer() as srv``; set ``srv.script``; read ``srv.requests``."""

    def __init__(self) -> None:
        self.script: list[Step] = []
        self.requests: list[Request] = []
        self.sent = 0  # body bytes written by the size and trickle steps
        self.release = threading.Event()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="chat-server", daemon=True
        )

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/models"

    def __enter__(self) -> "ChatServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
