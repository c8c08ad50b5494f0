"""Fixtures for the HTTP API: apps built with given settings, a seeded document, live servers."""
from __future__ import annotations

import os

import pytest

from adapters.model import Anchor, Document, Unit
from addin_backend.store import documents
from addin_backend.service import graph_job


@pytest.fixture(autouse=True)
def _no_ledger_environment(monkeypatch):
    """Settings come from each test, never from the shell that runs the tests."""
    for var in [v for v in os.environ if v.startswith("LEDGER_")]:
        monkeypatch.delenv(var)


@pytest.fixture
def make_app(tmp_path):
    """``make_app(**settings)``: an app with its own data folder; closed after the test."""
    from addin_backend.api import create_app

    made = []

    def make(**settings):
        app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / f"data{len(made)}"), **settings})
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["ledger.jobs"].shutdown()
        app.extensions["ledger.store"].close()


def sample_document() -> Document:
    """A small hand-built model, as a reader would produce it (for routes that only read the store)."""
    return Document("docx", units=[
        Unit("title-1", "title", "Service Agreement", 0, anchor=Anchor("word/document.xml", "0")),
        Unit("sec-1", "section", "Term", 1, label="Section 1", number="1", title="Term", level=1,
             anchor=Anchor("word/document.xml", "1")),
        Unit("p-1", "paragraph", "The term is 24 months.", 2, parent="sec-1",
             rejected_text="The term is 12 months.", anchor=Anchor("word/document.xml", "2")),
        Unit("sec-2", "section", "Fees", 3, label="Section 2", number="2", title="Fees", level=1,
             anchor=Anchor("word/document.xml", "3")),
        Unit("tbl-1", "table", "Year\tFee\n1\t100", 4, label="Table 1", number="1", parent="sec-2",
             anchor=Anchor("word/document.xml", "4")),
    ])


def seed(app, data: bytes = b"PK\x03\x04 original bytes", doc: Document | None = None, *, key: str | None = None) -> str:
    """Keep a document in the app's store as an upload would (without a reader), owned by the
    API key ``key`` (its fingerprint; ``None``: no owner, a server without keys); returns its id."""
    from addin_backend.api.config import key_fingerprint

    store, runner = app.extensions["ledger.store"], app.extensions["ledger.jobs"]
    doc = doc or sample_document()
    meta = documents.keep(store, data, doc, filename="agreement.docx", owner=key_fingerprint(key) if key else None)
    graph_job.start_graph_job(runner, meta["id"], doc, builder=None, semantic=False)
    return meta["id"]
