"""cold_bench's semantic-stage table: medians per checkout and their ratio, from the rounds' rows."""
from __future__ import annotations

from benchmarks.cold_bench import semantic_markdown


def _row(ms: float, wall: float, related: int, units: int = 2000) -> dict:
    return {"units": units, "cpu": ms * 2, "wall": wall, "related": related, "load_cpu": 0.1, "cpu_ms_per_unit": ms}


def test_the_semantic_table_gives_medians_and_the_peer_over_this_ratio():
    results = {"date": "2026-12-07", "cpus": 2, "reps": 3, "load": "1.0 1.0 1.0", "files": {"a.docx": {
        "this": [_row(2.0, 10, 5), _row(3.0, 12, 5), _row(2.5, 11, 5)],
        "peer": [_row(10.0, 40, 6), _row(9.0, 30, 7), {"rc": 1, "error": "boom"}]}}}
    md = semantic_markdown(results, "python -m benchmarks.cold_bench --semantic 3 --file a.docx --peer PEER")
    row = next(line for line in md.splitlines() if line.startswith("| a.docx"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "2,000"
    assert cells[2] == "2.5 (2.0-3.0)" and cells[3] == "11" and cells[4] == "5"
    assert cells[5] == "9.5 (9.0-10.0)" and cells[7] == "6/7"   # the failed round is left out
    assert cells[8] == "**3.8x**"


def test_the_semantic_table_gives_each_checkouts_units_where_they_read_differently():
    results = {"date": "2026-12-07", "cpus": 2, "reps": 1, "files": {"b.docx": {
        "this": [_row(4.5, 20, 244, 1937)], "peer": [_row(9.0, 40, 402, 2282)]}}}
    row = semantic_markdown(results, "cmd").splitlines()[-1]
    assert row.split("|")[2].strip() == "1,937 / 2,282" and row.split("|")[-2].strip() == "**2.0x**"


def test_the_second_context_table_gives_the_same_and_another_selection_apart():
    from benchmarks.cold_bench import second_markdown

    def reps(*cpus: float) -> list[dict]:
        return [{"wall": c + 0.1, "cpu": c, "rss_mb": 50, "rc": 0} for c in cpus]

    results = {"date": "2026-12-07", "cpus": 2, "reps": 3, "load": "1.0", "files": {"a.docx": {
        "this": {"reps": reps(0.3, 0.4, 0.5), "reps_same": True, "other": reps(0.6, 0.5, 0.7), "other_same": True,
                 "check": reps(0.2, 0.2, 0.3), "check_same": True},
        "peer": {"reps": reps(1.2, 1.0, 1.1), "reps_same": True, "other": reps(1.4, 1.4, 1.5), "other_same": False,
                 "check": reps(2.0, 2.2, 2.1), "check_same": True},
        "reps_same_answer": True, "other_find": "stateless reset", "other_same_answer": True,
        "check_same_answer": False}}}
    lines = [line for line in second_markdown(results, "cmd").splitlines() if line.startswith("| a.docx")]
    assert len(lines) == 3
    same = [c.strip() for c in lines[0].strip("|").split("|")]
    other = [c.strip() for c in lines[1].strip("|").split("|")]
    assert same[2] == "0.4 (0.3-0.5)" and same[4] == "1.1 (1.0-1.2)" and same[5] == "2.8x" and same[6] == "yes, yes, yes"
    assert other[0] == "a.docx, another selection (stateless reset)"
    assert other[2] == "0.6 (0.5-0.7)" and other[5] == "2.3x" and other[6] == "yes, no, yes"
    check = [c.strip() for c in lines[2].strip("|").split("|")]
    assert check[0] == "a.docx: a second `ledger check`" and check[5] == "10.5x" and check[6] == "yes, yes, no"


def test_answers_are_compared_without_their_seconds_and_change_dates():
    from benchmarks.cold_bench import _answer

    one = {"answer": {"seconds": 1.0, "operations": [{"op": "replace", "date": "2026-12-07T06:59:42Z"}]}}
    two = {"answer": {"seconds": 2.0, "operations": [{"op": "replace", "date": "2026-12-07T06:59:48Z"}]}}
    other = {"answer": {"seconds": 2.0, "operations": [{"op": "insert", "date": "2026-12-07T06:59:48Z"}]}}
    assert _answer(one) == _answer(two) != _answer(other)
