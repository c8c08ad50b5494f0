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
from ..store.documents import MEDIA_TYPES
from .schemas import EDGE_TYPES, ENGINES, SCHEMAS, STRATEGIES, VIEW_KEYS
from .schemas import ID as _ID, INT as _INT, STR as _STR, STYLE as _STYLE, ref as _ref

__all__ = ["OPERATIONS", "SCHEMAS", "build_spec", "EDGE_TYPES", "STRATEGIES", "ENGINES", "VIEW_KEYS"]

_ERRORS = {
    400: "Invalid request (a query parameter or body that fails validation)",
    404: "No such document, unit, job, proposal, revision or style sheet (never made, deleted or expired)",
    409: "The graph job has not stored a graph yet (graph_not_ready, with the job), or an operation's "
         "before no longer matches the unit (edit_conflict)",
    413: "The request is over the size limit (LEDGER_MAX_UPLOAD_MB), an upload unpacks beyond the limits "
         "(zip bomb), an apply's memory, estimated before the work, is over LEDGER_WORK_MEMORY_MB, or a rename's, "
         "review's or check's cost, estimated before the work, is over LEDGER_MAX_<KIND>_COST (too_large)",
    415: "Not a .docx/.odt document, or a format we do not read",
    507: "What the client keeps would pass its quota (LEDGER_QUOTA_MB), or one thing derived from a document "
         "(a proposal, a revision) is over LEDGER_MAX_DERIVED_MB (quota_exceeded)",
    422: "Encrypted, corrupt, malformed or unsafe XML; an instruction the engine does not understand, or one that "
         "reads two ways on the document (ambiguous_instruction, with the readings)",
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
#: A document sent to the server: raw (a document media type) or a multipart form's ``file``.
_DOCUMENT_BODY = {"required": True, "content": {
    **{media: _BINARY for media in MEDIA_TYPES.values()},
    "application/octet-stream": _BINARY,
    "multipart/form-data": {"schema": {"type": "object", "required": ["file"], "properties": {
        "file": {"type": "string", "format": "binary"}}}},
}}
_STYLE_NAME = {"name": "name", "in": "path", "required": True, "schema": _STYLE}
#: A style sheet's TOML: some text.
_TOML = {"type": "string", "pattern": "\\S"}

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
        "requestBody": _DOCUMENT_BODY,
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
                      202: _json("ProposalJob", "The graph is still being built, a model may be called, or the "
                                                "rename is large (LEDGER_SYNC_RENAME_COST): follow the job; its "
                                                "result is the proposal"),
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
    ("/api/v1/documents/{document_id}/revisions/{rev}/review", "post", {
        "operationId": "reviewRevision",
        "summary": "The revision's file as it came back from review: each operation accepted, rejected or "
                   "pending, and the findings of what the review leaves",
        "parameters": [_DOC, {"name": "rev", "in": "path", "required": True,
                              "schema": {"type": "integer", "minimum": 1}}],
        "requestBody": _DOCUMENT_BODY,
        "responses": {200: _json("Review", "The review"),
                      202: _json("ProposalJob", "A large review (LEDGER_SYNC_REVIEW_COST): follow the job; its "
                                                "result is the review"),
                      400: None, 404: None, 413: None, 415: None, 422: None, 507: None}}),
    ("/api/v1/documents/{document_id}/check", "get", {
        "operationId": "checkDocument",
        "summary": "Document-wide findings (broken references, numbering, acronyms, spellings) of the upload "
                   "or of a revision",
        "parameters": [_DOC, _query("revision", {"type": "integer", "minimum": 1}, "Check this applied revision"),
                       _query("style", _STYLE, "The uploaded house style sheet to check against (default: LEDGER_STYLE)")],
        "responses": {200: _json("Check", "The findings"), 400: None, 404: None}}),
    ("/api/v1/documents/{document_id}/check/fix", "post", {
        "operationId": "fixFindings",
        "summary": "Fix findings of the check as tracked changes: a proposal to preview (apply it with /apply), "
                   "or applied at once",
        "parameters": [_DOC], "requestBody": _body("FixRequest"),
        "responses": {201: _json("Proposal", "The fixes as a proposal (or, with apply, the Applied revision)"),
                      400: None, 404: None, 409: None, 422: None}}),
    ("/api/v1/styles/{name}", "put", {
        "operationId": "putStyleSheet", "summary": "Upload a team's house style sheet (TOML); checked on the way in",
        "parameters": [_STYLE_NAME],
        "requestBody": {"required": True, "content": {"application/toml": {"schema": _TOML},
                                                      "text/plain": {"schema": _TOML}}},
        "responses": {201: _json("StyleSheet", "The sheet as read"), 400: None}}),
    ("/api/v1/styles/{name}", "get", {
        "operationId": "getStyleSheet", "summary": "An uploaded house style sheet",
        "parameters": [_STYLE_NAME],
        "responses": {200: _json("StyleSheet", "The sheet"), 400: None, 404: None}}),
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
                      404: None,
                      429: {**_json("Error", "The client holds LEDGER_SSE_PER_CLIENT open streams already"),
                            "headers": {"Retry-After": {"schema": _INT}}}}}),
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
