"""The graph's share of a whole `ledger graph` process, this checkout against a peer checkout.

    python -m benchmarks.graph_share FILE --peer DIR [--rounds N]

Runs ``python -m addin_backend.cli graph FILE --no-semantic --json`` as a cold process from each
checkout (``PYTHONPATH`` set to it), the two interleaved and their order swapped every round,
after one untimed round that warms the disk cache. Prints the medians of the whole process's
wall time, of the graph stages' seconds (DEPENDS apart), of the graph's share of the process,
and the ratios this ÷ peer: the share and its ratio hold on a loaded machine where the seconds
do not. Issue 22 asks that DEPENDS keep the graph's share within 10% of the code before it.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

__all__ = ["main", "measure"]

ROOT = Path(__file__).resolve().parent.parent


def _one(root: Path, path: str) -> tuple[float, float, float]:
    """(wall seconds, graph stages' seconds, DEPENDS seconds) of one cold process in ``root``."""
    env = {**os.environ, "PYTHONPATH": str(root), "HF_HUB_OFFLINE": "1"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "addin_backend.cli", "graph", path, "--no-semantic", "--json"],
                          cwd=root, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{root}: ledger graph failed: {done.stderr.strip()[-300:]}")
    stages = json.loads(done.stdout)["stats"]["seconds_by_stage"]
    return wall, sum(stages.values()), float(stages.get("depends", 0.0))


def measure(path: str, trees: dict[str, Path], rounds: int) -> dict[str, list[tuple[float, float, float]]]:
    """Each tree's timings over ``rounds`` interleaved rounds (after one warm-up round)."""
    out: dict[str, list[tuple[float, float, float]]] = {name: [] for name in trees}
    for r in range(rounds + 1):
        order = list(trees.items()) if r % 2 == 0 else list(reversed(trees.items()))
        for name, root in order:
            got = _one(root, path)
            if r:
                out[name].append(got)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.graph_share", description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--peer", required=True, type=Path, help="another checkout (a git worktree of an earlier commit)")
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args(argv)
    path = str(Path(args.file).resolve())
    runs = measure(path, {"this tree": ROOT, "peer": args.peer.resolve()}, args.rounds)
    share = {}
    depends = {}
    for name, rows in runs.items():
        share[name] = statistics.median(g / w for w, g, _d in rows)
        depends[name] = statistics.median(d for _w, _g, d in rows)
        print(f"{name}: whole {statistics.median(w for w, _g, _d in rows):.3f} s, graph stages "
              f"{statistics.median(g for _w, g, _d in rows):.3f} s (DEPENDS {depends[name]:.3f} s), "
              f"graph share {share[name]:.3f}")
    print(f"graph share this/peer {share['this tree'] / share['peer']:.3f}; "
          f"DEPENDS this/peer {depends['this tree'] / depends['peer']:.3f} ({args.rounds} rounds, medians)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
