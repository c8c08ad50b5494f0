"""A worker's resident memory across repeated applies of one large document (issue 24), and its
peak while applies run at the same time (issue 33).

    python -m benchmarks.apply_memory [PARAGRAPHS] [APPLIES]   (default: 12000 4)
    python -m benchmarks.apply_memory --concurrent [--peer CHECKOUT] [--file DOCX] [PARAGRAPHS] [APPLIES]

Starts ``ledger serve`` (1 worker x 4 threads, no RELATED) in a temporary folder, uploads a
.docx of PARAGRAPHS paragraphs, waits for its graph, applies one operation APPLIES times and
prints the worker's RSS after each step and after 2 s idle.

``--concurrent`` sends the APPLIES applies at once instead and prints the worker's peak resident
memory (``VmHWM``, reset through ``/proc/PID/clear_refs`` once the graph is built) above its
RSS before them; with ``--peer`` the same run measures that checkout's server first (another
commit, e.g. ``git archive`` of the one before), then this one; ``--file`` uploads that document
instead of a generated one (PARAGRAPHS is ignored).
"""
from __future__ import annotations

import io
import json
import sys
import tempfile
import time
from pathlib import Path

import requests

__all__ = ["main", "document", "status_kib", "concurrent"]


def document(paragraphs: int) -> bytes:
    """A python-docx document of ``paragraphs`` contract-like paragraphs."""
    import docx

    d = docx.Document()
    for i in range(paragraphs):
        d.add_paragraph(f"Paragraph {i}: the supplier shall deliver the goods described in the schedule within "
                        f"thirty days of the order, at the place named there, unless the buyer agrees otherwise {i}.")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def status_kib(pid: int, field: str) -> int:
    """A field of ``/proc/PID/status`` in KiB (``VmRSS``, ``VmHWM``)."""
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith(field + ":"))
    return int(line.split()[1])


def concurrent(data: bytes, applies: int, root: Path | None) -> dict[str, object]:
    """``applies`` applies of one operation sent at once to a fresh server (of checkout ``root``):
    the worker's RSS before them, its peak while they ran, the answers, the revisions made."""
    from concurrent.futures import ThreadPoolExecutor

    from tests.servers import LedgerServer

    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}
    with tempfile.TemporaryDirectory() as folder, \
            LedgerServer(Path(folder), workers=1, threads=max(4, applies), env=env, root=root) as srv:
        (pid,) = srv.worker_pids()
        doc = requests.post(f"{srv.url}/api/v1/documents?filename=m.docx", data=data, timeout=300,
                            headers={"Content-Type": "application/octet-stream"}).json()["id"]
        while requests.get(f"{srv.url}/api/v1/jobs/{doc}-graph", timeout=30).json()["status"] not in ("done", "failed"):
            time.sleep(0.5)
        units = requests.get(f"{srv.url}/api/v1/documents/{doc}/units?kind=paragraph&limit={applies}",
                             timeout=30).json()["units"]
        time.sleep(11)  # past the worker's collect-and-trim interval after the graph job
        Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM := VmRSS
        before = status_kib(pid, "VmRSS")

        def one(k: int) -> int:
            unit = units[k % len(units)]
            op = {"op": "set_text", "unit": unit["id"], "before": unit["text"], "text": unit["text"] + f" X{k}"}
            return requests.post(f"{srv.url}/api/v1/documents/{doc}/apply", timeout=900,
                                 json={"author": "A", "operations": [op]}).status_code

        started = time.monotonic()
        with ThreadPoolExecutor(applies) as pool:
            codes = list(pool.map(one, range(applies)))
        took = time.monotonic() - started
        peak = status_kib(pid, "VmHWM")
        return {"root": str(root or "this checkout"), "codes": codes, "seconds": round(took, 1),
                "rss_before_mb": before // 1024, "peak_mb": peak // 1024, "peak_above_mb": (peak - before) // 1024}


def main(argv: list[str]) -> int:
    from tests.servers import LedgerServer

    if argv and argv[0] == "--concurrent":
        rest = argv[1:]
        peer = None
        if rest[:1] == ["--peer"]:
            peer, rest = Path(rest[1]), rest[2:]
        given = None
        if rest[:1] == ["--file"]:
            given, rest = Path(rest[1]), rest[2:]
        paragraphs = int(rest[0]) if rest else 12000
        applies = int(rest[1]) if len(rest) > 1 else 4
        data = given.read_bytes() if given else document(paragraphs)
        what = given.name if given else f"{paragraphs} paragraphs"
        print(f"document: {what}, {len(data):,} bytes; {applies} applies at once")
        for root in ([peer] if peer else []) + [None]:
            print(json.dumps(concurrent(data, applies, root)))
        return 0
    paragraphs = int(argv[0]) if argv else 12000
    applies = int(argv[1]) if len(argv) > 1 else 4
    data = document(paragraphs)
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}
    with tempfile.TemporaryDirectory() as folder, LedgerServer(Path(folder), workers=1, threads=4, env=env) as srv:
        (pid,) = srv.worker_pids()

        def rss() -> int:
            return srv.rss_kib()[pid] // 1024

        print(f"document: {paragraphs} paragraphs, {len(data):,} bytes; worker at start {rss()} MB")
        doc = requests.post(f"{srv.url}/api/v1/documents?filename=m.docx", data=data, timeout=300,
                            headers={"Content-Type": "application/octet-stream"}).json()["id"]
        while requests.get(f"{srv.url}/api/v1/jobs/{doc}-graph", timeout=30).json()["status"] not in ("done", "failed"):
            time.sleep(0.5)
        print(f"after the upload and its graph: {rss()} MB")
        unit = requests.get(f"{srv.url}/api/v1/documents/{doc}/units?kind=paragraph&limit=1", timeout=30).json()["units"][0]
        op = {"op": "set_text", "unit": unit["id"], "before": unit["text"], "text": unit["text"] + " X"}
        for k in range(applies):
            started = time.monotonic()
            r = requests.post(f"{srv.url}/api/v1/documents/{doc}/apply", json={"author": "A", "operations": [op]},
                              timeout=600)
            print(f"apply {k + 1}: {r.status_code} in {time.monotonic() - started:.1f} s, {rss()} MB")
        time.sleep(2)
        print(f"idle: {rss()} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
