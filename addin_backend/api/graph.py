"""Blueprint ``graph``: a document's dependency graph (JSON, GraphML, PNG) and the impact of an edit."""
from __future__ import annotations

from flask import Blueprint, Response, jsonify

from .. import analysis, documents, service
from ..impact import DEFAULT_DEPTH, IMPACT_TYPES, impact as impact_of, resolve_target
from .context import choice_arg, json_body, list_arg, runner, store
from .openapi import EDGE_TYPES

__all__ = ["bp"]

bp = Blueprint("graph", __name__, url_prefix="/api/v1/documents")


@bp.get("/<document_id>/graph")
def graph(document_id: str) -> Response:
    fmt = choice_arg("format", service.GRAPH_FORMATS, "json")
    types = list_arg("types", EDGE_TYPES)
    G = service.document_graph(store(), runner(), document_id)
    out = service.graph_export(G, fmt, types, title=documents.get_meta(store(), document_id)["filename"])
    if fmt == "json":
        return jsonify(document=document_id, **out)  # type: ignore[arg-type]
    return Response(out, mimetype=service.GRAPH_MEDIA_TYPES[fmt])


@bp.post("/<document_id>/impact")
def impact(document_id: str) -> Response:
    body = json_body("ImpactRequest")
    doc = documents.load(store(), document_id)
    G = service.document_graph(store(), runner(), document_id, doc)
    target = resolve_target(doc, body.get("unit"), body.get("selection"))
    out = impact_of(doc, G, target, depth=int(body.get("depth", DEFAULT_DEPTH)),
                    types=body.get("types") or IMPACT_TYPES)
    return jsonify(document=document_id, complete=analysis.is_complete(G), **out)
