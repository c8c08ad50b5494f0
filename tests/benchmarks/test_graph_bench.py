"""The graph benchmark harness on the 5K document: well-formed output, and REFERENCES at target.

The second check is of the detector, not of the harness: the explicit references of the 5K
benchmark document (fields and plain-text mentions, in .docx and .odt) must be found with
recall >= 0.99 and precision >= 0.98.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.graph_bench import TARGETS
from tests.benchmarks.bench_fixtures import synth_5k, synth_5k_files  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("graph_bench")
    readme = tmp / "README.md"
    readme.write_text("# Title\n\n## Graph benchmark\n\nHand-written text.\n\n<!-- graph-bench:start -->\nold\n"
                      "<!-- graph-bench:end -->\n\n## After\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "benchmarks.graph_bench", "--quick", "--sizes", "5k", "--no-semantic",
           "--data", str(tmp / "data"), "--out", str(tmp / "out"), "--readme", str(readme)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout, json.loads((tmp / "out" / "graph.json").read_text(encoding="utf-8")), tmp


def test_the_quick_harness_writes_a_table_json_plots_and_the_readme_section(quick_run):
    stdout, result, tmp = quick_run
    assert stdout.splitlines()[0].split()[:4] == ["doc", "tokens", "units", "REFERENCES"]
    assert [(d["size"], d["format"]) for d in result["documents"]] == [("5k", "docx"), ("5k", "odt")]
    for d in result["documents"]:
        secs = d["fast"]["seconds"]
        assert set(secs) >= {"read", "contains", "references", "depends", "graph", "read_and_graph", "process"}
        assert 0 < secs["read_and_graph"] < secs["process"]
        assert d["pandoc_seconds"] is None or d["pandoc_seconds"] > 0
        assert 20 < d["fast"]["peak_rss_mb"] < 2048
        assert set(d["fast"]["scores"]) == {"CONTAINS", "REFERENCES", "DEPENDS", "broken"}
        # the 5K truth plants one reference to a unit that does not exist
        assert d["fast"]["scores"]["broken"]["tp"] + d["fast"]["scores"]["broken"]["fn"] == 1
        assert "semantic" not in d
        refs = d["fast"]["scores"]["REFERENCES"]
        assert refs["tp"] + refs["fn"] == 24  # the 5K truth holds 24 REFERENCES edges
        assert set(refs["by_how"]) == {"field", "text"}
    for name in ("graph.md", "graph_time.png", "graph_quality.png"):
        assert (tmp / "out" / name).stat().st_size > 1000
    readme = (tmp / "README.md").read_text(encoding="utf-8")
    assert "Hand-written text." in readme and "\nold\n" not in readme and readme.endswith("## After\n")
    assert "| 5k.docx | 4984 |" in readme and "graph_quality.png" in readme


@pytest.mark.parametrize("fmt", ["docx", "odt"])
def test_references_on_the_5k_document_reach_the_targets(quick_run, fmt):
    _, result, _ = quick_run
    (doc,) = [d for d in result["documents"] if d["format"] == fmt]
    refs = doc["fast"]["scores"]["REFERENCES"]
    precision, recall = TARGETS["REFERENCES"]
    assert refs["recall"] >= recall, refs["misses"]
    assert refs["precision"] >= precision, refs["spurious"]


@pytest.mark.models
@pytest.mark.parametrize("fmt", ["docx", "odt"])
def test_related_on_the_5k_document_finds_its_topic_clusters(synth_5k_files, fmt):
    """The calibrated relative cut (MiniLM) on the 5K document: of its 6 cluster pairs, 5 are found
    (the sixth stands 3.8 deviations out, under the 4.0 that 93 units require), with at most one
    other pair (two list items of one procedure)."""
    from adapters import read_path
    from addin_backend.graph import build_graph
    from benchmarks.truth import align, load, score_edges

    truth = load(synth_5k_files["truth"])
    doc = read_path(str(synth_5k_files[fmt]))
    report = score_edges(build_graph(doc), truth, align(doc, truth))["RELATED"]
    assert report["tp"] >= 5 and report["fp"] <= 1, (report["misses"], report["spurious"])
