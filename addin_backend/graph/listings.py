"""Identifiers listed elsewhere: a statement's own identifier that a table repeats.

A specification labels its normative statements ("... MUST use the Protection Encapsulation
[MQTT-SN-3.17-2].") and lists them again in an appendix table (identifier in one cell, the
statement's sentence in another); a requirements matrix and a conformance clause do the same.
The document says so itself, whoever wrote it: a token that stands alone in a table cell, that
is bracketed or written as code, and that exactly one unit of the text carries is that unit's
identifier, and the table row lists it. Nothing here knows "MQTT-SN".

:func:`listed_identifiers` finds them; :func:`add_listing_edges` adds a REFERENCES edge from the
listing table to the statement (origin ``listing``, evidence "lists [X-1]"), so that retrieval
and propagation see the table when the statement changes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

import networkx as nx

from adapters.model import Document, Unit
from adapters.vocabulary import OUTSIDE_FLOW_KINDS

from .edges import REFERENCES, add_edge

__all__ = ["Listing", "add_listing_edges", "carriers", "identifier_shape", "identifier_tokens", "listed_identifiers",
           "statement_sentence"]

#: A bracketed token with a digit and no space: "[MQTT-SN-3.17-2]", "[REQ-12]", "[RFC2119]".
_BRACKETED = re.compile(r"\[[^\[\]\s]*\d[^\[\]\s]*\]")
#: A token written as code that reads as an identifier: letters or digits joined by - _ . : /
_CODE_ID = re.compile(r"[A-Za-z][\w]*(?:[-_.:/][\w]+)+|[A-Z]{2,}\d[\w]*")
_DIGITS = re.compile(r"\d+")
#: Where a sentence ends (the listed text of an identifier is its sentence).
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


@dataclass(frozen=True)
class Listing:
    """One table row that lists an identifier: the table's unit, the row and cell of the
    identifier in ``meta["cells"]``, and the row's cells."""

    table: str
    row: int
    cell: int
    cells: tuple[str, ...]

    def text_cell(self) -> int | None:
        """The cell that holds the listed statement's text: the row's longest other cell."""
        others = [(len(c.strip()), i) for i, c in enumerate(self.cells) if i != self.cell and c.strip()]
        return max(others)[1] if others else None


def identifier_tokens(unit: Unit) -> list[tuple[str, int, int]]:
    """The identifier-shaped tokens of a unit: bracketed tokens with a digit, and code spans
    (``meta["code"]``) that read as one identifier; ``(token, start, end)`` in text order."""
    out = [(m.group(), m.start(), m.end()) for m in _BRACKETED.finditer(unit.text)]
    for span in unit.meta.get("code") or ():
        a, b = int(span[0]), int(span[1])
        token = unit.text[a:b].strip()
        if token and _CODE_ID.fullmatch(token):
            at = unit.text.index(token, a)
            out.append((token, at, at + len(token)))
    return sorted(set(out), key=lambda t: t[1])


def identifier_shape(token: str) -> str:
    """A token with its numbers written ``#``: the identifiers of one series share it.

    >>> identifier_shape("[MQTT-SN-3.17-2]"), identifier_shape("[REQ-12]")
    ('[MQTT-SN-#.#-#]', '[REQ-#]')
    """
    return _DIGITS.sub("#", token)


def _shaped(text: str) -> bool:
    """Whether a cell's whole text is one identifier-shaped token."""
    return bool(_BRACKETED.fullmatch(text) or (_CODE_ID.fullmatch(text) and any(ch.isdigit() for ch in text)))


def carriers(units: Iterable[Unit]) -> dict[str, list[str]]:
    """Identifier token -> the units of the text (no table, note, header or footer) carrying it."""
    out: dict[str, list[str]] = {}
    for u in units:
        if u.kind == "table" or u.kind in OUTSIDE_FLOW_KINDS:
            continue
        for token, _a, _b in identifier_tokens(u):
            ids = out.setdefault(token, [])
            if u.id not in ids:
                ids.append(u.id)
    return out


def listed_identifiers(doc: Document) -> dict[str, list[Listing]]:
    """Identifier token -> the table rows that list it.

    A row lists a token when one of its cells is that token alone and the table lists at least
    two tokens so; only tokens that the text carries somewhere count (a table of codes of its
    own, with no statement carrying them, lists nothing this module cares for).
    """
    carried = carriers(doc.units)
    out: dict[str, list[Listing]] = {}
    for u in doc.units:
        cells = u.meta.get("cells") if u.kind == "table" else None
        if not cells:
            continue
        rows: list[tuple[str, Listing]] = []
        for r, row in enumerate(cells):
            for c, cell in enumerate(row):
                token = (cell or "").strip()
                if token in carried and _shaped(token):
                    rows.append((token, Listing(u.id, r, c, tuple(row))))
                    break
        if len(rows) >= 2:
            for token, listing in rows:
                out.setdefault(token, []).append(listing)
    return out


def statement_sentence(text: str, token: str) -> str | None:
    """The sentence of ``text`` that carries ``token``, without the token: the text a listing
    repeats ("... MUST use the Protection Encapsulation [X-2]." -> "... MUST use the Protection
    Encapsulation.").

    >>> statement_sentence("Intro. A Client MUST retry [X-2]. Done.", "[X-2]")
    'A Client MUST retry.'
    """
    at = text.find(token)
    if at < 0:
        return None
    start = 0
    for m in _SENTENCE_END.finditer(text, 0, at):
        start = m.end()
    end_m = _SENTENCE_END.search(text, at + len(token))
    end = end_m.start() if end_m else len(text)
    sentence = (text[start:at].rstrip() + text[at + len(token) : end]).strip()
    return re.sub(r"\s+([.,;:])", r"\1", sentence)


def add_listing_edges(G: nx.MultiDiGraph, doc: Document, units: Iterable[Unit] | None = None) -> int:
    """A REFERENCES edge from each table that lists a statement's identifier to the statement
    (only tables among ``units``, default all); returns how many were added."""
    wanted = None if units is None else {u.id for u in units}
    if wanted is not None and not wanted:
        return 0
    carried = carriers(doc.units)
    added = 0
    for token, listings in listed_identifiers(doc).items():
        owners = carried.get(token, [])
        if len(owners) != 1:
            continue  # cited by several units: no statement of its own
        for listing in listings:
            if (wanted is None or listing.table in wanted) and listing.table in G and owners[0] in G:
                add_edge(G, listing.table, owners[0], REFERENCES, f"lists {token}", 1.0, origin="listing")
                added += 1
    return added
