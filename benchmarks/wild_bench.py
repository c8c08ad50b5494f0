"""The wild battery (``make bench-wild``): LEDGER on real specifications from other producers.

    python -m benchmarks.wild_bench [--wild DIR] [--only NAME,...] [--no-edits] [--no-big]
        [--kinds rename_term,fix,...] [--out DIR] [--json FILE] [--doc docs/benchmarks.md]
    python -m benchmarks.wild_bench --from-json FILE [--doc docs/benchmarks.md]   (the tables of a run)

On every file of ``devset/wild/`` (``--wild``; README inside), one table per document:

1. **Reading**: units per kind and the seconds of ``ledger units`` against pandoc's reading of the
   same file, cold processes interleaved in the same run (``read_speed.measure``);
2. **Headings**: the number of every heading LibreOffice shows (the typed number where the editors
   type them) against LEDGER's (:mod:`benchmarks.wild.headings`);
3. **References**: precision and recall of REFERENCES against the links the package itself names
   (:mod:`benchmarks.wild.links`, written from ECMA-376 and ODF 1.3 without the readers), and the
   links to bookmarks that do not exist;
4. **Checks**: findings per kind; the judged sample's false alarms among today's findings and the
   unjudged rest (:mod:`benchmarks.wild.checks`); seeded defects found (:mod:`benchmarks.wild.seed`);
   the real links to missing bookmarks reported;
5. **Edits**: renames (one of a term the document also writes inside identifiers), a section
   deleted, a section inserted before an early numbered one, ``--fix`` of each kind and ``--fix
   all``, and the MQTT-SN editors' changes replayed from one snapshot to the next; every output
   judged in one LibreOffice (:mod:`benchmarks.wild.judge`);
6. **Big edit**: a section inserted before §3.10 of a 7,000-unit Word-like specification
   (``benchmarks/specgen.py``): operations, seconds, peak memory, and the same judge.

``--doc`` writes the tables between the ``wild-bench`` markers of ``docs/benchmarks.md``.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

__all__ = ["main", "run", "markdown", "wild_files"]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_WILD = ROOT.parent / "shared" / "devset" / "wild"
_SNAPSHOT = re.compile(r"^(?P<stem>.+)-(?P<date>\d{4}-\d\d-\d\d)\.docx$")


def wild_files(folder: Path, only: Sequence[str] = ()) -> list[Path]:
    """The wild documents (.docx then .odt, by name), or those whose names start with ``only``."""
    files = sorted(folder.glob("*.docx")) + sorted(folder.glob("*.odt"))
    files = [f for f in files if not f.name.startswith(".~lock")]
    return [f for f in files if not only or any(f.name.startswith(o) for o in only)]


def newer_snapshot(path: Path, folder: Path) -> Path | None:
    """The next snapshot of the same document (``NAME-DATE.docx`` with a later date), if any."""
    m = _SNAPSHOT.match(path.name)
    if not m:
        return None
    later = sorted(p for p in folder.glob(f"{m.group('stem')}-*.docx")
                   if (n := _SNAPSHOT.match(p.name)) and n.group("date") > m.group("date"))
    return later[0] if later else None


def _reading(files: list[Path], reps: int) -> dict[str, dict[str, Any]]:
    from benchmarks.read_speed import measure

    keyed = {(f.suffix[1:], f.name): (f, 0) for f in files}
    got = measure(keyed, reps=reps)
    return {name: {"ledger": e["ledger"]["median"], "pandoc": e["pandoc"]["median"],
                   "errors": [e[t]["error"] for t in ("ledger", "pandoc") if e[t]["error"]]}
            for (_fmt, name), e in got.items()}


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def document_measures(path: Path, lo: dict, judged: Path | None, seeds_dir: Path) -> dict[str, Any]:
    """Reading, headings, references and checks of one wild document."""
    from adapters import read_path
    from addin_backend.service import graphs

    from benchmarks.wild.checks import JUDGED, findings_of, judged_sample, match_judged, seeded_found
    from benchmarks.wild.headings import score_headings
    from benchmarks.wild.links import SCORED, extract
    from benchmarks.wild.references import score_references
    from benchmarks.wild.seed import seed_all

    t0 = time.perf_counter()
    doc = read_path(str(path))
    read_s = time.perf_counter() - t0
    G = graphs.build(doc, graphs.scope_for(False))
    links = extract(path)
    out: dict[str, Any] = {"file": path.name, "units": len(doc.units),
                           "kinds": dict(Counter(u.kind for u in doc.units).most_common()), "read_in_process": round(read_s, 3)}
    out["headings"] = score_headings(doc, lo.get("paragraphs", []))
    out["references"] = score_references(doc, G, links)
    base = findings_of(path)
    out["findings"] = len(base[1])
    out["by_kind"] = dict(Counter(f["code"] for f in base[1]).most_common())
    out["judged"] = match_judged(judged_sample(path.name, judged or JUDGED), base[1])
    real = [b for b in links.broken() if links.paragraphs[b.source].where in SCORED]
    found = [b for b in real if seeded_found((base[0], []), base, [links.paragraphs[b.source].text])]
    out["broken_links"] = {"links": len(real), "reported": len(found),
                           "names": [f"{b.text[:30]!r} -> #{b.name}" for b in real][:6]}
    seeds = []
    for s in seed_all(path, seeds_dir):
        got = seeded_found(base, findings_of(s.path), s.paragraphs)
        seeds.append({"kind": s.kind, "what": s.what, "found": bool(got), "by": sorted({g["code"] for g in got})})
    out["seeds"] = seeds
    return out


def run_edits(files: list[Path], originals: dict[str, dict], folder: Path, out_dir: Path,
              kinds: Sequence[str] = (), limit: int = 0, saved: Any = None) -> list[Any]:
    """Every edit case on every file, each document's outputs judged in one LibreOffice;
    ``saved(cases)`` is called after each document (a long run keeps what it has judged)."""
    from adapters import read_path

    from benchmarks.wild.cases import make_cases, run_case
    from benchmarks.wild.judge import OUTPUT_OPS, judge_case
    from benchmarks.wild.office import look

    done: list[Any] = []
    index = 0
    for path in files:
        newer = newer_snapshot(path, folder)
        doc = read_path(str(path))
        orig = originals[str(path.resolve())]
        # an earlier snapshot: its fix-all and its replay; the newest and the others: every kind
        cases = make_cases(str(path), doc, orig, fixes="all" if newer else "each",
                           newer=str(newer) if newer else None)
        if kinds:
            cases = [c for c in cases if c.kind in kinds]
        if limit:
            cases = cases[:max(0, limit - len(done))]
        if not cases:
            continue
        for c in cases:
            run_case(c, doc, out_dir, index)
            index += 1
            _log(f"  [{index}] {c.kind:17} {c.result.get('seconds', 0):6.1f}s {c.result.get('operations', 0):5} ops  "
                 f"{c.name[:90]}" + (f"  ERROR {c.result['error'][:120]}" if "error" in c.result else ""))
        jobs: list[tuple[Any, Sequence[str]]] = [(c.result["output"], OUTPUT_OPS) for c in cases if "output" in c.result]
        if newer and any(c.kind == "replay" for c in cases) and str(newer.resolve()) not in originals:
            jobs.append((newer, ("paragraphs", "margins")))
        seen = look(jobs)
        for c in cases:
            got = seen.get(str(Path(c.result["output"]).resolve()), {}) if "output" in c.result else {}
            nxt = None
            if c.kind == "replay":
                nxt = originals.get(str(Path(c.instruction).resolve())) or seen.get(str(Path(c.instruction).resolve()))
            judge_case(c, orig, got, nxt)
        _log(f"judged {path.name}: {sum(1 for c in cases if c.result.get('ok'))}/{len(cases)} pass")
        done.extend(cases)
        if saved is not None:
            saved(done)
    return done


def big_edit(out_dir: Path, units: int = 7000) -> dict[str, Any]:
    """The insert before §3.10 of a ``units``-unit specgen document, in a child process (its peak
    memory is its own), then judged in LibreOffice."""
    import subprocess

    from benchmarks.wild.judge import OUTPUT_OPS, field_check, lost_headings
    from benchmarks.wild.office import look

    script = ROOT / "benchmarks" / "wild" / "big_edit.py"
    proc = subprocess.run([sys.executable, str(script), str(out_dir), str(units)], capture_output=True, text=True,
                          timeout=3600, cwd=ROOT)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        return {"error": (proc.stderr or proc.stdout).strip()[-400:]}
    res = json.loads(lines[-1])
    if "output" not in res:
        return res
    seen = look([(res["input"], ("paragraphs", "fields", "rejected.texts")), (res["output"], OUTPUT_OPS)])
    orig, got = seen[str(Path(res["input"]).resolve())], seen[str(Path(res["output"]).resolve())]
    if "error" in got:
        res["opens"] = got["error"]
        return res
    res["opens"] = None
    want = [p["text"].rstrip() for p in orig.get("rejected", {}).get("texts", [])]
    res["reject_equal"] = want == [p["text"].rstrip() for p in got.get("rejected", {}).get("texts", [])]
    res["lost_headings"] = len(lost_headings(orig.get("paragraphs", []), got.get("accepted", {}).get("outline", [])))
    res["fields"], res["fields_why"] = field_check(res.pop("renumbered_ops", []), got.get("redlines", []), orig.get("fields", []),
                                                   got.get("accepted", {}).get("fields", []))
    return res


def _cases_json(cases: list[Any]) -> list[dict[str, Any]]:
    return [{"kind": c.kind, "file": Path(c.path).name, "instruction": c.instruction,
             **{k: v for k, v in c.result.items() if k not in ("findings",)}} for c in cases]


def run(folder: Path, *, only: Sequence[str] = (), edits: bool = True, big: bool = True, kinds: Sequence[str] = (),
        limit: int = 0, out_dir: Path | None = None, judged: Path | None = None, reps: int = 3,
        json_path: Path | None = None) -> dict[str, Any]:
    from benchmarks.wild.judge import ORIGINAL_OPS
    from benchmarks.wild.office import look

    t0 = time.perf_counter()
    files = wild_files(folder, only)
    out_dir = out_dir or Path(tempfile.mkdtemp(prefix="ledger-wild-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    _log(f"{len(files)} wild files; outputs in {out_dir}")
    _log("reading: ledger units and pandoc, interleaved")
    reading = _reading(files, reps)
    _log("LibreOffice: the originals")
    originals = look([(f, ORIGINAL_OPS) for f in files])
    for r in originals.values():
        if "code_paragraphs" in r:
            r["paragraphs"] = r.pop("code_paragraphs")
    docs = []
    for f in files:
        _log(f"measures: {f.name}")
        m = document_measures(f, originals[str(f.resolve())], judged, out_dir / "seeds")
        m["reading"] = reading.get(f.name, {})
        docs.append(m)
    result: dict[str, Any] = {"folder": str(folder), "date": time.strftime("%Y-%m-%d"), "documents": docs, "cases": []}

    def saved(cases: list[Any]) -> None:
        if json_path is not None:
            json_path.write_text(json.dumps({**result, "cases": _cases_json(cases), "partial": True,
                                             "seconds": round(time.perf_counter() - t0)}, indent=1, default=str))

    cases = run_edits(files, originals, folder, out_dir, kinds, limit, saved) if edits else []
    result["cases"] = _cases_json(cases)
    if big:
        _log("big edit: specgen 7,000 units, a section before 3.10")
        result["big"] = big_edit(out_dir)
    result["seconds"] = round(time.perf_counter() - t0)
    return result


# --- the tables ------------------------------------------------------------------------------------

def _f(x: float | None, d: int = 3) -> str:
    return "-" if x is None else f"{x:.{d}f}"


def _ratio(cases: list[dict], check: str) -> str:
    rel = [c for c in cases if check in c.get("checks", {})]
    return f"{sum(1 for c in rel if c['checks'][check] is None)}/{len(rel)}" if rel else "-"


_CHECKS = ("opens", "reject", "identifiers", "headings", "fields", "terms", "refs", "members", "written", "consequences")


def _doc_table(d: dict, cases: list[dict]) -> list[str]:
    r, h, j = d["references"], d["headings"], d["judged"]
    rd = d.get("reading", {})
    kinds = ", ".join(f"{k} {n:,}" for k, n in d["kinds"].items())
    led, pan = rd.get("ledger"), rd.get("pandoc")
    read = f"{d['units']:,} units ({kinds}); `ledger units` {_f(led, 2)} s, pandoc {_f(pan, 2)} s" + (
        f" ({led / pan:.2f}×)" if led and pan else "")
    heads = (f"{h['right']}/{h['headings']} as LibreOffice shows them ({h['typed']} typed in the text)"
             + (f"; {h['not_section']} not read as sections" if h["not_section"] else "")
             + (f"; {h['missing']} without a unit" if h["missing"] else ""))
    apart = ", ".join(f"{k} {n}" for k, n in r["apart"].items())
    refs = (f"P {_f(r['precision'])} R {_f(r['recall'])} ({r['found']} of {r['truth']} pairs"
            + (f"; counted apart: {apart}" if apart else "") + f"; {r['typed_edges']} edges from typed text not judged)")
    bl = d["broken_links"]
    by_kind = ", ".join(f"{k} {n}" for k, n in list(d["by_kind"].items())[:8])
    judged = (f"{'the baseline sample: ' if j.get('baseline') else ''}{j['false']} false of {j['current']} judged and "
              f"still reported ({_f(j['false_share'], 2)}; {j['true']} true, {j['debatable']} debatable); "
              f"{j['unjudged']} of {j['findings']} findings unjudged" if j["judged"] else "no judged sample")
    seeds = ", ".join(f"{s['kind']} {'found (' + ', '.join(s['by']) + ')' if s['found'] else 'missed'}" for s in d["seeds"]) or "none seeded"
    rows = ["| measure | result |", "|---|---|", f"| reading | {read} |", f"| heading numbers | {heads} |",
            f"| references | {refs} |",
            f"| links to missing bookmarks | {bl['links']} in the file, {bl['reported']} reported by `ledger check` |",
            f"| findings | {d['findings']} ({by_kind}) |", f"| judged sample | {judged} |", f"| seeded defects | {seeds} |"]
    if cases:
        ok = sum(1 for c in cases if c.get("ok"))
        cols = "; ".join(f"{c} {_ratio(cases, c)}" for c in _CHECKS if _ratio(cases, c) != "-")
        rows.append(f"| edits | {ok}/{len(cases)} pass ({cols}) |")
    return rows


def markdown(result: dict[str, Any], command: str) -> str:
    cases = result.get("cases", [])
    lines = [f"Measured {result.get('date') or time.strftime('%Y-%m-%d')} with `{command}` on `{Path(result['folder']).name}` "
             f"({len(result['documents'])} files, {len(cases)} edits judged in LibreOffice, {result['seconds']:,} s in all).", ""]
    if cases:
        lines += ["| kind of edit | cases | pass | " + " | ".join(_CHECKS) + " |", "|---|---|---|" + "---|" * len(_CHECKS)]
        for kind in dict.fromkeys(c["kind"] for c in cases):
            cs = [c for c in cases if c["kind"] == kind]
            lines.append(f"| {kind} | {len(cs)} | {sum(1 for c in cs if c.get('ok'))} | "
                         + " | ".join(_ratio(cs, ch) for ch in _CHECKS) + " |")
        lines.append(f"| **all** | {len(cases)} | {sum(1 for c in cases if c.get('ok'))} |" + " |" * len(_CHECKS))
        lines.append("")
    for d in result["documents"]:
        mine = [c for c in cases if c["file"] == d["file"]]
        lines += [f"**{d['file']}**", "", *_doc_table(d, mine), ""]
        for c in mine:
            if c.get("kind") == "replay":
                w, q = c.get("written", [0, 0]), c.get("consequences", [0, 0])
                lines.append(f"Replay to {Path(c['instruction']).name}: {c.get('replay', {}).get('operations', 0)} operations from "
                             f"the paragraphs that differ, {w[0]}/{w[1]} of the editors' changes in the accepted text; "
                             f"of what they changed besides, {q[0]}/{q[1]} made; LEDGER propagated {c.get('propagated', 0)} "
                             f"operation(s), {c.get('propagated_on_consequences', 0)} on a table the editors changed.")
                lines.append("")
        fails = [c for c in mine if not c.get("ok")]
        if fails:
            lines += ["Failing edits:", ""]
            for c in fails:
                why = "; ".join(f"{k}: {v}" for k, v in c.get("checks", {}).items() if v)
                what = c["instruction"] if c["kind"] != "replay" else "replay to " + Path(c["instruction"]).name
                lines.append(f"- `{what}` ({c['kind']}): {why[:400]}")
            lines.append("")
    big = result.get("big")
    if big:
        if "error" in big:
            lines.append(f"Big edit (specgen): failed: {big['error'][:300]}")
        else:
            fc = big.get("fields") or {}
            lines.append(f"Big edit: `{big.get('instruction')}` on a {big.get('units', 0):,}-unit specgen document "
                         f"({big.get('ref_fields', 0):,} reference fields): {big.get('operations', 0):,} operations "
                         f"({big.get('renumbered', 0):,} renumbered), plan {_f(big.get('plan_s'), 1)} s, write "
                         f"{_f(big.get('write_s'), 1)} s, peak memory {big.get('peak_mb', 0):,} MB (the process's maximum "
                         f"resident set); opens: {'yes' if big.get('opens') is None else big.get('opens')}; reject-all = "
                         f"original: {big.get('reject_equal')}; headings lost: {big.get('lost_headings')}; fields: "
                         f"{fc.get('renumbered', 0)} renumbered, {fc.get('shown', 0)} shown as a change, "
                         f"{fc.get('wrong', 0)} wrong after Accept All." + (f" Error: {big['edit_error']}" if big.get("edit_error") else ""))
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.wild_bench", description=__doc__.split("\n")[0])
    ap.add_argument("--wild", type=Path, default=DEFAULT_WILD, help="the wild set (devset/wild)")
    ap.add_argument("--only", default="", help="only files whose names start with these (comma-separated)")
    ap.add_argument("--no-edits", action="store_true", help="reading, headings, references and checks only")
    ap.add_argument("--no-big", action="store_true", help="leave out the 7,000-unit insert")
    ap.add_argument("--kinds", default="", help="only these kinds of edit (comma-separated)")
    ap.add_argument("--limit", type=int, default=0, help="at most this many edits")
    ap.add_argument("--reps", type=int, default=3, help="repetitions of the reading measure")
    ap.add_argument("--judged", type=Path, default=None, help="the judged samples' folder (default benchmarks/wild/judged)")
    ap.add_argument("--out", type=Path, default=None, help="where outputs go (default: a temporary folder)")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--doc", type=Path, default=None, help="write the tables into this Markdown file")
    ap.add_argument("--from-json", type=Path, default=None, help="no run: the tables of an earlier run's --json")
    ap.add_argument("--command", default=None, help="with --from-json: the command that made it, as the tables name it")
    args = ap.parse_args(argv)
    if args.from_json is not None:
        result = json.loads(args.from_json.read_text())
        text = markdown(result, args.command or "make bench-wild")
        print(text)
        if args.doc:
            from benchmarks.doc_block import replace_block

            replace_block(args.doc, "wild-bench", text, "Documents from other producers (the wild set)")
        return 0
    if not wild_files(args.wild):
        print(f"no wild documents in {args.wild}", file=sys.stderr)
        return 2
    result = run(args.wild, only=[o for o in args.only.split(",") if o], edits=not args.no_edits, big=not args.no_big,
                 kinds=[k for k in args.kinds.split(",") if k], limit=args.limit, out_dir=args.out, judged=args.judged,
                 reps=args.reps, json_path=args.json)
    shown = ["python -m benchmarks.wild_bench"] + [a if not a.startswith("/") else Path(a).name
                                                  for a in (argv if argv is not None else sys.argv[1:])]
    text = markdown(result, " ".join(shown) if (argv or sys.argv[1:]) else "make bench-wild")
    print(text)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1, default=str))
    if args.doc:
        from benchmarks.doc_block import replace_block

        replace_block(args.doc, "wild-bench", text, "Documents from other producers (the wild set)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
