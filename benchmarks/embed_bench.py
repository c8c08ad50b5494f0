"""Embedding backends measured in one run: speed, and whether their RELATED edges agree with torch's.

    python -m benchmarks.embed_bench [--files F ...] [--backends torch,onnx,onnx-int8]
                                     [--json OUT] [--markdown OUT]

For every document (default: the development set's A.docx files and the benchmark's
synth-{10k,100k}.docx when they exist) the graph is built without RELATED, the units RELATED
embeds are taken (:func:`addin_backend.graph.related.summaries`: no bibliography entries, no code
lines) and each backend encodes them from a cold in-memory cache (no disk cache): paragraphs per
second and seconds per 10K tokens of embedded text (cl100k), plus the time to load the backend.
The backends run one after the other on each document, so a busy machine slows them alike.

Agreement: each backend's RELATED edges are built from its own vectors and compared with
torch's as Jaccard overlap of the unordered pairs. The calibration (``benchmarks.calibrate_related``)
chose the margin 1.0 on a grid of 0.25 standard deviations, and its F1 is flat within one step
(0.905-0.920 on paragraph pairs from 0.75 to 1.25): it cannot tell those cuts apart. The
tolerance is therefore how far one step moves torch's own edges: the smaller Jaccard of torch's
edges at margin 1.0 against torch's at 0.75 and at 1.25, per document. A backend agrees when its
Jaccard with torch is at least that on every document and over all pairs pooled.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import time
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["default_files", "jaccard", "measure", "main"]


def default_files() -> list[Path]:
    from benchmarks.real_bench import default_devset

    devset = default_devset() / "rfc"
    files = sorted(devset.glob("*.A.docx")) if devset.is_dir() else []
    files += [p for p in (ROOT / "benchmarks" / "data" / f"synth-{n}.docx" for n in ("10k", "100k")) if p.exists()]
    return files


def jaccard(a: set, b: set) -> float:
    """Overlap of two edge sets (1.0 when both are empty).

    >>> jaccard({1, 2, 3}, {2, 3, 4}), jaccard(set(), set())
    (0.5, 1.0)
    """
    return 1.0 if not a and not b else len(a & b) / len(a | b)


def _pairs(G) -> set[frozenset[str]]:
    from addin_backend.graph.edges import RELATED

    return {frozenset((u, v)) for u, v, k in G.edges(keys=True) if k == RELATED}


def _related(base, doc, relative: float) -> set[frozenset[str]]:
    from addin_backend.graph.related import add_related_edges

    G = copy.deepcopy(base)
    add_related_edges(G, doc, relative=relative)
    return _pairs(G)


def measure(paths: Sequence[Path], backends: Sequence[str]) -> dict[str, Any]:
    from adapters import read_path
    from addin_backend.embeddings import encoders as embedders
    from addin_backend.language import nlp
    from addin_backend.graph import build_graph
    from addin_backend.graph.related import RELATIVE, summaries
    from addin_backend.retrieval.tokens import count_tokens

    nlp.configure_embedding_cache(None)  # every backend computes every vector
    encoders, load_s = {}, {}
    for name in backends:
        t0 = time.perf_counter()
        encoders[name] = embedders.load_encoder(name)
        encoders[name].encode(["warm up the session"])
        load_s[name] = round(time.perf_counter() - t0, 2)
    docs: list[dict[str, Any]] = []
    pooled: dict[str, set] = {name: set() for name in backends}
    band_pooled: dict[str, set] = {"0.75": set(), "1.25": set()}
    for path in paths:
        doc = read_path(str(path))
        base = build_graph(doc, semantic=False)
        texts = sorted(set(summaries(doc).values()), key=lambda t: (len(t), t))
        tokens = sum(count_tokens(t) for t in texts)
        row: dict[str, Any] = {"file": path.name, "embedded": len(texts), "units": len(doc.units),
                               "tokens": tokens, "backends": {}}
        edges: dict[str, set] = {}
        for name in backends:
            nlp.EMBEDDINGS.clear()
            os.environ["LEDGER_EMBED_BACKEND"] = name  # the RELATED stage embeds with this backend
            nlp._embedders[name] = encoders[name]
            t0 = time.perf_counter()
            nlp.embed_texts(texts, backend=name)  # timed here; the stage below finds them cached
            seconds = time.perf_counter() - t0
            edges[name] = _related(base, doc, RELATIVE)
            row["backends"][name] = {"seconds": round(seconds, 2),
                                     "paragraphs_per_s": round(len(texts) / seconds, 1),
                                     "s_per_10k_tokens": round(seconds * 10_000 / max(1, tokens), 2),
                                     "edges": len(edges[name])}
            pooled[name] |= {(path.name, p) for p in edges[name]}
            if name == "torch":  # one calibration step either way, on torch's vectors
                band = {cut: _related(base, doc, RELATIVE + delta) for cut, delta in (("0.75", -0.25), ("1.25", 0.25))}
                for cut in band:
                    band_pooled[cut] |= {(path.name, p) for p in band[cut]}
                row["tolerance"] = round(min(jaccard(edges["torch"], b) for b in band.values()), 3)
        if "torch" in edges:
            for name in backends:
                row["backends"][name]["jaccard_vs_torch"] = round(jaccard(edges[name], edges["torch"]), 3)
        docs.append(row)
        print(_line(row), flush=True)
    os.environ.pop("LEDGER_EMBED_BACKEND", None)
    out: dict[str, Any] = {"backends": list(backends), "load_s": load_s, "documents": docs, "summary": {}}
    for name in backends:
        secs = sum(d["backends"][name]["seconds"] for d in docs)
        n = sum(d["embedded"] for d in docs)
        toks = sum(d["tokens"] for d in docs)
        summary = {"paragraphs_per_s": round(n / secs, 1) if secs else None,
                   "s_per_10k_tokens": round(secs * 10_000 / max(1, toks), 2), "load_s": load_s[name]}
        if "torch" in pooled:
            summary["jaccard_vs_torch"] = round(jaccard(pooled[name], pooled["torch"]), 3)
            summary["agrees"] = (summary["jaccard_vs_torch"] >= min(jaccard(pooled["torch"], b) for b in band_pooled.values())
                                 and all(d["backends"][name]["jaccard_vs_torch"] >= d["tolerance"] for d in docs))
        out["summary"][name] = summary
    if "torch" in pooled:
        out["tolerance_pooled"] = round(min(jaccard(pooled["torch"], b) for b in band_pooled.values()), 3)
    return out


def _line(row: dict[str, Any]) -> str:
    parts = [f"{row['file']:<24} {row['embedded']:>5} texts {row['tokens']:>7} tok"]
    for name, b in row["backends"].items():
        agree = f" J={b['jaccard_vs_torch']:.3f}" if "jaccard_vs_torch" in b else ""
        parts.append(f"{name} {b['paragraphs_per_s']:>6.1f}/s {b['edges']:>4}e{agree}")
    if "tolerance" in row:
        parts.append(f"tolerance {row['tolerance']:.3f}")
    return "  ".join(parts)


def markdown(result: dict[str, Any]) -> str:
    """The summary table (for docs/scale.md)."""
    lines = ["| backend | load s | paragraphs/s | s per 10K tokens | RELATED Jaccard vs torch | within tolerance |",
             "| --- | ---: | ---: | ---: | ---: | --- |"]
    for name, s in result["summary"].items():
        lines.append(f"| {name} | {s['load_s']:.2f} | {s['paragraphs_per_s']:.1f} | {s['s_per_10k_tokens']:.2f} | "
                     f"{s.get('jaccard_vs_torch', float('nan')):.3f} | {'yes' if s.get('agrees') else 'no'} |")
    if "tolerance_pooled" in result:
        lines.append("")
        lines.append(f"Tolerance (one calibration step, 0.25 sd, pooled over the documents): Jaccard "
                     f">= {result['tolerance_pooled']:.3f}; per document: "
                     + ", ".join(f"{d['file']} {d['tolerance']:.3f}" for d in result["documents"]) + ".")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.embed_bench", description=__doc__.split("\n")[0])
    p.add_argument("--files", nargs="+", type=Path)
    p.add_argument("--backends", default="torch,onnx,onnx-int8")
    p.add_argument("--json", type=Path)
    p.add_argument("--markdown", type=Path)
    args = p.parse_args(argv)
    files = args.files or default_files()
    if not files:
        p.error("no documents: give --files, or provide the development set / make bench-data")
    result = measure(files, [b.strip() for b in args.backends.split(",") if b.strip()])
    table = markdown(result)
    print(table)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    if args.markdown:
        args.markdown.write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
