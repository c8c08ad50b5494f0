"""CONTAINS edges: document > sections > subsections > paragraphs, figures, tables, notes."""
from __future__ import annotations

import networkx as nx

from adapters.model import Document

from ..outline import level
from .edges import CONTAINS, DOCUMENT_ID, add_edge, edges_of_type
from adapters.vocabulary import NOTE_KINDS

__all__ = ["containment", "add_contains_edges", "sync_contains_edges"]

_NOTE_META = ("cited_by", "citing_unit", "cited_from")


def _inferred_parents(doc: Document) -> dict[str, str]:
    """Parents from heading levels, for a reader that gave none."""
    out: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    for u in doc.body():
        if u.kind == "section":
            lvl = level(u)
            while stack and stack[-1][0] >= lvl:
                stack.pop()
            if stack:
                out[u.id] = stack[-1][1]
            stack.append((lvl, u.id))
        elif stack:
            out[u.id] = stack[-1][1]
    return out


def _note_citers(doc: Document) -> dict[str, tuple[str, str]]:
    """Note id -> (citing unit, evidence), from note-reference fields of other units."""
    notes = {u.id for u in doc.units if u.kind in NOTE_KINDS}
    out: dict[str, tuple[str, str]] = {}
    if not notes:
        return out
    for u in doc.units:
        for f in u.fields:
            if f.target_unit in notes and f.target_unit not in out and u.id != f.target_unit:
                mark = f.result.strip() or u.text[f.start : f.end].strip()
                out[f.target_unit] = (u.id, f"note reference {mark}".strip())
    return out


def containment(doc: Document) -> dict[str, tuple[str, str]]:
    """Each unit id -> ``(container id, evidence)``; top-level units hang from the root.

    Footnote and endnote bodies hang from the paragraph that cites them (the unit's ``parent``
    when the reader set it, else the unit holding a note-reference field to it, else
    ``meta["cited_by"]``).
    """
    ids = {u.id for u in doc.units}
    inferred = _inferred_parents(doc) if all(u.parent is None for u in doc.units) else {}
    citers = _note_citers(doc)
    out: dict[str, tuple[str, str]] = {}
    for u in doc.units:
        if u.kind in NOTE_KINDS:
            meta = next((u.meta[k] for k in _NOTE_META if u.meta.get(k) in ids), None)
            if u.parent in ids:
                out[u.id] = (u.parent, "note reference")
            elif u.id in citers:
                out[u.id] = citers[u.id]
            elif meta:
                out[u.id] = (meta, "note reference")
            else:
                out[u.id] = (DOCUMENT_ID, "structure")
        elif u.parent in ids:
            out[u.id] = (u.parent, "structure")
        elif u.id in inferred:
            out[u.id] = (inferred[u.id], "heading level")
        else:
            out[u.id] = (DOCUMENT_ID, "structure")
    return out


def add_contains_edges(G: nx.MultiDiGraph, doc: Document) -> None:
    """Add one CONTAINS edge (container -> unit) for every unit of ``doc``."""
    for child, (parent, why) in containment(doc).items():
        add_edge(G, parent, child, CONTAINS, why, 1.0)


def sync_contains_edges(G: nx.MultiDiGraph, doc: Document) -> int:
    """Make the CONTAINS edges equal to those of ``doc`` (a diff, O(units)); returns changes."""
    want = {(p, c): why for c, (p, why) in containment(doc).items()}
    have = {(u, v): d["evidence"] for u, v, d in edges_of_type(G, CONTAINS)}
    changes = 0
    for pair in have.keys() - want.keys():
        G.remove_edge(*pair, key=CONTAINS)
        changes += 1
    for pair, why in want.items():
        if have.get(pair) != why:
            if pair in have:
                G.remove_edge(*pair, key=CONTAINS)
            add_edge(G, pair[0], pair[1], CONTAINS, why, 1.0)
            changes += 1
    return changes
