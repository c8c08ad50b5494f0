"""Whether a file under review is the one the operations were written into.

A review trusts two things it reads from a client's bytes: the operations record a file
carries (``docProps/custom.xml``, ODT ``office:meta``; :mod:`adapters.properties`) and the
document itself. Neither may be taken on faith:

- :func:`record_findings`: a record outside ``office:meta`` is ignored (the format keeps
  user-defined properties there only), and a record that does not match the operations the
  revision applied is ignored too (the stored revision decides); each says so as a finding;
- :func:`unrelated`: a reviewed document that shares too little text with the document the
  operations were planned on is another document, and every operation of it "accepted" would
  be a false verdict.
"""
from __future__ import annotations

from typing import Any, Sequence

from adapters.model import Document, Edit

from ..findings import Finding
from .record import record_matches

__all__ = ["record_findings", "record_matches", "unrelated", "UNRELATED_SHARE"]

#: Below this share of the original's unit texts found in the reviewed file's rejected view
#: (every change still pending undone), the file is taken for another document.
UNRELATED_SHARE = 0.5


def record_findings(data: bytes, operations: Sequence[dict[str, Any]] | None, *, name: str) -> list[Finding]:
    """Findings about the record ``data`` carries: copies outside ``office:meta`` (ignored), and,
    given the revision's ``operations``, a record that does not match them (ignored: the
    revision's own operations are reviewed)."""
    from adapters.properties import misplaced_properties

    from .record import read_record

    out: list[Finding] = []
    stray = misplaced_properties(data, name)
    if stray:
        out.append(Finding("review_record_ignored", "warning", None,
                           f"{stray} copy(ies) of the '{name}' record outside office:meta were ignored: "
                           "the format keeps document properties only there"))
    if operations is not None:
        rec = read_record(data)
        if rec is not None and not record_matches(rec, operations):
            out.append(Finding("review_record_ignored", "warning", None,
                               f"the file's '{name}' record does not match the operations this revision applied; "
                               "it was ignored and the revision's own operations were reviewed"))
    return out


def unrelated(original: Document, reviewed: Document, ops: Sequence[Edit] = ()) -> bool:
    """Whether ``reviewed`` is another document than ``original``: fewer than
    :data:`UNRELATED_SHARE` of the original's texts that no operation touches are in the
    reviewed file's rejected view (a reviewer edits some units, never most of them)."""
    touched = {e.unit for e in ops if getattr(e, "unit", None)}
    for e in ops:  # a rename touches every unit that uses the old term
        old = getattr(e, "old", None) if e.op == "rename" else None
        if old:
            touched |= {u.id for u in original.units if old.lower() in u.text.lower()}
    kept = {u.text.strip() for u in original.units if u.id not in touched and u.text.strip()}
    if not kept:
        return False
    there = {u.view(view).strip() for u in reviewed.units for view in ("accepted", "rejected")}
    return len(kept & there) < UNRELATED_SHARE * len(kept)
