"""A worker's resident memory across repeated applies of one large document (issue 24).

    python -m benchmarks.apply_memory [PARAGRAPHS] [APPLIES]   (default: 12000 4)

Starts ``ledger serve`` (1 worker x 4 threads, no RELATED) in a temporary folder, uploads a
.docx of PARAGRAPHS paragraphs, waits for its graph, applies one operation APPLIES times and
prints the worker's RSS after each step and after 2 s idle.
"""
from __future__ import annotations

import io
import sys
import tempfile
import time
from pathlib import Path

import requests

__all__ = ["main"]


def _document(paragraphs: int) -> bytes:
    import docx

    d = docx.Document()
    for i in range(paragraphs):
        d.add_paragraph(f"Paragraph {i}: the supplier shall deliver the goods described in the schedule within "
                        f"thirty days of the order, at the place named there, unless the buyer agrees otherwise {i}.")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def main(argv: list[str]) -> int:
    from tests.servers import LedgerServer

    paragraphs = int(argv[0]) if argv else 12000
    applies = int(argv[1]) if len(argv) > 1 else 4
    data = _document(paragraphs)
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
