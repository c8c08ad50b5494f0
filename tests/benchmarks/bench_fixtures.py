"""Fixtures for the benchmark tests (imported by name: a second conftest.py would clash with tests/conftest.py)."""
from __future__ import annotations

import pytest

__all__ = ["synth_10k", "synth_5k", "synth_5k_files"]


@pytest.fixture(scope="session")
def synth_10k():
    from benchmarks.synth import build

    return build("10k", seed=0)


@pytest.fixture(scope="session")
def synth_5k():
    from benchmarks.synth import build

    return build("5k", seed=0)


@pytest.fixture(scope="session")
def synth_5k_files(tmp_path_factory, synth_5k):
    """The 5K document written as .docx, .odt and truth JSON into a temporary folder."""
    from benchmarks.synth import write

    return write(synth_5k, tmp_path_factory.mktemp("synth5k"))
