"""The upload's graph job: explicit without the graph package, complete with a real builder."""
from __future__ import annotations

import time
from pathlib import Path

import networkx as nx
import pytest

from adapters.model import Document, Unit
from addin_backend.service import graph_job
from addin_backend.errors import UnknownUnitError
from addin_backend.jobs.runner import JobRunner

ROOT = Path(__file__).resolve().parents[3]


def _doc() -> Document:
    return Document("docx", units=[
        Unit("sec-1", "section", "Intro", 0, label="Section 1", number="1", level=1),
        Unit("p-1", "paragraph", "See Section 2.", 1, parent="sec-1"),
        Unit("sec-2", "section", "Method", 2, label="Section 2", number="2", level=1),
    ])


def contains_graph(doc: Document, *, semantic: bool, progress) -> nx.MultiDiGraph:
    """A small real builder with the graph package's signature: CONTAINS edges from parents.

    Like the graph package it reports each stage's own fraction, from 0 to 1.
    """
    g = nx.MultiDiGraph()
    progress("nodes", 0.0)  # a stage outside the published order
    for u in doc.units:
        g.add_node(u.id, kind=u.kind, label=u.label)
    progress("contains", 0.0)
    for u in doc.units:
        if u.parent:
            g.add_edge(u.parent, u.id, key="CONTAINS", type="CONTAINS")
    progress("contains", 1.0)
    progress("references", 0.5)
    return g


def _wait(runner: JobRunner, job_id: str) -> dict:
    deadline = time.monotonic() + 10
    while (rec := runner.get(job_id))["status"] not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.02)
    return rec


def test_graph_builder_is_absent_exactly_while_the_graph_package_is():
    installed = (ROOT / "addin_backend" / "graph" / "__init__.py").is_file()
    assert (graph_job.graph_builder() is not None) == installed


def test_without_the_graph_package_the_job_is_done_after_read(store):
    store.put("d1", {})
    job = graph_job.start_graph_job(JobRunner(store), "d1", _doc(), builder=None, semantic=True)
    assert (job["id"], job["status"], job["stage"], job["progress"]) == ("d1-graph", "done", "read", 1.0)
    assert job["result"] == {"graph": None, "reason": "the graph package is not installed"}
    assert JobRunner(store).get("d1-graph") == job
    assert graph_job.load_graph(store, "d1") is None


def test_with_a_builder_the_job_runs_its_stages_and_keeps_the_graph(store):
    store.put("d1", {})
    runner = JobRunner(store)
    job = graph_job.start_graph_job(runner, "d1", _doc(), builder=contains_graph, semantic=False,
                                   stages=("contains", "references"))
    assert (job["stage"], job["progress"], job["stage_progress"]) == ("read", graph_job.READ_SHARE, None)
    rec = _wait(runner, job["id"])
    runner.shutdown()
    assert rec["status"] == "done" and rec["stages"] == ["read", "nodes", "contains", "references"]
    assert (rec["stage"], rec["stage_progress"], rec["progress"]) == ("references", 0.5, 1.0)
    assert rec["result"] == {"graph": {"nodes": 3, "edges": 1, "semantic": False, "complete": True}}
    graph = graph_job.load_graph(store, "d1")
    assert isinstance(graph, nx.MultiDiGraph)
    assert list(graph.edges(keys=True, data="type")) == [("sec-1", "p-1", "CONTAINS", "CONTAINS")]
    assert graph.nodes["sec-2"] == {"kind": "section", "label": "Section 2"}


def test_overall_progress_follows_the_published_stage_order(store):
    store.put("d1", {})
    runner = JobRunner(store)
    overall = []

    def builder(doc, *, semantic, progress):
        for stage in ("contains", "references", "depends", "related"):
            for fraction in (0.0, 0.5, 1.0):
                progress(stage, fraction)
                overall.append(runner.get("d1-graph")["progress"])
        return nx.MultiDiGraph()

    stages = ("contains", "references", "depends", "related")
    rec = _wait(runner, graph_job.start_graph_job(runner, "d1", _doc(), builder=builder, semantic=True,
                                                 stages=stages)["id"])
    runner.shutdown()
    assert rec["status"] == "done"
    # each stage by its usual cost: RELATED (the embeddings) is most of the job
    weights = [graph_job.STAGE_WEIGHTS[s] for s in stages]
    share = 1 - graph_job.READ_SHARE
    expected = [graph_job.READ_SHARE + share * (sum(weights[:i]) + weights[i] * f) / sum(weights)
                for i in range(4) for f in (0.0, 0.5, 1.0)]
    assert overall == pytest.approx(expected)
    assert overall == sorted(overall) and overall[-1] == pytest.approx(1.0)
    assert overall[9] < 0.2  # what comes before RELATED is quick: RELATED is the rest
    assert [(s["name"], s["status"]) for s in rec["stage_log"]] == [
        ("read", "done"), ("contains", "done"), ("references", "done"), ("depends", "done"), ("related", "done")]


def test_a_failing_builder_fails_the_job_with_its_code(store):
    store.put("d1", {})
    runner = JobRunner(store)

    def broken(doc, *, semantic, progress):
        progress("references", 0.3)
        raise UnknownUnitError("a reference points at no unit")

    rec = _wait(runner, graph_job.start_graph_job(runner, "d1", _doc(), builder=broken, semantic=True,
                                                 stages=("contains", "references"))["id"])
    runner.shutdown()
    assert (rec["status"], rec["stage"], rec["error"]["code"]) == ("failed", "references", "unknown_unit")
    w = graph_job.STAGE_WEIGHTS
    assert rec["progress"] == pytest.approx(graph_job.READ_SHARE + 0.9 * (w["contains"] + 0.3 * w["references"])
                                            / (w["contains"] + w["references"]))
    assert rec["stage_progress"] == 0.3
    assert graph_job.load_graph(store, "d1") is None


def _report():
    return Document("docx", units=[
        Unit("sec-1", "section", "Terms", 0, label="Section 1", number="1", level=1),
        Unit("p-1", "paragraph", "\"Widget\" means a small device.", 1, parent="sec-1"),
        Unit("p-2", "paragraph", "Each Widget is shown in Section 2; see Table 4.", 2, parent="sec-1"),
        Unit("sec-2", "section", "Results", 3, label="Section 2", number="2", level=1),
    ])


def test_the_real_builder_publishes_the_fast_graph_before_the_slow_stages():
    seen = []

    def progress(stage, fraction):
        seen.append(("progress", stage, fraction))

    def publish(G):
        seen.append(("publish", sorted({k for _, _, k in G.edges(keys=True)}), list(G.graph["stages"])))

    G = graph_job.build_in_stages(_report(), semantic=False, progress=progress, publish=publish)
    at = next(i for i, s in enumerate(seen) if s[0] == "publish")
    assert seen[at] == ("publish", ["CONTAINS", "REFERENCES"], ["contains", "references"])
    assert {s[1] for s in seen[:at]} == {"contains", "references"}
    assert {s[1] for s in seen[at + 1:]} == {"depends"}  # no RELATED without semantic
    assert G.graph["stages"] == ["contains", "references", "depends"]
    assert [b["label"] for b in G.graph["broken_references"]] == ["Table 4"]


def test_the_upload_job_stores_the_early_graph_then_the_complete_one(store, monkeypatch):
    store.put("d1", {})
    written = []
    put_json = store.put_json

    def recording(scope, name, obj, **kw):
        if name == "graph":
            written.append((obj["graph"]["complete"], list(obj["graph"]["stages"])))
        return put_json(scope, name, obj, **kw)

    monkeypatch.setattr(store, "put_json", recording)
    runner = JobRunner(store)
    rec = _wait(runner, graph_job.start_graph_job(runner, "d1", _report(), builder=graph_job.graph_builder(),
                                                 semantic=False, stages=graph_job.graph_stages())["id"])
    runner.shutdown()
    assert rec["status"] == "done" and rec["result"]["graph"]["complete"] is True
    assert written == [(False, ["contains", "references"]), (True, ["contains", "references", "depends"])]
    graph = graph_job.load_graph(store, "d1")
    assert graph_job.is_complete(graph) and ("p-2", "p-1", "DEPENDS") in set(graph.edges(keys=True))


def test_a_poll_that_reads_the_early_graph_then_a_done_job_gets_the_complete_graph(store):
    """The job can end between a poll's two reads (the graph, then the job's status): the poll
    must answer the graph the job ended with, not the early one it read first (an MCP
    ``open_document`` once reported an incomplete graph of a finished job under load)."""
    store.put("d1", {})
    runner = JobRunner(store)
    job = runner.create("d1", graph_job.GRAPH_JOB, "read", name=graph_job.GRAPH_JOB, status="running")
    early = contains_graph(_doc(), semantic=False, progress=lambda *a, **k: None)
    early.graph["complete"] = False
    store.put_json("d1", "graph", nx.node_link_data(early, edges="edges"))

    class EndsWhileAsked(JobRunner):
        def get(self, job_id):  # the job stores its final graph and ends just as it is asked
            final = contains_graph(_doc(), semantic=False, progress=lambda *a, **k: None)
            final.graph["complete"] = True
            store.put_json("d1", "graph", nx.node_link_data(final, edges="edges"))
            rec = super().get(job_id)
            return {**rec, "status": "done"}

    G = graph_job.document_graph(store, EndsWhileAsked(store), "d1", complete=True, strict=True)
    runner.shutdown()
    assert graph_job.is_complete(G) and job["id"] == "d1-graph"


def test_the_upload_job_keeps_the_first_check_and_run_check_reads_it(store, monkeypatch):
    """The job's ``check`` stage keeps the check a Run check asks for; the request then reads it
    back (nothing is checked on the request path) and it is the check a request would make."""
    from addin_backend.service import checks
    from addin_backend.store import documents

    doc = _report()
    meta = documents.keep(store, b"PK\x03\x04 bytes", doc, filename="report.docx")
    runner = JobRunner(store)
    rec = _wait(runner, graph_job.start_graph_job(runner, meta["id"], doc, builder=graph_job.graph_builder(),
                                                 semantic=False, stages=graph_job.graph_stages())["id"])
    runner.shutdown()
    assert rec["status"] == "done", rec
    assert [s["name"] for s in rec["stage_log"]] == ["read", "contains", "references", "depends", "check"]
    assert all(s["status"] == "done" for s in rec["stage_log"]) and "findings" in rec["ready"]
    fresh = checks.check(doc)
    assert [f["kind"] for f in fresh] == ["missing_target"]  # "see Table 4": something to find

    def no_check(*_a, **_k):
        raise AssertionError("Run check computed the check again")

    monkeypatch.setattr(checks, "check", no_check)
    assert checks.check_stored(store, meta["id"])["findings"] == fresh


def test_the_job_gives_way_to_a_request_being_served(store):
    """While a request is served (``foreground.serving``), the job holds at its next progress
    report until the request is answered, then goes on without holding again."""
    import threading

    from addin_backend import foreground

    waits: dict[str, float] = {}

    def builder(doc, *, semantic, progress):
        for stage in ("contains", "depends", "related"):
            t = time.monotonic()
            progress(stage, 0.5)
            waits[stage] = time.monotonic() - t
        return contains_graph(doc, semantic=semantic, progress=lambda *a: None)

    store.put("d1", {})
    entered, release = threading.Event(), threading.Event()

    def request():
        with foreground.serving():
            entered.set()
            release.wait(5)

    served = threading.Thread(target=request)
    served.start()
    entered.wait(5)
    threading.Timer(0.6, release.set).start()
    runner = JobRunner(store)
    rec = _wait(runner, graph_job.start_graph_job(runner, "d1", _doc(), builder=builder, semantic=True,
                                                 stages=("contains", "depends", "related"))["id"])
    runner.shutdown()
    served.join(5)
    assert rec["status"] == "done", rec
    assert waits["contains"] >= 0.2, waits  # held until the request was answered (0.6 s)
    assert waits["depends"] < 0.3 and waits["related"] < 0.3, waits  # none served any more
    assert foreground.busy() == 0 and foreground.give_way(1.0) == 0.0
