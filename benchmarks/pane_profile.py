"""Where the pane's Run check, preview and Apply spend their CPU, in the server's own code: the
app is created in this process (the Flask test client, threads for the jobs, no HTTP), a file
is uploaded and its analysis followed to the end, then each route is called once under cProfile.

    python -m benchmarks.pane_profile --file spec-5600.docx \\
        --instruction 'Rename "gateway" to "relay node" everywhere' [--top 30] [--out DIR]

    python -m benchmarks.pane_profile --first-check FILE [--first-check FILE ...]

Run check is computed by the request: the check the job kept is discarded first (what the pane
gets when it asks before the job's ``check`` stage). Prints each step's seconds and the
functions with the most cumulative time; with ``--out`` it keeps the ``.prof`` files. The
wall time the pane sees (HTTP, the job processes beside the request) is :mod:`.pane_bench`'s.
``--first-check`` prints the CPU seconds of each file's first check in this process, warmed by a
check of a small wild file first (as a web worker that has served before): run it once per
checkout with that checkout's ``PYTHONPATH``, the checkouts taking turns.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

__all__ = ["profile_steps", "first_check_cpu", "main"]

WARM_FILE = Path(__file__).resolve().parent.parent.parent / "shared" / "devset" / "wild" / "sarif-en05-result-matching.docx"


def _profiled(name: str, call: Callable[[], Any], top: int, out: Path | None) -> Any:
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    answer = call()
    prof.disable()
    print(f"== {name}: {time.perf_counter() - t0:.2f} s under cProfile, HTTP {answer.status_code}")
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("cumulative").print_stats(top)
    print(text.getvalue())
    if out is not None:
        prof.dump_stats(out / f"{name}.prof")
    return answer


def profile_steps(path: Path, instruction: str, *, top: int = 30, out: Path | None = None,
                  semantic: bool = False) -> dict[str, Any]:
    """Upload ``path``, wait for its analysis, then profile Run check (computed), the preview of
    ``instruction`` and the Apply of all its operations; returns counts for the caller."""
    from addin_backend.api import create_app
    from addin_backend.service.checks import DEFAULT_MAX_FINDINGS, check_key
    from addin_backend.service.styles import resolve_style

    with tempfile.TemporaryDirectory(prefix="pane-profile-") as data:
        app = create_app({"TESTING": True, "DATA_DIR": data, "GRAPH_SEMANTIC": semantic})
        try:
            client = app.test_client()
            with open(path, "rb") as f:
                up = client.post("/api/v1/documents", data={"file": (f, path.name)},
                                 content_type="multipart/form-data").get_json()
            doc_id, job = up["id"], up["job"]
            while job["status"] not in ("done", "failed"):
                time.sleep(0.5)
                job = client.get(f"/api/v1/jobs/{job['id']}").get_json()
            print(f"analysis: {job['status']}, stages {[(s['name'], s['seconds']) for s in job.get('stage_log', [])]}")
            store = app.extensions["ledger.store"]
            store.discard(doc_id, [check_key(None, resolve_style(store, None), DEFAULT_MAX_FINDINGS)])
            check = _profiled("check", lambda: client.get(f"/api/v1/documents/{doc_id}/check"), top, out)
            preview = _profiled("preview", lambda: client.post(f"/api/v1/documents/{doc_id}/proposals", json={
                "instruction": instruction, "author": "Profiler"}), top, out).get_json()
            applied = _profiled("apply", lambda: client.post(f"/api/v1/documents/{doc_id}/apply", json={
                "proposal_id": preview["id"], "author": "Profiler"}), top, out)
            return {"findings": len(check.get_json()["findings"]), "operations": len(preview["operations"]),
                    "applied": applied.status_code}
        finally:
            app.extensions["ledger.jobs"].shutdown()
            app.extensions["ledger.store"].close()


def first_check_cpu(path: Path, warm: Path = WARM_FILE) -> float:
    """CPU seconds (this process) of the check of ``path``, its first here, after a check of
    ``warm`` (the models and word lists loaded once per process are not counted)."""
    from adapters import read
    from addin_backend.service import graphs
    from addin_backend.service.checks import check

    first = read(warm.read_bytes())
    check(first, graphs.build(first, "fast"))
    doc = read(path.read_bytes())
    G = graphs.build(doc, "fast")
    t0 = time.process_time()
    check(doc, G)
    return time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--file", type=Path)
    p.add_argument("--instruction")
    p.add_argument("--first-check", type=Path, action="append", help="a file whose first check's CPU is printed")
    p.add_argument("--top", type=int, default=30)
    p.add_argument("--out", type=Path, help="a folder for the .prof files")
    p.add_argument("--semantic", action="store_true", help="RELATED too (off: the analysis ends sooner)")
    a = p.parse_args(argv)
    if a.first_check:
        for f in a.first_check:
            print(f"{f.name}: first check {first_check_cpu(f):.2f} CPU s")
        return 0
    if a.file is None or a.instruction is None:
        p.error("--file and --instruction (or --first-check)")
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    print(profile_steps(a.file, a.instruction, top=a.top, out=a.out, semantic=a.semantic))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
