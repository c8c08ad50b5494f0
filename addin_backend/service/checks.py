"""Document-wide findings (``ledger check``, ``GET /documents/{id}/check``): broken references,
numbering gaps and duplicates, abbreviations, variant spellings and the house-style checks
(with a style sheet: :mod:`.styles`) — on the fast graph scope. Fixing them: :mod:`.fixes`.

The rules are :mod:`addin_backend.checks`; here is which document they run on: a file, an
upload, or one of its applied revisions (read back with its tracked changes accepted).
"""
from __future__ import annotations

from typing import Any

import networkx as nx

from adapters.model import Document

from ..findings import Finding, count_by_severity
from ..store import Store
from ..style.sheet import StyleSheet
from . import graphs
from .jsonable import json_safe
from .revisions import revision_bytes

__all__ = ["check", "check_report", "check_stored"]


def _findings(doc: Document, G: nx.MultiDiGraph | None, style: StyleSheet | None = None) -> list[Finding]:
    from ..checks import check_document

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


def check_stored(store: Store, doc_id: str, revision: int | None = None, style: str | None = None) -> dict[str, Any]:
    """``{document, revision, findings}`` of an upload, or of one of its applied revisions, with
    the style sheet ``style`` (an uploaded one's name; ``None``: the server's ``LEDGER_STYLE``).

    :raise UnknownDocumentError, UnknownRevisionError: nothing to check.
    :raise InvalidRequestError, StyleSheetError: no such style sheet, or a bad one.
    """
    from .styles import resolve_style

    sheet = resolve_style(store, style)
    from .. import documents

    if revision is None:
        doc = documents.load(store, doc_id)
    else:
        from adapters import read

        doc = read(revision_bytes(store, doc_id, revision))
    out = {"document": doc_id, "revision": revision, "findings": check(doc, style=sheet)}
    if sheet is not None:
        out["style"] = sheet.name
    return out
