"""One parse of a stored document for every request that works on it at the same time (issue 33).

Four concurrent applies of a 4 MB document each read the stored upload, parsed its model and
its graph on their own, and the worker peaked at 1.1 GB. :func:`stored_document` and
:func:`stored_graph` hand every request working on the same stored content the same objects:
the first to ask reads and parses (single flight: the others wait for it instead of parsing
too), the last to finish releases them, and nothing is kept once no request uses it (this is no
cache: a document no one is working on holds no memory).

An entry is keyed by the document and a digest of what was read (the upload's SHA-256, the
graph's bytes), so a graph stored anew meanwhile (the fast scope, then the complete graph) is a
new entry, never a stale one.

What is shared is read-only. The graph is frozen (networkx raises on any change to it). The
model is never changed in place on the apply path: :func:`..edits.operations.apply_to_document`
copies before it edits (:meth:`adapters.model.Document.copy`), the writers patch the original
bytes into a new package, and verification reads. The package's XML tree, which a writer does
change, is parsed by each write from the shared bytes (that part is copy-on-write by nature).
"""
from __future__ import annotations

import hashlib
import threading
from contextlib import contextmanager
from typing import Any, Callable, Hashable, Iterator, TypeVar

import networkx as nx

from adapters.model import Document

from ..budget import check as check_budget
from ..store import Store, documents
from .graphs import parse_graph

__all__ = ["shared", "stored_document", "stored_graph", "in_use"]

T = TypeVar("T")

#: How often a request waiting for another's parse checks its own deadline (seconds).
_WAIT_STEP = 0.25


class _Entry:
    """One parse in flight or in use: its value once built, and how many requests hold it."""

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.value: Any = None
        self.failed = False
        self.users = 1


_lock = threading.Lock()
_entries: dict[Hashable, _Entry] = {}


def in_use() -> tuple[int, int]:
    """``(parses, holders)``: how many parses are held or being built now, and how many requests
    hold or wait for them (``(0, 0)`` when none works on a document: nothing is kept)."""
    with _lock:
        return len(_entries), sum(e.users for e in _entries.values())


def _release(key: Hashable, entry: _Entry) -> None:
    with _lock:
        entry.users -= 1
        if entry.users <= 0 and _entries.get(key) is entry:
            del _entries[key]


@contextmanager
def shared(key: Hashable, build: Callable[[], T]) -> Iterator[T]:
    """``build()``'s value, built once for all the blocks that hold ``key`` at the same time.

    A block that finds the value being built waits for it (checking its own deadline,
    :func:`addin_backend.budget.check`); when the build fails (the builder's own deadline, a
    document deleted meanwhile) each waiter tries once more itself, so one request's error is
    never another's. The value is dropped when the last block holding it ends.
    """
    while True:
        with _lock:
            entry = _entries.get(key)
            mine = entry is None
            if entry is None:
                entry = _entries[key] = _Entry()
            else:
                entry.users += 1
        if mine:
            try:
                entry.value = build()
            except BaseException:
                with _lock:
                    entry.failed = True
                    if _entries.get(key) is entry:
                        del _entries[key]
                entry.ready.set()
                raise
            entry.ready.set()
            break
        try:
            while not entry.ready.wait(_WAIT_STEP):
                check_budget()
        except BaseException:
            _release(key, entry)
            raise
        if not entry.failed:
            break
    try:
        yield entry.value
    finally:
        _release(key, entry)


@contextmanager
def stored_document(store: Store, doc_id: str) -> Iterator[tuple[bytes, Document]]:
    """The upload's bytes, exactly as stored, and its model, shared by the requests that use them
    now (read-only: see the module docstring).

    :raise UnknownDocumentError: never uploaded, deleted or expired.
    """
    meta = documents.get_meta(store, doc_id)

    def build() -> tuple[bytes, Document]:
        data, _meta = documents.original(store, doc_id)
        return data, documents.load(store, doc_id)

    with shared(("document", doc_id, meta["sha256"]), build) as value:
        yield value


@contextmanager
def stored_graph(store: Store, doc_id: str) -> Iterator[nx.MultiDiGraph | None]:
    """The document's stored graph, frozen, shared by the requests that use it now; ``None``
    while none is stored (as :func:`.graph_job.load_graph`)."""
    raw = store.get(doc_id, "graph")
    if raw is None:
        yield None
        return
    box = [raw]
    del raw

    def build() -> nx.MultiDiGraph:
        return nx.freeze(parse_graph(box[0]))

    key = ("graph", doc_id, hashlib.blake2b(box[0], digest_size=16).hexdigest())
    with shared(key, build) as G:
        box.clear()  # the bytes are not held while the work runs
        yield G
