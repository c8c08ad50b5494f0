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

``--json`` keeps, for every case and context, what a failure needs to be understood and the run
re-scored without the model (:meth:`Score.to_json`): the case (instruction, document and its
path, target, terms), the operations the engine proposed (each an Edit's JSON form without the
unit's text; a rename's replaces folded back into the ``rename`` they are exactly), the error
with its type and the model's reply, the scores, and why a validator failed (``units_missing``,
``refs_broken``, ``forms_left``: the first 20, then a count). Text fields are cut to 200
characters. ``--rescore FILE`` runs the pipeline after the engine and the validators again on
the stored operations and prints the table.

    python -m benchmarks.llm_bench --cases 6 --doc docs/benchmarks.md
    python -m benchmarks.llm_bench --rescore benchmarks/results/llm_bench.json
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from adapters import read
from adapters.model import Document, Edit, Rename, edit_from_json
from addin_backend.edits.llm import LLMEngine, llm_configured
from addin_backend.edits.operations import apply_to_document, expand_rename
from addin_backend.edits.pipeline import EditPlan, plan_edit, plan_given
from addin_backend.edits.proposal import Proposal
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

__all__ = ["ARMS", "BenchCase", "Score", "make_cases", "score_case", "judge", "compact_operations", "rescore",
           "table", "run", "main"]

ARMS = ("ledger", "bm25", "window")
ROOT = Path(__file__).resolve().parents[1]
#: Where the development-set standards are, unless ``--devset`` says otherwise.
DEVSET = ROOT.parent / "shared" / "devset"
#: A text field of a ``--json`` record is cut to this many characters (no unit texts in the file).
TEXT_CAP = 200
#: A list of reasons in a record keeps this many entries, then says how many more there are.
LIST_CAP = 20

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
    # what the case was, for diagnosis and --rescore
    doc: str = ""
    path: str = ""
    instruction: str = ""
    target: str | None = None
    selection: str | None = None
    old: str | None = None
    new: str | None = None
    # what the engine did: its operations (None: it proposed none), or the error it raised
    names: str = "auto"
    operations: list[dict[str, Any]] | None = None
    operations_cut: int = 0  # text fields of the operations cut to TEXT_CAP (a rescore is then approximate)
    error_type: str = ""
    reply: str = ""
    # why a validator failed: expected units unchanged, broken references, forms of the old term left
    units_missing: list[str] = field(default_factory=list)
    refs_broken: list[str] = field(default_factory=list)
    forms_left: list[str] = field(default_factory=list)

    @property
    def consistent(self) -> bool:
        return self.answered and self.units and self.refs and self.terms is not False

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` record: every field, text cut to :data:`TEXT_CAP`, so a failed case can
        be read and re-scored from the committed file."""
        out = {k: _cut(v) if isinstance(v, str) and k != "path" else v for k, v in vars(self).items()}
        out["notes"] = [_cut(n) for n in self.notes]
        return out | {"consistent": self.consistent}


def _cut(text: str) -> str:
    return text if len(text) <= TEXT_CAP else text[:TEXT_CAP - 1] + "…"


def _capped(items: list[str]) -> list[str]:
    """The first :data:`LIST_CAP` items, then how many more (a rename can leave hundreds)."""
    return items[:LIST_CAP] + ([f"… {len(items) - LIST_CAP} more"] if len(items) > LIST_CAP else [])


class _Recording:
    """The engine, keeping its last proposal: what it proposed is recorded even when validation
    in the pipeline then rejects it."""

    def __init__(self, engine: Any) -> None:
        self.engine, self.name = engine, engine.name
        self.proposal: Proposal | None = None

    def propose(self, *args: Any, **kwargs: Any) -> Proposal:
        proposal: Proposal = self.engine.propose(*args, **kwargs)
        self.proposal = proposal
        return proposal


def compact_operations(doc: Document, edits: list[Edit], instruction: str,
                       names: str = "auto") -> tuple[list[dict[str, Any]], int]:
    """The engine's edits as JSON to commit, and how many text fields were cut.

    The engine hands back a rename expanded (one replace per occurrence: 243 for "connection ID"
    on rfc9000); replaces that are exactly the expansion of one rename are folded back into it,
    so the record is what the model proposed and validation expands it the same way again. The
    unit's text (``before``), the date, the author and a reason that is the instruction are left
    out (a rescore puts the instruction back)."""
    out: list[Edit] = list(edits)
    key = lambda e: (e.unit, e.start, e.end, e.text, e.old, e.source, e.reason)  # noqa: E731
    pairs = Counter((e.old, e.text) for e in out if e.op == "replace" and e.old)
    for (form, repl), n in pairs.most_common():
        first = next((e for e in out if e.op == "replace" and (e.old, e.text) == (form, repl)), None)
        if n < 2 or first is None:
            continue
        here = {key(e): e for e in out if e.op == "replace"}
        # the term as written in running text first ("probe timeout", not the heading's "Probe Timeout")
        for old, new in dict.fromkeys([(form.lower(), repl.lower()), (form, repl)]):
            spread = expand_rename(doc, old, new, source=first.source, reason=first.reason, names=names)
            if spread and all(key(r) in here for r in spread):
                gone = {id(here[key(r)]) for r in spread}
                at = next(i for i, e in enumerate(out) if id(e) in gone)
                out = [e for e in out if id(e) not in gone]
                out.insert(at, Rename(old=old, text=new, source=first.source, reason=first.reason))
                break
    records, cut = [], 0
    for e in out:
        d = {k: v for k, v in e.to_json().items() if k not in ("before", "date", "author")}
        if d.get("reason") == instruction:
            del d["reason"]
        for k, v in d.items():
            if isinstance(v, str) and len(v) > TEXT_CAP:
                d[k], cut = _cut(v), cut + 1
        records.append(d)
    return records, cut


def score_case(doc: Document, G, case: BenchCase, arm: str, engine: LLMEngine, budget: int, window: int) -> Score:
    """One case in one context: planned by ``engine`` through the product's pipeline, judged by
    the validators, with what the engine proposed and why a validator failed."""
    s = Score(case.id, arm, case.category, doc=case.doc, instruction=case.instruction, target=case.target,
              selection=case.selection, old=case.old, new=case.new)
    recording = _Recording(engine)
    started = time.monotonic()
    try:
        plan = plan_edit(doc, G, case.instruction, engine=recording, target=case.target, selection=case.selection,
                         budget=budget, semantic=False, retrieval=_context(arm, doc, G, case.instruction, budget, window))
    except LedgerError as exc:
        s.seconds = time.monotonic() - started
        _failed(s, exc)
        usage = exc.details.get("usage") or {}
        s.prompt_tokens, s.completion_tokens = usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)
        if recording.proposal is not None:  # proposed, then rejected by validation
            _proposed(s, doc, recording.proposal, case.instruction)
        return s
    s.seconds = time.monotonic() - started
    if recording.proposal is not None:
        _proposed(s, doc, recording.proposal, case.instruction)
    s.notes = list(plan.warnings)
    if plan.usage is not None:
        s.prompt_tokens, s.completion_tokens = plan.usage.prompt_tokens, plan.usage.completion_tokens
    s.context_tokens = plan.context.tokens if plan.context is not None else 0
    judge(doc, case, plan, s)
    return s


def _failed(s: Score, exc: LedgerError) -> None:
    s.error = f"{exc.code}: {exc.message}"[:200]
    s.error_type = type(exc).__name__
    s.reply = _cut(str(exc.details.get("reply") or ""))


def _proposed(s: Score, doc: Document, proposal: Proposal, instruction: str) -> None:
    s.names = proposal.names
    s.operations, s.operations_cut = compact_operations(doc, proposal.edits, instruction, proposal.names)


def judge(doc: Document, case: BenchCase, plan: EditPlan, s: Score) -> None:
    """The validators on a plan, into ``s`` (scores and why each failed): shared by a run and by
    ``--rescore``, so both judge alike."""
    s.answered = bool(plan.operations)
    after = apply_to_document(doc, plan.edits)
    before_text = {u.id: u.text for u in doc.units}
    after_ids = {u.id for u in after.units}
    changed = {uid for uid, t in before_text.items() if uid not in after_ids or after.unit(uid).text != t}
    expected = _expected(doc, case)
    old_broken = {(b["mention"], b["label"]) for b in broken_references(build_graph(doc, stages=FAST_STAGES))}
    reported = {f.unit for f in plan.findings}
    # the edited document as its reader sees it once the fields update: headings and captions
    # numbered automatically carry their new numbers (the propagated mentions already do)
    numbered = relabel(after, renumber(doc, after))
    broken = [b for b in broken_references(build_graph(numbered, stages=FAST_STAGES))
              if (b["mention"], b["label"]) not in old_broken and b["source"] not in reported]
    s.refs = not broken
    s.refs_broken = _capped([_cut(f"{b['source']}: '{b['mention']}' names {b['label']}") for b in broken])
    s.terms, s.forms_left = None, []
    if case.category == "rename" and case.old:
        # a form kept on purpose (a name of its own, code, a quotation) with its reason is no
        # inconsistency; any other form left is one, reported or not
        kept = [f for f in plan.findings if f.kind == "old_term_kept"]
        left = unreported_forms(after, case.old, case.new or "", kept)
        s.terms = not left
        s.forms_left = _capped([_cut(f"{uid} {a}-{b}: '{text}'") for uid, a, b, text in left])
        kept_units = {p.unit for f in kept for p in f.places} | {f.unit for f in kept}
        expected -= kept_units - {uid for uid, *_ in left}
    order = {u.id: u.order for u in doc.units}
    missing = sorted(expected - changed, key=lambda uid: order.get(uid, 0))
    s.units = not missing
    s.units_missing = _capped(missing)


def rescore(records: list[dict[str, Any]], devset: Path | None = None, log=sys.stderr) -> list[Score]:
    """Scores again from a ``--json`` file, without the model: the stored operations go through
    the pipeline after the engine (validation, propagation, verification) and the validators, on
    the document re-read from the stored path (else ``devset``). Tokens and seconds are kept;
    a record without operations (a refusal, or a file written before they were kept) keeps its
    scores."""
    names = {f.name for f in fields(Score)}
    docs: dict[str, tuple[Document, Any]] = {}
    out = []
    for r in records:
        s = Score(**{k: v for k, v in r.items() if k in names})
        if r.get("operations") is None:
            out.append(s)
            continue
        path = ROOT / r["path"] if r.get("path") else None
        if path is None or not path.exists():
            path = _path(devset or DEVSET, r["doc"])
        if str(path) not in docs:
            doc = read(path.read_bytes())
            docs[str(path)] = (doc, build_graph(doc, semantic=False))
        doc, G = docs[str(path)]
        case = BenchCase(s.case, s.doc, s.category, s.instruction, s.selection, s.target, s.old, s.new)
        s.error = s.error_type = s.reply = ""
        try:
            edits = [edit_from_json({"reason": s.instruction, **o}) for o in s.operations or []]
            plan = plan_given(doc, G, edits, instruction=s.instruction, engine="llm", semantic=False, names=s.names)
        except LedgerError as exc:
            _failed(s, exc)
            s.answered = s.units = s.refs = False
            s.terms, s.units_missing, s.refs_broken, s.forms_left = None, [], [], []
        else:
            judge(doc, case, plan, s)
        if s.consistent != r.get("consistent") or s.operations_cut:
            print(f"{s.case:24} {s.arm:7} consistent {r.get('consistent')} -> {s.consistent}"
                  f"{' (operations cut: approximate)' if s.operations_cut else ''}", file=log)
        out.append(s)
    kept = sum(r.get("operations") is None for r in records)
    if kept:
        print(f"{kept} of {len(records)} records carry no operations (a refusal or error, or a file from before "
              "they were kept): their stored scores are kept", file=log)
    return out


def window_for(context: int) -> int:
    """The window arm's tokens (cl100k) for a model window of ``context``: what is left after the
    prompt's fixed part (system prompt, worked examples, instruction) and the answer's budget."""
    from addin_backend.edits import llm_operations as ops
    from addin_backend.retrieval.tokens import count_tokens

    answer = ops.output_budget([], count_tokens, None) + 500  # a rewrite of a long unit: room for it
    return max(512, ops.prompt_room(Document("docx", []), "x" * 200, count_tokens, context, answer))


def _path(devset: Path, name: str) -> Path:
    return devset / "rfc" / f"{name}.A.docx"


def _load(devset: Path, names: list[str]) -> dict[str, Document]:
    out = {}
    for name in names:
        path = _path(devset, name)
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
        arms: tuple[str, ...] = ARMS, log=sys.stderr, paths: dict[str, Path] | None = None) -> list[Score]:
    """Every case in every context; ``paths`` (the documents' files) go into the records, for
    ``--rescore``."""
    graphs = {name: build_graph(doc, semantic=False) for name, doc in docs.items() if any(c.doc == name for c in cases)}
    scores = []
    for case in cases:
        for arm in arms:
            s = score_case(docs[case.doc], graphs[case.doc], case, arm, engine, budget, window)
            if paths and case.doc in paths:
                s.path = os.path.relpath(paths[case.doc], ROOT)
            scores.append(s)
            print(f"{case.id:24} {arm:7} answered={int(s.answered)} units={int(s.units)} refs={int(s.refs)} "
                  f"terms={s.terms} {s.prompt_tokens}+{s.completion_tokens} tok {s.seconds:.0f}s {s.error[:80]}",
                  file=log, flush=True)
    return scores


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.llm_bench", description=__doc__.split("\n")[0])
    ap.add_argument("--devset", type=Path, default=DEVSET)
    ap.add_argument("--cases", type=int, default=30, help="the first N of the fixed cases (default 30)")
    ap.add_argument("--budget", type=int, default=1500, help="LEDGER's and BM25's context budget (tokens)")
    ap.add_argument("--window", type=int, default=0,
                    help="the window arm's tokens (default: the model's context less prompt and answer room)")
    ap.add_argument("--context", type=int, default=4096, help="the local server's context window (tokens)")
    ap.add_argument("--arms", default=",".join(ARMS))
    ap.add_argument("--json", type=Path, help="write every score here")
    ap.add_argument("--doc", type=Path, help="write the table into this Markdown file (block llm-bench)")
    ap.add_argument("--rescore", type=Path, metavar="FILE",
                    help="score a --json file's stored operations again (no model) and print the table")
    args = ap.parse_args(argv)
    if args.rescore:
        print(table(rescore(json.loads(args.rescore.read_text()), args.devset)))
        return 0
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
        scores = run(cases, docs, engine, budget=args.budget, window=window, arms=tuple(args.arms.split(",")),
                     paths={name: _path(args.devset, name) for name in docs})
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
        args.json.write_text(json.dumps([s.to_json() for s in scores], indent=1))
    if args.doc:
        from benchmarks.doc_block import replace_block

        replace_block(args.doc, "llm-bench", head + "\n\n" + md, "The LLM engine: LEDGER's context, BM25 and a window (make bench-llm)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
