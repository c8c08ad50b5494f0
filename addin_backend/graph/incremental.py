"""Update a graph after an edit: recompute only what the changed units touch.

Unit ids are content hashes, so the changed units are the ids that appeared or disappeared
(plus units whose label, parent or fields changed). From them each stage derives what it must
redo: REFERENCES for the units that mention a label whose target changed, DEPENDS for the users
of a term whose definition changed and for the units whose anaphora window changed, RELATED
from cached embeddings. The result equals a full rebuild (the tests check it).
"""
from __future__ import annotations

import time
from typing import Any

import networkx as nx

from adapters.model import Document, Unit

from .build import Progress, refresh_stats
from .contains import sync_contains_edges
from .edges import DEPENDS, REFERENCES, remove_out_edges
from .mentions import build_label_index, iter_mention_keys
from .nodes import sync_nodes
from .references import add_reference_edges, broken_references

__all__ = ["changed_units", "update_graph", "broken_after"]


def _shape(u: Unit) -> tuple[Any, ...]:
    """What, besides the text, the edges of a unit depend on."""
    fields = tuple((f.kind, f.target, f.target_unit, f.start, f.end, f.result) for f in u.fields)
    return (u.kind, u.label, u.number, u.title, u.parent, u.level, fields, u.meta.get("cited_by"))


def changed_units(old: Document, new: Document) -> dict[str, Any]:
    """``added``, ``removed`` and ``reshaped`` unit ids, and whether surviving units ``moved``."""
    old_ids = [u.id for u in old.units]
    new_ids = [u.id for u in new.units]
    added = set(new_ids) - set(old_ids)
    removed = set(old_ids) - set(new_ids)
    common = set(old_ids) & set(new_ids)
    # A unit edited in the neutral model (apply_to_document) keeps its id while its text changes.
    reshaped = {
        i for i in common
        if old.unit(i).text != new.unit(i).text or _shape(old.unit(i)) != _shape(new.unit(i))
    }
    moved = [i for i in old_ids if i in common] != [i for i in new_ids if i in common]
    return {"added": added, "removed": removed, "reshaped": reshaped, "moved": moved}


def _reference_dirty(old: Document, new: Document, ch: dict[str, Any]):
    old_t = build_label_index(old.units).targets()
    index = build_label_index(new.units)
    new_t = index.targets()
    keys = {k for k in old_t.keys() | new_t.keys() if old_t.get(k) != new_t.get(k)}
    touched = ch["added"] | ch["removed"] | ch["reshaped"]  # a caption's float changes its parent
    dirty = set(ch["added"]) | ch["reshaped"]
    for u in new.units:
        if u.id in dirty:
            continue
        if any(f.target_unit in touched for f in u.fields):
            dirty.add(u.id)
        elif keys and keys.intersection(iter_mention_keys(u.text)):
            dirty.add(u.id)
    return dirty, index


def _next_kept(units: list[Unit], changed: set[str], pos: dict[str, int]) -> list[int]:
    """For each unit of ``units`` in ``changed``, the position (in ``pos``) of the first unit
    after it that is neither changed nor missing from ``pos``."""
    out: list[int] = []
    nxt: int | None = None
    for u in reversed(units):
        if u.id in changed:
            if nxt is not None:
                out.append(nxt)
        elif u.id in pos:
            nxt = pos[u.id]
    return out


def _anaphora_dirty(old: Document, new: Document, ch: dict[str, Any], window: int) -> set[str]:
    """The content units whose anaphora may read what changed: the changed ones and those
    after them within the window, after a removed unit, and after a heading added, removed or
    changed: anaphora reads sections in document order, so the units after such a heading open
    another section (their heading links, "this approach" -> the section's subject) even where
    no unit's parent changed."""
    from .anaphora import content_units, window_after

    seq = content_units(new)
    pos = {u.id: i for i, u in enumerate(seq)}
    starts = [pos[i] for i in ch["added"] | ch["reshaped"] if i in pos]
    starts += _next_kept(old.units, ch["removed"], pos)
    heads = {u.id for u in new.units if u.id in ch["added"] | ch["reshaped"] and u.id not in pos}
    starts += _next_kept(new.units, heads, pos)
    return window_after(new, starts, window)


def _definition_dirty(old: Document, new: Document, ch: dict[str, Any], registry) -> set[str]:
    from .definitions import definition_registry, find_usages

    before = definition_registry(old.units)
    sig_old = {k: [(uid, d) for _, uid, d in v] for k, v in before.items()}
    sig_new = {k: [(uid, d) for _, uid, d in v] for k, v in registry.items()}
    keys = [k for k in sig_old.keys() | sig_new.keys() if sig_old.get(k) != sig_new.get(k) and k in registry]
    dirty = set(ch["added"]) | ch["reshaped"]
    if keys:
        dirty.update(use.source for use in find_usages(new, registry, None, keys))
    return dirty


def broken_after(G: nx.MultiDiGraph, old_doc: Document, new_doc: Document) -> list[dict[str, Any]]:
    """The broken references of ``new_doc`` (a later version of ``old_doc``, whose graph ``G``
    holds its REFERENCES), without building a graph of ``new_doc`` or changing ``G``: the
    recorded ones of the units the change leaves as they were, recomputed for the units
    :func:`update_graph` would redo (what :func:`broken_references` of a rebuilt graph gives).
    """
    ch = changed_units(old_doc, new_doc)
    dirty, index = _reference_dirty(old_doc, new_doc, ch)
    alive = {u.id for u in new_doc.units}
    kept = [b for b in broken_references(G) if b["source"] in alive and b["source"] not in dirty]
    fresh = add_reference_edges(nx.MultiDiGraph(), new_doc, [u for u in new_doc.units if u.id in dirty], index=index)
    order = {u.id: u.order for u in new_doc.units}
    out = kept + [b.to_json() for b in fresh]
    out.sort(key=lambda b: (order.get(b["source"], 0), b["start"], b["label"]))
    return out


def update_graph(
    G: nx.MultiDiGraph, old_doc: Document, new_doc: Document, *, progress: Progress | None = None
) -> nx.MultiDiGraph:
    """Bring ``G`` (built from ``old_doc``) up to date with ``new_doc``, in place; returns ``G``.

    Only the stages ``G`` was built with are updated. ``G.graph["stats"]["incremental"]`` says
    how many units each stage recomputed.
    """
    stages = list(G.graph.get("stages", []))
    ch = changed_units(old_doc, new_doc)
    secs: dict[str, float] = {}
    redo: dict[str, int] = {}
    t0 = time.perf_counter()
    sync_nodes(G, new_doc)
    if "contains" in stages:
        redo["contains"] = sync_contains_edges(G, new_doc)
    secs["contains"] = round(time.perf_counter() - t0, 4)

    if "references" in stages:
        t0 = time.perf_counter()
        if progress:
            progress("references", 0.0)
        dirty, index = _reference_dirty(old_doc, new_doc, ch)
        remove_out_edges(G, dirty, REFERENCES)
        add_reference_edges(G, new_doc, [u for u in new_doc.units if u.id in dirty], index=index)
        redo["references"] = len(dirty)
        secs["references"] = round(time.perf_counter() - t0, 4)
        if progress:
            progress("references", 1.0)

    if "depends" in stages:
        from .anaphora import WINDOW
        from .definitions import definition_registry
        from .depends import add_anaphora_edges, add_definition_edges

        t0 = time.perf_counter()
        if progress:
            progress("depends", 0.0)
        registry = definition_registry(new_doc.units)
        if ch["moved"]:
            dirty = {u.id for u in new_doc.units}
        else:
            dirty = _definition_dirty(old_doc, new_doc, ch, registry) | _anaphora_dirty(old_doc, new_doc, ch, WINDOW)
        units = [u for u in new_doc.units if u.id in dirty]
        remove_out_edges(G, dirty, DEPENDS)
        off = G.graph.get("switched_off")
        add_definition_edges(G, new_doc, units, registry=registry, switched_off=off)
        add_anaphora_edges(G, new_doc, units, switched_off=off)
        redo["depends"] = len(dirty)
        secs["depends"] = round(time.perf_counter() - t0, 4)
        if progress:
            progress("depends", 1.0)

    if "related" in stages:
        from .related import RELATIVE, THRESHOLD, add_related_edges

        t0 = time.perf_counter()
        report = (lambda f: progress("related", f)) if progress else None
        add_related_edges(
            G,
            new_doc,
            threshold=G.graph.get("related_threshold", THRESHOLD),
            relative=G.graph.get("related_relative", RELATIVE),
            progress=report,
        )
        secs["related"] = round(time.perf_counter() - t0, 4)

    stats = refresh_stats(G)
    stats["seconds_by_stage"] = secs
    stats["incremental"] = {
        "added": len(ch["added"]),
        "removed": len(ch["removed"]),
        "reshaped": len(ch["reshaped"]),
        "moved": ch["moved"],
        "recomputed": redo,
    }
    return G
