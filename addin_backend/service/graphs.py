"""Which graph a document gets, and building it: the one place that names the graph scopes.

A scope is a set of the graph's stages (:data:`addin_backend.graph.STAGES`), by what it costs:

- ``"full"``: CONTAINS, REFERENCES, DEPENDS and RELATED (RELATED loads the embedding model);
- ``"no_related"``: all but RELATED (``--no-semantic``, ``LEDGER_GRAPH_SEMANTIC=0``, tests);
- ``"fast"``: CONTAINS and REFERENCES, no model at all (checks, the upload's early graph).

Every caller of the orchestration layer says which scope it wants (:func:`scope_for` turns the
``semantic`` switch of the command line and the settings into one) and builds it with
:func:`build`. What a piece of work waits for is :data:`NEEDS` (:func:`scope_of_work`): a check
reads the references, an edit and a context follow the dependencies, and only the graph itself
waits for RELATED, which ranks context last and is built after them (the upload's job, ``ledger
graph``); a file's command line keeps what it built by content (:mod:`.graph_cache`). Also here: a graph as the API and ``ledger graph`` give it out (JSON, GraphML,
PNG; only some edge types).

The graph package is imported when a graph is built, not with this module: the upload route
works (without graphs) while it is not installed.
"""
from __future__ import annotations

import io
import json
import os
import tempfile
from typing import TYPE_CHECKING, Any, Callable, Literal, Sequence, cast, overload

if TYPE_CHECKING:  # imported where a graph is made: a context on a kept graph reads it without networkx
    import networkx as nx

from adapters.model import Document

from ..errors import InvalidRequestError
from .jsonable import json_safe

__all__ = ["GraphScope", "GRAPH_SCOPES", "NEEDS", "scope_for", "scope_of_work", "stages_of", "build", "extend",
           "parse_graph", "is_complete", "has_stages", "missing_edges",
           "GRAPH_FORMATS", "GRAPH_MEDIA_TYPES", "filter_edges", "graph_export"]

GraphScope = Literal["full", "no_related", "fast"]
GRAPH_SCOPES: tuple[GraphScope, ...] = ("full", "no_related", "fast")
GRAPH_FORMATS = ("json", "graphml", "png")
GRAPH_MEDIA_TYPES = {"graphml": "application/graphml+xml", "png": "image/png"}

Progress = Callable[[str, float], None]

#: The scope each piece of work waits for (with ``semantic`` on): a check reads references; an
#: edit's propagation follows DEPENDS and a context packs REFERENCES, DEPENDS and CONTAINS first,
#: RELATED last and least (a context uses RELATED edges where they are already built); the graph
#: itself is everything.
NEEDS: dict[str, GraphScope] = {"check": "fast", "edit": "no_related", "context": "no_related", "graph": "full"}


def scope_for(semantic: bool) -> GraphScope:
    """The scope of a ``semantic`` switch: ``"full"`` when on, ``"no_related"`` when off.

    >>> scope_for(True), scope_for(False)
    ('full', 'no_related')
    """
    return "full" if semantic else "no_related"


def scope_of_work(work: str, semantic: bool = True) -> GraphScope:
    """The scope ``work`` (a key of :data:`NEEDS`) waits for; ``semantic`` off takes RELATED out.

    >>> scope_of_work("edit"), scope_of_work("graph"), scope_of_work("graph", semantic=False)
    ('no_related', 'full', 'no_related')
    """
    scope = NEEDS[work]
    return "no_related" if scope == "full" and not semantic else scope


def stages_of(scope: GraphScope) -> tuple[str, ...]:
    """The stages of a scope, in the order they run.

    >>> stages_of("no_related")
    ('contains', 'references', 'depends')

    :raise InvalidRequestError: not a scope.
    """
    from ..graph.stages import FAST_STAGES, NO_RELATED, STAGES

    stages = {"full": STAGES, "no_related": NO_RELATED, "fast": FAST_STAGES}.get(scope)
    if stages is None:
        raise InvalidRequestError(f"graph scope must be one of {', '.join(GRAPH_SCOPES)}, not {scope!r}")
    return stages


def build(doc: Document, scope: GraphScope = "full", *, progress: Progress | None = None) -> nx.MultiDiGraph:
    """The graph of ``doc`` with the stages of ``scope``; ``progress(stage, fraction)`` as they run."""
    from ..graph.build import build_graph

    return build_graph(doc, stages=stages_of(scope), progress=progress)


def extend(G: nx.MultiDiGraph, doc: Document, scope: GraphScope, *,
           progress: Progress | None = None) -> nx.MultiDiGraph:
    """Run the stages of ``scope`` that ``G`` lacks (the upload job: fast first, then the rest)."""
    from ..graph.build import run_stages

    done = set(G.graph.get("stages", ()))
    return run_stages(G, doc, [s for s in stages_of(scope) if s not in done], progress=progress)


def parse_graph(raw: bytes) -> nx.MultiDiGraph:
    """A graph as the upload's job stores it (networkx node-link JSON) as a MultiDiGraph: here,
    below the job and the shared parse (:mod:`.shared_parse`), which both read stored graphs."""
    import networkx as nx

    return cast(nx.MultiDiGraph, nx.node_link_graph(json.loads(raw), directed=True, multigraph=True, edges="edges"))


def is_complete(G: nx.MultiDiGraph) -> bool:
    """Whether a stored graph has every stage of its job (``False`` for the upload's early graph)."""
    return bool(G.graph.get("complete", True))


def has_stages(G: nx.MultiDiGraph, stages: Sequence[str]) -> bool:
    """Whether ``G`` is final or already holds the edges of ``stages`` (what a request needs)."""
    return is_complete(G) or set(stages) <= set(G.graph.get("stages", ()))


def missing_edges(G: nx.MultiDiGraph) -> list[str]:
    """The edge types a stored graph lacks while its job is still building them (``[]`` once it
    is final): what an answer made on it did not use."""
    if is_complete(G):
        return []
    from ..graph.build import STAGES

    done = set(G.graph.get("stages", ()))
    return [s.upper() for s in STAGES if s not in done]


def filter_edges(G: nx.MultiDiGraph, types: Sequence[str] | None) -> nx.MultiDiGraph:
    """A copy of ``G`` keeping every node but only the edges of ``types`` (``None``: all)."""
    if not types:
        return G
    import networkx as nx

    H: nx.MultiDiGraph = nx.MultiDiGraph()
    H.graph.update(G.graph)
    H.add_nodes_from(G.nodes(data=True))
    for u, v, k, d in G.edges(keys=True, data=True):
        if d.get("type", k) in types:
            H.add_edge(u, v, key=k, **d)
    return H


@overload
def graph_export(G: nx.MultiDiGraph, fmt: Literal["json"] = "json", types: Sequence[str] | None = None,
                 title: str | None = None) -> dict[str, Any]: ...
@overload
def graph_export(G: nx.MultiDiGraph, fmt: Literal["graphml", "png"], types: Sequence[str] | None = None,
                 title: str | None = None) -> bytes: ...
@overload
def graph_export(G: nx.MultiDiGraph, fmt: str, types: Sequence[str] | None = None,
                 title: str | None = None) -> dict[str, Any] | bytes: ...
def graph_export(G: nx.MultiDiGraph, fmt: str = "json", types: Sequence[str] | None = None,
                 title: str | None = None) -> dict[str, Any] | bytes:
    """The graph as the ``ledger graph --json`` object (plus ``complete`` and ``stages``),
    GraphML bytes or PNG bytes; only the edges of ``types`` when given.

    :raise InvalidRequestError: an unknown format.
    """
    from ..graph.export import to_json, write_graphml

    H = filter_edges(G, types)
    if fmt == "json":
        data = to_json(H)
        data["complete"] = is_complete(G)
        data["stages"] = list(G.graph.get("stages", []))
        return json_safe(data)
    if fmt == "graphml":
        buf = io.BytesIO()
        write_graphml(H, buf)
        return buf.getvalue()
    if fmt == "png":
        from ..graph.render import render_png

        fd, path = tempfile.mkstemp(suffix=".png", prefix="ledger-graph-")
        os.close(fd)
        try:
            render_png(H, path, title=title)
            with open(path, "rb") as fh:
                return fh.read()
        finally:
            os.unlink(path)
    raise InvalidRequestError(f"format must be one of {', '.join(GRAPH_FORMATS)}")
