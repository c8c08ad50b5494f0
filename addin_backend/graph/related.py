"""RELATED edges (both directions): similar unit summaries, by MiniLM embeddings.

Each unit is embedded through a short summary, as the paper does (caption for figures and
tables, heading plus first sentences for sections, first sentences for paragraphs). Pairs above
:data:`THRESHOLD` that no REFERENCES, DEPENDS or CONTAINS edge links (nor an ancestor chain)
become RELATED, strongest first, at most :data:`CAP` per node.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable, Sequence

import networkx as nx

from adapters.model import Document, Unit

from .edges import CONTAINS, RELATED, add_edge, remove_out_edges
from .text import sentences

__all__ = [
    "THRESHOLD",
    "CAP",
    "unit_summary",
    "summaries",
    "similar_pairs",
    "add_related_edges",
    "calibrate_threshold",
]

#: Cosine threshold for MiniLM (all-MiniLM-L6-v2), provisional until the benchmark's ground
#: truth is in (``python -m benchmarks.calibrate_related``). The paper's 0.7 suits ada-002, whose
#: unrelated pairs already score ~0.7; MiniLM's sit near 0.1 (99th percentile 0.38 on the
#: docstring proxy), where 0.7 keeps 7% of related pairs. 0.5 keeps precision ~0.9 on the proxy
#: (recall 0.26; the F1 optimum is 0.36 at precision 0.69): RELATED is the lowest-priority edge
#: and every false one costs retrieval budget.
THRESHOLD = 0.5
#: At most this many RELATED neighbours per unit.
CAP = 5
_MAX_WORDS = 60
_CITATION = re.compile(r"\s*\[[^\[\]]{1,40}\]|\s*\((?:[A-Z][^()]{0,60}?,?\s+(?:19|20)\d{2}[a-z]?)\)")
_STRUCTURAL = re.compile(r"^(?:In|Throughout)\s+this\s+(?:section|chapter|clause|paper|subsection),?\s*", re.I)


def _clip(text: str, words: int = _MAX_WORDS) -> str:
    w = text.split()
    return " ".join(w[:words])


def _first_sentences(text: str, n: int = 2) -> str:
    text = _CITATION.sub("", text)
    spans = sentences(text)[:n]
    out = " ".join(text[a:b] for a, b in spans) if spans else text
    return _STRUCTURAL.sub("", out).strip()


def _captions(doc: Document) -> dict[str, Unit]:
    """Figure/table/equation id -> its caption (a child caption, or an adjacent one)."""
    out: dict[str, Unit] = {}
    units = doc.units
    for i, u in enumerate(units):
        if u.kind != "caption":
            continue
        if u.parent and doc.get(u.parent) is not None and doc.unit(u.parent).kind in ("figure", "table", "equation"):
            out.setdefault(u.parent, u)
            continue
        for j in (i - 1, i + 1):
            if 0 <= j < len(units) and units[j].kind in ("figure", "table", "equation") and units[j].id not in out:
                if not u.label or not units[j].label or u.label == units[j].label:
                    out[units[j].id] = u
                    break
    return out


def unit_summary(
    unit: Unit,
    doc: Document,
    *,
    captions: dict[str, Unit] | None = None,
    before: str | None = None,
    children: dict[str | None, list[Unit]] | None = None,
) -> str | None:
    """The short text a unit is embedded by, or ``None`` for units not embedded.

    ``before`` is the text of the paragraph preceding the unit (an equation's description).
    """
    captions = captions if captions is not None else _captions(doc)
    kind = unit.kind
    if kind == "title":
        return None
    if kind == "caption":
        if unit.id in {c.id for c in captions.values()}:
            return None  # embedded as its figure or table
        out = unit.text
    elif kind == "section":
        head = unit.title or unit.text
        body = []
        kids = children.get(unit.id, []) if children is not None else doc.children(unit.id)
        for c in kids:
            if c.kind in ("paragraph", "list_item") and c.text.strip():
                body.append(_first_sentences(c.text, 2))
                if sum(len(b.split()) for b in body) >= 40:
                    break
        out = f"{head}. {' '.join(body)}" if body else head
    elif kind in ("figure", "table", "equation"):
        cap = captions.get(unit.id)
        parts = [cap.text if cap else (unit.label or "")]
        if kind == "table":
            parts.append(unit.text.split("\n", 1)[0])
        elif kind == "figure" and not cap:
            parts.append(unit.text)
        elif kind == "equation":
            spans = sentences(before or "")
            if spans:
                parts.append(before[spans[-1][0] : spans[-1][1]])
            parts.append(unit.text)
        out = " ".join(p for p in parts if p)
    else:
        out = _first_sentences(unit.text, 2)
    out = _clip(" ".join(out.split()))
    return out if len(out.split()) >= 3 else None


def summaries(doc: Document) -> dict[str, str]:
    """Unit id -> summary, for every unit that is embedded."""
    caps = _captions(doc)
    kids: dict[str | None, list[Unit]] = {}
    for u in doc.units:
        kids.setdefault(u.parent, []).append(u)
    out = {}
    before = None
    for u in doc.units:
        s = unit_summary(u, doc, captions=caps, before=before, children=kids)
        if s:
            out[u.id] = s
        if u.kind == "paragraph":
            before = u.text
    return out


def _linked(G: nx.MultiDiGraph, a: str, b: str) -> bool:
    for x, y in ((a, b), (b, a)):
        if G.has_edge(x, y):
            if any(k != RELATED for k in G[x][y]):
                return True
    return False


def _ancestors(G: nx.MultiDiGraph, n: str) -> set[str]:
    out: set[str] = set()
    cur = n
    while True:
        parents = [u for u, _, k in G.in_edges(cur, keys=True) if k == CONTAINS]
        if not parents or parents[0] in out:
            return out
        cur = parents[0]
        out.add(cur)


def similar_pairs(
    doc: Document,
    G: nx.MultiDiGraph,
    *,
    threshold: float = THRESHOLD,
    progress: Callable[[float], None] | None = None,
) -> list[tuple[str, str, float]]:
    """Every unordered pair ``(a, b, cosine)`` above ``threshold`` that no other edge links,
    strongest first (ties in document order)."""
    import numpy as np

    from ..nlp import embed_texts

    summ = summaries(doc)
    ids = [u.id for u in doc.units if u.id in summ]
    if len(ids) < 2:
        return []
    vecs = embed_texts([summ[i] for i in ids], progress=progress)
    anc = {i: _ancestors(G, i) for i in ids}
    pairs: list[tuple[float, int, int]] = []
    block = 512
    for lo in range(0, len(ids), block):
        sims = vecs[lo : lo + block] @ vecs.T
        rows, cols = np.nonzero(sims >= threshold)
        for r, c in zip(rows.tolist(), cols.tolist()):
            i = lo + r
            if c <= i:
                continue
            a, b = ids[i], ids[c]
            if a in anc[b] or b in anc[a] or _linked(G, a, b):
                continue
            pairs.append((round(float(sims[r, c]), 4), i, c))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    return [(ids[i], ids[j], s) for s, i, j in pairs]


def add_related_edges(
    G: nx.MultiDiGraph,
    doc: Document,
    *,
    threshold: float = THRESHOLD,
    cap: int = CAP,
    progress: Callable[[float], None] | None = None,
) -> int:
    """Replace the RELATED edges of ``G`` with those of ``doc``; returns how many pairs."""
    remove_out_edges(G, list(G.nodes), RELATED)
    degree: dict[str, int] = {}
    n = 0
    for a, b, s in similar_pairs(doc, G, threshold=threshold, progress=progress):
        if degree.get(a, 0) >= cap or degree.get(b, 0) >= cap:
            continue
        ev = f"similar summaries (cosine {s:.2f})"
        add_edge(G, a, b, RELATED, ev, s, origin="embedding")
        add_edge(G, b, a, RELATED, ev, s, origin="embedding")
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
        n += 1
    G.graph["related_threshold"] = threshold
    return n


def calibrate_threshold(
    scores: Sequence[float], labels: Sequence[bool], *, min_precision: float | None = None
) -> dict[str, float]:
    """The threshold that maximises F1 on labelled pairs (``labels[i]``: truly related).

    With ``min_precision`` the best F1 among thresholds reaching that precision. The benchmark's
    ground truth supplies the pairs: score every candidate pair with :func:`similar_pairs` at
    threshold 0 and label it from the ground-truth RELATED set.

    >>> calibrate_threshold([0.9, 0.8, 0.55, 0.5, 0.3], [True, True, True, False, False])
    {'threshold': 0.55, 'f1': 1.0, 'precision': 1.0, 'recall': 1.0}
    """
    pairs = sorted(zip(scores, labels), key=lambda p: -p[0])
    total = sum(1 for _, l in pairs if l)
    best = {"threshold": 1.0, "f1": 0.0, "precision": 0.0, "recall": 0.0}
    tp = fp = 0
    for i, (s, lab) in enumerate(pairs):
        tp += bool(lab)
        fp += not lab
        if i + 1 < len(pairs) and pairs[i + 1][0] == s:
            continue
        prec = tp / (tp + fp)
        rec = tp / total if total else 0.0
        f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
        if min_precision is not None and prec < min_precision:
            continue
        if f1 > best["f1"]:
            best = {"threshold": round(float(s), 4), "f1": round(f1, 4), "precision": round(prec, 4), "recall": round(rec, 4)}
    return best


def related_ids(G: nx.MultiDiGraph, n: str) -> Iterable[str]:
    """The RELATED neighbours of a node."""
    return (v for _, v, k in G.out_edges(n, keys=True) if k == RELATED)
