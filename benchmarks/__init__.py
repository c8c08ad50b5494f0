"""LEDGER benchmarks: synthetic documents with ground truth, alignment/scoring, and timing harnesses."""

__all__: list[str] = []
