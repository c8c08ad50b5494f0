"""What a task-pane user waits for on a real standard: the server's side of each step, timed
against ``ledger serve`` on loopback.

    python -m benchmarks.pane_bench [--file ../shared/devset/rfc/rfc9000.A.docx]
                                    [--instruction '...'] [--clicks 5] [--doc docs/benchmarks.md] [--json OUT]
    python -m benchmarks.pane_bench --peer ../baseline --file A.docx --instruction '...' \
                                    [--file B.docx --instruction '...'] [--reps 1] [--json OUT]

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

With ``--peer DIR`` (issue 32) each file is walked on this checkout's server and on the peer's
(``DIR``: another checkout, served from its own folder), the two taking turns, and every step is
printed with its wall seconds and the server's CPU seconds (user + system of the gunicorn
worker, from /proc; while the analysis runs, its background stages count in the same process,
so the steps after it are the clean ones); "Run check" (``GET .../check``) is asked as soon as
the upload answers, as the pane's button allows.
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
from typing import Any, Callable, Sequence

import requests

from tests.servers import LedgerServer

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = ROOT.parent / "shared" / "devset" / "rfc" / "rfc9000.A.docx"
DEFAULT_INSTRUCTION = 'Rename "connection ID" to "connection identifier" everywhere'
KEY = "bench-pane-key-0123456789"
AUTHOR = "Ada Lovelace"

__all__ = ["run", "table", "walk", "run_peer", "peer_table", "main"]


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
    if r.status_code == 202:  # a review past LEDGER_SYNC_REVIEW_COST runs as a job; its result is the report
        review = _follow(s, url, r.json()["job"], lambda _r: False, limit)["result"]
    else:
        r.raise_for_status()
        review = r.json()
    out["review_s"] = time.perf_counter() - t
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


def _timed(steps: dict[str, dict[str, float]], label: str, cpu: Callable[[], float], fn: Callable[[], Any]) -> Any:
    """Run ``fn``, keeping its wall seconds and the server's CPU seconds under ``label``."""
    c, t = cpu(), time.perf_counter()
    out = fn()
    steps[label] = {"wall": round(time.perf_counter() - t, 3), "cpu": round(cpu() - c, 3)}
    return out


def _preview(s: requests.Session, url: str, doc_id: str, instruction: str, limit: float) -> dict[str, Any]:
    """The proposal for ``instruction`` (following its job when the server answers 202)."""
    r = s.post(f"{url}/api/v1/documents/{doc_id}/proposals", json={"instruction": instruction, "author": AUTHOR},
               timeout=600)
    if r.status_code == 202:
        return dict(_follow(s, url, r.json()["job"], lambda _r: False, limit)["result"], answered=202)
    r.raise_for_status()
    return dict(r.json(), answered=r.status_code)


def _apply(s: requests.Session, url: str, doc_id: str, proposal: dict[str, Any]) -> dict[str, Any]:
    r = s.post(f"{url}/api/v1/documents/{doc_id}/apply", json={"proposal_id": proposal["id"], "author": AUTHOR},
               timeout=600)
    r.raise_for_status()
    return r.json()


def _check(s: requests.Session, url: str, doc_id: str) -> dict[str, Any]:
    r = s.get(f"{url}/api/v1/documents/{doc_id}/check", timeout=600)
    r.raise_for_status()
    return r.json()


def walk(url: str, data: bytes, name: str, instruction: str, cpu: Callable[[], float],
         limit: float = 900.0, check_at: str = "upload") -> dict[str, Any]:
    """The pane's steps of issue 32, each with wall and server CPU seconds: upload; Run check as
    soon as the upload answered (``check_at="findings"``: once the job says the findings are
    ready); the analysis followed (its progress and what it says is ready, as the pane shows
    them) until proposals are ready; the preview of ``instruction`` and its Apply; the analysis
    followed to its end; then the preview and Apply again, the analysis over (the clean
    figures)."""
    s = requests.Session()
    s.headers.update({"Authorization": f"Bearer {KEY}"})
    api = f"{url}/api/v1"
    steps: dict[str, dict[str, float]] = {}
    out: dict[str, Any] = {"steps": steps}
    t0, c0 = time.perf_counter(), cpu()
    up = _timed(steps, "upload", cpu, lambda: s.post(f"{api}/documents?filename={name}", data=data, timeout=120,
                                                      headers={"Content-Type": "application/octet-stream"}))
    up.raise_for_status()
    doc = up.json()
    out["units"] = doc["units"]
    seen: list[dict[str, Any]] = []  # the progress the pane shows, each time it changed

    def watch(rec: dict[str, Any]) -> bool:
        sample = {"t": round(time.perf_counter() - t0, 2), "progress": round(float(rec.get("progress") or 0), 3),
                  "stage": rec.get("stage"), "ready": list(rec.get("ready", ()))}
        if not seen or (seen[-1]["progress"], seen[-1]["ready"]) != (sample["progress"], sample["ready"]):
            seen.append(sample)
        return False

    def check() -> None:
        out["findings"] = len(_timed(steps, "run check", cpu, lambda: _check(s, url, doc["id"]))["findings"])
        out["check_at_s"] = round(time.perf_counter() - t0 - steps["run check"]["wall"], 2)

    if check_at == "upload":
        check()
    else:  # when the job says the findings are ready (or has ended)
        _follow(s, url, doc["job"], lambda r: watch(r) or check_at in r.get("ready", ()), limit)
        check()
    _follow(s, url, doc["job"], lambda r: watch(r) or "proposals" in r.get("ready", ()), limit)
    out["proposals_ready_s"] = round(time.perf_counter() - t0, 2)
    proposal = _timed(steps, "preview", cpu, lambda: _preview(s, url, doc["id"], instruction, limit))
    out["operations"] = len(proposal["operations"])
    out["preview_status"] = proposal["answered"]
    out["preview_partial"] = proposal.get("partial")
    _timed(steps, "apply", cpu, lambda: _apply(s, url, doc["id"], proposal))
    rec = _follow(s, url, doc["job"], watch, limit)
    out["complete_s"] = round(time.perf_counter() - t0, 2)
    out["complete_cpu"] = round(cpu() - c0, 2)
    out["job_status"] = rec["status"]
    out["stage_seconds"] = {st["name"]: st["seconds"] for st in rec.get("stage_log", [])}
    out["progress"] = seen
    quiet = _timed(steps, "preview, analysis over", cpu, lambda: _preview(s, url, doc["id"], instruction, limit))
    _timed(steps, "apply, analysis over", cpu, lambda: _apply(s, url, doc["id"], quiet))
    s.delete(f"{api}/documents/{doc['id']}", timeout=60)
    return out


#: The rows of :func:`peer_table`, in the pane's order.
PEER_STEPS = ("upload", "run check", "preview", "apply", "preview, analysis over", "apply, analysis over")


def peer_table(name: str, runs: dict[str, list[dict[str, Any]]]) -> str:
    """One file's steps in each checkout (``runs``: name -> walks; medians over the walks): wall
    and server CPU seconds; the first checkout is the one the others are compared with."""
    def med(walks: list[dict[str, Any]], step: str, what: str) -> float:
        return statistics.median(r["steps"][step][what] for r in walks)

    def whole(walks: list[dict[str, Any]], what: str) -> float:
        return statistics.median(r[what] for r in walks)

    sides = list(runs)
    sizes = "; ".join(f"{side}: {runs[side][0]['units']:,} units, a preview of {runs[side][0]['operations']} "
                      f"operations (HTTP {runs[side][0]['preview_status']})" for side in sides)
    head = "| step | " + " | ".join(f"{side}: wall s | server CPU s" for side in sides) + " |"
    lines = [f"**{name}** ({sizes})", "", head, "|---|" + "---:|---:|" * len(sides)]
    for step in PEER_STEPS:
        lines.append(f"| {step} | " + " | ".join(f"{med(runs[side], step, 'wall'):.2f} | {med(runs[side], step, 'cpu'):.2f}"
                                                for side in sides) + " |")
    lines.append("| upload -> proposals ready | " + " | ".join(f"{whole(runs[side], 'proposals_ready_s'):.2f} | "
                                                              for side in sides) + " |")
    lines.append("| upload -> whole analysis | " + " | ".join(
        f"{whole(runs[side], 'complete_s'):.2f} | {whole(runs[side], 'complete_cpu'):.2f}" for side in sides) + " |")
    lines += [""] + [f"Stages (s), {side}: {runs[side][0]['stage_seconds']}." for side in sides]
    return "\n".join(lines)


def run_peer(files: Sequence[tuple[Path, str]], checkouts: Sequence[tuple[str, Path]], reps: int = 1,
             check_at: str = "upload") -> dict[str, Any]:
    """Each file walked (:func:`walk`) on a fresh server of each checkout (``(name, folder)``),
    taking turns (the order rotates with each repetition), ``reps`` times."""
    env = {"LEDGER_API_KEYS": KEY, "LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "1"}
    out: dict[str, Any] = {"load": [round(os.getloadavg()[0], 1)], "cpus": os.cpu_count(), "files": {},
                           "checkouts": {name: str(root) for name, root in checkouts}}
    for path, instruction in files:
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name, _root in checkouts}
        for rep in range(reps):
            turn = list(checkouts[rep % len(checkouts):]) + list(checkouts[:rep % len(checkouts)])
            for side, root in turn:
                with tempfile.TemporaryDirectory(prefix="ledger-pane-bench-") as tmp:
                    with LedgerServer(Path(tmp), workers=1, threads=4, env=env, root=root) as srv:
                        r = walk(srv.url, path.read_bytes(), path.name, instruction, srv.cpu_seconds,
                                 check_at=check_at)
                runs[side].append(r)
                print(f"{path.name} {side}: " + ", ".join(f"{k} {v['wall']:.2f}/{v['cpu']:.2f}"
                                                           for k, v in r["steps"].items())
                      + f"; proposals ready {r['proposals_ready_s']:.1f} s; complete {r['complete_s']:.1f} s",
                      flush=True)
        out["files"][path.name] = {"instruction": instruction, **runs}
    out["load"].append(round(os.getloadavg()[0], 1))
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
    p.add_argument("--file", type=Path, action="append", help="a document (repeat with --peer)")
    p.add_argument("--instruction", action="append", help="the rename previewed and applied (one per --file)")
    p.add_argument("--peer", type=Path, action="append",
                   help="another checkout (repeatable): walk each file on each, taking turns")
    p.add_argument("--this", type=Path, default=ROOT,
                   help="the checkout compared with the peers (default: this one; a snapshot of a commit)")
    p.add_argument("--reps", type=int, default=1, help="walks per file and checkout (with --peer)")
    p.add_argument("--check-at", choices=("upload", "findings"), default="upload",
                   help="Run check as the upload answers, or once the job says the findings are ready (with --peer)")
    p.add_argument("--clicks", type=int, default=5)
    p.add_argument("--doc", type=Path, help="Markdown file whose pane-bench block is replaced")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    files = args.file or [DEFAULT_FILE]
    instructions = args.instruction or [DEFAULT_INSTRUCTION]
    if len(instructions) == 1:
        instructions = instructions * len(files)
    if len(instructions) != len(files):
        p.error("give one --instruction, or one per --file")
    for f in files:
        if not f.exists():
            p.error(f"{f} is missing (the development set: DEVSET=DIR)")
    if args.peer is not None:
        return _main_peer(args, list(zip(files, instructions)))
    args.file, args.instruction = files[0], instructions[0]
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


def _main_peer(args: argparse.Namespace, files: list[tuple[Path, str]]) -> int:
    checkouts = [("this", args.this)] + [(f"peer {p.name}", p) for p in args.peer]
    result = run_peer(files, checkouts, reps=args.reps, check_at=args.check_at)
    tables = [peer_table(name, {side: r[side] for side, _root in checkouts}) for name, r in result["files"].items()]
    text = (f"Measured {time.strftime('%Y-%m-%d')} on {result['cpus']} CPUs with `nice -n 10 python -m benchmarks.pane_bench "
            + " ".join(f"--file {f.name} --instruction '{i}'" for f, i in files)
            + "".join(f" --peer {p}" for p in args.peer) + f" --reps {args.reps} --check-at {args.check_at}` "
            f"(load average {result['load'][0]} "
            f"before, {result['load'][1]} after)" + ":\n\n" + "\n\n".join(tables) + "\n")
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
