"""The paper's experiment as a command: one LLM, three contexts, programmatic validators.

Each case (an instruction on a development-set standard, fixed below or chosen by a fixed rule
from the document's own headings) is run by the LLM engine three times: with LEDGER's context,
with a BM25 top-k context of the same token budget, and with as much of the document around the
target as the model's window allows. Propagation and verification run after the engine in every
arm, as they do in the product; only the context differs. Each result is scored:

- ``answered``: the engine proposed edits (not a refusal, not an unusable answer);
- ``units``: the expected set of changed units was changed (a rename: every unit stating the
  term in any form, from the text itself; a retitle: the heading; a delete: the section's units);
- ``refs``: reference validity: no mention of a label the edited document lacks, unless a finding
  reports it to the reviewer;
- ``terms``: terminology consistency (renames): no form of the old term is left;
- ``consistent``: all of these;

with the prompt and completion tokens and the seconds each cost. The endpoint comes from
``LEDGER_LLM_*``; without them the pinned local model is fetched and served on loopback
(:mod:`addin_backend.edits.local_model`).

    python -m benchmarks.llm_bench --cases 6 --doc docs/benchmarks.md
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adapters import read
from adapters.model import Document
from addin_backend.edits.llm import LLMEngine, llm_configured
from addin_backend.edits.operations import apply_to_document
from addin_backend.edits.pipeline import plan_edit
from addin_backend.edits.terms import find_term
from addin_backend.edits.tree import subtree
from addin_backend.errors import LedgerError
from addin_backend.graph import build_graph
from addin_backend.graph.build import FAST_STAGES
from addin_backend.graph.references import broken_references
from addin_backend.retrieval import ContextResult, document_tokens, retrieve
from addin_backend.retrieval.baselines import bm25, sliding_window
from addin_backend.retrieval.targets import identify_targets
from addin_backend.numbering import renumber
from addin_backend.verify.after_edit import relabel, unreported_forms

__all__ = ["ARMS", "BenchCase", "make_cases", "run", "main"]

ARMS = ("ledger", "bm25", "window")
ROOT = Path(__file__).resolve().parents[1]

#: Renames written for these standards: a term each uses in several sections, and a new name.
RENAMES: dict[str, list[tuple[str, str]]] = {
    "rfc9002": [("probe timeout", "probe deadline"), ("congestion window", "sending window")],
    "rfc9000": [("connection ID", "connection identifier"), ("stateless reset", "silent reset")],
    "rfc8446": [("pre-shared key", "preshared secret"), ("handshake message", "negotiation message")],
    "rfc6787": [("media resource", "media engine"), ("recognizer", "speech recogniser")],
    "rfc9420": [("ratchet tree", "key tree"), ("epoch", "era")],
}


@dataclass
class BenchCase:
    id: str
    doc: str
    category: str  # rename, retitle, delete
    instruction: str
    selection: str | None = None
    target: str | None = None
    old: str | None = None
    new: str | None = None


def _sections(doc: Document) -> list:
    """Numbered sections of the body with a little content, in order."""
    return [u for u in doc.units if u.kind == "section" and u.label and u.label.startswith("Section")
            and u.number and "." in u.number and 1 <= len(subtree(doc, u.id)) <= 6]


def make_cases(docs: dict[str, Document], per_doc: int = 6) -> list[BenchCase]:
    """The fixed cases: for each document in turn a rename, a retitle and a delete, so that the
    first ``N`` cover the three categories."""
    by_doc: dict[str, list[BenchCase]] = {}
    for name, doc in docs.items():
        out: list[BenchCase] = []
        secs = _sections(doc)
        picks = [secs[i * len(secs) // 4] for i in range(4)] if len(secs) >= 4 else secs
        renames = RENAMES.get(name, [])
        for i in range(per_doc // 3):
            if i < len(renames):
                old, new = renames[i]
                out.append(BenchCase(f"{name}-rename-{i + 1}", name, "rename",
                                     f"Use '{new}' instead of '{old}' everywhere in the document", selection=old,
                                     old=old, new=new))
            if 2 * i < len(picks):
                s = picks[2 * i]
                out.append(BenchCase(f"{name}-retitle-{i + 1}", name, "retitle",
                                     f"Give {s.label} the heading 'Notes on {s.title}'", target=s.id,
                                     new=f"Notes on {s.title}"))
            if 2 * i + 1 < len(picks):
                s = picks[2 * i + 1]
                out.append(BenchCase(f"{name}-delete-{i + 1}", name, "delete",
                                     f"{s.label} is obsolete; remove it from the document", target=s.id))
        by_doc[name] = out
    cases: list[BenchCase] = []
    for start in range(0, max((len(v) for v in by_doc.values()), default=0), 3):
        for v in by_doc.values():  # a rename, a retitle and a delete of one document, then the next
            cases.extend(v[start:start + 3])
    return cases


def _expected(doc: Document, case: BenchCase) -> set[str]:
    if case.category == "rename":
        return {u.id for u in doc.units if case.old and find_term(u.text, case.old, case.new or "")}
    if case.category == "delete" and case.target:
        return {u.id for u in subtree(doc, case.target)}
    return {case.target} if case.target else set()


def _context(arm: str, doc: Document, G, instruction: str, budget: int, window: int):
    def get(targets: list[str]) -> ContextResult:
        if arm == "ledger":
            return retrieve(doc, G, targets, instruction=instruction, budget=budget)
        items = bm25(doc, targets, instruction, budget) if arm == "bm25" else sliding_window(doc, targets, window)
        return ContextResult(arm, targets, items, sum(i.tokens for i in items), document_tokens(doc),
                             budget if arm == "bm25" else window)
    return get


@dataclass
class Score:
    case: str
    arm: str
    category: str
    answered: bool = False
    units: bool = False
    refs: bool = False
    terms: bool | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    context_tokens: int = 0
    seconds: float = 0.0
    error: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def consistent(self) -> bool:
        return self.answered and self.units and self.refs and self.terms is not False


def score_case(doc: Document, G, case: BenchCase, arm: str, engine: LLMEngine, budget: int, window: int) -> Score:
    s = Score(case.id, arm, case.category)
    started = time.monotonic()
    try:
        plan = plan_edit(doc, G, case.instruction, engine=engine, target=case.target, selection=case.selection,
                         budget=budget, semantic=False, retrieval=_context(arm, doc, G, case.instruction, budget, window))
    except LedgerError as exc:
        s.seconds = time.monotonic() - started
        s.error = f"{exc.code}: {exc.message}"[:200]
        usage = exc.details.get("usage") or {}
        s.prompt_tokens, s.completion_tokens = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
        return s
    s.seconds = time.monotonic() - started
    s.answered = bool(plan.operations)
    s.notes = list(plan.warnings)
    if plan.usage is not None:
        s.prompt_tokens, s.completion_tokens = plan.usage.prompt_tokens, plan.usage.completion_tokens
    s.context_tokens = plan.context.tokens if plan.context is not None else 0
    after = apply_to_document(doc, plan.edits)
    before_text = {u.id: u.text for u in doc.units}
    after_ids = {u.id for u in after.units}
    changed = {uid for uid, t in before_text.items() if uid not in after_ids or after.unit(uid).text != t}
    s.units = _expected(doc, case) <= changed
    old_broken = {(b["mention"], b["label"]) for b in broken_references(build_graph(doc, stages=FAST_STAGES))}
    reported = {f.unit for f in plan.findings}
    # the edited document as its reader sees it once the fields update: headings and captions
    # numbered automatically carry their new numbers (the propagated mentions already do)
    numbered = relabel(after, renumber(doc, after))
    s.refs = all(b["source"] in reported for b in broken_references(build_graph(numbered, stages=FAST_STAGES))
                 if (b["mention"], b["label"]) not in old_broken)
    if case.category == "rename" and case.old:
        # a form kept on purpose (a name of its own, code, a quotation) with its reason is no
        # inconsistency; any other form left is one, reported or not
        kept = [f for f in plan.findings if f.kind == "old_term_kept"]
        left = unreported_forms(after, case.old, case.new or "", kept)
        s.terms = not left
        kept_units = {p.unit for f in kept for p in f.places} | {f.unit for f in kept}
        s.units = _expected(doc, case) - (kept_units - {uid for uid, *_ in left}) <= changed
    return s


def window_for(context: int) -> int:
    """The window arm's tokens (cl100k) for a model window of ``context``: what is left after the
    prompt's fixed part (system prompt, worked examples, instruction) and the answer's budget."""
    from addin_backend.edits import llm_operations as ops
    from addin_backend.retrieval.tokens import count_tokens

    answer = ops.output_budget([], count_tokens, None) + 500  # a rewrite of a long unit: room for it
    return max(512, ops.prompt_room(Document("docx", []), "x" * 200, count_tokens, context, answer))


def _load(devset: Path, names: list[str]) -> dict[str, Document]:
    out = {}
    for name in names:
        path = devset / "rfc" / f"{name}.A.docx"
        if path.exists():
            out[name] = read(path.read_bytes())
    return out


def table(scores: list[Score]) -> str:
    """The per-arm summary as Markdown."""
    lines = ["| context | cases | answered | expected units changed | references valid | terms consistent (renames) "
             "| consistent | prompt tokens / case | completion tokens / case | s / case |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for arm in ARMS:
        got = [s for s in scores if s.arm == arm]
        if not got:
            continue
        n = len(got)
        renames = [s for s in got if s.terms is not None or s.category == "rename"]
        pct = lambda k: f"{100 * k / n:.0f}%"  # noqa: E731
        term = f"{sum(bool(s.terms) for s in renames)}/{len(renames)}" if renames else "—"
        lines.append(
            f"| {arm} | {n} | {pct(sum(s.answered for s in got))} | {pct(sum(s.units for s in got))} "
            f"| {pct(sum(s.refs and s.answered for s in got))} | {term} | {pct(sum(s.consistent for s in got))} "
            f"| {sum(s.prompt_tokens for s in got) / n:.0f} | {sum(s.completion_tokens for s in got) / n:.0f} "
            f"| {sum(s.seconds for s in got) / n:.0f} |")
    return "\n".join(lines)


def run(cases: list[BenchCase], docs: dict[str, Document], engine: LLMEngine, *, budget: int, window: int,
        arms: tuple[str, ...] = ARMS, log=sys.stderr) -> list[Score]:
    graphs = {name: build_graph(doc, semantic=False) for name, doc in docs.items() if any(c.doc == name for c in cases)}
    scores = []
    for case in cases:
        for arm in arms:
            s = score_case(docs[case.doc], graphs[case.doc], case, arm, engine, budget, window)
            scores.append(s)
            print(f"{case.id:24} {arm:7} answered={int(s.answered)} units={int(s.units)} refs={int(s.refs)} "
                  f"terms={s.terms} {s.prompt_tokens}+{s.completion_tokens} tok {s.seconds:.0f}s {s.error[:80]}",
                  file=log, flush=True)
    return scores


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.llm_bench", description=__doc__.split("\n")[0])
    ap.add_argument("--devset", type=Path, default=ROOT.parent / "shared" / "devset")
    ap.add_argument("--cases", type=int, default=30, help="the first N of the fixed cases (default 30)")
    ap.add_argument("--budget", type=int, default=1500, help="LEDGER's and BM25's context budget (tokens)")
    ap.add_argument("--window", type=int, default=0,
                    help="the window arm's tokens (default: the model's context less prompt and answer room)")
    ap.add_argument("--context", type=int, default=4096, help="the local server's context window (tokens)")
    ap.add_argument("--arms", default=",".join(ARMS))
    ap.add_argument("--json", type=Path, help="write every score here")
    ap.add_argument("--doc", type=Path, help="write the table into this Markdown file (block llm-bench)")
    args = ap.parse_args(argv)
    docs = _load(args.devset, list(RENAMES))
    if not docs:
        print(f"no development-set documents under {args.devset}", file=sys.stderr)
        return 1
    cases = make_cases(docs)[: args.cases]
    window = args.window or window_for(args.context)
    server = None
    model = os.environ.get("LEDGER_LLM_MODEL") or "the configured endpoint"
    if not llm_configured():
        from addin_backend.edits.local_model import DEFAULT_MODEL, LocalServer, fetch

        server = LocalServer(fetch(), context=args.context).start()
        os.environ.update(server.env())
        # a shared CPU reads a long prompt for minutes: wait for it rather than retry it
        os.environ.setdefault("LEDGER_LLM_TIMEOUT", "900")
        os.environ.setdefault("LEDGER_LLM_MAX_RETRIES", "1")
        model = f"{DEFAULT_MODEL} (xllamacpp on loopback, {server.threads} decode / {server.batch_threads} prompt threads)"
    engine = LLMEngine.from_env()
    started = time.monotonic()
    try:
        scores = run(cases, docs, engine, budget=args.budget, window=window, arms=tuple(args.arms.split(",")))
    finally:
        if server is not None:
            server.stop()
    wall = time.monotonic() - started
    md = table(scores)
    cmd = "python -m benchmarks.llm_bench " + " ".join(argv if argv is not None else sys.argv[1:])
    head = (f"Model: {model}; way of asking: `{engine.config.schema}`; {len(cases)} cases "
            f"({', '.join(sorted({c.category for c in cases}))}) on {', '.join(sorted({c.doc for c in cases}))}; "
            f"budget {args.budget} tokens (LEDGER, BM25), window {window} tokens; {wall / 60:.1f} min in all. "
            f"Command: `{cmd}`.")
    print(head)
    print(md)
    if args.json:
        args.json.write_text(json.dumps([vars(s) | {"consistent": s.consistent} for s in scores], indent=1))
    if args.doc:
        from benchmarks.doc_block import replace_block

        replace_block(args.doc, "llm-bench", head + "\n\n" + md, "The LLM engine: LEDGER's context, BM25 and a window (make bench-llm)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
