"""Finding and reading units of a long document a page at a time (``ledger mcp``: ``find``,
``read_units``, ``open_document``'s outline summary).

An agent never gets a 100K-token document in one answer: :func:`read_units` pages by units
and by tokens, :func:`find` names the units a query means (a label such as "Section 4.2", a
defined term, or plain text), and :func:`outline_summary` gives the top of the outline.
"""
from __future__ import annotations

import re
from typing import Any, Sequence

import networkx as nx

from adapters.model import Document, Unit

from ..store import documents
from ..errors import InvalidRequestError, UnknownUnitError
from .jsonable import json_safe

__all__ = ["MAX_PAGE_UNITS", "MAX_PAGE_TOKENS", "find", "read_units", "outline_summary", "document_tokens"]

#: The most units, and about the most tokens of text, one page of :func:`read_units` holds.
MAX_PAGE_UNITS = 200
MAX_PAGE_TOKENS = 8000
_SNIPPET = 160


def _snippet(text: str, start: int | None = None) -> str:
    """Up to :data:`_SNIPPET` characters of ``text`` (on one line), around ``start`` when given.

    >>> _snippet("short"), len(_snippet("a" * 300)), _snippet("a" * 300, 200)[:3]
    ('short', 161, '…aa')
    """
    flat = text.replace("\n", " ")
    if len(flat) <= _SNIPPET:
        return flat
    lo = 0 if start is None else max(0, min(start - _SNIPPET // 3, len(flat) - _SNIPPET))
    hi = lo + _SNIPPET
    return ("…" if lo else "") + flat[lo:hi] + ("…" if hi < len(flat) else "")


def _match(u: Unit, how: str, evidence: str, start: int | None = None, end: int | None = None) -> dict[str, Any]:
    return {"id": u.id, "kind": u.kind, "label": u.label, "how": how, "evidence": evidence,
            "start": start, "end": end, "text": _snippet(u.text, start)}


def find(doc: Document, G: nx.MultiDiGraph | None, query: str, *, limit: int = 20) -> dict[str, Any]:
    """The units ``query`` names, best first: by label ("Section 4.2", "Table 3"), by the defined
    term it uses (the defining unit), then every unit whose text contains it (case-insensitive).

    Returns ``{query, total, matches: [{id, kind, label, how, evidence, start, end, text}]}``;
    ``how`` is ``label``, ``term`` or ``text``; ``total`` counts every match, ``matches`` holds
    the first ``limit``.

    :raise InvalidRequestError: an empty query or a limit below 1.
    """
    from ..retrieval.targets import match_labels
    from ..retrieval.terms import terms_in

    if not query or not query.strip():
        raise InvalidRequestError("give a query: a label (Section 4.2), a defined term or text", field="query")
    if limit < 1:
        raise InvalidRequestError("limit must be at least 1", field="limit")
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for c in match_labels(doc, query):
        if c.id not in seen:
            seen.add(c.id)
            out.append(_match(doc.unit(c.id), "label", c.evidence))
    for h in terms_in(doc, G, query):
        if h.unit not in seen and doc.get(h.unit) is not None:
            seen.add(h.unit)
            out.append(_match(doc.unit(h.unit), "term", h.term))
    needle = re.compile(r"\s+".join(map(re.escape, query.split())), re.IGNORECASE)
    for u in doc.units:
        m = needle.search(u.text) if u.id not in seen else None
        if m is not None:
            seen.add(u.id)
            out.append(_match(u, "text", m.group(0), m.start(), m.end()))
    return json_safe({"query": query, "total": len(out), "matches": out[:limit]})


def document_tokens(doc: Document) -> int:
    """The document's size in cl100k tokens (its units' texts)."""
    from ..retrieval.tokens import count_tokens

    return sum(count_tokens(u.text) for u in doc.units)


def read_units(doc: Document, *, ids: Sequence[str] | None = None, offset: int = 0, limit: int = 50,
               max_tokens: int = MAX_PAGE_TOKENS) -> dict[str, Any]:
    """A page of units as the public unit JSON (with ``tokens``): the units ``ids`` in that order,
    else ``limit`` units in document order from ``offset``. A page stops early once its texts
    reach ``max_tokens`` (it always holds at least one unit); ``next_offset`` is where the next
    page starts (``None`` at the end), so a whole document is read page by page.

    :raise UnknownUnitError: an id the document does not have.
    :raise InvalidRequestError: a bound out of range.
    """
    from ..retrieval.tokens import count_tokens

    if not 1 <= limit <= MAX_PAGE_UNITS:
        raise InvalidRequestError(f"limit must lie between 1 and {MAX_PAGE_UNITS}", field="limit")
    if not 1 <= max_tokens <= 4 * MAX_PAGE_TOKENS:
        raise InvalidRequestError(f"max_tokens must lie between 1 and {4 * MAX_PAGE_TOKENS}", field="max_tokens")
    if offset < 0:
        raise InvalidRequestError("offset must be at least 0", field="offset")
    if ids:
        missing = [i for i in ids if doc.get(i) is None]
        if missing:
            raise UnknownUnitError(f"the document has no unit {missing[0]!r}", unit=missing[0])
        pool = [doc.unit(i) for i in ids]
        offset = min(offset, len(pool))
    else:
        pool = doc.units
    page: list[dict[str, Any]] = []
    used = 0
    at = offset
    while at < len(pool) and len(page) < limit:
        u = pool[at]
        n = count_tokens(u.text)
        if page and used + n > max_tokens:
            break
        page.append({**u.to_json(), "tokens": n})
        used += n
        at += 1
    return json_safe({"total": len(pool), "offset": offset, "next_offset": at if at < len(pool) else None,
                      "tokens": used, "units": page})


def outline_summary(doc: Document, *, depth: int = 2, limit: int = 80) -> dict[str, Any]:
    """The top of the outline for a first look: nodes down to ``depth`` levels, at most
    ``limit`` of them, as ``{headings, shown, items: [{id, kind, label, title, level, depth}]}``
    (``headings`` counts every node of :func:`documents.outline`)."""
    items: list[dict[str, Any]] = []
    total = 0

    def walk(nodes: list[dict[str, Any]], d: int) -> None:
        nonlocal total
        for n in nodes:
            total += 1
            if d <= depth and len(items) < limit:
                items.append({"id": n["id"], "kind": n["kind"], "label": n["label"], "title": n["title"],
                              "level": n["level"], "depth": d})
            walk(n["children"], d + 1)

    walk(documents.outline(doc), 1)
    return {"headings": total, "shown": len(items), "items": items}
