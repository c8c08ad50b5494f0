"""The writers on a thousand renumbered reference fields: the write against a read of the same file.

    python -m benchmarks.field_writes [--out DIR] [--units 7000] [--odt] [--reps 3]

``benchmarks.specgen`` writes the Word-like specification (``--odt``: also its .odt, converted
by headless LibreOffice); the rules engine plans "Insert a section before Section 3.10", which
renumbers about 1,200 REF fields (each a ``replace`` of the number in a field's cached result,
with a comment saying why). Per format it prints the operations, the seconds the writer takes
(best of ``--reps``) and, as the peer measured in the same run, the seconds reading the same
file takes; and, in the .docx, how many fields were written as a whole deleted field plus a whole
inserted one (:mod:`adapters.docx.fieldedit`), which must equal the renumbered fields.
"""
from __future__ import annotations

import argparse
import io
import sys
import time
import zipfile
from pathlib import Path
from typing import Sequence

__all__ = ["main"]

INSTRUCTION = "Insert a section before Section 3.10: Result Matching"


def _best(fn, reps: int) -> tuple[object, float]:
    best, out = float("inf"), None
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return out, best


def _whole_field_changes(data: bytes) -> int:
    """Deletions that hold a whole field (its deleted instruction) in the main part."""
    from lxml import etree

    from adapters.docx.oxml import qn

    root = etree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml"))
    return sum(1 for d in root.iter(qn("w:del")) if d.find(f".//{qn('w:delInstrText')}") is not None)


def run(path: Path, reps: int) -> dict:
    from adapters import read, write
    from adapters.model import Note
    from addin_backend.edits.operations import edits_from_json
    from addin_backend.service import edits, graphs
    from addin_backend.service.edits import VIEW_KEYS

    data = path.read_bytes()
    doc, read_s = _best(lambda: read(data), reps)
    G = graphs.build(doc, graphs.scope_for(False))
    plan = edits.plan(doc, G, instruction=INSTRUCTION, semantic=False)
    view = edits.proposal_view(doc, plan, pid=None, doc_id=None, author="LEDGER", complete=True)
    ops = edits_from_json([{k: v for k, v in o.items() if k not in VIEW_KEYS} for o in view["operations"]])
    notes = [Note(id=f"n{i}", text=f"why {i}", edit=e.id) for i, e in enumerate(ops) if e.id]
    out, write_s = _best(lambda: write(data, ops, document=doc, notes=notes), reps)
    row = {"file": path.name, "units": len(doc.units), "operations": len(ops),
           "renumbered_fields": sum(1 for o in view["operations"] if "reference field" in (o.get("reason") or "")),
           "write_s": round(write_s, 2), "read_s": round(read_s, 2), "ratio": round(write_s / read_s, 2)}
    if path.suffix == ".docx":
        row["whole_field_changes"] = _whole_field_changes(out)
    return row


def main(argv: Sequence[str] | None = None) -> int:
    from benchmarks.specgen import generate, write_odt

    p = argparse.ArgumentParser(prog="python -m benchmarks.field_writes", description=__doc__.splitlines()[0])
    p.add_argument("--out", default="/tmp/ledger-field-writes", help="where the generated documents go")
    p.add_argument("--units", type=int, default=7000)
    p.add_argument("--odt", action="store_true", help="also the .odt (LibreOffice converts the .docx)")
    p.add_argument("--reps", type=int, default=3)
    args = p.parse_args(argv)
    out = Path(args.out)
    data = generate(out, units=args.units)
    docx_path = out / f"{data['name']}.docx"
    paths = [docx_path]
    if args.odt:
        odt_path = out / f"{data['name']}.odt"
        if not odt_path.exists():
            write_odt(docx_path, out)
        paths.append(odt_path)
    for path in paths:
        r = run(path, args.reps)
        print(f"{r['file']}: {r['units']} units, {r['operations']} operations ({r['renumbered_fields']} renumbered "
              f"fields); write {r['write_s']} s, read {r['read_s']} s (write/read {r['ratio']})"
              + (f"; {r['whole_field_changes']} whole-field changes" if "whole_field_changes" in r else ""))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
