"""Blueprint ``check``: document-wide findings of an upload or of one of its applied revisions."""
from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..service.checks import check_stored
from .context import int_arg, store

__all__ = ["bp"]

bp = Blueprint("check", __name__, url_prefix="/api/v1/documents")


@bp.get("/<document_id>/check")
def check(document_id: str) -> Response:
    revision = int_arg("revision", None, minimum=1)
    return jsonify(check_stored(store(), document_id, revision))
