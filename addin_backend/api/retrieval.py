"""Blueprint ``retrieval``: the context that retrieval packs for an edit, with the texts."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from .. import documents, service
from .context import json_body, runner, store

__all__ = ["bp"]

bp = Blueprint("retrieval", __name__, url_prefix="/api/v1/documents")


@bp.post("/<document_id>/context")
def context(document_id: str) -> Response:
    body = json_body("ContextRequest")
    doc = documents.load(store(), document_id)
    G = service.document_graph(store(), runner(), document_id, doc)
    out = service.context(doc, G, instruction=body["instruction"], target=body.get("target"),
                          selection=body.get("selection"), budget=int(body.get("budget", 1500)),
                          strategy=body.get("strategy", "ledger"), semantic=current_app.config["GRAPH_SEMANTIC"])
    return jsonify(document=document_id, **out)
