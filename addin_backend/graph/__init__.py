"""LEDGER's dependency graph: units as nodes; CONTAINS, REFERENCES, DEPENDS, RELATED edges.

``build_graph(doc)`` builds it, ``update_graph(G, old, new)`` keeps it current after an edit,
``export``/``render`` write it out. Importing this package loads no NLP model: DEPENDS loads
spaCy and RELATED the sentence embedder, lazily, through :mod:`addin_backend.language.nlp`; and
each name below imports its module at its first use.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .stages import FAST_STAGES, NO_RELATED, STAGES

if TYPE_CHECKING:
    from .build import build_graph, run_stages
    from .edges import CONTAINS, DEPENDS, DOCUMENT_ID, EDGE_TYPES, REFERENCES, RELATED
    from .export import from_node_link, to_json, to_node_link, write_graphml
    from .incremental import update_graph
    from .mentions import find_mentions, resolve_mentions
    from .references import broken_references

#: Where each name below lives: imported at its first use, so importing one module of the
#: package (the stage names, the kept term index) does not compile every detector's patterns.
_LAZY = {
    **dict.fromkeys(("build_graph", "run_stages"), ".build"),
    **dict.fromkeys(("CONTAINS", "DEPENDS", "DOCUMENT_ID", "EDGE_TYPES", "REFERENCES", "RELATED"), ".edges"),
    **dict.fromkeys(("from_node_link", "to_json", "to_node_link", "write_graphml"), ".export"),
    "update_graph": ".incremental",
    **dict.fromkeys(("find_mentions", "resolve_mentions"), ".mentions"),
    "broken_references": ".references",
}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(where, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "CONTAINS",
    "REFERENCES",
    "DEPENDS",
    "RELATED",
    "EDGE_TYPES",
    "DOCUMENT_ID",
    "STAGES",
    "NO_RELATED",
    "FAST_STAGES",
    "build_graph",
    "run_stages",
    "update_graph",
    "find_mentions",
    "resolve_mentions",
    "broken_references",
    "to_json",
    "to_node_link",
    "from_node_link",
    "write_graphml",
]
