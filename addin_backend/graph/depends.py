"""DEPENDS edges (dependent -> prerequisite): uses of defined terms, and resolved anaphora."""
from __future__ import annotations

from typing import Callable, Iterable

import networkx as nx

from adapters.model import Document, Unit

from .anaphora import resolve_anaphora
from .definitions import definition_registry, find_usages
from .edges import DEPENDS, add_edge

__all__ = ["add_definition_edges", "add_anaphora_edges", "add_depends_edges"]

_ORIGIN = {"term": "definition", "acronym": "acronym", "notation": "notation"}


def add_definition_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    registry: dict | None = None,
) -> int:
    """Add ``user -> definer`` edges for every use of a defined term in ``units`` (default all)."""
    registry = registry if registry is not None else definition_registry(doc.units)
    n = 0
    for use in find_usages(doc, registry, units):
        d = use.definition
        n += add_edge(
            G,
            use.source,
            use.definer,
            DEPENDS,
            f"{use.used} -> {d.span}",
            d.score,
            origin=_ORIGIN[d.kind],
            start=use.start,
            end=use.end,
        )
    return n


def add_anaphora_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    progress: Callable[[float], None] | None = None,
) -> int:
    """Add ``anaphor's unit -> antecedent's unit`` edges for the anaphors of ``units``."""
    n = 0
    for a in resolve_anaphora(doc, units, progress=progress):
        n += add_edge(
            G, a.source, a.target, DEPENDS, a.evidence, a.score, origin="anaphora", start=a.anaphor.start, end=a.anaphor.end
        )
    return n


def add_depends_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    progress: Callable[[float], None] | None = None,
) -> None:
    """Both detectors over ``units`` (default all); ``progress(fraction)`` as they go."""
    todo = list(units) if units is not None else None
    add_definition_edges(G, doc, todo)
    if progress:
        progress(0.2)
    add_anaphora_edges(G, doc, todo, progress=(lambda f: progress(0.2 + 0.8 * f)) if progress else None)
