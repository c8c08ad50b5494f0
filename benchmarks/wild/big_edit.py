"""The big edit of the wild battery, in a process of its own: a section inserted before §3.10 of a
Word-like specification made by ``benchmarks/specgen.py`` (7,000 units, ~1,200 references renumbered).

Usage: python benchmarks/wild/big_edit.py OUT_DIR [UNITS]

Prints one JSON line: the input and output files, units, reference fields, operations (and the
renumbered ones), the seconds of planning and of writing (the service functions ``ledger edit``
calls), and the process's peak resident memory in MB.
"""
from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main(argv: list[str]) -> int:
    from adapters import read_path
    from addin_backend.service import graphs
    from addin_backend.service.edits import plan, proposal_view, write_operations
    from benchmarks.specgen import generate
    from benchmarks.wild.cases import _number_change

    out = Path(argv[1])
    units = int(argv[2]) if len(argv) > 2 else 7000
    out.mkdir(parents=True, exist_ok=True)
    truth = generate(out, units=units)
    src = out / f"{truth['name']}.docx"
    dst = out / f"{truth['name']}.insert-before-3.10.docx"
    doc = read_path(str(src))
    instruction = "Add a section before Section 3.10: Scope of this edition"
    res = {"input": str(src), "units": len(doc.units), "ref_fields": truth["counts"]["reference_fields"],
           "expected_renumbered": truth["renumbered_by_insert_before"].get("3.10"), "instruction": instruction}
    try:
        t0 = time.perf_counter()
        G = graphs.build(doc, graphs.scope_for(False))
        p = plan(doc, G, instruction=instruction, semantic=False)
        view = proposal_view(doc, p, pid=None, doc_id=None, author="LEDGER", complete=True)
        t1 = time.perf_counter()
        written = write_operations(src.read_bytes(), doc, G, view["operations"], author="LEDGER", default_source=view["engine"],
                                   semantic=False, instruction=instruction, known=p.findings)
        t2 = time.perf_counter()
        dst.write_bytes(written.data)
        ops = [e.to_json() for e in written.operations]
        renumbered = [{"old": o.get("old"), "new": o.get("text")} for o in ops if _number_change(o)]
        res.update({"output": str(dst), "operations": len(ops), "renumbered": len(renumbered), "renumbered_ops": renumbered,
                    "plan_s": round(t1 - t0, 2), "write_s": round(t2 - t1, 2)})
    except Exception as exc:  # refused or failed: the battery reports it
        res["edit_error"] = f"{type(exc).__name__}: {str(exc)[:300]}"
    res["peak_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
