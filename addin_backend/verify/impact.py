"""Impact of an edit: what a unit (or a span of it) references, what depends on it, what is broken.

Edges run from the unit that needs to the unit that is needed: REFERENCES citing -> cited,
DEPENDS dependent -> prerequisite, CONTAINS parent -> child, RELATED both ways. So what the
target *references* are its outgoing REFERENCES/DEPENDS edges, and what an edit of it may
*impact* are the sources of its incoming ones, then theirs (dependents of dependents), up to
``depth`` hops. A section stands for everything it contains (``retrieval.expand.scope_of``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Sequence

if TYPE_CHECKING:  # (a context's selection is resolved without networkx: graph.stored)
    import networkx as nx

from adapters.model import Document
from adapters.text import loose_pattern, squash

from ..errors import InvalidRequestError, UnknownUnitError

__all__ = ["DEFAULT_DEPTH", "IMPACT_TYPES", "Target", "resolve_target", "impact"]

DEFAULT_DEPTH = 2
#: Edge types an impact follows by default: the hard dependencies.
IMPACT_TYPES = ("REFERENCES", "DEPENDS")
_HARD = ("REFERENCES", "DEPENDS")
_ROOT = "document"


@dataclass
class Target:
    """The units an edit is about and, when the user selected text in one, its span there."""

    units: list[str]
    start: int | None = None
    end: int | None = None
    text: str | None = None
    how: str = "id"
    candidates: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self, doc: Document) -> dict[str, Any]:
        first = doc.unit(self.units[0])
        return {"unit": first.id, "label": first.label, "kind": first.kind, "start": self.start, "end": self.end,
                "units": list(self.units), "how": self.how}


def _ends(span: tuple[int, int] | None) -> tuple[int | None, int | None]:
    return span if span is not None else (None, None)


def _locate(text: str, wanted: str) -> tuple[int, int] | None:
    """The span of ``wanted`` in ``text``: exactly, else as :func:`adapters.text.loose_pattern`
    finds it (any run of white space matching any other, either kind of quote or dash)."""
    at = text.find(wanted)
    if at >= 0:
        return at, at + len(wanted)
    if not wanted.strip():
        return None
    m = loose_pattern(wanted).search(text)
    return (m.start(), m.end()) if m else None


def resolve_target(doc: Document, unit: str | None = None, selection: dict[str, Any] | None = None) -> Target:
    """The target of a request: ``unit`` (an id), or ``selection`` = ``{text, unit?, start?, end?}``.

    A selection with ``unit`` is located in that unit (``start``/``end`` when they still cover
    ``text``, else where ``text`` occurs); without it the selected text is looked up in the whole
    document (``retrieval.targets.identify_targets``; it may cover several units).

    :raise UnknownUnitError: an id the document does not have, or text found nowhere.
    :raise InvalidRequestError: neither given, or a span outside the unit's text.
    """
    if unit is not None:
        if doc.get(unit) is None:
            raise UnknownUnitError(f"the document has no unit {unit!r}", unit=unit)
        return Target([unit], candidates=[{"id": unit, "score": 1.0, "how": "id", "evidence": ""}])
    if not selection:
        raise InvalidRequestError("give a unit id or a selection")
    text = selection.get("text") or ""
    if selection.get("unit") is not None:
        uid = selection["unit"]
        u = doc.get(uid)
        if u is None:
            raise UnknownUnitError(f"the document has no unit {uid!r}", unit=uid)
        start, end = selection.get("start"), selection.get("end")
        if (start is None) != (end is None):
            raise InvalidRequestError("a selection gives both start and end, or neither")
        if start is not None and end is not None and not 0 <= start <= end <= len(u.text):
            raise InvalidRequestError(f"selection {start}..{end} lies outside unit {uid} ({len(u.text)} characters)")
        if start is not None and end is not None and squash(u.text[start:end]) == squash(text):
            span: tuple[int, int] | None = (start, end)
        else:
            span = _locate(u.text, text.strip()) if text.strip() else None
        return Target([uid], *_ends(span), text=text, how="selection",
                      candidates=[{"id": uid, "score": 1.0, "how": "selection", "evidence": text[:80]}])
    from ..retrieval.targets import identify_targets

    found = identify_targets(doc, selection=text)
    first = doc.unit(found.ids[0])
    line = next((p for p in re.split(r"[\r\n\v\u2028\u2029\f]+", text) if p.strip()), "")
    span = _locate(first.text, line.strip())
    return Target(found.ids, *_ends(span), text=text, how="selection",
                  candidates=[c.to_json() for c in found.candidates])


def _scope(doc: Document, units: Sequence[str]) -> set[str]:
    from ..retrieval.expand import scope_of

    return scope_of(doc, units)


def _node(G: nx.MultiDiGraph, doc: Document, uid: str) -> dict[str, Any]:
    u = doc.get(uid)
    d = G.nodes[uid] if uid in G else {}
    return {"unit": uid, "label": u.label if u else d.get("label"), "kind": u.kind if u else d.get("kind")}


def _overlaps(data: dict[str, Any], start: int | None, end: int | None) -> bool:
    """Whether an edge's evidence span meets the selected span (always, without spans)."""
    s, e = data.get("start"), data.get("end")
    if start is None or end is None or not isinstance(s, int) or not isinstance(e, int):
        return True
    return s < end and start < e if end > start else s <= start <= e


def _neighbours(G: nx.MultiDiGraph, node: str, types: Iterable[str]):
    """``(unit, edge data, graph source, graph target)`` of the units an edit of ``node`` reaches."""
    types = set(types)
    if node not in G:
        return
    for u, _, data in G.in_edges(node, data=True):
        t = data.get("type")
        if t in types and (t in _HARD or t in ("CONTAINS", "RELATED")):
            yield u, data, u, node
    if "RELATED" in types:
        for _, v, data in G.out_edges(node, data=True):
            if data.get("type") == "RELATED":
                yield v, data, node, v


def impact(doc: Document, G: nx.MultiDiGraph, target: Target, *, depth: int = DEFAULT_DEPTH,
           types: Sequence[str] = IMPACT_TYPES) -> dict[str, Any]:
    """What ``target`` references, what depends on it within ``depth`` hops, its broken references.

    ``impacted[]`` items carry ``distance`` (hops), ``score`` (the product of the edge scores on the
    best path) and ``via``: the path from the target, one step per edge, each
    ``{type, from, to, evidence, score}`` where ``from`` is the unit the step starts at (the target
    or a unit impacted before) and ``to`` the unit it reaches; in the graph that edge is
    ``to -> from`` for REFERENCES, DEPENDS and CONTAINS (``to`` is the container), either way for
    RELATED. Sorted by distance, then score (best first), then document order.
    """
    if depth < 1:
        raise InvalidRequestError("depth must be at least 1")
    order = {u.id: u.order for u in doc.units}
    scope = _scope(doc, target.units)
    one = len(target.units) == 1
    references = []
    for src in sorted(scope, key=lambda n: order.get(n, 0)):
        if src not in G:
            continue
        for _, dst, data in G.out_edges(src, data=True):
            if data.get("type") not in _HARD or dst in scope:
                continue
            if one and src == target.units[0] and not _overlaps(data, target.start, target.end):
                continue
            item = {**_node(G, doc, dst), "type": data["type"], "evidence": data.get("evidence", ""),
                    "score": data.get("score", 1.0), "from": src}
            item.update({k: data[k] for k in ("start", "end", "origin") if k in data})
            references.append(item)
    references.sort(key=lambda r: (order.get(r["from"], 0), r.get("start", -1), order.get(r["unit"], 0)))

    best: dict[str, tuple[int, float, list[dict[str, Any]]]] = {}
    frontier: dict[str, tuple[float, list[dict[str, Any]]]] = {n: (1.0, []) for n in scope}
    for distance in range(1, depth + 1):
        reached: dict[str, tuple[float, list[dict[str, Any]]]] = {}
        for node, (score, via) in frontier.items():
            for other, data, _, _ in _neighbours(G, node, types):
                if other in scope or other in best or other == _ROOT:
                    continue
                s = score * float(data.get("score", 1.0))
                step = {"type": data.get("type"), "from": node, "to": other,
                        "evidence": data.get("evidence", ""), "score": data.get("score", 1.0)}
                if other not in reached or s > reached[other][0]:
                    reached[other] = (s, via + [step])
        for other, (s, via) in reached.items():
            best[other] = (distance, s, via)
        frontier = reached
        if not frontier:
            break
    impacted = [{**_node(G, doc, uid), "via": via, "distance": d, "score": round(s, 4)}
                for uid, (d, s, via) in best.items()]
    impacted.sort(key=lambda i: (i["distance"], -i["score"], order.get(i["unit"], 0)))

    broken = []
    for b in G.graph.get("broken_references", []):
        if b.get("source") not in scope:
            continue
        if one and b.get("source") == target.units[0] and not _overlaps(b, target.start, target.end):
            continue
        broken.append(b)
    return {"target": target.to_json(doc), "depth": depth, "types": list(types),
            "references": references, "impacted": impacted, "broken_references": broken}
