"""Fixing ``ledger check`` findings as tracked changes, through the edit pipeline.

A finding lists its places, each with the text a fix writes there. :func:`plan_fixes` turns the
chosen findings into ``replace`` operations (each with a reason naming the finding and, for a
style-sheet rule, the rule), propagates them (:func:`edits.propagate.propagate`: renaming a
defined term renames it in the units that depend on its definition; a term renamed in its
definition carries the rename along) and verifies the result, as a plan of the rules engine is;
the plan is then written like any proposal (:func:`service.edits.write_operations`), so the
written file is read back and checked: accepted, it reads as the fixed text, rejected, as the
original.

The doors: ``ledger check FILE --fix KIND|all [--author NAME] -o OUT`` (:func:`fix_file`) and
``POST /api/v1/documents/{id}/check/fix`` (:func:`fix_stored`: a proposal to preview, or
applied at once).
"""
from __future__ import annotations

import secrets
from dataclasses import replace as dc_replace
from typing import Any, Iterable, Sequence

import networkx as nx

from adapters.model import Document, Edit, Replace
from adapters.vocabulary import revision_date

from ..errors import InvalidRequestError
from ..findings import FINDING_KINDS, Finding, count_by_severity, sort_findings
from ..store import Store
from ..checks.style.sheet import StyleSheet
from . import graphs, quota
from .jsonable import json_safe

__all__ = ["FIX_ENGINE", "select_findings", "fix_operations", "plan_fixes", "fix_file", "fix_stored"]

#: The engine name a fix's operations carry (``source``) and its proposal names.
FIX_ENGINE = "check"


def select_findings(findings: Sequence[Finding], kinds: Iterable[str] | str | None = None,
                    ids: Iterable[str] | None = None) -> list[Finding]:
    """The fixable findings of the given kinds (``"all"``: every kind) or ids.

    :raise InvalidRequestError: an unknown kind, or an id the check does not report.
    """
    chosen = list(findings)
    if ids is not None:
        ids = list(ids)
        by_id = {f.id: f for f in findings}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise InvalidRequestError(f"no finding {missing[0]!r} in this document's check (the document or the style "
                                      f"sheet changed since?)", finding=missing[0])
        chosen = [by_id[i] for i in dict.fromkeys(ids)]
    if kinds is not None:
        wanted = {k.strip() for k in (kinds.split(",") if isinstance(kinds, str) else kinds) if k.strip()}
        if "all" not in wanted:
            bad = sorted(k for k in wanted if k not in FINDING_KINDS)
            if bad:
                raise InvalidRequestError(f"unknown finding kind {bad[0]!r}; kinds: {', '.join(FINDING_KINDS)}",
                                          kind=bad[0])
            chosen = [f for f in chosen if f.kind in wanted]
    return [f for f in chosen if f.fixable]


def _in_field(doc: Document, uid: str, start: int, end: int) -> bool:
    """A span touching a field the application regenerates (a cross-reference, a caption number)."""
    u = doc.unit(uid)
    return any(f.kind != "hyperlink" and f.end > f.start and start < f.end and f.start < end
               and not (start == end and start in (f.start, f.end)) for f in u.fields)


def fix_operations(doc: Document, findings: Sequence[Finding], *, author: str = "LEDGER",
                   date: str | None = None) -> tuple[list[Edit], list[dict[str, Any]]]:
    """``replace`` operations for the places of ``findings`` (most severe first wins where two
    places overlap), and the places skipped with the reason."""
    taken: dict[str, list[tuple[int, int]]] = {}
    ops: list[Edit] = []
    skipped: list[dict[str, Any]] = []
    for f in sort_findings(findings, {u.id: u.order for u in doc.units}):
        # words for the reader; the finding's id stays with the proposal's fixes, not in the text
        why = f"check {f.kind}: {f.message}" + (f" (style rule {f.rule})" if f.rule else "")
        for p in f.places:
            if p.replacement is None or p.replacement == p.text:
                continue
            unit = doc.get(p.unit)
            if unit is None or unit.text[p.start:p.end] != p.text:
                skipped.append({"finding": f.id, "unit": p.unit, "reason": "the text changed since the check"})
                continue
            spans = taken.setdefault(p.unit, [])
            if any(p.start < b and a < p.end or (p.start == p.end and a <= p.start <= b) or
                   (a == b and p.start <= a <= p.end) for a, b in spans):
                skipped.append({"finding": f.id, "unit": p.unit, "reason": "another fix changes this text"})
                continue
            if _in_field(doc, p.unit, p.start, p.end):
                skipped.append({"finding": f.id, "unit": p.unit, "reason": "a field's result (it regenerates)"})
                continue
            spans.append((p.start, p.end))
            ops.append(Replace(unit=p.unit, start=p.start, end=p.end, text=p.replacement, old=p.text,
                               author=author, date=date, reason=why, before=unit.text, source=FIX_ENGINE))
    return ops, skipped


def plan_fixes(doc: Document, G: nx.MultiDiGraph | None, findings: Sequence[Finding], *, author: str = "LEDGER",
               date: str | None = None, kinds: Sequence[str] | str | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """The :class:`edits.pipeline.EditPlan` that fixes ``findings``: their operations (``op-N``),
    what propagation adds (``prop-N``) and what verification finds; and the skipped places.

    :raise InvalidRequestError: nothing to fix.
    """
    from ..edits.operations import apply_to_document, validate_edits
    from ..edits.pipeline import EditPlan, merge_findings
    from ..edits.propagate import propagate
    from ..verify.after_edit import verify

    ops, skipped = fix_operations(doc, findings, author=author, date=date)
    if not ops:
        raise InvalidRequestError("nothing to fix: no chosen finding has a replacement", skipped=skipped)
    valid = validate_edits(doc, ops)
    named = {id(e): e.id or f"op-{i + 1}" for i, e in enumerate(valid)}
    ops = valid.map(lambda e: dc_replace(e, id=named[id(e)]))
    prop = propagate(doc, G, ops)
    edits = prop.checked if prop.checked is not None else validate_edits(doc, ops + prop.edits)
    after = prop.after if prop.after is not None else apply_to_document(doc, edits)
    checked = verify(doc, after, G, edits, semantic=False)
    order = {u.id: u.order for u in after.units}
    names = sorted({f.kind for f in findings})
    what = kinds if isinstance(kinds, str) else ",".join(kinds) if kinds else ",".join(names)
    plan = EditPlan(
        instruction=f"fix {what}", engine=FIX_ENGINE, operations=ops, propagated=prop.edits,
        findings=sort_findings(merge_findings(prop.findings, checked), order),
        targets=list(dict.fromkeys(e.unit for e in ops if e.unit)),
        explanation=f"{len(ops)} change(s) fixing {len(findings)} finding(s) of {len(names)} kind(s): {', '.join(names)}",
        renumbered=prop.to_json().get("renumbered", {}), checked=edits, after=after,
    )
    return plan, skipped


def fix_file(path: str, doc: Document, *, kinds: str, output: str | None, author: str = "LEDGER",
             style: StyleSheet | None = None, date: str | None = None) -> dict[str, Any]:
    """``ledger check FILE --fix KIND|all``: check, fix the chosen kinds as tracked changes by
    ``author`` and write ``output`` (``None``: plan only). Returns ``{path, output, fixed,
    operations, propagated, skipped, findings, counts, remaining}``: the findings fixed, the
    operations as written, what verification and the read-back found, and the check's findings
    that were not fixed."""
    from ..checks.document import check_document
    from .edits import as_written, plan_after, write_checked
    from .files import read_bytes, write_bytes

    G = graphs.build(doc, "fast")
    findings = check_document(doc, G, style=style)
    chosen = select_findings(findings, kinds)
    report: dict[str, Any] = {"path": path, "output": output, "kinds": kinds, "fixed": [f.to_json() for f in chosen]}
    if not chosen:
        if output is not None:
            write_bytes(output, read_bytes(path))
        report.update({"operations": [], "propagated": [], "skipped": [], "findings": [], "counts": count_by_severity([]),
                       "remaining": [f.to_json() for f in findings]})
        return json_safe(report)
    plan, skipped = plan_fixes(doc, G, chosen, author=author, date=date, kinds=kinds)
    from ..edits.pipeline import merge_findings

    found = list(plan.findings)
    ops, prop = plan.operations, plan.propagated
    if output is not None:
        ops = as_written(doc, plan.edits, author, date or revision_date(), FIX_ENGINE)
        written = write_checked(read_bytes(path), doc, G, ops, after=plan_after(doc, plan), findings=plan.findings)
        write_bytes(output, written.data)
        found = merge_findings(found, written.findings)
        ids = {e.id for e in prop}
        ops = [e for e in written.operations if e.id not in ids]
        prop = [e for e in written.operations if e.id in ids]
    fixed_ids = {f.id for f in chosen}
    report.update({
        "operations": [e.to_json() for e in ops], "propagated": [e.to_json() for e in prop], "skipped": skipped,
        "findings": [f.to_json() for f in found], "counts": count_by_severity(found),
        "remaining": [f.to_json() for f in findings if f.id not in fixed_ids],
    })
    return json_safe(report)


def fix_stored(store: Store, doc_id: str, *, ids: Sequence[str] | None = None, kinds: Sequence[str] | None = None,
               author: str | None = None, style: StyleSheet | None = None, apply: bool = False,
               who: str = "anonymous", audit_log: str = "",
               account: quota.Account | None = None) -> dict[str, Any]:
    """``POST /documents/{id}/check/fix``: the chosen findings of the upload's check (by ``ids``,
    as the check reported them, or by ``kinds``) as a Proposal kept as ``proposal:<id>`` -- the
    preview, applied with ``POST .../apply`` like any proposal -- or, with ``apply``, written at
    once as a revision (the Applied record). What is kept (the proposal, the revision) is capped
    and counted in ``account``'s quota before it is written.

    :raise UnknownDocumentError, InvalidRequestError: as the check and the apply.
    :raise QuotaExceededError: what would be kept passes the cap or the quota; nothing is kept.
    """
    from ..store import documents
    from ..checks.document import check_document
    from ..errors import UnknownDocumentError
    from ..store import dumps
    from . import edits as edit_service

    if ids is None and kinds is None:
        raise InvalidRequestError("name the findings to fix (findings: [ids]) or their kinds (kinds: [...] or ['all'])")
    doc = documents.load(store, doc_id)
    G = graphs.build(doc, "fast")
    findings = check_document(doc, G, style=style)
    chosen = select_findings(findings, kinds, ids)
    if not chosen:
        raise InvalidRequestError("nothing to fix: none of the chosen findings has a replacement")
    author = author or edit_service.DEFAULT_AUTHOR
    plan, skipped = plan_fixes(doc, G, chosen, author=author, kinds=kinds)
    pid = secrets.token_hex(8)
    view = edit_service.proposal_view(doc, plan, pid=pid, doc_id=doc_id, author=author, complete=True)
    view["fixes"] = [f.to_json() for f in chosen]
    view["skipped"] = skipped
    if not quota.keep(store, doc_id, {f"proposal:{pid}": dumps(view)}, account=account, what="this fix's proposal"):
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    if not apply:
        return view
    applied = edit_service.apply(store, doc_id, author=author, who=who, audit_log=audit_log, proposal_id=pid,
                                 instruction=plan.instruction, semantic=False, account=account)
    applied["fixes"] = view["fixes"]
    return applied
