"""API keys, per-key rate limits counted in the store, CORS, request ids and the access log.

Every route under ``/api/``, and the MCP server at ``/mcp``, needs ``Authorization: Bearer KEY``
when ``LEDGER_API_KEYS`` is set (CORS preflights excepted: browsers send them without credentials). The rate limit is a
sliding window per key (per client address without keys), counted in the store so that it
holds across worker processes and machines (:mod:`.rate_window`). The access log names the route, the status, the
time taken and the key's fingerprint; never a body, a query string or a key.

Requests with a wrong or missing key are limited per *what the client presents*: a hash of the
presented key plus the client address (``LEDGER_AUTH_FAIL_LIMIT``), so a client that keeps
sending a bad key is refused with 429 while a valid key from the same address (every user
behind one HTTPS proxy) still works. Guessing keys is no use either way: a key has at least 16
characters (``LEDGER_API_KEYS``). Behind proxies, ``LEDGER_TRUST_PROXY=N`` takes the client
address from the last N entries of ``X-Forwarded-For`` (werkzeug's ``ProxyFix``), for the limits,
the quota and the log; without it the header is ignored, so a client cannot choose its address.
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import re
import time
import uuid

from flask import Flask, Response, current_app, g, request
from flask_cors import CORS

from ..errors import RateLimitedError, UnauthorizedError, UnknownJobError
from ..jobs.runner import scope_of
from ..mcp.http import MCP_PATH
from ..store.documents import check_owner
from . import rate_window
from .config import key_fingerprint as fingerprint
from .context import owner, store

__all__ = ["init_security", "fingerprint", "API_PREFIX"]

API_PREFIX = "/api/"
#: What the keys, rate limits and no-store caching guard: the API, and the MCP server at /mcp.
GUARDED = (API_PREFIX, MCP_PATH)
log = logging.getLogger("ledger.http")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


def _authenticate(keys: list[str], failures: tuple[int, int] | None) -> str:
    """The client's identity; raises :class:`UnauthorizedError` when keys are set and none matches.

    ``failures`` (``LEDGER_AUTH_FAIL_LIMIT``, default 20/minute) bounds the requests with one
    wrong or missing key that one client address may make in any window; past that the same key
    from that address gets 429 until enough of them lie further back than the window. The counter is named by a hash of what
    was presented and the address, so bad requests never lock a valid key out.
    """
    if not keys:
        return "anonymous"
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip()
    limit, window = failures or (1 << 62, 1)
    presented = hashlib.sha256(f"{scheme.lower()} {token}".encode("utf-8", "surrogatepass")).hexdigest()[:16]
    counter = f"authfail:{presented}:ip:{request.remote_addr}"
    seen = rate_window.look(store(), counter, limit, window)
    if not seen.allowed:
        raise RateLimitedError(f"more than {limit} requests with this wrong API key in {window} s; retry later",
                               retry_after=seen.retry_after)
    if scheme.lower() == "bearer" and token:
        for key in keys:
            if hmac.compare_digest(token.encode("utf-8"), key.encode("utf-8")):
                return fingerprint(key)
    rate_window.add(store(), counter, window)
    raise UnauthorizedError("send a valid API key as 'Authorization: Bearer KEY'")


def _check_rate(client: str, limit: int, window: int) -> None:
    who = client if client != "anonymous" else f"ip:{request.remote_addr}"
    verdict = rate_window.take(store(), f"rate:{who}", limit, window)
    g.rate = (limit, verdict.remaining, verdict.reset)
    if not verdict.allowed:
        raise RateLimitedError(f"more than {limit} requests in {window} s; retry later",
                               retry_after=verdict.retry_after)


def _before() -> None:
    rid = request.headers.get("X-Request-Id", "")
    g.request_id = rid if _REQUEST_ID.match(rid) else uuid.uuid4().hex[:16]
    g.started = time.perf_counter()
    g.client = "-"
    if not request.path.startswith(GUARDED) or request.method == "OPTIONS":
        return
    cfg = current_app.config
    g.client = _authenticate(cfg["API_KEYS"], cfg.get("AUTH_FAILURES"))
    if cfg["RATE"]:
        _check_rate(g.client, *cfg["RATE"])
    _check_owner()


def _check_owner() -> None:
    """Documents belong to the key (or group) that uploaded them: everything in a document's scope
    (the document, its text and file, graph, jobs, proposals, revisions, checks) answers another
    key ``404`` as if it did not exist, before the view runs (:func:`..store.documents.check_owner`).

    :raise UnknownDocumentError, UnknownJobError: the document is another owner's.
    """
    who = owner()
    args = request.view_args or {}
    if who is None:
        return
    if isinstance(args.get("document_id"), str):
        check_owner(store(), args["document_id"], who)
    if isinstance(args.get("job_id"), str):
        try:
            scope = scope_of(args["job_id"])
        except UnknownJobError:
            return  # the view answers 404
        check_owner(store(), scope, who, missing=UnknownJobError, message=f"no job {args['job_id']!r}")


def _after(response: Response) -> Response:
    response.headers["X-Request-Id"] = g.get("request_id", "")
    response.headers["X-Content-Type-Options"] = "nosniff"
    if request.path.startswith(GUARDED):
        response.headers.setdefault("Cache-Control", "no-store")
    if g.get("rate"):
        limit, remaining, reset = g.rate
        response.headers["X-RateLimit-Limit"] = str(limit)
        response.headers["X-RateLimit-Remaining"] = str(remaining)
        response.headers["X-RateLimit-Reset"] = str(reset)
    elapsed = (time.perf_counter() - g.get("started", time.perf_counter())) * 1000
    # An unmatched path is the client's text: escaped, so "%0A" cannot start a forged log line.
    rule = request.url_rule.rule if request.url_rule else _printable(request.path)
    log.info("%s %s %s %.1fms client=%s rid=%s%s", request.method, rule, response.status_code,
             elapsed, g.get("client", "-"), g.get("request_id", "-"),
             f" error={g.error_code}" if g.get("error_code") else "")
    return response


def _printable(text: str, limit: int = 200) -> str:
    """Text for one log line: control and other unprintable characters (and backslashes) escaped.

    >>> _printable("/x\\n2026-01-01 INFO forged")
    '/x\\\\n2026-01-01 INFO forged'
    """
    out = "".join(c if c.isprintable() and c != "\\" else c.encode("unicode_escape").decode("ascii") for c in text[:limit])
    return out + ("..." if len(text) > limit else "")


def init_security(app: Flask) -> None:
    """Install the key and rate checks, the response headers, the access log and CORS."""
    proxies = int(app.config.get("TRUST_PROXY", 0))
    if proxies:  # request.remote_addr from X-Forwarded-For, as the last `proxies` hops saw it
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies)  # type: ignore[method-assign]  # werkzeug's documented wrapping
    app.before_request(_before)
    app.after_request(_after)
    origins = app.config["CORS_ORIGINS"]
    if origins:
        # Clients authenticate with a bearer header, never cookies: credentials stay off, so
        # even an allow-list of "*" never pairs a wildcard with credentials.
        CORS(app, resources={r"/api/*": {"origins": origins}, MCP_PATH: {"origins": origins}},
             supports_credentials=False, send_wildcard="*" in origins,
             allow_headers=["Authorization", "Content-Type", "X-Request-Id", "Accept", "Mcp-Protocol-Version",
                            "Mcp-Session-Id", "Last-Event-ID"],
             expose_headers=["Content-Disposition", "Location", "Retry-After", "X-Request-Id", "Mcp-Session-Id"],
             max_age=600)
