"""REFERENCES edges (citing -> cited): reference fields first, then textual mentions of labels."""
from __future__ import annotations

import re
from typing import Any, Iterable

import networkx as nx

from adapters.model import Document, Unit

from .edges import REFERENCES, add_edge
from .mentions import BrokenReference, LabelIndex, build_label_index, find_mentions, parse_label, resolve_unit
from adapters.vocabulary import FLOAT_KINDS

__all__ = [
    "BROKEN_KEY",
    "add_reference_edges",
    "field_references",
    "caption_floats",
    "is_navigation",
    "broken_references",
]

#: Where the graph keeps its broken references (a list of ``BrokenReference.to_json()`` dicts).
BROKEN_KEY = "broken_references"
_NO_TARGET_OK = {"hyperlink", "noteref", "note_ref"}


_NAVIGATION_STYLE = re.compile(
    r"^(?:toc|contents|table\s+of\s+(?:contents|figures|tables)|(?:illustration|table|figure|object)\s+index|index)"
    r"(?:\s*(?:heading|\d+))?$",
    re.I,
)


def is_navigation(unit: Unit) -> bool:
    """Whether a unit is an entry of a table of contents, of figures or an index: its links and
    page numbers navigate, they do not cite (and Word regenerates them)."""
    if unit.style and _NAVIGATION_STYLE.match(unit.style.strip()):
        return True
    return any(f.code.strip().upper().startswith("TOC") for f in unit.fields) and any(
        (f.target or "").startswith("_Toc") for f in unit.fields if f.is_reference
    )


def caption_floats(doc: Document, index: LabelIndex) -> dict[str, str]:
    """Caption id -> the figure, table or equation it captions.

    Word bookmarks and ODF sequence names sit in the caption, but a reader who writes "see
    Figure 3" cites the figure: a reference field into a caption is a reference to its float.
    The float is the caption's parent when the reader nests them, else the float carrying the
    same label.
    """
    out: dict[str, str] = {}
    for u in doc.units:
        if u.kind != "caption":
            continue
        parent = doc.get(u.parent) if u.parent else None
        if parent is not None and parent.kind in FLOAT_KINDS:
            out[u.id] = parent.id
            continue
        key = parse_label(u.label)
        uid = index.resolve(*key) if key else None
        hit = doc.get(uid) if uid else None
        if hit is not None and hit.kind in FLOAT_KINDS and hit.label == u.label:
            out[u.id] = hit.id
    return out


def field_references(
    unit: Unit, known: set[str], floats: dict[str, str] | None = None
) -> tuple[list[tuple[str, str, int, int]], list[BrokenReference]]:
    """``(target, evidence, start, end)`` for each resolved reference field, and the broken ones.

    The evidence is the textual mention the field sits in when there is one ("Figure 3" around
    a field that shows "3"), else the field's shown result. ``floats`` (:func:`caption_floats`)
    turns a target caption into its figure or table.
    """
    floats = floats or {}
    out: list[tuple[str, str, int, int]] = []
    broken: list[BrokenReference] = []
    mentions = find_mentions(unit.text) if unit.fields else ()
    for f in unit.fields:
        if not f.is_reference:
            continue
        if f.target_unit and f.target_unit in known:
            start, end = f.start, f.end
            for m in mentions:
                if m.start < max(f.end, f.start + 1) and f.start < m.end:
                    start, end = min(start, m.start), max(end, m.end)
            shown = unit.text[start:end].strip() if end > start else ""
            evidence = shown or f.result.strip() or f"{f.kind} {f.target or f.target_unit}"
            out.append((floats.get(f.target_unit, f.target_unit), evidence, start, end))
        elif f.target and f.kind not in _NO_TARGET_OK:
            shown = f.result.strip() or unit.text[f.start : f.end].strip()
            broken.append(
                BrokenReference(
                    unit.id,
                    f.start,
                    f.end,
                    shown,
                    f.target,
                    f"the {f.kind} field points at '{f.target}', which no unit holds",
                )
            )
    return out, broken


def add_reference_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    units: Iterable[Unit] | None = None,
    *,
    index: LabelIndex | None = None,
) -> list[BrokenReference]:
    """Add REFERENCES edges leaving ``units`` (default: all) and record their broken references.

    Broken references of those units replace theirs in ``G.graph[BROKEN_KEY]``; they are also
    returned.
    """
    index = index or build_label_index(doc.units)
    known = {u.id for u in doc.units}
    floats = caption_floats(doc, index)
    todo = list(units) if units is not None else list(doc.units)
    broken: list[BrokenReference] = []
    for u in todo:
        if is_navigation(u):
            continue
        refs, bad = field_references(u, known, floats)
        broken.extend(bad)
        for target, evidence, start, end in refs:
            add_edge(G, u.id, target, REFERENCES, evidence, 1.0, origin="field", start=start, end=end)
        resolved, bad = resolve_unit(u, index)
        broken.extend(bad)
        for r in resolved:
            m = r.mention
            origin = "bare" if m.bare else "text"
            add_edge(G, u.id, r.target, REFERENCES, m.text, r.score, origin=origin, start=m.start, end=m.end)
    _store_broken(G, doc, {u.id for u in todo}, broken)
    return broken


def _store_broken(G: nx.MultiDiGraph, doc: Document, sources: set[str], new: list[BrokenReference]) -> None:
    order = {u.id: u.order for u in doc.units}
    kept = [b for b in G.graph.get(BROKEN_KEY, []) if b["source"] not in sources and b["source"] in order]
    kept.extend(b.to_json() for b in new)
    kept.sort(key=lambda b: (order.get(b["source"], 0), b["start"], b["label"]))
    G.graph[BROKEN_KEY] = kept


def broken_references(G: nx.MultiDiGraph) -> list[dict[str, Any]]:
    """The broken references recorded on a graph (a finding list for ``ledger check``)."""
    return list(G.graph.get(BROKEN_KEY, []))
