"""Dependency-aware retrieval: the context an edit needs, at a size that does not grow with the document.

``retrieve(doc, G, targets, ...)`` expands the targets through the typed edges, packs the
candidates by priority into a token budget and orders them for the prompt. The paper's
baselines answer through the same function (``strategy=``) so they can be compared fairly.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Sequence

from adapters.model import Document
from adapters.vocabulary import STRATEGIES

from ..errors import InvalidRequestError, UnknownUnitError
from .tokens import count_tokens
from .expand import expand
from .pack import order_for_prompt, pack
from .result import ContextItem, ContextResult, Weights

if TYPE_CHECKING:  # the baselines (numpy) are imported when a baseline strategy runs
    import networkx as nx  # (a kept graph is packed from without it: graph.stored)
    from .baselines import Embed

__all__ = [
    "DEFAULT_BUDGET",
    "STRATEGIES",
    "ContextItem",
    "ContextResult",
    "Weights",
    "document_tokens",
    "retrieve",
]

DEFAULT_BUDGET = 1500


def document_tokens(doc: Document) -> int:
    """cl100k tokens of every unit's text (cached per text, so cheap after the first call)."""
    return sum(count_tokens(u.text) for u in doc.units)


def _default_embed() -> Embed:
    from ..language.nlp import embed_texts

    return embed_texts


def retrieve(
    doc: Document,
    G: nx.MultiDiGraph | None,
    targets: Sequence[str],
    *,
    instruction: str | None = None,
    budget: int = DEFAULT_BUDGET,
    strategy: str = "ledger",
    weights: Weights | None = None,
    embed: Embed | None = None,
) -> ContextResult:
    """Context for an edit of ``targets``.

    :raise UnknownUnitError: a target is not a unit of ``doc``.
    :raise InvalidRequestError: unknown strategy, no target, or a budget below 1.
    """
    started = time.perf_counter()
    targets = list(dict.fromkeys(targets))
    if strategy not in STRATEGIES:
        raise InvalidRequestError(f"unknown strategy {strategy!r}; one of {', '.join(STRATEGIES)}")
    if not targets:
        raise InvalidRequestError("retrieval needs at least one target unit")
    if budget < 1:
        raise InvalidRequestError("the token budget must be positive")
    for t in targets:
        if doc.get(t) is None:
            raise UnknownUnitError(f"no unit {t!r} in this document", unit=t)
    weights = weights or Weights()
    dropped: list[dict] = []
    if strategy == "ledger":
        if G is None:
            raise InvalidRequestError("the ledger strategy needs the dependency graph")
        needs = []
        if instruction:
            from .terms import terms_in

            needs = [(h.unit, f"the instruction uses '{h.term}', defined here") for h in terms_in(doc, G, instruction)]
        items, dropped = pack(doc, targets, expand(G, doc, targets, weights, needs), budget)
        items = order_for_prompt(items)
    elif strategy in ("full", "window"):
        from .baselines import full_document, sliding_window

        items = full_document(doc, targets) if strategy == "full" else sliding_window(doc, targets)
    else:
        from .baselines import flat_rag, hierarchical_rag

        query = instruction or " ".join(doc.unit(t).text for t in targets)
        fn = flat_rag if strategy == "flat_rag" else hierarchical_rag
        items = fn(doc, targets, query, budget, embed or _default_embed())
    return ContextResult(
        strategy=strategy,
        targets=targets,
        context=items,
        tokens=sum(i.tokens for i in items),
        document_tokens=document_tokens(doc),
        budget=budget if strategy not in ("full", "window") else None,
        dropped=dropped,
        weights=vars(weights).copy() if strategy == "ledger" else None,
        seconds=time.perf_counter() - started,
    )
