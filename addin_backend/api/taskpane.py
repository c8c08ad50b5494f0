"""Blueprint ``taskpane``: the task pane page and the add-in manifest (``/static/`` is Flask's own),
and the Content-Security-Policy of every page this server sends."""
from __future__ import annotations

import os

from flask import Blueprint, Response, current_app, redirect, send_file, send_from_directory
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

__all__ = ["bp", "TASKPANE_PAGE", "OFFICE_JS_ORIGIN", "PAGE_POLICY"]

bp = Blueprint("taskpane", __name__)

#: The page the manifest's SourceLocation points at, inside the static folder.
TASKPANE_PAGE = "taskpane.html"

#: Where the pages load Office.js from (Microsoft's CDN, ``/lib/1/hosted/office.js``). Office.js
#: loads its host scripts (``word-web-16.00.js``, ...), locale strings and telemetry from the same
#: origin, and in Word on the web may frame its trust page (``AgaveErrorUX``) from it; it needs no
#: ``eval`` (@microsoft/office-js 1.1.110 read: its one ``new Function`` is an unreached fallback).
OFFICE_JS_ORIGIN = "https://appsforoffice.microsoft.com"

#: The policy of every HTML, SVG or XML page: scripts and styles only from files of this server
#: (no inline script, no ``on…=`` attribute, no ``style=`` attribute, no ``eval``) and Office.js;
#: requests to this server, or to another LEDGER server the pane's settings name (any ``https:``
#: origin, or one on loopback for development); nothing framed but Office.js's own page; no
#: plugins, no ``<base>``, no form posts. ``frame-ancestors`` is left out: Office frames the pane
#: from hosts (Word on the web, the desktop webviews) that no fixed list names.
PAGE_POLICY = "; ".join([
    "default-src 'none'",
    f"script-src 'self' {OFFICE_JS_ORIGIN}",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self' https: http://127.0.0.1:* http://localhost:* http://[::1]:*",
    f"frame-src {OFFICE_JS_ORIGIN}",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
])
_PAGES = frozenset({"text/html", "image/svg+xml", "application/xml", "text/xml", "application/xhtml+xml"})


@bp.after_app_request
def _page_policy(response: BaseResponse) -> BaseResponse:
    """Every page this server sends (the pane, ``commands.html``, any HTML under ``/static/``, the
    manifest, an error page) carries :data:`PAGE_POLICY`: a script injected into one is not run."""
    if response.mimetype in _PAGES:
        response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
    return response


@bp.get("/")
def root() -> BaseResponse:
    return redirect("/taskpane/")


@bp.get("/taskpane/")
def taskpane() -> Response:
    folder = current_app.config["STATIC_DIR"]
    if not os.path.isfile(os.path.join(folder, TASKPANE_PAGE)):
        raise NotFound("the task pane is not installed on this server")
    return send_from_directory(folder, TASKPANE_PAGE)


@bp.get("/manifest.xml")
def manifest() -> Response:
    path = current_app.config["MANIFEST_PATH"]
    if not os.path.isfile(path):
        raise NotFound("the add-in manifest is not installed on this server")
    return send_file(path, mimetype="application/xml")
