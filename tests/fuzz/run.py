"""Run every fuzz target for N seconds and report: ``python -m tests.fuzz.run --seconds N``.

Each target runs in its own process under libFuzzer (``-max_total_time``), seeded from the
real-world corpus (:mod:`.seeds`; the upload target's seeds are those documents with a media
type and a file name in front). An input that runs over ``--timeout`` seconds is a hang, one that
takes the process over ``--rss-mb`` is out of memory: both count as crashes, as does any
exception a target does not expect. What libFuzzer saves (new inputs, crash files) goes into a
scratch folder, never into the corpus. The last line is
``fuzz: T targets, I inputs, C crashes``; the exit status is 1 when C > 0.

``--seed N`` makes a run repeatable: the writers target's seeds and libFuzzer's mutations come
from N (the test suite's short run uses it, so a failure there is the same on every machine);
without it, every run explores anew (``make fuzz``).
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .seeds import seed_paths
from .targets import TARGETS, upload_input

ROOT = Path(__file__).resolve().parents[2]
_DONE = re.compile(r"Done (\d+) runs in (\d+) second")
_PROGRESS = re.compile(r"^#(\d+)\s", re.M)


def _seed_dir(name: str, scratch: Path, seed: int | None = None) -> Path:
    seeds = scratch / f"{name}-seeds"
    seeds.mkdir(parents=True, exist_ok=True)
    if name == "writeback":  # documents that carry a review record, as LEDGER writes them back
        from .writeback import seeds as writeback_seeds

        for i, (_doc, data) in enumerate(writeback_seeds()):
            (seeds / f"{i:03d}").write_bytes(data)
        return seeds
    for i, path in enumerate(seed_paths()):
        data = path.read_bytes()
        if name == "upload":
            data = upload_input(data, kind=i, filename=path.name.encode())
        elif name == "writers":
            noise = os.urandom(31) if seed is None else random.Random(seed * 100_003 + i).randbytes(31)
            data = bytes([i % 256]) + noise
        (seeds / f"{i:03d}").write_bytes(data)
    return seeds


def run_target(name: str, seconds: int, scratch: Path, timeout: int, rss_mb: int, seed: int | None = None) -> dict:
    """Fuzz one target; returns ``{target, inputs, crashes, artifacts, tail}``."""
    found = scratch / f"{name}-found"
    found.mkdir(parents=True, exist_ok=True)
    artifacts = scratch / f"{name}-crashes"
    artifacts.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "tests.fuzz.main", name, str(found), str(_seed_dir(name, scratch, seed)),
           f"-max_total_time={seconds}", f"-timeout={timeout}", f"-rss_limit_mb={rss_mb}",
           "-max_len=1048576", f"-artifact_prefix={artifacts}/", "-print_final_stats=1",
           *([f"-seed={seed}"] if seed is not None else [])]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=seconds * 3 + 300, errors="replace")
    log = proc.stdout + proc.stderr
    done = _DONE.search(log)
    inputs = int(done.group(1)) if done else max((int(n) for n in _PROGRESS.findall(log)), default=0)
    crashed = sorted(p.name for p in artifacts.iterdir())
    crashes = len(crashed) or (0 if proc.returncode == 0 else 1)
    return {"target": name, "inputs": inputs, "crashes": crashes, "artifacts": crashed,
            "tail": "" if crashes == 0 else log[-4000:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("FUZZ_SECONDS", "60")),
                        help="seconds per target (default: $FUZZ_SECONDS or 60)")
    parser.add_argument("--targets", default=",".join(TARGETS), help=f"comma-separated, of {', '.join(TARGETS)}")
    parser.add_argument("--timeout", type=int, default=20, help="seconds one input may take (a hang past it)")
    parser.add_argument("--rss-mb", type=int, default=2048, help="memory one target process may use")
    parser.add_argument("--keep", metavar="DIR", help="keep the found inputs and crash files here")
    parser.add_argument("--seed", type=int, help="repeatable: seeds and mutations from this number")
    args = parser.parse_args(argv)
    if not seed_paths():
        print("fuzz: no corpus to seed from (LEDGER_CORPUS)", file=sys.stderr)
        return 2
    scratch = Path(args.keep or tempfile.mkdtemp(prefix="ledger-fuzz-"))
    results = []
    try:
        for name in args.targets.split(","):
            res = run_target(name.strip(), args.seconds, scratch, args.timeout, args.rss_mb, args.seed)
            results.append(res)
            print(f"{res['target']:8s} {res['inputs']:>8,} inputs  {res['crashes']} crashes"
                  + (f"  {', '.join(res['artifacts'])}" if res["artifacts"] else ""), flush=True)
            if res["tail"]:
                print(res["tail"], file=sys.stderr)
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    inputs, crashes = sum(r["inputs"] for r in results), sum(r["crashes"] for r in results)
    print(f"fuzz: {len(results)} targets, {inputs} inputs, {crashes} crashes")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
