"""The tools' input and output schemas, built from the REST API's (``api/schemas.py``).

A tool that answers what a REST route answers (a Proposal, the Context, an Impact) publishes
that route's schema; operations in are checked against the REST ``OperationIn`` schema, so
an agent writes the JSON a client of ``POST /apply`` writes. A published schema is
self-contained: the definitions it refers to travel in its ``$defs``.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from ..api.schemas import SCHEMAS, STRATEGIES
from ..errors import InvalidRequestError

__all__ = ["STRATEGIES", "schema", "output_schema", "operations_schema", "check_operations", "OUTPUTS"]

_PREFIX = "#/components/schemas/"

_S = {"type": "string"}
_NS = {"type": ["string", "null"]}
_I = {"type": "integer"}
_NI = {"type": ["integer", "null"]}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": _PREFIX + name}


def _obj(required: list[str], **props: Any) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": props}


_FINDING_COUNTS = _obj(["error", "warning", "info"], error=_I, warning=_I, info=_I)

#: The answers of the tools that no REST route gives as such, in the REST schemas' terms.
OUTPUTS: dict[str, dict[str, Any]] = {
    "OpenedDocument": _obj(
        ["document_id", "format", "filename", "units", "tokens", "sha256", "reused", "graph", "outline"],
        document_id=_S, format={"enum": ["docx", "odt"]}, filename=_NS, path=_NS, size=_I, sha256=_S,
        units=_I, tokens=_I, warnings=_I, reused={"type": "boolean"},
        graph=_obj(["status", "complete"], status=_S, stage=_NS, progress={"type": "number"},
                   complete={"type": "boolean"}, nodes=_NI, edges=_NI),
        outline=_obj(["headings", "shown", "items"], headings=_I, shown=_I, items={"type": "array", "items": _obj(
            ["id", "kind", "label", "title", "level", "depth"], id=_S, kind=_S, label=_NS, title=_NS, level=_NI,
            depth=_I)}),
    ),
    "Found": _obj(
        ["document", "query", "total", "matches"], document=_S, query=_S, total=_I,
        matches={"type": "array", "items": _obj(
            ["id", "kind", "label", "how", "evidence", "start", "end", "text"], id=_S, kind=_S, label=_NS,
            how={"enum": ["label", "term", "text"]}, evidence=_S, start=_NI, end=_NI, text=_S)},
    ),
    "UnitPage": _obj(
        ["document", "total", "offset", "next_offset", "tokens", "units"], document=_S, total=_I, offset=_I,
        next_offset=_NI, tokens=_I, units={"type": "array", "items": {"allOf": [_ref("Unit"), _obj(["tokens"],
                                                                                                    tokens=_I)]}},
    ),
    "AppliedCopy": _obj(
        ["document", "revision", "author", "proposal", "operations", "skipped", "findings", "created", "summary"],
        document=_S, revision={"type": "integer", "minimum": 1}, author=_S, instruction=_NS, proposal=_NS,
        operations={"type": "array", "items": _ref("Operation")},
        skipped={"type": "array", "items": _obj(["id", "reason"], id=_S, reason=_S)},
        findings={"type": "array", "items": _ref("Finding")}, created=_S, path=_NS, download=_NS,
        summary=_obj(["operations", "propagated", "by_op", "findings", "text"], operations=_I, propagated=_I,
                     by_op={"type": "object", "additionalProperties": _I}, findings=_FINDING_COUNTS, text=_S),
    ),
    "Resolved": _obj(
        ["which", "source", "units"], which={"enum": ["accept", "reject"]}, source=_S, path=_NS, document_id=_NS,
        units=_I, tracked_changes_left=_I,
    ),
}


def _defs_of(node: Any, into: dict[str, Any]) -> None:
    """Collect every REST schema ``node`` refers to (transitively) into ``into``."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_PREFIX):
            name = ref[len(_PREFIX):]
            if name not in into:
                into[name] = SCHEMAS[name]
                _defs_of(SCHEMAS[name], into)
        for value in node.values():
            _defs_of(value, into)
    elif isinstance(node, list):
        for value in node:
            _defs_of(value, into)


def _local(node: Any) -> Any:
    """A copy with ``#/components/schemas/X`` refs pointing at ``#/$defs/X``."""
    if isinstance(node, dict):
        return {k: ("#/$defs/" + v[len(_PREFIX):] if k == "$ref" and isinstance(v, str) and v.startswith(_PREFIX)
                    else _local(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_local(v) for v in node]
    return node


def schema(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` (in the REST schemas' terms) as a self-contained JSON schema.

    >>> s = schema({"type": "array", "items": {"$ref": "#/components/schemas/Finding"}})
    >>> s["items"], sorted(s["$defs"])
    ({'$ref': '#/$defs/Finding'}, ['Finding'])
    """
    defs: dict[str, Any] = {}
    _defs_of(node, defs)
    out = _local(copy.deepcopy(node))
    if defs:
        out["$defs"] = {k: _local(v) for k, v in sorted(defs.items())}
    return out


@lru_cache(maxsize=None)
def output_schema(name: str) -> dict[str, Any]:
    """The published output schema of a REST schema or one of :data:`OUTPUTS`, by name."""
    return schema(OUTPUTS.get(name) or SCHEMAS[name])


def operations_schema() -> dict[str, Any]:
    """The ``operations`` argument of ``propose_operations``: REST ``OperationIn`` objects."""
    # Inline (OperationIn refers to nothing): pydantic keeps its own $defs for the arguments.
    return schema({"type": "array", "minItems": 1, "maxItems": 10_000, "items": copy.deepcopy(SCHEMAS["OperationIn"]),
                   "description": "Operations as POST /documents/{id}/apply takes them: replace (unit, start, "
                                  "end, text, before), set_text (unit, text), insert_after (unit, text, kind?), "
                                  "delete (unit), move (unit, after | before_unit), rename (old, text, unit? as "
                                  "scope)"})


@lru_cache(maxsize=None)
def _validator() -> Any:
    import jsonschema_rs

    return jsonschema_rs.validator_for({"$ref": _PREFIX + "OperationIn", "components": {"schemas": SCHEMAS}})


def check_operations(operations: Any) -> list[dict[str, Any]]:
    """``operations`` when each is a valid REST ``OperationIn``.

    >>> check_operations([{"op": "delete", "unit": "p-1"}])
    [{'op': 'delete', 'unit': 'p-1'}]
    >>> check_operations([{"op": "explode", "unit": "p-1"}])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    addin_backend.errors.InvalidRequestError: operations/0/op: ...

    :raise InvalidRequestError: not a non-empty list, or the first operation that fails the schema.
    """
    if not isinstance(operations, list) or not operations:
        raise InvalidRequestError("operations must be a non-empty list of operation objects", field="operations")
    for i, op in enumerate(operations):
        errors = list(_validator().iter_errors(op))
        if errors:
            first = min(errors, key=lambda e: len(list(e.instance_path)))
            where = "/".join(["operations", str(i), *(str(p) for p in first.instance_path)])
            message = first.message if len(first.message) <= 200 else first.message[:197] + "..."
            raise InvalidRequestError(f"{where}: {message}", field=where)
    return operations
