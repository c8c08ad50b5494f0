"""Time to the complete graph of a fresh document through the API, model load included; then
the same after a one-word edit (a re-upload).

    python -m benchmarks.first_graph [--file benchmarks/data/synth-100k.docx] [--queue]
                                     [--backend onnx] [--json OUT]

Starts ``ledger serve`` (one worker, a new data folder: no embedding is cached, no model is
loaded) — with ``--queue``, a redis-server and one ``ledger worker`` too, whose start-up (model
load) is timed separately — uploads the file and follows its graph job: the seconds until the
upload answers, until the fast graph is there (REFERENCES usable) and until the graph is
complete (RELATED included), and the CPU seconds the server (and worker) spent meanwhile: on a
shared machine the wall seconds vary with what else runs, the CPU seconds much less. Then it
uploads the file again with one word changed.
"""
from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Sequence

import requests

from tests.servers import LedgerServer, RedisServer, WorkerProcess

ROOT = Path(__file__).resolve().parent.parent
KEY = "bench-first-key-0123456789"
AUTH = {"Authorization": f"Bearer {KEY}"}

__all__ = ["one_word_edit", "timed_upload", "main"]


def one_word_edit(data: bytes) -> bytes:
    """The .docx with one word of its longest paragraph changed (a typical small edit)."""
    from docx import Document

    d = Document(io.BytesIO(data))
    para = max(d.paragraphs, key=lambda p: len(p.text))
    run = max(para.runs, key=lambda r: len(r.text))
    words = run.text.split(" ")
    i = max(range(len(words)), key=lambda k: len(words[k]))
    words[i] = words[i].upper() if words[i] != words[i].upper() else words[i].lower()
    run.text = " ".join(words)
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def cpu_seconds(pids: Sequence[int]) -> float:
    """User + system CPU seconds the processes have used (from /proc): what the work costs,
    whatever else the machine runs meanwhile."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / tick


def timed_upload(url: str, data: bytes, name: str, limit: float = 900.0,
                 pids: Sequence[int] = ()) -> dict[str, Any]:
    """Upload and follow the graph job: seconds to the answer, the fast graph, the complete one
    (and the CPU seconds ``pids`` spent meanwhile)."""
    cpu0 = cpu_seconds(pids)
    s = requests.Session()
    s.headers.update(AUTH)
    t0 = time.perf_counter()
    r = s.post(f"{url}/api/v1/documents?filename={name}", data=data, timeout=120,
               headers={"Content-Type": "application/octet-stream"})
    r.raise_for_status()
    answered = time.perf_counter() - t0
    body = r.json()
    doc_id, job_id = body["id"], body["job"]["id"]
    usable = None
    while time.perf_counter() - t0 < limit:
        if usable is None and s.get(f"{url}/api/v1/documents/{doc_id}/graph?types=REFERENCES", timeout=60).status_code == 200:
            usable = time.perf_counter() - t0
        job = s.get(f"{url}/api/v1/jobs/{job_id}", timeout=60).json()
        if job["status"] in ("done", "failed"):
            break
        time.sleep(0.1)
    complete = time.perf_counter() - t0
    return {"answer_s": round(answered, 2), "usable_s": round(usable or complete, 2),
            "complete_s": round(complete, 2), "cpu_s": round(cpu_seconds(pids) - cpu0, 2),
            "status": job["status"], "units": body["units"],
            "edges": (job.get("result") or {}).get("graph", {}).get("edges") if job["status"] == "done" else None}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.first_graph", description=__doc__.split("\n")[0])
    p.add_argument("--file", type=Path, default=ROOT / "benchmarks" / "data" / "synth-100k.docx")
    p.add_argument("--queue", action="store_true", help="queue mode: Redis and one ledger worker")
    p.add_argument("--backend", help="LEDGER_EMBED_BACKEND for the server (default: the project's)")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    if not args.file.exists():
        p.error(f"{args.file} is missing (make bench-data makes the benchmark documents)")
    data = args.file.read_bytes()
    edited = one_word_edit(data)
    env = {"LEDGER_API_KEYS": KEY, "LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "1"}
    if args.backend:
        env["LEDGER_EMBED_BACKEND"] = args.backend
    out: dict[str, Any] = {"file": args.file.name, "mode": "queue" if args.queue else "threads"}
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="ledger-first-")))
        if args.queue:
            env["LEDGER_STORE"] = stack.enter_context(RedisServer(folder / "redis")).url
        server = stack.enter_context(LedgerServer(folder / "server", workers=1, env=env))
        pids = sorted(server.worker_pids())
        if args.queue:
            t0 = time.perf_counter()
            worker = stack.enter_context(WorkerProcess(folder / "worker", env["LEDGER_STORE"], env=env)).ready(300)
            out["worker_start_s"] = round(time.perf_counter() - t0, 2)
            pids.append(worker.pid)
        out["first"] = timed_upload(server.url, data, args.file.name, pids=pids)
        print(f"first upload   {json.dumps(out['first'])}", flush=True)
        out["reupload"] = timed_upload(server.url, edited, args.file.name, pids=pids)
        print(f"re-upload      {json.dumps(out['reupload'])}", flush=True)
    if "worker_start_s" in out:
        print(f"worker start (models loaded) {out['worker_start_s']} s")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0 if out["first"]["status"] == out["reupload"]["status"] == "done" else 1


if __name__ == "__main__":
    sys.exit(main())
