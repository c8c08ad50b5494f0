"""Bounded load test: concurrent clients uploading real documents to `ledger serve` on loopback.

Starts gunicorn with ``--workers`` processes sharing one store (SQLite, or a redis-server it
starts), sends a fixed number of uploads from ``--clients`` threads (stopping early at
``--duration`` seconds), then prints requests per second, latency percentiles, errors, the
graph jobs' outcome and each worker's resident memory before and after.

    python -m benchmarks.load [--workers 2] [--clients 8] [--requests 400] [--duration 120]
                              [--store sqlite|redis] [--https] [--semantic] [--files F ...]

Exits 1 when any request failed. Loopback only; nothing else is contacted.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

import requests

from tests.conftest import corpus_file
from tests.servers import LedgerServer, RedisServer, self_signed_cert

__all__ = ["main", "DEFAULT_FILES"]

#: Real documents of both formats and several shapes (lists, captions, notes, tables, fields).
DEFAULT_FILES = (
    "cross_reference.docx", "table_captions_with_field.docx", "german_styled_lists.docx",
    "example_numbering.docx", "lorem.odt", "collection2.odt", "dormeur_notes.odt", "table.odt",
)
KEY = "bench-load-key"
ROUNDS = 4


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class _Run:
    """Shared counters of one run: a ticket dispenser, latencies, errors, uploaded ids."""

    def __init__(self, total: int, deadline: float) -> None:
        self.total, self.deadline = total, deadline
        self.issued = 0
        self.latencies: list[float] = []
        self.errors: Counter[str] = Counter()
        self.ids: list[str] = []
        self.lock = threading.Lock()

    def ticket(self) -> int | None:
        with self.lock:
            if self.issued >= self.total or time.monotonic() > self.deadline:
                return None
            self.issued += 1
            return self.issued - 1


def _client(server: LedgerServer, bodies: list[tuple[str, bytes]], run: _Run) -> None:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {KEY}"
    while (n := run.ticket()) is not None:
        name, body = bodies[n % len(bodies)]
        started = time.perf_counter()
        try:
            # ``verify`` per request: a CA bundle named in the environment beats Session.verify.
            r = session.post(f"{server.url}/api/v1/documents?filename={name}", data=body, timeout=60,
                             headers={"Content-Type": "application/octet-stream"}, verify=server.verify)
            elapsed = time.perf_counter() - started
            ok = r.status_code == 201 and r.json()["units"] > 0
            outcome = r.json()["id"] if ok else f"{r.status_code} {r.json().get('error', {}).get('code')}"
        except (requests.RequestException, ValueError) as exc:
            elapsed, ok, outcome = time.perf_counter() - started, False, type(exc).__name__
        with run.lock:
            run.latencies.append(elapsed)
            if ok:
                run.ids.append(outcome)
            else:
                run.errors[outcome] += 1


def _wait_for_jobs(server: LedgerServer, ids: list[str], limit: float) -> Counter[str]:
    """Poll every upload's graph job until all have ended or ``limit`` seconds passed."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {KEY}"
    pending, outcome = list(ids), Counter()
    deadline = time.monotonic() + limit
    while pending and time.monotonic() < deadline:
        still = []
        for doc_id in pending:
            status = session.get(f"{server.url}/api/v1/jobs/{doc_id}-graph", timeout=30,
                                 verify=server.verify).json()["status"]
            if status in ("done", "failed"):
                outcome[status] += 1
            else:
                still.append(doc_id)
        pending = still
        if pending:
            time.sleep(0.5)
    outcome["unfinished"] += len(pending)
    return outcome


def _rss(server: LedgerServer) -> str:
    return ", ".join(f"{pid}: {kib / 1024:.0f} MiB" for pid, kib in sorted(server.rss_kib().items()))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__.split("\n")[0])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=4, help="threads per worker")
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--requests", type=int, default=400)
    p.add_argument("--duration", type=float, default=120.0, help="stop sending after this many seconds")
    p.add_argument("--store", choices=("sqlite", "redis"), default="sqlite")
    p.add_argument("--https", action="store_true", help="serve with a self-signed certificate")
    p.add_argument("--semantic", action="store_true", help="graph jobs with RELATED (embeddings)")
    p.add_argument("--files", nargs="+", metavar="F", help="documents to upload (default: corpus mix)")
    args = p.parse_args(argv)

    paths = [Path(f) for f in args.files] if args.files else [corpus_file(n) for n in DEFAULT_FILES]
    bodies = [(path.name, path.read_bytes()) for path in paths]
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ledger-load-")))
        env = {"LEDGER_API_KEYS": KEY, "LEDGER_RATE_LIMIT": "off",
               "LEDGER_GRAPH_SEMANTIC": "1" if args.semantic else "0"}
        if args.store == "redis":
            env["LEDGER_STORE"] = stack.enter_context(RedisServer(folder / "redis")).url
        cert = key = None
        if args.https:
            cert, key = self_signed_cert(folder / "tls")
        server = stack.enter_context(LedgerServer(folder / "server", workers=args.workers,
                                                  threads=args.threads, env=env, cert=cert, key=key))
        warm = _Run(2 * args.workers, time.monotonic() + 60)
        for _ in range(2 * args.workers):  # first uploads import the readers in each worker
            _client(server, bodies, warm)
        rss_before = _rss(server)

        # The load goes out in rounds, with the workers' memory read after each: stable memory
        # means the later rounds do not keep growing it.
        run = _Run(0, time.monotonic() + args.duration)
        rounds = []
        started = time.perf_counter()
        for r in range(1, ROUNDS + 1):
            run.total = args.requests * r // ROUNDS
            clients = [threading.Thread(target=_client, args=(server, bodies, run)) for _ in range(args.clients)]
            for c in clients:
                c.start()
            for c in clients:
                c.join()
            rounds.append((len(run.latencies), time.perf_counter() - started, _rss(server)))
        wall = time.perf_counter() - started
        jobs = _wait_for_jobs(server, run.ids, limit=300)
        rss_jobs = _rss(server)

    done = len(run.latencies)
    errors = sum(run.errors.values()) + sum(warm.errors.values())
    ms = [1000 * s for s in run.latencies] or [0.0]
    size = sum(len(b) for _, b in bodies) / len(bodies) / 1024
    print(f"ledger load: {args.workers} workers x {args.threads} threads, store {args.store}, "
          f"{'https' if args.https else 'http'}, {args.clients} clients, {len(bodies)} documents "
          f"(mean {size:.0f} KiB), graph {'with' if args.semantic else 'without'} RELATED")
    print(f"requests   {done} in {wall:.2f} s  ->  {done / wall:.1f} req/s")
    print(f"latency    p50 {_percentile(ms, 0.50):.1f} ms  p95 {_percentile(ms, 0.95):.1f} ms  "
          f"p99 {_percentile(ms, 0.99):.1f} ms  max {max(ms):.1f} ms  mean {statistics.fmean(ms):.1f} ms")
    print(f"errors     {errors}" + (f"  {json.dumps(dict(run.errors + warm.errors))}" if errors else ""))
    print(f"graph jobs {json.dumps(dict(jobs))}")
    print(f"worker RSS after warm-up:  {rss_before}")
    for n, (count, t, rss) in enumerate(rounds, 1):
        print(f"worker RSS after round {n}:  {rss}   ({count} requests, {t:.1f} s)")
    print(f"worker RSS after the jobs: {rss_jobs}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
