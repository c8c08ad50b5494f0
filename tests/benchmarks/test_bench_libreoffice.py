"""LibreOffice sees in both packages exactly the text and heading numbers of the ground truth."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.libreoffice import probe, run_uno_script

from tests.benchmarks.bench_fixtures import synth_5k, synth_5k_files  # noqa: F401  (fixtures)

REFRESH = Path(__file__).with_name("uno_refresh.py")


def expected_paragraphs(truth: dict) -> list[tuple[str, str]]:
    """(text, list label) of each paragraph LibreOffice should report, in order.

    A table is its cells row by row; a figure is an image-only paragraph (""); an equation
    shows its tab and number (the formula is an object, outside the paragraph's string).
    Headings carry their rendered number ("2.1", "Appendix A"); list items "1.", "2.".
    """
    out = []
    for u in truth["units"]:
        if u["kind"] == "table":
            out += [(cell, "") for cell in u["text"].split("\n")]
        elif u["kind"] == "figure":
            out.append(("", ""))
        elif u["kind"] == "equation":
            out.append((u["text"][u["text"].index("\t"):], ""))
        elif u["kind"] == "section":
            out.append((u["text"], u["label"] if u["key"].startswith("app-") else u["number"]))
        elif u["kind"] == "list_item":
            out.append((u["text"], f"{u['number']}."))
        else:
            out.append((u["text"], ""))
    return out


@pytest.mark.slow
def test_libreoffice_paragraphs_and_heading_numbers_match_the_truth(synth_5k_files, synth_5k):
    want = expected_paragraphs(synth_5k.truth)
    results = probe([synth_5k_files["docx"], synth_5k_files["odt"]])
    assert len(results) == 2
    for result in results:
        assert "error" not in result, result
        got = [(p["text"], p.get("label") or "") for p in result["paragraphs"]]
        assert got == want, result["file"]


@pytest.mark.slow
def test_libreoffice_recomputes_every_field_to_the_same_text(synth_5k_files, synth_5k):
    """After a field refresh, caption numbers and cross-references are LibreOffice's own: they
    still match, so every bookmark and sequence name points where the truth says."""
    proc = run_uno_script(REFRESH, str(synth_5k_files["docx"]), str(synth_5k_files["odt"]))
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    want = [text for text, _label in expected_paragraphs(synth_5k.truth)]
    assert len(results) == 2
    for result in results:
        assert "error" not in result, result
        assert result["refreshed"] == want, result["file"]
