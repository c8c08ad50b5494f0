"""Document-wide findings (``ledger check``, ``GET /documents/{id}/check``): broken references,
numbering gaps and duplicates, abbreviations, variant spellings and the house-style checks
(with a style sheet: :mod:`.styles`) — on the fast graph scope. Fixing them: :mod:`.fixes`.

The rules are :mod:`addin_backend.checks.document`; here is which document they run on: a file, an
upload, or one of its applied revisions (read back with its tracked changes accepted).

A stored document's check is kept in its scope (:func:`check_stored`), keyed on what decides
it: the revision, the style sheet (its rules and their lines), the findings cap and the code
that made it; an upload and its revisions never change, so a second request reads it back
instead of checking again (a 60 MB-text document took 73 s and 2.4 GB each time). At most
``max_findings`` findings are answered, the most severe first; past that the answer says
``truncated`` with the total.

A check that is not kept reads what the upload's graph job stored: the model and the stored
graph, parsed once for every request working on the upload now (:mod:`.shared_parse`), instead
of loading the model again and building the fast graph (at 5,400 units the stored graph parses
in about 0.06 CPU s, the fast scope builds in 0.16-0.31 s). What the check reads from the graph
is its broken references (``G.graph["broken_references"]``), which the REFERENCES stage records:
the first graph the job stores (the fast scope) holds them, and every later one. The defined
terms the capitalisation and hyphenation checks read come from the model (the definition
registry), not from the graph. A revision has no stored graph, nor has an upload whose job has
not stored one yet (a Run check as the upload answers: the job gives way while it is served):
the fast scope is built then.

The upload's graph job keeps the default check (no style sheet named: the server's
``LEDGER_STYLE``, :data:`DEFAULT_MAX_FINDINGS`) as soon as the references are built and before
the semantic stage (:func:`keep_first_check`), so that the pane's Run check reads it back
instead of checking then; a request that comes first computes it, and the job finds it kept.
"""
from __future__ import annotations

import hashlib
import json
import threading
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Callable, Iterator

import networkx as nx

from adapters.model import Document

from ..findings import Finding, count_by_severity
from ..store import Store, dumps
from ..checks.style.sheet import StyleSheet
from . import graphs, quota
from ..foreground import serving
from .jsonable import json_safe
from .revisions import revision_bytes
from .shared_parse import stored_document, stored_graph
from .versions import code_version

__all__ = ["check", "check_report", "check_stored", "check_key", "keep_first_check", "stored_source", "DEFAULT_MAX_FINDINGS"]

#: Findings a stored document's check answers at most (``LEDGER_MAX_FINDINGS``).
DEFAULT_MAX_FINDINGS = 5_000
_computing: dict[str, threading.Lock] = {}  # one check of one key at a time in this process
_computing_lock = threading.Lock()


def _findings(doc: Document, G: nx.MultiDiGraph | None, style: StyleSheet | None = None) -> list[Finding]:
    from ..checks.document import check_document

    return check_document(doc, G if G is not None else graphs.build(doc, "fast"), style=style)


def check(doc: Document, G: nx.MultiDiGraph | None = None, style: StyleSheet | None = None) -> list[dict[str, Any]]:
    """The findings of ``doc`` as JSON, most severe first; ``G`` defaults to the fast scope."""
    return json_safe([f.to_json() for f in _findings(doc, G, style)])


def check_report(doc: Document, G: nx.MultiDiGraph | None = None, style: StyleSheet | None = None) -> dict[str, Any]:
    """``ledger check --json``: ``{path, units, counts, findings}`` (and ``style``, the sheet's name)."""
    findings = _findings(doc, G, style)
    out = {"path": doc.path, "units": len(doc.units), "counts": count_by_severity(findings),
           "findings": [f.to_json() for f in findings]}
    if style is not None:
        out["style"] = style.name
    return json_safe(out)


def check_key(revision: int | None, sheet: StyleSheet | None, max_findings: int) -> str:
    """The store name a check is kept under: what decides its findings.

    >>> a = check_key(None, None, 10); a.startswith("check:0:") and a == check_key(None, None, 10)
    True
    >>> len({a, check_key(2, None, 10), check_key(None, StyleSheet(name="x.toml"), 10), check_key(None, None, 9)})
    4
    """
    style = None if sheet is None else sheet.to_json()
    basis = json.dumps({"style": style, "max": max_findings, "code": code_version()}, sort_keys=True)
    return f"check:{revision or 0}:{hashlib.sha256(basis.encode()).hexdigest()[:24]}"


#: What a check runs on: the model and a graph with the references (``None``: the fast scope is built).
Source = Callable[[], AbstractContextManager[tuple[Document, nx.MultiDiGraph | None]]]


@contextmanager
def stored_source(store: Store, doc_id: str) -> Iterator[tuple[Document, nx.MultiDiGraph | None]]:
    """The upload's model and its stored graph, shared with the other requests working on the
    upload now (:mod:`.shared_parse`); the graph only once it holds the stages a check reads
    (:data:`.graphs.NEEDS`: the references), else ``None``.

    :raise UnknownDocumentError: the upload is gone.
    """
    need = graphs.stages_of(graphs.NEEDS["check"])
    with stored_document(store, doc_id) as (_data, doc), stored_graph(store, doc_id) as G:
        yield doc, G if G is not None and graphs.has_stages(G, need) else None


def _kept(store: Store, doc_id: str, key: str, source: Source, sheet: StyleSheet | None, max_findings: int,
          account: quota.Account | None = None) -> dict[str, Any]:
    """The check kept under ``key``, computed on what ``source()`` holds and kept when it is not
    there, capped and counted in ``account``'s quota before it is written (:func:`.quota.keep`);
    one computation of a key at a time in this process (a second caller waits, then reads it).

    :raise QuotaExceededError: the findings would pass the cap or the quota: nothing is kept."""
    with _computing_lock:
        lock = _computing.setdefault(f"{doc_id}/{key}", threading.Lock())
    try:
        with lock:
            kept = store.get_json(doc_id, key)
            if kept is None:
                with source() as (doc, G):
                    found = check(doc, G, style=sheet)
                kept = {"findings": found[:max_findings], "total": len(found)}
                # the document may be gone: then nothing
                quota.keep(store, doc_id, {key: dumps(kept)}, account=account, what="this check's findings")
    finally:
        with _computing_lock:
            _computing.pop(f"{doc_id}/{key}", None)
    return kept


def keep_first_check(store: Store, doc_id: str, doc: Document, G: nx.MultiDiGraph) -> bool:
    """Keep the check a Run check without a style sheet asks for (the server's ``LEDGER_STYLE``,
    :data:`DEFAULT_MAX_FINDINGS`) of the upload ``doc``, on ``G`` (a graph with the references
    built: the check reads its broken references only); ``False`` when it was kept already.

    :raise StyleSheetError: ``LEDGER_STYLE`` names a bad sheet.
    """
    from .styles import resolve_style

    sheet = resolve_style(store, None)
    key = check_key(None, sheet, DEFAULT_MAX_FINDINGS)
    if store.get_json(doc_id, key) is not None:
        return False
    _kept(store, doc_id, key, lambda: nullcontext((doc, G)), sheet, DEFAULT_MAX_FINDINGS)
    return True


def check_stored(store: Store, doc_id: str, revision: int | None = None, style: str | None = None, *,
                 max_findings: int = DEFAULT_MAX_FINDINGS, owner: str = "",
                 account: quota.Account | None = None) -> dict[str, Any]:
    """``{document, revision, findings}`` of an upload, or of one of its applied revisions, with
    the style sheet ``style`` (the name ``owner`` uploaded it under; ``None``: the server's ``LEDGER_STYLE``);
    kept in the document's scope, so asking again reads it back. Over ``max_findings`` the most
    severe are answered, with ``truncated: {total, limit, message}``. What is kept counts in
    ``account``'s quota.

    :raise UnknownDocumentError, UnknownRevisionError: nothing to check.
    :raise QuotaExceededError: the findings to keep would pass the quota (507 ``quota_exceeded``).
    :raise InvalidRequestError, UnknownStyleError, StyleSheetError: a bad or unknown style sheet.
    """
    from .styles import resolve_style

    sheet = resolve_style(store, style, owner)
    from ..store import documents

    documents.get_meta(store, doc_id)  # an unknown document is unknown_document

    def source() -> AbstractContextManager[tuple[Document, nx.MultiDiGraph | None]]:
        if revision is None:
            return stored_source(store, doc_id)
        from adapters import read

        return nullcontext((read(revision_bytes(store, doc_id, revision)), None))

    with serving():  # the background semantic stage gives way while this is computed
        kept = _kept(store, doc_id, check_key(revision, sheet, max_findings), source, sheet, max_findings, account)
    out: dict[str, Any] = {"document": doc_id, "revision": revision, "findings": kept["findings"]}
    if sheet is not None:
        out["style"] = sheet.name
    if kept["total"] > len(kept["findings"]):
        out["truncated"] = {"total": kept["total"], "limit": max_findings,
                            "message": f"the check found {kept['total']:,} findings; the {max_findings:,} most severe "
                                       f"are listed (max_findings, LEDGER_MAX_FINDINGS)"}
    return out
