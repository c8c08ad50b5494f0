"""The audit log of applied edits: who, when, which document, the instruction, the operations.

One JSON object per line in a file of the data folder, appended under an exclusive lock so
several worker processes can share it. The log records what was done without becoming a
copy of the document: in operations, every string outside the structural keys (the text
before and after an edit) is replaced by its SHA-256 and length, enough to match an entry
against a document without storing its text.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
from typing import Any, Iterable

from adapters.vocabulary import timestamp

__all__ = ["record", "entries", "STRUCTURAL_KEYS"]

#: Operation keys whose string values are structure, not document text, and are kept as is.
STRUCTURAL_KEYS = frozenset({
    "op", "kind", "type", "unit", "unit_id", "target", "after_unit", "before_unit", "position",
    "author", "reason", "edge", "id", "engine", "date", "format", "view", "source",
})


def _digest(value: str) -> dict[str, Any]:
    return {"sha256": hashlib.sha256(value.encode("utf-8")).hexdigest(), "chars": len(value)}


def _redact(value: Any, key: str | None = None) -> Any:
    """Operations with document text replaced by digests (see the module docstring).

    >>> _redact({"op": "replace", "unit": "p-1", "before": "ab", "start": 0})["before"]["chars"]
    2
    """
    if isinstance(value, dict):
        return {k: _redact(v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_redact(v, key) for v in value]
    if isinstance(value, str) and key not in STRUCTURAL_KEYS:
        return _digest(value)
    return value


def _as_dict(op: Any) -> Any:
    if hasattr(op, "to_json"):
        return op.to_json()
    if hasattr(op, "__dataclass_fields__"):
        from dataclasses import asdict

        return asdict(op)
    return op


def record(path: str, *, who: str, document: str, instruction: str | None,
           operations: Iterable[Any], author: str | None = None) -> dict[str, Any]:
    """Append one entry for an applied set of operations and return it.

    ``who`` is the authenticated client (a key's fingerprint, never the key), ``author`` the
    name written into the tracked changes. Operations may be dicts, dataclasses or objects
    with ``to_json()``.
    """
    entry = {
        "when": timestamp(precision="milliseconds"),
        "who": who,
        "author": author,
        "document": document,
        "instruction": instruction,
        "operations": [_redact(_as_dict(op)) for op in operations],
    }
    line = (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        os.write(fd, line)
    finally:
        os.close(fd)  # closing releases the lock
    return entry


def entries(path: str) -> list[dict[str, Any]]:
    """Every entry of the log, oldest first (empty when there is no log yet)."""
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
