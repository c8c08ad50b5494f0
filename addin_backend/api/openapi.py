"""The OpenAPI 3.1 description of the service, built from one table of operations.

:data:`OPERATIONS` lists every route the app serves; a test checks it against
``app.url_map`` both ways, and schemathesis checks the live server against the document.
Errors common to all API routes (401 when keys are set, 429 when a rate limit is set, 503
when the store is down) are added here rather than repeated in the table.
"""
from __future__ import annotations

from typing import Any

from adapters.model import UNIT_KINDS, VIEWS

from .. import __version__
from ..documents import MEDIA_TYPES

__all__ = ["OPERATIONS", "SCHEMAS", "build_spec"]


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

_ERRORS = {
    400: "Invalid request (a query parameter or body that fails validation)",
    404: "No such document, unit or job (never made, deleted or expired)",
    413: "The upload is over the size limit, or unpacks beyond the limits (zip bomb)",
    415: "Not a .docx/.odt document, or a format we do not read",
    422: "Encrypted, corrupt, malformed or unsafe XML",
}


def _json(schema: str, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(schema)}}}


def _path_param(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": _ID}


def _query(name: str, schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": schema, "description": description}


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
    ("/api/v1/jobs/{job_id}", "get", {
        "operationId": "getJob", "summary": "Poll a job: status, stage, progress fraction",
        "parameters": [_path_param("job_id")], "responses": {200: _json("Job", "The job"), 404: None}}),
    ("/api/v1/jobs/{job_id}/events", "get", {
        "operationId": "jobEvents",
        "summary": "Follow a job as server-sent events: progress, then done, failed, error or timeout",
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
