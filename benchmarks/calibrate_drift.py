"""Calibrate the semantic-drift threshold of ``addin_backend.verify.after_edit`` (MiniLM cosine drop).

    python -m benchmarks.calibrate_drift [--sizes 10k,25k] [--seed 0] [--per-doc 120]

For paragraphs of the synthetic benchmark that have DEPENDS or RELATED neighbours, it makes
edits of two sorts and measures, for every (edited unit, neighbour) pair, how much the cosine
drops (before minus after):

* **benign** — what a consistent edit does: a term renamed (one content word swapped for
  another word of the document), a value changed, an on-topic sentence added (the neighbour's
  first sentence), a sentence deleted;
* **drift** — the unit rewritten into something else: replaced by a paragraph of another
  top-level section that is not its neighbour, or all but its first sentence replaced so.

Prints the percentiles of both distributions and, for each candidate threshold, the share of
benign pairs flagged (false alarms) and of drift pairs caught.
"""
from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from typing import Sequence

__all__ = ["edits_for", "measure", "main"]


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def edits_for(text: str, neighbour: str, stranger: str, vocab: list[str], rng: random.Random) -> dict[str, list[str]]:
    """Benign and drifting rewrites of ``text`` (see the module docstring)."""
    benign: list[str] = []
    words = [w for w in re.findall(r"\b[a-z]{6,}\b", text)]
    if words:
        w = rng.choice(words)
        benign.append(re.sub(rf"\b{w}\b", rng.choice(vocab), text, count=1))
    nums = list(re.finditer(r"\b\d+(?:\.\d+)?\b", text))
    if nums:
        m = rng.choice(nums)
        benign.append(text[: m.start()] + str(int(float(m.group(0))) * 2 + 1) + text[m.end() :])
    first = _sentences(neighbour)[:1]
    if first:
        benign.append(f"{text} {first[0]}")
    sents = _sentences(text)
    if len(sents) >= 2:
        benign.append(" ".join(sents[:-1]))
    drift = [stranger]
    if len(sents) >= 2:
        drift.append(" ".join(sents[:1] + _sentences(stranger)))
    return {"benign": benign, "drift": drift}


def _top(doc, unit):
    cur = unit
    while cur.parent and doc.get(cur.parent) is not None:
        cur = doc.unit(cur.parent)
    return cur.id


def measure(size: str, seed: int, per_doc: int, rng: random.Random) -> dict[str, list[tuple[float, float]]]:
    """``{"benign"|"drift": [(cosine before, drop), ...]}`` over one synthetic document."""
    from adapters import read_path
    from addin_backend.graph import build_graph
    from addin_backend.graph.edges import DEPENDS, RELATED
    from addin_backend.language.nlp import embed_texts

    from .synth import build, write_package

    with tempfile.TemporaryDirectory() as tmp:
        path = write_package(build(size, seed), tmp, "docx")
        doc = read_path(str(path))
    G = build_graph(doc)
    paras = [u for u in doc.units if u.kind == "paragraph" and len(u.text.split()) >= 12]
    vocab = sorted({w for u in paras for w in re.findall(r"\b[a-z]{6,}\b", u.text)})
    cases = []
    for u in rng.sample(paras, min(per_doc, len(paras))):
        nbrs = {v for _, v, k in G.out_edges(u.id, keys=True) if k in (DEPENDS, RELATED)}
        nbrs |= {v for v, _, k in G.in_edges(u.id, keys=True) if k in (DEPENDS, RELATED)}
        nbrs = [v for v in nbrs if doc.get(v) is not None and doc.unit(v).text.strip()]
        if not nbrs:
            continue
        strangers = [p for p in paras if _top(doc, p) != _top(doc, u) and p.id not in nbrs]
        v = doc.unit(rng.choice(nbrs))
        variants = edits_for(u.text, v.text, rng.choice(strangers).text, vocab, rng)
        cases.append((u.text, v.text, variants))
    texts = sorted({t for a, b, var in cases for t in [a, b, *var["benign"], *var["drift"]]})
    vecs = embed_texts(texts)
    row = {t: vecs[i] for i, t in enumerate(texts)}
    out: dict[str, list[tuple[float, float]]] = {"benign": [], "drift": []}
    for a, b, var in cases:
        before = float(row[a] @ row[b])
        for kind in ("benign", "drift"):
            for t in var[kind]:
                out[kind].append((before, before - float(row[t] @ row[b])))
    return out


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))] if s else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.calibrate_drift", description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="10k,25k")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--per-doc", type=int, default=120)
    p.add_argument("--floor", type=float, default=0.2, help="ignore pairs whose cosine before is lower")
    args = p.parse_args(argv)
    from addin_backend.verify.after_edit import DRIFT_FLOOR, DRIFT_THRESHOLD

    rng = random.Random(args.seed)
    pairs: dict[str, list[tuple[float, float]]] = {"benign": [], "drift": []}
    for size in [s.strip() for s in args.sizes.split(",") if s.strip()]:
        got = measure(size, args.seed, args.per_doc, rng)
        for k in pairs:
            pairs[k].extend(got[k])
    drops = {k: [d for before, d in v if before >= args.floor] for k, v in pairs.items()}
    for k, v in drops.items():
        qs = " ".join(f"p{int(q * 100)}={_pct(v, q):.3f}" for q in (0.5, 0.9, 0.95, 0.99, 1.0))
        print(f"{k:<7} pairs={len(v):<4} min={min(v):.3f} {qs}")
    print("threshold  benign_flagged  drift_caught")
    for t in (0.05, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3):
        fb = sum(d >= t for d in drops["benign"]) / max(len(drops["benign"]), 1)
        cd = sum(d >= t for d in drops["drift"]) / max(len(drops["drift"]), 1)
        mark = "  <- verify.DRIFT_THRESHOLD" if abs(t - DRIFT_THRESHOLD) < 1e-9 else ""
        print(f"{t:>9.2f}  {fb:>14.3f}  {cd:>12.3f}{mark}")
    print(f"(pairs with cosine before < {args.floor} left out; verify.DRIFT_FLOOR = {DRIFT_FLOOR})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
