"""Operations as engines write them (JSON per :data:`EDIT_SCHEMA`) and how they become Edits.

An engine (the LLM, the task pane) names the words to change instead of computing offsets;
:func:`edit_from_spec` finds them in the unit, trims the change to the words that differ and
fills in what the engine does not know (``before``, ``date``, ``author``).
"""
from __future__ import annotations

import re
from typing import Any

from adapters import words
from adapters.model import EDIT_OPS, Delete, Document, Edit, InsertAfter, Move, Rename, Replace, SetText, Unit
from adapters.vocabulary import INSERTABLE_KINDS, revision_date
from adapters.text import QUOTES, loose_pattern
from addin_backend.errors import InvalidRequestError, UnknownUnitError

__all__ = ["EDIT_SCHEMA", "INSERTABLE_KINDS", "RESPONSE_SCHEMA", "edit_from_spec", "get_unit", "now_iso"]

_NULLABLE_STR = {"type": ["string", "null"]}

#: One operation as an engine (the LLM, the task pane) writes it. ``replace`` names the text to
#: change by ``old`` (its exact words in the unit, plus ``occurrence`` when they occur more than
#: once); the engine never computes offsets. Every key is required and nullable so that the
#: schema also works in OpenAI's strict structured-output mode.
EDIT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["op", "unit", "old", "occurrence", "text", "after", "before_unit", "kind", "style", "reason"],
    "properties": {
        "op": {"type": "string", "enum": list(EDIT_OPS)},
        "unit": {**_NULLABLE_STR, "description": "id of the unit edited, inserted after, deleted or moved"},
        "old": {**_NULLABLE_STR, "description": "replace: the exact text in the unit to change; rename: the term"},
        "occurrence": {"type": ["integer", "null"], "description": "replace: which occurrence of old (1 = first)"},
        "text": {**_NULLABLE_STR, "description": "the new text (replace, set_text, insert_after, rename)"},
        "after": {**_NULLABLE_STR, "description": "move: id of the unit to move after"},
        "before_unit": {**_NULLABLE_STR, "description": "move: id of the unit to move before"},
        "kind": {"type": ["string", "null"], "enum": [*INSERTABLE_KINDS, None]},
        "style": {**_NULLABLE_STR, "description": "insert_after: paragraph style name of the new unit"},
        "reason": {**_NULLABLE_STR, "description": "why this edit is needed"},
    },
}

#: The whole reply an engine gives: a sentence for the user and the operations.
RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["explanation", "edits"],
    "properties": {
        "explanation": {"type": "string"},
        "edits": {"type": "array", "items": EDIT_SCHEMA},
    },
}

_SPEC_KEYS = set(EDIT_SCHEMA["properties"]) | {"start", "end"}


def now_iso() -> str:
    """The current time as OOXML and ODF write revision dates: ``2026-07-01T09:30:00Z``."""
    return revision_date()


def get_unit(doc: Document, unit_id: Any, what: str = "unit") -> Unit:
    """The unit with this id, or a clear :class:`UnknownUnitError` naming what was looked for."""
    unit = doc.get(unit_id) if isinstance(unit_id, str) else None
    if unit is None:
        raise UnknownUnitError(f"no unit has the id {unit_id!r} ({what})", unit=unit_id)
    return unit


def _find_span(unit: Unit, old: str, occurrence: int | None) -> tuple[int, int]:
    spans = [(m.start(), m.end()) for m in re.finditer(re.escape(old), unit.text)] if old else []
    if not spans and old.strip():
        # as an engine quotes it: any white space, either kind of quote or dash (adapters.text)
        spans = [(m.start(), m.end()) for m in loose_pattern(old).finditer(unit.text)]
    if not spans:
        raise InvalidRequestError(
            f"{old!r} does not occur in unit {unit.id}, whose text is {unit.text[:300]!r}", unit=unit.id
        )
    if occurrence is None:
        if len(spans) > 1:
            raise InvalidRequestError(
                f"{old!r} occurs {len(spans)} times in unit {unit.id}; give occurrence (1..{len(spans)})",
                unit=unit.id,
            )
        return spans[0]
    if not 1 <= occurrence <= len(spans):
        raise InvalidRequestError(
            f"occurrence {occurrence} of {old!r} does not exist in unit {unit.id} (it occurs {len(spans)} times)",
            unit=unit.id,
        )
    return spans[occurrence - 1]


def _trim_to_words(before: str, start: int, end: int, text: str) -> tuple[int, int, str]:
    """Shrink a replacement to the words that change: "kept 30 days" -> "kept 45 days" is 30 -> 45.

    Cuts fall only between words of both texts (:mod:`adapters.words`: "30-day", "don't", "3.5"
    are one word each, so a change inside one replaces it whole, as the writers and the clients
    mark it), and quotes compare alike (:data:`adapters.text.QUOTES`), so a model writing ``'``
    for the document's ``’`` does not change the apostrophe.

    >>> _trim_to_words("kept for 30 days.", 0, 17, "kept for 45 days.")
    (9, 11, '45')
    >>> _trim_to_words("a widget’s lid", 2, 14, "gadget's lid")
    (2, 10, 'gadget’s')
    >>> _trim_to_words("a 30-day notice", 0, 15, "a 60-day notice")
    (2, 8, '60-day')
    """
    old = before[start:end]
    a, b = old.translate(QUOTES), text.translate(QUOTES)
    in_old = {i for s, e in words.spans(old) for i in range(s + 1, e)}
    in_new = {i for s, e in words.spans(text) for i in range(s + 1, e)}  # "30 days" -> "30-day" is whole
    p0 = 0
    while p0 < min(len(a), len(b)) and a[p0] == b[p0]:
        p0 += 1
    p = p0
    while p > 0 and (p in in_old or p in in_new):
        p -= 1
    s0 = 0
    while s0 < min(len(a), len(b)) - p and a[len(a) - 1 - s0] == b[len(b) - 1 - s0]:
        s0 += 1
    s = s0
    while s > 0 and (len(old) - s in in_old or len(text) - s in in_new):
        s -= 1
    # the parts of a changed word that only compare alike keep the document's quotes
    p1 = min(p0, len(old) - s0, len(text) - s0)
    new = old[p:p1] + text[p1 : len(text) - s0] + old[len(old) - s0 : len(old) - s]
    return start + p, end - s, new


def edit_from_spec(
    doc: Document,
    spec: Any,
    *,
    author: str,
    date: str | None = None,
    reason: str = "",
    source: str | None = None,
) -> Edit:
    """One :class:`Edit` from an operation written per :data:`EDIT_SCHEMA` (nulls mean absent).

    ``replace`` locates ``old`` in the unit (or takes ``start``/``end``) and is trimmed to the
    words that change; ``before`` is the unit's current text.

    :raise InvalidRequestError: unknown keys, missing fields, text not found or ambiguous.
    :raise UnknownUnitError: a unit id the document does not have.
    """
    if not isinstance(spec, dict):
        raise InvalidRequestError(f"an edit must be a JSON object, not {type(spec).__name__}")
    extra = set(spec) - _SPEC_KEYS
    if extra:
        raise InvalidRequestError(f"unknown edit field(s): {', '.join(sorted(extra))}")
    s = {k: v for k, v in spec.items() if v is not None}
    op = s.get("op")
    if op not in EDIT_OPS:
        raise InvalidRequestError(f"unknown edit op {op!r}; expected one of {', '.join(EDIT_OPS)}")
    for key in ("unit", "old", "text", "after", "before_unit", "kind", "style", "reason"):
        if key in s and not isinstance(s[key], str):
            raise InvalidRequestError(f"{op} edit: {key} must be a string")
    stamp: dict[str, Any] = {
        "author": author, "date": date or now_iso(), "source": source, "reason": s.get("reason") or reason,
    }
    if op == "rename":
        if not s.get("old") or "text" not in s:
            raise InvalidRequestError("rename edit needs old and text")
        return Rename(old=s["old"], text=s["text"], unit=s.get("unit"), **stamp)
    unit = get_unit(doc, s.get("unit"))
    stamp.update(before=unit.text)
    if op == "replace":
        if "text" not in s:
            raise InvalidRequestError("replace edit needs text")
        if "start" in s or "end" in s:
            start, end = s.get("start"), s.get("end")
            if not isinstance(start, int) or not isinstance(end, int):
                raise InvalidRequestError("replace edit needs integer start and end (or old)")
        elif "old" in s:
            occ = s.get("occurrence")
            if occ is not None and not isinstance(occ, int):
                raise InvalidRequestError("replace edit: occurrence must be an integer")
            start, end = _find_span(unit, s["old"], occ)
        else:
            raise InvalidRequestError("replace edit needs old (the text to change) or start and end")
        if 0 <= start <= end <= len(unit.text):
            start, end, text = _trim_to_words(unit.text, start, end, s["text"])
        else:
            text = s["text"]
        old = unit.text[start:end] if end <= len(unit.text) else None
        return Replace(unit=unit.id, start=start, end=end, text=text, old=old, **stamp)
    if op in ("set_text", "insert_after"):
        if "text" not in s:
            raise InvalidRequestError(f"{op} edit needs text")
        if op == "set_text":
            return SetText(unit=unit.id, text=s["text"], **stamp)
        return InsertAfter(unit=unit.id, text=s["text"], kind=s.get("kind"), style=s.get("style"), **stamp)
    if op == "move":
        return Move(unit=unit.id, after=s.get("after"), before_unit=s.get("before_unit"), **stamp)
    return Delete(unit=unit.id, **stamp)
