"""LEDGER's dependency graph: units as nodes; CONTAINS, REFERENCES, DEPENDS, RELATED edges.

``build_graph(doc)`` builds it, ``update_graph(G, old, new)`` keeps it current after an edit,
``export``/``render`` write it out. Importing this package loads no NLP model: DEPENDS loads
spaCy and RELATED the sentence embedder, lazily, through :mod:`addin_backend.language.nlp`.
"""
from __future__ import annotations

from .build import FAST_STAGES, NO_RELATED, STAGES, build_graph, run_stages
from .edges import CONTAINS, DEPENDS, DOCUMENT_ID, EDGE_TYPES, REFERENCES, RELATED
from .export import from_node_link, to_json, to_node_link, write_graphml
from .incremental import update_graph
from .mentions import find_mentions, resolve_mentions
from .references import broken_references

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
