"""The web worker's peak resident memory while it takes one large upload (issue 33, item 5).

    python -m benchmarks.upload_memory [--peer CHECKOUT] [MB] [--chunked]

Builds a .docx of a few paragraphs carrying MB megabytes of incompressible media (a package the
readers accept: its size is the photos a real document carries), starts ``ledger serve``
(1 worker x 4 threads, no RELATED) in a temporary folder, resets the worker's ``VmHWM`` through
``/proc/PID/clear_refs`` and sends the upload: it prints the answer and the worker's peak above
its RSS before. ``--chunked`` sends the body without a Content-Length. With ``--peer`` the same
run measures that checkout's server first (another commit, e.g. ``git archive`` of the one
before), then this one.
"""
from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Iterator

import requests

__all__ = ["main", "document"]


def document(mb: float) -> bytes:
    """A small python-docx document with ``mb`` MB of random bytes stored as a media part."""
    import docx

    d = docx.Document()
    for i in range(20):
        d.add_paragraph(f"Paragraph {i}: the supplier shall deliver the goods within thirty days {i}.")
    small = io.BytesIO()
    d.save(small)
    out = io.BytesIO()
    with zipfile.ZipFile(small) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info.filename))
        dst.writestr(zipfile.ZipInfo("word/media/photo.bin"), os.urandom(int(mb * 1024 * 1024)),
                     compress_type=zipfile.ZIP_STORED)
    return out.getvalue()


def measure(data: bytes, root: Path | None, chunked: bool = False) -> dict[str, object]:
    """One upload of ``data`` to a fresh server of checkout ``root``: its answer and the worker's
    RSS before it and peak while it was taken in."""
    from benchmarks.apply_memory import status_kib
    from tests.servers import LedgerServer

    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}
    with tempfile.TemporaryDirectory() as folder, LedgerServer(Path(folder), workers=1, threads=4, env=env,
                                                               root=root) as srv:
        (pid,) = srv.worker_pids()
        time.sleep(1)
        Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM := VmRSS
        before = status_kib(pid, "VmRSS")

        def pieces() -> Iterator[bytes]:
            for at in range(0, len(data), 1 << 20):
                yield data[at:at + (1 << 20)]

        started = time.monotonic()
        r = requests.post(f"{srv.url}/api/v1/documents?filename=big.docx", timeout=600,
                          data=pieces() if chunked else data, headers={"Content-Type": "application/octet-stream"})
        took = time.monotonic() - started
        peak = status_kib(pid, "VmHWM")
        code = r.json()["error"]["code"] if r.status_code >= 400 else r.json()["id"][:6]
        return {"root": str(root or "this checkout"), "status": r.status_code, "answer": code,
                "seconds": round(took, 2), "rss_before_mb": before // 1024, "peak_mb": peak // 1024,
                "peak_above_mb": (peak - before) // 1024}


def main(argv: list[str]) -> int:
    peer = None
    if argv[:1] == ["--peer"]:
        peer, argv = Path(argv[1]), argv[2:]
    chunked = "--chunked" in argv
    argv = [a for a in argv if a != "--chunked"]
    mb = float(argv[0]) if argv else 40.0
    data = document(mb)
    print(f"upload: {len(data):,} bytes ({mb:g} MB of media){', chunked' if chunked else ''}")
    for root in ([peer] if peer else []) + [None]:
        print(json.dumps(measure(data, root, chunked)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
