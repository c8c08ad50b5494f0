"""benchmarks.graph_share: both checkouts' cold `ledger graph` processes are timed and the
graph's share of each is a fraction of its process."""
from __future__ import annotations

from benchmarks.graph_share import ROOT, main, measure
from tests.conftest import corpus_file


def test_each_tree_gets_its_rounds_and_the_graph_is_part_of_its_process(capsys):
    path = str(corpus_file("cross_reference.docx"))
    runs = measure(path, {"this tree": ROOT, "peer": ROOT}, rounds=1)
    assert set(runs) == {"this tree", "peer"} and all(len(rows) == 1 for rows in runs.values())
    for wall, graph, depends in (row for rows in runs.values() for row in rows):
        assert 0 <= depends <= graph < wall
    assert main([path, "--peer", str(ROOT), "--rounds", "1"]) == 0
    assert "graph share this/peer" in capsys.readouterr().out
