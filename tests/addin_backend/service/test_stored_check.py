"""Run check of an upload reads what the graph job stored (issue 32): the stored graph (its
references) and the model shared with the requests working on the upload, no graph built on the
request path; its findings are those of a check on a graph built afresh."""
from __future__ import annotations

import io
import time

import docx
import pytest

from adapters import read
from addin_backend.graph import build as graph_build
from addin_backend.jobs.runner import JobRunner
from addin_backend.service import checks, graph_job, graphs
from addin_backend.service.shared_parse import stored_document
from addin_backend.service.styles import resolve_style
from addin_backend.store import documents


def _report_docx() -> bytes:
    """A small real .docx with references to a section that exists and to a table that does not."""
    d = docx.Document()
    d.add_heading("Terms", level=1)
    d.add_paragraph("\u201cWidget\u201d means a small device.")
    d.add_paragraph("Each Widget is shown in Section 2; see Table 4 for its sizes.")
    d.add_heading("Results", level=1)
    d.add_paragraph("The widgets were measured twice.")
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def _analysed(store) -> str:
    """An upload whose graph job has ended, without the check the job kept (as when Run check
    comes before the job's ``check`` stage, or the job could not keep it)."""
    data = _report_docx()
    meta = documents.keep(store, data, read(data), filename="report.docx")
    runner = JobRunner(store)
    job = graph_job.start_graph_job(runner, meta["id"], read(data), builder=graph_job.graph_builder(),
                                    semantic=False, stages=graph_job.graph_stages())
    deadline = time.monotonic() + 60
    while (rec := runner.get(job["id"]))["status"] not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.05)
    runner.shutdown()
    assert rec["status"] == "done", rec
    store.discard(meta["id"], [checks.check_key(None, resolve_style(store, None), checks.DEFAULT_MAX_FINDINGS)])
    return meta["id"]


@pytest.fixture
def builds(monkeypatch) -> list[tuple[str, ...]]:
    """The stages of every graph built (the graph package's one builder) while the test runs."""
    seen: list[tuple[str, ...]] = []
    real = graph_build.build_graph

    def counting(doc, *args, **kwargs):
        seen.append(tuple(kwargs.get("stages") or ()))
        return real(doc, *args, **kwargs)

    monkeypatch.setattr(graph_build, "build_graph", counting)
    return seen


def test_run_check_on_a_stored_graph_builds_none_and_finds_what_a_fresh_graph_finds(store, builds):
    doc_id = _analysed(store)
    builds.clear()  # the job's
    fresh = checks.check(read(_report_docx()))  # the fast scope built here: one build
    assert "missing_target" in [f["kind"] for f in fresh]  # "see Table 4": something to find
    assert len(builds) == 1
    assert checks.check_stored(store, doc_id)["findings"] == fresh
    assert len(builds) == 1, "Run check built a graph though the job had stored one"


def test_without_a_stored_graph_run_check_builds_the_fast_scope(store, builds):
    """The counter sees a build: the stored graph gone, the check builds the fast scope itself."""
    doc_id = _analysed(store)
    builds.clear()  # the job's
    store.discard(doc_id, ["graph"])
    found = checks.check_stored(store, doc_id)["findings"]
    assert builds == [graphs.stages_of("fast")]
    assert found == checks.check(read(_report_docx()))


def test_run_check_uses_the_model_a_concurrent_request_holds(store, monkeypatch):
    """While another request holds the upload's parse (a preview, an Apply), the check reads the
    same model instead of loading the stored one again."""
    doc_id = _analysed(store)
    loads: list[str] = []
    real = documents.load

    def counting(st, i, *args, **kwargs):
        loads.append(i)
        return real(st, i, *args, **kwargs)

    monkeypatch.setattr(documents, "load", counting)
    with stored_document(store, doc_id):
        assert loads == [doc_id]
        found = checks.check_stored(store, doc_id)["findings"]
    assert loads == [doc_id], "the check loaded the model again"
    assert "missing_target" in [f["kind"] for f in found]
