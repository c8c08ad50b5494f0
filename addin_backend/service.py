"""The work behind the graph, impact, context and check routes, as plain functions over the store.

The HTTP views parse a request, call one of these and return its answer; the command line
can call them too. Each takes the store (and the job runner where the graph job matters)
rather than anything of Flask.
"""
from __future__ import annotations

import io
import math
import os
import tempfile
import time
from typing import Any, Callable, Sequence

import networkx as nx

from adapters.model import Document

from . import analysis, documents
from .errors import GraphNotReadyError, InvalidRequestError, UnknownRevisionError
from .jobs import JobRunner
from .store import Store

__all__ = [
    "GRAPH_FORMATS",
    "GRAPH_MEDIA_TYPES",
    "json_safe",
    "document_graph",
    "wait_for_graph",
    "graph_export",
    "filter_edges",
    "context",
    "check",
    "revision_bytes",
]

GRAPH_FORMATS = ("json", "graphml", "png")
GRAPH_MEDIA_TYPES = {"graphml": "application/graphml+xml", "png": "image/png"}


def json_safe(obj: Any) -> Any:
    """JSON without Infinity/NaN (a target's retrieval priority is infinite): those become null.

    >>> json_safe({"priority": float("inf"), "items": [1.5, float("nan")]})
    {'priority': None, 'items': [1.5, None]}
    """
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


# --- the document's graph --------------------------------------------------------------------


def document_graph(store: Store, runner: JobRunner, doc_id: str, doc: Document | None = None, *,
                   complete: bool = False) -> nx.MultiDiGraph:
    """The stored graph of a document (``G.graph["complete"]`` says whether it is final).

    With ``complete=True`` the early graph (CONTAINS and REFERENCES only) is not enough while the
    job is still building the rest. When the job ended without storing a graph (the graph
    package was absent, or the job failed), the fast stages are built here (no model needed).

    :raise GraphNotReadyError: the job is still running and has not stored what is needed;
        ``details.job`` names it.
    :raise UnknownDocumentError: no such document.
    """
    G = analysis.load_graph(store, doc_id)
    if G is not None and (not complete or analysis.is_complete(G)):
        return G
    if G is None:
        documents.get_meta(store, doc_id)  # an unknown document is unknown_document, not unknown_job
    job = runner.get(analysis.graph_job_id(doc_id))
    if job["status"] in ("queued", "running"):
        what = "the complete graph" if G is not None else "a graph"
        raise GraphNotReadyError(
            f"the document's graph job has not stored {what} yet (stage {job['stage']}, "
            f"{int(100 * job['progress'])}%); follow the job and ask again",
            job=job["id"], status=job["status"], stage=job["stage"], progress=job["progress"])
    if G is not None:
        return G  # the job failed after the fast stages: what it stored is what there is
    from .graph import FAST_STAGES, build_graph

    G = build_graph(doc if doc is not None else documents.load(store, doc_id), stages=FAST_STAGES)
    G.graph["complete"] = False
    return G


def wait_for_graph(store: Store, runner: JobRunner, doc_id: str, doc: Document | None = None, *,
                   timeout: float = 600.0, poll: float = 0.25,
                   on_wait: Callable[[dict[str, Any]], None] | None = None) -> nx.MultiDiGraph:
    """:func:`document_graph` with ``complete=True``, waiting (up to ``timeout`` s) for the job.

    ``on_wait(details)`` is called on each wait with the graph job's status, stage and progress
    (a background job reports them as its own progress).

    :raise GraphNotReadyError: still not complete after ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            return document_graph(store, runner, doc_id, doc, complete=True)
        except GraphNotReadyError as exc:
            if time.monotonic() > deadline:
                raise
            if on_wait is not None:
                on_wait(dict(exc.details))
            time.sleep(poll)


def filter_edges(G: nx.MultiDiGraph, types: Sequence[str] | None) -> nx.MultiDiGraph:
    """A copy of ``G`` keeping every node but only the edges of ``types`` (``None``: all)."""
    if not types:
        return G
    H = nx.MultiDiGraph()
    H.graph.update(G.graph)
    H.add_nodes_from(G.nodes(data=True))
    H.add_edges_from((u, v, k, d) for u, v, k, d in G.edges(keys=True, data=True) if d.get("type", k) in types)
    return H


def graph_export(G: nx.MultiDiGraph, fmt: str = "json", types: Sequence[str] | None = None,
                 title: str | None = None) -> dict[str, Any] | bytes:
    """The graph as the ``ledger graph --json`` object (plus ``complete`` and ``stages``),
    GraphML bytes or PNG bytes; only the edges of ``types`` when given.

    :raise InvalidRequestError: an unknown format.
    """
    from .graph.export import to_json, write_graphml

    H = filter_edges(G, types)
    if fmt == "json":
        data = to_json(H)
        data["complete"] = analysis.is_complete(G)
        data["stages"] = list(G.graph.get("stages", []))
        return json_safe(data)
    if fmt == "graphml":
        buf = io.BytesIO()
        write_graphml(H, buf)
        return buf.getvalue()
    if fmt == "png":
        from .graph.render import render_png

        fd, path = tempfile.mkstemp(suffix=".png", prefix="ledger-graph-")
        os.close(fd)
        try:
            render_png(H, path, title=title)
            with open(path, "rb") as fh:
                return fh.read()
        finally:
            os.unlink(path)
    raise InvalidRequestError(f"format must be one of {', '.join(GRAPH_FORMATS)}")


# --- retrieval ---------------------------------------------------------------------------------


def _no_embedding(texts: Sequence[str]) -> Any:
    from .errors import UnknownUnitError

    raise UnknownUnitError("the instruction names no unit or defined term; give a target or a selection "
                           "(matching by meaning is off: LEDGER_GRAPH_SEMANTIC=0)")


def context(doc: Document, G: nx.MultiDiGraph | None, *, instruction: str | None, target: str | None = None,
            selection: dict[str, Any] | None = None, budget: int = 1500, strategy: str = "ledger",
            semantic: bool = True) -> dict[str, Any]:
    """The context retrieval packs for an edit (``ContextResult.to_json`` with the texts).

    The targets are ``target`` (a unit id), else the ``selection`` (see
    :func:`impact.resolve_target`), else what the instruction names (labels, defined terms, then
    — unless ``semantic`` is off — the closest units in meaning, which loads the embedding
    model). ``candidates`` lists how they were found.

    :raise UnknownUnitError: a target that names nothing.
    :raise InvalidRequestError: a bad budget or strategy.
    """
    from .impact import resolve_target
    from .retrieval import retrieve
    from .retrieval.targets import identify_targets

    if target is not None or selection:
        found = resolve_target(doc, target, selection)
        ids, candidates = found.units, found.candidates
    else:
        named = identify_targets(doc, instruction=instruction, G=G, embed=None if semantic else _no_embedding)
        ids, candidates = named.ids, [c.to_json() for c in named.candidates]
    res = retrieve(doc, G, ids, instruction=instruction, budget=budget, strategy=strategy)
    data = res.to_json(with_text=True)
    data["candidates"] = candidates
    data["complete"] = analysis.is_complete(G) if G is not None else None
    return json_safe(data)


# --- checks -------------------------------------------------------------------------------------


def revision_bytes(store: Store, doc_id: str, rev: int) -> bytes:
    """The bytes of one applied revision of a document.

    :raise UnknownDocumentError: no such document.
    :raise UnknownRevisionError: no such revision of it.
    """
    documents.get_meta(store, doc_id)
    data = store.get(doc_id, f"revision:{rev}")
    if data is None:
        raise UnknownRevisionError(f"document {doc_id!r} has no revision {rev}", revision=rev)
    return data


def check(store: Store, doc_id: str, revision: int | None = None) -> list[dict[str, Any]]:
    """``ledger check``'s findings for the uploaded document or for one of its revisions.

    A revision is read back from its bytes (tracked changes accepted: the text as edited).

    :raise UnknownDocumentError, UnknownRevisionError: nothing to check.
    """
    from .checks import check_document

    if revision is None:
        doc = documents.load(store, doc_id)
    else:
        from adapters import read

        doc = read(revision_bytes(store, doc_id, revision))
    return [f.to_json() for f in check_document(doc)]
