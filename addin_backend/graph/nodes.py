"""Graph nodes: one per unit, plus a root that stands for the whole document."""
from __future__ import annotations

import os
from typing import Any

import networkx as nx

from adapters.model import Document, Unit

from .edges import DOCUMENT_ID
from .text import preview

__all__ = ["unit_attrs", "document_attrs", "add_unit_nodes", "sync_nodes"]


def unit_attrs(unit: Unit) -> dict[str, Any]:
    """The node attributes of a unit: what a picture, a listing or retrieval needs without the doc."""
    return {
        "kind": unit.kind,
        "label": unit.label,
        "order": unit.order,
        "parent": unit.parent,
        "number": unit.number,
        "title": unit.title,
        "level": unit.level,
        "preview": preview(unit.text),
    }


def document_attrs(doc: Document) -> dict[str, Any]:
    """The root node's attributes (its label is the title, else the file name)."""
    title = next((u.text for u in doc.units if u.kind == "title" and u.text.strip()), None)
    label = preview(title, 60) if title else (os.path.basename(doc.path) if doc.path else "document")
    return {
        "kind": "document",
        "label": label,
        "order": -1,
        "parent": None,
        "number": None,
        "title": title,
        "level": 0,
        "preview": label,
    }


def add_unit_nodes(G: nx.MultiDiGraph, doc: Document) -> None:
    """Add the root and one node per unit, in document order."""
    G.add_node(DOCUMENT_ID, **document_attrs(doc))
    for u in doc.units:
        G.add_node(u.id, **unit_attrs(u))


def sync_nodes(G: nx.MultiDiGraph, doc: Document) -> tuple[set[str], set[str]]:
    """Make the nodes match ``doc`` (removing vanished units with their edges).

    Returns ``(added, removed)`` unit ids.
    """
    want = {u.id for u in doc.units}
    have = {n for n in G.nodes if n != DOCUMENT_ID}
    removed = have - want
    added = want - have
    G.remove_nodes_from(removed)
    G.add_node(DOCUMENT_ID)
    G.nodes[DOCUMENT_ID].clear()
    G.nodes[DOCUMENT_ID].update(document_attrs(doc))
    for u in doc.units:
        if u.id in G:
            G.nodes[u.id].clear()
        G.add_node(u.id, **unit_attrs(u))
    return added, removed
