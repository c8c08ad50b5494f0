"""Build the dependency graph of a document: CONTAINS and REFERENCES first, then DEPENDS, RELATED."""
from __future__ import annotations

import time
from functools import partial
from typing import Callable, Iterable

import networkx as nx

from adapters.model import Document

from .contains import add_contains_edges
from .edges import EDGE_TYPES, edges_of_type
from .nodes import add_unit_nodes
from .references import BROKEN_KEY, add_reference_edges
from .stages import FAST_STAGES, NO_RELATED, STAGES

__all__ = ["STAGES", "NO_RELATED", "FAST_STAGES", "Progress", "build_graph", "run_stages", "refresh_stats"]


#: ``progress(stage, fraction)``: fraction runs from 0.0 to 1.0 within each stage.
Progress = Callable[[str, float], None]


def _stage_depends(G: nx.MultiDiGraph, doc: Document, report: Callable[[float], None]) -> None:
    from .depends import add_depends_edges

    add_depends_edges(G, doc, progress=report, switched_off=G.graph.get("switched_off"))


def _stage_related(G: nx.MultiDiGraph, doc: Document, report: Callable[[float], None]) -> None:
    from .related import RELATIVE, THRESHOLD, add_related_edges

    add_related_edges(
        G,
        doc,
        threshold=G.graph.get("related_threshold", THRESHOLD),
        relative=G.graph.get("related_relative", RELATIVE),
        progress=report,
    )


def _quiet(fraction: float) -> None:
    """A progress report nobody listens to."""


_RUNNERS: dict[str, Callable[[nx.MultiDiGraph, Document, Callable[[float], None]], object]] = {
    "contains": lambda G, doc, report: add_contains_edges(G, doc),
    "references": lambda G, doc, report: add_reference_edges(G, doc),
    "depends": _stage_depends,
    "related": _stage_related,
}


def refresh_stats(G: nx.MultiDiGraph) -> dict:
    """Recount ``G.graph["stats"]`` (edges by type, units, broken references)."""
    stats = G.graph.setdefault("stats", {})
    stats["units"] = G.number_of_nodes() - 1
    stats["edges_by_type"] = {t: sum(1 for _ in edges_of_type(G, t)) for t in EDGE_TYPES}
    stats["broken_references"] = len(G.graph.get(BROKEN_KEY, []))
    stats.setdefault("seconds_by_stage", {})
    return stats


def run_stages(
    G: nx.MultiDiGraph, doc: Document, stages: Iterable[str], *, progress: Progress | None = None
) -> nx.MultiDiGraph:
    """Run ``stages`` (names from :data:`STAGES`, in that order) on a graph that has the nodes.

    The API builds the fast stages, answers, and calls this again for the slow ones.
    """
    wanted = list(stages)
    unknown = [s for s in wanted if s not in _RUNNERS]
    if unknown:
        raise ValueError(f"unknown graph stage(s): {', '.join(unknown)}; known: {', '.join(STAGES)}")
    done = list(G.graph.get("stages", []))
    stats = G.graph.setdefault("stats", {})
    secs = stats.setdefault("seconds_by_stage", {})
    for stage in STAGES:
        if stage not in wanted:
            continue
        t0 = time.perf_counter()
        if progress:
            progress(stage, 0.0)
        report: Callable[[float], None] = partial(progress, stage) if progress else _quiet
        _RUNNERS[stage](G, doc, report)
        secs[stage] = round(time.perf_counter() - t0, 4)
        if progress:
            progress(stage, 1.0)
        if stage not in done:
            done.append(stage)
    G.graph["stages"] = [s for s in STAGES if s in done]
    refresh_stats(G)
    return G


def build_graph(
    doc: Document,
    *,
    semantic: bool = True,
    stages: Iterable[str] | None = None,
    progress: Progress | None = None,
    related_threshold: float | None = None,
    related_relative: float | None = None,
    switched_off: Iterable[str] = (),
) -> nx.MultiDiGraph:
    """The dependency graph of ``doc``: a node per unit (plus the document root) and typed edges.

    Parameters
    ----------
    doc : the neutral document.
    semantic : whether to run the RELATED stage (embeddings); ignored when ``stages`` is given.
    stages : which of :data:`STAGES` to run (default: all, or all but ``related``).
    progress : ``progress(stage, fraction)``, called as each stage advances.
    related_threshold : cosine floor for RELATED (default :data:`related.THRESHOLD`).
    related_relative : the margin over sqrt(2 ln n) standard deviations by which a RELATED pair
        must stand above both units' mean similarity (default :data:`related.RELATIVE`; 0 turns
        the relative cut off).
    switched_off : DEPENDS detector rules to leave out, for measurement (``anaphora:KIND``,
        ``definition:ID``; issue 31's ablation); kept in ``G.graph`` for incremental updates.

    Returns
    -------
    networkx.MultiDiGraph
        Edges are keyed by their type; ``G.graph["stats"]`` holds counts and seconds per stage,
        ``G.graph["broken_references"]`` the mentions that resolve to nothing.

    Examples
    --------
    >>> from adapters.model import Document, Unit
    >>> doc = Document("docx", [Unit("s1", "section", "Intro", 0, label="Section 1", number="1"),
    ...                         Unit("p1", "paragraph", "See Section 1 and Table 9.", 1, parent="s1")])
    >>> G = build_graph(doc, stages=FAST_STAGES)
    >>> sorted((u, v, k) for u, v, k in G.edges(keys=True))
    [('document', 's1', 'CONTAINS'), ('p1', 's1', 'REFERENCES'), ('s1', 'p1', 'CONTAINS')]
    >>> [b["label"] for b in G.graph["broken_references"]]
    ['Table 9']
    """
    if stages is None:
        stages = STAGES if semantic else NO_RELATED
    G: nx.MultiDiGraph = nx.MultiDiGraph()
    G.graph["stats"] = {"seconds_by_stage": {}}
    G.graph["stages"] = []
    G.graph[BROKEN_KEY] = []
    if related_threshold is not None:
        G.graph["related_threshold"] = related_threshold
    if related_relative is not None:
        G.graph["related_relative"] = related_relative
    if switched_off:
        G.graph["switched_off"] = sorted(set(switched_off))
    t0 = time.perf_counter()
    add_unit_nodes(G, doc)
    G.graph["stats"]["seconds_by_stage"]["nodes"] = round(time.perf_counter() - t0, 4)
    return run_stages(G, doc, stages, progress=progress)
