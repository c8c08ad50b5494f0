"""A static encoder distilled from MiniLM itself (the Model2Vec idea, written here): measured by
``python -m benchmarks.semantic_profile --distilled``, used by nothing else.

Why: the RELATED stage's cost is MiniLM's transformer, 96% of it, per word piece. A static
encoder pays the transformer once per vocabulary entry, at installation: every word piece of
MiniLM's vocabulary (no ``[unused*]`` nor special piece) goes through the float32 export alone,
as ``[CLS] piece [SEP]``, and its mean-pooled output is that piece's vector (:func:`distill`),
optionally projected on its first principal components. A text's vector is then the weighted
mean of its pieces' vectors, L2-normalised (:class:`StaticEncoder`): its tokenisation and a
lookup. The weights are a statistic of the texts of one call (one document's summaries, when
the call holds them all): SIF, ``a / (a + p)`` with ``p`` a piece's share of all the pieces, or
idf, ``log((n + 1) / (df + 0.5))`` over the n texts.
"""
from __future__ import annotations

import math
import os
import tempfile
from collections import Counter
from typing import Any, Sequence

__all__ = ["distilled_file", "vocabulary_ids", "distill", "load_table", "StaticEncoder"]

#: SIF's constant: a piece as frequent as this share of a document's pieces counts half.
SIF_A = 1e-3


def distilled_file(folder: str | None = None) -> str:
    """Where the distilled table (float32, one row per vocabulary entry, zero where skipped)
    lives: ``folder``, else beside the ONNX exports in the model home."""
    from addin_backend.embeddings import encoders as E

    base = folder or os.path.dirname(E.onnx_file("onnx"))
    return os.path.join(base, "distilled-fp32.npy")


def vocabulary_ids() -> list[int]:
    """The ids of MiniLM's word pieces that a text can hold: its vocabulary less ``[unused*]``
    and the special pieces (``[PAD]``, ``[UNK]``, ``[CLS]``, ``[SEP]``, ``[MASK]``)."""
    from addin_backend.embeddings.encoders import tokenizer

    vocab = tokenizer().get_vocab()
    return sorted(i for piece, i in vocab.items() if not (piece.startswith("[") and piece.endswith("]")))


def distill(dest: str, batch: int = 512) -> str:
    """Write the table to ``dest`` (atomically) unless it is there: each word piece's vector by
    the float32 export (mean-pooled and normalised, as the sentence model pools), run as
    ``[CLS] piece [SEP]`` in batches of ``batch``, the batches on the encoder's threads."""
    import numpy as np

    from addin_backend.embeddings import encoders as E

    if os.path.exists(dest):
        return dest
    tok = E.tokenizer()
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    ids = vocabulary_ids()
    encoder = E._OnnxEncoder("onnx")
    table = np.zeros((tok.get_vocab_size(), E.DIMENSION), dtype=np.float32)
    jobs = [[[cls, t, sep] for t in ids[i : i + batch]] for i in range(0, len(ids), batch)]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max(1, encoder.threads)) as pool:
        for k, out in enumerate(pool.map(encoder._run, jobs)):
            table[ids[k * batch : k * batch + len(out)]] = out
    os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=os.path.dirname(dest) or ".", suffix=".npy", delete=False) as fh:
        np.save(fh, table)
    os.replace(fh.name, dest)
    return dest


def load_table(path: str, dims: int | None = None) -> Any:
    """The distilled table, projected on its first ``dims`` principal components (centred on
    the kept pieces' mean, by numpy's SVD) when ``dims`` is given; skipped rows stay zero."""
    import numpy as np

    table = np.load(path)
    if dims is None or dims >= table.shape[1]:
        return table
    kept = np.flatnonzero(np.abs(table).sum(axis=1) > 0)
    X = table[kept] - table[kept].mean(axis=0)
    _, _, vt = np.linalg.svd(X, full_matrices=False)
    out = np.zeros((table.shape[0], dims), dtype=np.float32)
    out[kept] = X @ vt[:dims].T
    return out


class StaticEncoder:
    """Unit vectors of texts as the weighted mean of their word pieces' distilled vectors; the
    weights (``sif`` or ``idf``) are counted over the texts of one :meth:`encode` call."""

    def __init__(self, table: Any, weighting: str = "sif", key: str = "distilled") -> None:
        from addin_backend.embeddings.encoders import related_backend, tokenizer

        if weighting not in ("sif", "idf"):
            raise ValueError(f"weighting must be sif or idf, not {weighting!r}")
        self.backend = related_backend()
        self.table = table
        self.weighting = weighting
        self.key = f"{key}/{weighting}/{table.shape[1]}"  # never another encoder's vectors in a cache
        self.tokenizer = tokenizer()

    def weights(self, pieces: Sequence[Sequence[int]]) -> dict[int, float]:
        """Each piece's weight among ``pieces`` (one list per text)."""
        if self.weighting == "idf":
            df = Counter(t for p in pieces for t in set(p))
            n = len(pieces)
            return {t: math.log((n + 1) / (c + 0.5)) for t, c in df.items()}
        tf = Counter(t for p in pieces for t in p)
        total = max(1, sum(tf.values()))
        return {t: SIF_A / (SIF_A + c / total) for t, c in tf.items()}

    def encode(self, texts: Sequence[str]) -> Any:
        """One row per text (zero for a text without pieces), L2-normalised."""
        import numpy as np

        texts = list(texts)
        pieces = [e.ids[1:-1] for e in self.tokenizer.encode_batch(texts)] if texts else []
        w = self.weights(pieces)
        flat = np.fromiter((t for p in pieces for t in p), dtype=np.int64)
        weight = np.fromiter((w[t] for p in pieces for t in p), dtype=np.float32, count=len(flat))
        lengths = np.array([len(p) for p in pieces], dtype=np.int64)
        out = np.zeros((len(texts), self.table.shape[1]), dtype=np.float32)
        some = np.flatnonzero(lengths)
        if len(some):  # each text's weighted sum of its pieces' rows (reduceat: one run per text)
            starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])[some]
            out[some] = np.add.reduceat(self.table[flat] * weight[:, None], starts, axis=0)
        out /= np.linalg.norm(out, axis=1, keepdims=True) + 1e-9
        return out
