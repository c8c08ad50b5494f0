"""Each defined term's first definition, kept on the graph that the definitions were read for.

The registry of definitions (:func:`definitions.definition_registry`) needs spaCy's tagger and a
pass over every unit; what retrieval reads of it (the terms an instruction names, their defining
units) is small. Building the graph reads the registry anyway, so the index is kept on the graph
then (as JSON, checked against the units' content): a graph kept by the command line or the
store answers "which terms does this instruction name" without building the registry again or
loading spaCy. The indexes a process has read or built are known by that digest
(:func:`remember`): a rename on a document whose graph was loaded from the command line's cache
reads the terms the document defines and their definers here (:func:`term_definers`), not from a new registry.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:  # (a kept graph is read without networkx: graph.stored)
    import networkx as nx

from adapters.model import Document, Unit

__all__ = ["TERM_INDEX", "term_index", "remember", "term_definers"]

#: Where :func:`term_index` keeps its answer on a graph: ``{"key": content digest, "terms": [...],
#: "definers": {term key: [unit id, ...]}}``.
TERM_INDEX = "_term_index"

#: The last indexes read off a graph or built in this process, by content digest.
_KNOWN: OrderedDict[str, dict[str, Any]] = OrderedDict()
_KNOWN_SIZE = 4
_lock = threading.Lock()  # the server's threads share it


def _digest(units: Sequence[Unit]) -> str:
    """A digest of what the registry reads of the units (as ``definitions._content``), stable
    across processes (``hash`` of a string is not), so a kept index can be checked."""
    h = hashlib.sha256()
    for u in units:
        h.update(json.dumps([u.id, u.kind, u.style, u.parent, u.title, u.text, len(u.meta.get("cells") or ()),
                             u.order, u.meta.get("lang")], ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def _know(index: dict[str, Any]) -> None:
    with _lock:
        _KNOWN[index["key"]] = index
        _KNOWN.move_to_end(index["key"])
        while len(_KNOWN) > _KNOWN_SIZE:
            _KNOWN.popitem(last=False)


def _complete(index: Any) -> bool:
    return (isinstance(index, dict) and isinstance(index.get("key"), str) and isinstance(index.get("terms"), list)
            and isinstance(index.get("definers"), dict))


def remember(G: nx.MultiDiGraph) -> None:
    """Know the index kept on ``G`` (a graph loaded from a cache or a store) for the content it
    was built on: a later :func:`term_index` or :func:`term_definers` of that content reads it."""
    kept: Any = G.graph.get(TERM_INDEX)
    if _complete(kept):
        _know(kept)


def _index(doc: Document, G: nx.MultiDiGraph | None) -> dict[str, Any]:
    """The index of ``doc``'s content: kept on ``G``, else known in this process, else read off
    the definition registry (and kept on ``G``)."""
    key = _digest(doc.units)
    on_graph: Any = G.graph.get(TERM_INDEX) if G is not None else None
    if _complete(on_graph) and on_graph["key"] == key:
        index: dict[str, Any] = on_graph
    else:
        known = _KNOWN.get(key)
        if known is not None:
            index = known
        else:
            from .definitions import definition_registry  # (a kept index reads no registry: not imported then)

            registry = definition_registry(doc.units)
            index = {"key": key,
                     "terms": [[d.term, d.kind, bool(d.case_sensitive), uid, d.span]
                               for entries in registry.values() for _order, uid, d in entries[:1]],
                     "definers": {k: [uid for _order, uid, _d in entries] for k, entries in registry.items()}}
        if G is not None:
            G.graph[TERM_INDEX] = index
    _know(index)
    return index


def term_index(doc: Document, G: nx.MultiDiGraph | None) -> list[list[Any]]:
    """``[term, kind, case_sensitive, unit, span]`` of each defined term's first definition, in
    the registry's order: all :func:`terms_in` reads of the registry. Kept on ``G`` (JSON, under
    :data:`TERM_INDEX`) for the document's content, and known in this process by it
    (:func:`remember`): the registry is built only when neither holds one."""
    return _index(doc, G)["terms"]


def term_definers(doc: Document) -> dict[str, list[str]]:
    """Each term ``doc`` defines (the registry's key: the term, in lower case unless case decides
    it) -> the ids of the units defining it, in the registry's order: what an edit reads of the
    registry (which terms are defined, where), without building it when an index is known for the
    document's content (a graph loaded from the command line's cache brought one)."""
    return _index(doc, None)["definers"]
