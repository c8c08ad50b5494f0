"""Proposals, applied revisions and their files, as plain functions over the store.

A proposal is :func:`edits.pipeline.plan_edit` on the uploaded document, kept in the document's
scope as ``proposal:<id>``; applying writes chosen operations into the ORIGINAL upload with
:func:`edits.pipeline.apply_plan` and keeps the result as ``revision:<n>`` (bytes) with
``revision:<n>:meta``. Every revision starts from the original upload: to build on an edit,
upload the edited file (the task pane and the LibreOffice bridge do so before each action).
"""
from __future__ import annotations

import os
import secrets
from collections import Counter
from dataclasses import replace as dc_replace
from datetime import datetime, timezone
from functools import partial
from typing import Any, Sequence

import networkx as nx

from adapters.model import Document, Edit, Unit

from . import analysis, audit, documents
from .errors import InvalidRequestError, UnknownDocumentError, UnknownProposalError
from .jobs import JobRunner, Progress
from .service import document_graph, json_safe, revision_bytes, wait_for_graph
from .store import Store, dumps

__all__ = [
    "VIEW_KEYS",
    "PROPOSAL_JOB",
    "operation_view",
    "propose",
    "request_proposal",
    "get_proposal",
    "apply",
    "revision_file",
]

#: Keys a response adds to an operation for display; a client may send them back, they are dropped.
VIEW_KEYS = ("unit_label", "unit_kind", "after_label", "before_label", "dest_text")
PROPOSAL_JOB = "proposal"
_KIND_NAMES = {"section": "Heading", "paragraph": "Paragraph", "list_item": "List item", "caption": "Caption",
               "figure": "Figure", "table": "Table", "equation": "Equation", "footnote": "Footnote",
               "endnote": "Endnote", "title": "Title"}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _name(u: Unit | None) -> str | None:
    """What a client shows for a unit: its label, else its kind and first words."""
    if u is None:
        return None
    if u.label:
        return u.label
    words = " ".join(u.text.split())
    return f"{_KIND_NAMES.get(u.kind, u.kind)}: {words[:40]}{'…' if len(words) > 40 else ''}"


def operation_view(doc: Document, e: Edit) -> dict[str, Any]:
    """An operation as the API answers it: ``Edit.to_json()`` plus what a client needs to show
    and place it: ``old`` (= ``before[start:end]`` for a replace), ``unit_label``, ``unit_kind``,
    and for a move ``after_label`` or ``before_label`` with ``dest_text``, the destination's text.
    """
    out = e.to_json()
    unit = doc.get(e.unit) if e.unit else None
    if e.op == "replace" and e.before is not None and e.start is not None and e.end is not None:
        out["old"] = e.before[e.start:e.end]
    out["unit_label"] = _name(unit)
    out["unit_kind"] = unit.kind if unit else None
    if e.op == "move":
        dest = doc.get(e.after or e.before_unit or "")
        out["after_label" if e.after else "before_label"] = _name(dest)
        out["dest_text"] = dest.text if dest else None
    return out


def _plan_view(doc: Document, plan: Any, *, pid: str, doc_id: str, author: str, complete: bool) -> dict[str, Any]:
    tokens = plan.tokens()
    warnings = list(plan.warnings)
    if not complete:
        warnings.append("the dependency graph was incomplete (its job stopped before DEPENDS and RELATED): "
                        "edits that depend on definitions may be missing")
    return json_safe({
        "id": pid,
        "document": doc_id,
        "instruction": plan.instruction,
        "engine": plan.engine,
        "author": author,
        "explanation": plan.explanation,
        "targets": list(plan.targets),
        "operations": [operation_view(doc, e) for e in plan.edits],
        "propagated": [e.id for e in plan.propagated],
        "findings": [f.to_json() for f in plan.findings],
        "warnings": warnings,
        "renumbered": dict(plan.renumbered),
        "context": [{"id": c.id, "label": c.label, "edge": c.edge, "hops": c.hops, "tokens": c.tokens,
                     "reason": c.reason} for c in (plan.context.context if plan.context is not None else ())],
        "context_tokens": tokens["context"],
        "document_tokens": tokens["document"],
        "budget": tokens["budget"],
        "usage": tokens["llm"],
        "graph_complete": complete,
        "created": _now(),
    })


def propose(store: Store, doc_id: str, doc: Document, G: nx.MultiDiGraph, *, instruction: str,
            target: str | None = None, selection: dict[str, Any] | None = None, engine: str = "rules",
            author: str | None = None, budget: int = 1500, semantic: bool = True) -> dict[str, Any]:
    """Plan ``instruction`` on the document and keep the proposal; returns it.

    Operations come in the order a writer applies them: the engine's own (ids ``op-N``,
    ``source`` the engine's name) then the propagated ones (ids ``prop-N``, ``source`` the id of
    the operation they follow from); ``propagated`` lists the latter's ids.

    :raise InstructionNotUnderstoodError, UnknownUnitError, InvalidRequestError,
        EngineUnavailableError: from the pipeline.
    :raise UnknownDocumentError: the document expired meanwhile.
    """
    from .edits.pipeline import plan_edit
    from .impact import resolve_target

    sel_text = None
    if selection:  # the engine gets the unit it lies in (for "this paragraph") and the text
        found = resolve_target(doc, None, selection)
        sel_text = selection.get("text")
        target = target if target is not None else found.units[0]
    plan = plan_edit(doc, G, instruction, engine=engine, author=author or "LEDGER", target=target,
                     selection=sel_text, budget=budget, semantic=semantic)
    plan.operations = [e if e.source else dc_replace(e, source=plan.engine) for e in plan.operations]
    pid = secrets.token_hex(8)
    view = _plan_view(doc, plan, pid=pid, doc_id=doc_id, author=author or "LEDGER", complete=analysis.is_complete(G))
    if not store.put_json(doc_id, f"proposal:{pid}", view, create=False):
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    return view


def _proposal_job(store: Store, runner: JobRunner, doc_id: str, request: dict[str, Any], timeout: float,
                  progress: Progress) -> dict[str, Any]:
    def waiting(details: dict[str, Any]) -> None:
        progress("graph", 0.8 * float(details.get("progress") or 0.0), stage_fraction=details.get("progress"))

    doc = documents.load(store, doc_id)
    G = wait_for_graph(store, runner, doc_id, doc, timeout=timeout, on_wait=waiting)
    progress("plan", 0.8, stage_fraction=0.0)
    return propose(store, doc_id, doc, G, **request)


def request_proposal(store: Store, runner: JobRunner, doc_id: str, request: dict[str, Any], *,
                     wait_timeout: float = 600.0) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``(proposal, None)`` when the complete graph is there, else ``(None, job)``: a job that
    waits for the graph, then plans; its result is the proposal.

    The request's target is checked at once, so an unknown unit is a 404 in either case.

    :raise UnknownDocumentError, UnknownUnitError, InvalidRequestError, ...: as :func:`propose`.
    """
    from .errors import GraphNotReadyError
    from .impact import resolve_target

    doc = documents.load(store, doc_id)
    if request.get("target") is not None or request.get("selection"):
        resolve_target(doc, request.get("target"), request.get("selection"))
    try:
        G = document_graph(store, runner, doc_id, doc, complete=True)
    except GraphNotReadyError:
        rec = runner.create(doc_id, PROPOSAL_JOB, "graph")
        runner.start(rec, partial(_proposal_job, store, runner, doc_id, request, wait_timeout))
        return None, rec
    return propose(store, doc_id, doc, G, **request), None


def get_proposal(store: Store, doc_id: str, pid: str) -> dict[str, Any]:
    """A kept proposal.

    :raise UnknownDocumentError: no such document.
    :raise UnknownProposalError: no such proposal of it.
    """
    documents.get_meta(store, doc_id)
    view = store.get_json(doc_id, f"proposal:{pid}")
    if view is None:
        raise UnknownProposalError(f"document {doc_id!r} has no proposal {pid!r}", proposal=pid)
    return view


def _chosen(view: dict[str, Any], keep: Sequence[str] | None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The proposal's operations to apply, and those skipped because their source was left out."""
    ops = view["operations"]
    if keep is None:
        return ops, []
    ids = {op["id"] for op in ops}
    unknown = [k for k in keep if k not in ids]
    if unknown:
        raise InvalidRequestError(f"proposal {view['id']} has no operation {unknown[0]!r}", operation=unknown[0])
    wanted = set(keep)
    chosen, skipped = [], []
    for op in ops:
        if op["id"] not in wanted:
            continue
        src = op.get("source")
        if src in ids and src not in {c["id"] for c in chosen}:
            skipped.append({"id": op["id"], "reason": f"{op['id']} follows from {src}, which was left out"})
            continue
        chosen.append(op)
    return chosen, skipped


def _as_edits(ops: list[dict[str, Any]], author: str, date: str, default_source: str | None) -> list[Edit]:
    from .edits.operations import edits_from_json

    edits = edits_from_json([{k: v for k, v in op.items() if k not in VIEW_KEYS} for op in ops])
    return [dc_replace(e, author=author, date=date, source=e.source or default_source) for e in edits]


def _unique_ids(ops: list[Edit]) -> list[Edit]:
    """Every operation with an id of its own: a missing or repeated id becomes ``op-N``
    (a ``rename`` given directly expands into several replaces without ids)."""
    counts = Counter(e.id for e in ops if e.id)
    used = set(counts)
    out = []
    for i, e in enumerate(ops):
        if not e.id or counts[e.id] > 1:
            n = i + 1
            while f"op-{n}" in used:
                n += 1
            used.add(f"op-{n}")
            e = dc_replace(e, id=f"op-{n}")
        out.append(e)
    return out


def _next_revision(store: Store, doc_id: str) -> int:
    """A revision number no other apply of this document has taken (counted in the store)."""
    while True:
        rev = store.incr(f"revisions:{doc_id}", store.ttl)
        if store.get(doc_id, f"revision:{rev}:meta") is None:
            return rev


def apply(store: Store, doc_id: str, *, author: str, who: str, audit_log: str,
          proposal_id: str | None = None, keep: Sequence[str] | None = None,
          operations: list[dict[str, Any]] | None = None, instruction: str | None = None,
          semantic: bool = True) -> dict[str, Any]:
    """Write operations into the original upload as tracked changes by ``author``; keep the result.

    The operations are a proposal's (all, or the ids in ``keep``; a propagated operation whose
    source is left out is skipped too) or ``operations`` given as Edit JSON. Every operation gets
    ``author`` and the current date. The findings are the verification of the operations as
    applied plus what reading the written file back showed. The apply is recorded in the audit
    log (``who`` is the client's key fingerprint).

    Returns ``{document, revision, author, instruction, operations, skipped, findings, created}``.

    :raise UnknownProposalError, UnknownDocumentError, UnknownUnitError: nothing to apply to.
    :raise InvalidRequestError: malformed operations, or none left to apply.
    :raise EditConflictError: an operation's ``before`` is not the unit's text in the upload.
    :raise EngineUnavailableError: the tracked-change writer is not installed.
    """
    from .edits.operations import apply_to_document, validate_edits
    from .edits.pipeline import apply_plan, merge_findings
    from .findings import sort_findings
    from .verify import verify

    skipped: list[dict[str, Any]] = []
    if proposal_id is not None:
        view = get_proposal(store, doc_id, proposal_id)
        chosen, skipped = _chosen(view, keep)
        instruction = instruction or view["instruction"]
        default_source = view["engine"]
    else:
        chosen, default_source = list(operations or []), "client"
    original, _meta = documents.original(store, doc_id)
    doc = documents.load(store, doc_id)
    if not chosen:
        why = "; ".join(f"{s['id']}: {s['reason']}" for s in skipped)
        raise InvalidRequestError("no operation left to apply" + (f" ({why})" if why else ""), skipped=skipped)
    date = datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    ops = validate_edits(doc, _as_edits(chosen, author, date, default_source))
    ops = _unique_ids(ops)
    written = apply_plan(original, doc, ops)
    G = analysis.load_graph(store, doc_id)
    checked = verify(doc, apply_to_document(doc, ops), G, ops, semantic=semantic and G is not None)
    order = {u.id: u.order for u in doc.units}
    findings = [f.to_json() for f in sort_findings(merge_findings(checked, written.findings), order)]
    rev = _next_revision(store, doc_id)
    record = {"document": doc_id, "revision": rev, "author": author, "instruction": instruction,
              "proposal": proposal_id, "operations": [operation_view(doc, e) for e in ops],
              "skipped": skipped, "findings": findings, "created": _now()}
    if not store.put(doc_id, {f"revision:{rev}": written.data, f"revision:{rev}:meta": dumps(json_safe(record))},
                     create=False):
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    audit.record(audit_log, who=who, document=doc_id, instruction=instruction, operations=ops, author=author)
    return record


def revision_file(store: Store, doc_id: str, rev: int) -> tuple[bytes, str, str]:
    """``(bytes, media type, download name)`` of a revision: ``<name>.ledger.<ext>``.

    :raise UnknownDocumentError, UnknownRevisionError: no such document or revision.
    """
    meta = documents.get_meta(store, doc_id)
    data = revision_bytes(store, doc_id, rev)
    stem = os.path.splitext(meta.get("filename") or doc_id)[0] or doc_id
    return data, documents.MEDIA_TYPES[meta["format"]], f"{stem}.ledger.{meta['format']}"
