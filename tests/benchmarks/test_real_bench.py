"""The real-document benchmark on the development set: what the real-documents issue must show.

Every variant of the five published standards (typed references and reference fields, .docx and
.odt, LibreOffice round trips): REFERENCES recall >= 0.99 and precision >= 0.98, table cells
included; every heading's number as LibreOffice renders it; DEPENDS recall >= 0.85 overall and
>= 0.80 per kind; false links on at most 15% of the negatives; no unit the target of more than 10%
of a document's DEPENDS edges but by exact uses of a quoted definition. With embeddings, on one
standard: no RELATED edge joins two bibliography entries or two code lines.
"""
from __future__ import annotations

import pytest

from benchmarks.real_bench import TARGETS, VARIANTS, default_devset, depends_table, run

DEVSET = default_devset()


@pytest.fixture(scope="module")
def result():
    if not (DEVSET / "depends.json").exists():
        pytest.skip(f"the development set is not at {DEVSET}")
    return run(DEVSET, quiet=True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_references_and_headings_on_every_variant(result, variant):
    s = result["summary"][variant]
    refs = s["references"]
    assert refs["recall"] >= TARGETS["references_recall"], refs
    assert refs["precision"] >= TARGETS["references_precision"], refs
    assert s["table"]["recall"] >= TARGETS["references_recall"], s["table"]
    assert s["headings"]["right"] == s["headings"]["all"], [f["headings"]["wrong"] for f in result["files"]
                                                            if f["variant"] == variant]


@pytest.mark.parametrize("variant", VARIANTS)
def test_depends_recall_false_links_and_concentration(result, variant):
    d = result["summary"][variant]["depends"]
    assert d["recall"] >= TARGETS["depends_recall"], d
    for kind in ("anaphora", "definition", "acronym"):
        assert d["by_kind"][kind]["recall"] >= TARGETS["depends_kind_recall"], (kind, d["by_kind"])
    assert d["false_links"] <= TARGETS["false_links"] * d["negatives"], d
    for f in result["files"]:
        if f["variant"] == variant:
            assert f["depends"]["top_target_share"] <= TARGETS["top_target_share"], (f["doc"], f["depends"]["top_target"])


def test_every_file_aligns_with_the_truth(result):
    for f in result["files"]:
        assert f["aligned"] >= 0.99 * f["paragraphs"], (f["doc"], f["variant"], f["aligned"], f["paragraphs"])


@pytest.mark.models
def test_related_never_joins_bibliography_entries_or_code_lines():
    if not (DEVSET / "depends.json").exists():
        pytest.skip(f"the development set is not at {DEVSET}")
    out = run(DEVSET, ["rfc9002"], ("A.docx",), related=True, quiet=True)
    rel = out["files"][0]["related"]
    assert rel["bibliography_pairs"] == 0 and rel["code_pairs"] == 0, rel


INDEPENDENT = DEVSET / "independent"
#: The transfer issue's targets on the second annotator's set (A.docx): each kind >= 0.85, false
#: links on at most 10% of the negatives. Its mechanisms were written reading that set's misses:
#: this guards the figure; the one that decides is on sets kept apart.
INDEPENDENT_TARGETS = {"kind_recall": 0.85, "false_links": 0.10}


def test_second_annotators_set_is_scored_without_reference_truth():
    if not (INDEPENDENT / "depends.json").exists():
        pytest.skip(f"the second annotator's set is not at {INDEPENDENT}")
    out = run(INDEPENDENT, None, ("A.docx",), quiet=True)
    assert {f["doc"] for f in out["files"]} == {"rfc9001", "rfc9110", "rfc9111", "rfc9112"}
    assert all("references" not in f and "headings" not in f for f in out["files"])
    d = out["summary"]["A.docx"]["depends"]
    for kind in ("anaphora", "definition", "acronym"):
        assert d["by_kind"][kind]["recall"] >= INDEPENDENT_TARGETS["kind_recall"], (kind, d["by_kind"])
    assert d["false_links"] <= INDEPENDENT_TARGETS["false_links"] * d["negatives"], d
    assert out["summary"]["A.docx"]["top_target_share"] <= TARGETS["top_target_share"]
    table = depends_table([("independent", out)])
    assert any(row.startswith("| independent: rfc9110 |") for row in table)
