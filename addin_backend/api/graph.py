"""Blueprint ``graph``: a document's dependency graph (JSON, GraphML, PNG) and the impact of an edit."""
from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..store import documents
from ..service import graphs
from ..service.graph_job import document_graph
from ..service.impact import DEFAULT_DEPTH, stored_impact
from .context import choice_arg, json_body, list_arg, runner, store
from .openapi import EDGE_TYPES

__all__ = ["bp"]

bp = Blueprint("graph", __name__, url_prefix="/api/v1/documents")


@bp.get("/<document_id>/graph")
def graph(document_id: str) -> Response:
    fmt = choice_arg("format", graphs.GRAPH_FORMATS, "json")
    types = list_arg("types", EDGE_TYPES)
    G = document_graph(store(), runner(), document_id)
    out = graphs.graph_export(G, fmt, types, title=documents.get_meta(store(), document_id)["filename"])
    if isinstance(out, dict):  # fmt == "json"
        return jsonify(document=document_id, **out)
    return Response(out, mimetype=graphs.GRAPH_MEDIA_TYPES[fmt])


@bp.post("/<document_id>/impact")
def impact(document_id: str) -> Response:
    body = json_body("ImpactRequest")
    return jsonify(stored_impact(store(), runner(), document_id, unit=body.get("unit"),
                                 selection=body.get("selection"), depth=int(body.get("depth", DEFAULT_DEPTH)),
                                 types=body.get("types")))
