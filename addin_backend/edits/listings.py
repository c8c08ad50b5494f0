"""Propagation into the tables that list identifiers (a conformance table, a requirements matrix).

When an edit changes, moves, deletes or adds a statement that carries an identifier
(:mod:`addin_backend.graph.listings`), the editors update the row that lists it; so does this:

- a listed identifier whose statement now reads otherwise (rewritten, or the identifier given to
  another statement): the row's text cell gets a ``replace`` with the statement's new sentence,
  where the row repeated its statement before (or the identifier is new to its statement);
- a listed identifier that no statement carries any more: the row is reported
  (``listed_statement_removed``, with the table and the row's identifier) for the reviewer to
  delete; no operation of the model deletes a table row;
- a new identifier of a series that a table lists (same shape: ``[X-#.#-#]``) and that no row
  lists: reported (``statement_not_listed``), with the row it would follow.
"""
from __future__ import annotations

import difflib
import re
from typing import Any

from adapters.model import Document, Edit, Unit

from ..findings import Finding
from ..graph.listings import Listing, carriers, identifier_shape, identifier_tokens, listed_identifiers, statement_sentence

__all__ = ["propagate_listings"]

#: How close a row's text must be to its statement's sentence to be a copy of it.
_COPY = 0.6


def _norm(text: str) -> str:
    return " ".join(text.split()).rstrip(" .")


def cell_span(table: Unit, row: int, cell: int) -> tuple[int, int] | None:
    """Where cell ``(row, cell)`` of ``meta["cells"]`` is in the table's text: the cells' texts
    follow each other in the text, row by row."""
    pos = 0
    for r, cells in enumerate(table.meta.get("cells") or ()):
        for c, text in enumerate(cells):
            if not text:
                continue
            at = table.text.find(text, pos)
            if at < 0:
                return None
            if (r, c) == (row, cell):
                return at, at + len(text)
            pos = at + len(text)
    return None


def _label(doc: Document, uid: str) -> str:
    u = doc.get(uid)
    return (u.label or "the table") if u is not None else "the table"


def _sources(doc: Document, after: Document, edits: list[Edit], ids: list[str]) -> dict[str, str]:
    """Unit id (before, or inserted after) -> the id of the edit that changed or made it."""
    out: dict[str, str] = {}
    inserted = [u for u in after.units if u.meta.get("edit") == "inserted"]
    for e, eid in zip(edits, ids):
        if e.op == "insert_after":
            for u in inserted:
                if u.text == e.text and u.id not in out:
                    out[u.id] = eid
                    break
        elif e.unit:
            out.setdefault(e.unit, eid)
    return out


def _row_after(listings: list[tuple[str, Listing]], token: str) -> tuple[str, Listing] | None:
    """The listed token of the series that ``token`` would follow (natural order), if any."""
    def key(t: str) -> tuple:
        return tuple(int(x) if x.isdigit() else x for x in re.split(r"(\d+)", t))

    before = [(t, row) for t, row in listings if key(t) < key(token)]
    return max(before, key=lambda p: key(p[0])) if before else None


def propagate_listings(plan: Any, doc: Document, after: Document, edits: list[Edit], ids: list[str]) -> None:
    """Add to ``plan`` (propagate's plan: ``replace``, ``findings``, ``blocked``) what the edits
    make necessary in the rows that list their statements' identifiers."""
    listed = listed_identifiers(doc)
    if not listed:
        return
    source_of = _sources(doc, after, edits, ids)
    if not source_of:
        return
    alive = {u.id for u in after.units}
    own_b, own_a = carriers(doc.units), carriers(after.units)
    tokens: dict[str, str] = {}  # token -> the edit it comes from
    for uid, eid in source_of.items():
        for d in (doc, after):
            u = d.get(uid)
            if u is not None:
                for token, _a, _b in identifier_tokens(u):
                    tokens.setdefault(token, eid)
    series: dict[str, list[tuple[str, Listing]]] = {}
    for token, rows in listed.items():
        for row in rows:
            series.setdefault(identifier_shape(token), []).append((token, row))
    for token, eid in sorted(tokens.items()):
        b, a = own_b.get(token, []), own_a.get(token, [])
        if len(b) > 1 or len(a) > 1:
            continue  # cited by several units: no statement of its own
        for row in listed.get(token, []):
            if row.table not in alive or row.table in plan.blocked:
                continue
            _update_row(plan, doc, after, token, row, b, a, eid)
        if a and not b and token not in listed:
            near = _row_after(series.get(identifier_shape(token), []), token)
            if near is not None and near[1].table in alive:
                sib, row = near
                plan.findings.append(Finding(
                    "statement_not_listed", "warning", row.table,
                    f"{token} (added by the edit) is not listed in {_label(doc, row.table)}, which lists the "
                    f"statements of its series; add a row after {sib}",
                    sib, [a[0]],
                ))


def _update_row(plan: Any, doc: Document, after: Document, token: str, row: Listing, b: list[str], a: list[str],
                eid: str) -> None:
    table = doc.unit(row.table)
    where = _label(doc, row.table)
    if not a:
        plan.findings.append(Finding(
            "listed_statement_removed", "warning", table.id,
            f"{where} lists {token}, whose statement the edit removes; delete its row (or give the identifier "
            f"back to a statement)",
            token, list(b), *(cell_span(table, row.row, row.cell) or (None, None)),
        ))
        return
    text_cell = row.text_cell()
    new = statement_sentence(after.unit(a[0]).text, token)
    if text_cell is None or not new:
        return
    shown = row.cells[text_cell]
    if _norm(shown) == _norm(new):
        return
    old = statement_sentence(doc.unit(b[0]).text, token) if b else None
    if b == a and old is not None and difflib.SequenceMatcher(None, _norm(shown), _norm(old)).ratio() < _COPY:
        return  # the row never repeated this statement's sentence: nothing says it should now
    span = cell_span(table, row.row, text_cell)
    if span is None or "\n" in table.text[span[0] : span[1]]:
        plan.findings.append(Finding(
            "propagation_skipped", "warning", table.id,
            f"could not restate {token}'s statement in {where} (its cell holds several paragraphs)",
            token, list(a),
        ))
        return
    plan.replace(table, span[0], span[1], new,
                 f"REFERENCES (listing): {where} lists {token}, whose statement now reads so", eid)
