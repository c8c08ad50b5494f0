"""The upload's background graph job, the graph it keeps in the store, and the stored graph a
request uses.

The job (id ``<document>-graph``) has the stages ``read`` (done during the upload, so the
request can answer bad input with a 4xx at once) and then the graph's stages, each with its
own fraction (``stage_progress``); the job's overall ``progress`` follows the graph package's
stage order (``STAGES``), each stage weighted by its usual cost (:data:`STAGE_WEIGHTS`). First
answer fast: the ``"fast"`` scope (CONTAINS, REFERENCES) is stored as soon as it is built
(``graph["complete"]`` false), again once DEPENDS is built when RELATED (the embeddings, most
of the time) is still to come, and then with the rest of its scope (``"full"``, or
``"no_related"`` when ``semantic`` is off) as ``complete``.

The record says what a client can use at each point, so that a task pane never waits for the
slowest stage: ``stage_log`` lists every stage of the job in order (``done``, ``running`` or
``waiting``, with its seconds), ``ready`` what works now (:data:`READY_AFTER`: the outline, the
units and the check from the read on; the graph, the impact of an edit from REFERENCES on;
proposals from DEPENDS on; ``findings`` once the job's ``check`` stage has kept the first
check, after DEPENDS and before RELATED, so that Run check reads it back), ``edges`` the edge types of
the graph stored now. While a request is served in the same process (a check, a preview, an
Apply), the job holds at its next progress report (:mod:`.foreground`): a check asked for at
once does not share the cores with DEPENDS, nor a preview with RELATED. While the graph package is not installed the job is recorded as done after
``read``, with ``result.graph = null``.

:func:`document_graph` is the graph every route and proposal works on: the stored one, or,
when the job ended without storing one, the fast scope built on the spot.

The job is a task (:func:`run_graph_job`): the web worker's thread pool runs it with the parsed
document at hand, a ``ledger worker`` (the queue, with a Redis store) reads the document back
from the store; a document of more than ``LEDGER_QUEUE_LARGE_TOKENS`` tokens
(:func:`estimated_tokens`) goes to the ``large`` queue so that it never holds up small ones.
"""
from __future__ import annotations

import importlib.util
import logging
import time
from functools import partial
from typing import Any, Callable, Sequence

import networkx as nx

from adapters.model import Document

from ..store import documents
from ..errors import DeadlineExceededError, GraphFailedError, GraphNotReadyError
from ..budget import check as check_budget
from ..jobs.runner import JobCancelled, JobRunner, Progress
from ..store import Store
from . import graphs
from ..foreground import give_way
from .graphs import is_complete, parse_graph

log = logging.getLogger(__name__)

__all__ = ["GRAPH_JOB", "READ_SHARE", "STAGE_WEIGHTS", "READY_AFTER", "EDGE_OF_STAGE", "PROPOSAL_STAGES",
           "stage_log", "stage_fields", "graph_builder", "graph_stages", "graph_job_id", "start_graph_job",
           "estimated_tokens", "run_graph_job", "build_in_stages", "CHECK_STAGE", "load_graph", "is_complete", "document_graph", "wait_for_graph"]

GRAPH_JOB = "graph"
#: The share of the job's progress that the (already finished) read stage stands for.
READ_SHARE = 0.1

#: The job's stage that keeps the first check (after DEPENDS, before RELATED).
CHECK_STAGE = "check"
#: The usual cost of each graph stage relative to the others (measured on a 2,217-unit standard:
#: contains 0.02 s, references 0.4 s, depends 1.6 s, related 37 s; the first check about as much
#: as depends), for the overall progress.
STAGE_WEIGHTS = {"contains": 0.02, "references": 0.4, "depends": 1.6, CHECK_STAGE: 1.6, "related": 37.0}
#: What a client can use once a stage is done (``read``: at once, the document alone is enough).
READY_AFTER: dict[str, tuple[str, ...]] = {
    "read": ("outline", "units", "check"),
    "references": ("graph", "impact"),
    "depends": ("proposals", "depends"),
    CHECK_STAGE: ("findings",),
    "related": ("related",),
}
#: The edge type each graph stage adds.
EDGE_OF_STAGE = {"contains": "CONTAINS", "references": "REFERENCES", "depends": "DEPENDS", "related": "RELATED"}
#: The stages a proposal needs (propagation follows DEPENDS); RELATED only ranks context.
PROPOSAL_STAGES = ("contains", "references", "depends")
#: How long the job holds, at one progress report and over the whole job, while a request is
#: served in this process (:mod:`.foreground`).
GIVE_WAY_EACH = 10.0
GIVE_WAY_SECONDS = 120.0

GraphBuilder = Callable[..., Any]


def graph_builder() -> GraphBuilder | None:
    """:func:`build_in_stages`, or ``None`` while the graph package is not installed.

    A graph package that exists but fails to import is a bug and raises, rather than quietly
    serving documents without graphs.
    """
    spec = importlib.util.find_spec(f"{__package__.rpartition('.')[0]}.graph")
    if spec is None or spec.origin is None:  # absent, or an empty folder (a namespace package)
        return None
    from .. import graph  # noqa: F401  (fails loudly when the package is broken)

    return build_in_stages


def build_in_stages(doc: Document, *, semantic: bool, progress: Callable[[str, float], None],
                    publish: Callable[[Any], None] | None = None,
                    prepared: Callable[[Any], None] | None = None) -> Any:
    """The graph builder of the upload job: the fast scope, ``publish(G)``, then the rest of
    :func:`graphs.scope_for(semantic) <graphs.scope_for>`.

    ``publish`` receives the graph with CONTAINS and REFERENCES only (no model loaded yet), so
    the graph route can answer while DEPENDS and RELATED (embeddings) are built, and, when
    RELATED is to come, again with DEPENDS, so that proposals need not wait for the embeddings,
    and then ``prepared(G)`` runs (the job keeps the first check there), before RELATED.
    """
    G = graphs.build(doc, "fast", progress=progress)
    if publish is not None:
        publish(G)
    scope = graphs.scope_for(semantic)
    if scope == "full":  # DEPENDS first, published: proposals need it, RELATED only ranks
        graphs.extend(G, doc, "no_related", progress=progress)
        if publish is not None:
            publish(G)
        if prepared is not None:
            prepared(G)
    return graphs.extend(G, doc, scope, progress=progress)


def graph_stages() -> tuple[str, ...]:
    """The graph package's stages in the order they run (empty when it publishes none)."""
    from .. import graph

    return tuple(getattr(graph, "STAGES", ()))


def graph_job_id(doc_id: str) -> str:
    """The id of a document's graph job (one per document)."""
    return f"{doc_id}-{GRAPH_JOB}"


def start_graph_job(runner: JobRunner, doc_id: str, doc: Document | None, *, builder: GraphBuilder | None,
                    semantic: bool, stages: tuple[str, ...] = (), tokens: int | None = None) -> dict[str, Any]:
    """Record the document's graph job and start it; returns the job record as first written.

    ``stages`` is the builder's stage order (:func:`graph_stages`), used for the overall
    progress; a stage outside it leaves the overall progress where it was. ``doc`` is ``None``
    when the upload was read in another process (a job process runner's ``call``): the job
    reads it back, and ``tokens`` is its :func:`estimated_tokens`.
    """
    if builder is None:
        return runner.create(doc_id, GRAPH_JOB, "read", name=GRAPH_JOB, status="done", progress=1.0,
                             result={"graph": None, "reason": "the graph package is not installed"},
                             extra=stage_fields(("read",), done=("read",)))
    if builder is build_in_stages:  # the stages this job will run: no RELATED without semantic
        scope = set(graphs.stages_of(graphs.scope_for(semantic)))
        stages = tuple(s for s in stages if s in scope)
        at = stages.index("depends") + 1 if "depends" in stages else len(stages)
        stages = (*stages[:at], CHECK_STAGE, *stages[at:])  # the first check, before RELATED
    record = runner.create(doc_id, GRAPH_JOB, "read", name=GRAPH_JOB, progress=READ_SHARE,
                           extra=stage_fields(("read", *stages), done=("read",)))
    if builder is build_in_stages:  # a task a queue can carry to a `ledger worker`
        runner.submit(record, run_graph_job, tokens=tokens if tokens is not None else estimated_tokens(doc) if doc is not None else 0,
                      local={"doc": doc} if doc is not None else None, doc_id=doc_id, semantic=semantic,
                      stages=list(stages))
    else:  # a caller's own builder (tests) runs in this process
        doc = documents.load(runner.store, doc_id) if doc is None else doc
        runner.start(record, partial(_build, runner.store, doc_id, doc, builder, semantic, stages))
    return record


def estimated_tokens(doc: Document) -> int:
    """About how many tokens a document has (characters / 4): what picks its job's queue."""
    return sum(len(u.text) for u in doc.units) // 4


def run_graph_job(store: Store, runner: JobRunner, progress: Progress, *, doc_id: str, semantic: bool,
                  stages: list[str], doc: Document | None = None) -> dict[str, Any]:
    """The graph job as a task (:meth:`JobRunner.submit`): in this process with the parsed
    ``doc``, or on a ``ledger worker`` that reads it back from the store.

    :raise UnknownDocumentError: the document is gone (the job then stops quietly).
    """
    if doc is None:
        from ..errors import UnknownDocumentError

        try:
            doc = documents.load(store, doc_id)
        except UnknownDocumentError:
            raise JobCancelled(doc_id) from None
    return _build(store, doc_id, doc, build_in_stages, semantic, tuple(stages), progress)


def stage_log(plan: Sequence[str], done: Sequence[str] = (), running: str | None = None,
              seconds: dict[str, float] | None = None) -> list[dict[str, Any]]:
    """Every stage of ``plan`` in order with its state (``done``, ``running``, ``waiting``) and,
    once done, its seconds (``None`` when not timed).

    >>> [(s["name"], s["status"]) for s in stage_log(["read", "contains", "depends"], ["read"], "contains")]
    [('read', 'done'), ('contains', 'running'), ('depends', 'waiting')]
    """
    seconds = seconds or {}
    return [{"name": name, "status": "done" if name in done else "running" if name == running else "waiting",
             "seconds": seconds.get(name) if name in done else None} for name in plan]


def stage_fields(plan: Sequence[str], done: Sequence[str] = (), running: str | None = None,
                 seconds: dict[str, float] | None = None, stored: Sequence[str] = ()) -> dict[str, Any]:
    """The fields of a graph job's record that say where it stands (module docstring):
    ``stage_log``, ``ready`` and ``edges`` (of the stages in the stored graph, ``stored``; the
    first check counts once it is done)."""
    kept = [CHECK_STAGE] if CHECK_STAGE in done else []
    ready = [what for stage in ("read", *stored, *kept) for what in READY_AFTER.get(stage, ())]
    return {"stage_log": stage_log(plan, done, running, seconds), "ready": list(dict.fromkeys(ready)),
            "edges": [EDGE_OF_STAGE[s] for s in stored if s in EDGE_OF_STAGE]}


def _weighted(stages: Sequence[str], stage: str, fraction: float) -> float:
    """The job's overall progress at ``fraction`` of ``stage``: the read's share, then each stage
    by its weight (:data:`STAGE_WEIGHTS`; an unknown stage weighs as much as the mean)."""
    known = [STAGE_WEIGHTS[s] for s in stages if s in STAGE_WEIGHTS]
    mean = sum(known) / len(known) if known else 1.0
    weights = [STAGE_WEIGHTS.get(s, mean) for s in stages]
    at = stages.index(stage)
    return READ_SHARE + (1.0 - READ_SHARE) * (sum(weights[:at]) + weights[at] * fraction) / sum(weights)


def _build(store: Store, doc_id: str, doc: Document, builder: GraphBuilder, semantic: bool,
           stages: tuple[str, ...], progress: Progress) -> dict[str, Any]:
    plan = ("read", *stages)
    done: list[str] = ["read"]
    seconds: dict[str, float] = {}
    started: dict[str, float] = {}
    stored: list[str] = []

    def note(running: str | None) -> None:
        progress.record.update(stage_fields(plan, done, running, seconds, stored))

    waited = [0.0]

    def on_progress(stage: str, fraction: float) -> None:
        if waited[0] < GIVE_WAY_SECONDS:  # a request served here goes first (none waits for the job)
            waited[0] += give_way(min(GIVE_WAY_EACH, GIVE_WAY_SECONDS - waited[0]))
        overall = progress.record["progress"]
        if stage in stages:
            overall = _weighted(stages, stage, fraction)
        started.setdefault(stage, time.monotonic())
        moved = False
        for earlier in plan[:plan.index(stage)] if stage in plan else ():
            if earlier not in done:  # a stage that ended without saying so
                done.append(earlier)
                moved = True
        if fraction >= 1.0 and stage not in done:
            done.append(stage)
            seconds[stage] = round(time.monotonic() - started[stage], 3)
            moved = True
        first = stage != progress.record.get("stage")
        note(None if stage in done else stage)
        progress(stage, overall, stage_fraction=fraction)
        if moved and not first:
            progress.touch()  # a stage that ended is written at once, not at the next report

    def keep(graph: Any, complete: bool) -> None:
        graph.graph["complete"] = complete
        if not store.put_json(doc_id, "graph", nx.node_link_data(graph, edges="edges"), create=False):
            raise JobCancelled(doc_id)
        stored[:] = [s for s in graph.graph.get("stages", stages if complete else ())]
        note(None)
        progress.touch()

    def first_check(graph: Any) -> None:
        from .checks import keep_first_check

        checked.append(True)
        if CHECK_STAGE not in plan:
            return
        on_progress(CHECK_STAGE, 0.0)
        try:
            keep_first_check(store, doc_id, doc, graph)
        except (JobCancelled, DeadlineExceededError):
            raise
        except Exception:  # the request computes it then: the analysis goes on without it
            log.exception("document %s: the first check was not kept", doc_id)
        on_progress(CHECK_STAGE, 1.0)  # "findings" is ready

    kwargs = {"publish": partial(keep, complete=False), "prepared": first_check} if builder is build_in_stages else {}
    checked: list[bool] = []
    graph = builder(doc, semantic=semantic, progress=on_progress, **kwargs)
    done[:] = [s for s in plan if s != CHECK_STAGE or checked]
    keep(graph, True)
    if kwargs and not checked:  # no RELATED: the check once the graph is stored, proposals first
        first_check(graph)
    return {"graph": {"nodes": graph.number_of_nodes(), "edges": graph.number_of_edges(),
                      "semantic": semantic, "complete": True}}


def load_graph(store: Store, doc_id: str) -> nx.MultiDiGraph | None:
    """The document's graph as a networkx MultiDiGraph, or ``None`` while it is not built.

    :func:`is_complete` tells whether it is the final graph or the early, fast one.
    """
    raw = store.get(doc_id, "graph")
    return None if raw is None else parse_graph(raw)


def document_graph(store: Store, runner: JobRunner, doc_id: str, doc: Document | None = None, *,
                   complete: bool = False, strict: bool = False, need: Sequence[str] = ()) -> nx.MultiDiGraph:
    """The stored graph of a document (``G.graph["complete"]`` says whether it is final).

    With ``complete=True`` the early graph (the fast scope) is not enough while the job is still
    building the rest, unless it already has the stages of ``need`` (a proposal needs DEPENDS,
    not RELATED: :data:`PROPOSAL_STAGES`). When the job ended without storing a graph (the graph package was absent,
    or the job failed), the fast scope is built here (no model needed); with ``strict`` a failed
    job is an error instead (what waited for its graph must not go on without it).

    :raise GraphNotReadyError: the job is still running and has not stored what is needed;
        ``details.job`` names it.
    :raise GraphFailedError: ``strict``, and the job failed before it stored what is needed;
        ``details.cause`` is its error.
    :raise UnknownDocumentError: no such document.
    """
    G = load_graph(store, doc_id)
    if G is not None and (not complete or is_complete(G) or (need and graphs.has_stages(G, need))):
        return G
    if G is None:
        documents.get_meta(store, doc_id)  # an unknown document is unknown_document, not unknown_job
    job = runner.get(graph_job_id(doc_id))
    if job["status"] in ("queued", "running"):
        what = "the complete graph" if G is not None else "a graph"
        raise GraphNotReadyError(
            f"the document's graph job has not stored {what} yet (stage {job['stage']}, "
            f"{int(100 * job['progress'])}%); follow the job and ask again",
            job=job["id"], status=job["status"], stage=job["stage"], progress=job["progress"])
    if strict and job["status"] == "failed":
        cause = job.get("error") or {"code": "internal_error", "message": "the graph job failed"}
        raise GraphFailedError(f"the document's graph job failed ({cause.get('code')}: {cause.get('message')}); "
                               "upload the document again", job=job["id"], cause=cause)
    # the job has ended: read its graph again, for it may have stored the final one between the
    # first read and the job's status (a poll that read the early graph, then "done")
    G = load_graph(store, doc_id) or G
    if G is not None:
        return G  # the job failed after the fast stages: what it stored is what there is
    G = graphs.build(doc if doc is not None else documents.load(store, doc_id), "fast")
    G.graph["complete"] = False
    return G


def wait_for_graph(store: Store, runner: JobRunner, doc_id: str, doc: Document | None = None, *,
                   timeout: float = 600.0, poll: float = 0.25,
                   on_wait: Callable[[dict[str, Any]], None] | None = None,
                   need: Sequence[str] = ()) -> nx.MultiDiGraph:
    """:func:`document_graph` with ``complete=True`` (and ``need``), waiting (up to ``timeout`` s)
    for the job.

    ``on_wait(details)`` is called on each wait with the graph job's status, stage and progress
    (a background job reports them as its own progress).

    :raise GraphNotReadyError: still not complete after ``timeout`` seconds.
    :raise GraphFailedError: the job failed (or its worker died) before the graph was complete:
        at once, with the job's error.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            return document_graph(store, runner, doc_id, doc, complete=True, strict=True, need=need)
        except GraphNotReadyError as exc:
            if time.monotonic() > deadline:
                raise
            check_budget()  # the request (or job) that waits has its own budget
            if on_wait is not None:
                on_wait(dict(exc.details))
            time.sleep(poll)
