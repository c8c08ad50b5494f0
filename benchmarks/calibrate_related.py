"""Calibrate the RELATED cuts for MiniLM on the benchmark's topic clusters.

    python -m benchmarks.calibrate_related [--sizes 5k,10k,25k,50k,100k] [--seeds 0,1,2] [--format odt]
        [--out benchmarks/results]

Every benchmark document (each size and seed) is read and given its graph without RELATED;
every pair of embedded units that no other edge links is scored as the RELATED stage scores it
(:func:`addin_backend.graph.related.scored_pairs`: the cosine, how many standard deviations it
stands above both units' mean similarity, and by how much that exceeds the sqrt(2 ln n) expected
of the best of n chance pairs) and labelled from the ground truth's clusters.
Pairs are pooled over documents. Prints the precision / recall curve of the cosine alone and of
the relative cut (above the cosine floor), on all pairs and on paragraph pairs (clusters are
paragraphs; the generator repeats list items, table titles and theorem statements verbatim,
which a reader would call related but the truth does not), the F1-optimal cuts, and writes
``related_pr.png`` and ``related_calibration.json``.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["labelled_pairs", "curve", "main"]

#: Pairs below this cosine are not scored (every cluster pair of the benchmark is above 0.25).
_FLOOR = 0.2


def labelled_pairs(path: Path, truth: dict) -> tuple[list[dict[str, Any]], int]:
    """Scored candidate pairs of one document, labelled; and how many truth pairs are aligned."""
    from adapters import read_path
    from addin_backend.graph import build_graph
    from addin_backend.graph.related import required_deviations, scored_pairs, summaries
    from benchmarks.truth import align

    doc = read_path(str(path))
    G = build_graph(doc, semantic=False)
    mapping = align(doc, truth)
    key = {v: k for k, v in mapping.items()}
    want = {frozenset((e["source"], e["target"])) for e in truth["edges"] if e["type"] == "RELATED"}
    aligned = sum(1 for p in want if all(k in mapping for k in p))
    rows = []
    expected = required_deviations(len(summaries(doc)), 0.0)
    for a, b, cos, dev in scored_pairs(doc, G, floor=_FLOOR):
        if a not in key or b not in key:
            continue
        rows.append({"cos": cos, "dev": dev, "margin": round(dev - expected, 3),
                     "related": frozenset((key[a], key[b])) in want,
                     "paragraphs": doc.unit(a).kind == "paragraph" and doc.unit(b).kind == "paragraph"})
    return rows, aligned


def curve(rows: list[dict], positives: int, score: str, cuts: Sequence[float], *, floor: float = 0.0,
          paragraphs_only: bool = False) -> list[dict[str, float]]:
    """Precision, recall, F1 at each cut of ``score`` ("cos", "dev" or "margin"), pairs under
    ``floor`` out.

    ``paragraphs_only`` counts false positives among paragraph pairs only (recall is unchanged:
    every truth pair is a paragraph pair).

    >>> rows = [{"cos": .9, "dev": 6, "related": True, "paragraphs": True},
    ...         {"cos": .8, "dev": 2, "related": False, "paragraphs": True}]
    >>> curve(rows, 1, "dev", [5]) == [{"cut": 5, "precision": 1.0, "recall": 1.0, "f1": 1.0, "tp": 1, "fp": 0}]
    True
    """
    out = []
    for c in cuts:
        sel = [r for r in rows if r[score] >= c and r["cos"] >= floor]
        tp = sum(r["related"] for r in sel)
        fp = sum(1 for r in sel if not r["related"] and (r["paragraphs"] or not paragraphs_only))
        p = tp / (tp + fp) if tp + fp else 1.0
        rec = tp / positives if positives else 1.0
        out.append({"cut": round(c, 3), "precision": round(p, 4), "recall": round(rec, 4),
                    "f1": round(2 * p * rec / (p + rec), 4) if p + rec else 0.0, "tp": tp, "fp": fp})
    return out


def _plot(curves: dict[str, list[dict]], chosen: dict[str, float], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.6), dpi=110)
    for name, pts in curves.items():
        ax.plot([p["recall"] for p in pts], [p["precision"] for p in pts], marker=".", label=name)
    ax.plot([chosen["recall"]], [chosen["precision_all"]], "k*", markersize=12,
            label=f"chosen: margin {chosen['relative']} over sqrt(2 ln n), cosine >= {chosen['threshold']}")
    ax.plot([chosen["recall"]], [chosen["precision_paragraphs"]], "k*", markersize=12)
    paper = next((q for q in curves.get("cosine alone", []) if q["cut"] == 0.7), None)
    if paper:
        ax.plot([paper["recall"]], [paper["precision"]], "kx", markersize=10, label="the paper's cosine 0.7")
    ax.set_xlabel("recall (truth cluster pairs)")
    ax.set_ylabel("precision")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    ax.set_title("RELATED for MiniLM on the benchmark clusters")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> int:
    from addin_backend.graph.related import RELATIVE, THRESHOLD
    from benchmarks.read_speed import ensure_documents

    p = argparse.ArgumentParser(prog="python -m benchmarks.calibrate_related", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=ROOT / "benchmarks" / "data")
    p.add_argument("--sizes", default="5k,10k,25k,50k,100k")
    p.add_argument("--seeds", default="0,1,2")
    p.add_argument("--format", default="odt", choices=("docx", "odt"))
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    rows: list[dict] = []
    positives = 0
    docs = []
    for seed in [int(s) for s in args.seeds.split(",") if s]:
        data = args.data if seed == 0 else args.data / f"seed{seed}"
        files = ensure_documents(data, [s for s in args.sizes.split(",") if s], [args.format], seed)
        for (_fmt, _size), (path, _tokens) in sorted(files.items(), key=lambda kv: kv[1][1]):
            truth = json.loads(path.with_suffix(".truth.json").read_text(encoding="utf-8"))
            got, n = labelled_pairs(path, truth)
            rows.extend(got)
            positives += n
            docs.append(path.name)
            print(f"{path.name}: {len(got)} pairs scored, {n} truth pairs, "
                  f"{sum(r['related'] for r in got)} of them at cosine >= {_FLOOR}", file=sys.stderr, flush=True)
    cos_cuts = [round(0.30 + 0.025 * i, 3) for i in range(28)]
    dev_cuts = [round(2.0 + 0.25 * i, 2) for i in range(25)]
    margin_cuts = [round(-1.0 + 0.25 * i, 2) for i in range(21)]
    curves = {
        "cosine alone": curve(rows, positives, "cos", cos_cuts),
        "cosine alone, paragraph pairs": curve(rows, positives, "cos", cos_cuts, paragraphs_only=True),
        f"fixed deviations (cosine >= {THRESHOLD})": curve(rows, positives, "dev", dev_cuts, floor=THRESHOLD),
        f"margin over sqrt(2 ln n) (cosine >= {THRESHOLD})": curve(rows, positives, "margin", margin_cuts,
                                                                    floor=THRESHOLD),
        f"margin over sqrt(2 ln n) (cosine >= {THRESHOLD}), paragraph pairs": curve(
            rows, positives, "margin", margin_cuts, floor=THRESHOLD, paragraphs_only=True),
    }
    print(f"{len(rows)} pairs from {len(docs)} documents; {positives} truth RELATED pairs")
    for name, pts in curves.items():
        best = max(pts, key=lambda q: q["f1"])
        print(f"\n{name}: best F1 {best['f1']:.3f} at {best['cut']} (precision {best['precision']:.3f}, "
              f"recall {best['recall']:.3f})")
        print("  " + "  ".join(f"{q['cut']}: P {q['precision']:.2f} R {q['recall']:.2f}" for q in pts[::2]))
    at = {name: next(q for q in pts if q["cut"] == RELATIVE)
          for name, pts in curves.items() if name.startswith("margin")}
    all_pts, para_pts = list(at.values())
    chosen = {"threshold": THRESHOLD, "relative": RELATIVE, "recall": all_pts["recall"],
              "precision_all": all_pts["precision"], "precision_paragraphs": para_pts["precision"]}
    print(f"\nchosen: cosine >= {THRESHOLD} and a margin >= {RELATIVE} deviations over sqrt(2 ln n): precision "
          f"{chosen['precision_all']:.3f} (paragraph pairs {chosen['precision_paragraphs']:.3f}), "
          f"recall {chosen['recall']:.3f}")
    false = [r for r in rows if r["margin"] >= RELATIVE and r["cos"] >= THRESHOLD and not r["related"]]
    chosen["false_positives"] = len(false)
    chosen["false_not_paragraph_pairs"] = sum(1 for r in false if not r["paragraphs"])
    chosen["false_cosine_0_9"] = sum(1 for r in false if r["cos"] >= 0.9)
    print(f"false positives at the chosen cuts: {len(false)}, of which {chosen['false_not_paragraph_pairs']} join "
          f"units other than two paragraphs (list items, tables, captions) and {chosen['false_cosine_0_9']} have "
          f"cosine >= 0.9 (near-verbatim repeats)")
    args.out.mkdir(parents=True, exist_ok=True)
    _plot(curves, chosen, args.out / "related_pr.png")
    (args.out / "related_calibration.json").write_text(
        json.dumps({"documents": docs, "pairs": len(rows), "positives": positives, "chosen": chosen,
                    "curves": curves}, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out / 'related_pr.png'} and {args.out / 'related_calibration.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
