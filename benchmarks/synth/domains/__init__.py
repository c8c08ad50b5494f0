"""Vocabularies of the benchmark's technical domains, one module each (data only).

Each module exposes ``DOMAIN``, a dict whose keys are documented in :mod:`benchmarks.synth.prose`.
General-prose entries must avoid shell nouns, reference words, definition cues and parentheses,
so that the only references, definitions and anaphors in a document are the planted ones
(``tests/benchmarks/test_bench_vocabulary.py`` checks it).
"""
from __future__ import annotations

from . import contract, energy, manufacturing, mlops, networking, storage

__all__ = ["DOMAINS"]

#: All domains by name, in a fixed order (the planner shuffles with its own seed).
DOMAINS = {d.DOMAIN["name"]: d.DOMAIN for d in (storage, networking, mlops, energy, manufacturing, contract)}
