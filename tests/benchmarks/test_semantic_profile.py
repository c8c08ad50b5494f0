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


def test_a_static_text_vector_is_the_weighted_mean_of_its_pieces_rows():
    # benchmarks.static_encoder (semantic_profile --distilled): the lookup, against a plain loop
    from addin_backend.embeddings.encoders import tokenizer
    from benchmarks.static_encoder import StaticEncoder

    rng = np.random.default_rng(3)
    table = rng.normal(size=(tokenizer().get_vocab_size(), 8)).astype(np.float32)
    texts = ["the stream is closed", "", "the the the stream", "closed connection"]
    for weighting in ("sif", "idf"):
        enc = StaticEncoder(table, weighting)
        got = enc.encode(texts)
        pieces = [e.ids[1:-1] for e in tokenizer().encode_batch(texts)]
        w = enc.weights(pieces)
        for row, p in zip(got, pieces):
            want = sum((w[t] * table[t] for t in p), np.zeros(8, dtype=np.float32))
            want = want / (np.linalg.norm(want) + 1e-9)
            assert np.allclose(row, want, atol=1e-5)
        assert not got[1].any()  # a text without pieces has no direction
    the = tokenizer().token_to_id("the")
    sif = StaticEncoder(table, "sif").weights([[the, the, the, 7], [the, 9]])
    assert sif[the] < sif[7] == sif[9]  # the document's most frequent piece weighs least
