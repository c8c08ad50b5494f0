"""Calibrate the RELATED cosine threshold for MiniLM.

Two sources of labelled pairs:

* ``--proxy`` (default): first paragraphs of Python standard-library docstrings, 12 per module
  from 28 modules; two docstrings of the same module count as related. Real technical prose,
  no hand labels; a stand-in until the benchmark's ground truth exists.
* ``--pairs FILE``: JSON Lines of ``{"a": text, "b": text, "related": bool}`` (for example the
  summaries of ground-truth RELATED pairs and of sampled unrelated pairs from the benchmark
  generator), scored with the same embedder and summaries as the graph.

Prints the score distributions, the F1-optimal threshold and the thresholds that reach a given
precision, via :func:`addin_backend.graph.related.calibrate_threshold`.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import itertools
import json
import sys

__all__ = ["proxy_pairs", "main"]

_MODULES = (
    "json", "re", "os.path", "datetime", "asyncio", "http.client", "sqlite3", "zipfile", "statistics",
    "random", "decimal", "email.message", "shutil", "socket", "threading", "logging", "csv", "hashlib",
    "unittest", "argparse", "tarfile", "gzip", "ssl", "subprocess", "heapq", "bisect", "fractions", "calendar",
)


def proxy_pairs(per_module: int = 12) -> tuple[list[str], list[str]]:
    """``(texts, groups)``: docstring first paragraphs and the module each comes from."""
    texts, groups = [], []
    for m in _MODULES:
        mod = importlib.import_module(m)
        n = 0
        for name, obj in sorted(vars(mod).items()):
            if name.startswith("_") or getattr(obj, "__module__", None) != mod.__name__:
                continue
            doc = inspect.getdoc(obj)
            para = " ".join(doc.split("\n\n")[0].split()) if doc else ""
            if len(para.split()) < 8:
                continue
            texts.append(para)
            groups.append(m)
            n += 1
            if n >= per_module:
                break
    return texts, groups


def main(argv: list[str] | None = None) -> int:
    import numpy as np

    from addin_backend.graph.related import THRESHOLD, calibrate_threshold
    from addin_backend.nlp import embed_texts

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--pairs", help="JSON Lines of {a, b, related}")
    args = p.parse_args(argv)
    scores: list[float] = []
    labels: list[bool] = []
    if args.pairs:
        rows = [json.loads(line) for line in open(args.pairs, encoding="utf-8") if line.strip()]
        va = embed_texts([r["a"] for r in rows])
        vb = embed_texts([r["b"] for r in rows])
        scores = [float(x) for x in (va * vb).sum(axis=1)]
        labels = [bool(r["related"]) for r in rows]
    else:
        texts, groups = proxy_pairs()
        vecs = embed_texts(texts)
        sims = vecs @ vecs.T
        for i, j in itertools.combinations(range(len(texts)), 2):
            scores.append(float(sims[i, j]))
            labels.append(groups[i] == groups[j])
    s, lab = np.array(scores), np.array(labels)
    print(f"{len(s)} pairs, {int(lab.sum())} related")
    print(f"related:   mean {s[lab].mean():.3f}  median {np.median(s[lab]):.3f}")
    print(f"unrelated: mean {s[~lab].mean():.3f}  p95 {np.percentile(s[~lab], 95):.3f}  p99 {np.percentile(s[~lab], 99):.3f}")
    print("best F1:", calibrate_threshold(scores, labels))
    for prec in (0.8, 0.9):
        print(f"precision >= {prec}:", calibrate_threshold(scores, labels, min_precision=prec))
    for t in sorted({0.4, 0.5, 0.6, 0.7, THRESHOLD}):
        sel = s >= t
        prec = lab[sel].mean() if sel.any() else 0.0
        print(f"threshold {t:.2f}: precision {prec:.2f} recall {sel[lab].mean():.2f}" + ("  (default)" if t == THRESHOLD else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
