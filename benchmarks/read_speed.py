"""Reading speed: ``ledger units FILE --json`` against ``pandoc -f FMT -t json FILE`` on the benchmark.

    python -m benchmarks.read_speed [--data benchmarks/data] [--sizes 10k,100k] [--formats docx,odt]
                                    [--reps 5] [--seed 0]

Each tool runs as a cold subprocess (a fresh interpreter for ledger), repetitions interleaved
(ledger, pandoc, ledger, pandoc, ...) so that machine noise hits both alike; the table shows
medians, the ledger/pandoc ratio per file, and each tool's growth from the smallest to the
largest size. A tool that cannot read a file gets one error line and is not timed again on it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

__all__ = ["TOOLS", "ensure_documents", "main", "measure", "report"]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT / "benchmarks" / "data"
TOOLS = ("ledger", "pandoc")


def _command(tool: str, path: Path, fmt: str) -> list[str] | None:
    if tool == "ledger":
        script = Path(sys.executable).with_name("ledger")  # the installed command, as a user runs it
        if script.exists():
            return [str(script), "units", str(path), "--json"]
        return [sys.executable, "-m", "addin_backend.cli", "units", str(path), "--json"]
    pandoc = shutil.which("pandoc")
    return [pandoc, "-f", fmt, "-t", "json", str(path)] if pandoc else None


def ensure_documents(data: Path, sizes: Sequence[str], formats: Sequence[str], seed: int = 0) -> dict:
    """The benchmark files for each (format, size), generated where missing: {(fmt, size): (path, tokens)}."""
    import json

    from .synth import build, doc_name, write_package, write_truth

    out: dict = {}
    for size in sizes:
        name = doc_name(size, seed)
        truth_path = data / f"{name}.truth.json"
        missing = [fmt for fmt in formats if not (data / f"{name}.{fmt}").exists()]
        if missing or not truth_path.exists():
            doc = build(size, seed)
            write_truth(doc, data)
            for fmt in formats:
                write_package(doc, data, fmt)
        tokens = json.loads(truth_path.read_text(encoding="utf-8"))["tokens"]
        for fmt in formats:
            out[(fmt, size)] = (data / f"{name}.{fmt}", tokens)
    return out


def _error_line(proc: subprocess.CompletedProcess) -> str:
    lines = [ln.strip() for ln in (proc.stderr or "").splitlines() if ln.strip()]
    last = lines[-1] if lines else "no message"
    return f"exit {proc.returncode}: {last[:300]}"


def measure(files: dict, reps: int = 5, tools: Sequence[str] = TOOLS, timeout: float = 600) -> dict:
    """Median wall time per (format, size, tool), or the error that stopped the tool on that file.

    Returns ``{(fmt, size): {"path", "tokens", tool: {"times": [...], "median": s | None, "error": str | None}}}``.
    """
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    # An installed program runs from cached bytecode; a sandbox that forbids writing it would
    # make every run recompile the modules, which no user pays. One untimed run per tool and
    # file warms the bytecode and the file cache for both tools alike.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    for key, (path, _tokens) in files.items():
        for tool in tools:
            cmd = _command(tool, path, key[0])
            if cmd is not None:
                subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=timeout)
    results: dict = {}
    for key, (path, tokens) in files.items():
        results[key] = {"path": str(path), "tokens": tokens, **{t: {"times": [], "median": None, "error": None} for t in tools}}
    for _ in range(reps):
        for key, (path, _tokens) in files.items():
            for tool in tools:
                slot = results[key][tool]
                if slot["error"]:
                    continue
                cmd = _command(tool, path, key[0])
                if cmd is None:
                    slot["error"] = f"{tool} is not installed"
                    continue
                start = time.perf_counter()
                try:
                    proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                          text=True, timeout=timeout)
                except subprocess.TimeoutExpired:
                    slot["error"] = f"timed out after {timeout:.0f}s"
                    continue
                elapsed = time.perf_counter() - start
                if proc.returncode != 0:
                    slot["error"] = _error_line(proc)
                    continue
                slot["times"].append(elapsed)
    for entry in results.values():
        for tool in tools:
            times = entry[tool]["times"]
            entry[tool]["median"] = statistics.median(times) if times and not entry[tool]["error"] else None
    return results


def report(results: dict, tools: Sequence[str] = TOOLS) -> str:
    """The table of medians and ratios, the growth per tool, and one line per error."""
    rows = [f"{'format':<7}{'size':<7}{'tokens':>8}" + "".join(f"{t + ' (s)':>13}" for t in tools) + f"{'ledger/pandoc':>15}"]
    errors = []
    for (fmt, size), entry in sorted(results.items(), key=lambda kv: (kv[0][0], kv[1]["tokens"])):
        cells = []
        for t in tools:
            med = entry[t]["median"]
            cells.append(f"{med:>13.3f}" if med is not None else f"{'error':>13}")
            if entry[t]["error"]:
                errors.append(f"{t}: {Path(entry['path']).name}: cannot read ({entry[t]['error']})")
        led, pan = (entry.get(t, {}).get("median") for t in ("ledger", "pandoc"))
        ratio = f"{led / pan:>15.2f}" if led and pan else f"{'-':>15}"
        rows.append(f"{fmt:<7}{size:<7}{entry['tokens']:>8}" + "".join(cells) + ratio)
    for fmt in sorted({k[0] for k in results}):
        keyed = sorted(((e["tokens"], s, e) for (f, s), e in results.items() if f == fmt), key=lambda x: x[0])
        if len(keyed) < 2:
            continue
        (t0, s0, small), (t1, s1, big) = keyed[0], keyed[-1]
        parts = []
        for t in tools:
            a, b = small[t]["median"], big[t]["median"]
            parts.append(f"{t} {b / a:.2f}x" if a and b else f"{t} -")
        rows.append(f"growth {fmt} {s1}/{s0} ({t1 / t0:.1f}x tokens): " + ", ".join(parts))
    return "\n".join(rows + errors)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.read_speed", description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, default=DEFAULT_DATA, help="where the benchmark documents are (or go)")
    p.add_argument("--sizes", default="10k,100k")
    p.add_argument("--formats", default="docx,odt")
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--doc", type=Path, help="Markdown file whose read-speed block is replaced (make bench-read: docs/benchmarks.md)")
    args = p.parse_args(argv)
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    if not set(formats) <= {"docx", "odt"} or args.reps < 1:
        p.error("formats are docx and/or odt; reps must be at least 1")
    files = ensure_documents(args.data, sizes, formats, args.seed)
    print(f"{args.reps} interleaved repetition(s) per tool and file; medians of wall time, cold processes")
    table = report(measure(files, args.reps))
    print(table)
    if args.doc:
        from benchmarks.doc_block import replace_block

        replace_block(args.doc, "read-speed", f"Measured {time.strftime('%Y-%m-%d')} with `python -m benchmarks.read_speed "
                      f"--reps {args.reps}` ({args.reps} interleaved repetitions, medians of cold processes, in "
                      f"seconds):\n\n```\n{table}\n```\n", "Reading speed")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
