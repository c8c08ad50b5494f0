"""Each defined term's first definition, kept on the graph that the definitions were read for.

The registry of definitions (:func:`definitions.definition_registry`) needs spaCy's tagger and a
pass over every unit; what retrieval reads of it (the terms an instruction names, their defining
units) is small. Building the graph reads the registry anyway, so the index is kept on the graph
then (as JSON, checked against the units' content): a graph kept by the command line or the
store answers "which terms does this instruction name" without building the registry again or
loading spaCy.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any, Sequence

import networkx as nx

from adapters.model import Document, Unit

__all__ = ["TERM_INDEX", "term_index"]

#: Where :func:`term_index` keeps its answer on a graph: ``{"key": content digest, "terms": [...]}``.
TERM_INDEX = "_term_index"



def _digest(units: Sequence[Unit]) -> str:
    """A digest of what the registry reads of the units (as ``definitions._content``), stable
    across processes (``hash`` of a string is not), so a kept index can be checked."""
    h = hashlib.sha256()
    for u in units:
        h.update(json.dumps([u.id, u.kind, u.style, u.parent, u.title, u.text, len(u.meta.get("cells") or ()),
                             u.order, u.meta.get("lang")], ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def term_index(doc: Document, G: nx.MultiDiGraph | None) -> list[list[Any]]:
    """``[term, kind, case_sensitive, unit, span]`` of each defined term's first definition, in
    the registry's order: all :func:`terms_in` reads of the registry. Kept on ``G`` (JSON, under
    :data:`TERM_INDEX`) for the document's content: the registry is built only when none is kept."""
    key = _digest(doc.units) if G is not None else None
    if G is not None:
        kept = G.graph.get(TERM_INDEX)
        if isinstance(kept, dict) and kept.get("key") == key:
            return kept["terms"]
    from .definitions import definition_registry  # (a kept index reads no registry: not imported then)

    terms = [[d.term, d.kind, bool(d.case_sensitive), uid, d.span]
             for entries in definition_registry(doc.units).values() for _order, uid, d in entries[:1]]
    if G is not None:
        G.graph[TERM_INDEX] = {"key": key, "terms": terms}
    return terms
