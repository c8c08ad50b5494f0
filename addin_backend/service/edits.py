"""Edits: plan an instruction, keep it as a proposal, apply operations as tracked changes, and
``edit`` = propose then apply in one go (``ledger edit``).

A plan is :func:`edits.pipeline.plan_edit` on the document; :func:`proposal_view` is how it is
answered (``POST /documents/{id}/proposals``), and :func:`propose` keeps that in the document's
scope as ``proposal:<id>``. Writing is :func:`write_checked`: operations validated for the
document, the document they make and their verification, worded as comments once, written into
the ORIGINAL package with :func:`edits.pipeline.apply_plan` and read back. :func:`edit` hands it
its plan as it is (typed: nothing is validated, applied, verified or worded twice, no JSON);
:func:`write_operations` is the door for operations that come as JSON (a kept proposal, a
client's): they get the author and date, are validated, applied and verified once, then written
the same way. :func:`apply` keeps the result as a revision of an upload (every revision starts
from the original upload: to build on an edit, upload the edited file); :func:`edit` writes it
into a file. So ``ledger edit`` gives exactly the operations, findings and tracked changes of
propose followed by apply.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import Any, Callable, Sequence

import networkx as nx

from adapters.model import Document, Edit, Unit
from adapters.vocabulary import KIND_NAMES, revision_date, timestamp

from ..budget import check_memory, work_memory_mb
from ..budget import check as check_budget
from ..errors import InvalidRequestError, UnknownDocumentError, UnknownProposalError
from ..findings import Finding, count_by_severity
from ..jobs.runner import MODEL_LANE, JobRunner, Progress
from ..store import Store, documents, dumps
from . import audit, graphs, quota, shared_parse
from .context import DEFAULT_BUDGET, Selection
from ..foreground import serving
from .graph_job import PROPOSAL_STAGES, document_graph, graph_job_id, wait_for_graph
from .jsonable import json_safe
from .revisions import keep_revision, next_revision

__all__ = [
    "VIEW_KEYS",
    "PROPOSAL_JOB",
    "operation_view",
    "plan",
    "proposal_view",
    "propose",
    "plan_operations",
    "propose_operations",
    "request_proposal",
    "get_proposal",
    "Written",
    "write_checked",
    "as_written",
    "plan_after",
    "write_operations",
    "write_memory",
    "apply",
    "Edited",
    "edit",
    "edit_file",
]

#: Keys a response adds to an operation for display; a client may send them back, they are dropped.
VIEW_KEYS = ("unit_label", "unit_kind", "after_label", "before_label", "dest_text", "comment")
PROPOSAL_JOB = "proposal"
DEFAULT_AUTHOR = "LEDGER"


def _now() -> str:
    return timestamp()


def _edit_date() -> str:
    """The date a tracked change carries: UTC, seconds, ``Z``."""
    return revision_date()


def _name(u: Unit | None) -> str | None:
    """What a client shows for a unit: its label, else its kind and first words."""
    if u is None:
        return None
    if u.label:
        return u.label
    words = " ".join(u.text.split())
    return f"{KIND_NAMES.get(u.kind, u.kind)}: {words[:40]}{'…' if len(words) > 40 else ''}"


def operation_view(doc: Document, e: Edit, comment: str | None = None) -> dict[str, Any]:
    """An operation as the API answers it: ``Edit.to_json()`` plus what a client needs to show
    and place it: ``old`` (= ``before[start:end]`` for a replace), ``unit_label``, ``unit_kind``,
    for a move ``after_label`` or ``before_label`` with ``dest_text``, the destination's text,
    and ``comment``, the text of the comment that says why (:mod:`edits.comments`).
    """
    out = e.to_json()
    if comment:
        out["comment"] = comment
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


# --- planning and proposals -----------------------------------------------------------------


def plan(doc: Document, G: nx.MultiDiGraph, *, instruction: str, target: str | None = None,
         selection: Selection | None = None, engine: str = "rules", author: str | None = None,
         budget: int = DEFAULT_BUDGET, semantic: bool = True, names: str = "auto") -> Any:
    """Plan ``instruction`` on ``doc`` (its graph ``G``); nothing is written or kept.

    ``names`` is how a rename treats the term inside a name of its own ("Destination Connection
    ID" for "connection ID"): ``auto`` follows the document's usage, ``rename`` renames inside
    names too, ``keep`` keeps every capitalised use (``edits.renaming.NAME_POLICIES``); the
    instruction's own words ("including names") win. Every door passes it here.

    A selection (``{text, unit?, start?, end?}`` or the text) gives the engine the unit it lies in
    (for "this paragraph") and the text. The engine's own operations get ``source`` = its name
    (:func:`edits.pipeline.plan_edit`).
    Returns the :class:`edits.pipeline.EditPlan`.

    :raise InstructionNotUnderstoodError, UnknownUnitError, InvalidRequestError,
        EngineUnavailableError: from the pipeline.
    """
    from ..edits.pipeline import plan_edit
    from ..verify.impact import resolve_target

    sel_text = None
    if selection:
        sel = {"text": selection} if isinstance(selection, str) else dict(selection)
        found = resolve_target(doc, None, sel)
        sel_text = sel.get("text")
        target = target if target is not None else found.units[0]
    with serving():  # someone waits for it: the background semantic stage gives way
        return plan_edit(doc, G, instruction, engine=engine, author=author or DEFAULT_AUTHOR, target=target,
                         selection=sel_text, budget=budget, semantic=semantic, names=names)


#: What each edge type gives a proposal, for the warning of one made without it.
_EDGE_WORDS = {"REFERENCES": "cross-references", "DEPENDS": "uses of defined terms",
               "RELATED": "related passages"}


def proposal_view(doc: Document, p: Any, *, pid: str | None, doc_id: str | None, author: str | None,
                  complete: bool, partial: Sequence[str] = (), notes: Sequence[Any] | None = None) -> dict[str, Any]:
    """A plan as the Proposal JSON (``ROUTES.md``): every operation in the order a writer applies
    them (the engine's ``op-N``, then the propagated ``prop-N``; ``propagated`` lists those);
    ``partial`` the edge types the graph did not have yet (made while the job still ran);
    ``notes`` the comments already worded for these operations (default: worded here)."""
    from ..edits.comments import comment_notes, note_map

    tokens = p.tokens()
    warnings = list(p.warnings)
    if notes is None:
        notes = comment_notes(doc, p.edits, p.findings, instruction=p.instruction)
    texts = note_map(notes)
    if partial:
        missing = " and ".join(_EDGE_WORDS.get(t, t.lower()) for t in partial)
        if "DEPENDS" in partial:
            warnings.append(f"Made before the analysis of the document was finished: {missing} were not used, "
                            "so changes that follow from definitions may be missing.")
        else:
            warnings.append(f"Made while the document was still being analysed: {missing} were not used "
                            "to choose the context.")
    elif not complete:
        warnings.append("The analysis of the document stopped before it was finished: uses of defined terms "
                        "and related passages were not used, so changes that follow from definitions may be "
                        "missing.")
    return json_safe({
        "id": pid,
        "document": doc_id,
        "instruction": p.instruction,
        "engine": p.engine,
        "author": author or DEFAULT_AUTHOR,
        "explanation": p.explanation,
        "targets": list(p.targets),
        "operations": [operation_view(doc, e, texts.get(e.id or "")) for e in p.edits],
        "propagated": [e.id for e in p.propagated],
        "findings": [f.to_json() for f in p.findings],
        "notes": [n.to_json() for n in notes if n.unit],
        "warnings": warnings,
        "renumbered": dict(p.renumbered),
        "context": [{"id": c.id, "label": c.label, "edge": c.edge, "hops": c.hops, "tokens": c.tokens,
                     "reason": c.reason} for c in (p.context.context if p.context is not None else ())],
        "context_tokens": tokens["context"],
        "document_tokens": tokens["document"],
        "budget": tokens["budget"],
        "usage": tokens["llm"],
        "graph_complete": complete,
        "partial": list(partial),
        "created": _now(),
    })


def _keep_proposal(store: Store, doc_id: str, doc: Document, p: Any, *, author: str | None,
                   G: nx.MultiDiGraph, account: quota.Account | None = None, job_result: bool = False) -> dict[str, Any]:
    """Keep a plan's Proposal JSON as ``proposal:<id>`` in the document's scope; return it. What
    it stores is capped and counted in ``account``'s quota first (:func:`.quota.keep`); with
    ``job_result`` twice (a job's record keeps the proposal it returns as its result too).

    :raise UnknownDocumentError: the document expired meanwhile.
    :raise QuotaExceededError: the proposal is over ``LEDGER_MAX_DERIVED_MB`` or past the quota.
    """
    pid = secrets.token_hex(8)
    view = proposal_view(doc, p, pid=pid, doc_id=doc_id, author=author, complete=graphs.is_complete(G),
                         partial=graphs.missing_edges(G))
    kept = dumps(view)
    if not quota.keep(store, doc_id, {f"proposal:{pid}": kept}, account=account, what="this proposal",
                      carried=len(kept) if job_result else 0):
        raise UnknownDocumentError(f"no document {doc_id!r} (never uploaded, deleted or expired)")
    return view


def propose(store: Store, doc_id: str, doc: Document, G: nx.MultiDiGraph, *, instruction: str,
            target: str | None = None, selection: Selection | None = None, engine: str = "rules",
            author: str | None = None, budget: int = DEFAULT_BUDGET, semantic: bool = True,
            names: str = "auto", account: quota.Account | None = None, job_result: bool = False) -> dict[str, Any]:
    """:func:`plan` on an upload, kept as ``proposal:<id>`` (counted in ``account``'s quota, twice
    with ``job_result``: a job's record will carry it too); returns the Proposal.

    :raise InstructionNotUnderstoodError, UnknownUnitError, InvalidRequestError,
        EngineUnavailableError: from the pipeline.
    :raise UnknownDocumentError: the document expired meanwhile.
    """
    p = plan(doc, G, instruction=instruction, target=target, selection=selection, engine=engine, author=author,
             budget=budget, semantic=semantic, names=names)
    return _keep_proposal(store, doc_id, doc, p, author=author, G=G, account=account, job_result=job_result)


def plan_operations(doc: Document, G: nx.MultiDiGraph, operations: list[dict[str, Any]], *,
                    instruction: str | None = None, author: str | None = None, budget: int = DEFAULT_BUDGET,
                    semantic: bool = True, names: str = "auto") -> Any:
    """Plan operations a client wrote itself (Operation JSON, as ``POST /apply`` takes them):
    validated, propagated and verified as :func:`plan` does an engine's; ``source`` ``client``;
    ``names`` as for :func:`plan`, for the client's renames.

    :raise InvalidRequestError, UnknownUnitError, EditConflictError: operations that do not validate.
    """
    from ..edits.pipeline import plan_given

    edits = _as_edits(operations, author or DEFAULT_AUTHOR, _edit_date(), "client")
    return plan_given(doc, G, edits, instruction=instruction or "", budget=budget, semantic=semantic, names=names)


def propose_operations(store: Store, doc_id: str, doc: Document, G: nx.MultiDiGraph,
                       operations: list[dict[str, Any]], *, instruction: str | None = None,
                       author: str | None = None, budget: int = DEFAULT_BUDGET,
                       semantic: bool = True, names: str = "auto",
                       account: quota.Account | None = None) -> dict[str, Any]:
    """:func:`plan_operations` on an upload, kept as ``proposal:<id>`` as :func:`propose` keeps an
    engine's (counted in ``account``'s quota); returns the Proposal (engine ``client``), to apply
    with :func:`apply`.

    :raise InvalidRequestError, UnknownUnitError, EditConflictError: operations that do not validate.
    :raise UnknownDocumentError: the document expired meanwhile.
    """
    from .costs import operations_cost

    operations_cost(doc, operations)  # refused past LEDGER_MAX_RENAME_COST before any work
    p = plan_operations(doc, G, operations, instruction=instruction, author=author, budget=budget,
                        semantic=semantic, names=names)
    return _keep_proposal(store, doc_id, doc, p, author=author, G=G, account=account)


def _proposal_job(store: Store, runner: JobRunner, progress: Progress, *, doc_id: str, request: dict[str, Any],
                  timeout: float, account: quota.Account | None = None) -> dict[str, Any]:
    """The proposal job as a task (:meth:`JobRunner.submit`): wait for the complete graph, plan."""
    def waiting(details: dict[str, Any]) -> None:
        progress("graph", 0.8 * float(details.get("progress") or 0.0), stage_fraction=details.get("progress"))

    doc = documents.load(store, doc_id)
    G = wait_for_graph(store, runner, doc_id, doc, timeout=timeout, on_wait=waiting, need=PROPOSAL_STAGES)
    progress("plan", 0.8, stage_fraction=0.0)
    return propose(store, doc_id, doc, G, **request, account=account, job_result=True)


def _may_call_a_model(engine: str) -> bool:
    """Whether a proposal by ``engine`` may wait for a model: ``llm``, or ``auto`` when a model is
    configured (an unconfigured ``llm`` is refused at once, ``503 engine_unavailable``)."""
    from ..edits.llm import llm_configured

    return engine in ("llm", "auto") and llm_configured()


def request_proposal(store: Store, runner: JobRunner, doc_id: str, request: dict[str, Any], *,
                     wait_timeout: float = 600.0, account: quota.Account | None = None
                     ) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``(proposal, None)`` when the complete graph is there, else ``(None, job)``: a job that
    waits for the graph, then plans; its result is the proposal. A proposal that may call a model
    (engine ``llm``, or ``auto`` with one configured) is always a job: a model may take minutes,
    which must hold a job thread of the edit lane, never a web thread (issue 33, item 1). So is a
    rename whose estimated cost (:func:`.costs.proposal_cost`: occurrences x paragraph size) is
    past ``LEDGER_SYNC_RENAME_COST``; past ``LEDGER_MAX_RENAME_COST`` it is refused before any work.
    Every door (REST, MCP) comes here. The proposal is counted in ``account``'s quota.

    The request's target is checked at once, so an unknown unit is a 404 in either case.

    :raise UnknownDocumentError, UnknownUnitError, InvalidRequestError, ...: as :func:`propose`.
    :raise WorkTooLargeError: ``413 too_large``: the estimated cost is past the limit.
    """
    from . import costs

    from ..errors import GraphNotReadyError
    from ..verify.impact import resolve_target

    doc = documents.load(store, doc_id)
    if request.get("target") is not None or request.get("selection"):
        resolve_target(doc, request.get("target"), request.get("selection"))
    G = None
    large = costs.needs_job("rename", costs.proposal_cost(doc, request))
    if not large and not _may_call_a_model(str(request.get("engine") or "rules")):
        try:
            G = document_graph(store, runner, doc_id, doc, complete=True, need=PROPOSAL_STAGES)
        except GraphNotReadyError:
            pass
    if G is None:  # a proposal that may wait for a model takes a slot of the model lane, not the edit lane's
        lane = MODEL_LANE if _may_call_a_model(str(request.get("engine") or "rules")) else None
        rec = runner.create(doc_id, PROPOSAL_JOB, "graph", extra={"lane": lane} if lane else None)
        # on a queue it runs once the graph job has ended (no worker waits for a queued graph)
        runner.submit(rec, _proposal_job, interactive=True, after=graph_job_id(doc_id), doc_id=doc_id,
                      request=request, timeout=wait_timeout, account=list(account) if account else None)
        return None, rec
    return propose(store, doc_id, doc, G, **request, account=account), None


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


# --- writing ----------------------------------------------------------------------------------


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
    by_id = {op["id"]: op for op in ops}
    chosen: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for op in ops:
        if op["id"] not in wanted:
            continue
        src = op.get("source")
        if src in ids and src not in {c["id"] for c in chosen}:
            skipped.append({"id": op["id"], "source": src,
                            "reason": f"{_op_words(op)} follows from {_op_words(by_id[src])}, which was left out"})
            continue
        chosen.append(op)
    return chosen, skipped


#: What writing costs in memory, per byte of the package's XML (its trees, the read-back and
#: their graphs), per character of the document's text (the copies a plan and a verification
#: make), per operation and per character of the unit text each operation carries (``before``
#: in the revision's record and the proposal); about 1.5 to 2 times the peaks ``python -m
#: benchmarks.write_cost`` measured (7,000- and 20,000-unit specifications, rfc9000 .docx and
#: .odt, MQTT-SN, 1,000 renames in one paragraph: docs/benchmarks.md), so that a refusal is never
#: late and never far from need.
_PER_XML_BYTE = 24
_PER_TEXT_CHAR = 50
_PER_OPERATION_CHAR = 2
_PER_OPERATION = 4096
_BASE = 16 << 20


def _xml_bytes(original: bytes) -> int:
    """The unpacked size of a package's XML parts, from its zip directory (nothing inflated)."""
    import io
    import zipfile

    try:
        with zipfile.ZipFile(io.BytesIO(original)) as zf:
            return sum(i.file_size for i in zf.infolist() if i.filename.endswith((".xml", ".rels")))
    except (zipfile.BadZipFile, OSError, ValueError):
        return len(original)  # not a zip: the reader says so; the estimate takes the bytes


def write_memory(original: bytes, doc: Document, ops: Sequence[dict[str, Any] | Edit]) -> tuple[int, dict[str, int]]:
    """The memory (bytes) writing ``ops`` into ``original`` (read as ``doc``) will hold at its peak,
    estimated from sizes before any work, and the sizes it was made from.

    Linear in the package, the text and the text the operations carry: an operation costs the
    text of its unit (a thousand renames in one long paragraph carry it a thousand times), not
    a fixed share of a cap.
    """
    xml = _xml_bytes(original)
    text = sum(len(u.text) for u in doc.units)
    carried = 0
    for op in ops:
        uid, new = (op.get("unit"), op.get("text")) if isinstance(op, dict) else (op.unit, getattr(op, "text", None))
        unit = doc.get(str(uid or ""))
        carried += len(unit.text) if unit is not None else len(str(new or ""))
    estimate = (_BASE + _PER_XML_BYTE * xml + _PER_TEXT_CHAR * text + _PER_OPERATION_CHAR * carried
                + _PER_OPERATION * len(ops))
    return estimate, {"operations": len(ops), "units": len(doc.units), "xml_bytes": xml, "carried_chars": carried}


def _op_words(op: dict[str, Any]) -> str:
    """An operation of a proposal named in words (its change and its unit), never by its id.

    >>> _op_words({"op": "replace", "old": "Table 2", "text": "Table 1", "unit_label": "paragraph: See Table 2"})
    "the change 'Table 2' → 'Table 1' (paragraph: See Table 2)"
    >>> _op_words({"op": "delete", "unit_label": "Table 1"})
    'the deletion of Table 1'
    """
    where = op.get("unit_label") or "a unit"
    kind = op.get("op")
    if kind in ("replace", "set_text"):
        old, new = " ".join((op.get("old") or "").split()[:8]), " ".join((op.get("text") or "").split()[:8])
        change = f"'{old}' → '{new}'" if old and new else (f"'{new}' inserted" if new else f"'{old}' deleted")
        return f"the change {change} ({where})"
    if kind == "delete":
        return f"the deletion of {where}"
    if kind == "insert_after":
        return f"the insertion after {where}"
    if kind == "move":
        return f"the move of {where}"
    return f"the {kind} of {where}"


def as_written(doc: Document, edits: Sequence[Edit], author: str, date: str, default_source: str | None) -> list[Edit]:
    """A plan's edits as they are written: by ``author`` on ``date``, ``default_source`` where an
    edit names none. Edits the plan checked stay checked (none moves), so nothing validates
    them again."""
    from ..edits.operations import validate_edits

    return validate_edits(doc, edits).map(
        lambda e: dc_replace(e, author=author, date=date, source=e.source or default_source))


def plan_after(doc: Document, p: Any) -> Document:
    """The document a plan's edits make: the one its verification read (applied here for a plan
    that does not hold it)."""
    from ..edits.operations import apply_to_document

    return p.after if p.after is not None else apply_to_document(doc, p.edits)


def _as_edits(ops: list[dict[str, Any]], author: str, date: str, default_source: str | None) -> list[Edit]:
    from ..edits.operations import edits_from_json

    edits = edits_from_json([{k: v for k, v in op.items() if k not in VIEW_KEYS} for op in ops])
    return [dc_replace(e, author=author, date=date, source=e.source or default_source) for e in edits]


@dataclass
class Written:
    """Operations as written (author, date, ids), the written package, and the findings: the
    verification of the operations as applied plus what reading the written file back showed;
    ``notes`` are the comments written with them (empty with comments off)."""

    operations: list[Edit]
    data: bytes
    findings: list[Finding]
    notes: list[Any] = field(default_factory=list)

    def comment(self, edit_id: str | None) -> str | None:
        """The text of the comment on an operation."""
        return next((n.text for n in self.notes if n.edit == edit_id and not n.parent), None)


def write_checked(original: bytes, doc: Document, G: nx.MultiDiGraph | None, ops: Sequence[Edit], *,
                  after: Document, findings: Sequence[Finding], known: Sequence[Finding] = (),
                  instruction: str | None = None, comments: bool = True, threads: bool = False,
                  memory_mb: float | None = None, notes: Sequence[Any] | None = None) -> Written:
    """Write ``ops`` (validated for ``doc``, :class:`edits.operations.Checked`, with their ids,
    author and date) into ``original`` as tracked changes; ``after`` is the document they make
    and ``findings`` their verification, both made once before (by the plan, or by
    :func:`write_operations`). ``G`` is the graph of ``doc``: what the written file breaks is read
    off it (``None``: a graph of the fast stages is built for that).

    With ``comments`` (the default) every change carries a comment saying why
    (:func:`edits.comments.comment_notes`: one per operation, propagated changes as their own
    short comments or, with ``threads``, as replies; findings that need a human at their place:
    ``findings``, worded as in ``known`` where both see one); ``notes`` are those comments when
    they were worded already (for the proposal the same edits were shown in).

    :raise WorkTooLargeError: the estimated memory is over ``memory_mb`` (``413 too_large``).
    :raise EngineUnavailableError: the tracked-change writer is not installed.
    """
    from ..edits.comments import comment_notes, note_map
    from ..edits.pipeline import apply_plan, merge_findings
    from ..findings import sort_findings
    from ..verify.record import embed_record

    estimate, sizes = write_memory(original, doc, ops)
    check_memory(estimate, work_memory_mb() if memory_mb is None else memory_mb,
                 f"writing {len(ops):,} operation(s)", **sizes)
    if notes is None:
        notes = comment_notes(doc, ops, merge_findings(list(known), list(findings)), instruction=instruction,
                              threads=threads)
    check_budget()
    written = apply_plan(original, doc, ops, notes if comments else [], after=after, G=G)
    check_budget()
    data = embed_record(written.data, ops, note_map(notes), instruction=instruction)
    order = {u.id: u.order for u in doc.units}
    return Written(list(ops), data, sort_findings(merge_findings(list(findings), written.findings), order),
                   list(notes) if comments else [])


def write_operations(original: bytes, doc: Document, G: nx.MultiDiGraph | None, chosen: list[dict[str, Any]], *,
                     author: str, date: str | None = None, default_source: str | None = None,
                     semantic: bool = True, instruction: str | None = None, comments: bool = True,
                     threads: bool = False, known: Sequence[Finding] = (),
                     memory_mb: float | None = None, verified: Sequence[Finding] | None = None) -> Written:
    """Write operations that come as JSON (Operation JSON, as a proposal lists them) into
    ``original`` as tracked changes by ``author`` dated ``date`` (default: now); ``G`` is the
    document's graph (``None``: verification without it, and no drift check). They are
    validated, applied and verified once here, then written by :func:`write_checked`.

    However many operations there are, the work is bounded by what it costs: its memory,
    estimated before it starts (:func:`write_memory`, against ``memory_mb``: ``None`` takes
    ``LEDGER_WORK_MEMORY_MB`` or the default, 0 is no limit), and the request's or job's deadline
    (:mod:`addin_backend.budget`), checked between the steps. ``known`` are findings of the plan
    (their wording wins in the comments). ``verified`` are the findings of the plan these very
    operations come from, made on a graph with the same stages: they are not verified again
    (as :func:`edit` writes a plan's own findings).

    :raise InvalidRequestError: malformed operations.
    :raise UnknownUnitError: an operation naming a unit the document does not have.
    :raise EditConflictError: an operation's ``before`` is not the unit's text.
    :raise EngineUnavailableError: the tracked-change writer is not installed.
    :raise WorkTooLargeError: the estimated memory is over ``memory_mb`` (``413 too_large``).
    """
    from ..edits.operations import apply_to_document, validate_edits, with_ids
    from ..verify.after_edit import verify

    estimate, sizes = write_memory(original, doc, chosen)
    check_memory(estimate, work_memory_mb() if memory_mb is None else memory_mb,
                 f"writing {len(chosen):,} operation(s)", **sizes)
    with serving():  # someone waits for it: the background semantic stage gives way
        ops = with_ids(validate_edits(doc, _as_edits(chosen, author, date or _edit_date(), default_source)))
        check_budget()  # each step below costs about the document times the operations
        after = apply_to_document(doc, ops)
        checked = list(verified) if verified is not None else verify(doc, after, G, ops,
                                                                        semantic=semantic and G is not None)
        check_budget()
        return write_checked(original, doc, G, ops, after=after, findings=checked, known=known,
                             instruction=instruction, comments=comments, threads=threads, memory_mb=memory_mb)


def _verified(view: dict[str, Any], chosen: list[dict[str, Any]], G: nx.MultiDiGraph | None) -> list[Finding] | None:
    """A kept proposal's findings, when they are the verification of what is applied: every one
    of its operations, on a graph with the stages it was made on (the analysis did not add edges
    since: else ``None``, verify again)."""
    from ..findings import Finding

    if G is None or len(chosen) != len(view["operations"]) or graphs.missing_edges(G) != list(view.get("partial", ())):
        return None
    return [Finding.from_json(f) for f in view.get("findings", ())]


def apply(store: Store, doc_id: str, *, author: str, who: str, audit_log: str,
          proposal_id: str | None = None, keep: Sequence[str] | None = None,
          operations: list[dict[str, Any]] | None = None, instruction: str | None = None,
          semantic: bool = True, date: str | None = None, comments: bool = True,
          threads: bool = False, memory_mb: float | None = None,
          account: quota.Account | None = None) -> dict[str, Any]:
    """Write operations into the original upload as tracked changes by ``author``; keep the result
    (its file and record capped and counted in ``account``'s quota: :func:`.revisions.keep_revision`).

    The operations are a proposal's (all, or the ids in ``keep``; a propagated operation whose
    source is left out is skipped too) or ``operations`` given as Edit JSON; they are written
    by :func:`write_operations` on the graph the upload's job stored. The apply is recorded in
    the audit log (``who`` is the client's key fingerprint).

    Returns ``{document, revision, author, instruction, proposal, operations, skipped, findings, created}``.

    :raise UnknownProposalError, UnknownDocumentError, UnknownUnitError: nothing to apply to.
    :raise InvalidRequestError: malformed operations, or none left to apply.
    :raise WorkTooLargeError: the write's estimated memory is over ``memory_mb`` (``LEDGER_WORK_MEMORY_MB``).
    :raise EditConflictError: an operation's ``before`` is not the unit's text in the upload.
    :raise EngineUnavailableError: the tracked-change writer is not installed.
    """
    skipped: list[dict[str, Any]] = []
    view: dict[str, Any] | None = None
    if proposal_id is not None:
        view = get_proposal(store, doc_id, proposal_id)
        chosen, skipped = _chosen(view, keep)
        instruction = instruction or view["instruction"]
        default_source = view["engine"]
    else:
        chosen, default_source = list(operations or []), "client"
    # concurrent applies of one upload share its bytes, model and graph (read-only): one parse
    with shared_parse.stored_document(store, doc_id) as (original, doc), shared_parse.stored_graph(store, doc_id) as G:
        return _apply_to(store, doc_id, original, doc, G, chosen, skipped=skipped, view=view,
                         author=author, who=who, audit_log=audit_log, proposal_id=proposal_id,
                         default_source=default_source, instruction=instruction, semantic=semantic, date=date,
                         comments=comments, threads=threads, memory_mb=memory_mb, account=account)


def _apply_to(store: Store, doc_id: str, original: bytes, doc: Document, G: nx.MultiDiGraph | None,
              chosen: list[dict[str, Any]], *, skipped: list[dict[str, Any]], view: dict[str, Any] | None,
              author: str, who: str, audit_log: str, proposal_id: str | None, default_source: str | None,
              instruction: str | None, semantic: bool, date: str | None, comments: bool, threads: bool,
              memory_mb: float | None, account: quota.Account | None) -> dict[str, Any]:
    """:func:`apply` on the upload's bytes, model and graph as read (shared with other requests:
    none of them is changed here)."""
    if not chosen:
        why = "; ".join(s["reason"] for s in skipped[:3]) + (f"; and {len(skipped) - 3} more" if len(skipped) > 3 else "")
        raise InvalidRequestError("no operation left to apply" + (f": {why}" if why else ""), skipped=skipped)
    if proposal_id is None:  # a proposal's renames were estimated when it was made
        from .costs import operations_cost

        operations_cost(doc, chosen)  # each operation's record carries its paragraph: refused before any work
    written = write_operations(original, doc, G, chosen, author=author, date=date,
                               default_source=default_source, semantic=semantic, instruction=instruction,
                               comments=comments, threads=threads, memory_mb=memory_mb,
                               verified=_verified(view, chosen, G) if view is not None else None)
    rev = next_revision(store, doc_id)
    record = {"document": doc_id, "revision": rev, "author": author, "instruction": instruction,
              "proposal": proposal_id,
              "operations": [operation_view(doc, e, written.comment(e.id)) for e in written.operations],
              "skipped": skipped, "findings": [f.to_json() for f in written.findings],
              "comments": [n.to_json() for n in written.notes], "created": _now()}
    keep_revision(store, doc_id, rev, written.data, record, account=account)
    audit.record(audit_log, who=who, document=doc_id, instruction=instruction, operations=written.operations,
                 author=author)
    return json_safe(record)


# --- edit = propose, then apply ------------------------------------------------------------


@dataclass
class Edited:
    """What :func:`edit` did: the plan, its Proposal JSON, and what was written (``None`` on a
    dry run, or when the plan has no operation)."""

    plan: Any  # edits.pipeline.EditPlan
    proposal: dict[str, Any]
    written: Written | None = None
    findings: list[Finding] = field(default_factory=list)


def edit(doc: Document, original: bytes, G: nx.MultiDiGraph, *, instruction: str, target: str | None = None,
         selection: Selection | None = None, engine: str = "rules", author: str = DEFAULT_AUTHOR,
         budget: int = DEFAULT_BUDGET, semantic: bool = True, write: bool = True,
         date: str | None = None, comments: bool = True, threads: bool = False, names: str = "auto",
         memory_mb: float | None = None) -> Edited:
    """:func:`plan` (as :func:`propose` does), then :func:`write_operations` on every operation of
    the proposal (as :func:`apply` with no ``keep`` does); ``write=False`` stops after the plan.

    ``findings`` are the proposal's, then those of the apply that it did not already list
    (:func:`edits.pipeline.merge_findings`: same kind, unit and related units).

    :raise InstructionNotUnderstoodError, UnknownUnitError, InvalidRequestError, EditConflictError,
        EngineUnavailableError: as :func:`propose` and :func:`apply`.
    """
    from ..edits.comments import comment_notes
    from ..edits.pipeline import merge_findings

    p = plan(doc, G, instruction=instruction, target=target, selection=selection, engine=engine, author=author,
             budget=budget, semantic=semantic, names=names)
    ops = as_written(doc, p.edits, author, date or _edit_date(), p.engine)
    notes = comment_notes(doc, ops, p.findings, instruction=instruction, threads=threads)
    view = proposal_view(doc, p, pid=None, doc_id=None, author=author, complete=graphs.is_complete(G), notes=notes)
    written = None
    if write and ops:
        written = write_checked(original, doc, G, ops, after=plan_after(doc, p), findings=p.findings,
                                instruction=instruction, comments=comments, threads=threads, memory_mb=memory_mb,
                                notes=notes)
    findings = merge_findings(list(p.findings), written.findings) if written else list(p.findings)
    return Edited(p, view, written, findings)


def edit_file(path: str, doc: Document, *, instruction: str, output: str | None, target: str | None = None,
              selection: Selection | None = None, engine: str = "rules", author: str = DEFAULT_AUTHOR,
              budget: int = DEFAULT_BUDGET, semantic: bool = True, date: str | None = None,
              progress: Callable[[str, float], None] | None = None, comments: bool = True,
              threads: bool = False, names: str = "auto",
              memory_mb: float | None = None) -> dict[str, Any]:
    """``ledger edit``: :func:`edit` on the file ``path`` (read as ``doc``) with the graph an edit
    waits for (:func:`graphs.scope_of_work`: no RELATED; an engine that reads context ranks by
    RELATED edges already kept for the file), written into ``output`` (``None``: a dry run,
    nothing written; a plan without operations writes the file unchanged).

    Returns the report: ``instruction, engine, explanation, targets, operations`` (the engine's, as
    written), ``propagated`` (as written), ``renumbered, findings, tokens, context, path, output,
    counts, stages`` (the graph's) (and ``warnings`` when there are some).
    """
    from .files import write_bytes

    with open(path, "rb") as fh:  # ``doc`` was read from it: the package checks are done (a second read took seconds)
        original = fh.read()
    from .costs import proposal_cost
    from .graph_cache import file_graph

    proposal_cost(doc, {"instruction": instruction})  # refused past LEDGER_MAX_RENAME_COST before the graph
    G = file_graph(doc, graphs.scope_of_work("edit", semantic), progress=progress, more=engine != "rules")
    done = edit(doc, original, G, instruction=instruction, target=target, selection=selection, engine=engine,
                author=author, budget=budget, semantic=semantic, write=output is not None, date=date,
                comments=comments, threads=threads, names=names, memory_mb=memory_mb)
    if output is not None:
        write_bytes(output, done.written.data if done.written else original)
    report = done.plan.to_json()
    if done.written is not None:
        propagated = {e.id for e in done.plan.propagated}
        report["operations"] = [e.to_json() for e in done.written.operations if e.id not in propagated]
        report["propagated"] = [e.to_json() for e in done.written.operations if e.id in propagated]
        report["comments"] = [n.to_json() for n in done.written.notes]
    report.update({"path": path, "output": output, "findings": [f.to_json() for f in done.findings],
                   "counts": count_by_severity(done.findings), "stages": list(G.graph.get("stages", ()))})
    return json_safe(report)
