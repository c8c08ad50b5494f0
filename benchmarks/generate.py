"""Command line: write the synthetic benchmark documents (.docx, .odt) and their ground truth.

    python -m benchmarks.generate --out DIR [--sizes 5k,10k,25k,50k,100k] [--formats docx,odt] [--seed N]
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from typing import Sequence

from .synth import SIZES, GenerationError, build, parse_size, write_package, write_truth

__all__ = ["generate", "main", "summary_line"]

FORMATS = ("docx", "odt")


def summary_line(truth: dict) -> str:
    """One line per document: tokens, units, edges by type."""
    kinds = Counter(e["type"] for e in truth["edges"])
    edges = " ".join(f"{t}={kinds.get(t, 0)}" for t in ("CONTAINS", "REFERENCES", "DEPENDS", "RELATED"))
    return (f"{truth['name']:<14} tokens={truth['tokens']:<7} units={len(truth['units']):<5} {edges} "
            f"broken={len(truth['broken'])} clusters={len(truth['clusters'])}")


def generate(out: str, sizes: Sequence[str], formats: Sequence[str], seed: int = 0, progress: bool = True) -> list[dict]:
    """Generate every size in every format into ``out``; return the truths, in order."""
    from tqdm import tqdm

    truths = []
    steps = tqdm(total=len(sizes) * (1 + len(formats)), desc="generating", unit="file", disable=not progress,
                 file=sys.stderr)
    with steps:
        for size in sizes:
            steps.set_postfix_str(size)
            doc = build(size, seed)
            write_truth(doc, out)
            steps.update(1)
            for fmt in formats:
                write_package(doc, out, fmt)
                steps.update(1)
            truths.append(doc.truth)
    return truths


def _list(value: str, allowed: Sequence[str] | None = None) -> list[str]:
    items = [v.strip().lower() for v in value.split(",") if v.strip()]
    if allowed is not None:
        bad = [v for v in items if v not in allowed]
        if bad:
            raise argparse.ArgumentTypeError(f"unknown {', '.join(bad)} (choose from {', '.join(allowed)})")
    return items


def _sizes(value: str) -> list[str]:
    items = _list(value)
    for v in items:
        try:
            if parse_size(v) < 1000:
                raise ValueError
        except ValueError:
            raise argparse.ArgumentTypeError(f"bad size {v!r} (like 5k or 12000, at least 1000 tokens)") from None
    return items


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.generate", description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--sizes", type=_sizes, default=list(SIZES), help="comma-separated, e.g. 5k,10k (default: all)")
    p.add_argument("--formats", type=lambda v: _list(v, FORMATS), default=list(FORMATS), help="docx,odt")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    start = time.perf_counter()
    try:
        truths = generate(args.out, args.sizes, args.formats, args.seed, progress=not args.quiet)
    except GenerationError as exc:  # a generator bug: say so plainly
        sys.stderr.write(f"benchmarks.generate: inconsistent ground truth: {exc}\n")
        return 1
    for truth in truths:
        print(summary_line(truth))
    print(f"wrote {len(truths)} document(s) x {len(args.formats)} format(s) to {args.out} "
          f"in {time.perf_counter() - start:.1f}s")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
