"""REFERENCES edges (citing -> cited): reference fields first, then textual mentions of labels."""
from __future__ import annotations

import re
from typing import Any, Iterable

import networkx as nx

from adapters.model import Document, Unit

from .edges import REFERENCES, add_edge
from .listings import add_listing_edges
from .definitions import find_definitions
from .mentions import (BrokenReference, LabelIndex, build_label_index, designations, find_mentions, own_names,
                       parse_label, resolve_unit)
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


_TAG_LINE = re.compile(r"^\s*\[(?P<tag>[^\[\]\s][^\[\]]{0,39})\]", re.M)
_SENTENCE_END = re.compile(r"[.!?;](?=\s)")


class _Foreign:
    """What tells that a mention of a missing label names another work's part, read once per
    document: the units that are reference-list entries, and the tags those entries open with
    ("[RFC3986]")."""

    def __init__(self, doc: Document, index: LabelIndex) -> None:
        from .related import is_reference_entry, reference_list_sections

        lists = reference_list_sections(doc)
        self.entries = {u.id for u in doc.units if is_reference_entry(u, u.parent in lists)}
        self.tags = {m.group("tag") for u in doc.units if u.id in self.entries for m in _TAG_LINE.finditer(u.text)}
        self.own = own_names(index)

    def cites(self, unit: Unit, start: int, end: int) -> bool:
        """Whether the mention at ``unit.text[start:end]``, which names no part of this document,
        names a part of another work: it is written in a reference entry ("[Davis] ..., Unicode
        Standard Annex 15"), inside the spelled-out name of an abbreviation ("US Secure Hash
        Algorithm 1 (SHA1)"), or its sentence cites a listed work or a designated one before it
        ("MUST conform to [RFC3986], more specifically section 1.1.3")."""
        if unit.id in self.entries:
            return True
        text = unit.text
        if "(" in text and any(d.kind == "acronym" and d.start <= start and end <= d.end
                               for d in find_definitions(text[: end + 80])):
            return True
        ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
        before = text[ends[-1] if ends else 0 : start]
        if any(d not in self.own for d in designations(before)):
            return True
        return "[" in before and any(m.group("tag") in self.tags for m in _BRACKET.finditer(before))


_BRACKET = re.compile(r"\[(?P<tag>[^\[\]]{1,40})\]")


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
    foreign: _Foreign | None = None
    for u in todo:
        if is_navigation(u):
            continue
        refs, bad = field_references(u, known, floats)
        broken.extend(bad)
        for target, evidence, start, end in refs:
            add_edge(G, u.id, target, REFERENCES, evidence, 1.0, origin="field", start=start, end=end)
        resolved, bad = resolve_unit(u, index)
        if bad:
            foreign = foreign or _Foreign(doc, index)
            bad = [b for b in bad if not foreign.cites(u, b.start, b.end)]
        broken.extend(bad)
        for r in resolved:
            m = r.mention
            origin = "bare" if m.bare else "text"
            add_edge(G, u.id, r.target, REFERENCES, m.text, r.score, origin=origin, start=m.start, end=m.end)
    add_listing_edges(G, doc, [u for u in todo if u.kind == "table"])  # a table listing statements' identifiers
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
