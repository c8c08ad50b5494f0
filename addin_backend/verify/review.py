"""The review coming back: which of LEDGER's operations a reviewer accepted, rejected or left.

A reviewer opens the tracked copy in Word or LibreOffice, accepts some changes, rejects others,
leaves the rest and saves. Word renumbers every revision id on save and LibreOffice rewrites
the package, so ids alone cannot tell what happened. The reviewed file itself can: its two views
say it. In the *rejected* view every change still pending is undone, so the operations applied
there are the accepted ones; in the *accepted* view the pending ones are applied too. For each
view :func:`classify` finds the subset of operations whose neutral result
(:func:`edits.operations.apply_to_document` on the document the operations were planned on)
reads as that view, operation group by operation group (the operations on one unit together,
every combination of them tried). Then

- ``accepted``: applied in the rejected view (the change is plain text now);
- ``pending``: applied in the accepted view only (a revision by LEDGER's author and date is
  still there: :func:`review` checks it against the revisions the reviewed file holds);
- ``rejected``: applied in neither.

``exact`` says whether the chosen subsets reproduce both views line for line (a reviewer who
also typed elsewhere makes it false; each operation is then classified by the closest match).
The result is checked like an edit (:func:`verify.verify` of the accepted and pending
operations): a partial rejection that breaks the document (a rejected renumbering that leaves
"Table 2" pointing at nothing) is a finding, and ``consistent`` is false when the review leaves
an error or a warning the full edit did not have.

The operations travel inside the file LEDGER wrote (custom property :data:`RECORD`, see
:mod:`adapters.properties`), so ``ledger review REVIEWED --against EDITED`` needs nothing else;
the API route takes them from the stored revision.
"""
from __future__ import annotations

import json
from collections import Counter
from itertools import product
from typing import Any, Sequence

from adapters.model import EDIT_FIELDS, Document, Edit

from ..findings import sort_findings

__all__ = ["RECORD", "STATUSES", "record_json", "embed_record", "read_record", "record_edits", "classify", "review"]

#: The custom property that carries the operations in a file LEDGER wrote.
RECORD = "LEDGER operations"
STATUSES = ("accepted", "rejected", "pending")
#: Operations of one unit tried in every combination up to this many (more: one by one).
MAX_GROUP = 8


# --- the record -------------------------------------------------------------------------------


def record_json(operations: Sequence[Edit], comments: dict[str, str] | None = None, *,
                instruction: str | None = None) -> str:
    """The operations as written (ids, author, date, reasons) and their comment texts, as JSON."""
    comments = comments or {}
    ops = []
    for e in operations:
        item = e.to_json()
        if comments.get(e.id or ""):
            item["comment"] = comments[e.id or ""]
        ops.append(item)
    return json.dumps({"v": 1, "instruction": instruction, "operations": ops}, ensure_ascii=False,
                      separators=(",", ":"))


def embed_record(data: bytes, operations: Sequence[Edit], comments: dict[str, str] | None = None, *,
                 instruction: str | None = None) -> bytes:
    """``data`` (a file LEDGER wrote) carrying its operations for a later review."""
    from adapters.properties import set_property

    return set_property(data, RECORD, record_json(operations, comments, instruction=instruction))


def read_record(data: bytes) -> dict[str, Any] | None:
    """The operations record of a file LEDGER wrote (None when it carries none)."""
    from adapters.properties import get_property

    raw = get_property(data, RECORD)
    if not raw:
        return None
    try:
        rec = json.loads(raw)
    except ValueError:
        return None
    return rec if isinstance(rec, dict) and isinstance(rec.get("operations"), list) else None


def record_edits(rec: dict[str, Any]) -> tuple[list[Edit], dict[str, str]]:
    from ..edits.operations import edits_from_json

    known = set(EDIT_FIELDS)
    comments = {op.get("id"): op.get("comment") for op in rec["operations"] if op.get("comment")}
    return edits_from_json([{k: v for k, v in op.items() if k in known} for op in rec["operations"]]), comments


# --- classification ---------------------------------------------------------------------------


def _all_lines(doc: Document, view: str = "accepted") -> list[str]:
    """Every unit's text in ``view`` (notes included: an edit of a footnote shows there)."""
    return doc.lines(view, doc.units)


def _id(e: Edit) -> str:
    """An operation's id (recorded operations have one; "" stands for a missing one)."""
    return e.id or ""


def _groups(ops: Sequence[Edit]) -> list[list[Edit]]:
    """Operations that must be judged together: those on one unit, and an operation with the
    changes it made necessary (deleting "Table 1" and renumbering "Table 2" read alike line by
    line only together). A group larger than :data:`MAX_GROUP` falls back to units, then to
    single operations."""
    ids = {_id(e) for e in ops}
    parent: dict[str, str] = {i: i for i in ids}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    first_of_unit: dict[str, str] = {}
    for e in ops:
        if e.unit:
            other = first_of_unit.setdefault(e.unit, _id(e))
            parent[find(_id(e))] = find(other)
        if e.source is not None and e.source in ids:
            parent[find(_id(e))] = find(e.source)
    comps: dict[str, list[Edit]] = {}
    for e in ops:
        comps.setdefault(find(_id(e)), []).append(e)
    out: list[list[Edit]] = []
    for group in comps.values():
        if len(group) <= MAX_GROUP:
            out.append(group)
            continue
        by_unit: dict[str, list[Edit]] = {}
        for e in group:
            by_unit.setdefault(e.unit or e.id or "", []).append(e)
        for sub in by_unit.values():
            out.extend([sub] if len(sub) <= MAX_GROUP else [[e] for e in sub])
    return out


def _matched(a: list[str], b: list[str]) -> int:
    """How many items of ``a`` and ``b`` line up (difflib), the common head and tail counted
    first so that only the stretch that differs is compared.

    >>> _matched("a b c d".split(), "a x c d".split())
    3
    """
    from difflib import SequenceMatcher

    n = min(len(a), len(b))
    head = 0
    while head < n and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < n - head and a[len(a) - 1 - tail] == b[len(b) - 1 - tail]:
        tail += 1
    mid_a, mid_b = a[head:len(a) - tail], b[head:len(b) - tail]
    if not mid_a or not mid_b:
        return head + tail
    sm = SequenceMatcher(None, mid_a, mid_b, autojunk=False)
    return head + tail + sum(m.size for m in sm.get_matching_blocks())


def classify(original: Document, ops: Sequence[Edit], target: list[str]) -> tuple[set[str], bool]:
    """The ids of the operations whose result on ``original`` reads as ``target`` (lines of every
    unit, notes included, in order), and whether that result matches exactly."""
    from ..edits.operations import apply_to_document

    ops = [e for e in ops if e.id]
    target_words = " ".join(target).split()
    cache: dict[frozenset, tuple[int, int]] = {}

    def score(ids: set[str]) -> tuple[int, int]:
        key = frozenset(ids)
        if key not in cache:
            try:
                lines = _all_lines(apply_to_document(original, [e for e in ops if e.id in ids]))
            except Exception:  # a subset the model cannot apply (an edit on a unit another deletes)
                cache[key] = (-(10**9), -(10**9))
            else:
                exact = 2 * _matched(lines, target) - len(lines) - len(target)
                # words first: a paragraph that a reviewer's decision merged into its neighbour
                # (two operations sharing a paragraph mark) still shows its words
                have = " ".join(lines).split()
                cache[key] = (2 * _matched(have, target_words) - len(have) - len(target_words), exact)
        return cache[key]

    chosen: set[str] = {_id(e) for e in ops}
    for _round in range(3):
        changed = False
        for group in _groups(ops):
            ids = [_id(e) for e in group]
            rest = chosen - set(ids)
            options = []
            for mask in product((True, False), repeat=len(ids)):
                pick = rest | {i for i, keep in zip(ids, mask) if keep}
                options.append((score(pick), sum(mask), pick))  # ties: keep more operations
            top = max(options, key=lambda o: (o[0], o[1]))
            if top[2] != chosen:
                chosen, changed = top[2], True
        if not changed:
            break
    return chosen, score(chosen) == (0, 0)


def _pending_revisions(reviewed: Document, author: str | None, date: str | None) -> list[Any]:
    """The reviewed file's revisions by LEDGER's author (and, when both have one, of its minute)."""
    out = []
    for r in reviewed.revisions:
        if author and r.author != author:
            continue
        if date and r.date and r.date[:16] != date[:16]:
            continue
        out.append(r)
    return out


def _rejected_here(f: Any) -> Any:
    """An old term left where the reviewer rejected the rename: the document now says both."""
    from dataclasses import replace

    return replace(f, severity="warning", message=f"{f.message}; the reviewer rejected the change here, "
                                                  "so the document now uses both terms")


def review(original: Document, ops: Sequence[Edit], reviewed_data: bytes, *,
           comments: dict[str, str] | None = None, G: Any = None) -> dict[str, Any]:
    """What a reviewer did with ``ops`` (planned on ``original``) in the reviewed file.

    Returns ``{"operations": [{"id", "unit", "op", "status", "reason"}], "findings", "consistent",
    "exact", "counts"}``; ``reason`` is the comment the operation carried (else its reason).
    """
    from adapters import read

    from ..edits.operations import apply_to_document
    from .after_edit import verify

    reviewed = read(reviewed_data)
    ops = [e for e in ops if e.id]
    shown, exact_a = classify(original, ops, _all_lines(reviewed, "accepted"))
    kept, exact_x = classify(original, ops, _all_lines(reviewed, "rejected"))
    author = next((e.author for e in ops if e.author), None)
    date = next((e.date for e in ops if e.date), None)
    left = _pending_revisions(reviewed, author, date)
    comments = comments or {}
    out_ops = []
    for e in ops:
        if e.id in kept:
            status = "accepted"
        elif e.id in shown:
            status = "pending" if left or not reviewed.revisions else "accepted"
        else:
            status = "rejected"
        out_ops.append({"id": e.id, "unit": e.unit, "op": e.op, "status": status,
                        "reason": comments.get(e.id or "") or e.reason})
    standing = [e for e in ops if e.id in shown]
    if G is None:
        from ..graph.build import FAST_STAGES, build_graph

        G = build_graph(original, stages=FAST_STAGES)
    now = verify(original, apply_to_document(original, standing), G, standing, semantic=False)
    planned = verify(original, apply_to_document(original, ops), G, ops, semantic=False)
    before = {(f.kind, f.unit, f.evidence) for f in planned}
    rejected_units = {o["unit"] for o in out_ops if o["status"] == "rejected"}
    now = [_rejected_here(f) if f.kind == "old_term" and f.unit in rejected_units else f for f in now]
    order = {u.id: u.order for u in original.units}
    findings = sort_findings(now, order)
    new_errors = [f for f in findings if f.severity in ("error", "warning") and (f.kind, f.unit, f.evidence) not in before]
    counts = Counter(o["status"] for o in out_ops)
    return {
        "operations": out_ops,
        "findings": [f.to_json() for f in findings],
        "consistent": not new_errors,
        "new_findings": [f.to_json() for f in new_errors],
        "exact": exact_a and exact_x,
        "counts": {s: counts.get(s, 0) for s in STATUSES},
    }
