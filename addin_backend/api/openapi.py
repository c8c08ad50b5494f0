"""The OpenAPI 3.1 description of the service, built from one table of operations.

:data:`OPERATIONS` lists every route the app serves; a test checks it against
``app.url_map`` both ways, and schemathesis checks the live server against the document.
Errors common to all API routes (401 when keys are set, 429 when a rate limit is set, 503
when the store is down) are added here rather than repeated in the table.
"""
from __future__ import annotations

from typing import Any

from adapters.model import EDIT_OPS, UNIT_KINDS, VIEWS

from .. import __version__
from ..documents import MEDIA_TYPES

__all__ = ["OPERATIONS", "SCHEMAS", "build_spec", "EDGE_TYPES", "STRATEGIES", "ENGINES", "VIEW_KEYS"]

#: The graph's edge types, retrieval strategies and engine names, spelled here so that building
#: this document imports neither the graph nor the engines (a test checks they agree).
EDGE_TYPES = ("CONTAINS", "REFERENCES", "DEPENDS", "RELATED")
STRATEGIES = ("ledger", "full", "window", "flat_rag", "hier_rag")
ENGINES = ("rules", "llm", "auto")
#: Display keys of an answered operation (``edits_service.VIEW_KEYS``), accepted back and dropped.
VIEW_KEYS = ("unit_label", "unit_kind", "after_label", "before_label", "dest_text")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(kind: str) -> dict[str, Any]:
    return {"type": [kind, "null"]}


_STR, _INT = {"type": "string"}, {"type": "integer"}
_ID = {"type": "string", "minLength": 1, "pattern": "^[A-Za-z0-9_.-]+$"}

SCHEMAS: dict[str, dict[str, Any]] = {
    "Error": {
        "type": "object", "required": ["error"],
        "properties": {"error": _ref("ErrorBody")},
    },
    "ErrorBody": {
        "type": "object", "required": ["code", "message"],
        "properties": {"code": _STR, "message": _STR, "category": _STR, "details": {"type": "object"}},
    },
    "Health": {
        "type": "object", "required": ["status", "version", "worker"],
        "properties": {"status": {"const": "ok"}, "version": _STR, "worker": _INT},
    },
    "Ready": {
        "type": "object", "required": ["status", "store"],
        "properties": {"status": {"const": "ready"}, "store": {"enum": ["sqlite", "redis"]}},
    },
    "Version": {
        "type": "object", "required": ["name", "version", "api", "formats", "store", "graph"],
        "properties": {"name": _STR, "version": _STR, "api": {"const": "v1"},
                       "formats": {"type": "array", "items": {"enum": list(MEDIA_TYPES)}},
                       "store": {"enum": ["sqlite", "redis"]}, "graph": {"type": "boolean"}},
    },
    "Job": {
        "type": "object",
        "required": ["id", "document", "kind", "status", "stage", "stages", "progress", "stage_progress",
                     "error", "result", "created", "updated", "links"],
        "properties": {
            "id": _STR, "document": _STR, "kind": _STR,
            "status": {"enum": ["queued", "running", "done", "failed"]},
            "stage": _STR, "stages": {"type": "array", "items": _STR},
            "progress": {"type": "number", "minimum": 0, "maximum": 1},
            "stage_progress": {"type": ["number", "null"], "minimum": 0, "maximum": 1},
            "error": {"oneOf": [_ref("ErrorBody"), {"type": "null"}]},
            "result": _nullable("object"),
            "created": {"type": "string", "format": "date-time"},
            "updated": {"type": "string", "format": "date-time"},
            "links": {"type": "object", "required": ["self", "events"],
                      "properties": {"self": _STR, "events": _STR}},
        },
    },
    "JobEvent": {
        "type": "object", "required": ["event", "data"],
        "properties": {"event": {"enum": ["progress", "done", "failed", "error", "timeout"]},
                       "data": {"type": "string", "contentMediaType": "application/json"}},
    },
    "Document": {
        "type": "object",
        "required": ["id", "format", "filename", "size", "sha256", "units", "warnings", "created",
                     "expires_in", "job", "links"],
        "properties": {
            "id": _STR, "format": {"enum": list(MEDIA_TYPES)}, "filename": _nullable("string"),
            "size": _INT, "sha256": _STR, "units": _INT, "warnings": _INT,
            "created": {"type": "string", "format": "date-time"},
            "expires_in": _nullable("integer"), "job": _ref("Job"),
            "links": {"type": "object", "required": ["self", "units", "outline"],
                      "properties": {"self": _STR, "units": _STR, "outline": _STR}},
        },
    },
    "Unit": {
        "type": "object", "required": ["id", "kind", "text", "order", "refs"],
        "properties": {
            "id": _STR, "kind": {"enum": list(UNIT_KINDS)}, "text": _STR, "order": _INT,
            "label": _nullable("string"), "number": _nullable("string"), "title": _nullable("string"),
            "parent": _nullable("string"), "style": _nullable("string"), "level": _INT,
            "refs": {"type": "array", "items": {"type": "object", "required": ["target", "field"],
                                                "properties": {"target": _STR, "field": _STR}}},
            "rejected_text": _STR, "fields": {"type": "array", "items": {"type": "object"}},
            "bookmarks": {"type": "array", "items": _STR},
            "comments": {"type": "array", "items": _STR}, "meta": {"type": "object"},
        },
    },
    "UnitList": {
        "type": "object", "required": ["document", "total", "offset", "units"],
        "properties": {"document": _STR, "total": _INT, "offset": _INT,
                       "units": {"type": "array", "items": _ref("Unit")}},
    },
    "OutlineNode": {
        "type": "object", "required": ["id", "kind", "label", "number", "title", "level", "children"],
        "properties": {"id": _STR, "kind": _STR, "label": _nullable("string"), "number": _nullable("string"),
                       "title": _nullable("string"), "level": _nullable("integer"),
                       "children": {"type": "array", "items": _ref("OutlineNode")}},
    },
    "Outline": {
        "type": "object", "required": ["document", "outline"],
        "properties": {"document": _STR, "outline": {"type": "array", "items": _ref("OutlineNode")}},
    },
    "Text": {
        "type": "object", "required": ["document", "view", "lines"],
        "properties": {"document": _STR, "view": {"enum": list(VIEWS)},
                       "lines": {"type": "array", "items": _STR}},
    },
}

_NULL_STR = _nullable("string")
_TEXT = {"type": "string", "maxLength": 100_000}
_NAME = {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "\\S"}
_UNIT_ID = {"type": "string", "minLength": 1, "maxLength": 200}
_OFFSET = {"type": "integer", "minimum": 0}
_BUDGET = {"type": "integer", "minimum": 1, "maximum": 1_000_000}
_INSTRUCTION = {"type": "string", "minLength": 1, "maxLength": 4000, "pattern": "\\S"}
_EDGE = {"enum": list(EDGE_TYPES)}
_OP_FIELDS: dict[str, Any] = {
    "id": {"type": "string", "maxLength": 200}, "op": {"enum": list(EDIT_OPS)}, "unit": _UNIT_ID,
    "text": _TEXT, "start": _OFFSET, "end": _OFFSET, "old": _TEXT, "after": _UNIT_ID, "before_unit": _UNIT_ID,
    "kind": {"enum": list(UNIT_KINDS)}, "style": {"type": "string", "maxLength": 255},
    "author": {"type": "string", "maxLength": 255}, "date": {"type": "string", "maxLength": 64},
    "reason": {"type": "string", "maxLength": 2000}, "before": _TEXT, "source": {"type": "string", "maxLength": 200},
}

SCHEMAS.update({
    "Selection": {
        "type": "object", "required": ["text"], "additionalProperties": False,
        "description": "Text the user selected; with unit, where it is (start/end: offsets into the unit's text)",
        "properties": {"text": {"type": "string", "minLength": 1, "maxLength": 100_000, "pattern": "\\S"},
                       "unit": _UNIT_ID, "start": _OFFSET, "end": _OFFSET},
    },
    "GraphNode": {
        "type": "object", "required": ["id", "kind", "label"],
        "properties": {"id": _STR, "kind": _STR, "label": _NULL_STR, "order": _nullable("integer"),
                       "parent": _NULL_STR, "preview": _NULL_STR},
    },
    "GraphEdge": {
        "type": "object", "required": ["source", "target", "type", "evidence", "score"],
        "description": "REFERENCES citing -> cited, DEPENDS dependent -> prerequisite, CONTAINS parent -> child, "
                       "RELATED both ways (one edge each way)",
        "properties": {"source": _STR, "target": _STR, "type": _EDGE, "evidence": _STR, "score": {"type": "number"},
                       "origin": _STR, "start": _INT, "end": _INT},
    },
    "BrokenReference": {
        "type": "object", "required": ["source", "mention", "label", "start", "end", "reason"],
        "properties": {"source": _STR, "mention": _STR, "label": _STR, "start": _INT, "end": _INT, "reason": _STR},
    },
    "Graph": {
        "type": "object", "required": ["nodes", "edges", "stats", "broken_references", "complete", "stages"],
        "properties": {"nodes": {"type": "array", "items": _ref("GraphNode")},
                       "edges": {"type": "array", "items": _ref("GraphEdge")},
                       "stats": {"type": "object"}, "complete": {"type": "boolean"},
                       "stages": {"type": "array", "items": _STR},
                       "broken_references": {"type": "array", "items": _ref("BrokenReference")}},
    },
    "ImpactRequest": {
        "description": "A unit, or a selection; depth (default 2) and edge types (default REFERENCES, DEPENDS)",
        "oneOf": [
            {"type": "object", "required": [which], "additionalProperties": False,
             "properties": {which: _UNIT_ID if which == "unit" else _ref("Selection"),
                            "depth": {"type": "integer", "minimum": 1, "maximum": 10},
                            "types": {"type": "array", "items": _EDGE, "minItems": 1, "uniqueItems": True}}}
            for which in ("unit", "selection")
        ],
    },
    "Target": {
        "type": "object", "required": ["unit", "label", "kind", "start", "end", "units", "how"],
        "properties": {"unit": _STR, "label": _NULL_STR, "kind": _STR, "start": _nullable("integer"),
                       "end": _nullable("integer"), "units": {"type": "array", "items": _STR}, "how": _STR},
    },
    "Impact": {
        "type": "object",
        "required": ["document", "complete", "target", "depth", "types", "references", "impacted", "broken_references"],
        "properties": {
            "document": _STR, "complete": {"type": "boolean"}, "target": _ref("Target"), "depth": _INT,
            "types": {"type": "array", "items": _EDGE},
            "references": {"type": "array", "items": {
                "type": "object", "required": ["unit", "label", "kind", "type", "evidence", "score", "from"],
                "properties": {"unit": _STR, "label": _NULL_STR, "kind": _NULL_STR, "type": _EDGE, "evidence": _STR,
                               "score": {"type": "number"}, "from": _STR, "start": _INT, "end": _INT}}},
            "impacted": {"type": "array", "items": {
                "type": "object", "required": ["unit", "label", "kind", "via", "distance", "score"],
                "properties": {"unit": _STR, "label": _NULL_STR, "kind": _NULL_STR, "distance": _INT,
                               "score": {"type": "number"},
                               "via": {"type": "array", "items": {
                                   "type": "object", "required": ["type", "from", "to", "evidence", "score"],
                                   "properties": {"type": _EDGE, "from": _STR, "to": _STR, "evidence": _STR,
                                                  "score": {"type": "number"}}}}}}},
            "broken_references": {"type": "array", "items": _ref("BrokenReference")},
        },
    },
    "ContextRequest": {
        "type": "object", "required": ["instruction"], "additionalProperties": False,
        "properties": {"instruction": _INSTRUCTION, "target": _UNIT_ID, "selection": _ref("Selection"),
                       "budget": _BUDGET, "strategy": {"enum": list(STRATEGIES)}},
    },
    "Context": {
        "type": "object",
        "required": ["document", "strategy", "targets", "candidates", "context", "tokens", "document_tokens",
                     "budget", "dropped", "complete"],
        "properties": {
            "document": _STR, "strategy": {"enum": list(STRATEGIES)}, "targets": {"type": "array", "items": _STR},
            "candidates": {"type": "array", "items": {"type": "object"}},
            "context": {"type": "array", "items": {
                "type": "object", "required": ["id", "edge", "hops", "priority", "tokens", "reason", "text"],
                "properties": {"id": _STR, "edge": _STR, "hops": _INT, "priority": _nullable("number"),
                               "tokens": _INT, "reason": _STR, "text": _STR, "kind": _STR, "label": _NULL_STR,
                               "direction": _STR, "summarised": {"type": "boolean"}}}},
            "tokens": _INT, "document_tokens": _INT, "budget": _nullable("integer"),
            "dropped": {"type": "array", "items": {"type": "object"}}, "weights": _nullable("object"),
            "seconds": {"type": "number"}, "complete": _nullable("boolean"),
        },
    },
    "ProposalRequest": {
        "type": "object", "required": ["instruction"], "additionalProperties": False,
        "properties": {"instruction": _INSTRUCTION, "target": _UNIT_ID, "selection": _ref("Selection"),
                       "engine": {"enum": list(ENGINES)}, "author": _NAME, "budget": _BUDGET},
    },
    "OperationIn": {
        "type": "object", "required": ["op"], "additionalProperties": False,
        "description": "One adapters.model.Edit as JSON; the display keys of an answered operation may be sent back",
        "properties": {**_OP_FIELDS, **{k: _NULL_STR for k in VIEW_KEYS}},
    },
    "Operation": {
        "type": "object", "required": ["id", "op", "author", "unit_label", "unit_kind"],
        "description": "Edit JSON plus old (= before[start:end] of a replace), unit_label, unit_kind, and for a "
                       "move after_label or before_label with dest_text. source: the engine's name on its own "
                       "operations, the id of the operation it follows from on a propagated one",
        "properties": {**_OP_FIELDS, **{k: _NULL_STR for k in VIEW_KEYS}},
    },
    "Finding": {
        "type": "object", "required": ["code", "kind", "severity", "unit", "message"],
        "properties": {"code": _STR, "kind": _STR, "severity": {"enum": ["error", "warning", "info"]},
                       "unit": _NULL_STR, "message": _STR, "evidence": _STR,
                       "related": {"type": "array", "items": _STR}, "start": _INT, "end": _INT, "suggestion": _STR},
    },
    "Proposal": {
        "type": "object",
        "required": ["id", "document", "instruction", "engine", "author", "explanation", "targets", "operations",
                     "propagated", "findings", "warnings", "context_tokens", "document_tokens", "usage",
                     "graph_complete", "created"],
        "properties": {
            "id": _STR, "document": _STR, "instruction": _STR, "engine": _STR, "author": _STR, "explanation": _STR,
            "targets": {"type": "array", "items": _STR},
            "operations": {"type": "array", "items": _ref("Operation")},
            "propagated": {"type": "array", "items": _STR},
            "findings": {"type": "array", "items": _ref("Finding")},
            "warnings": {"type": "array", "items": _STR}, "renumbered": {"type": "object"},
            "context": {"type": "array", "items": {"type": "object"}},
            "context_tokens": _INT, "document_tokens": _nullable("integer"), "budget": _nullable("integer"),
            "usage": _nullable("object"), "graph_complete": {"type": "boolean"},
            "created": {"type": "string", "format": "date-time"},
        },
    },
    "ProposalJob": {
        "type": "object", "required": ["job"],
        "properties": {"job": _ref("Job")},
    },
    "ApplyRequest": {
        "oneOf": [
            {"type": "object", "required": ["proposal_id", "author"], "additionalProperties": False,
             "properties": {"proposal_id": _ID, "author": _NAME, "instruction": _INSTRUCTION,
                            "operations": {"type": "array", "items": {"type": "string", "minLength": 1},
                                           "minItems": 1, "uniqueItems": True}}},
            {"type": "object", "required": ["operations", "author"], "additionalProperties": False,
             "properties": {"author": _NAME, "instruction": _INSTRUCTION,
                            "operations": {"type": "array", "items": _ref("OperationIn"), "minItems": 1}}},
        ],
    },
    "Applied": {
        "type": "object",
        "required": ["document", "revision", "author", "instruction", "proposal", "operations", "skipped",
                     "findings", "created", "download"],
        "properties": {
            "document": _STR, "revision": {"type": "integer", "minimum": 1}, "author": _STR,
            "instruction": _NULL_STR, "proposal": _NULL_STR,
            "operations": {"type": "array", "items": _ref("Operation")},
            "skipped": {"type": "array", "items": {"type": "object", "required": ["id", "reason"],
                                                   "properties": {"id": _STR, "reason": _STR}}},
            "findings": {"type": "array", "items": _ref("Finding")},
            "created": {"type": "string", "format": "date-time"}, "download": _STR,
        },
    },
    "Check": {
        "type": "object", "required": ["document", "revision", "findings"],
        "properties": {"document": _STR, "revision": _nullable("integer"),
                       "findings": {"type": "array", "items": _ref("Finding")}},
    },
})

_ERRORS = {
    400: "Invalid request (a query parameter or body that fails validation)",
    404: "No such document, unit, job, proposal or revision (never made, deleted or expired)",
    409: "The graph job has not stored a graph yet (graph_not_ready, with the job), or an operation's "
         "before no longer matches the unit (edit_conflict)",
    413: "The request is over the size limit (LEDGER_MAX_UPLOAD_MB), or an upload unpacks beyond the limits "
         "(zip bomb)",
    415: "Not a .docx/.odt document, or a format we do not read",
    422: "Encrypted, corrupt, malformed or unsafe XML; or an instruction the engine does not understand",
}


def _json(schema: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(schema)}}}


def _path_param(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": _ID}


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


def _body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": _ref(schema)}}}


_TYPES_PATTERN = f"^({'|'.join(EDGE_TYPES)})(,({'|'.join(EDGE_TYPES)}))*$"
_DOC = _path_param("document_id")
_BINARY = {"schema": {"type": "string", "format": "binary"}}

#: (path, method, operation). Responses list only the success and the errors specific to it.
OPERATIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("/healthz", "get", {
        "operationId": "healthz", "summary": "Liveness: the worker answers",
        "responses": {200: _json("Health", "Alive")}}),
    ("/readyz", "get", {
        "operationId": "readyz", "summary": "Readiness: the store answers",
        "responses": {200: _json("Ready", "Ready"), 503: "The store cannot be reached"}}),
    ("/api/v1/openapi.json", "get", {
        "operationId": "openapi", "summary": "This document",
        "responses": {200: {"description": "OpenAPI 3.1",
                            "content": {"application/json": {"schema": {"type": "object"}}}}}}),
    ("/api/v1/version", "get", {
        "operationId": "version", "summary": "Service version and capabilities",
        "responses": {200: _json("Version", "Version")}}),
    ("/api/v1/documents", "post", {
        "operationId": "uploadDocument",
        "summary": "Upload a .docx/.odt (raw body or multipart 'file'); starts the graph job",
        "parameters": [_query("filename", {"type": "string", "maxLength": 255},
                              "File name for a raw-body upload")],
        "requestBody": {"required": True, "content": {
            **{media: _BINARY for media in MEDIA_TYPES.values()},
            "application/octet-stream": _BINARY,
            "multipart/form-data": {"schema": {"type": "object", "required": ["file"], "properties": {
                "file": {"type": "string", "format": "binary"}}}},
        }},
        "responses": {201: {**_json("Document", "Read and stored; the graph job has started"),
                            "headers": {"Location": {"schema": _STR}}},
                      400: None, 413: None, 415: None, 422: None}}),
    ("/api/v1/documents/{document_id}", "get", {
        "operationId": "getDocument", "summary": "Status of a document and of its graph job",
        "parameters": [_DOC], "responses": {200: _json("Document", "The document"), 404: None}}),
    ("/api/v1/documents/{document_id}", "delete", {
        "operationId": "deleteDocument", "summary": "Delete a document and everything kept for it",
        "parameters": [_DOC], "responses": {204: {"description": "Deleted"}, 404: None}}),
    ("/api/v1/documents/{document_id}/units", "get", {
        "operationId": "listUnits", "summary": "Units in document order (a page of them)",
        "parameters": [_DOC, _query("kind", {"enum": list(UNIT_KINDS)}, "Only units of this kind"),
                       _query("offset", {"type": "integer", "minimum": 0}, "Units to skip"),
                       _query("limit", {"type": "integer", "minimum": 1}, "Units to return at most")],
        "responses": {200: _json("UnitList", "Units"), 400: None, 404: None}}),
    ("/api/v1/documents/{document_id}/units/{unit_id}", "get", {
        "operationId": "getUnit", "summary": "One unit",
        "parameters": [_DOC, _path_param("unit_id")],
        "responses": {200: _json("Unit", "The unit"), 404: None}}),
    ("/api/v1/documents/{document_id}/outline", "get", {
        "operationId": "getOutline", "summary": "Titles and sections as a tree, with labels and numbers",
        "parameters": [_DOC], "responses": {200: _json("Outline", "The outline"), 404: None}}),
    ("/api/v1/documents/{document_id}/text", "get", {
        "operationId": "getText", "summary": "Visible text, one paragraph per line",
        "parameters": [_DOC, _query("view", {"enum": list(VIEWS)}, "Existing tracked changes accepted or rejected")],
        "responses": {200: _json("Text", "The text"), 400: None, 404: None}}),
    ("/api/v1/documents/{document_id}/file", "get", {
        "operationId": "getFile", "summary": "The uploaded file, byte for byte",
        "parameters": [_DOC],
        "responses": {200: {"description": "The file",
                            "content": {media: _BINARY for media in MEDIA_TYPES.values()}},
                      404: None}}),
    ("/api/v1/documents/{document_id}/graph", "get", {
        "operationId": "getGraph",
        "summary": "The dependency graph: JSON, GraphML or PNG; complete is false while DEPENDS/RELATED are built",
        "parameters": [_DOC, _query("format", {"enum": ["json", "graphml", "png"]}, "json (default), graphml or png"),
                       _query("types", {"type": "string", "pattern": _TYPES_PATTERN},
                              "Only edges of these types, comma-separated (CONTAINS,REFERENCES,DEPENDS,RELATED)")],
        "responses": {200: {"description": "The graph",
                            "content": {"application/json": {"schema": _ref("Graph")},
                                        "application/graphml+xml": {"schema": _STR},
                                        "image/png": _BINARY}},
                      400: None, 404: None, 409: None}}),
    ("/api/v1/documents/{document_id}/impact", "post", {
        "operationId": "getImpact",
        "summary": "What a unit or selection references, what depends on it (edge types, evidence, distance), "
                   "its broken references",
        "parameters": [_DOC], "requestBody": _body("ImpactRequest"),
        "responses": {200: _json("Impact", "The impact"), 400: None, 404: None, 409: None, 413: None}}),
    ("/api/v1/documents/{document_id}/context", "post", {
        "operationId": "getContext", "summary": "The context retrieval packs for an edit, with the texts",
        "parameters": [_DOC], "requestBody": _body("ContextRequest"),
        "responses": {200: _json("Context", "The packed context"), 400: None, 404: None, 409: None, 413: None}}),
    ("/api/v1/documents/{document_id}/proposals", "post", {
        "operationId": "createProposal",
        "summary": "Plan an instruction: operations (with propagated ones), findings, explanation; nothing is written",
        "parameters": [_DOC], "requestBody": _body("ProposalRequest"),
        "responses": {201: {**_json("Proposal", "The proposal"), "headers": {"Location": {"schema": _STR}}},
                      202: _json("ProposalJob", "The graph is still being built: follow the job; its result "
                                                "is the proposal"),
                      400: None, 404: None, 413: None, 422: None}}),
    ("/api/v1/documents/{document_id}/proposals/{proposal_id}", "get", {
        "operationId": "getProposal", "summary": "A proposal made earlier",
        "parameters": [_DOC, _path_param("proposal_id")],
        "responses": {200: _json("Proposal", "The proposal"), 404: None}}),
    ("/api/v1/documents/{document_id}/apply", "post", {
        "operationId": "applyOperations",
        "summary": "Write a proposal's operations (or given ones) into the original upload as tracked changes",
        "parameters": [_DOC], "requestBody": _body("ApplyRequest"),
        "responses": {201: {**_json("Applied", "Applied; the revision's file is at download"),
                            "headers": {"Location": {"schema": _STR}}},
                      400: None, 404: None, 409: None, 413: None, 422: None}}),
    ("/api/v1/documents/{document_id}/revisions/{rev}/file", "get", {
        "operationId": "getRevisionFile", "summary": "An applied revision: the document with native tracked changes",
        "parameters": [_DOC, {"name": "rev", "in": "path", "required": True,
                              "schema": {"type": "integer", "minimum": 1}}],
        "responses": {200: {"description": "The file (attachment <name>.ledger.docx or .odt)",
                            "content": {media: _BINARY for media in MEDIA_TYPES.values()}},
                      404: None}}),
    ("/api/v1/documents/{document_id}/check", "get", {
        "operationId": "checkDocument",
        "summary": "Document-wide findings (broken references, numbering, acronyms, spellings) of the upload "
                   "or of a revision",
        "parameters": [_DOC, _query("revision", {"type": "integer", "minimum": 1}, "Check this applied revision")],
        "responses": {200: _json("Check", "The findings"), 400: None, 404: None}}),
    ("/api/v1/jobs/{job_id}", "get", {
        "operationId": "getJob", "summary": "Poll a job: status, stage, progress fraction",
        "parameters": [_path_param("job_id")], "responses": {200: _json("Job", "The job"), 404: None}}),
    ("/api/v1/jobs/{job_id}/events", "get", {
        "operationId": "jobEvents",
        "summary": "Follow a job as server-sent events: progress, then done, failed, error or timeout "
                   "(needs the Authorization header when keys are set: browsers poll the job instead)",
        "parameters": [_path_param("job_id")],
        "responses": {200: {"description": "Event stream; each event's data is the job as JSON",
                            "content": {"text/event-stream": {"schema": _ref("JobEvent")}}},
                      404: None}}),
]


def _operation(path: str, op: dict[str, Any], keys: bool, rate: bool) -> dict[str, Any]:
    responses: dict[str, Any] = {}
    for status, response in op["responses"].items():
        if response is None:
            response = _json("Error", _ERRORS[status])
        elif isinstance(response, str):
            response = _json("Error", response)
        responses[str(status)] = response
    # The WSGI server itself refuses over-long request lines before the app sees them.
    responses["414"] = {"description": "Request line too long (answered by the server, not the app)",
                        "content": {"text/html": {"schema": _STR}}}
    if path.startswith("/api/"):
        if keys:
            responses["401"] = _json("Error", "Missing or unknown API key")
        if rate:
            responses["429"] = {**_json("Error", "Rate limit reached"),
                                "headers": {"Retry-After": {"schema": _INT}}}
        responses.setdefault("503", _json("Error", "The store cannot be reached"))
    out = {k: v for k, v in op.items() if k != "responses"}
    out["responses"] = responses
    if not path.startswith("/api/"):
        out["security"] = []
    return out


def build_spec(keys: bool = False, rate: bool = False) -> dict[str, Any]:
    """The OpenAPI document for an app with (or without) API keys and a rate limit."""
    paths: dict[str, dict[str, Any]] = {}
    for path, method, op in OPERATIONS:
        paths.setdefault(path, {})[method] = _operation(path, op, keys, rate)
    spec: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "LEDGER add-in backend", "version": __version__,
                 "description": "Dependency-aware editing of long .docx/.odt documents."},
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {"schemas": SCHEMAS},
    }
    if keys:
        spec["components"]["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
        spec["security"] = [{"bearer": []}]
    return spec
