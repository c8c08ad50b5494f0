"""The review coming back: which of LEDGER's operations a reviewer accepted, rejected or left.

A reviewer opens the tracked copy in Word or LibreOffice, accepts some changes, rejects others,
leaves the rest and saves. Word renumbers every revision id on save and LibreOffice rewrites
the package, so ids alone cannot tell what happened. The reviewed file itself can: its two views
say it. In the *rejected* view every change still pending is undone, so the operations applied
there are the accepted ones; in the *accepted* view the pending ones are applied too. For each
view :func:`classify` finds the subset of operations whose result on the document they were
planned on reads as that view, place by place: each operation is decided where it acts, from
the old or new words standing there and the lines present, between the units no operation
touched (:mod:`.review_match`; linear in the changes, not a re-application per try). Then

- ``accepted``: applied in the rejected view (the change is plain text now);
- ``pending``: applied in the accepted view only (a revision by LEDGER's author and date is
  still there: :func:`review` checks it against the revisions the reviewed file holds);
- ``rejected``: applied in neither;
- ``mixed``: a replacement whose tracked deletion and insertion were decided differently (the
  deletion accepted and the insertion rejected leaves neither the old nor the new words; the
  other way round leaves both): neither accepted nor rejected. Its place reads as neither
  reading in a view, so the match tells it apart (:data:`review_match.MIXED`).

``exact`` says whether the chosen subsets reproduce both views line for line (a reviewer who
also typed elsewhere makes it false; each operation is then classified by the closest match).
The result is checked like an edit (:func:`verify.verify` of the accepted and pending
operations): a partial rejection that breaks the document (a rejected renumbering that leaves
"Table 2" pointing at nothing) is a finding, and ``consistent`` is false when the review leaves
an error (a broken reference, a duplicate number: whether the full edit had it too or not) or a
warning the full edit did not have.

The file LEDGER wrote carries a record of its operations (custom property :data:`RECORD`:
ids, places and digests, no document text; :mod:`.record`), so ``ledger review REVIEWED
--against EDITED`` needs nothing else; the API route takes them from the stored revision.
"""
from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta, timezone
from typing import Any, Sequence

from adapters.model import Document, Edit

from ..budget import check as check_budget
from ..findings import sort_findings
from .record import RECORD  # the record's format and reading: :mod:`.record`

__all__ = ["RECORD", "STATUSES", "classify", "review"]

STATUSES = ("accepted", "rejected", "pending")
#: A replacement decided half one way, half the other (counted only when there is one).
MIXED_STATUS = "mixed"


# --- classification ---------------------------------------------------------------------------


def _all_lines(doc: Document, view: str = "accepted") -> list[str]:
    """Every unit's text in ``view`` (notes included: an edit of a footnote shows there)."""
    return doc.lines(view, doc.units)


def classify(original: Document, ops: Sequence[Edit], target: list[str]) -> tuple[set[str], bool]:
    """The ids of the operations whose result on ``original`` reads as ``target`` (lines of every
    unit, notes included, in order), and whether that result matches exactly
    (:func:`review_match.match_view <addin_backend.verify.review_match.match_view>`)."""
    from .review_match import layout, match_view

    got = match_view(layout(original, ops), target)
    return got.applied, got.exact


#: How long after the server wrote an edit its revisions may be dated: a client that lands the
#: edit in an open document (the LibreOffice bridge records it there) dates them when they land.
LANDING = timedelta(minutes=30)
#: ... by its local clock, which may be a time zone away (up to 14 hours) from the server's UTC.
ZONE = timedelta(hours=14)


def _when(text: str) -> datetime | None:
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def _pending_revisions(reviewed: Document, author: str | None, date: str | None) -> list[Any]:
    """The reviewed file's revisions by LEDGER's author (and, when both have a date, dated when the
    edit was written or landed: from its minute to :data:`LANDING` later, give or take a time
    zone)."""
    start = _when(date) if date else None
    out = []
    for r in reviewed.revisions:
        if author and r.author != author:
            continue
        if date and r.date:
            when = _when(r.date)
            if start is None or when is None:
                if r.date[:16] != date[:16]:
                    continue
            elif not (start - ZONE - timedelta(minutes=1) <= when <= start + ZONE + LANDING):
                continue
        out.append(r)
    return out


def _rejected_here(f: Any) -> Any:
    """An old term left where the reviewer rejected the rename: the document now says both."""
    from dataclasses import replace

    return replace(f, severity="warning", message=f"{f.message}; the reviewer rejected the change here, "
                                                  "so the document now uses both terms")


def _half_decided(entry: dict[str, Any]) -> Any:
    """The finding of a replacement decided half one way, half the other."""
    from ..findings import Finding

    old, new = entry.get("old") or "", entry.get("new") or ""
    words = f"\u201c{old}\u201d \u2192 \u201c{new}\u201d" if old or new else "a change"
    where = f" in {entry['where']}" if entry.get("where") else ""
    return Finding("half_decided_change", "error", entry.get("unit"),
                   f"the deletion and the insertion of {words}{where} were decided differently: the text now "
                   "reads neither the old nor the new words (or both); accept or reject both halves",
                   evidence=old)


def _entry(original: Document, e: Edit, status: str, reason: str | None, ids: set[str]) -> dict[str, Any]:
    """One operation of the review, with the words a list shows (:func:`edits.comments.operation_words`,
    :func:`~edits.comments.place_words`) beside the ids machines use."""
    from ..edits.comments import operation_words, place_words

    unit = original.get(e.unit) if e.unit else None
    return {"id": e.id, "unit": e.unit, "op": e.op, "status": status, "reason": reason,
            **operation_words(original, e), **place_words(original, unit),
            "unit_label": unit.label if unit is not None else None, "unit_kind": unit.kind if unit is not None else None,
            "group": e.source if e.source in ids and e.source != e.id else e.id}


def review(original: Document, ops: Sequence[Edit], reviewed_data: bytes | Document, *,
           comments: dict[str, str] | None = None, G: Any = None) -> dict[str, Any]:
    """What a reviewer did with ``ops`` (planned on ``original``) in the reviewed file (its bytes,
    or the file read already).

    Returns ``{"operations": [{"id", "unit", "op", "status", "reason", "summary", "old"?, "new"?,
    "section", "where", "unit_label", "unit_kind", "group"}], "findings", "consistent", "exact",
    "counts"}``; ``reason`` is the comment the operation carried (else its reason), ``summary``
    and ``where`` say the change and its place in words, ``group`` is the operation it follows
    from (else its own id).
    """
    from adapters import read

    from ..edits.operations import apply_to_document
    from .after_edit import verify
    from .review_match import layout, match_view

    reviewed = reviewed_data if isinstance(reviewed_data, Document) else read(reviewed_data)
    ops = [e for e in ops if e.id]
    check_budget()  # each step below costs about the document plus the operations
    plan = layout(original, ops)
    check_budget()
    in_accepted = match_view(plan, _all_lines(reviewed, "accepted"))
    check_budget()
    in_rejected = match_view(plan, _all_lines(reviewed, "rejected"))
    check_budget()
    shown, kept = in_accepted.applied, in_rejected.applied
    halves = in_accepted.mixed | in_rejected.mixed
    author = next((e.author for e in ops if e.author), None)
    date = next((e.date for e in ops if e.date), None)
    left = _pending_revisions(reviewed, author, date)
    comments = comments or {}
    ids = {e.id or "" for e in ops}
    out_ops = []
    for e in ops:
        if e.id in halves:
            status = MIXED_STATUS
        elif e.id in kept:
            status = "accepted"
        elif e.id in shown:
            status = "pending" if left or not reviewed.revisions else "accepted"
        else:
            status = "rejected"
        out_ops.append(_entry(original, e, status, comments.get(e.id or "") or e.reason, ids))
    standing = [e for e in ops if e.id in shown and e.id not in halves]
    if G is None:
        from ..graph.build import FAST_STAGES, build_graph

        G = build_graph(original, stages=FAST_STAGES)
    every = len(standing) == len(ops)
    check_budget()
    now = verify(original, plan.planned if every else apply_to_document(original, standing), G, standing,
                 semantic=False)
    rejected_units = {o["unit"] for o in out_ops if o["status"] == "rejected"}
    now = [_rejected_here(f) if f.kind == "old_term" and f.unit in rejected_units else f for f in now]
    now += [_half_decided(o) for o in out_ops if o["status"] == MIXED_STATUS]
    order = {u.id: u.order for u in original.units}
    findings = sort_findings(now, order)
    serious = [f for f in findings if f.severity in ("error", "warning")]
    new_errors: list[Any] = []
    if serious and not every:  # what the full edit had already is not the review's doing
        check_budget()
        planned = verify(original, plan.planned, G, ops, semantic=False)
        before = {(f.kind, f.unit, f.evidence) for f in planned}
        new_errors = [f for f in serious if (f.kind, f.unit, f.evidence) not in before]
    counts = Counter(o["status"] for o in out_ops)
    standing_errors = [f for f in findings if f.severity == "error"]
    return {
        "operations": out_ops,
        "findings": [f.to_json() for f in findings],
        "consistent": not new_errors and not standing_errors,
        "new_findings": [f.to_json() for f in new_errors],
        "exact": in_accepted.exact and in_rejected.exact,
        "counts": {s: counts.get(s, 0) for s in STATUSES}
        | ({MIXED_STATUS: counts[MIXED_STATUS]} if counts.get(MIXED_STATUS) else {}),
    }
