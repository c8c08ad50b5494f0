"""The upload's background job: the document is read; build its dependency graph and keep it.

The job (id ``<document>-graph``) has the stages ``read`` (done during the upload, so the
request can answer bad input with a 4xx at once) and then the stages that
``addin_backend.graph.build_graph(doc, semantic=..., progress=...)`` reports, each with its
own fraction (``stage_progress``). When the graph package publishes the order of its stages
(``STAGES``) the job's overall ``progress`` follows it. The graph is kept in the document's
scope as node-link JSON (``graph``), with ``graph["complete"]``: first answer fast, so the
model-free stages (CONTAINS, REFERENCES) are stored as soon as they are built (``complete:
false``) and the graph is stored again once DEPENDS and RELATED are in (``complete: true``).
While the graph package is not installed the job is recorded as done after ``read``, with
``result.graph = null``.
"""
from __future__ import annotations

import importlib.util
from functools import partial
from typing import Any, Callable

from adapters.model import Document

from .jobs import JobCancelled, JobRunner, Progress
from .store import Store

__all__ = ["GRAPH_JOB", "READ_SHARE", "graph_builder", "graph_stages", "graph_job_id", "start_graph_job",
           "build_in_stages", "load_graph", "is_complete"]

GRAPH_JOB = "graph"
#: The share of the job's progress that the (already finished) read stage stands for.
READ_SHARE = 0.1

GraphBuilder = Callable[..., Any]


def graph_builder() -> GraphBuilder | None:
    """:func:`build_in_stages`, or ``None`` while the graph package is not installed.

    A graph package that exists but fails to import is a bug and raises, rather than quietly
    serving documents without graphs.
    """
    spec = importlib.util.find_spec(f"{__package__}.graph")
    if spec is None or spec.origin is None:  # absent, or an empty folder (a namespace package)
        return None
    from . import graph  # noqa: F401  (fails loudly when the package is broken)

    return build_in_stages


def build_in_stages(doc: Document, *, semantic: bool, progress: Callable[[str, float], None],
                    publish: Callable[[Any], None] | None = None) -> Any:
    """The graph builder of the upload job: the fast stages, ``publish(G)``, then the slow ones.

    ``publish`` receives the graph with CONTAINS and REFERENCES only (no model loaded yet), so
    the graph route can answer while DEPENDS (spaCy) and RELATED (embeddings) are built.
    """
    from .graph import FAST_STAGES, STAGES, build_graph, run_stages

    G = build_graph(doc, stages=FAST_STAGES, progress=progress)
    if publish is not None:
        publish(G)
    slow = [s for s in STAGES if s not in FAST_STAGES and (semantic or s != "related")]
    return run_stages(G, doc, slow, progress=progress)


def graph_stages() -> tuple[str, ...]:
    """The graph package's stages in the order they run (empty when it publishes none)."""
    from . import graph  # type: ignore[attr-defined]

    return tuple(getattr(graph, "STAGES", ()))


def graph_job_id(doc_id: str) -> str:
    """The id of a document's graph job (one per document)."""
    return f"{doc_id}-{GRAPH_JOB}"


def start_graph_job(runner: JobRunner, doc_id: str, doc: Document, *, builder: GraphBuilder | None,
                    semantic: bool, stages: tuple[str, ...] = ()) -> dict[str, Any]:
    """Record the document's graph job and start it; returns the job record as first written.

    ``stages`` is the builder's stage order (:func:`graph_stages`), used for the overall
    progress; a stage outside it leaves the overall progress where it was.
    """
    if builder is None:
        return runner.create(doc_id, GRAPH_JOB, "read", name=GRAPH_JOB, status="done", progress=1.0,
                             result={"graph": None, "reason": "the graph package is not installed"})
    record = runner.create(doc_id, GRAPH_JOB, "read", name=GRAPH_JOB, progress=READ_SHARE)
    runner.start(record, partial(_build, runner.store, doc_id, doc, builder, semantic, stages))
    return record


def _build(store: Store, doc_id: str, doc: Document, builder: GraphBuilder, semantic: bool,
           stages: tuple[str, ...], progress: Progress) -> dict[str, Any]:
    import networkx as nx

    def on_progress(stage: str, fraction: float) -> None:
        overall = progress.record["progress"]
        if stage in stages:
            overall = READ_SHARE + (1.0 - READ_SHARE) * (stages.index(stage) + fraction) / len(stages)
        progress(stage, overall, stage_fraction=fraction)

    def keep(graph: Any, complete: bool) -> None:
        graph.graph["complete"] = complete
        if not store.put_json(doc_id, "graph", nx.node_link_data(graph, edges="edges"), create=False):
            raise JobCancelled(doc_id)

    kwargs = {"publish": partial(keep, complete=False)} if builder is build_in_stages else {}
    graph = builder(doc, semantic=semantic, progress=on_progress, **kwargs)
    keep(graph, True)
    return {"graph": {"nodes": graph.number_of_nodes(), "edges": graph.number_of_edges(),
                      "semantic": semantic, "complete": True}}


def load_graph(store: Store, doc_id: str) -> Any | None:
    """The document's graph as a networkx MultiDiGraph, or ``None`` while it is not built.

    :func:`is_complete` tells whether it is the final graph or the early, fast one.
    """
    data = store.get_json(doc_id, "graph")
    if data is None:
        return None
    import networkx as nx

    return nx.node_link_graph(data, directed=True, multigraph=True, edges="edges")


def is_complete(graph: Any) -> bool:
    """Whether a stored graph has every stage of its job (``False`` for the early graph)."""
    return bool(graph.graph.get("complete", True))
