"""The JSON schemas of the OpenAPI document: responses, and the request bodies the views validate.

``api/context.py: json_body(name)`` validates a request body against ``SCHEMAS[name]``, so the
document and the server accept exactly the same bodies.
"""
from __future__ import annotations

import re

from typing import Any

from adapters.model import EDIT_OPS, UNIT_KINDS, VIEWS
from adapters.vocabulary import EDGE_TYPES, ENGINES, NAME_POLICIES, STRATEGIES

from ..store.documents import MEDIA_TYPES
from ..findings import FINDING_KINDS
from ..service.context import EDGE_WEIGHTS, MAX_HOPS, WEIGHTS_SPEC
from ..service.styles import STYLE_NAME

__all__ = ["control_character", "SCHEMAS", "EDGE_TYPES", "STRATEGIES", "ENGINES", "VIEW_KEYS", "ref", "nullable", "STR", "INT", "ID",
           "STYLE"]

#: The graph's edge types, retrieval strategies and engine names come from the vocabulary, so
#: building this document imports neither the graph nor the engines.
#: Display keys of an answered operation (``service.edits.VIEW_KEYS``), accepted back and dropped.
VIEW_KEYS = ("unit_label", "unit_kind", "after_label", "before_label", "dest_text", "comment")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(kind: str) -> dict[str, Any]:
    return {"type": [kind, "null"]}


_STR, _INT = {"type": "string"}, {"type": "integer"}
_ID = {"type": "string", "minLength": 1, "pattern": "^[A-Za-z0-9_.-]+$"}
#: A style sheet's name, as the store takes it.
STYLE = {"type": "string", "pattern": STYLE_NAME.pattern}

#: Apply's switches for the comments that say why (on by default; replies instead of own comments).
_COMMENT_FLAGS = {"comments": {"type": "boolean"}, "comment_threads": {"type": "boolean"}}

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
            "beat": {"type": "number", "description": "seconds between the heartbeats of the process that holds the "
                     "job (embedded mode); silent for 15 s, the job is failed with job_lost"},
            "links": {"type": "object", "required": ["self", "events"],
                      "properties": {"self": _STR, "events": _STR}},
            "stage_log": {"type": "array", "description": "a graph job: every stage it runs, in order",
                          "items": {"type": "object", "required": ["name", "status", "seconds"],
                                    "properties": {"name": _STR,
                                                   "status": {"enum": ["done", "running", "waiting"]},
                                                   "seconds": {"type": ["number", "null"]}}}},
            "ready": {"type": "array", "description": "a graph job: what a client can use now",
                      "items": {"enum": ["outline", "units", "check", "graph", "impact", "proposals",
                                         "depends", "findings", "related"]}},
            "edges": {"type": "array", "description": "a graph job: the edge types of the graph stored now",
                      "items": {"enum": ["CONTAINS", "REFERENCES", "DEPENDS", "RELATED"]}},
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
#: The characters XML 1.0 cannot hold (C0 controls but tab, newline and carriage return;
#: U+FFFE, U+FFFF), and the pattern of text written into a document, which must have none.
XML_CONTROL = "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\ufffe\\uffff"
XML_CHARS = f"^[^{XML_CONTROL}]*$"
_XML_CONTROL = re.compile(f"[{XML_CONTROL}]")


def control_character(text: str) -> str | None:
    """What is wrong with ``text`` when it holds a character no document can (a C0 control but
    tab and line breaks, U+FFFE, U+FFFF), in the words both doors answer; else ``None``.

    >>> control_character("Ada\\x00"), control_character("two\\nlines")
    ('U+0000 is a control character a document cannot hold', None)
    """
    m = _XML_CONTROL.search(text)
    return None if m is None else f"U+{ord(m.group()):04X} is a control character a document cannot hold"


_TEXT = {"type": "string", "maxLength": 100_000, "pattern": XML_CHARS}
_NAME = {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "\\S", "allOf": [{"pattern": XML_CHARS}]}
_UNIT_ID = {"type": "string", "minLength": 1, "maxLength": 200}
_OFFSET = {"type": "integer", "minimum": 0}
_BUDGET = {"type": "integer", "minimum": 1, "maximum": 1_000_000}
_INSTRUCTION = {"type": "string", "minLength": 1, "maxLength": 4000, "pattern": "\\S", "allOf": [{"pattern": XML_CHARS}]}
_EDGE = {"enum": list(EDGE_TYPES)}
#: Retrieval weights, as ``ledger context --weights`` takes them: the spec string, or the same as
#: an object. Both forms describe exactly what ``service.context.parse_weights`` accepts.
_WEIGHT = {"type": "number", "minimum": 0}
_WEIGHTS = {
    "description": "Edge-type priorities and their decay per hop, as ledger context --weights takes them: "
                   "'REFERENCES=100,DEPENDS=50,CONTAINS=30,RELATED=10,decay=0.5,max_hops=2' (any subset, "
                   "names in any case), or the same as an object",
    "oneOf": [
        {"type": "string", "maxLength": 500, "pattern": f"^(?:{WEIGHTS_SPEC})?$"},
        {"type": "object", "additionalProperties": False,
         "properties": {**{w: _WEIGHT for w in EDGE_WEIGHTS}, "decay": {"type": "number", "minimum": 0, "maximum": 1},
                        "max_hops": {"type": "integer", "minimum": 0, "maximum": MAX_HOPS}}},
    ],
}
_OP_FIELDS: dict[str, Any] = {
    "id": {"type": "string", "maxLength": 200}, "op": {"enum": list(EDIT_OPS)}, "unit": _UNIT_ID,
    "text": _TEXT, "start": _OFFSET, "end": _OFFSET, "old": _TEXT, "after": _UNIT_ID, "before_unit": _UNIT_ID,
    "kind": {"enum": list(UNIT_KINDS)}, "style": {"type": "string", "maxLength": 255},
    "author": {"type": "string", "maxLength": 255, "pattern": XML_CHARS}, "date": {"type": "string", "maxLength": 64},
    "reason": {"type": "string", "maxLength": 2000, "pattern": XML_CHARS}, "before": _TEXT, "source": {"type": "string", "maxLength": 200},
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
            "partial": {"type": "array", "items": _EDGE,
                        "description": "edge types the graph job has not built yet: ask again later for them"},
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
                       "budget": _BUDGET, "strategy": {"enum": list(STRATEGIES)}, "weights": _WEIGHTS},
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
                       "engine": {"enum": list(ENGINES)}, "author": _NAME, "budget": _BUDGET,
                       "names": {"enum": list(NAME_POLICIES), "default": "auto",
                                 "description": "a rename and the term inside a longer name of its own "
                                                "('Destination Connection ID' for 'connection ID'): auto follows "
                                                "the document's usage, rename renames inside names too, keep keeps "
                                                "every capitalised use; the instruction's words ('including "
                                                "names') win"}},
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
                       "related": {"type": "array", "items": _STR}, "start": _INT, "end": _INT, "suggestion": _STR,
                       "id": _STR, "rule": _STR, "fixable": {"type": "boolean"},
                       "places": {"type": "array", "items": {
                           "type": "object", "required": ["unit", "start", "end", "text"],
                           "properties": {"unit": _STR, "start": _INT, "end": _INT, "text": _STR,
                                          "replacement": _STR}}}},
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
            "partial": {"type": "array", "items": {"enum": ["CONTAINS", "REFERENCES", "DEPENDS", "RELATED"]},
                        "description": "edge types the graph did not have yet when the proposal was made "
                                       "(its job was still building them): not used"},
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
                                           "minItems": 1, "uniqueItems": True}, **_COMMENT_FLAGS}},
            {"type": "object", "required": ["operations", "author"], "additionalProperties": False,
             "properties": {"author": _NAME, "instruction": _INSTRUCTION,
                            "operations": {"type": "array", "items": _ref("OperationIn"), "minItems": 1},
                            **_COMMENT_FLAGS}},
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
                                                   "properties": {"id": _STR, "source": _STR, "reason": _STR}}},
            "findings": {"type": "array", "items": _ref("Finding")},
            "created": {"type": "string", "format": "date-time"}, "download": _STR,
        },
    },
    "Review": {
        "type": "object", "required": ["document", "revision", "operations", "findings", "consistent", "exact", "counts"],
        "properties": {
            "document": _STR, "revision": {"type": "integer"},
            "operations": {"type": "array", "items": {
                "type": "object", "required": ["id", "unit", "status", "reason"],
                "properties": {"id": _STR, "unit": _NULL_STR, "op": _STR,
                               "status": {"enum": ["accepted", "rejected", "pending", "mixed", "unrelated"]}, "reason": _STR,
                               "summary": {"type": "string", "description": "the change in words: 'ID → identifier', "
                                                                            "'Deleted Section 7.3 …'"},
                               "old": {"type": "string", "description": "the words a text change removes"},
                               "new": {"type": "string", "description": "the words a text change puts in"},
                               "section": {"type": ["object", "null"], "description": "the section the unit is in",
                                           "properties": {"id": _STR, "number": _NULL_STR, "label": _NULL_STR,
                                                          "title": _STR}},
                               "where": {"type": "string", "description": "the place in words: 'Section 5.1 "
                                                                          "Connection ID', 'Table 3 in Section 2'"},
                               "unit_label": _NULL_STR, "unit_kind": _NULL_STR,
                               "group": {"type": "string", "description": "the operation this one follows from "
                                                                          "(its own id when none)"}}}},
            "findings": {"type": "array", "items": _ref("Finding")},
            "consistent": {"type": "boolean"}, "exact": {"type": "boolean"}, "counts": {"type": "object"},
        },
    },
    "Check": {
        "type": "object", "required": ["document", "revision", "findings"],
        "properties": {"document": _STR, "revision": _nullable("integer"), "style": _STR,
                       "findings": {"type": "array", "items": _ref("Finding")},
                       "truncated": {"type": "object", "required": ["total", "limit", "message"],
                                     "description": "There were more findings than the server lists "
                                                    "(LEDGER_MAX_FINDINGS): these are the most severe",
                                     "properties": {"total": _INT, "limit": _INT, "message": _STR}}},
    },
    "FixRequest": {
        "type": "object", "additionalProperties": False,
        "description": "The findings to fix, by the ids the check gave them, or by kind ('all': every kind); "
                       "style: an uploaded style sheet's name; apply: write at once instead of a proposal",
        "properties": {"findings": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1,
                                    "uniqueItems": True},
                       "kinds": {"type": "array", "items": {"enum": ["all", *FINDING_KINDS]}, "minItems": 1},
                       "author": _NAME, "style": STYLE, "apply": {"type": "boolean"}},
        "anyOf": [{"required": ["findings"]}, {"required": ["kinds"]}],
    },
    "StyleSheet": {
        "type": "object", "required": ["name", "sheet"],
        "properties": {"name": _STR, "sheet": {"type": "object"}, "toml": _STR},
    },
})


#: The helpers under public names, for the operations table of openapi.py.
ref, nullable, STR, INT, ID = _ref, _nullable, _STR, _INT, _ID
