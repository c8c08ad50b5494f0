"""Retrieval benchmark: LEDGER's dependency-aware context against the paper's baselines.

    python -m benchmarks.retrieval_bench [--sizes 5k,10k,25k,50k,100k] [--formats docx]
        [--budget 1500] [--per-category 8] [--no-semantic] [--out benchmarks/results]

For every benchmark document: read it, build the graph, align it with the ground truth, make
the edit cases (``benchmarks.edit_cases``), identify each case's targets the way a client
would (the selection, a label or a term in the instruction), then ask every strategy for the
context of the same targets. Reported per strategy: required-unit recall (the ceiling of the
consistency an editor given this context can reach), precision, tokens per edit and tokens as
a share of the document, by category and by size; the LEDGER retrieval time per edit on the
built graph; how often the targets were identified right. Iterative cases apply each step to
the document and update the graph incrementally before the next step.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "benchmarks" / "results"
STRATEGY_NAMES = {
    "ledger": "LEDGER",
    "hier_rag": "Hierarchical RAG",
    "flat_rag": "Flat RAG",
    "window": "Sliding window (4K)",
    "full": "Full document",
}

__all__ = ["run_document", "summarise", "main"]


def _recall_precision(required: set[str], got: list[str]) -> tuple[float, float]:
    hit = len(required & set(got))
    return (hit / len(required) if required else 1.0), (hit / len(got) if got else 0.0)


def run_document(path: Path, truth: dict, *, budget: int, per_category: int, semantic: bool,
                 strategies: tuple[str, ...], log=print) -> list[dict[str, Any]]:
    """Every case of one document under every strategy: one record per (case step, strategy)."""
    from adapters import read_path
    from adapters.model import SetText
    from addin_backend.edits.operations import apply_to_document
    from addin_backend.graph import build_graph, update_graph
    from addin_backend.language.nlp import embed_texts
    from addin_backend.retrieval import document_tokens, retrieve
    from addin_backend.retrieval.targets import identify_targets
    from benchmarks.edit_cases import make_cases
    from benchmarks.truth import align

    doc = read_path(str(path))
    t0 = time.perf_counter()
    G = build_graph(doc, semantic=semantic)
    build_s = time.perf_counter() - t0
    mapping = align(doc, truth)
    doc_tokens = document_tokens(doc)
    log(f"  {path.name}: {len(doc.units)} units, {doc_tokens} tokens, graph {build_s:.1f}s; {mapping.summary()}")
    if any(s in strategies for s in ("flat_rag", "hier_rag")):
        embed_texts([u.text for u in doc.units if u.text.strip()])  # warm the cache: RAG pays no model load
    records: list[dict[str, Any]] = []
    for case in make_cases(truth, per_category=per_category):
        cur_doc, cur_G = doc, G
        if case.category == "iterative":
            import copy

            cur_G = copy.deepcopy(G)
        for n, step in enumerate(case.steps):
            required = {mapping[k] for k in step.required if k in mapping}
            truth_targets = [mapping[k] for k in step.target_keys if k in mapping]
            try:
                found = identify_targets(cur_doc, selection=step.selection,
                                         instruction=None if step.selection else step.instruction, G=cur_G)
                targets = found.ids
            except Exception as exc:  # a case whose target cannot be found counts as a miss
                log(f"    {case.id}: no target ({exc})")
                targets = []
            target_ok = bool(targets) and set(truth_targets) <= set(targets)
            for strategy in strategies:
                if not targets:
                    records.append(dict(case=case.id, step=n, category=case.category, strategy=strategy,
                                        size=truth["name"], doc_tokens=doc_tokens, recall=0.0, precision=0.0,
                                        tokens=0, share=0.0, seconds=0.0, target_ok=False, required=len(required)))
                    continue
                res = retrieve(cur_doc, cur_G, targets, instruction=step.instruction, budget=budget,
                               strategy=strategy, embed=embed_texts)
                got = res.ids
                recall, precision = _recall_precision(required, got)
                records.append(dict(case=case.id, step=n, category=case.category, strategy=strategy,
                                    size=truth["name"], doc_tokens=doc_tokens, recall=recall, precision=precision,
                                    tokens=res.tokens, share=res.share, seconds=res.seconds, target_ok=target_ok,
                                    dep_tokens=res.dependency_tokens,
                                    required=len(required),
                                    missed=sorted(required - set(got))[:5] if strategy == "ledger" else []))
            if step.rewrite and truth_targets:
                new_doc = apply_to_document(cur_doc, [SetText(unit=truth_targets[0], text=step.rewrite)])
                update_graph(cur_G, cur_doc, new_doc)
                cur_doc = new_doc
    return records


def _median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else 0.0


def summarise(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Aggregates: by strategy x category, by strategy x size, retrieval times, target accuracy."""
    by_cat: dict[tuple[str, str], list[dict]] = defaultdict(list)
    by_size: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in records:
        by_cat[(r["strategy"], r["category"])].append(r)
        by_cat[(r["strategy"], "all")].append(r)
        by_size[(r["strategy"], r["size"])].append(r)

    def agg(rs: list[dict]) -> dict[str, float]:
        return {
            "cases": len(rs),
            "recall": round(statistics.fmean(r["recall"] for r in rs), 4),
            "precision": round(statistics.fmean(r["precision"] for r in rs), 4),
            "tokens_median": round(_median([r["tokens"] for r in rs]), 1),
            "dependency_tokens_median": round(_median([r.get("dep_tokens", r["tokens"]) for r in rs]), 1),
            "share_median": round(_median([r["share"] for r in rs]), 4),
            "doc_tokens": round(_median([r["doc_tokens"] for r in rs])),
        }

    ledger = [r for r in records if r["strategy"] == "ledger"]
    return {
        "by_category": {f"{s}|{c}": agg(rs) for (s, c), rs in sorted(by_cat.items())},
        "by_size": {f"{s}|{z}": agg(rs) for (s, z), rs in sorted(by_size.items())},
        "ledger_seconds": {
            z: round(_median([r["seconds"] for r in ledger if r["size"] == z]) * 1000, 2)
            for z in sorted({r["size"] for r in ledger})
        },
        "target_accuracy": round(statistics.fmean(r["target_ok"] for r in ledger), 4) if ledger else 0.0,
    }


def _table(summary: dict[str, Any], strategies: tuple[str, ...], categories: list[str]) -> str:
    lines = ["| category | " + " | ".join(STRATEGY_NAMES[s] for s in strategies) + " |",
             "|---|" + "---|" * len(strategies)]
    for c in categories:
        cells = []
        for s in strategies:
            a = summary["by_category"].get(f"{s}|{c}")
            cells.append(f"{a['recall']:.3f} / {a['precision']:.2f} / {a['tokens_median']:.0f}" if a else "-")
        lines.append(f"| {c} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _size_table(summary: dict[str, Any], strategies: tuple[str, ...], sizes: list[str]) -> str:
    lines = ["| document | tokens | " + " | ".join(STRATEGY_NAMES[s] for s in strategies) + " | LEDGER ms |",
             "|---|---|" + "---|" * (len(strategies) + 1)]
    for z in sizes:
        first = summary["by_size"].get(f"{strategies[0]}|{z}")
        if not first:
            continue
        cells = []
        for s in strategies:
            a = summary["by_size"].get(f"{s}|{z}")
            deps = f" [deps {a['dependency_tokens_median']:.0f}]" if a and s == "ledger" else ""
            cells.append(f"{a['tokens_median']:.0f}{deps} ({a['share_median'] * 100:.1f}%), R={a['recall']:.3f}" if a else "-")
        lines.append(f"| {z} | {first['doc_tokens']} | " + " | ".join(cells)
                     + f" | {summary['ledger_seconds'].get(z, 0):.1f} |")
    return "\n".join(lines)


def _plot(summary: dict[str, Any], strategies: tuple[str, ...], sizes: list[str], path: Path) -> None:
    """Two panels: tokens per edit against size (log-log), and required-unit recall against size."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), dpi=120)
    for s in strategies:
        rows = [summary["by_size"].get(f"{s}|{z}") for z in sizes]
        rows = [a for a in rows if a]
        xs = [a["doc_tokens"] for a in rows]
        width = 2.6 if s == "ledger" else 1.4
        left.plot(xs, [a["tokens_median"] for a in rows], marker="o", label=STRATEGY_NAMES[s], linewidth=width)
        right.plot(xs, [a["recall"] for a in rows], marker="o", label=STRATEGY_NAMES[s], linewidth=width)
        if s == "ledger":
            left.plot(xs, [a["dependency_tokens_median"] for a in rows], marker=".", linestyle="--",
                      color=left.lines[-1].get_color(), label="LEDGER, dependencies only")
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_xlabel("document size (cl100k tokens)")
        ax.grid(True, which="both", alpha=0.3)
    left.set_yscale("log")
    left.set_ylabel("context tokens per edit (median)")
    left.set_title("Tokens per edit")
    right.set_ylim(0, 1.05)
    right.set_ylabel("required-unit recall (mean)")
    right.set_title("Required units in the context (same budget)")
    left.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.read_speed import ensure_documents

    p = argparse.ArgumentParser(prog="python -m benchmarks.retrieval_bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=ROOT / "benchmarks" / "data")
    p.add_argument("--sizes", default="5k,10k,25k,50k,100k")
    p.add_argument("--formats", default="docx")
    p.add_argument("--budget", type=int, default=1500)
    p.add_argument("--per-category", type=int, default=8)
    p.add_argument("--strategies", default=",".join(STRATEGY_NAMES))
    p.add_argument("--no-semantic", action="store_true", help="build the graph without RELATED edges")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--doc", type=Path, help="Markdown file whose retrieval-bench block is replaced (make bench-retrieval: docs/benchmarks.md)")
    args = p.parse_args(argv)
    sizes = [s for s in args.sizes.split(",") if s]
    formats = [f for f in args.formats.split(",") if f]
    strategies = tuple(s for s in args.strategies.split(",") if s)
    docs = ensure_documents(args.data, sizes, formats)
    records: list[dict[str, Any]] = []
    for fmt in formats:
        for size in sizes:
            path, _tokens = docs[(fmt, size)]
            truth = json.loads(path.with_suffix(".truth.json").read_text(encoding="utf-8"))
            truth = dict(truth, name=size)
            recs = run_document(path, truth, budget=args.budget, per_category=args.per_category,
                                semantic=not args.no_semantic, strategies=strategies,
                                log=lambda m: print(m, file=sys.stderr))
            for r in recs:
                r["format"] = fmt
            records.extend(recs)
    summary = summarise(records)
    categories = ["local_refinement", "cross_reference", "structural", "content_addition", "terminology",
                  "iterative", "all"]
    by_category, by_size = _table(summary, strategies, categories), _size_table(summary, strategies, sizes)
    print(f"\nRequired-unit recall / precision / median tokens per edit (budget {args.budget}), by category:\n")
    print(by_category)
    print("\nMedian tokens per edit (share of the document) and recall, by size:\n")
    print(by_size)
    if args.doc:
        from benchmarks.doc_block import replace_block

        given = list(argv if argv is not None else sys.argv[1:])
        shown = [a for i, a in enumerate(given) if a != "--doc" and (i == 0 or given[i - 1] != "--doc")]
        command = " ".join(["python -m benchmarks.retrieval_bench", *shown])
        replace_block(args.doc, "retrieval-bench", (
            f"Measured {time.strftime('%Y-%m-%d')} with `{command}` ({', '.join(formats)}; all sizes). Required-unit "
            f"recall / precision / median tokens per edit (budget {args.budget}), by category:\n\n{by_category}\n\n"
            f"Median tokens per edit (share of the document) and recall, by size:\n\n{by_size}\n"), "Retrieval benchmark")
    print(f"\nTargets identified right: {summary['target_accuracy'] * 100:.1f}% of LEDGER cases")
    misses = [r for r in records if r["strategy"] == "ledger" and r["recall"] < 1.0]
    args.out.mkdir(parents=True, exist_ok=True)
    # what the plot and the README's tables need, and the cases worth reading; not every record
    below = [{k: r.get(k) for k in ("case", "step", "format", "recall", "target_ok", "missed")} for r in misses]
    (args.out / "retrieval.json").write_text(json.dumps({"summary": summary, "below_full_recall": below}, indent=1))
    _plot(summary, strategies, sizes, args.out / "retrieval_tokens.png")
    print(f"\nLEDGER cases below full recall: {len(misses)} of "
          f"{sum(1 for r in records if r['strategy'] == 'ledger')}")
    for r in misses[:12]:
        print(f"  {r['case']} step {r['step']}: recall {r['recall']:.2f}, target_ok={r['target_ok']}, "
              f"missed {r['missed']}")
    print(f"\nwrote {args.out / 'retrieval.json'} and {args.out / 'retrieval_tokens.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
