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


def test_the_cold_table_gives_medians_of_reps_and_whether_the_answers_match():
    from benchmarks.cold_bench import _median_row, markdown

    def row(wall: float, cpu: float) -> dict:
        return {"wall": wall, "cpu": cpu, "rss_mb": 300, "rc": 0}

    this = _median_row([row(9.0, 4.0), row(7.0, 4.4), row(8.0, 4.2)])
    assert (this["wall"], this["walls"], this["cpus"]) == (8.0, [9.0, 7.0, 8.0], [4.0, 4.4, 4.2])
    results = {"date": "2026-12-07", "cpus": 2, "reps": 3, "load": "5.0 4.0 3.0", "files": {"a.docx": {
        "this": {"rename": {**this, "same_as_peer": True}, "second context": row(0.3, 0.2)},
        "peer": {"rename": _median_row([row(20.0, 8.0), row(22.0, 8.2), row(21.0, 8.1)]),
                 "second context": row(0.6, 0.4)}}}}
    md = markdown(results, "cmd")
    assert "3 runs of each cold step" in md and "load average at the start 5.0 4.0 3.0" in md
    rename = [c.strip() for c in next(x for x in md.splitlines() if x.startswith("| cold rename")).strip("|").split("|")]
    assert rename[1:3] == ["8.0 (7.0-9.0)", "4.2 (4.0-4.4)"] and rename[4:6] == ["21.0 (20.0-22.0)", "8.1 (8.0-8.2)"]
    assert rename[7:] == ["2.6x", "yes"]
    warm = [c.strip() for c in next(x for x in md.splitlines() if x.startswith("| warm second")).strip("|").split("|")]
    assert warm[1] == "0.3" and warm[-1] == ""


def test_a_written_package_is_compared_without_the_dates_of_its_changes(tmp_path):
    import zipfile

    from benchmarks.cold_bench import _written

    def package(name: str, date: str, text: str):
        path = tmp_path / name
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("word/document.xml", f'<w:ins w:id="1" w:author="L" w:date="{date}"><w:t>{text}</w:t></w:ins>')
        return path

    one, two = package("a.docx", "2026-12-07T06:59:42Z", "relay"), package("b.docx", "2026-12-07T07:01:00Z", "relay")
    assert _written(one) == _written(two) != _written(package("c.docx", "2026-12-07T06:59:42Z", "gateway"))
    assert _written(tmp_path / "missing.docx") is None
    from benchmarks.cold_bench import _answer

    # each run writes into its own folder: the answer's output path is not the answer
    assert _answer({"answer": {"output": str(one), "seconds": 1}}) == _answer({"answer": {"output": str(two)}})
    assert _answer({"answer": {"comments": [{"text": "why", "date": "2026-12-07T10:17:00Z"}]}}) == _answer(
        {"answer": {"comments": [{"text": "why", "date": "2026-12-07T10:17:03Z"}]}})
