"""semantic_profile's cascade screen: the deviation it ranks units by, and the share of RELATED's
pairs a screen keeping a fraction of the units would keep."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.semantic_profile import _best_deviations, screen
from tests.benchmarks.bench_fixtures import synth_5k, synth_5k_files  # noqa: F401 (fixtures)


def test_a_near_duplicate_pair_stands_out_above_every_other_unit():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(40, 16)).astype(np.float32)
    X = np.vstack([X, X[3] + 0.05 * rng.normal(size=16).astype(np.float32)])
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    best = _best_deviations(X)
    assert best.shape == (41,)
    assert set(np.argsort(-best)[:2].tolist()) == {3, 40}
    assert best[3] == pytest.approx(best[40])  # a pair's deviation is the smaller of its two units'


@pytest.mark.models
def test_the_screen_keeps_every_pair_when_it_keeps_every_unit(synth_5k_files):
    # the 5K synthetic document written here (benchmarks/data is made by `make bench-data`, not kept)
    rows = screen([Path(synth_5k_files["docx"])], [0.1, 0.5, 1.0])
    (row,) = rows
    assert row["pairs"] > 0 and row["embedded"] > row["pairs"]
    for name in ("static", "tfidf"):
        shares = [row[name][k] for k in ("0.1", "0.5", "1")]
        assert shares == sorted(shares) and shares[-1] == 1.0 and shares[0] < 1.0
