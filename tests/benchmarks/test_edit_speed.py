"""The preview-speed benchmark (``make bench-edit-speed``): a real child process on a real
standard, and the table of two trees."""
from __future__ import annotations

import pytest

from benchmarks import edit_speed
from tests.conftest import DEVSET_DOCS

RFC9002 = DEVSET_DOCS / "rfc9002.A.docx"


@pytest.mark.skipif(not RFC9002.exists(), reason="the development set is not here")
def test_a_run_times_both_previews_of_this_tree_and_counts_their_changes():
    got = edit_speed.measure(edit_speed.ROOT, RFC9002, 'Rename "congestion window" to "sending window" everywhere',
                             semantic=False)
    assert got["rename_changes"] > 20 and got["fix_changes"] > 0
    assert 0 < got["rename"] < 120 and 0 < got["fix"] < 120


def test_the_table_gives_each_tree_its_median_and_the_peer_over_this_tree():
    runs = {"a": [{"rename": 1.0, "rename_changes": 5, "fix": 2.0, "fix_changes": 3},
                  {"rename": 3.0, "rename_changes": 5, "fix": 2.0, "fix_changes": 3}],
            "b": [{"rename": 4.0, "rename_changes": 4, "fix": 1.0, "fix_changes": 3},
                  {"rename": 4.0, "rename_changes": 4, "fix": 1.0, "fix_changes": 3}]}
    md = edit_speed.table(runs, {"a": "this tree", "b": "peer"})
    rows = md.splitlines()
    assert rows[2] == "| rename | 5 | 2.00 (1.00-3.00) | 4 | 4.00 (4.00-4.00) | 2.00 |"
    assert rows[3].endswith("| 0.50 |")


def test_a_run_that_fails_names_its_tree_and_the_error(tmp_path):
    with pytest.raises(RuntimeError, match=str(tmp_path)):
        edit_speed.measure(tmp_path, RFC9002, "Rename", semantic=False)
