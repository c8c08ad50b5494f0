"""The graph's stages are linear in the document whatever it defines (issue 24), and stop at the
job's deadline.

A crafted document of many terms sharing their longest word ("Widget Alpha0" ... "Widget
Alpha599"), used all over, made every unit that says "alpha" search for every term: terms x
units regex searches (381,747 for 1,050 units; 427 s of graph time for a 317 KB upload). The
searches are now bounded per unit and per document, the earliest-defined terms kept.
"""
from __future__ import annotations

import time

import pytest

from addin_backend.budget import budget
from addin_backend.errors import DeadlineExceededError
from addin_backend.graph import definitions
from addin_backend.graph.build import NO_RELATED, build_graph
from benchmarks.crafted_graph import crafted


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
