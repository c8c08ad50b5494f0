"""The work of ``ledger check``, ``ledger context``, ``ledger edit``, ``ledger accept`` and
``ledger reject``, given parsed arguments (``cli.py`` only parses and maps errors)."""
from __future__ import annotations

import json
import sys
from typing import IO, Any, Iterable, Sequence

from adapters.model import Document

from .errors import InvalidRequestError
from .findings import Finding, count_by_severity

__all__ = ["graph_progress", "run_check", "run_context", "run_edit", "run_resolve", "read_bytes", "write_bytes"]


def graph_progress(stages: Sequence[str], stream: IO[str] | None = None):
    """A ``progress(stage, fraction)`` callback drawing one tqdm bar over all ``stages`` on stderr."""
    from tqdm import tqdm

    stages = list(stages)
    bar = tqdm(total=100 * len(stages), desc="graph", file=stream or sys.stderr, leave=False, disable=None,
               bar_format="{desc:<20} {bar} {percentage:3.0f}% {elapsed}")

    def progress(stage: str, fraction: float) -> None:
        if stage not in stages:
            return
        done = stages.index(stage)
        bar.set_description_str(f"graph: {stage}")
        bar.n = int(round(100 * (done + fraction)))
        bar.refresh()
        if done == len(stages) - 1 and fraction >= 1.0:
            bar.close()

    return progress


def _graph(doc: Document, stages: Sequence[str], err: IO[str] | None):
    from .graph.build import build_graph

    return build_graph(doc, stages=stages, progress=graph_progress(stages, err))


def _stages(semantic: bool) -> tuple[str, ...]:
    from .graph.build import STAGES

    return STAGES if semantic else STAGES[:3]


def _emit(obj: Any, out: IO[str]) -> None:
    from .service import json_safe

    out.write(json.dumps(json_safe(obj), ensure_ascii=False, allow_nan=False))
    out.write("\n")


def read_bytes(path: str) -> bytes:
    """The bytes of a document file, with the adapters' size check and errors."""
    from adapters import read_path

    read_path(path)  # the adapters' checks: exists, size, a readable package
    with open(path, "rb") as fh:
        return fh.read()


def write_bytes(path: str, data: bytes) -> None:
    """Write an output file; a failure is a clear error, not a traceback."""
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise InvalidRequestError(f"cannot write {path}: {exc.strerror or exc}") from None


def _where(doc: Document, uid: str | None) -> str:
    if not uid:
        return "document"
    u = doc.get(uid)
    if u is None or not u.label or u.kind == "list_item":
        return uid
    return u.label


def _print_findings(doc: Document, findings: Iterable[Finding], out: IO[str]) -> None:
    for f in findings:
        out.write(f"{f.severity:<7} {f.kind:<25} {_where(doc, f.unit):<18} {f.message}\n")


def _tally(findings: list[Finding]) -> str:
    if not findings:
        return "no findings"
    c = count_by_severity(findings)
    return f"{len(findings)} finding(s): {c['error']} error(s), {c['warning']} warning(s), {c['info']} info"


# --- ledger check ----------------------------------------------------------------------------


def run_check(doc: Document, *, as_json: bool = False, out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """Document-wide findings (see :mod:`addin_backend.checks`)."""
    from .checks import check_document
    from .graph.build import FAST_STAGES

    out = out or sys.stdout
    findings = check_document(doc, _graph(doc, FAST_STAGES, err))
    if as_json:
        _emit({"path": doc.path, "units": len(doc.units), "counts": count_by_severity(findings),
               "findings": [f.to_json() for f in findings]}, out)
        return 0
    _print_findings(doc, findings, out)
    out.write(_tally(findings) + "\n")
    return 0


# --- ledger context --------------------------------------------------------------------------


def run_context(doc: Document, *, target: str | None, find: str | None, instruction: str | None, budget: int,
                strategy: str, weights: str | None, semantic: bool = True, as_json: bool = False,
                out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """The context retrieval packs for an edit of one unit (named by id or by text it contains)."""
    from .retrieval import retrieve
    from .retrieval.result import Weights
    from .retrieval.targets import identify_targets

    out = out or sys.stdout
    try:
        w = Weights.parse(weights)
    except ValueError as exc:
        raise InvalidRequestError(f"--weights: {exc}") from None
    found = identify_targets(doc, ids=[target] if target else None, selection=find)
    G = _graph(doc, _stages(semantic), err) if strategy == "ledger" else None
    res = retrieve(doc, G, found.ids, instruction=instruction, budget=budget, strategy=strategy, weights=w)
    data = res.to_json(with_text=False)
    data["candidates"] = [c.to_json() for c in found.candidates]
    if as_json:
        _emit(data, out)
        return 0
    for c in res.context:
        label = c.label or ""
        out.write(f"{c.edge:<10} {c.hops:>2} {c.tokens:>5}  {c.id:<18} {label:<14} {c.reason}\n")
    share = f" ({100 * res.share:.1f}% of {res.document_tokens})" if res.document_tokens else ""
    out.write(f"{len(res.context)} unit(s), {res.tokens} tokens{share}; {len(res.dropped)} dropped\n")
    return 0


# --- ledger edit -----------------------------------------------------------------------------


def run_edit(path: str, doc: Document, *, instruction: str, engine: str, author: str, output: str | None,
             target: str | None = None, budget: int = 1500, semantic: bool = True, as_json: bool = False,
             out: IO[str] | None = None, err: IO[str] | None = None) -> int:
    """Plan an instruction, write it into ``output`` as tracked changes (``None``: a dry run
    that writes nothing), report what happened."""
    from .edits.pipeline import apply_plan, plan_edit

    out = out or sys.stdout
    original = read_bytes(path)
    G = _graph(doc, _stages(semantic), err)
    plan = plan_edit(doc, G, instruction, engine=engine, author=author, target=target, budget=budget,
                     semantic=semantic)
    written: list[Finding] = []
    if output is not None:
        data = original
        if plan.edits:
            applied = apply_plan(original, doc, plan.edits)
            data, written = applied.data, applied.findings
        write_bytes(output, data)
    findings = plan.findings + written
    if as_json:
        report = plan.to_json()
        report.update({"path": path, "output": output, "findings": [f.to_json() for f in findings],
                       "counts": count_by_severity(findings)})
        _emit(report, out)
        return 0
    out.write(f"{plan.explanation}\n")
    for e in plan.operations:
        out.write(f"  {_describe(doc, e)}\n")
    if plan.propagated:
        out.write(f"propagated ({len(plan.propagated)}):\n")
        for e in plan.propagated:
            out.write(f"  {_describe(doc, e)}  [{e.reason}]\n")
    _print_findings(doc, findings, out)
    tok = plan.tokens()
    done = f"wrote {output}" if output else "dry run: nothing written"
    out.write(f"{_tally(findings)}; context {tok['context']} tokens of {tok['document']}; {done}\n")
    return 0


def _describe(doc: Document, e) -> str:
    where = _where(doc, e.unit)
    if e.op == "replace":
        text = e.before or ""
        left = text[max(0, e.start - 24) : e.start].split("\n")[-1]
        right = text[e.end : e.end + 24].split("\n")[0]
        return f"{where}: \u2026{left}[{text[e.start:e.end]} -> {e.text}]{right}\u2026"
    if e.op == "insert_after":
        return f"insert {e.kind} after {where}: '{(e.text or '')[:60]}'"
    if e.op == "move":
        dest = e.after or e.before_unit
        return f"move {where} {'after' if e.after else 'before'} {_where(doc, dest)}"
    if e.op == "set_text":
        return f"rewrite {where}: '{(e.text or '')[:60]}'"
    return f"{e.op} {where}"


# --- ledger accept / reject ------------------------------------------------------------------


def run_resolve(path: str, output: str, which: str, *, out: IO[str] | None = None) -> int:
    """Accept or reject every tracked change of a document into ``output``."""
    from .edits.pipeline import writer_functions

    out = out or sys.stdout
    data = read_bytes(path)
    _, accept_all, reject_all = writer_functions()
    result = accept_all(data) if which == "accept" else reject_all(data)
    write_bytes(output, result)
    out.write(f"{'accepted' if which == 'accept' else 'rejected'} every tracked change; wrote {output}\n")
    return 0
