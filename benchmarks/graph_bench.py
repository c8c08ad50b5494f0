"""Graph benchmark: the dependency graph against the generated ground truth, its speed and memory.

    python -m benchmarks.graph_bench [--sizes 5k,10k,25k,50k,100k] [--formats docx,odt] [--reps 5]
        [--semantic-reps 1] [--no-semantic] [--out benchmarks/results] [--readme docs/benchmarks.md] [--quick]

For every size and format, each measurement runs in a fresh interpreter, so model loading and
peak memory are those of one document:

* fast (``--reps`` times, interleaved with ``pandoc -f FMT -t json`` on the same file): read ->
  ``build_graph(semantic=False)``; seconds per stage, the whole process's wall time (interpreter
  start to graph built, the figure comparable with pandoc's), peak RSS; then alignment with the
  truth and precision / recall / F1 per edge type, per ``how`` (recall) and per ``origin``
  (precision), with examples of misses and spurious edges;
* semantic (``--semantic-reps`` times, after the fast runs): the same with RELATED (MiniLM
  embeddings), the model load timed apart.

Prints a table, writes ``graph.json``, ``graph.md`` and two PNG plots into ``--out`` and
replaces the graph-bench block of ``--readme`` (``docs/benchmarks.md``). ``--quick`` (5K and 10K, one
repetition) writes nothing unless ``--out`` / ``--readme`` are given.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from adapters.vocabulary import EDGE_TYPES

# The measuring child imports only what ``ledger graph`` needs before the graph is built; the
# parent's tools (subprocess, statistics, platform, shutil) are imported where they are used.

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "benchmarks" / "results"
DEFAULT_DATA = ROOT / "benchmarks" / "data"
FULL_SIZES = ("5k", "10k", "25k", "50k", "100k")
QUICK_SIZES = ("5k", "10k")
#: The issue's targets: (type, precision, recall) on the benchmark.
TARGETS = {"REFERENCES": (0.98, 0.99), "DEPENDS": (0.80, 0.85)}

__all__ = ["TARGETS", "measure_document", "pandoc_seconds", "run", "main"]


# --- one document, in a fresh process ----------------------------------------------------------


def _cpu() -> float:
    """CPU seconds of this process, all threads (less sensitive than wall time to other load)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _snippet(text: str, limit: int = 110) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1] + "\u2026"


def _examples(G, report: dict, truth: dict, mapping: dict, typ: str, limit: int = 8) -> dict[str, list]:
    """Misses (truth edges not found) and spurious edges (found, not in the truth), with text."""
    units = {u["key"]: u for u in truth["units"]}

    def label(key: str) -> str:
        u = units[key]
        return u.get("label") or f"{u['kind']} '{_snippet(u['text'], 40)}'"

    misses = [
        {**m, "source_text": _snippet(units[m["source"]]["text"]), "target_label": label(m["target"])}
        for m in report["misses"][:limit]
    ]
    spurious = []
    for s in report["spurious"][:limit]:
        a, b = mapping.get(s["source"]), mapping.get(s["target"])
        data = G.get_edge_data(a, b, key=typ) or G.get_edge_data(b, a, key=typ) or {}
        spurious.append({**s, "evidence": data.get("evidence"), "origin": data.get("origin"),
                         "source_text": _snippet(units[s["source"]]["text"]), "target_label": label(s["target"])})
    return {"misses": misses, "spurious": spurious}


def _by_origin(G, truth: dict, mapping: dict) -> dict[str, dict[str, dict[str, int]]]:
    """Precision per detector: predicted edges of each ``origin`` that the truth holds."""
    key_of = {uid: key for key, uid in mapping.items()}
    want = {(e["source"], e["target"], e["type"]) for e in truth["edges"]}
    want |= {(e["target"], e["source"], e["type"]) for e in truth["edges"] if e["type"] == "RELATED"}
    out: dict[str, dict[str, dict[str, int]]] = {}
    for u, v, k, d in G.edges(keys=True, data=True):
        if u not in key_of or v not in key_of or k == "CONTAINS":
            continue
        slot = out.setdefault(k, {}).setdefault(str(d.get("origin") or "-"), {"tp": 0, "fp": 0})
        slot["tp" if (key_of[u], key_of[v], k) in want else "fp"] += 1
    return out


def _broken(G, truth: dict, mapping: dict) -> dict[str, Any]:
    """Broken references found (mentions of labels no unit carries) against the truth's list."""
    key_of = {uid: key for key, uid in mapping.items()}
    want = {(b["source"], b["evidence"]) for b in truth.get("broken", [])}
    got = {(key_of.get(b["source"], b["source"]), b["mention"]) for b in G.graph.get("broken_references", [])}
    tp = len(want & got)
    return {"precision": round(tp / len(got), 4) if got else 1.0, "recall": round(tp / len(want), 4) if want else 1.0,
            "tp": tp, "fp": len(got - want), "fn": len(want - got),
            "spurious": [{"source": s, "mention": m} for s, m in sorted(got - want)][:8],
            "misses": [{"source": s, "evidence": e} for s, e in sorted(want - got)][:8]}


def measure_document(path: str, truth_path: str, semantic: bool, started: float | None = None) -> dict[str, Any]:
    """Read, build and score one document in this process (call it in a fresh one)."""
    t_import = time.perf_counter()
    from adapters import read_path
    from addin_backend.graph import build_graph

    imports = time.perf_counter() - t_import
    load_s = 0.0
    if semantic:
        from addin_backend.embeddings.encoders import related_backend
        from addin_backend.language.nlp import get_embedder

        t0 = time.perf_counter()
        get_embedder(related_backend())
        load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    cpu0 = _cpu()
    doc = read_path(path)
    read_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    G = build_graph(doc, semantic=semantic)
    build_s = time.perf_counter() - t1
    cpu_s = _cpu() - cpu0
    done_wall = time.time()
    peak = _peak_rss_mb()
    from benchmarks.truth import align, load, score_edges

    truth = load(truth_path)
    mapping = align(doc, truth)
    report = score_edges(G, truth, mapping, examples=10_000)
    types = EDGE_TYPES if semantic else EDGE_TYPES[:3]
    scores = {}
    for t in types:
        r = report[t]
        scores[t] = {k: (round(v, 4) if isinstance(v, float) else v)
                     for k, v in r.items() if k not in ("misses", "spurious")}
        scores[t].update(_examples(G, r, truth, mapping, t))
    origins = _by_origin(G, truth, mapping)
    scores["broken"] = _broken(G, truth, mapping)
    stages = dict(G.graph["stats"]["seconds_by_stage"])
    return {
        "path": os.path.relpath(path, ROOT),
        "format": Path(path).suffix.lstrip("."),
        "semantic": semantic,
        "tokens": truth["tokens"],
        "units": len(doc.units),
        "alignment": mapping.summary(),
        "seconds": {
            "imports": round(imports, 4),
            "model_load": round(load_s, 4),
            "read": round(read_s, 4),
            **{k: round(v, 4) for k, v in stages.items()},
            "graph": round(build_s, 4),
            "read_and_graph": round(read_s + build_s, 4),
            "read_and_graph_cpu": round(cpu_s, 4),
            "process": round(done_wall - started, 4) if started else None,
        },
        "peak_rss_mb": peak,
        "edges": G.graph["stats"]["edges_by_type"],
        "scores": scores,
        "precision_by_origin": {t: v for t, v in origins.items() if t in types},
    }


# --- the parent: subprocesses, pandoc, interleaving ----------------------------------------------


def _env() -> dict[str, str]:
    return dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false",
                PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _child(path: Path, truth: Path, semantic: bool, timeout: float = 1800) -> dict[str, Any]:
    import subprocess

    cmd = [sys.executable, "-m", "benchmarks.graph_bench", "--one", str(path), "--truth", str(truth),
           "--started", repr(time.time())]
    if semantic:
        cmd.append("--semantic")
    proc = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        tail = (proc.stderr or "").strip().splitlines()[-3:]
        raise RuntimeError(f"{path.name}: the measuring process failed: {' | '.join(tail)}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def pandoc_seconds(path: Path, fmt: str, timeout: float = 600) -> float | None:
    """Wall time of one cold ``pandoc -f FMT -t json`` on ``path`` (None without pandoc)."""
    import shutil
    import subprocess

    pandoc = shutil.which("pandoc")
    if not pandoc:
        return None
    t0 = time.perf_counter()
    subprocess.run([pandoc, "-f", fmt, "-t", "json", str(path)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True, timeout=timeout)
    return time.perf_counter() - t0


def _median(xs: list[float]) -> float | None:
    import statistics

    xs = [x for x in xs if x is not None]
    return round(statistics.median(xs), 4) if xs else None


def run(sizes: Sequence[str], formats: Sequence[str], *, data: Path = DEFAULT_DATA, reps: int = 5,
        semantic: bool = True, semantic_reps: int = 1, log=print) -> dict[str, Any]:
    """Measure every (format, size); returns the ``graph.json`` structure."""
    import platform

    from benchmarks.read_speed import ensure_documents

    files = ensure_documents(data, list(sizes), list(formats))
    fast: dict[tuple[str, str], list[dict]] = {k: [] for k in files}
    pandoc: dict[tuple[str, str], list[float]] = {k: [] for k in files}
    for rep in range(reps):
        for (fmt, size), (path, _tokens) in files.items():
            res = _child(path, path.with_suffix(".truth.json"), False)
            fast[(fmt, size)].append(res)
            pandoc[(fmt, size)].append(pandoc_seconds(path, fmt))
            log(f"  rep {rep + 1}/{reps} {path.name}: graph {res['seconds']['read_and_graph']:.2f}s "
                f"(process {res['seconds']['process']:.2f}s), pandoc {pandoc[(fmt, size)][-1] or 0:.2f}s")
    docs = []
    for (fmt, size), (path, tokens) in files.items():
        runs = fast[(fmt, size)]
        first = runs[0]
        secs = {k: _median([r["seconds"][k] for r in runs]) for k in first["seconds"]}
        entry = {
            "size": size, "format": fmt, "path": first["path"], "tokens": tokens, "units": first["units"],
            "alignment": first["alignment"], "reps": len(runs),
            "fast": {"seconds": secs, "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
                     "edges": first["edges"], "scores": first["scores"],
                     "precision_by_origin": first["precision_by_origin"]},
            "pandoc_seconds": _median(pandoc[(fmt, size)]),
            "pandoc_runs": [round(x, 4) for x in pandoc[(fmt, size)] if x is not None],
        }
        docs.append(entry)
    for rep in range(semantic_reps if semantic else 0):
        for entry, ((fmt, size), (path, _tokens)) in zip(docs, files.items()):
            res = _child(path, path.with_suffix(".truth.json"), True)
            log(f"  semantic {rep + 1}/{semantic_reps} {path.name}: related {res['seconds'].get('related', 0):.1f}s "
                f"(model load {res['seconds']['model_load']:.1f}s), peak {res['peak_rss_mb']:.0f} MB")
            entry.setdefault("_semantic_runs", []).append(res)
    for entry in docs:
        runs = entry.pop("_semantic_runs", [])
        if runs:
            first = runs[0]
            entry["semantic"] = {k: first[k] for k in ("edges", "scores", "precision_by_origin")}
            entry["semantic"]["seconds"] = {k: _median([r["seconds"][k] for r in runs]) for k in first["seconds"]}
            entry["semantic"]["peak_rss_mb"] = max(r["peak_rss_mb"] for r in runs)
            entry["semantic"]["reps"] = len(runs)
    return {
        "command": "python -m benchmarks.graph_bench " + " ".join(sys.argv[1:]),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "date": time.strftime("%Y-%m-%d"),
        "targets": TARGETS,
        "documents": docs,
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.graph_bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="benchmark documents (generated if missing)")
    p.add_argument("--sizes", help=f"comma-separated (default {','.join(FULL_SIZES)}; --quick: 5k,10k)")
    p.add_argument("--formats", default="docx,odt")
    p.add_argument("--reps", type=int, help="fast runs per document, interleaved with pandoc (default 5; --quick 1)")
    p.add_argument("--no-semantic", action="store_true", help="skip the runs with embeddings (RELATED)")
    p.add_argument("--semantic-reps", type=int, default=1, help="runs with embeddings per document (medians)")
    p.add_argument("--quick", action="store_true", help="5K and 10K, one repetition, no files unless asked")
    p.add_argument("--out", type=Path, help=f"results folder (default {DEFAULT_OUT.relative_to(ROOT)})")
    p.add_argument("--readme", type=Path, help="Markdown file whose graph-bench block is replaced (default docs/benchmarks.md)")
    p.add_argument("--one", help=argparse.SUPPRESS)
    p.add_argument("--truth", help=argparse.SUPPRESS)
    p.add_argument("--started", type=float, help=argparse.SUPPRESS)
    p.add_argument("--semantic", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.one:
        print(json.dumps(measure_document(args.one, args.truth, args.semantic, args.started)))
        return 0
    from benchmarks.graph_report import write_outputs, text_table

    sizes = [s for s in (args.sizes or ",".join(QUICK_SIZES if args.quick else FULL_SIZES)).split(",") if s]
    formats = [f for f in args.formats.split(",") if f]
    if not set(formats) <= {"docx", "odt"}:
        p.error("formats are docx and/or odt")
    reps = args.reps or (1 if args.quick else 5)
    out = args.out if args.out or args.quick else DEFAULT_OUT
    readme = args.readme if args.readme or args.quick else ROOT / "docs" / "benchmarks.md"
    result = run(sizes, formats, data=args.data, reps=reps, semantic=not args.no_semantic,
                 semantic_reps=max(1, args.semantic_reps), log=lambda m: print(m, file=sys.stderr, flush=True))
    print(text_table(result))
    if out:
        written = write_outputs(result, out, readme)
        print("\nwrote " + ", ".join(str(w) for w in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
