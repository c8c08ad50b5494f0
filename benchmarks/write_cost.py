"""What proposing and writing an edit cost, against the memory estimate made before the write.

    python -m benchmarks.write_cost [--out DIR] [--case NAME ...] [--devset DIR]

Each case runs in a fresh process (``--one``): the document is read and its graph built
without embeddings (as ``ledger edit --no-semantic``), the instruction planned (propose), then
the plan's operations written (:func:`addin_backend.service.edits.write_operations`, the step an
apply and ``ledger edit`` take, the review record included). For the plan and the write it
prints the wall time and the peak resident memory above what the process held before the step
(``VmHWM`` reset through ``/proc/self/clear_refs``), and beside the write the estimate
:func:`~addin_backend.service.edits.write_memory` made from sizes before it started: the
estimate must stay above the peak (a refusal is then never late) and within a small factor of
it (a refusal is never for nothing). Linux only.

The cases: ``spec-7000`` (``benchmarks.specgen``'s 7,000-unit Word-like specification:
inserting a section before 3.10 renumbers 1,196 REF fields), ``spec-7000-delete`` (deleting
3.2: 1,207), ``rfc9000`` (a rename of 243 occurrences on the development set's 2,000-unit
standard, .docx and .odt), ``dense-1000`` (one paragraph renamed 1,000 times: each operation
carries the whole paragraph) and ``mqtt-sn`` (a rename in the wild set's editor-written spec).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

__all__ = ["main", "CASES"]

ROOT = Path(__file__).resolve().parent.parent
DEVSET = Path(os.environ.get("LEDGER_DEVSET", ROOT.parent / "shared" / "devset"))

#: name -> (document, instruction); a document "specgen:UNITS" is generated into --out.
CASES: dict[str, tuple[str, str]] = {
    "spec-7000": ("specgen:7000", "Insert a section before Section 3.10: Result Matching"),
    "spec-7000-delete": ("specgen:7000", "Delete Section 3.2"),
    "spec-20000": ("specgen:20000", "Insert a section before Section 3.10: Result Matching"),
    "rfc9000": ("rfc/rfc9000.A.docx", "Rename 'connection ID' to 'connection identifier' everywhere"),
    "rfc9000-odt": ("rfc/rfc9000.A.odt", "Rename 'connection ID' to 'connection identifier' everywhere"),
    "dense-1000": ("dense:1000", "Rename 'widget' to 'gadget' everywhere"),
    "mqtt-sn": ("wild/mqtt-sn-2.0-wd-2025-10-23.docx", "Rename 'gateway' to 'relay' everywhere"),
}


def _status(key: str) -> int:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(key):
                return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
        fh.write("5")


def _measure(fn):
    """``(result, seconds, peak bytes above the RSS before)``."""
    _reset_peak()
    before = _status("VmRSS")
    started = time.monotonic()
    out = fn()
    return out, time.monotonic() - started, max(0, _status("VmHWM") - before)


def _document(spec: str, out: Path) -> Path:
    kind, _, arg = spec.partition(":")
    if kind == "specgen":
        from benchmarks.specgen import generate

        path = out / f"spec-{arg}.docx"
        if not path.exists():
            generate(out, units=int(arg))
        return path
    if kind == "dense":
        import docx

        path = out / f"dense-{arg}.docx"
        if not path.exists():
            d = docx.Document()
            d.add_heading("Widgets", 1)
            d.add_paragraph(" ".join(f"the widget {i} is here." for i in range(int(arg))))
            for i in range(50):
                d.add_paragraph(f"Paragraph {i} on something else.")
            d.save(path)
        return path
    return DEVSET / spec


def _one(name: str, out: Path) -> dict:
    """One case in this process (see the module docstring)."""
    from adapters import read
    from addin_backend.service import edits, graphs
    from addin_backend.service.edits import write_memory, write_operations
    from addin_backend.verify.record import RECORD

    source, instruction = CASES[name]
    path = _document(source, out)
    data = path.read_bytes()
    doc = read(data)
    G = graphs.build(doc, graphs.scope_for(False))

    def plan():
        p = edits.plan(doc, G, instruction=instruction, semantic=False)
        return edits.proposal_view(doc, p, pid=None, doc_id=None, author="LEDGER", complete=True)

    view, plan_s, plan_peak = _measure(plan)
    ops = view["operations"]
    estimate, sizes = write_memory(data, doc, ops)
    written, write_s, write_peak = _measure(lambda: write_operations(
        data, doc, G, ops, author="LEDGER", default_source=view["engine"], semantic=False, instruction=instruction,
        memory_mb=0))
    from adapters.properties import get_property

    return {"case": name, "units": len(doc.units), "xml_mb": round(sizes["xml_bytes"] / 2**20, 2),
            "operations": len(ops), "carried_chars": sizes["carried_chars"],
            "plan_s": round(plan_s, 2), "plan_peak_mb": round(plan_peak / 2**20),
            "write_s": round(write_s, 2), "write_peak_mb": round(write_peak / 2**20),
            "estimate_mb": round(estimate / 2**20), "ratio": round(estimate / max(write_peak, 1), 2),
            "record_kb": round(len(get_property(written.data, RECORD) or "") / 1024, 1),
            "errors": sum(1 for f in written.findings if f.severity == "error")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.write_cost", description=__doc__.splitlines()[0])
    p.add_argument("--out", default="/tmp/ledger-write-cost", help="where generated documents go")
    p.add_argument("--case", action="append", choices=sorted(CASES), help="the cases to run (default: all)")
    p.add_argument("--one", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.one:
        print(json.dumps(_one(args.one, out)))
        return 0
    rows = []
    for name in args.case or list(CASES):
        got = subprocess.run([sys.executable, "-m", "benchmarks.write_cost", "--out", str(out), "--one", name],
                             capture_output=True, text=True, cwd=ROOT, check=False)
        if got.returncode != 0:
            print(f"{name}: failed\n{got.stderr[-2000:]}", file=sys.stderr)
            continue
        rows.append(json.loads(got.stdout.strip().splitlines()[-1]))
        print(json.dumps(rows[-1]), file=sys.stderr)
    head = ("case", "units", "xml_mb", "operations", "carried_chars", "plan_s", "plan_peak_mb", "write_s",
            "write_peak_mb", "estimate_mb", "ratio", "record_kb", "errors")
    buf = io.StringIO()
    buf.write("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")
    for r in rows:
        buf.write("| " + " | ".join(f"{r[h]:,}" if isinstance(r[h], int) else str(r[h]) for h in head) + " |\n")
    print(buf.getvalue(), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
