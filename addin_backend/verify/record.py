"""The review record: what a file LEDGER wrote carries so that its review needs nothing else, and
no document text.

``ledger review REVIEWED --against EDITED`` must say, for every operation LEDGER wrote into
EDITED, whether the reviewer accepted, rejected or left it. The operations' texts are already in
EDITED, as its tracked changes: its rejected view is the original, its accepted view the edited
text. So the record (the custom property :data:`RECORD`, :mod:`adapters.properties`) holds only
what places each operation and proves it was read back right, never a word of the document:

- the record: ``v`` (2), ``salt`` (16 random hex digits, new for every record), ``author`` and
  ``date`` of the operations, ``instruction`` (a digest of it);
- each operation, in short keys: ``i`` its id, ``o`` the op, ``u`` its unit id, ``s``/``e`` the
  span a replace changes (offsets into the unit's original text), ``l`` the lengths of the lines
  of the text it writes (a replace, set_text or insert_after), ``a``/``b`` the unit a move goes
  after or before, ``k``/``y`` an inserted unit's kind and style name, ``f`` the operation it
  follows from (or its engine), ``h`` a digest of the whole operation (its text included) and
  ``c`` a digest of its comment's text.

Digests are BLAKE2b keyed with the salt (64 bits for an operation, 48 for a comment). Reading a
record back (:func:`record_edits`) lays the operations out on EDITED's rejected view with a
private placeholder character where each text goes (:func:`addin_backend.edits.operations.apply_to_document`),
reads the characters standing there in EDITED's accepted view, and keeps an operation only when
its digest matches: what a review classifies is exactly what was written. A unit id is itself a
digest of its text (:func:`adapters.model.make_unit_id`); the size is about 130 bytes an
operation, whatever the text; past :data:`PLAIN_MAX` characters (some 15,000 operations) the
operations are stored deflated and base64-encoded in ``z`` (about 35 bytes an operation). Like any digest of a short text, one can be confirmed by guessing
the text: the record keeps the text from being read, not from being guessed.

Files written before (``v`` 1) carried the operations whole; :func:`record_edits` still reads them.
"""
from __future__ import annotations

import base64
import json
import secrets
import zlib
from hashlib import blake2b
from typing import Any, Sequence

from adapters.model import EDIT_FIELDS, Document, Edit

__all__ = ["RECORD", "VERSION", "record_json", "embed_record", "read_record", "record_edits", "record_matches",
           "Recovered"]

#: The custom property that carries the record in a file LEDGER wrote.
RECORD = "LEDGER operations"
VERSION = 2
#: Past this many characters of JSON a record's operations are stored deflated (``z``); a
#: deflated record inflates to at most :data:`INFLATED_MAX` bytes, else it is no record.
PLAIN_MAX = 2_000_000
INFLATED_MAX = 64_000_000
#: The fields an operation's digest covers: everything it does, nothing about who or why.
_CONTENT = ("op", "unit", "start", "end", "text", "after", "before_unit", "kind", "style")
#: Short key -> edit field, for the fields a record keeps in clear.
_KEYS = {"i": "id", "o": "op", "u": "unit", "s": "start", "e": "end", "a": "after", "b": "before_unit",
         "k": "kind", "y": "style", "f": "source"}
_TEXT_OPS = ("replace", "set_text", "insert_after")


def _digest(salt: str, text: str, size: int = 8) -> str:
    return blake2b(text.encode("utf-8"), key=bytes.fromhex(salt), digest_size=size).hexdigest()


def operation_digest(salt: str, e: Edit | dict[str, Any]) -> str:
    """The digest of what an operation does (:data:`_CONTENT`), keyed with the record's salt."""
    item = e if isinstance(e, dict) else e.to_json()
    content = {k: item.get(k) for k in _CONTENT if item.get(k) is not None}
    return _digest(salt, json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":")))


def record_json(operations: Sequence[Edit], comments: dict[str, str] | None = None, *,
                instruction: str | None = None, salt: str | None = None) -> str:
    """The record of operations as written (ids, places, line lengths, digests; see the module
    docstring), as compact JSON: no document text."""
    salt = salt or secrets.token_hex(8)
    comments = comments or {}
    authors = {e.author for e in operations}
    dates = {e.date for e in operations}
    out: dict[str, Any] = {"v": VERSION, "salt": salt}
    if len(authors) == 1:
        out["author"] = next(iter(authors))
    if len(dates) == 1:
        out["date"] = next(iter(dates))
    if instruction:
        out["instruction"] = _digest(salt, instruction)
    ops = []
    for e in operations:
        item = e.to_json()
        op: dict[str, Any] = {short: item[name] for short, name in _KEYS.items() if item.get(name) is not None}
        if e.op in _TEXT_OPS:
            op["l"] = [len(line) for line in (item.get("text") or "").split("\n")]
        if len(authors) > 1:
            op["author"] = e.author
        if len(dates) > 1:
            op["date"] = e.date
        op["h"] = operation_digest(salt, item)
        note = comments.get(e.id or "")
        if note:
            op["c"] = _digest(salt, note, 6)
        ops.append(op)
    out["operations"] = ops
    text = json.dumps(out, ensure_ascii=False, separators=(",", ":"))
    if len(text) <= PLAIN_MAX:
        return text
    # tens of thousands of operations: the operations deflated (about 35 bytes each), so that the
    # property stays far below what an XML reader takes in one text node
    packed = base64.b64encode(zlib.compress(json.dumps(ops, separators=(",", ":")).encode("utf-8"), 9)).decode("ascii")
    return json.dumps({**{k: v for k, v in out.items() if k != "operations"}, "operations": [], "z": packed},
                      separators=(",", ":"))


def embed_record(data: bytes, operations: Sequence[Edit], comments: dict[str, str] | None = None, *,
                 instruction: str | None = None) -> bytes:
    """``data`` (a file LEDGER wrote) carrying the record of its operations for a later review."""
    from adapters.properties import set_property

    return set_property(data, RECORD, record_json(operations, comments, instruction=instruction))


def read_record(data: bytes) -> dict[str, Any] | None:
    """The record a file carries (either version; ``None`` when it carries none or it is not one).

    :raise CorruptDocumentError: the properties part is malformed or unsafe.
    """
    from adapters.properties import get_property

    raw = get_property(data, RECORD)
    if not raw:
        return None
    try:
        rec = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(rec, dict) or not isinstance(rec.get("operations"), list):
        return None
    if rec.get("v") == VERSION and not _salt_ok(rec.get("salt")):
        return None
    if isinstance(rec.get("z"), str):
        ops = _inflate(rec["z"])
        if ops is None:
            return None
        rec = {**rec, "operations": ops}
        del rec["z"]
    return rec


def _inflate(packed: str) -> list[Any] | None:
    """The operations of a deflated record (``None`` when they are not, or inflate past
    :data:`INFLATED_MAX`: a record is a client's bytes like any other)."""
    try:
        raw = zlib.decompressobj().decompress(base64.b64decode(packed, validate=True), INFLATED_MAX + 1)
        if len(raw) > INFLATED_MAX:
            return None
        ops = json.loads(raw)
    except (ValueError, zlib.error):
        return None
    return ops if isinstance(ops, list) else None


def _salt_ok(salt: Any) -> bool:
    try:
        return isinstance(salt, str) and 1 <= len(bytes.fromhex(salt)) <= 64
    except ValueError:
        return False


def record_matches(record: dict[str, Any] | None, operations: Sequence[dict[str, Any]]) -> bool:
    """Whether a record carries exactly ``operations`` (Edit JSON, as a revision stored them):
    the same ids with the same digests (version 2) or the same fields (version 1)."""
    if record is None or not isinstance(record.get("operations"), list):
        return False
    if record.get("v") == VERSION:
        salt = record["salt"]
        got = [(op.get("i"), op.get("h")) for op in record["operations"] if isinstance(op, dict)]
        want = [(op.get("id"), operation_digest(salt, op)) for op in operations]
        return len(got) == len(record["operations"]) and sorted(map(str, got)) == sorted(map(str, want))
    got1 = [_core(op) for op in record["operations"] if isinstance(op, dict)]
    return len(got1) == len(record["operations"]) and sorted(got1) == sorted(_core(op) for op in operations)


def _core(op: dict[str, Any]) -> tuple[str, str]:
    """What identifies an operation in a version-1 record: its id and the JSON of its edit fields."""
    keep = {k: v for k, v in op.items() if k in EDIT_FIELDS}
    return str(op.get("id") or ""), json.dumps(keep, sort_keys=True, ensure_ascii=False, default=str)


class Recovered:
    """What a record gives back: the operations (``edits``), their comments' texts by operation
    id, the instruction when it could be read back, and the ids of the operations whose text could
    not be read back from the file (``lost``: left out of the review)."""

    def __init__(self, edits: list[Edit], comments: dict[str, str], instruction: str | None,
                 lost: list[str]) -> None:
        self.edits, self.comments, self.instruction, self.lost = edits, comments, instruction, lost


def record_edits(rec: dict[str, Any], original: Document | None = None, edited: Document | None = None) -> Recovered:
    """The operations of a record as edits of ``original`` (the written file's rejected view),
    their texts read from ``edited`` (the written file, whose accepted view shows them); a
    version-1 record carries them whole and needs neither.

    :raise InvalidRequestError: a version-2 record without the documents, or one that is malformed.
    """
    from ..edits.operations import edits_from_json
    from ..errors import InvalidRequestError

    if rec.get("v") != VERSION:
        known = set(EDIT_FIELDS)
        ops = [op for op in rec["operations"] if isinstance(op, dict)]
        comments = {op["id"]: op["comment"] for op in ops if op.get("id") and op.get("comment")}
        return Recovered(edits_from_json([{k: v for k, v in op.items() if k in known} for op in ops]), comments,
                         rec.get("instruction") if isinstance(rec.get("instruction"), str) else None, [])
    if original is None or edited is None:
        raise InvalidRequestError("this review record keeps no text: give the file LEDGER wrote, whose tracked "
                                  "changes hold it")
    salt = rec["salt"]
    skeleton = []
    for op in rec["operations"]:
        if not isinstance(op, dict) or not isinstance(op.get("i"), str) or op.get("o") not in (*_TEXT_OPS, "delete", "move"):
            raise InvalidRequestError("the file's LEDGER record is malformed (an operation without id or op)")
        item = {name: op[short] for short, name in _KEYS.items() if short in op}
        item["author"] = op.get("author", rec.get("author"))
        item["date"] = op.get("date", rec.get("date"))
        skeleton.append((op, item))
    texts = _texts(original, edited, skeleton)
    edits_json, lost = [], []
    for op, item in skeleton:
        if item["op"] in _TEXT_OPS:
            text = texts.get(item["id"])
            if text is None:
                lost.append(item["id"])
                continue
            item["text"] = text
        unit = original.get(item.get("unit") or "")
        if unit is not None:
            item["before"] = unit.text
        if operation_digest(salt, item) != op.get("h"):
            lost.append(item["id"])
            continue
        edits_json.append({k: v for k, v in item.items() if v is not None})
    try:
        edits = edits_from_json(edits_json)
    except Exception as exc:  # noqa: BLE001 - any malformed field: say so, as for a v1 record
        raise InvalidRequestError(f"the file's LEDGER record is malformed: {exc}") from None
    comments = _comments(salt, rec["operations"], edited)
    return Recovered(edits, comments, _instruction(salt, rec.get("instruction"), edited), lost)


#: Where the placeholders come from: the supplementary private-use planes, never in a document's
#: text by accident (those a document does use are skipped).
_PLANES = (range(0xF0000, 0xFFFFE), range(0x100000, 0x10FFFE))


def _markers(count: int, taken: set[str]) -> list[str]:
    out: list[str] = []
    for plane in _PLANES:
        for cp in plane:
            if len(out) == count:
                return out
            ch = chr(cp)
            if ch not in taken:
                out.append(ch)
    return out


def _texts(original: Document, edited: Document, ops: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, str]:
    """The text each operation wrote, read off ``edited``'s accepted view where the operation,
    laid out on ``original`` with a placeholder of the recorded length (with the deletions and
    moves of the record), puts it.

    Positions only: a line of the layout and of the view are compared character by character,
    the placeholders taking what stands there, everything else the same. An operation whose lines
    do not line up gets no text (it is reported lost, not guessed).
    """
    from ..budget import check as check_budget
    from ..edits.operations import apply_to_document, edits_from_json

    target = edited.lines("accepted", edited.units)
    taken = set("".join(target)) | set("".join(u.text for u in original.units))
    count = sum(1 for _op, item in ops if item["op"] in _TEXT_OPS)
    marks = iter(_markers(count, taken))
    owner: dict[str, str] = {}
    placed = []
    for op, item in ops:
        if item["op"] not in _TEXT_OPS:
            placed.append(item)  # deletions and moves: where the lines go
            continue
        lengths = op.get("l")
        mark = next(marks, None)
        if mark is None or not isinstance(lengths, list) or not all(isinstance(n, int) and 0 <= n for n in lengths):
            continue
        owner[mark] = item["id"]
        placed.append({**item, "text": "\n".join(mark * n for n in lengths)})
    check_budget()
    try:
        laid = apply_to_document(original, edits_from_json(placed))
    except Exception:  # noqa: BLE001 - operations that do not lay out on this file: none is read back
        return {}
    planned = laid.lines("accepted", laid.units)
    pieces: dict[str, list[str]] = {oid: [] for oid in owner.values()}
    bad: set[str] = set()
    for got, want in _paired(planned, target):
        mine = {owner[c] for c in got if c in owner} if got is not None else set()
        if not mine:
            continue
        if want is None or got is None or len(got) != len(want):
            bad |= mine
            continue
        line: dict[str, list[str]] = {oid: [] for oid in mine}
        for a, b in zip(got, want):
            oid = owner.get(a)
            if oid is not None:
                line[oid].append(b)
            elif a != b:  # the words around the change differ: this line is not the written one
                bad |= mine
                break
        for oid, cs in line.items():
            pieces[oid].append("".join(cs))
    return {oid: "\n".join(parts) for oid, parts in pieces.items() if oid not in bad}


def _paired(planned: list[str], target: list[str]) -> list[tuple[str | None, str | None]]:
    """The lines of the layout and of the view, side by side (one list longer: the rest unpaired)."""
    n = max(len(planned), len(target))
    return [(planned[i] if i < len(planned) else None, target[i] if i < len(target) else None) for i in range(n)]


def _comments(salt: str, ops: list[Any], edited: Document) -> dict[str, str]:
    """Each operation's comment text, found among the file's comments by its digest (operations
    whose comments read the same take them in order)."""
    wanted: dict[str, list[str]] = {}
    for op in ops:
        if isinstance(op, dict) and isinstance(op.get("c"), str):
            wanted.setdefault(op["c"], []).append(op["i"])
    out: dict[str, str] = {}
    for c in edited.comments if wanted else ():
        waiting = wanted.get(_digest(salt, c.text, 6))
        if waiting:
            out[waiting.pop(0)] = c.text
    return out


def _instruction(salt: str, digest: Any, edited: Document) -> str | None:
    """The instruction, where a comment of the file quotes it ("… (instruction: X)") and its
    digest is the record's."""
    if not isinstance(digest, str):
        return None
    tag = "instruction: "
    for c in edited.comments:
        at = c.text.find(tag)
        while at >= 0:
            rest = c.text[at + len(tag):]
            for cand in (rest[:-1] if rest.endswith(")") else rest, rest):
                if cand and _digest(salt, cand) == digest:
                    return cand
            at = c.text.find(tag, at + 1)
    return None
