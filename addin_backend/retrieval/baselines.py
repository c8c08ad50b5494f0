"""The paper's baselines behind the same interface: full document, sliding window, flat and
hierarchical RAG, and lexical (BM25) top-k. They share packing and token counting with LEDGER so only the choice of
units differs."""
from __future__ import annotations

from typing import Callable, Iterable, Sequence

import math
from collections import Counter
from itertools import takewhile

import numpy as np

from adapters import words
from adapters.model import Document, Unit

from .tokens import count_tokens
from .pack import unit_context_text
from .result import ContextItem

__all__ = ["full_document", "sliding_window", "flat_rag", "hierarchical_rag", "bm25", "bm25_scores", "WINDOW_TOKENS",
           "Embed"]

#: The sliding-window baseline's window, as in the paper (4K tokens centred on the target).
WINDOW_TOKENS = 4000

Embed = Callable[[Sequence[str]], np.ndarray]


def _plain(unit: Unit, edge: str, priority: float, reason: str, hops: int = 0) -> ContextItem:
    return ContextItem(unit.id, edge, hops, priority, count_tokens(unit.text), reason, unit.text,
                       unit.kind, unit.label)


def _target_items(doc: Document, targets: list[str]) -> list[ContextItem]:
    return [_plain(doc.unit(t), "TARGET", float("inf"), "the unit to edit") for t in targets]


def full_document(doc: Document, targets: list[str]) -> list[ContextItem]:
    """Every unit, in document order (the target is marked, not moved)."""
    tset = set(targets)
    return [
        _plain(u, "TARGET" if u.id in tset else "FULL", float("inf") if u.id in tset else 0.0, "whole document")
        for u in doc.units
    ]


def sliding_window(doc: Document, targets: list[str], window: int = WINDOW_TOKENS) -> list[ContextItem]:
    """Units around the first target in document order until ``window`` tokens are used."""
    units = doc.units
    pos = {u.id: i for i, u in enumerate(units)}
    centre = min(pos[t] for t in targets)
    items = _target_items(doc, targets)
    used = sum(i.tokens for i in items)
    chosen = set(targets)
    left, right = centre - 1, centre + 1
    while (left >= 0 or right < len(units)) and used < window:
        for idx in (left, right):
            if 0 <= idx < len(units) and units[idx].id not in chosen:
                u = units[idx]
                tokens = count_tokens(u.text)
                if used + tokens > window:
                    continue
                items.append(_plain(u, "WINDOW", 1.0 / (1 + abs(idx - centre)), "near the target", abs(idx - centre)))
                chosen.add(u.id)
                used += tokens
        left, right = left - 1, right + 1
    return items


def _ranked(doc: Document, query: str, embed: Embed) -> list[tuple[Unit, float]]:
    units = [u for u in doc.units if u.text.strip()]
    if not units:
        return []
    matrix = embed([u.text for u in units])
    q = embed([query])[0]
    scores = matrix @ q
    order = np.argsort(-scores, kind="stable")
    return [(units[i], float(scores[i])) for i in order]


def bm25_scores(doc: Document, query: str, k1: float = 1.2, b: float = 0.75) -> list[tuple[Unit, float]]:
    """Every unit with text, by Okapi BM25 score against ``query`` (words folded as
    :func:`adapters.words.fold` does), best first; ties keep document order.

    >>> from adapters.model import Unit
    >>> d = Document("docx", [Unit("a", "paragraph", "The probe timeout fires.", 0),
    ...                       Unit("b", "paragraph", "Packets are sent.", 1)])
    >>> [u.id for u, s in bm25_scores(d, "when does the probe timeout fire") if s > 0]
    ['a']
    """
    units = [u for u in doc.units if u.text.strip()]
    bags = [Counter(words.fold(w) for w in words.words(u.text)) for u in units]
    if not units:
        return []
    avg = sum(sum(c.values()) for c in bags) / len(bags) or 1.0
    df: Counter[str] = Counter()
    for c in bags:
        df.update(c.keys())
    terms = set(words.fold(w) for w in words.words(query))
    n = len(units)
    idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms if df[t]}
    scores = []
    for c in bags:
        length = sum(c.values())
        scores.append(sum(idf[t] * c[t] * (k1 + 1) / (c[t] + k1 * (1 - b + b * length / avg)) for t in idf if c[t]))
    order = sorted(range(n), key=lambda i: -scores[i])
    return [(units[i], scores[i]) for i in order]


def bm25(doc: Document, targets: list[str], query: str, budget: int) -> list[ContextItem]:
    """Targets, then the units that score best under BM25 against the query until the budget is full."""
    scored = takewhile(lambda hit: hit[1] > 0, bm25_scores(doc, query))  # a unit sharing no query word is no hit
    return _pack(doc, targets, scored, budget, "LEXICAL", "BM25")


def _pack(doc: Document, targets: list[str], ranked: Iterable[tuple[Unit, float]], budget: int,
          edge: str, measure: str) -> list[ContextItem]:
    """The targets, then ``ranked`` units in order, each that still fits the budget (the baselines' packing)."""
    items = _target_items(doc, targets)
    used = sum(i.tokens for i in items)
    chosen = set(targets)
    for unit, score in ranked:
        if unit.id in chosen:
            continue
        tokens = count_tokens(unit.text)
        if used + tokens > budget:
            continue
        items.append(ContextItem(unit.id, edge, 1, score, tokens, f"{measure} {score:.2f}", unit.text,
                                 unit.kind, unit.label))
        chosen.add(unit.id)
        used += tokens
    return items


def flat_rag(doc: Document, targets: list[str], query: str, budget: int, embed: Embed) -> list[ContextItem]:
    """Targets, then the units most similar to the query until the budget is full."""
    return _pack(doc, targets, _ranked(doc, query, embed), budget, "SIMILAR", "cosine")


def hierarchical_rag(doc: Document, targets: list[str], query: str, budget: int, embed: Embed) -> list[ContextItem]:
    """Flat RAG whose hits (and targets) are expanded to their parent and siblings: CONTAINS only."""
    items = _target_items(doc, targets)
    used = sum(i.tokens for i in items)
    chosen = set(targets)

    def add(unit: Unit, edge: str, priority: float, reason: str, hops: int) -> None:
        nonlocal used
        if unit.id in chosen:
            return
        text, summarised = unit_context_text(doc, unit, summarise=True)
        tokens = count_tokens(text)
        if used + tokens > budget:
            return
        items.append(ContextItem(unit.id, edge, hops, priority, tokens, reason, text, unit.kind, unit.label,
                                 summarised=summarised))
        chosen.add(unit.id)
        used += tokens

    def family(unit: Unit, score: float) -> None:
        if unit.parent and doc.get(unit.parent):
            add(doc.unit(unit.parent), "CONTAINS", score, f"parent of {unit.id}", 1)
        for sib in doc.children(unit.parent):
            if sib.id != unit.id:
                add(sib, "CONTAINS", score * 0.5, f"sibling of {unit.id}", 2)

    for t in targets:
        family(doc.unit(t), 1.0)
    for unit, score in _ranked(doc, query, embed):
        if used >= budget:
            break
        add(unit, "SIMILAR", score, f"cosine {score:.2f}", 1)
        family(unit, score)
    return items
