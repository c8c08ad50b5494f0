"""What a task-pane user waits for on a real standard: the server's side of each step, timed
against ``ledger serve`` on loopback.

    python -m benchmarks.pane_bench [--file ../shared/devset/rfc/rfc9000.A.docx]
                                    [--instruction '...'] [--clicks 5] [--doc docs/benchmarks.md] [--json OUT]

Starts ``ledger serve`` (one worker, a new data folder: no embedding cached, RELATED on) and
walks the pane's path: upload -> outline usable (the upload's answer, then the outline route);
click -> dependency panel (``POST .../impact`` on a few units, once the job says ``impact`` is
ready); instruction -> preview (``POST .../proposals``, following its job if it answers 202);
apply (``POST .../apply`` of every operation); review (the applied file reviewed as Word saves
it, a third of the changes accepted, a third rejected, a third left, then ``POST
.../revisions/{rev}/review``); and, last, when the whole analysis (RELATED) was complete. Prints
a table; with ``--doc`` it rewrites the ``pane-bench`` block of that Markdown file
(:mod:`benchmarks.doc_block`). The browser's own time (drawing, Office.js) is not in these
figures: the task pane's browser test measures that.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

import requests

from tests.servers import LedgerServer

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT.parent / "shared" / "devset" / "rfc" / "rfc9000.A.docx"
DEFAULT_INSTRUCTION = 'Rename "connection ID" to "connection identifier" everywhere'
KEY = "bench-pane-key-0123456789"
AUTHOR = "Ada Lovelace"

__all__ = ["run", "table", "main"]


def _follow(s: requests.Session, url: str, job: dict[str, Any], until, limit: float) -> dict[str, Any]:
    """Poll a job (every 0.1 s) until ``until(record)`` or it ends."""
    t0 = time.perf_counter()
    rec = job
    while time.perf_counter() - t0 < limit:
        rec = s.get(f"{url}/api/v1/jobs/{job['id']}", timeout=60).json()
        if until(rec) or rec["status"] in ("done", "failed"):
            return rec
        time.sleep(0.1)
    return rec


def _edit_steps(s: requests.Session, url: str, doc_id: str, instruction: str, limit: float) -> dict[str, Any]:
    """instruction -> preview, apply, review (a third accepted, a third rejected, a third left)."""
    from tests.addin_backend.reviewkit import word_review

    api = f"{url}/api/v1"
    out: dict[str, Any] = {}
    t = time.perf_counter()
    r = s.post(f"{api}/documents/{doc_id}/proposals", json={"instruction": instruction, "author": AUTHOR},
               timeout=600)
    answered = r.status_code
    if r.status_code == 202:
        job = _follow(s, url, r.json()["job"], lambda _r: False, limit)
        proposal = job["result"]
    else:
        r.raise_for_status()
        proposal = r.json()
    out["preview_s"] = time.perf_counter() - t
    out["preview_status"] = answered
    out["operations"] = len(proposal["operations"])
    out["preview_partial"] = proposal.get("partial")

    t = time.perf_counter()
    applied = s.post(f"{api}/documents/{doc_id}/apply", json={"proposal_id": proposal["id"], "author": AUTHOR},
                     timeout=600)
    applied.raise_for_status()
    rev = applied.json()["revision"]
    out["apply_s"] = time.perf_counter() - t
    edited = s.get(f"{api}/documents/{doc_id}/revisions/{rev}/file", timeout=120).content

    n = [0]

    def thirds(_text: str) -> str | None:
        n[0] += 1
        return ("accept", "reject", None)[n[0] % 3]

    reviewed = word_review(edited, AUTHOR, thirds)
    t = time.perf_counter()
    r = s.post(f"{api}/documents/{doc_id}/revisions/{rev}/review", data=reviewed, timeout=600,
               headers={"Content-Type": "application/octet-stream"})
    r.raise_for_status()
    out["review_s"] = time.perf_counter() - t
    review = r.json()
    out["review_counts"] = review["counts"]
    out["review_exact"] = review["exact"]
    out["review_items"] = len(review["operations"])

    return out


def run(url: str, data: bytes, name: str, instruction: str, clicks: int = 5, limit: float = 900.0) -> dict[str, Any]:
    """The timings of one walk through the pane's steps (seconds), with what each step returned."""
    s = requests.Session()
    s.headers.update({"Authorization": f"Bearer {KEY}"})
    api = f"{url}/api/v1"
    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    up = s.post(f"{api}/documents?filename={name}", data=data, timeout=120,
                headers={"Content-Type": "application/octet-stream"})
    up.raise_for_status()
    doc = up.json()
    out["upload_s"] = time.perf_counter() - t0
    outline = s.get(f"{api}/documents/{doc['id']}/outline", timeout=60)
    outline.raise_for_status()
    out["outline_s"] = time.perf_counter() - t0
    out["units"] = doc["units"]
    out["ready_at_upload"] = doc["job"].get("ready")

    rec = _follow(s, url, doc["job"], lambda r: "impact" in r.get("ready", ()), limit)
    out["panel_ready_s"] = time.perf_counter() - t0
    graph = s.get(f"{api}/documents/{doc['id']}/graph?types=REFERENCES", timeout=60).json()
    sources = list(dict.fromkeys(e["source"] for e in graph["edges"] if e["type"] == "REFERENCES"))
    picks = [sources[i * len(sources) // clicks] for i in range(min(clicks, len(sources)))]
    click_s = []
    for unit in picks:
        t = time.perf_counter()
        r = s.post(f"{api}/documents/{doc['id']}/impact", json={"unit": unit}, timeout=60)
        r.raise_for_status()
        click_s.append(time.perf_counter() - t)
    out["click_s"] = click_s
    out["panel_partial"] = r.json().get("partial")

    out.update(_edit_steps(s, url, doc["id"], instruction, limit))
    rec = _follow(s, url, doc["job"], lambda _r: False, limit)
    out["complete_s"] = time.perf_counter() - t0
    out["job_status"] = rec["status"]
    out["stage_seconds"] = {st["name"]: st["seconds"] for st in rec.get("stage_log", [])}
    # the same steps once the analysis is over: what they cost without RELATED running beside them
    out["quiet"] = _edit_steps(s, url, doc["id"], instruction, limit)
    s.delete(f"{api}/documents/{doc['id']}", timeout=60)
    return out


def table(r: dict[str, Any]) -> str:
    """The figures as a fixed-width table."""
    clicks = r["click_s"]
    rows = [
        ("upload -> outline usable", r["outline_s"], f"upload answered in {r['upload_s']:.2f} s; {r['units']} units"),
        ("upload -> dependency panel usable", r["panel_ready_s"], "job ready: impact (REFERENCES stored)"),
        ("click -> dependency panel", statistics.median(clicks),
         f"median of {len(clicks)} units, max {max(clicks):.2f} s; partial {r['panel_partial']}"),
        ("instruction -> preview", r["preview_s"],
         f"{r['operations']} operations; HTTP {r['preview_status']}; partial {r['preview_partial']}"),
        ("apply", r["apply_s"], f"{r['operations']} tracked changes with comments"),
        ("review of the applied changes", r["review_s"],
         f"{r['review_items']} items {r['review_counts']}, exact {r['review_exact']}"),
        ("upload -> whole analysis (RELATED)", r["complete_s"], f"job {r['job_status']}; stages {r['stage_seconds']}"),
        ("after it: instruction -> preview", r["quiet"]["preview_s"], f"HTTP {r['quiet']['preview_status']}"),
        ("after it: apply", r["quiet"]["apply_s"], ""),
        ("after it: review", r["quiet"]["review_s"],
         f"{r['quiet']['review_items']} items, exact {r['quiet']['review_exact']}"),
    ]
    width = max(len(a) for a, _b, _c in rows)
    lines = [f"{'step':<{width}}  {'seconds':>8}  notes", f"{'-' * width}  {'-' * 8}  -----"]
    lines += [f"{a:<{width}}  {b:8.2f}  {c}" for a, b, c in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.pane_bench", description=__doc__.split("\n")[0])
    p.add_argument("--file", type=Path, default=DEFAULT_FILE)
    p.add_argument("--instruction", default=DEFAULT_INSTRUCTION)
    p.add_argument("--clicks", type=int, default=5)
    p.add_argument("--doc", type=Path, help="Markdown file whose pane-bench block is replaced")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    if not args.file.exists():
        p.error(f"{args.file} is missing (the development set: DEVSET=DIR)")
    env = {"LEDGER_API_KEYS": KEY, "LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "1"}
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="ledger-pane-bench-") as tmp:
        with LedgerServer(Path(tmp), workers=1, threads=4, env=env) as srv:
            result = run(srv.url, args.file.read_bytes(), args.file.name, args.instruction, clicks=args.clicks)
    result["load"] = [round(load, 1), round(os.getloadavg()[0], 1)]
    result["cpus"] = os.cpu_count()
    text = table(result)
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    if args.doc:
        from benchmarks.doc_block import replace_block

        replace_block(args.doc, "pane-bench",
                      f"Measured {time.strftime('%Y-%m-%d')} with `make bench-pane` (`python -m benchmarks.pane_bench`) "
                      f"on `{args.file.name}`: `ledger serve` on loopback, one worker, a fresh data folder (no "
                      f"embedding cached), instruction `{args.instruction}`; a Word-style review accepting, rejecting "
                      f"and leaving a third each; {result['cpus']} cores, load average {result['load'][0]} before and "
                      f"{result['load'][1]} after (other work on the machine slows every figure). Server time as "
                      f"the pane sees it (HTTP round trips), not the browser's drawing; the last three rows repeat "
                      f"the edit once the analysis is over:\n\n```\n{text}\n```\n", "Task pane steps")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
