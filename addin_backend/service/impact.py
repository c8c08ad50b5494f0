"""What an edit of a unit or a selection touches (``POST /documents/{id}/impact``): what it
references, what depends on it within a few hops, its broken references — on the stored graph.

The rules are :mod:`addin_backend.verify.impact`; here is which graph and target they run on.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..store import documents
from ..verify.impact import DEFAULT_DEPTH, IMPACT_TYPES
from ..jobs.runner import JobRunner
from ..store import Store
from . import graphs
from .graph_job import document_graph
from .jsonable import json_safe

__all__ = ["DEFAULT_DEPTH", "IMPACT_TYPES", "stored_impact"]


def stored_impact(store: Store, runner: JobRunner, doc_id: str, *, unit: str | None = None,
                  selection: Mapping[str, Any] | None = None, depth: int = DEFAULT_DEPTH,
                  types: Sequence[str] | None = None) -> dict[str, Any]:
    """``{document, complete, partial, target, depth, types, references, impacted, broken_references}``
    of an upload; ``types`` default to :data:`IMPACT_TYPES`; ``partial`` the edge types the graph
    job has not built yet (a panel says "still being analysed" and asks again later).

    :raise GraphNotReadyError: the graph job has stored no graph yet.
    :raise UnknownDocumentError, UnknownUnitError: no such document, unit or selected text.
    """
    from ..verify.impact import impact, resolve_target

    doc = documents.load(store, doc_id)
    G = document_graph(store, runner, doc_id, doc)
    target = resolve_target(doc, unit, dict(selection) if selection else None)
    out = impact(doc, G, target, depth=depth, types=list(types or IMPACT_TYPES))
    return json_safe({"document": doc_id, "complete": graphs.is_complete(G), "partial": graphs.missing_edges(G),
                      **out})
