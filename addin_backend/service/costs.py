"""What a rename, a review and a check will cost, estimated from sizes before any work (issue 33).

Each estimate reads only sizes a door has in hand (the parsed upload, the revision's record, the
style sheet), in one pass over the text at most, and decides two things before the work starts
(:data:`addin_backend.budget.COSTS`): past ``LEDGER_MAX_<KIND>_COST`` the work is refused with
``413 too_large`` (the estimate, the limit and what to do); past ``LEDGER_SYNC_<KIND>_COST`` it
is a job on the edit lane (202 and a job to poll) rather than an answer held on a web thread.

- A **rename** (or a replacement of a term everywhere) becomes one operation per occurrence, and
  each operation carries its paragraph's text (``before``), so what its proposal stores, and the
  work its propagation, verification and comments do, is the sum over paragraphs of occurrences
  x paragraph size: one 2 KB paragraph with 5,000 occurrences is a proposal of about 125 MB.
  Occurrences are counted as a case-blind substring of the term's stem (its forms, plural and
  possessive, included), which counts at least what the term matcher will find.
- A **review** aligns each change of the revision with the reviewed file's paragraphs: changes
  x paragraphs.
- A **check** with a style sheet searches each sheet entry in the units that hold its first word:
  counted on the check's word index before any search (:func:`addin_backend.checks.style.terms.search_cost`,
  where every door's check runs).
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from adapters.model import Document

from ..budget import check_cost, cost_setting

__all__ = ["OPERATION_OVERHEAD", "rename_terms", "rename_cost", "proposal_cost", "operations_cost", "needs_job", "review_cost",
           "refuse_review"]

#: Characters an operation's JSON holds besides its paragraph's text (ids, labels, reason, comment).
OPERATION_OVERHEAD = 400
_SPACE = re.compile(r"[\s\-\u2010\u2011]+")


def _flat(text: str) -> str:
    """Text as occurrences are counted in it: case folded, hyphens and runs of space as one space."""
    return _SPACE.sub(" ", text.casefold())


def _stem(term: str) -> str:
    """The part of a term that every form of it contains ("polic" of "policy": "policies",
    "policy's"), flattened as :func:`_flat` does."""
    key = _flat(term).strip()
    words = key.split(" ")
    if len(words[-1]) > 4:
        words[-1] = words[-1][:-2]
    return " ".join(words)


def rename_terms(request: dict[str, Any]) -> list[str]:
    """The terms a proposal request searches the whole document for: the old term of a rename or
    replacement the rules engine reads in its instruction (any engine: ``auto`` tries the rules
    first, and a model's rename is as large as theirs)."""
    from ..edits.rules import searched_terms

    return [t for t in searched_terms(str(request.get("instruction") or "")) if t.strip()]


def rename_cost(doc: Document, terms: Iterable[str]) -> tuple[int, int]:
    """``(cost, occurrences)`` of renaming ``terms`` in ``doc``: the characters the operations
    would carry (occurrences x their paragraph's size, summed) and how many occurrences there are."""
    stems = [s for s in {_stem(t) for t in terms} if s]
    if not stems:
        return 0, 0
    cost = found = 0
    for unit in doc.units:
        text = unit.text
        if not text:
            continue
        flat = _flat(text)
        n = sum(flat.count(s) for s in stems)
        if n:
            found += n
            cost += n * (len(text) + OPERATION_OVERHEAD)
    return cost, found


def proposal_cost(doc: Document, request: dict[str, Any]) -> int:
    """The estimated cost of a proposal request (0: no document-wide search), refused past
    ``LEDGER_MAX_RENAME_COST`` before any work.

    :raise WorkTooLargeError: ``413 too_large``, with the estimate, the limit and what to do.
    """
    terms = rename_terms(request)
    cost, found = rename_cost(doc, terms)
    check_cost("rename", cost, f"renaming {terms[0][:60]!r}" if terms else "this proposal",
               "rename in one section at a time ('... in Section 3'), or in fewer, shorter paragraphs",
               occurrences=found, paragraph_characters=sum(len(u.text) for u in doc.units))
    return cost


def operations_cost(doc: Document, operations: Iterable[dict[str, Any]]) -> int:
    """The estimated cost of a client's operations (their ``rename`` operations: each becomes one
    operation per occurrence), refused past ``LEDGER_MAX_RENAME_COST`` before any work.

    :raise WorkTooLargeError: ``413 too_large``.
    """
    terms = [str(op.get("old") or "") for op in operations if isinstance(op, dict) and op.get("op") == "rename"]
    cost, found = rename_cost(doc, terms)
    check_cost("rename", cost, f"renaming {terms[0][:60]!r}" if terms else "these operations",
               "rename below one unit at a time (the operation's unit), or in fewer, shorter paragraphs",
               occurrences=found, paragraph_characters=sum(len(u.text) for u in doc.units))
    return cost


def needs_job(kind: str, cost: int) -> bool:
    """Whether work of ``kind`` estimated at ``cost`` runs as a job (past ``LEDGER_SYNC_<KIND>_COST``)."""
    return cost > cost_setting(kind, "sync")


def review_cost(changes: int, paragraphs: int) -> int:
    """A review's cost: each change aligned against the reviewed file's paragraphs."""
    return max(0, changes) * max(0, paragraphs)


def refuse_review(changes: int, paragraphs: int) -> int:
    """The review's cost, refused past ``LEDGER_MAX_REVIEW_COST`` before any alignment.

    :raise WorkTooLargeError: ``413 too_large``.
    """
    cost = review_cost(changes, paragraphs)
    check_cost("review", cost, f"reviewing {changes:,} changes", "apply and review the edit in smaller parts",
               changes=changes, paragraphs=paragraphs)
    return cost
