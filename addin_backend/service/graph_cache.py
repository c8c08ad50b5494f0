"""What the command line built for a file, kept by the file's content: a second ``ledger context``,
``check``, ``edit`` or ``graph`` on an unchanged file loads the document and its graph instead of
reading and building them again.

A file is known by the SHA-256 of its bytes. Kept for it, in one scope of a
:class:`~addin_backend.store.sqlite_store.SqliteStore` (``graphs.sqlite3`` in the user's cache
folder, beside the embeddings), are its neutral model (lossless JSON, what an upload keeps),
the largest graph built on it so far, with the stages it holds, and what a command keeps beside
them (:func:`keep`: a context's term index and token counts). The scope's name also holds the
code that made them (:func:`code_version`) and the RELATED stage's embedding backend, so other
code or another backend reads and builds afresh. A command takes from the graph only the stages
it needs (:func:`file_graph`) and adds the stages it lacks, so ``ledger check`` after ``ledger
graph`` builds nothing, and ``ledger graph`` after ``ledger edit`` builds RELATED alone; the
defined terms' index a loaded graph holds is known for its content (:func:`..graph.term_index.remember`),
so a second rename builds no definition registry.

Scopes expire :data:`TTL` seconds after they were last written, and at most :data:`MAX_FILES`
files are kept (the least recently written go first). ``LEDGER_GRAPH_CACHE`` names another
file, or ``off``; a library caller gets no cache unless it calls :func:`configure`.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import weakref
import zlib
from typing import TYPE_CHECKING, Any, Callable, Sequence, cast

if TYPE_CHECKING:  # importing this module to configure it costs no networkx (``ledger units``)
    import networkx as nx

    from adapters.model import Document

    from .graphs import GraphScope

from .versions import code_version

__all__ = ["TTL", "MAX_FILES", "code_version", "configure", "configure_for_user", "cache", "read_file", "file_key", "file_graph", "kept_or",
           "graph_record", "graph_from_record", "kept", "keep"]

log = logging.getLogger("ledger.graph_cache")

#: Two weeks after its last write a file's scope is gone.
TTL = 14 * 24 * 3600
#: The most files whose document and graph are kept (a 16,000-unit file takes about 2 MB, zipped).
MAX_FILES = 24
_INDEX = "files"  # the scope that lists the kept files: {scope: when last written}
_UNSET: Any = object()
_lock = threading.Lock()
_path: Any = _UNSET
_store: Any = _UNSET
#: id(document) -> (a weak reference to it, its file's scope): what :func:`read_file` read.
_read: dict[int, tuple[weakref.ref, str]] = {}

Progress = Callable[[str, float], None]


def configure(path: str | None) -> None:
    """Keep the command line's documents and graphs in the SQLite file ``path`` from now on
    (``None``: nowhere); the file is opened at the first use, so configuring costs nothing."""
    global _path, _store
    with _lock:
        old = _store
        _path, _store = path, _UNSET
        if old not in (None, _UNSET):
            old.close()


def _env_path(default: str | None) -> str | None:
    env = os.environ.get("LEDGER_GRAPH_CACHE")
    if env is None:
        return default
    return None if env.strip().lower() in ("", "off", "0", "none") else env.strip()


def configure_for_user() -> None:
    """What the command line keeps: ``LEDGER_GRAPH_CACHE`` (a path, or ``off``), else
    ``graphs.sqlite3`` in the user's cache folder."""
    from ..embeddings.encoders import cache_home

    configure(_env_path(os.path.join(cache_home(), "graphs.sqlite3")))


def cache():
    """The store in use, or ``None``: :func:`configure`'s, else ``LEDGER_GRAPH_CACHE`` (a path,
    or ``off``), else none."""
    global _path, _store
    if _store is not _UNSET:
        return _store
    with _lock:
        if _store is _UNSET:
            if _path is _UNSET:
                _path = _env_path(None)
            if _path is None:
                _store = None
            else:
                from ..store.sqlite_store import SqliteStore

                try:
                    _store = SqliteStore(_path, ttl=TTL)
                except Exception as exc:  # an unwritable cache folder: work without one
                    log.warning("graph cache %s unusable: %s", _path, exc)
                    _store = None
    return _store


def file_key(data: bytes) -> str:
    """The scope of a file's bytes: their SHA-256, the code and the RELATED backend."""
    from ..embeddings.encoders import related_backend

    return f"file:{hashlib.sha256(data).hexdigest()}:{code_version()}:{related_backend()}"


def _pack(obj: Any) -> bytes:
    return zlib.compress(json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 1)


def _unpack(raw: bytes) -> Any:
    return json.loads(zlib.decompress(raw))


def _get(store: Any, scope: str, name: str) -> Any | None:
    try:
        raw = store.get(scope, name)
        return None if raw is None else _unpack(raw)
    except Exception as exc:  # a damaged or busy cache is only a cache
        log.warning("graph cache: %s of %s unreadable: %s", name, scope, exc)
        return None


def _put(store: Any, scope: str, items: dict[str, Any]) -> None:
    import time

    try:
        store.put(scope, {name: _pack(value) for name, value in items.items()})
        index: dict[str, float] = _get(store, _INDEX, "index") or {}
        index[scope] = time.time()
        for old in sorted(index, key=lambda s: index[s])[: max(0, len(index) - MAX_FILES)]:
            store.delete(old)
            del index[old]
        store.put(_INDEX, {"index": _pack(index)})
    except Exception as exc:
        log.warning("graph cache: %s not written: %s", scope, exc)


def _remember(doc: Document, scope: str) -> None:
    key = id(doc)

    def forget(_ref: weakref.ref) -> None:
        _read.pop(key, None)

    _read[key] = (weakref.ref(doc, forget), scope)


def _scope_of(doc: Document) -> str | None:
    entry = _read.get(id(doc))
    return entry[1] if entry is not None and entry[0]() is doc else None


def read_file(path: str) -> Document:
    """The neutral model of the file ``path`` (``doc.path`` is ``path``): the one kept for its
    bytes when there is one, else read by the adapters and kept.

    :raise AdapterError: the adapters' errors (missing, too large, not a document, …).
    """
    from adapters import read, read_file_bytes
    from adapters.model import Document

    data = read_file_bytes(path)
    store = cache()
    if store is None:
        return read(data, path=path)
    scope = file_key(data)
    kept = _get(store, scope, "document")
    if kept is not None:
        doc = Document.from_json(kept)
        doc.path = path
    else:
        doc = read(data, path=path)
        _put(store, scope, {"document": doc.to_json(lossless=True)})
    _remember(doc, scope)
    return doc


def kept(doc: Document, name: str) -> Any | None:
    """What :func:`keep` kept under ``name`` for the file :func:`read_file` read as ``doc``
    (what a command needs beside the graph: a context's term index and token counts), else ``None``."""
    store = cache()
    key = _scope_of(doc) if store is not None else None
    return None if key is None else _get(store, key, name)


def keep(doc: Document, name: str, value: Any) -> None:
    """Keep the JSON ``value`` under ``name`` for the file :func:`read_file` read as ``doc``
    (nothing when there is no cache or ``doc`` was not read from a file)."""
    store = cache()
    key = _scope_of(doc) if store is not None else None
    if key is not None:
        _put(store, key, {name: value})


def kept_or(doc: Document, name: str, compute: Callable[[], Any]) -> Any:
    """What :func:`keep` kept under ``name`` for ``doc``'s file, else ``compute()``, kept: a second
    command on an unchanged file answers from what the first computed (``name`` says what else
    decides the answer: the options, the style sheet, the code's version)."""
    value = kept(doc, name)
    if value is None:
        value = compute()
        keep(doc, name, value)
    return value


def _pair_order(G: nx.MultiDiGraph) -> list[tuple[Any, Any]]:
    """The node pairs joined by edges, in an order that adds each node's successors and each
    node's predecessors in the order ``G`` has them. ``G.edges`` lists the pairs by source, so
    adding them in that order would reorder predecessors: a loaded graph's ``in_edges`` (which
    retrieval follows upstream, taking the first DEPENDS evidence between two units) would differ
    from the built graph's. The order in which ``G`` was built satisfies both, so one exists:
    the successor and predecessor chains are merged topologically."""
    from collections import deque

    pairs = [(u, v) for u, nbrs in G.adj.items() for v in nbrs]
    index = {p: i for i, p in enumerate(pairs)}
    after: list[list[int]] = [[] for _ in pairs]
    before = [0] * len(pairs)

    def chain(ids: list[int]) -> None:
        for a, b in zip(ids, ids[1:]):
            after[a].append(b)
            before[b] += 1

    for u, nbrs in G.adj.items():
        chain([index[(u, v)] for v in nbrs])
    for v, preds in G.pred.items():
        chain([index[(u, v)] for u in preds])
    ready = deque(i for i in range(len(pairs)) if before[i] == 0)
    order: list[tuple[Any, Any]] = []
    while ready:
        i = ready.popleft()
        order.append(pairs[i])
        for j in after[i]:
            before[j] -= 1
            if before[j] == 0:
                ready.append(j)
    if len(order) != len(pairs):  # cannot happen for a graph networkx built; keep every edge regardless
        seen = set(order)
        order += [p for p in pairs if p not in seen]
    return order


def graph_record(G: nx.MultiDiGraph) -> dict[str, Any]:
    """A graph as JSON: its attributes, nodes and keyed edges, in an order that
    :func:`graph_from_record` turns into the same successor, predecessor and key orders."""
    return {"graph": G.graph, "nodes": [[n, d] for n, d in G.nodes(data=True)],
            "edges": [[u, v, k, d] for u, v in _pair_order(G) for k, d in G[u][v].items()]}


def graph_from_record(record: dict[str, Any]) -> nx.MultiDiGraph:
    """The graph :func:`graph_record` wrote."""
    from ..graph.stored import networkx_from_record

    return networkx_from_record(record)


def _as_kept(record: dict[str, Any], need: Sequence[str], more: bool) -> bool:
    """Whether the kept graph ``record`` serves as it is: it holds the ``need``-ed stages, and
    no other unless ``more`` lets them stay (else :func:`_only` filters them out)."""
    have = set(record.get("graph", {}).get("stages", ()))
    return set(need) <= have and (more or have <= set(need))


def _only(G: nx.MultiDiGraph, stages: Sequence[str]) -> nx.MultiDiGraph:
    """``G`` with the edges of ``stages`` alone, saying so (a check sees what a fresh build gives)."""
    from ..graph.build import refresh_stats
    from . import graphs
    from .graph_job import EDGE_OF_STAGE

    if set(G.graph.get("stages", ())) <= set(stages):
        return G
    H = graphs.filter_edges(G, [EDGE_OF_STAGE[s] for s in stages])
    H.graph = dict(G.graph)
    H.graph["stages"] = [s for s in G.graph.get("stages", ()) if s in stages]
    H.graph["stats"] = dict(G.graph.get("stats", {}))
    refresh_stats(H)
    return H


def file_graph(doc: Document, scope: GraphScope, *, progress: Progress | None = None,
               more: bool = False, read_only: bool = False) -> nx.MultiDiGraph:
    """The graph of ``doc`` with the stages of ``scope``, for a command on a file.

    When :func:`read_file` read ``doc`` and the cache holds a graph of its bytes, that graph is
    loaded and the stages it lacks are added (and kept); otherwise it is built (and kept). With
    ``more``, stages kept beyond ``scope`` stay in (a context may rank by RELATED edges that
    ``ledger graph`` built); without, the graph holds what a fresh build of ``scope`` gives.
    ``G.graph["stages"]`` says which stages it holds. ``read_only``: the caller only reads the
    graph (a context packs from it), so a kept graph that holds what it needs as it is comes as a
    :class:`~addin_backend.graph.stored.StoredGraph`, which imports no networkx until asked for
    more than a context reads.
    """
    from . import graphs

    need = graphs.stages_of(scope)
    store = cache()
    key = _scope_of(doc) if store is not None else None
    if key is None:
        return graphs.build(doc, scope, progress=progress)
    kept = _get(store, key, "graph")
    if kept is not None and read_only and _as_kept(kept, need, more):
        from ..graph.stored import StoredGraph
        from ..graph.term_index import remember

        if progress is not None:
            for stage in need:
                progress(stage, 1.0)
        view = cast("nx.MultiDiGraph", StoredGraph(kept))  # stands in for one: anything more builds it
        remember(view)
        return view
    G = graph_from_record(kept) if kept is not None else None
    if G is not None and not set(need) <= set(G.graph.get("stages", ())):
        G = graphs.extend(G, doc, scope, progress=progress)
        _put(store, key, {"graph": graph_record(G)})
    elif G is None:
        G = graphs.build(doc, scope, progress=progress)
        _put(store, key, {"graph": graph_record(G)})
    elif progress is not None:
        for stage in need:
            progress(stage, 1.0)
    if kept is not None:  # the defined terms' index it brings is this content's (a rename reads it)
        from ..graph.term_index import remember

        remember(G)
    return G if more else _only(G, need)
