"""Big edits go through (issue 28): no count of operations is capped; the work is bounded by its
estimated memory (``LEDGER_WORK_MEMORY_MB``, ``ledger edit --max-memory``) and a deadline.

The big case is a Word-like specification from :mod:`benchmarks.specgen` (numbered headings,
``_Ref`` bookmarks, REF fields): inserting one section before §3.10 renumbers more than a
thousand references, which the former cap of 1,000 operations refused.
"""
from __future__ import annotations

import json

import pytest

from addin_backend.cli import main
from addin_backend.service.edits import write_memory
from tests.conftest import corpus_file


def _run(capsys, *argv: str) -> tuple[int, dict]:
    code = main(list(argv))
    out = capsys.readouterr().out.strip().splitlines()
    return code, json.loads(out[-1]) if out else {}


@pytest.mark.slow
def test_an_insert_that_renumbers_over_a_thousand_references_is_written(tmp_path, capsys):
    from benchmarks.specgen import generate

    truth = generate(tmp_path, units=2500, refs=1150)
    expected = truth["renumbered_by_insert_before"]["3.10"]
    assert expected > 1000  # the former cap would have refused this edit
    out = tmp_path / "out.docx"
    code, report = _run(capsys, "edit", str(tmp_path / "spec-2500.docx"), "--instruction",
                        "Insert a section before Section 3.10: Result Matching", "--no-semantic",
                        "-o", str(out), "--json")
    assert code == 0, report.get("error")
    assert len(report["operations"]) == 1 and len(report["propagated"]) == expected
    assert report["counts"]["error"] == 0, [f for f in report["findings"] if f["severity"] == "error"][:3]
    assert out.stat().st_size > 0


def test_the_memory_estimate_grows_with_the_text_the_operations_carry():
    from adapters import read

    data = corpus_file("zen_of_python.docx").read_bytes()
    doc = read(data)
    longest = max(doc.units, key=lambda u: len(u.text))
    few, _ = write_memory(data, doc, [{"op": "replace", "unit": longest.id}] * 10)
    many, sizes = write_memory(data, doc, [{"op": "replace", "unit": longest.id}] * 10_000)
    assert many > few and sizes["carried_chars"] == 10_000 * len(longest.text) and sizes["operations"] == 10_000


def test_the_memory_limit_reaches_the_command_line(tmp_path, capsys, monkeypatch):
    source = corpus_file("zen_of_python.docx")
    instruction = "Replace 'better' with 'preferable' everywhere"
    code, report = _run(capsys, "edit", str(source), "--instruction", instruction, "--no-semantic",
                        "-o", str(tmp_path / "a.docx"), "--json", "--max-memory", "1")
    assert code == 3 and report["error"]["code"] == "too_large", report
    assert "LEDGER_WORK_MEMORY_MB" in report["error"]["message"] and report["error"]["details"]["limit_mb"] == 1
    assert not (tmp_path / "a.docx").exists()
    monkeypatch.setenv("LEDGER_WORK_MEMORY_MB", "1")
    code, report = _run(capsys, "edit", str(source), "--instruction", instruction, "--no-semantic",
                        "-o", str(tmp_path / "b.docx"), "--json")
    assert code == 3 and report["error"]["code"] == "too_large", report
    code, report = _run(capsys, "edit", str(source), "--instruction", instruction, "--no-semantic",
                        "-o", str(tmp_path / "c.docx"), "--json", "--max-memory", "0")
    assert code == 0 and len(report["operations"]) >= 2, report.get("error")


def test_the_deadline_reaches_the_command_line(tmp_path, capsys):
    code, report = _run(capsys, "edit", str(corpus_file("zen_of_python.docx")), "--instruction",
                        "Replace 'better' with 'preferable' everywhere", "--no-semantic",
                        "-o", str(tmp_path / "a.docx"), "--json", "--deadline", "0.000001")
    assert code == 3 and report["error"]["code"] == "deadline_exceeded", report
    assert not (tmp_path / "a.docx").exists()
