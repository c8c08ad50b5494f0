"""Helpers of the graph, retrieval, edit and check route tests: an app per module, real uploads."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from adapters.model import Document
from addin_backend.store import documents
from addin_backend.service import graph_job

__all__ = ["module_app", "upload", "wait_job", "keep_with_graph", "running_job", "app", "client", "report"]


def module_app(folder: Path, **settings: Any):
    """An app with its own data folder; every setting the routes read is given explicitly."""
    from addin_backend.api import create_app

    cfg = {"TESTING": True, "DATA_DIR": str(folder), "STORE": "sqlite", "API_KEYS": [], "RATE_LIMIT": "off",
           "GRAPH_SEMANTIC": False, "CORS_ORIGINS": [], "AUDIT_LOG": str(folder / "audit.jsonl"), **settings}
    return create_app(cfg)


def wait_job(client, job: dict[str, Any], limit: float = 300.0) -> dict[str, Any]:
    """Poll a job until it is done or failed."""
    deadline = time.monotonic() + limit
    while job["status"] not in ("done", "failed"):
        assert time.monotonic() < deadline, job
        time.sleep(0.05)
        job = client.get(f"/api/v1/jobs/{job['id']}").json
    return job


def upload(client, path: Path, wait: bool = True) -> dict[str, Any]:
    """Upload a real file; with ``wait`` the graph job has finished (done) when this returns."""
    r = client.post(f"/api/v1/documents?filename={path.name}", data=path.read_bytes(),
                    content_type="application/octet-stream")
    assert r.status_code == 201, r.json
    body = r.json
    if wait:
        body["job"] = wait_job(client, body["job"])
        assert body["job"]["status"] == "done", body["job"]
    return body


def keep_with_graph(app, doc: Document, data: bytes = b"PK\x03\x04 hand-built") -> str:
    """Keep a hand-built model as an upload would and build its real graph (fast stages,
    then DEPENDS); returns the document id once the graph is complete."""
    store, runner = app.extensions["ledger.store"], app.extensions["ledger.jobs"]
    meta = documents.keep(store, data, doc, filename="report.docx")
    job = graph_job.start_graph_job(runner, meta["id"], doc, builder=graph_job.graph_builder(), semantic=False,
                                   stages=graph_job.graph_stages())
    assert wait_job(app.test_client(), job)["status"] == "done"
    return meta["id"]


def running_job(app, doc: Document, graph=None) -> str:
    """Keep a model whose graph job stays ``running`` (nothing works on it): the graph is not
    ready, or only the early graph ``graph`` is stored. Returns the document id."""
    store, runner = app.extensions["ledger.store"], app.extensions["ledger.jobs"]
    meta = documents.keep(store, b"PK\x03\x04 hand-built", doc, filename="report.docx")
    rec = runner.create(meta["id"], graph_job.GRAPH_JOB, "references", name=graph_job.GRAPH_JOB, status="running",
                        progress=0.4)
    if graph is not None:
        import networkx as nx

        graph.graph["complete"] = False
        store.put_json(meta["id"], "graph", nx.node_link_data(graph, edges="edges"))
    assert rec["status"] == "running"
    return meta["id"]


# --- module-scoped fixtures the route tests import (an app per test module) -------------------


@pytest.fixture(scope="module")
def app(tmp_path_factory, request):
    """One app per test module, with its own data folder; its jobs and store closed after."""
    made = module_app(tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1]))
    yield made
    made.extensions["ledger.jobs"].shutdown()
    made.extensions["ledger.store"].close()


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def report(app):
    """The hand-built report (figures, equations, theorems, sections) with its real graph."""
    from tests.addin_backend.edits.propagate_docs import report_doc

    return keep_with_graph(app, report_doc())
