"""The targets of an instruction and the context retrieval packs for an edit of them.

``ledger context`` and ``POST /documents/{id}/context`` both answer with :func:`context`: the
targets are a unit id, else a selection (``--find TEXT`` is the selection ``{"text": TEXT}``),
else what the instruction names (labels, defined terms, then — when ``semantic`` — the units
closest in meaning); the weights are parsed and checked by :func:`parse_weights`. A file's
graph is what a context waits for (:data:`graphs.NEEDS`: references and dependencies, not
RELATED), kept by content for the next command (:func:`document_context`); an upload's is the
one its graph job stored (:func:`stored_context`). Every answer says which ``stages`` the graph
it was packed from holds.
"""
from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, Union

from adapters.model import Document

from ..errors import InvalidRequestError
from . import graphs
from .jsonable import json_safe

if TYPE_CHECKING:  # an upload's context (the server); a file's imports no job runner nor store
    import networkx as nx  # (a file's kept graph is read without it: graph.stored)
    from ..jobs.runner import JobRunner
    from ..store import Store

__all__ = ["Selection", "WeightsSpec", "DEFAULT_BUDGET", "MAX_HOPS", "EDGE_WEIGHTS", "WEIGHTS_SPEC",
           "parse_weights", "find_targets", "needs_graph",
           "context", "document_context", "stored_context"]

#: ``{text, unit?, start?, end?}`` (see :func:`impact.resolve_target`), or just the selected text.
Selection = Union[Mapping[str, Any], str]
#: ``"REFERENCES=100,DEPENDS=50,decay=0.5"`` or ``{"REFERENCES": 100, "decay": 0.5}``
#: (or a parsed ``retrieval.result.Weights``).
WeightsSpec = Union[str, Mapping[str, float], Any]
DEFAULT_BUDGET = 1500
#: The most hops retrieval may follow (the default is 2).
MAX_HOPS = 10
#: The edge-type weights (numbers of at least 0); ``decay`` lies in 0..1, ``max_hops`` in 0..MAX_HOPS.
EDGE_WEIGHTS = ("REFERENCES", "DEPENDS", "CONTAINS", "RELATED")


def _any_case(word: str) -> str:
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


_NUMBER = r"[0-9]{1,9}(?:\.[0-9]{1,9})?"
_FRACTION = r"(?:0(?:\.[0-9]{1,9})?|1(?:\.0{1,9})?)"
_PART = ("(?:(?:" + "|".join(_any_case(w) for w in EDGE_WEIGHTS) + f")={_NUMBER}"
         f"|{_any_case('decay')}={_FRACTION}|{_any_case('max_hops')}=(?:10|[0-9]))")
#: A weights spec, exactly (the OpenAPI schema anchors it): ``NAME=VALUE`` parts joined by commas,
#: names in any case, plain decimal numbers within the ranges above.
WEIGHTS_SPEC = f"{_PART}(?:,{_PART})*"


def parse_weights(spec: WeightsSpec | None, *, name: str = "weights") -> Any:
    """The retrieval weights of a spec (``None`` or ``""``: the defaults); ``name`` is how the
    caller calls the option in the error (``--weights`` on the command line).

    >>> parse_weights("DEPENDS=80,decay=0.25").depends, parse_weights({"related": 5}).related
    (80.0, 5.0)
    >>> parse_weights("SIDEWAYS=3", name="--weights")
    Traceback (most recent call last):
    ...
    addin_backend.errors.InvalidRequestError: --weights: unknown weight 'sideways'
    >>> parse_weights("decay=2")
    Traceback (most recent call last):
    ...
    addin_backend.errors.InvalidRequestError: weights: decay must lie between 0 and 1, not 2.0
    >>> parse_weights("DEPENDS=1e2")
    Traceback (most recent call last):
    ...
    addin_backend.errors.InvalidRequestError: weights: write NAME=VALUE,... in plain decimals, e.g. DEPENDS=80,decay=0.5

    :raise InvalidRequestError: an unknown weight, a value that is not a number, or one out of
        range (a weight below 0, a decay outside 0..1, more than :data:`MAX_HOPS` hops).
    """
    from ..retrieval.result import Weights

    if isinstance(spec, Weights):
        w = spec
    else:
        field = name.lstrip("-")
        try:
            w = _from_mapping(spec) if isinstance(spec, Mapping) else Weights.parse(spec)
        except (ValueError, TypeError) as exc:
            raise InvalidRequestError(f"{name}: {exc}", field=field) from None
        bad = _out_of_range(w)
        if bad is None and isinstance(spec, str) and spec and not re.fullmatch(WEIGHTS_SPEC, spec):
            bad = "write NAME=VALUE,... in plain decimals, e.g. DEPENDS=80,decay=0.5"
        if bad:
            raise InvalidRequestError(f"{name}: {bad}", field=field)
    return w


def _from_mapping(spec: Mapping[str, Any]) -> Any:
    from ..retrieval.result import Weights

    values: dict[str, Any] = {}
    for k, v in spec.items():
        key = str(k).strip().lower()
        if key not in Weights.__dataclass_fields__:
            raise ValueError(f"unknown weight {key!r}")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError(f"{key} must be a number, not {v!r}")
        if key == "max_hops":
            if not float(v).is_integer():
                raise ValueError(f"max_hops must be a whole number, not {v}")
            v = int(v)
        values[key] = v if key == "max_hops" else float(v)
    return Weights(**values)


def _out_of_range(w: Any) -> str | None:
    """Why weights cannot be used (a weight below 0 or not finite, a decay outside 0..1, more
    than :data:`MAX_HOPS` hops), else ``None``."""
    for key in EDGE_WEIGHTS:
        value = getattr(w, key.lower())
        if not math.isfinite(value) or value < 0:
            return f"weight {key!r} must be a number of at least 0, not {value}"
    if not 0 <= w.decay <= 1:
        return f"decay must lie between 0 and 1, not {w.decay}"
    if not 0 <= w.max_hops <= MAX_HOPS:
        return f"max_hops must lie between 0 and {MAX_HOPS}, not {w.max_hops}"
    return None


def _selection(selection: Selection | None) -> dict[str, Any] | None:
    if isinstance(selection, str):
        return {"text": selection}
    return dict(selection) if selection else None


def _no_embedding(texts: Sequence[str]) -> Any:
    from ..errors import UnknownUnitError

    raise UnknownUnitError("the instruction names no unit or defined term; give a target or a selection "
                           "(matching by meaning is off: --no-semantic, LEDGER_GRAPH_SEMANTIC=0)")


def find_targets(doc: Document, G: nx.MultiDiGraph | None, *, instruction: str | None = None,
                 target: str | None = None, selection: Selection | None = None,
                 semantic: bool = True) -> tuple[list[str], list[dict[str, Any]]]:
    """``(unit ids, candidates)``: ``target``, else ``selection``, else what ``instruction``
    names; ``candidates`` say how each was found.

    :raise UnknownUnitError: a target that names nothing, or nothing found.
    """
    from ..verify.impact import resolve_target

    sel = _selection(selection)
    if target is not None or sel:
        found = resolve_target(doc, target, sel)
        return list(found.units), list(found.candidates)
    from ..retrieval.targets import identify_targets  # (numpy: only when the instruction names the targets)

    named = identify_targets(doc, instruction=instruction, G=G, embed=None if semantic else _no_embedding)
    return list(named.ids), [c.to_json() for c in named.candidates]


def needs_graph(strategy: str, *, target: str | None = None, selection: Selection | None = None) -> bool:
    """Whether :func:`context` needs the graph: the ``ledger`` strategy does, and so does finding
    the defined terms an instruction names (no target or selection given)."""
    return strategy == "ledger" or (target is None and not selection)


def context(doc: Document, G: nx.MultiDiGraph | None, *, instruction: str | None = None, target: str | None = None,
            selection: Selection | None = None, budget: int = DEFAULT_BUDGET, strategy: str = "ledger",
            weights: WeightsSpec | None = None, semantic: bool = True, with_text: bool = True) -> dict[str, Any]:
    """The context retrieval packs for an edit (``ContextResult.to_json``), with ``candidates``
    (how the targets were found), ``complete`` (whether ``G`` is final; ``None`` without one) and
    ``stages`` (the graph's stages it used; ``[]`` without one).

    ``with_text=False`` leaves the units' texts out (``ledger context --json``).

    :raise UnknownUnitError: a target that names nothing.
    :raise InvalidRequestError: a bad budget, strategy or weights.
    """
    from ..retrieval import retrieve

    w = parse_weights(weights)
    ids, candidates = find_targets(doc, G, instruction=instruction, target=target, selection=selection,
                                   semantic=semantic)
    res = retrieve(doc, G, ids, instruction=instruction, budget=budget, strategy=strategy, weights=w)
    data = res.to_json(with_text=with_text)
    data["candidates"] = candidates
    data["complete"] = graphs.is_complete(G) if G is not None else None
    data["stages"] = list(G.graph.get("stages", ())) if G is not None else []
    return json_safe(data)


def document_context(doc: Document, *, semantic: bool = True, progress: Callable[[str, float], None] | None = None,
                     **params: Any) -> dict[str, Any]:
    """:func:`context` of a document read from a file, on the graph a context waits for
    (:func:`graphs.scope_of_work`; when the strategy needs one), with the RELATED edges already
    kept for the file when ``semantic`` (:func:`graph_cache.file_graph`). ``params`` are
    :func:`context`'s.

    Weights are checked before the graph is built, so a bad spec answers at once. Beside the
    graph the file keeps what packing a context read (:data:`_KEPT`: the defined terms' index and
    their usage patterns, the token counts), so the next context on the file builds no registry,
    loads no dictionary and no tokenizer.
    """
    from ..retrieval import terms, tokens
    from ..graph.term_index import TERM_INDEX
    from .graph_cache import file_graph, keep, kept

    parse_weights(params.get("weights"))
    strategy = params.get("strategy", "ledger")
    G = None
    if needs_graph(strategy, target=params.get("target"), selection=params.get("selection")):
        G = file_graph(doc, graphs.scope_of_work("context", semantic), progress=progress, more=semantic,
                       read_only=True)
    before = kept(doc, _KEPT) or {}
    if G is not None and before.get("terms") and TERM_INDEX not in G.graph:
        G.graph[TERM_INDEX] = before["terms"]
    kept_tokens = before.get("tokens") or {}
    tokens.remember(kept_tokens)
    terms.remember(before.get("usages") or {})
    known = tokens.counted()
    answer = context(doc, G, semantic=semantic, **params)
    if tokens.loaded():  # the tokenizer is here: count what a later context may pack, for it to keep
        from ..retrieval.pack import count_packable

        count_packable(doc)
    # this file's counts and cuts: those kept, and those this context made (not other files' in this process)
    mine = {part: {**kept_tokens.get(part, {}), **{k: v for k, v in now.items() if k not in known[part]}}
            for part, now in tokens.counted().items()}
    after = {"terms": G.graph.get(TERM_INDEX) if G is not None else before.get("terms"), "tokens": mine}
    if after["terms"] is None:
        after.pop("terms")
    else:  # the usage patterns of this file's terms (and the words their uses hold) that this context knew
        usages = terms.known(terms.usage_key(t, k, cs) for t, k, cs, *_ in after["terms"].get("terms") or ())
        if usages:
            after["usages"] = usages
    if after != before:
        keep(doc, _KEPT, after)
    return answer


#: The name under which a file keeps what its contexts read beside the graph.
_KEPT = "context"


def stored_context(store: Store, runner: JobRunner, doc_id: str, *, semantic: bool = True,
                   **params: Any) -> dict[str, Any]:
    """:func:`context` of an upload, on the graph its job stored, with ``document`` first.

    :raise GraphNotReadyError: the graph job has stored no graph yet.
    :raise UnknownDocumentError: no such document.
    """
    from ..store import documents
    from .graph_job import document_graph

    parse_weights(params.get("weights"))
    doc = documents.load(store, doc_id)
    G = document_graph(store, runner, doc_id, doc)
    return {"document": doc_id, **context(doc, G, semantic=semantic, **params)}
