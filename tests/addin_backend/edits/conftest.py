"""Fixtures for the edit engines: fresh hand-built documents per test."""
from __future__ import annotations

import pytest

from adapters.model import Document
from tests.addin_backend.edits.docs import contract_doc, paper_doc


@pytest.fixture
def contract() -> Document:
    return contract_doc()


@pytest.fixture
def paper() -> Document:
    return paper_doc()
