"""Blueprint ``retrieval``: the context that retrieval packs for an edit, with the texts."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from ..service.context import DEFAULT_BUDGET, stored_context
from .context import json_body, runner, store

__all__ = ["bp"]

bp = Blueprint("retrieval", __name__, url_prefix="/api/v1/documents")


@bp.post("/<document_id>/context")
def context(document_id: str) -> Response:
    body = json_body("ContextRequest")
    out = stored_context(store(), runner(), document_id, instruction=body["instruction"], target=body.get("target"),
                         selection=body.get("selection"), budget=int(body.get("budget", DEFAULT_BUDGET)),
                         strategy=body.get("strategy", "ledger"), weights=body.get("weights"),
                         semantic=current_app.config["GRAPH_SEMANTIC"])
    return jsonify(out)
