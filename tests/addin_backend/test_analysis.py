"""The upload's graph job: explicit without the graph package, complete with a real builder."""
from __future__ import annotations

import time
from pathlib import Path

import networkx as nx
import pytest

from adapters.model import Document, Unit
from addin_backend import analysis
from addin_backend.errors import UnknownUnitError
from addin_backend.jobs import JobRunner

ROOT = Path(__file__).resolve().parents[2]


def _doc() -> Document:
    return Document("docx", units=[
        Unit("sec-1", "section", "Intro", 0, label="Section 1", number="1", level=1),
        Unit("p-1", "paragraph", "See Section 2.", 1, parent="sec-1"),
        Unit("sec-2", "section", "Method", 2, label="Section 2", number="2", level=1),
    ])


def contains_graph(doc: Document, *, semantic: bool, progress) -> nx.MultiDiGraph:
    """A small real builder with the graph module's signature: CONTAINS edges from parents."""
    g = nx.MultiDiGraph()
    progress("units", 0.0)
    for u in doc.units:
        g.add_node(u.id, kind=u.kind, label=u.label)
    progress("contains", 0.5)
    for u in doc.units:
        if u.parent:
            g.add_edge(u.parent, u.id, key="CONTAINS", type="CONTAINS")
    progress("contains", 1.0)
    return g


def _wait(runner: JobRunner, job_id: str) -> dict:
    deadline = time.monotonic() + 10
    while (rec := runner.get(job_id))["status"] not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.02)
    return rec


def test_graph_builder_is_absent_exactly_while_the_graph_package_is():
    installed = (ROOT / "addin_backend" / "graph" / "__init__.py").is_file()
    assert (analysis.graph_builder() is not None) == installed


def test_without_the_graph_package_the_job_is_done_after_read(store):
    store.put("d1", {})
    job = analysis.start_graph_job(JobRunner(store), "d1", _doc(), builder=None, semantic=True)
    assert (job["id"], job["status"], job["stage"], job["progress"]) == ("d1-graph", "done", "read", 1.0)
    assert job["result"] == {"graph": None, "reason": "the graph package is not installed"}
    assert JobRunner(store).get("d1-graph") == job
    assert analysis.load_graph(store, "d1") is None


def test_with_a_builder_the_job_runs_its_stages_and_keeps_the_graph(store):
    store.put("d1", {})
    runner = JobRunner(store)
    job = analysis.start_graph_job(runner, "d1", _doc(), builder=contains_graph, semantic=False)
    assert (job["stage"], job["progress"]) == ("read", analysis.READ_SHARE)
    rec = _wait(runner, job["id"])
    runner.shutdown()
    assert rec["status"] == "done" and rec["stages"] == ["read", "units", "contains"]
    assert rec["result"] == {"graph": {"nodes": 3, "edges": 1, "semantic": False}}
    graph = analysis.load_graph(store, "d1")
    assert isinstance(graph, nx.MultiDiGraph)
    assert list(graph.edges(keys=True, data="type")) == [("sec-1", "p-1", "CONTAINS", "CONTAINS")]
    assert graph.nodes["sec-2"] == {"kind": "section", "label": "Section 2"}


def test_a_failing_builder_fails_the_job_with_its_code(store):
    store.put("d1", {})
    runner = JobRunner(store)

    def broken(doc, *, semantic, progress):
        progress("references", 0.3)
        raise UnknownUnitError("a reference points at no unit")

    rec = _wait(runner, analysis.start_graph_job(runner, "d1", _doc(), builder=broken, semantic=True)["id"])
    runner.shutdown()
    assert (rec["status"], rec["stage"], rec["error"]["code"]) == ("failed", "references", "unknown_unit")
    assert rec["progress"] == pytest.approx(analysis.READ_SHARE + 0.9 * 0.3)
    assert analysis.load_graph(store, "d1") is None
