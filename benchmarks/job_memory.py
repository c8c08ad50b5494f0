"""What the job processes of ``ledger serve`` cost in memory (issue 33): the resident memory of the
web worker and of its job processes, idle after start-up and after a document's graph (and a
proposal), for ``LEDGER_JOBS=processes`` (the default) and ``threads`` in turn.

    nice -n 10 python -m benchmarks.job_memory [--file F] [--semantic]

Each mode on a fresh server (1 worker x 4 threads, its own data folder), figures in MiB.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

from tests.servers import LedgerServer, finished_job

DEFAULT_FILE = Path("/work/shared/devset/rfc/rfc9000.A.docx")


def _mib(srv: LedgerServer) -> dict[str, float]:
    workers = srv.rss_kib()
    everything = srv.rss_kib(jobs=True)
    jobs = {pid: kib for pid, kib in everything.items() if pid not in workers}
    return {"web_mib": round(sum(workers.values()) / 1024, 1), "jobs_mib": round(sum(jobs.values()) / 1024, 1),
            "job_processes": len(jobs), "total_mib": round(sum(everything.values()) / 1024, 1)}


def measure(mode: str, data: bytes, name: str, semantic: bool) -> dict[str, Any]:
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "1" if semantic else "0", "LEDGER_JOBS": mode}
    with tempfile.TemporaryDirectory(prefix="ledger-jobmem-") as tmp:
        with LedgerServer(Path(tmp), workers=1, threads=4, env=env) as srv:
            time.sleep(2)
            out: dict[str, Any] = {"mode": mode, "idle": _mib(srv)}
            t = time.perf_counter()
            r = requests.post(f"{srv.url}/api/v1/documents?filename={name}", data=data,
                              headers={"Content-Type": "application/octet-stream"}, timeout=300)
            r.raise_for_status()
            doc = r.json()["id"]
            graph = finished_job(srv.url, f"{doc}-graph", None, 1800)
            out["graph"] = {"status": graph["status"], "seconds": round(time.perf_counter() - t, 1)}
            out["after_graph"] = _mib(srv)
            r = requests.post(f"{srv.url}/api/v1/documents/{doc}/proposals", timeout=300, json={
                "instruction": 'Rename "endpoint" to "end point" everywhere', "author": "bench"})
            if r.status_code == 202:
                finished_job(srv.url, r.json()["job"]["id"], None, 600)
            out["after_proposal"] = _mib(srv)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--file", type=Path, default=DEFAULT_FILE)
    p.add_argument("--semantic", action="store_true", help="RELATED on (the embedding model loads)")
    p.add_argument("--modes", default="processes,threads")
    args = p.parse_args(argv)
    data = args.file.read_bytes()
    for mode in args.modes.split(","):
        print(json.dumps(measure(mode, data, args.file.name, args.semantic)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
