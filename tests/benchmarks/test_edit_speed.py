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


@pytest.mark.skipif(not RFC9002.exists(), reason="the development set is not here")
def test_a_seeded_copy_writes_every_second_use_and_its_fix_all_undoes_them(tmp_path):
    from adapters import read_path

    seeded, counts = edit_speed.seeded_copy(RFC9002, [("sender", "send-er")], tmp_path)
    before = sum(u.text.count("sender") for u in read_path(RFC9002).units)
    after = read_path(seeded).units
    assert counts["sender"] > 20 and sum(u.text.count("send-er") for u in after) == counts["sender"]
    assert sum(u.text.count("sender") for u in after) == before - counts["sender"]
    got = edit_speed.measure(edit_speed.ROOT, RFC9002, 'Rename "congestion window" to "sending window" everywhere',
                             semantic=False, seeded=seeded)
    assert got["seeded_changes"] >= got["fix_changes"] + counts["sender"] * 0.9


def test_a_seed_of_another_format_is_refused(tmp_path):
    with pytest.raises(ValueError, match="docx"):
        edit_speed.seeded_copy(tmp_path / "a.odt", [("a", "b")], tmp_path)


def test_the_seeded_row_is_shown_only_when_every_run_has_it():
    one = {"rename": 1.0, "rename_changes": 5, "fix": 2.0, "fix_changes": 3}
    with_seed = {**one, "seeded": 3.0, "seeded_changes": 300}
    assert "fix all (seeded) | 300 | 3.00" in edit_speed.table({"a": [with_seed]}, {"a": "this tree"})
    assert "seeded" not in edit_speed.table({"a": [with_seed, one]}, {"a": "this tree"})
