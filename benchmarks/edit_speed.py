"""How long a person waits for a preview of a few hundred changes: a rename and a fix-all of the
checks on a 100K-token standard, as the server makes them, against another checkout in one run.

The server has the document's graph before anyone asks for a preview (the analysis job builds
it), so each run builds the graph first, untimed, and then times what the preview request does:

- ``rename``: plan the instruction with the full graph (CONTAINS, REFERENCES, DEPENDS and, unless
  ``--no-semantic``, RELATED with the drift check) and turn the plan into the Proposal JSON;
- ``fix all``: the fast graph, every check, and the plan that fixes every finding with a
  replacement (propagated and verified), as ``POST .../fixes`` with ``dry_run`` does;
- ``fix all (seeded)``, with ``--seed OLD=NEW``: the same on a copy of the file in which every
  second use of each OLD is written NEW (a real standard has a few dozen fixes; a seeded variant
  spelling gives the few hundred a careless merge of two drafts leaves).

Each figure is one fresh process per tree and round (the first preview after the analysis, not a
warm repeat), the trees interleaved so that both meet the same load; the ratio is of medians.

    python -m benchmarks.edit_speed --peer ../ledger-before --seed endpoint=end-point --doc docs/benchmarks.md
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import zipfile
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

path, instruction, semantic, seeded = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
doc = read_path(path)
G = build_graph(doc, semantic=semantic)
t0 = time.perf_counter()
p = plan(doc, G, instruction=instruction, semantic=semantic)
view = proposal_view(doc, p, pid=None, doc_id=None, author=None, complete=True)
t1 = time.perf_counter()
out = {"rename": t1 - t0, "rename_changes": len(view["operations"])}


def fix_all(doc):
    t = time.perf_counter()
    fast = build_graph(doc, stages=FAST_STAGES)
    chosen = select_findings(check_document(doc, fast), "all")
    fixes, _ = plan_fixes(doc, fast, chosen, kinds="all")
    return time.perf_counter() - t, len(fixes.operations) + len(fixes.propagated)


out["fix"], out["fix_changes"] = fix_all(doc)
if seeded:
    out["seeded"], out["seeded_changes"] = fix_all(read_path(seeded[0]))
print(json.dumps(out))
"""

#: The steps of a round, as the table names them.
STEPS = (("rename", "rename"), ("fix", "fix all"), ("seeded", "fix all (seeded)"))


def seeded_copy(path: Path, pairs: list[tuple[str, str]], into: Path) -> tuple[Path, dict[str, int]]:
    """A copy of the .docx ``path`` in ``into`` with every second whole-word use of each OLD in the
    body's text runs written NEW; how many of each were rewritten.

    A use split across runs stays as it was (the copy has a little fewer variants than half).
    """
    if path.suffix.lower() != ".docx":
        raise ValueError(f"--seed needs a .docx file, not {path.name}")
    counts = {old: 0 for old, _ in pairs}
    seen = dict(counts)

    def runs(m: re.Match[str]) -> str:
        text = m.group(2)
        for old, new in pairs:
            def every_second(w: re.Match[str], old: str = old, new: str = new) -> str:
                seen[old] += 1
                if seen[old] % 2:
                    return w.group(0)
                counts[old] += 1
                return new
            text = re.sub(rf"\b{re.escape(old)}\b", every_second, text)
        return m.group(1) + text + m.group(3)

    out = into / f"{path.stem}.seeded{path.suffix}"
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "word/document.xml":
                data = re.sub(r"(<w:t(?: [^>]*)?>)([^<]*)(</w:t>)", runs, data.decode("utf-8")).encode("utf-8")
            zout.writestr(item, data)
    return out, counts



def measure(tree: Path, path: Path, instruction: str, semantic: bool, seeded: Path | None = None) -> dict[str, Any]:
    """One fresh process of ``tree``: the seconds of each preview and its number of changes
    (the fix-all of ``seeded`` too, when given)."""
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    argv = [sys.executable, "-c", _CHILD, str(path.resolve()), instruction, "1" if semantic else "0"]
    out = subprocess.run(argv + ([str(seeded.resolve())] if seeded else []),
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
    for step, label in STEPS:
        if any(step not in r for t in trees for r in runs[t]):
            continue
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
    ap.add_argument("--seed", action="append", default=[], metavar="OLD=NEW",
                    help="also time a fix-all on a copy with every second OLD written NEW (repeatable)")
    ap.add_argument("--doc", type=Path, help="write the table into this Markdown file (block edit-speed)")
    args = ap.parse_args(argv)
    if not args.file.exists():
        print(f"no such file: {args.file}", file=sys.stderr)
        return 2
    pairs = [tuple(x.split("=", 1)) for x in args.seed]
    if any(len(p) != 2 or not all(p) for p in pairs):
        print("--seed takes OLD=NEW", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        seeded, counts = seeded_copy(args.file, pairs, Path(tmp)) if pairs else (None, {})
        return _run(args, seeded, counts, pairs)


def _run(args: argparse.Namespace, seeded: Path | None, counts: dict[str, int], pairs: list[tuple[str, str]]) -> int:
    trees = [ROOT] + ([args.peer.resolve()] if args.peer else [])
    names = {str(ROOT): "this tree"} | ({str(trees[1]): "peer"} if args.peer else {})
    runs: dict[str, list[dict[str, Any]]] = {str(t): [] for t in trees}
    for r in range(args.rounds):
        for t in (trees if r % 2 == 0 else trees[::-1]):  # interleaved, each tree first in turn
            got = measure(t, args.file, args.instruction, not args.no_semantic, seeded)
            runs[str(t)].append(got)
            print(f"round {r + 1} {names[str(t)]:9} " + " ".join(
                f"{label} {got[step]:.2f}s ({got[f'{step}_changes']} changes)" for step, label in STEPS if step in got),
                flush=True)
    md = table(runs, names)
    peer = f"; peer: `{args.peer}`" if args.peer else ""
    seed = ("; seeded: a copy with every second " + ", ".join(f"'{old}' written '{new}' ({counts[old]})"
                                                            for old, new in pairs)) if pairs else ""
    head = (f"`{args.instruction}` and `fix all` on `{args.file.name}`, "
            f"{'without' if args.no_semantic else 'with'} the semantic stage, {args.rounds} rounds{peer}{seed}.")
    print(head)
    print(md)
    if args.doc:
        from benchmarks.doc_block import replace_block

        replace_block(args.doc, "edit-speed", head + "\n\n" + md, "Preview speed: a rename and a fix-all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
