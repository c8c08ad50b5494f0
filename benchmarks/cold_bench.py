"""The first minute with a new document (issue 32): each step a new user takes, cold and warm, in
new processes, against a peer checkout (the code before) in one run, interleaved.

    python -m benchmarks.cold_bench --file DOC [--file DOC ...] --peer DIR
        [--rename 'Rename "a" to "b" everywhere' ...] [--find TEXT ...] [--json OUT] [--doc docs/benchmarks.md]

Cold: each step in a new process whose caches are a new, empty folder (``LEDGER_CACHE_DIR`` and
``XDG_CACHE_HOME``: the embeddings, the documents and graphs the command line keeps, anything
else under the user's cache); what the installation prepared stays (this checkout's ONNX export in
the environment, ``make models``; the peer's export, which its installation wrote into the user's
cache, is linked into the new folder: the peer is not charged for a model export either). spaCy
and the model weights come from installed packages and have no cache. Steps, each cold:

- ``rename``: ``ledger edit DOC --instruction RENAME --engine rules -o OUT`` (the first rename);
- ``graph``: ``ledger graph DOC --json`` (the complete graph, RELATED included); its
  ``seconds_by_stage`` give the semantic stage's seconds per unit;
- ``context``: ``ledger context DOC --find TEXT --instruction 'Shorten this' --json``;
- ``check``: ``ledger check DOC --json``.

Then the semantic stage alone in each checkout (:func:`semantic_stage`): CPU seconds per unit,
its model loaded before it and timed apart.

Warm, in the folder the cold ``graph`` left: ``context`` and ``check`` again, then ``context``
once more (a second ``ledger context``). Each row is one process: its wall seconds, its CPU seconds
(user + system, all threads) and its peak RSS (``wait4``). The machine is shared: compare a row
with its peer's, taken just before or after it, not with other days' figures.

``--semantic REPS`` times the semantic stage alone (:func:`semantic_rounds`): ``REPS`` rounds per
document, this checkout then the peer in each, each in a new process with empty caches; its block
in ``--doc`` is ``cold-start-semantic``.

``--second-context REPS`` times the second ``ledger context`` alone (:func:`second_context`): in
each checkout one context fills an empty cache, then the second context runs ``REPS`` times, and
as many on another selection (:data:`OTHER_FINDS`), and a second check and rename (each filled
by a first one: :data:`SECOND_COMMANDS`), the two checkouts taking turns; its block in ``--doc``
is ``cold-start-second-context``. ``--before DIR`` adds a third checkout to it (the commit before
this one's change), measured in the same turns, so that a change is compared with its parent and
the peer in one run.

Both checkouts run from their bytecode, written before the first step (:func:`compile_checkout`),
as an installed program does. ``--this DIR`` measures another checkout than this one (a snapshot
of a commit: ``git worktree add``), so that edits made in this one during a long run stay out.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["compile_checkout", "run_step", "semantic_stage", "bench_file", "second_context", "semantic_rounds", "semantic_markdown",
           "markdown", "main"]

DEFAULT_RENAMES = {
    "rfc": 'Rename "connection ID" to "connection identifier" everywhere',
    "mqtt": 'Rename "gateway" to "relay" everywhere',
    "synth": 'Rename "label latency" to "label lag" everywhere',
}
DEFAULT_FINDS = {"rfc": "persistent congestion", "mqtt": "keep alive", "synth": "serving skew"}
#: A second context on another part of the document (``--second-context``): what the first did
#: not pack is not kept, so this one shows the cost of a new question on a kept graph.
OTHER_FINDS = {"rfc": "stateless reset", "mqtt": "sleeping client", "synth": "label latency"}


def _env(cache: Path) -> dict[str, str]:
    # An installed program runs from its bytecode (pip compiles it): a sandbox that forbids writing
    # it (PYTHONDONTWRITEBYTECODE) would charge every command the compiling of each module it
    # imports, which no user pays; :func:`compile_checkout` writes it for both checkouts alike.
    env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_") and k != "PYTHONDONTWRITEBYTECODE"}
    env.update({"LEDGER_CACHE_DIR": str(cache), "XDG_CACHE_HOME": str(cache / "xdg"), "HF_HUB_OFFLINE": "1",
                "TRANSFORMERS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"})
    return env


def compile_checkout(code: Path) -> None:
    """Write the bytecode of a checkout's packages (untimed, in its ``__pycache__`` folders, which
    git ignores), as installing it would: no timed step pays for compiling them."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", "addin_backend", "adapters"], cwd=code,
                   env=_env(code), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


def run_step(code: Path, argv: Sequence[str], cache: Path, out: Path | None = None) -> dict[str, Any]:
    """One ``ledger`` command of the checkout ``code`` in a new process with ``cache`` as its
    caches: wall and CPU seconds, peak RSS in MB, the exit code, its JSON answer (when it printed one)."""
    env = _env(cache)
    env["PYTHONPATH"] = str(code)
    cmd = [sys.executable, "-m", "addin_backend.cli", *argv]
    t0 = time.perf_counter()
    with open(out or os.devnull, "wb") as sink:
        proc = subprocess.Popen(cmd, cwd=code, env=env, stdout=sink, stderr=subprocess.PIPE)
        assert proc.stderr is not None
        err = proc.stderr.read()
        _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    row: dict[str, Any] = {"wall": round(time.perf_counter() - t0, 2), "cpu": round(usage.ru_utime + usage.ru_stime, 2),
                           "rss_mb": round(usage.ru_maxrss / 1024), "rc": proc.returncode}
    if proc.returncode != 0:
        row["error"] = err.decode("utf-8", "replace")[-600:]
    if out is not None and out.exists():
        try:
            row["answer"] = json.loads(out.read_text(encoding="utf-8"))
        except ValueError:
            pass
    return row


#: The semantic stage alone in a child of one checkout: read, graph without RELATED, load the
#: RELATED encoder (timed apart), then the RELATED stage with no embedding cached: its CPU and wall
#: seconds (all threads) and the units it read. One JSON line.
_SEMANTIC = """
import json, sys, time
from adapters import read_path
from addin_backend.graph.build import build_graph, run_stages
from addin_backend.embeddings.encoders import related_backend
from addin_backend.language import nlp
doc = read_path(sys.argv[1])
G = build_graph(doc, semantic=False)
c0, w0 = time.process_time(), time.perf_counter()
nlp.get_embedder(related_backend())
c1, w1 = time.process_time(), time.perf_counter()
run_stages(G, doc, ["related"])
c2, w2 = time.process_time(), time.perf_counter()
print(json.dumps({"units": len(doc.units), "load_cpu": round(c1 - c0, 2), "load_wall": round(w1 - w0, 2),
                  "cpu": round(c2 - c1, 2), "wall": round(w2 - w1, 2),
                  "related": sum(1 for _u, _v, k in G.edges(keys=True) if k == "RELATED") // 2}))
"""


def semantic_stage(code: Path, path: Path, cache: Path) -> dict[str, Any]:
    """The RELATED stage of ``path`` in the checkout ``code`` (see :data:`_SEMANTIC`), its model
    loaded before it, no embedding cached: CPU ms per unit is the stage's cost, whatever else the
    machine runs."""
    env = _env(cache)
    env["PYTHONPATH"] = str(code)
    env["LEDGER_EMBEDDING_CACHE"] = "off"
    run = subprocess.run([sys.executable, "-c", _SEMANTIC, str(path)], cwd=code, env=env, capture_output=True,
                         text=True, timeout=3600)
    if run.returncode != 0:
        return {"rc": run.returncode, "error": run.stderr[-600:]}
    row = json.loads(run.stdout.strip().splitlines()[-1])
    row["cpu_ms_per_unit"] = round(1000 * row["cpu"] / max(1, row["units"]), 3)
    row["wall_ms_per_unit"] = round(1000 * row["wall"] / max(1, row["units"]), 3)
    return row


def _fresh(base: Path, name: str, peer_models: Path | None) -> Path:
    cache = base / name
    cache.mkdir(parents=True)
    if peer_models is not None:  # what the peer's installation exported into the user's cache
        (cache / "models").mkdir()
        (cache / "models" / peer_models.name).symlink_to(peer_models)
    return cache


def _summary(step: str, row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {k: row[k] for k in ("wall", "cpu", "rss_mb", "rc") if k in row}
    if "error" in row:
        out["error"] = row["error"]
    ans = row.get("answer") or {}
    if step == "graph" and "stats" in ans:
        stats = ans["stats"]
        out["units"] = stats.get("units")
        out["seconds_by_stage"] = stats.get("seconds_by_stage")
        out["edges_by_type"] = stats.get("edges_by_type")
        related = (stats.get("seconds_by_stage") or {}).get("related")
        if related is not None and stats.get("units"):
            out["related_ms_per_unit"] = round(1000 * related / stats["units"], 3)
    elif step == "rename":
        out["operations"] = len(ans.get("operations", [])) + len(ans.get("propagated", []))
    elif step.startswith("context"):
        out["units_packed"] = len(ans.get("context", []))
    elif step.startswith("check"):
        out["findings"] = len(ans.get("findings", []))
    if "stages" in ans:
        out["stages"] = ans["stages"]
    return out


#: The cold steps of :func:`bench_file`, in their order (``--steps`` picks some).
STEPS = ("rename", "graph", "context", "check")


def _written(path: Path) -> str | None:
    """The SHA-256 of a written package's ``word/document.xml`` (``content.xml`` of an .odt)
    without the date each tracked change is stamped with: whether two edits wrote the same."""
    import hashlib
    import re
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            xml = z.read("content.xml" if path.suffix == ".odt" else "word/document.xml")
    except (OSError, KeyError, zipfile.BadZipFile):
        return None
    xml = re.sub(rb'(?:w:date|dc:date)="[^"]*"|<dc:date>[^<]*</dc:date>', b"", xml)
    return hashlib.sha256(xml).hexdigest()


def _median_row(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The rep of median wall time, with every rep's wall and CPU seconds beside it."""
    ok = sorted(rows, key=lambda r: r.get("wall", 0.0))
    row = dict(ok[(len(ok) - 1) // 2])
    if len(rows) > 1:
        row["walls"], row["cpus"] = [r.get("wall") for r in rows], [r.get("cpu") for r in rows]
    return row


def bench_file(path: Path, sides: dict[str, Path], peer_models: dict[str, Path | None], rename: str, find: str,
               work: Path, log=print, steps: Sequence[str] = STEPS, reps: int = 1) -> dict[str, dict[str, Any]]:
    """Every step on ``path`` for each side, the sides taking turns step by step (``steps``: some
    of :data:`STEPS`, each ``reps`` times, the order of the sides alternating; then the warm
    steps in the cache the graph left, or the context when no graph was built, and the semantic
    stage when the graph was built)."""
    res: dict[str, dict[str, Any]] = {s: {} for s in sides}
    doc = str(path)
    cold: list[tuple[str, list[str], bool]] = [
        ("rename", ["edit", doc, "--instruction", rename, "--engine", "rules", "--json", "-o", "{out}"], False),
        ("graph", ["graph", doc, "--json"], True),
        ("context", ["context", doc, "--find", find, "--instruction", "Shorten this", "--json"], "graph" not in steps),
        ("check", ["check", doc, "--json"], False),
    ]
    context = ["context", doc, "--find", find, "--instruction", "Shorten this", "--json"]
    warm = [("second context", context)]
    if "graph" in steps:
        warm = [("context, after the graph", context), ("check, after the graph", ["check", doc, "--json"]), *warm]
    graph_cache: dict[str, Path] = {}
    for step, argv, keep in cold:
        if step not in steps:
            continue
        rows: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
        written: dict[str, set[str | None]] = {side: set() for side in sides}
        answers: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
        for rep in range(reps):
            for side, code in (list(sides.items()) if rep % 2 == 0 else list(sides.items())[::-1]):
                cache = _fresh(work, f"{side}-{path.stem}-{step}-{rep}", peer_models[side])
                out = cache / ("out" + path.suffix)
                argv2 = [a.replace("{out}", str(out)) for a in argv]
                row = run_step(code, argv2, cache, out=cache / "answer.json")
                rows[side].append(_summary(step, row))
                answers[side].append(_answer(row))
                if step == "rename":
                    written[side].add(_written(out))
                if keep:
                    graph_cache[side] = cache
                log(f"{path.name} {side:5} cold {step:8} {json.dumps({k: v for k, v in rows[side][-1].items() if k not in ('seconds_by_stage', 'edges_by_type')})}")
        for side in sides:
            res[side][step] = _median_row(rows[side])
            res[side][step]["same_answers"] = all(a == answers[side][0] for a in answers[side])
            if step == "rename":
                res[side][step]["written"] = sorted(w or "" for w in written[side])
        if "this" in answers and "peer" in answers:
            res["this"][step]["same_as_peer"] = answers["this"][0] == answers["peer"][0] and (
                step != "rename" or written["this"] == written["peer"])
    for step, argv in warm if graph_cache else ():  # (a run of the rename alone keeps no cache)
        for side, code in sides.items():
            cache = graph_cache[side]
            row = run_step(code, argv, cache, out=cache / "answer.json")
            res[side][step] = _summary(step, row)
            log(f"{path.name} {side:5} warm {step:8} {json.dumps(res[side][step])}")
    if "graph" not in steps:
        return res
    for side, code in sides.items():
        cache = _fresh(work, f"{side}-{path.stem}-semantic", peer_models[side])
        res[side]["semantic stage"] = semantic_stage(code, path, cache)
        log(f"{path.name} {side:5} semantic stage {json.dumps(res[side]['semantic stage'])}")
    return res


def _answer(row: dict[str, Any]) -> dict[str, Any]:
    """A command's JSON answer without what differs from run to run: its ``seconds``, the file an
    edit wrote (each run writes into its own folder; :func:`_written` compares what it wrote),
    and the date each tracked change and comment of an edit is stamped with."""
    out = {k: v for k, v in (row.get("answer") or {}).items() if k not in ("seconds", "output")}
    for key in ("operations", "propagated", "comments"):
        if isinstance(out.get(key), list):
            out[key] = [{k: v for k, v in op.items() if k != "date"} if isinstance(op, dict) else op for op in out[key]]
    return out


#: The second commands :func:`second_context` times besides the context: ``(label, argv)``, with
#: ``{path}`` and ``{rename}`` filled in; each one's first run fills the cache and is not a rep.
SECOND_COMMANDS = (
    ("check", ["check", "{path}", "--json"]),
    ("edit", ["edit", "{path}", "--instruction", "{rename}", "--engine", "rules", "--dry-run", "--json"]),
)


def second_context(path: Path, sides: dict[str, Path], peer_models: dict[str, Path | None], find: str, reps: int,
                   work: Path, log=print, other: str | None = None, rename: str | None = None) -> dict[str, Any]:
    """A second ``ledger context`` on ``path``: one context per checkout fills an empty cache,
    then ``reps`` more, the checkouts taking turns; each rep's wall and CPU seconds, and whether
    every answer (its ``seconds`` aside) equals the first one's. With ``other``, each rep also
    asks for the context of another selection (``other``: its rows and answers apart); with
    ``rename``, a check and a rename (``--dry-run``) are run once more to fill, then each rep
    runs them again (:data:`SECOND_COMMANDS`)."""
    context = ["context", str(path), "--find", find, "--instruction", "Shorten this", "--json"]
    asks: dict[str, list[str]] = {"reps": context}
    if other:
        asks["other"] = ["context", str(path), "--find", other, "--instruction", "Shorten this", "--json"]
    fills = ["reps"]
    if rename:
        for label, argv in SECOND_COMMANDS:
            asks[label] = [a.replace("{path}", str(path)).replace("{rename}", rename) for a in argv]
            fills.append(label)
    caches = {side: _fresh(work, f"{side}-{path.stem}-second", peer_models[side]) for side in sides}
    res: dict[str, Any] = {side: {**{ask: [] for ask in asks}, **{f"{ask}_same": True for ask in asks}}
                           for side in sides}
    answers: dict[str, dict[str, Any]] = {ask: {} for ask in asks}
    for side, code in sides.items():
        for ask in fills:
            row = run_step(code, asks[ask], caches[side], out=caches[side] / "answer.json")
            answers[ask][side] = _answer(row)
            res[side][f"{ask}_first"] = {"wall": row["wall"], "cpu": row["cpu"], "rc": row["rc"]}
            log(f"{path.name} {side:5} first {ask} {json.dumps(res[side][f'{ask}_first'])}")
    for i in range(reps):
        for side, code in (list(sides.items()) if i % 2 == 0 else list(sides.items())[::-1]):
            for ask, ask_argv in asks.items():
                row = run_step(code, ask_argv, caches[side], out=caches[side] / "answer.json")
                first = answers[ask].setdefault(side, _answer(row))
                res[side][f"{ask}_same"] = res[side][f"{ask}_same"] and row["rc"] == 0 and _answer(row) == first
                res[side][ask].append({"wall": row["wall"], "cpu": row["cpu"], "rss_mb": row["rss_mb"], "rc": row["rc"]})
                log(f"{path.name} {side:5} second {ask} {json.dumps(res[side][ask][-1])}")
    for ask in asks:
        res[f"{ask}_same_answer"] = answers[ask].get("this") == answers[ask].get("peer")
        if "before" in sides:
            res[f"{ask}_same_before"] = answers[ask].get("this") == answers[ask].get("before")
    if other:
        res["other_find"] = other
    return res


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    n = len(xs)
    return round(xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2, 2)


def second_markdown(results: dict[str, Any], command: str) -> str:
    """The block of the second ``ledger context``: median and range of wall and CPU seconds, and
    whether each checkout's answers (``seconds`` aside) were its first one's every time, and the
    two checkouts' first answers equal (with a ``before`` checkout: its columns, and whether its
    first answers equal this one's)."""
    order = ("this", "before", "peer") if any("before" in res for res in results["files"].values()) else ("this", "peer")
    lines = [f"Measured {results['date']} on {results['cpus']} CPUs with `{command}`: one context fills each "
             f"checkout's empty cache, then {results['reps']} second contexts each, the checkouts taking turns "
             "(wall and CPU seconds of the process, median and range; load average at the start "
             f"{results.get('load', '?')}).", "",
             "| document | " + " | ".join(f"{side}: wall s | CPU s" for side in order)
             + " | CPU ratio | same answers: this, peer, this = peer" + (", this = before |" if "before" in order else " |"),
             "|---|" + "---:|---:|" * len(order) + "---:|---|"]
    for name, res in results["files"].items():
        for ask, label in (("reps", name), ("other", f"{name}, another selection ({res.get('other_find')})"),
                           ("check", f"{name}: a second `ledger check`"),
                           ("edit", f"{name}: a second rename (`ledger edit --dry-run`)")):
            if not res["this"].get(ask):
                continue
            same_key, both_key = f"{ask}_same", f"{ask}_same_answer"
            cells = []
            for side in order:
                reps = [r for r in res[side][ask] if r["rc"] == 0]
                walls, cpus = [r["wall"] for r in reps], [r["cpu"] for r in reps]
                cells.append((f"{_median(walls)} ({min(walls)}-{max(walls)})", f"{_median(cpus)} ({min(cpus)}-{max(cpus)})",
                              _median(cpus)) if reps else ("failed", "", 0.0))
            ratio = f"{cells[-1][2] / cells[0][2]:.1f}x" if cells[0][2] and cells[-1][2] else ""
            oks = [res["this"][same_key], res["peer"][same_key], res[both_key]]
            if "before" in order:
                oks.append(res.get(f"{ask}_same_before", False))
            same = ", ".join("yes" if ok else "no" for ok in oks)
            lines.append(f"| {label} | " + " | ".join(f"{c[0]} | {c[1]}" for c in cells) + f" | {ratio} | {same} |")
    return "\n".join(lines) + "\n"


def semantic_rounds(path: Path, sides: dict[str, Path], peer_models: dict[str, Path | None], reps: int, work: Path,
                    log=print) -> dict[str, Any]:
    """The semantic stage of ``path`` (:func:`semantic_stage`) ``reps`` times in each checkout, the
    checkouts taking turns, each run with a new empty cache."""
    out: dict[str, Any] = {side: [] for side in sides}
    for rep in range(reps):
        for side, code in sides.items():
            row = semantic_stage(code, path, _fresh(work, f"{side}-{rep}", peer_models[side]))
            out[side].append(row)
            log(f"{path.name} {side:5} semantic {rep + 1}/{reps} {json.dumps(row)}")
    return out


def semantic_markdown(results: dict[str, Any], command: str) -> str:
    """The block of the semantic stage alone: CPU ms per unit (all threads), median and range, per
    checkout, and their ratio; RELATED edges and wall seconds beside."""
    lines = [f"Measured {results['date']} on {results['cpus']} CPUs with `{command}`: the RELATED stage alone "
             f"(read and graph before it, its model loaded and timed apart, no embedding cached), "
             f"{results['reps']} rounds, the checkouts taking turns (load average at the start {results.get('load', '?')}).",
             "", "| document | units (this / peer) | this: CPU ms/unit | wall s | RELATED | peer: CPU ms/unit | wall s | RELATED | CPU ratio |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, res in results["files"].items():
        cells = []
        for side in ("this", "peer"):
            ok = [r for r in res[side] if "cpu_ms_per_unit" in r]
            ms = [r["cpu_ms_per_unit"] for r in ok]
            cells.append((f"{_median(ms)} ({min(ms)}-{max(ms)})", str(_median([r["wall"] for r in ok])),
                          "/".join(sorted({str(r["related"]) for r in ok})), _median(ms)) if ok else ("failed", "", "", 0.0))
        counts = [next((r["units"] for r in res[side] if "units" in r), 0) for side in ("this", "peer")]
        units = f"{counts[0]:,}" if counts[0] == counts[1] else f"{counts[0]:,} / {counts[1]:,}"  # each reads its own
        ratio = f"**{cells[1][3] / cells[0][3]:.1f}x**" if cells[0][3] and cells[1][3] else ""
        lines.append(f"| {name} | {units} | {cells[0][0]} | {cells[0][1]} | {cells[0][2]} | "
                     f"{cells[1][0]} | {cells[1][1]} | {cells[1][2]} | {ratio} |")
    return "\n".join(lines) + "\n"


def _kind(path: Path) -> str:
    name = path.name.lower()
    return "mqtt" if "mqtt" in name else "synth" if name.startswith("synth") else "rfc"


def _cell(row: dict[str, Any], key: str) -> str:
    """A row's wall or CPU seconds: the median and range of its reps when there were several."""
    many = [x for x in row.get(key + "s") or () if x is not None]
    return f"{_median(many)} ({min(many)}-{max(many)})" if len(many) > 1 else str(row.get(key, ""))


def markdown(results: dict[str, Any], command: str) -> str:
    """The block of docs/benchmarks.md: one table per document, this checkout against the peer."""
    reps = results.get("reps", 1)
    lines = [f"Measured {results['date']} on {results['cpus']} CPUs with `{command}` ("
             + ("one run of each step" if reps == 1 else f"{reps} runs of each cold step, medians and ranges")
             + ", the two checkouts taking turns step by step; wall and CPU seconds, peak RSS of the process"
             + (f"; load average at the start {results['load']}" if results.get("load") else "") + ").", ""]
    for name, res in results["files"].items():
        this, peer = res["this"], res["peer"]
        units = this.get("graph", {}).get("units") or peer.get("graph", {}).get("units")
        same = any("same_as_peer" in row for row in this.values() if isinstance(row, dict))
        lines += [f"**{name}** ({units:,} units)" if units else f"**{name}**", "",
                  "| step | this: wall s | CPU s | RSS MB | peer: wall s | CPU s | RSS MB | wall ratio |"
                  + (" same answer |" if same else ""),
                  "|---|---:|---:|---:|---:|---:|---:|---:|" + ("---|" if same else "")]
        for step in this:
            if step == "semantic stage":
                continue
            a, b = this[step], peer.get(step, {})
            ratio = f"{b['wall'] / a['wall']:.1f}x" if a.get("wall") and b.get("wall") else ""
            fail = " (failed)" if a.get("rc") else ""
            pfail = " (failed)" if b.get("rc") else ""
            answer = ""
            if same:
                answer = (" yes |" if a.get("same_as_peer") else " no |") if "same_as_peer" in a else " |"
            lines.append(f"| {'cold' if step in STEPS else 'warm'} {step}{fail} | "
                         f"{_cell(a, 'wall')} | {_cell(a, 'cpu')} | {a.get('rss_mb', '')} | "
                         f"{_cell(b, 'wall')}{pfail} | {_cell(b, 'cpu')} | {b.get('rss_mb', '')} | {ratio} |{answer}")
        ga, gb = this.get("graph", {}), peer.get("graph", {})
        if ga.get("related_ms_per_unit") and gb.get("related_ms_per_unit"):
            lines += ["", f"Semantic stage (RELATED, model load included): {ga['related_ms_per_unit']} ms per unit "
                      f"against the peer's {gb['related_ms_per_unit']} ms "
                      f"({gb['related_ms_per_unit'] / ga['related_ms_per_unit']:.1f}x less); RELATED edges "
                      f"{(ga.get('edges_by_type') or {}).get('RELATED')} against "
                      f"{(gb.get('edges_by_type') or {}).get('RELATED')}."]
        sa, sb = this.get("semantic stage", {}), peer.get("semantic stage", {})
        if sa.get("cpu_ms_per_unit") and sb.get("cpu_ms_per_unit"):
            lines += ["", f"Semantic stage alone (its model loaded before it, no embedding cached; CPU seconds of "
                      f"all threads): {sa['cpu']} s for {sa['units']:,} units, {sa['cpu_ms_per_unit']} ms per unit, "
                      f"against the peer's {sb['cpu']} s for {sb['units']:,} units, {sb['cpu_ms_per_unit']} ms per unit: "
                      f"**{sb['cpu_ms_per_unit'] / sa['cpu_ms_per_unit']:.1f}x** less CPU per unit (wall "
                      f"{sa['wall']} s against {sb['wall']} s; model load {sa['load_cpu']} against {sb['load_cpu']} CPU s; "
                      f"RELATED edges {sa['related']} against {sb['related']})."]
        stages = this.get("context", {}).get("stages")
        if stages:
            checked = this.get("check", {}).get("stages")
            lines += ["", f"Stages a context waited for: {', '.join(stages)}"
                      + (f"; a check: {', '.join(checked)}." if checked else ".")]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _report(args: argparse.Namespace, results: dict[str, Any], mode: str,
            markdown: Callable[[dict[str, Any], str], str], block: str, title: str) -> int:
    """Write one mode's results (``--json``), print its table and put it in ``--doc``."""
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    shown = (f"python -m benchmarks.cold_bench {mode} "
             + " ".join(f"--file {Path(f).name}" for f in results["files"]) + " --peer PEER")
    md = markdown(results, shown)
    print(md)
    if args.doc:
        from benchmarks.doc_block import replace_block

        replace_block(Path(args.doc), block, md, title)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.cold_bench", description=__doc__.split("\n")[0])
    ap.add_argument("--file", action="append", required=True, help="a document (repeat for more)")
    ap.add_argument("--peer", required=True, help="the peer checkout (the code before)")
    ap.add_argument("--this", default=str(ROOT),
                    help="the checkout measured (default: this one; a snapshot keeps others' edits out of a long run)")
    ap.add_argument("--peer-models", default=str(Path.home() / ".cache" / "ledger" / "models"),
                    help="where the peer's installation exported the model (default: the user's cache)")
    ap.add_argument("--rename", action="append", help="the rename of each --file (default by document)")
    ap.add_argument("--find", action="append", help="the --find of each --file's context (default by document)")
    ap.add_argument("--other", action="append",
                    help="with --second-context, the --find of each --file's other selection (default by document)")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--doc", help="rewrite the cold-start block of this markdown file")
    ap.add_argument("--before", help="with --second-context, a third checkout: the commit before this one's change")
    ap.add_argument("--second-context", type=int, metavar="REPS",
                    help="only the second ledger context of each --file, REPS times a checkout")
    ap.add_argument("--semantic", type=int, metavar="REPS",
                    help="only the semantic stage of each --file, REPS rounds, the checkouts taking turns")
    ap.add_argument("--steps", default=",".join(STEPS),
                    help=f"the cold steps to time, comma-separated (default {','.join(STEPS)}; without graph, the "
                         "warm second context runs in the cold context's cache and no semantic stage is timed)")
    ap.add_argument("--reps", type=int, default=1, help="runs of each cold step per checkout (default 1)")
    ap.add_argument("--semantic-only", action="store_true",
                    help="only the semantic stage of each --file, added to the figures already in --json")
    args = ap.parse_args(argv)
    steps = [s.strip() for s in args.steps.split(",") if s.strip()]
    if not steps or any(s not in STEPS for s in steps):
        ap.error(f"--steps: some of {', '.join(STEPS)}")

    peer = Path(args.peer).resolve()
    sides = {"this": Path(args.this).resolve(), "peer": peer}
    if args.before and args.second_context:
        sides = {"this": sides["this"], "before": Path(args.before).resolve(), "peer": peer}
    for code in sides.values():
        compile_checkout(code)
    found = sorted(Path(args.peer_models).glob("*minilm*"))
    models: dict[str, Path | None] = {"this": None, "before": None, "peer": found[0] if found else None}
    from addin_backend.embeddings.encoders import prepare

    if args.second_context:
        with tempfile.TemporaryDirectory(prefix="ledger-cold-") as tmp:
            results: dict[str, Any] = {
                "date": time.strftime("%Y-%m-%d"), "cpus": len(os.sched_getaffinity(0)), "peer": str(peer),
                "reps": args.second_context, "load": " ".join(f"{x:.1f}" for x in os.getloadavg()), "files": {}}
            for i, name in enumerate(args.file):
                path = Path(name).resolve()
                find = args.find[i] if args.find and i < len(args.find) else DEFAULT_FINDS[_kind(path)]
                rename = args.rename[i] if args.rename and i < len(args.rename) else DEFAULT_RENAMES[_kind(path)]
                results["files"][path.name] = second_context(path, sides, models, find, args.second_context,
                                                             Path(tmp) / f"doc{i}", log=lambda s: print(s, flush=True),
                                                             other=(args.other[i] if args.other and i < len(args.other)
                                                                    else OTHER_FINDS[_kind(path)]), rename=rename)
        return _report(args, results, f"--second-context {args.second_context}", second_markdown,
                       "cold-start-second-context", "A second ledger context")
    if args.semantic:
        with tempfile.TemporaryDirectory(prefix="ledger-cold-") as tmp:
            results = {"date": time.strftime("%Y-%m-%d"), "cpus": len(os.sched_getaffinity(0)), "peer": str(peer),
                       "reps": args.semantic, "load": " ".join(f"{x:.1f}" for x in os.getloadavg()), "files": {}}
            for i, name in enumerate(args.file):
                path = Path(name).resolve()
                results["files"][path.name] = semantic_rounds(path, sides, models, args.semantic, Path(tmp) / f"doc{i}",
                                                              log=lambda s: print(s, flush=True))
        return _report(args, results, f"--semantic {args.semantic}", semantic_markdown,
                       "cold-start-semantic", "The semantic stage alone")
    if args.semantic_only:
        results = json.loads(Path(args.json).read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory(prefix="ledger-cold-") as tmp:
            for i, name in enumerate(args.file):
                path = Path(name).resolve()
                for side, code in sides.items():
                    cache = _fresh(Path(tmp), f"{side}-{i}", models[side])
                    row = semantic_stage(code, path, cache)
                    results["files"].setdefault(path.name, {}).setdefault(side, {})["semantic stage"] = row
                    print(path.name, side, json.dumps(row), flush=True)
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
        return _write(results, args)
    with tempfile.TemporaryDirectory(prefix="ledger-cold-") as tmp:
        os.environ["LEDGER_CACHE_DIR"] = tmp  # this checkout's installation step: its export in the environment
        print("installed models:", prepare(), flush=True)
        del os.environ["LEDGER_CACHE_DIR"]
        results = {"date": time.strftime("%Y-%m-%d"), "cpus": len(os.sched_getaffinity(0)), "peer": str(peer),
                   "steps": steps, "reps": args.reps, "load": " ".join(f"{x:.1f}" for x in os.getloadavg()), "files": {}}
        for i, name in enumerate(args.file):
            path = Path(name).resolve()
            rename = (args.rename or [])[i] if args.rename and i < len(args.rename) else DEFAULT_RENAMES[_kind(path)]
            find = (args.find or [])[i] if args.find and i < len(args.find) else DEFAULT_FINDS[_kind(path)]
            work = Path(tmp) / f"doc{i}"
            results["files"][path.name] = bench_file(path, sides, models, rename, find, work,
                                                     log=lambda s: print(s, flush=True), steps=steps, reps=args.reps)
            if args.json:
                Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
            shutil.rmtree(work, ignore_errors=True)
    return _write(results, args)


def _write(results: dict[str, Any], args: argparse.Namespace) -> int:
    steps = results.get("steps") or list(STEPS)
    some = list(steps) != list(STEPS)
    shown = ("python -m benchmarks.cold_bench " + (f"--steps {','.join(steps)} " if some else "")
             + (f"--reps {results['reps']} " if results.get("reps", 1) > 1 else "")
             + " ".join(f"--file {Path(f).name}" for f in results["files"]) + " --peer PEER")
    md = markdown(results, shown)
    print(md)
    if args.doc:
        from benchmarks.doc_block import replace_block

        # a run of some steps has its own block: the whole run's figures stay
        block = "cold-start-" + "-".join(steps) if some else "cold-start"
        replace_block(Path(args.doc), block, md, "The first minute with a new document (cold start)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
