"""One edit, end to end: targets -> context -> engine -> validate -> propagate -> verify -> write.

:func:`plan_edit` is the one function that ``ledger edit`` and the API's proposals route call;
:func:`apply_plan` writes the planned edits into the original package as tracked changes and
reads the result back to check it. A plan is typed from the engine to the writer: its edits are
:class:`~.operations.Checked` (validated once), ``after`` is the document they make (applied
once), its findings are verified once, and the writer reads what the written file breaks off
the graph already held (:func:`~addin_backend.graph.incremental.broken_after`), building none.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import Any, Callable, Mapping, Sequence

import networkx as nx

from adapters.model import Document, Edit, Note

from ..budget import check as check_budget
from ..errors import EngineUnavailableError, InvalidRequestError
from ..findings import Finding, sort_findings
from .engines import Engine, select_engine
from .operations import Checked, apply_to_document, validate_edits, with_ids
from .proposal import ContextItem, Proposal, Usage
from .propagate import propagate

__all__ = ["EditPlan", "AppliedPlan", "plan_edit", "plan_given", "apply_plan", "new_broken_references", "merge_findings",
           "writer_functions", "CONTEXT_TARGETS"]

#: Retrieval starts from at most this many targets (a rename may touch hundreds of units).
CONTEXT_TARGETS = 8


@dataclass
class EditPlan:
    """Everything one instruction leads to, before anything is written.

    ``operations`` are the engine's edits (concrete, ids ``op-N``), ``propagated`` the edits they
    make necessary (ids ``prop-N``, ``source`` naming the operation), ``findings`` what
    propagation and verification found, ``context`` the retrieval result the engine saw;
    ``checked`` both lists validated together for the document and ``after`` the document as
    they leave it (what verification read, what the written file must read as).
    """

    instruction: str
    engine: str
    operations: list[Edit]
    propagated: list[Edit]
    findings: list[Finding]
    targets: list[str]
    explanation: str = ""
    context: Any = None  # retrieval.ContextResult
    usage: Usage | None = None
    warnings: list[str] = field(default_factory=list)
    renumbered: dict[str, str] = field(default_factory=dict)
    checked: Checked | None = field(default=None, repr=False)
    after: Document | None = field(default=None, repr=False)

    @property
    def edits(self) -> list[Edit]:
        """What a writer applies: the operations, then the propagated edits (as checked, while
        they are the edits the plan holds)."""
        both = self.operations + self.propagated
        held = self.checked
        if held is not None and len(held) == len(both) and all(a is b for a, b in zip(held, both)):
            return held
        return both

    def tokens(self) -> dict[str, Any]:
        ctx = self.context
        return {
            "context": ctx.tokens if ctx is not None else 0,
            "document": ctx.document_tokens if ctx is not None else None,
            "budget": ctx.budget if ctx is not None else None,
            "llm": self.usage.to_json() if self.usage is not None else None,
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "instruction": self.instruction,
            "engine": self.engine,
            "explanation": self.explanation,
            "targets": list(self.targets),
            "operations": [e.to_json() for e in self.operations],
            "propagated": [e.to_json() for e in self.propagated],
            "renumbered": dict(self.renumbered),
            "findings": [f.to_json() for f in self.findings],
            "tokens": self.tokens(),
            "context": [
                {"id": c.id, "edge": c.edge, "hops": c.hops, "tokens": c.tokens, "reason": c.reason}
                for c in (self.context.context if self.context is not None else ())
            ],
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out


def merge_findings(first: list[Finding], second: list[Finding]) -> list[Finding]:
    """``first`` plus the findings of ``second`` that say nothing new (same kind, unit and
    related units as one in ``first``: propagation and verification both see a deleted target)."""
    keys = {(f.kind, f.unit, tuple(sorted(f.related))) for f in first}
    return first + [f for f in second if (f.kind, f.unit, tuple(sorted(f.related))) not in keys]


def _targets(doc: Document, instruction: str, target: str | None, selection: str | None,
             semantic: bool, embed: Callable | None) -> list[str] | None:
    from ..retrieval.targets import identify_targets, match_labels

    if target or selection:
        return identify_targets(doc, ids=[target] if target else None, selection=selection).ids
    named = match_labels(doc, instruction)
    if named:
        return [c.id for c in named]
    if semantic:
        return identify_targets(doc, instruction=instruction, embed=embed).ids
    return None


def plan_edit(
    doc: Document,
    G: nx.MultiDiGraph,
    instruction: str,
    *,
    engine: str | Engine = "rules",
    author: str = "LEDGER",
    target: str | None = None,
    selection: str | None = None,
    budget: int = 1500,
    semantic: bool = True,
    env: Mapping[str, str] | None = None,
    embed: Callable[[Sequence[str]], Any] | None = None,
    retrieval: Callable[[list[str]], Any] | None = None,
    names: str = "auto",
) -> EditPlan:
    """Plan one instruction on ``doc`` (whose graph is ``G``); nothing is written.

    ``retrieval`` maps the targets to the engine's context (a ``ContextResult``); the default is
    LEDGER's :func:`~addin_backend.retrieval.retrieve` within ``budget`` (``make bench-llm``
    gives the baselines' contexts this way).

    Targets come from ``target`` (a unit id), ``selection`` or the labels the instruction names,
    else, for an engine that needs context, the units closest in meaning. The rules engine needs
    none, so when nothing names a target it answers first and retrieval starts from the units it
    edits.
    ``semantic=False`` loads no embedding model (no semantic targets, no drift check).
    ``names`` is how renames treat a term inside a name of its own (``renaming.NAME_POLICIES``)
    where the instruction does not say; the engine, propagation and verification follow it.

    :raise InstructionNotUnderstoodError, UnknownUnitError, InvalidRequestError,
        EditConflictError, EngineUnavailableError: from the engine and validation.
    """
    from ..retrieval import retrieve

    eng = select_engine(engine, env=env) if isinstance(engine, str) else engine
    needs_context = eng.name != "rules"
    targets = _targets(doc, instruction, target, selection, semantic and needs_context, embed)
    context = None
    if targets and retrieval is not None:
        context = retrieval(targets[:CONTEXT_TARGETS])
    elif targets:
        context = retrieve(doc, G, targets[:CONTEXT_TARGETS], instruction=instruction, budget=budget, embed=embed)
    items = [ContextItem(doc.unit(c.id), f"{c.edge}: {c.reason}") for c in context.context] if context else None
    proposal = eng.propose(doc, instruction, items, author=author, target=target, selection=selection, names=names)
    return _finish(doc, G, instruction, proposal, targets, context, budget=budget, semantic=semantic, embed=embed)


def plan_given(
    doc: Document,
    G: nx.MultiDiGraph,
    edits: Sequence[Edit],
    *,
    instruction: str = "",
    engine: str = "client",
    budget: int = 1500,
    semantic: bool = True,
    embed: Callable[[Sequence[str]], Any] | None = None,
    names: str = "auto",
) -> EditPlan:
    """Plan edits a client wrote itself (an agent over MCP): validated, propagated and verified
    exactly as an engine's are by :func:`plan_edit`; the context is retrieved from the units
    they edit. Ids the client gave are kept (``op-N`` for the others).

    :raise UnknownUnitError, InvalidRequestError, EditConflictError: from validation; also a
        repeated id, or one of the ``prop-N`` form propagation gives its own edits.
    """
    if not edits:
        raise InvalidRequestError("give at least one operation")
    ids = [e.id for e in edits if e.id]
    clash = next((i for i in ids if ids.count(i) > 1 or i.startswith("prop-")), None)
    if clash is not None:
        raise InvalidRequestError(f"operation id {clash!r} is repeated or has the form propagation uses (prop-N)",
                                  operation=clash)
    targets = list(dict.fromkeys(u for e in edits for u in ([e.unit] if e.unit else []) + sorted(e.unit_refs() - {e.unit})))
    counts: dict[str, int] = {}
    for e in edits:
        counts[e.op] = counts.get(e.op, 0) + 1
    explanation = f"{len(edits)} operation{'s' if len(edits) != 1 else ''} written by the client (" + \
        ", ".join(f"{n} {op}" for op, n in counts.items()) + ")"
    proposal = Proposal(list(edits), targets, explanation, engine, instruction=instruction, names=names)
    return _finish(doc, G, instruction, proposal, None, None, budget=budget, semantic=semantic, embed=embed)


def _finish(doc: Document, G: nx.MultiDiGraph, instruction: str, proposal: Proposal, targets: list[str] | None,
            context: Any, *, budget: int, semantic: bool, embed: Callable[[Sequence[str]], Any] | None) -> EditPlan:
    """The engine's proposal made concrete, propagated and verified (the steps after the engine)."""
    from ..retrieval import retrieve
    from ..verify.after_edit import verify

    operations = with_ids(validate_edits(doc, proposal.edits, names=proposal.names))
    if isinstance(operations, Checked):
        operations = operations.map(lambda e: e if e.source else dc_replace(e, source=proposal.engine))
    if context is None and proposal.targets:
        targets = list(proposal.targets)
        context = retrieve(doc, G, targets[:CONTEXT_TARGETS], instruction=instruction, budget=budget, embed=embed)
    prop = propagate(doc, G, operations, names=proposal.names)
    edits = prop.checked if prop.checked is not None else validate_edits(doc, operations + prop.edits)
    after = prop.after if prop.after is not None else apply_to_document(doc, edits)
    checked = verify(doc, after, G, edits, semantic=semantic, embed=embed, names=proposal.names)
    order = {u.id: u.order for u in after.units}
    findings = sort_findings(merge_findings(prop.findings, checked), order)
    renumbered = prop.to_json().get("renumbered", {})
    return EditPlan(
        instruction=instruction, engine=proposal.engine, operations=operations, propagated=prop.edits,
        findings=findings, targets=list(targets or proposal.targets), explanation=proposal.explanation,
        context=context, usage=proposal.usage, warnings=list(proposal.warnings), renumbered=renumbered,
        checked=edits, after=after,
    )


@dataclass
class AppliedPlan:
    """The written package and what reading it back showed (no findings: it reads as planned)."""

    data: bytes
    findings: list[Finding]


def writer_functions():
    """``(write, accept_all, reject_all)`` of the adapters, imported when first needed.

    :raise EngineUnavailableError: the writers are not installed.
    """
    try:
        from adapters import accept_all, reject_all, write
    except ImportError as exc:
        raise EngineUnavailableError(
            f"the tracked-change writer is not available in this installation ({exc})"
        ) from None
    return write, accept_all, reject_all


def apply_plan(original: bytes, doc: Document, operations: Sequence[Edit], notes: Sequence[Note] = (), *,
               after: Document | None = None, G: nx.MultiDiGraph | None = None) -> AppliedPlan:
    """Write ``operations`` (a plan's ``edits``) into ``original`` as tracked changes, and
    ``notes`` (:mod:`.comments`: why each change was made) as comments on them.

    The result is read back: its accepted view must equal the neutral result of the edits
    (``after``, when the plan has it) and its rejected view the original text (checked when
    the input has no tracked changes of its own); references the edit breaks are reported as
    findings, read off ``G`` (the graph of ``doc`` with its REFERENCES) for what the edit does
    not touch and recomputed for what it does.

    :raise EngineUnavailableError: the writer is not installed.
    :raise AdapterError: the writer refused an edit (the original is untouched).
    """
    from adapters import read

    write, _, _ = writer_functions()
    ops = validate_edits(doc, operations)  # nothing to do for a plan's checked edits
    data = write(original, ops, document=doc, notes=list(notes), check=check_budget)
    back = read(data)
    findings: list[Finding] = []
    expected = (after if after is not None else apply_to_document(doc, ops)).lines()
    got = back.lines("accepted")
    if got != expected:
        findings.append(_mismatch("accepted", expected, got))
    if not doc.revisions:
        original_lines = doc.lines("accepted")
        rejected = back.lines("rejected")
        if rejected != original_lines:
            findings.append(_mismatch("rejected", original_lines, rejected))
    for b in new_broken_references(G, doc, back):
        findings.append(Finding("broken_reference", "error", b["source"],
                                f"'{b['mention']}' in the written file names {b['label']}, which no unit carries",
                                b["mention"], [], b["start"], b["end"]))
    return AppliedPlan(data, findings)


def new_broken_references(G: nx.MultiDiGraph | None, doc: Document, written: Document) -> list[dict[str, Any]]:
    """The broken references of ``written`` (``doc`` edited, as read back) that ``doc`` does not
    have already (the same mention of the same label), from ``G``, the graph of ``doc`` (built
    here with its fast stages when there is none or it has no REFERENCES yet)."""
    from ..graph.build import FAST_STAGES, build_graph
    from ..graph.incremental import broken_after
    from ..graph.references import broken_references

    if G is None or "references" not in G.graph.get("stages", ()):
        G = build_graph(doc, stages=FAST_STAGES)
    before = {(b["mention"], b["label"]) for b in broken_references(G)}
    return [b for b in broken_after(G, doc, written) if (b["mention"], b["label"]) not in before]


def _mismatch(view: str, expected: list[str], got: list[str]) -> Finding:
    at = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
    want = expected[at] if at < len(expected) else "(nothing)"
    have = got[at] if at < len(got) else "(nothing)"
    what = "the edited text" if view == "accepted" else "the original text"
    return Finding("write_mismatch", "error", None,
                   f"the written file's {view} view differs from {what} at paragraph {at + 1}: "
                   f"expected {want[:80]!r}, read {have[:80]!r}", have[:200], [], suggestion=want[:200])
