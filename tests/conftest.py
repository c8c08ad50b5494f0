"""Shared fixtures: the real-world corpus, temporary output folders, the Flask app and client."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(os.environ.get("LEDGER_CORPUS", ROOT.parent / "shared" / "corpus"))
#: The development set's documents (standards with reference truth), beside the corpus.
DEVSET_DOCS = Path(os.environ.get("LEDGER_DEVSET", ROOT.parent / "shared" / "devset")) / "rfc"
OUTPUT = Path(os.environ.get("LEDGER_TEST_OUTPUT", ROOT / "test-output"))

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# the command line keeps its graphs by content in the user's cache: tests build afresh unless they
# point LEDGER_GRAPH_CACHE at a folder of their own
os.environ.setdefault("LEDGER_GRAPH_CACHE", "off")


def corpus_file(name: str) -> Path:
    """A real document from ../shared/corpus by file name (searched in every sub-folder)."""
    if not CORPUS.is_dir():
        pytest.skip(f"the real-world corpus is not at {CORPUS}")
    hits = sorted(CORPUS.rglob(name))
    if not hits:
        raise FileNotFoundError(f"{name} is not in {CORPUS}")
    return hits[0]


def corpus_files(*suffixes: str) -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in suffixes and p.is_file())


@pytest.fixture
def corpus():
    return corpus_file


@pytest.fixture(scope="session")
def output_dir() -> Path:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT


@pytest.fixture
def app(tmp_path):
    from addin_backend.api import create_app

    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "data")})


@pytest.fixture
def client(app):
    return app.test_client()
