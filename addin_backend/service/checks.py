"""Document-wide findings (``ledger check``, ``GET /documents/{id}/check``): broken references,
numbering gaps and duplicates, acronyms, variant spellings — on the fast graph scope.

The rules are :mod:`addin_backend.checks`; here is which document they run on: a file, an
upload, or one of its applied revisions (read back with its tracked changes accepted).
"""
from __future__ import annotations

from typing import Any

import networkx as nx

from adapters.model import Document

from ..findings import Finding, count_by_severity
from ..store import Store
from . import graphs
from .jsonable import json_safe
from .revisions import revision_bytes

__all__ = ["check", "check_report", "check_stored"]


def _findings(doc: Document, G: nx.MultiDiGraph | None) -> list[Finding]:
    from ..checks import check_document

    return check_document(doc, G if G is not None else graphs.build(doc, "fast"))


def check(doc: Document, G: nx.MultiDiGraph | None = None) -> list[dict[str, Any]]:
    """The findings of ``doc`` as JSON, most severe first; ``G`` defaults to the fast scope."""
    return json_safe([f.to_json() for f in _findings(doc, G)])


def check_report(doc: Document, G: nx.MultiDiGraph | None = None) -> dict[str, Any]:
    """``ledger check --json``: ``{path, units, counts, findings}``."""
    findings = _findings(doc, G)
    return json_safe({"path": doc.path, "units": len(doc.units), "counts": count_by_severity(findings),
                      "findings": [f.to_json() for f in findings]})


def check_stored(store: Store, doc_id: str, revision: int | None = None) -> dict[str, Any]:
    """``{document, revision, findings}`` of an upload, or of one of its applied revisions.

    :raise UnknownDocumentError, UnknownRevisionError: nothing to check.
    """
    from .. import documents

    if revision is None:
        doc = documents.load(store, doc_id)
    else:
        from adapters import read

        doc = read(revision_bytes(store, doc_id, revision))
    return {"document": doc_id, "revision": revision, "findings": check(doc)}
