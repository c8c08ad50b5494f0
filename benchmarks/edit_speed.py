"""How long a person waits for a preview of a few hundred changes: a rename and a fix-all of the
checks on a 100K-token standard, as the server makes them, against another checkout in one run.

The server has the document's graph before anyone asks for a preview (the analysis job builds
it), so each run builds the graph first, untimed, and then times what the preview request does:

- ``rename``: plan the instruction with the full graph (CONTAINS, REFERENCES, DEPENDS and, unless
  ``--no-semantic``, RELATED with the drift check) and turn the plan into the Proposal JSON;
- ``fix all``: the fast graph, every check, and the plan that fixes every finding with a
  replacement (propagated and verified), as ``POST .../fixes`` with ``dry_run`` does.

Each figure is one fresh process per tree and round (the first preview after the analysis, not a
warm repeat), the trees interleaved so that both meet the same load; the ratio is of medians.

    python -m benchmarks.edit_speed --peer ../ledger-before --doc docs/benchmarks.md
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "devset" / "rfc" / "rfc9000.A.docx"
DEFAULT_INSTRUCTION = 'Rename "connection ID" to "connection identifier" everywhere'

# Run inside the tree under test (its own modules first on the path): only functions that every
# checkout since the first preview route has, so that an older tree can be the peer.
_CHILD = r"""
import json, sys, time
from adapters import read_path
from addin_backend.checks.document import check_document
from addin_backend.graph import build_graph
from addin_backend.graph.build import FAST_STAGES
from addin_backend.service.edits import plan, proposal_view
from addin_backend.service.fixes import plan_fixes, select_findings

path, instruction, semantic = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
doc = read_path(path)
G = build_graph(doc, semantic=semantic)
t0 = time.perf_counter()
p = plan(doc, G, instruction=instruction, semantic=semantic)
view = proposal_view(doc, p, pid=None, doc_id=None, author=None, complete=True)
t1 = time.perf_counter()
fast = build_graph(doc, stages=FAST_STAGES)
chosen = select_findings(check_document(doc, fast), "all")
fixes, _ = plan_fixes(doc, fast, chosen, kinds="all")
t2 = time.perf_counter()
print(json.dumps({"rename": t1 - t0, "rename_changes": len(view["operations"]),
                  "fix": t2 - t1, "fix_changes": len(fixes.operations) + len(fixes.propagated)}))
"""


def measure(tree: Path, path: Path, instruction: str, semantic: bool) -> dict[str, Any]:
    """One fresh process of ``tree``: the seconds of each preview and its number of changes."""
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    out = subprocess.run([sys.executable, "-c", _CHILD, str(path.resolve()), instruction, "1" if semantic else "0"],
                         cwd=tree, env=env, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{tree}: {out.stderr.strip()[-600:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def table(runs: dict[str, list[dict[str, Any]]], names: dict[str, str]) -> str:
    """Medians per tree, and this tree's against the peer's."""
    trees = list(runs)
    head = "| preview | " + " | ".join(f"{names[t]}: changes | {names[t]}: s (median)" for t in trees)
    head += " | peer ÷ this tree |" if len(trees) == 2 else " |"
    lines = [head, "|" + "---|" * (1 + 2 * len(trees) + (len(trees) == 2))]
    for step, label in (("rename", "rename"), ("fix", "fix all")):
        cells, medians = [], []
        for t in trees:
            secs = [r[step] for r in runs[t]]
            medians.append(statistics.median(secs))
            cells += [str(runs[t][0][f"{step}_changes"]), f"{medians[-1]:.2f} ({min(secs):.2f}-{max(secs):.2f})"]
        ratio = f" {medians[1] / medians[0]:.2f} |" if len(trees) == 2 and medians[0] > 0 else ""
        lines.append(f"| {label} | " + " | ".join(cells) + " |" + ratio)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.edit_speed", description=__doc__.split("\n")[0])
    ap.add_argument("--file", type=Path, default=DEFAULT_FILE)
    ap.add_argument("--instruction", default=DEFAULT_INSTRUCTION)
    ap.add_argument("--peer", type=Path, help="another checkout (the code before a change), measured in the same run")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--no-semantic", action="store_true", help="no RELATED stage and no drift check")
    ap.add_argument("--doc", type=Path, help="write the table into this Markdown file (block edit-speed)")
    args = ap.parse_args(argv)
    if not args.file.exists():
        print(f"no such file: {args.file}", file=sys.stderr)
        return 2
    trees = [ROOT] + ([args.peer.resolve()] if args.peer else [])
    names = {str(ROOT): "this tree"} | ({str(trees[1]): "peer"} if args.peer else {})
    runs: dict[str, list[dict[str, Any]]] = {str(t): [] for t in trees}
    for r in range(args.rounds):
        for t in (trees if r % 2 == 0 else trees[::-1]):  # interleaved, each tree first in turn
            got = measure(t, args.file, args.instruction, not args.no_semantic)
            runs[str(t)].append(got)
            print(f"round {r + 1} {names[str(t)]:9} rename {got['rename']:.2f}s ({got['rename_changes']} changes) "
                  f"fix all {got['fix']:.2f}s ({got['fix_changes']} changes)", flush=True)
    md = table(runs, names)
    peer = f"; peer: `{args.peer}`" if args.peer else ""
    head = (f"`{args.instruction}` and `fix all` on `{args.file.name}`, "
            f"{'without' if args.no_semantic else 'with'} the semantic stage, {args.rounds} rounds{peer}.")
    print(head)
    print(md)
    if args.doc:
        from benchmarks.doc_block import replace_block

        replace_block(args.doc, "edit-speed", head + "\n\n" + md, "Preview speed: a rename and a fix-all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
