"""The graph's stages are linear in the document whatever it defines (issue 24), and stop at the
job's deadline.

A crafted document of many terms sharing their longest word ("Widget Alpha0" ... "Widget
Alpha599"), used all over, made every unit that says "alpha" search for every term: terms x
units regex searches (381,747 for 1,050 units; 427 s of graph time for a 317 KB upload). The
searches are now bounded per unit and per document, the earliest-defined terms kept.
"""
from __future__ import annotations

import random
import time

import pytest

from adapters.model import Document, Unit
from addin_backend.budget import budget
from addin_backend.errors import DeadlineExceededError
from addin_backend.graph import definitions
from addin_backend.graph.build import NO_RELATED, build_graph


def crafted(sections: int, terms: int, uses: int) -> Document:
    units, order = [], 0
    for s in range(sections):
        units.append(Unit(f"s{s}", "section", f"Part {s + 1}", order, label=f"Section {s + 1}", number=str(s + 1),
                          title=f"Part {s + 1}", level=1))
        order += 1
    names = [f"Widget Alpha{k}" for k in range(terms)]
    for k, t in enumerate(names):
        units.append(Unit(f"d{k}", "paragraph", f'"{t}" means the {names[k - 1]} of the {names[k - 2]} as set out in '
                          f"Section {k % sections + 1}.", order, parent=f"s{k % sections}"))
        order += 1
    rnd = random.Random(1)
    for r in range(uses):
        picks = " and ".join(rnd.choice(names) for _ in range(10))
        units.append(Unit(f"r{r}", "paragraph", f"The {picks} shall follow Section {rnd.randrange(sections) + 1}.",
                          order, parent=f"s{r % sections}"))
        order += 1
    return Document("docx", units)


def test_term_searches_are_bounded_by_the_units_not_terms_times_units(monkeypatch):
    doc = crafted(20, 600, 600)
    searches = [0]
    real = definitions._uses_in

    def counted(text, d, english):
        searches[0] += 1
        return real(text, d, english)

    monkeypatch.setattr(definitions, "_uses_in", counted)
    G = build_graph(doc, stages=NO_RELATED)
    n = len(doc.units)
    assert searches[0] <= definitions.SEARCHES_PER_UNIT * n + definitions.SEARCH_FLOOR, searches[0]
    # before: every unit searched for every term it might hold (600 x 1,200 = 720,000)
    assert searches[0] < 600 * n / 10
    # the earliest definitions are still found and linked from their uses
    depends = [(u, v) for u, v, k in G.edges(keys=True) if k == "DEPENDS"]
    assert any(v == "d0" for _, v in depends) and any(v == "d1" for _, v in depends)


def test_a_graph_build_stops_at_its_deadline():
    doc = crafted(20, 300, 300)
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError) as err, budget(0.05, "the graph job"):
        build_graph(doc, stages=NO_RELATED)
    assert err.value.code == "deadline_exceeded" and "LEDGER_JOB_SECONDS" in err.value.message
    assert time.monotonic() - started < 5
