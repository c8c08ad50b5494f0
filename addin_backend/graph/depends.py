"""DEPENDS edges (dependent -> prerequisite): uses of defined terms, and resolved anaphora.

Not every use of a defined term is a dependency a reader has (:func:`links`): a use inside the
section that is about the term is part of its definition, and the document's topic ("TLS" in
the TLS specification) links at most once per section (the registry says which units).

:data:`SWITCHED_OFF` names detector rules to leave out, for the ablation of issue 31
(``benchmarks.real_bench --without``); it is empty in use. A build names them itself with
``build_graph(doc, switched_off=...)`` (the ``switched_off`` parameter of the functions here).
"""
from __future__ import annotations

from functools import cache, partial
from typing import Callable, Collection, Iterable

import networkx as nx

from adapters.model import Document, Unit, ancestor_ids

from .anaphora import resolve_anaphora
from .definitions import Usage, definition_registry, find_usages, quoted_use
from .edges import DEPENDS, add_edge
from .term_index import term_index

__all__ = ["links", "add_definition_edges", "add_anaphora_edges", "add_depends_edges"]

_ORIGIN = {"term": "definition", "acronym": "acronym", "notation": "notation"}

#: Rules switched off, for measurement only: ``"anaphora:KIND"`` (an anaphor's kind, as
#: :mod:`.anaphora` reads it: ``np``, ``pronoun``, ``connective``, ...) or ``"definition:HOW"``
#: (the rule that read a definition, :attr:`~.definition_rules.Definition.how`). A definition
#: switched off is taken out of the registry before its uses are found (a use may then go to
#: another definer of the term); an anaphor switched off makes no edge.
SWITCHED_OFF: set[str] = set()


def _off(switched_off: Collection[str] | None) -> Collection[str]:
    """The rules switched off: those named, and those of :data:`SWITCHED_OFF`."""
    return SWITCHED_OFF | set(switched_off) if switched_off else SWITCHED_OFF


def _without(registry: dict, switched_off: Collection[str]) -> dict:
    """The registry less the definitions read by a switched-off rule (itself when none is)."""
    off = {n.split(":", 1)[1] for n in switched_off if n.startswith("definition:")}
    if not off:
        return registry
    kept = {k: [e for e in v if e[2].how not in off] for k, v in registry.items()}
    return {k: v for k, v in kept.items() if v}


def _ancestors(doc: Document) -> Callable[[str], set[str]]:
    """The ids of the units that contain a unit (:func:`adapters.model.ancestor_ids`, the
    one walk up the unit tree), remembered per unit: :func:`links` asks once per use of a term."""
    return cache(partial(ancestor_ids, doc))


def links(use: Usage, ancestors: Callable[[str], set[str]]) -> bool:
    """Whether a use of a defined term is a dependency: not inside the definition's own section
    (``scope``), and for a topic term only from the units the registry lists (``linked_from``)."""
    d = use.definition
    if d.linked_from is not None and use.source not in d.linked_from:
        return False
    return not (d.scope and d.scope in ancestors(use.source))


def add_definition_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    registry: dict | None = None,
    switched_off: Collection[str] | None = None,
) -> int:
    """Add ``user -> definer`` edges for every use of a defined term in ``units`` (default all)."""
    registry = _without(registry if registry is not None else definition_registry(doc.units), _off(switched_off))
    n = 0
    up = _ancestors(doc)
    for use in find_usages(doc, registry, units):
        if not links(use, up):
            continue
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
            quoted=quoted_use(use) or None,
        )
    return n


def add_anaphora_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    progress: Callable[[float], None] | None = None,
    switched_off: Collection[str] | None = None,
) -> int:
    """Add ``anaphor's unit -> antecedent's unit`` edges for the anaphors of ``units``."""
    n = 0
    off = _off(switched_off)
    for a in resolve_anaphora(doc, units, progress=progress):
        if off and f"anaphora:{a.anaphor.kind}" in off:
            continue
        # the head noun's lemma ("" for a pronoun) goes with the edge: the check after an edit
        # reads it there instead of tagging the anaphor's unit again (verify.anaphora)
        n += add_edge(
            G, a.source, a.target, DEPENDS, a.evidence, a.score, origin="anaphora", start=a.anaphor.start, end=a.anaphor.end,
            head=a.anaphor.head or "",
        )
    return n


def add_depends_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    progress: Callable[[float], None] | None = None,
    switched_off: Collection[str] | None = None,
) -> None:
    """Both detectors over ``units`` (default all); ``progress(fraction)`` as they go; the
    rules named in ``switched_off`` (``anaphora:KIND``, ``definition:ID``) left out."""
    todo = list(units) if units is not None else None
    add_definition_edges(G, doc, todo, switched_off=switched_off)
    if todo is None:  # the registry just read for the whole document: its terms kept on the graph
        term_index(doc, G)
    if progress:
        progress(0.2)
    add_anaphora_edges(G, doc, todo, progress=(lambda f: progress(0.2 + 0.8 * f)) if progress else None,
                       switched_off=switched_off)
