"""Bounded load test: concurrent clients uploading and editing real documents on `ledger serve`.

Starts gunicorn with ``--workers`` processes sharing one store (SQLite, or a redis-server it
starts), sends a fixed number of uploads from ``--clients`` threads (stopping early at
``--duration`` seconds), then prints requests per second, latency percentiles, errors, the
graph jobs' outcome and each worker's resident memory before and after. Then the same clients
run ``--edits`` edit cycles on the uploaded documents (stopping early at ``--edit-duration``):
propose an edit (rules engine; a 202 is followed through its job), apply it, download the
revision and check it, each request on whichever worker the kernel picks; it prints requests
per second and p50/p95 per route.

    python -m benchmarks.load [--workers 2] [--clients 8] [--requests 400] [--duration 120]
                              [--edits 80] [--edit-duration 180]
                              [--store sqlite|redis] [--queue [--job-workers 2]]
                              [--https] [--semantic] [--files F ...]

``--queue`` is the scale-out mode: a redis-server, the web workers only enqueue (``LEDGER_JOBS=
queue``) and ``--job-workers`` ``ledger worker`` processes run the graph and proposal jobs; it
also prints the time to a complete graph under load (job record created -> done, p50/p95/max)
and the job workers' memory. ``--store redis`` alone keeps the jobs in the web workers' threads.

Exits 1 when any request failed. Loopback only; nothing else is contacted.
"""
from __future__ import annotations

import argparse
import json
import re
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
from tests.servers import LedgerServer, RedisServer, WorkerProcess, self_signed_cert

__all__ = ["main", "DEFAULT_FILES", "edit_instruction"]

#: Real documents of both formats and several shapes (lists, captions, notes, tables, fields).
DEFAULT_FILES = (
    "cross_reference.docx", "table_captions_with_field.docx", "german_styled_lists.docx",
    "example_numbering.docx", "lorem.odt", "collection2.odt", "dormeur_notes.odt", "table.odt",
)
KEY = "bench-load-key-0123456789"
ROUNDS = 4
AUTHOR = "Load Test"
_WORD = re.compile(r"\b[a-z]{5,12}\b")


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
        self.names: dict[str, str] = {}
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
                run.names[outcome] = name
            else:
                run.errors[outcome] += 1


def edit_instruction(texts: list[str]) -> str | None:
    """A replace the rules engine understands: a lower-case word that occurs 1-3 times, in caps.

    >>> edit_instruction(["The grid feeds the feeder.", "A feeder trips; the grid holds."])
    'Replace "feeds" with "FEEDS"'
    """
    counts: Counter[str] = Counter()
    order: list[str] = []
    for text in texts:
        for word in _WORD.findall(text):
            if word not in counts:
                order.append(word)
            counts[word] += 1
    lowered = Counter(w.lower() for t in texts for w in re.findall(r"[A-Za-z]+", t))
    word = next((w for w in order if 1 <= lowered[w] <= 3), None)
    return None if word is None else f'Replace "{word}" with "{word.upper()}"'


class _Timed:
    """A session that records each request's latency under its route name."""

    def __init__(self, server: LedgerServer, run: "_EditRun") -> None:
        self.server, self.run = server, run
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {KEY}"

    def __call__(self, route: str, method: str, path: str, ok: tuple[int, ...], **kw) -> requests.Response | None:
        started = time.perf_counter()
        try:
            r = self.session.request(method, self.server.url + path, timeout=300, verify=self.server.verify, **kw)
        except requests.RequestException as exc:
            self.run.record(route, time.perf_counter() - started, f"{route} {type(exc).__name__}")
            return None
        error = None
        if r.status_code not in ok:
            try:
                code = r.json().get("error", {}).get("code")
            except ValueError:
                code = None
            error = f"{route} {r.status_code} {code}"
        self.run.record(route, time.perf_counter() - started, error)
        return None if error else r


class _EditRun(_Run):
    """Counters of the editing phase: latencies per route, cycles done, empty proposals."""

    def __init__(self, total: int, deadline: float) -> None:
        super().__init__(total, deadline)
        self.by_route: dict[str, list[float]] = {}
        self.cycles = 0
        self.empty = 0

    def record(self, route: str, seconds: float, error: str | None) -> None:
        with self.lock:
            self.by_route.setdefault(route, []).append(seconds)
            self.latencies.append(seconds)
            if error:
                self.errors[error] += 1


def _edit_client(server: LedgerServer, docs: list[tuple[str, str]], run: _EditRun) -> None:
    """Edit cycles until the tickets or the time run out: propose, apply, download, check."""
    call = _Timed(server, run)
    while (n := run.ticket()) is not None:
        doc_id, instruction = docs[n % len(docs)]
        r = call("POST proposals", "POST", f"/api/v1/documents/{doc_id}/proposals", (201, 202),
                 json={"instruction": instruction, "author": AUTHOR})
        if r is None:
            continue
        proposal = r.json()
        if r.status_code == 202:
            job = proposal["job"]
            while job["status"] not in ("done", "failed"):
                time.sleep(0.2)
                jr = call("GET jobs/{id}", "GET", job["links"]["self"], (200,))
                if jr is None:
                    break
                job = jr.json()
            if job.get("status") != "done":
                run.record("proposal job", 0.0, f"proposal job {job.get('status')}")
                continue
            proposal = job["result"]
        if not proposal["operations"]:
            with run.lock:
                run.empty += 1
            continue
        a = call("POST apply", "POST", f"/api/v1/documents/{doc_id}/apply", (201,),
                 json={"proposal_id": proposal["id"], "author": AUTHOR})
        if a is None:
            continue
        applied = a.json()
        f = call("GET revisions/{rev}/file", "GET", applied["download"], (200,))
        c = call("GET check?revision", "GET", f"/api/v1/documents/{doc_id}/check?revision={applied['revision']}", (200,))
        if f is not None and c is not None and f.content[:2] == b"PK":
            with run.lock:
                run.cycles += 1


def _editable_text(unit: dict) -> str:
    """A unit's text (its public JSON) without the shown results of its fields, which the
    application computes and an edit leaves alone (a hyperlink's text is the author's).

    >>> _editable_text({"text": "See Error! No style, page 2",
    ...                 "fields": [{"kind": "ref", "start": 4, "end": 19}]})
    'See                , page 2'
    """
    text = unit["text"]
    for f in unit.get("fields") or ():
        start, end = int(f.get("start") or 0), int(f.get("end") or 0)
        if f.get("kind") != "hyperlink" and end > start:
            text = text[:start] + " " * (end - start) + text[end:]
    return text


def _edit_targets(server: LedgerServer, run: _Run) -> list[tuple[str, str]]:
    """One uploaded document per file, each with an instruction that its text supports."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {KEY}"
    out, seen = [], set()
    for doc_id in run.ids:
        name = run.names[doc_id]
        if name in seen:
            continue
        seen.add(name)
        units = session.get(f"{server.url}/api/v1/documents/{doc_id}/units", timeout=60, verify=server.verify).json()
        instruction = edit_instruction([_editable_text(u) for u in units["units"]])
        if instruction:
            out.append((doc_id, instruction))
    return out


def _edit_phase(server: LedgerServer, run: _Run, clients: int, total: int, duration: float,
                rounds: list[dict[int, int]] | None = None) -> tuple[_EditRun, float]:
    """The edit cycles, in :data:`ROUNDS` rounds; each web worker's memory after each goes to ``rounds``."""
    targets = _edit_targets(server, run)
    edits = _EditRun(0, time.monotonic() + duration)
    started = time.perf_counter()
    for r in range(1, ROUNDS + 1):
        edits.total = (total if targets else 0) * r // ROUNDS
        threads = [threading.Thread(target=_edit_client, args=(server, targets, edits)) for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if rounds is not None:
            rounds.append(server.rss_kib())
    return edits, time.perf_counter() - started


def _print_edits(edits: _EditRun, wall: float, clients: int) -> None:
    done = len(edits.latencies)
    print(f"editing    {edits.cycles} cycles (propose, apply, download, check; {edits.empty} empty proposals) "
          f"by {clients} clients: {done} requests in {wall:.2f} s  ->  {done / wall:.1f} req/s, "
          f"{edits.cycles / wall:.2f} cycles/s")
    print(f"  {'route':<26} {'n':>5} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9}")
    for route, values in edits.by_route.items():
        ms = [1000 * v for v in values]
        print(f"  {route:<26} {len(ms):>5} {_percentile(ms, 0.5):>9.1f} {_percentile(ms, 0.95):>9.1f} {max(ms):>9.1f}")
    errors = sum(edits.errors.values())
    print(f"edit errors {errors}" + (f"  {json.dumps(dict(edits.errors))}" if errors else ""))


def _wait_for_jobs(server: LedgerServer, ids: list[str], limit: float,
                   durations: list[float] | None = None) -> Counter[str]:
    """Poll every upload's graph job until all have ended or ``limit`` seconds passed; the
    seconds each took (record created -> last written) go to ``durations``."""
    from datetime import datetime

    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {KEY}"
    pending, outcome = list(ids), Counter()
    deadline = time.monotonic() + limit
    while pending and time.monotonic() < deadline:
        still = []
        for doc_id in pending:
            job = session.get(f"{server.url}/api/v1/jobs/{doc_id}-graph", timeout=30, verify=server.verify).json()
            if job["status"] in ("done", "failed"):
                outcome[job["status"]] += 1
                if durations is not None and job["status"] == "done":
                    durations.append((datetime.fromisoformat(job["updated"])
                                      - datetime.fromisoformat(job["created"])).total_seconds())
            else:
                still.append(doc_id)
        pending = still
        if pending:
            time.sleep(0.5)
    outcome["unfinished"] += len(pending)
    return outcome


def _rss(server: LedgerServer) -> str:
    return ", ".join(f"{pid}: {kib / 1024:.0f} MiB" for pid, kib in sorted(server.rss_kib().items()))


def _pid_rss(pids: list[int]) -> str:
    out = []
    for pid in pids:
        try:
            kib = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                       if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
        out.append(f"{pid}: {kib / 1024:.0f} MiB")
    return ", ".join(out)


def _growth(before: dict[int, int], after: dict[int, int]) -> float:
    """The largest growth of a web worker's memory, in MiB, between two readings."""
    return max(((after[p] - before[p]) / 1024 for p in before if p in after), default=0.0)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__.split("\n")[0])
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=4, help="threads per worker")
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--requests", type=int, default=400)
    p.add_argument("--duration", type=float, default=120.0, help="stop sending after this many seconds")
    p.add_argument("--store", choices=("sqlite", "redis"), default="sqlite")
    p.add_argument("--queue", action="store_true", help="jobs on RQ (Redis) run by --job-workers ledger workers")
    p.add_argument("--job-workers", type=int, default=2, help="ledger worker processes in --queue mode")
    p.add_argument("--https", action="store_true", help="serve with a self-signed certificate")
    p.add_argument("--semantic", action="store_true", help="graph jobs with RELATED (embeddings)")
    p.add_argument("--files", nargs="+", metavar="F", help="documents to upload (default: corpus mix)")
    p.add_argument("--edits", type=int, default=80, help="edit cycles after the uploads (0: none)")
    p.add_argument("--edit-duration", type=float, default=180.0, help="stop starting edit cycles after this many seconds")
    args = p.parse_args(argv)

    paths = [Path(f) for f in args.files] if args.files else [corpus_file(n) for n in DEFAULT_FILES]
    bodies = [(path.name, path.read_bytes()) for path in paths]
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ledger-load-")))
        env = {"LEDGER_API_KEYS": KEY, "LEDGER_RATE_LIMIT": "off",
               "LEDGER_GRAPH_SEMANTIC": "1" if args.semantic else "0"}
        if args.queue:
            args.store = "redis"
        if args.store == "redis":
            env["LEDGER_STORE"] = stack.enter_context(RedisServer(folder / "redis")).url
            env["LEDGER_JOBS"] = "queue" if args.queue else "threads"
        cert = key = None
        if args.https:
            cert, key = self_signed_cert(folder / "tls")
        server = stack.enter_context(LedgerServer(folder / "server", workers=args.workers,
                                                  threads=args.threads, env=env, cert=cert, key=key))
        job_workers = [stack.enter_context(WorkerProcess(folder / f"worker{i}", env["LEDGER_STORE"], env=env))
                       for i in range(args.job_workers if args.queue else 0)]
        for w in job_workers:
            w.ready(300)
        warm = _Run(2 * args.workers, time.monotonic() + 60)
        for _ in range(2 * args.workers):  # first uploads import the readers in each worker
            _client(server, bodies, warm)
        rss_before = _rss(server)
        kib_rounds = [server.rss_kib()]

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
            kib_rounds.append(server.rss_kib())
        wall = time.perf_counter() - started
        graph_s: list[float] = []
        jobs = _wait_for_jobs(server, run.ids, limit=600 if args.queue else 300, durations=graph_s)
        rss_jobs = _rss(server)
        workers_rss_jobs = _pid_rss([w.pid for w in job_workers])
        edit_rounds: list[dict[int, int]] = []
        edits, edit_wall = _edit_phase(server, run, args.clients, args.edits, args.edit_duration, edit_rounds)
        rss_edits = _rss(server)
        kib_rounds.append(server.rss_kib())
        workers_rss_edits = _pid_rss([w.pid for w in job_workers])

    done = len(run.latencies)
    errors = sum(run.errors.values()) + sum(warm.errors.values())
    ms = [1000 * s for s in run.latencies] or [0.0]
    size = sum(len(b) for _, b in bodies) / len(bodies) / 1024
    jobs_where = f"{args.job_workers} ledger workers (RQ)" if args.queue else "threads in the web workers"
    print(f"ledger load: {args.workers} workers x {args.threads} threads, store {args.store}, jobs on {jobs_where}, "
          f"{'https' if args.https else 'http'}, {args.clients} clients, {len(bodies)} documents "
          f"(mean {size:.0f} KiB), graph {'with' if args.semantic else 'without'} RELATED")
    print(f"requests   {done} in {wall:.2f} s  ->  {done / wall:.1f} req/s")
    print(f"latency    p50 {_percentile(ms, 0.50):.1f} ms  p95 {_percentile(ms, 0.95):.1f} ms  "
          f"p99 {_percentile(ms, 0.99):.1f} ms  max {max(ms):.1f} ms  mean {statistics.fmean(ms):.1f} ms")
    print(f"errors     {errors}" + (f"  {json.dumps(dict(run.errors + warm.errors))}" if errors else ""))
    print(f"graph jobs {json.dumps(dict(jobs))}")
    if graph_s:
        print(f"complete graph under load (upload -> job done): p50 {_percentile(graph_s, 0.5):.2f} s  "
              f"p95 {_percentile(graph_s, 0.95):.2f} s  max {max(graph_s):.2f} s  ({len(graph_s)} jobs)")
    print(f"worker RSS after warm-up:  {rss_before}")
    for n, (count, t, rss) in enumerate(rounds, 1):
        print(f"worker RSS after round {n}:  {rss}   ({count} requests, {t:.1f} s)")
    print(f"worker RSS after the jobs: {rss_jobs}")
    if args.edits:
        _print_edits(edits, edit_wall, args.clients)
        print(f"worker RSS after editing:  {rss_edits}")
    print(f"web worker memory growth: upload round 1 -> round {ROUNDS} {_growth(kib_rounds[1], kib_rounds[ROUNDS]):+.1f} MiB, "
          f"upload round 1 -> after editing {_growth(kib_rounds[1], kib_rounds[-1]):+.1f} MiB")
    if len(edit_rounds) == ROUNDS:
        per = ", ".join(f"{kib / 1024:.0f}" for kib in (max(r.values(), default=0) for r in edit_rounds))
        print(f"web worker memory over the edit rounds (largest worker, MiB): {per}; "
              f"edit round 1 -> round {ROUNDS} {_growth(edit_rounds[0], edit_rounds[-1]):+.1f} MiB")
    if job_workers:
        print(f"ledger worker RSS after the jobs: {workers_rss_jobs}; after editing: {workers_rss_edits}")
    return 1 if errors or sum(edits.errors.values()) or (args.edits and not edits.cycles) else 0


if __name__ == "__main__":
    sys.exit(main())
