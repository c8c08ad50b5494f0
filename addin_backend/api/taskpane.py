"""Blueprint ``taskpane``: the task pane page and the add-in manifest (``/static/`` is Flask's own)."""
from __future__ import annotations

import os

from flask import Blueprint, Response, current_app, redirect, send_file, send_from_directory
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response as BaseResponse

__all__ = ["bp", "TASKPANE_PAGE"]

bp = Blueprint("taskpane", __name__)

#: The page the manifest's SourceLocation points at, inside the static folder.
TASKPANE_PAGE = "taskpane.html"


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
