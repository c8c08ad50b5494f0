"""Where the semantic stage (RELATED) spends its CPU, and what a shorter summary costs in quality.

    python -m benchmarks.semantic_profile [--files DOC ...] [--budgets 256,64,48,32]
        [--truth DOC ...] [--json OUT]

Profile (every ``--files`` document, default rfc9000.A.docx and the largest file of
``devset/wild/``): the graph is built without RELATED, then the stage's parts are timed one by one
in this process, CPU seconds (all threads): the summaries (:func:`addin_backend.graph.related.summaries`),
the tokenisation, the model (the ONNX runs of the RELATED encoder, batched as it batches them),
and the rest of :func:`~addin_backend.graph.related.scored_pairs` with every vector already in
memory (the statistics, the neighbour search and the pair filters), the statistics also alone.
Each line also gives the embedded texts and their word pieces (mean, median, 90th percentile).

Budgets (``--budgets``): the RELATED edges each summary budget in word pieces gives (the same
documents and the ``--truth`` documents, the benchmark's synthetic ones with their ``.truth.json``),
the word pieces embedded and the stage's CPU seconds; precision and recall against the truth's
RELATED pairs where there is one, and the Jaccard overlap with the first budget's edges (give the
widest first): how far the cut moves the edges, against the tolerance ``embed_bench`` uses (one
calibration step).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["default_files", "profile", "budgets", "main"]


def default_files() -> list[Path]:
    """rfc9000.A.docx and the largest document of ``devset/wild/`` (those that exist)."""
    from benchmarks.real_bench import default_devset

    devset = default_devset()
    out = [devset / "rfc" / "rfc9000.A.docx"]
    wild = [p for p in (devset / "wild").glob("*") if p.suffix in (".docx", ".odt")]
    if wild:
        out.append(max(wild, key=lambda p: p.stat().st_size))
    return [p for p in out if p.exists()]


def _cpu() -> float:
    return time.process_time()


def profile(path: Path) -> dict[str, Any]:
    """The semantic stage of ``path`` in parts, CPU seconds each (see the module's docstring)."""
    import numpy as np

    from adapters import read_path
    from addin_backend.embeddings.encoders import length_batches, related_backend
    from addin_backend.graph import build_graph
    from addin_backend.graph import related as R
    from addin_backend.language import nlp

    nlp.configure_embedding_cache(None)
    doc = read_path(str(path))
    G = build_graph(doc, semantic=False)
    encoder = nlp.get_embedder(related_backend())
    encoder.encode(["warm up the session"])
    c0 = _cpu()
    summ = R.summaries(doc)
    c1 = _cpu()
    texts = sorted(set(summ.values()), key=lambda t: (len(t), t))
    c2 = _cpu()
    pieces = [e.ids for e in encoder.tokenizer.encode_batch(texts)] if hasattr(encoder, "tokenizer") else []
    c3 = _cpu()
    for batch in length_batches([len(p) for p in pieces]):
        encoder._run([pieces[i] for i in batch])  # the model alone, one batch after the other
    c4 = _cpu()
    nlp.EMBEDDINGS.clear()
    vecs = nlp.embed_texts(texts, backend=related_backend())  # now cached in memory for scored_pairs
    c5 = _cpu()
    R._row_stats(vecs)
    c6 = _cpu()
    R.scored_pairs(doc, G, floor=R.THRESHOLD, min_deviations=R.required_deviations(len(summ)), summ=summ)
    c7 = _cpu()
    lengths = np.array([len(p) for p in pieces] or [0])
    units = len(doc.units)
    row: dict[str, Any] = {"file": path.name, "units": units, "embedded": len(texts), "pieces": int(lengths.sum()),
           "pieces_mean": round(float(lengths.mean()), 1), "pieces_p50": int(np.median(lengths)),
           "pieces_p90": int(np.percentile(lengths, 90)),
           "cpu_s": {"summaries": round(c1 - c0, 3), "tokenise": round(c3 - c2, 3), "model": round(c4 - c3, 3),
                     "encode_call": round(c5 - c4, 3), "statistics": round(c6 - c5, 3),
                     "search_and_filters": round(c7 - c6, 3)}}
    row["model_us_per_piece"] = round(1e6 * (c4 - c3) / max(1, int(lengths.sum())), 1)
    return row


def _truth(path: Path) -> dict[str, Any] | None:
    tp = path.with_suffix(".truth.json")
    return json.loads(tp.read_text(encoding="utf-8")) if tp.exists() else None


def budgets(paths: Sequence[Path], sizes: Sequence[int]) -> list[dict[str, Any]]:
    """For each document and budget (word pieces per summary): the RELATED pairs, pieces, CPU s,
    Jaccard against the first budget's pairs, and precision / recall where a truth file exists."""
    from adapters import read_path
    from addin_backend.embeddings.encoders import related_backend
    from addin_backend.graph import build_graph
    from addin_backend.graph import related as R
    from addin_backend.graph.edges import RELATED
    from addin_backend.language import nlp
    from benchmarks.embed_bench import jaccard

    nlp.configure_embedding_cache(None)
    encoder = nlp.get_embedder(related_backend())
    rows: list[dict[str, Any]] = []
    default = R.SUMMARY_PIECES
    try:
        for path in paths:
            doc = read_path(str(path))
            truth = _truth(path)
            first: set | None = None
            for size in sizes:
                R.SUMMARY_PIECES = size
                G = build_graph(doc, semantic=False)
                nlp.EMBEDDINGS.clear()
                c0 = _cpu()
                R.add_related_edges(G, doc)
                cpu = _cpu() - c0
                texts = list(R.summaries(doc).values())
                pieces = sum(len(e.ids) for e in encoder.tokenizer.encode_batch(texts)) if hasattr(encoder, "tokenizer") else 0
                pairs = {frozenset((u, v)) for u, v, k in G.edges(keys=True) if k == RELATED}
                first = pairs if first is None else first
                row: dict[str, Any] = {"file": path.name, "budget": size, "units": len(doc.units), "pieces": pieces,
                                       "cpu_s": round(cpu, 2), "pairs": len(pairs),
                                       "jaccard_vs_first": round(jaccard(pairs, first), 3)}
                if truth is not None:
                    from benchmarks.truth import align

                    key = {v: k for k, v in align(doc, truth).items()}
                    want = {frozenset((e["source"], e["target"])) for e in truth["edges"] if e["type"] == "RELATED"}
                    got = {frozenset(key.get(x, x) for x in p) for p in pairs}
                    hit = len(want & got)
                    row.update(truth_pairs=len(want), precision=round(hit / len(got), 3) if got else 1.0,
                               recall=round(hit / len(want), 3) if want else 1.0)
                rows.append(row)
                print(json.dumps(row), flush=True)
    finally:
        R.SUMMARY_PIECES = default
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.semantic_profile", description=__doc__.split("\n")[0])
    p.add_argument("--files", nargs="+", type=Path)
    p.add_argument("--truth", nargs="*", type=Path, default=[], help="documents with a .truth.json beside them")
    p.add_argument("--budgets", default="", help="word-piece budgets per summary, widest first: 256,64,48,32")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    files = args.files or default_files()
    out: dict[str, Any] = {"profile": []}
    if not args.budgets:
        for path in files:
            row = profile(path)
            out["profile"].append(row)
            cpu = row["cpu_s"]
            print(f"{row['file']}: {row['units']:,} units, {row['embedded']:,} texts embedded, {row['pieces']:,} word pieces "
                  f"(mean {row['pieces_mean']}, median {row['pieces_p50']}, p90 {row['pieces_p90']}); CPU s: "
                  + ", ".join(f"{k} {v}" for k, v in cpu.items())
                  + f"; model {row['model_us_per_piece']} us per piece", flush=True)
    else:
        out["budgets"] = budgets([*files, *args.truth], [int(x) for x in args.budgets.split(",") if x.strip()])
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
