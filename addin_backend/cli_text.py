"""How ``ledger`` shows results as text: progress bars on stderr, findings, context rows and
edit operations, each drawn from the JSON a service function returned (``--json`` prints that
JSON itself)."""
from __future__ import annotations

import sys
from typing import IO, Any, Iterable, Sequence

from adapters.model import Document, Edit, edit_from_json

__all__ = ["graph_progress", "print_findings", "tally", "print_check", "print_fix", "print_context", "print_edit", "print_review"]


def graph_progress(stages: Sequence[str], stream: IO[str] | None = None):
    """A ``progress(stage, fraction)`` callback drawing one tqdm bar over all ``stages`` on stderr
    (the bar appears with the first report of work under way: a command that builds no graph, as
    one that loads a kept graph and reports each stage done, draws none and imports no tqdm)."""
    stages = list(stages)
    bars: list[Any] = []

    def progress(stage: str, fraction: float) -> None:
        if stage not in stages or (not bars and fraction >= 1.0):
            return
        if not bars:
            from tqdm import tqdm

            bars.append(tqdm(total=100 * len(stages), desc="graph", file=stream or sys.stderr, leave=False,
                             disable=None, bar_format="{desc:<20} {bar} {percentage:3.0f}% {elapsed}"))
        bar = bars[0]
        done = stages.index(stage)
        bar.set_description_str(f"graph: {stage}")
        bar.n = int(round(100 * (done + fraction)))
        bar.refresh()
        if done == len(stages) - 1 and fraction >= 1.0:
            bar.close()

    return progress


def _where(doc: Document, uid: str | None) -> str:
    if not uid:
        return "document"
    u = doc.get(uid)
    if u is None or not u.label or u.kind == "list_item":
        return uid
    return u.label


def print_findings(doc: Document, findings: Iterable[dict[str, Any]], out: IO[str]) -> None:
    """One line per finding (Finding JSON): severity, kind, where, message."""
    for f in findings:
        out.write(f"{f['severity']:<7} {f['kind']:<25} {_where(doc, f.get('unit')):<18} {f['message']}\n")


def tally(findings: list[dict[str, Any]], counts: dict[str, int]) -> str:
    """``"3 finding(s): 1 error(s), 2 warning(s), 0 info"`` (or ``"no findings"``)."""
    if not findings:
        return "no findings"
    return (f"{len(findings)} finding(s): {counts['error']} error(s), {counts['warning']} warning(s), "
            f"{counts['info']} info")


def print_check(doc: Document, report: dict[str, Any], out: IO[str]) -> None:
    """``ledger check`` as text, from :func:`service.checks.check_report`."""
    print_findings(doc, report["findings"], out)
    out.write(tally(report["findings"], report["counts"]) + "\n")


def print_fix(doc: Document, report: dict[str, Any], out: IO[str]) -> None:
    """``ledger check --fix`` as text, from :func:`service.fixes.fix_file`."""
    for f in report["fixed"]:
        out.write(f"fixed   {f['kind']:<25} {_where(doc, f.get('unit')):<18} {f['message']}\n")
    for op in report["operations"] + report["propagated"]:
        out.write(f"  {describe(doc, edit_from_json(op))}\n")
    for s in report["skipped"]:
        out.write(f"skipped {s['finding']} in {s['unit']}: {s['reason']}\n")
    print_findings(doc, report["findings"], out)
    written = f" into {report['output']}" if report.get("output") else " (nothing written)"
    out.write(f"{len(report['fixed'])} finding(s) fixed with {len(report['operations'])} change(s) and "
              f"{len(report['propagated'])} propagated{written}; {len(report['remaining'])} finding(s) left\n")


def print_context(report: dict[str, Any], out: IO[str]) -> None:
    """``ledger context`` as text, from :func:`service.context.context`."""
    for c in report["context"]:
        out.write(f"{c['edge']:<10} {c['hops']:>2} {c['tokens']:>5}  {c['id']:<18} {c.get('label') or '':<14} "
                  f"{c['reason']}\n")
    total = report["document_tokens"]
    share = f" ({100 * report['tokens'] / total:.1f}% of {total})" if total else ""
    out.write(f"{len(report['context'])} unit(s), {report['tokens']} tokens{share}; "
              f"{len(report['dropped'])} dropped\n")


def describe(doc: Document, e: Edit) -> str:
    """One operation in a line: where, and what changes."""
    where = _where(doc, e.unit)
    if e.op == "replace":
        text = e.before or ""
        start, end = e.start or 0, e.end or 0
        left = text[max(0, start - 24) : start].split("\n")[-1]
        right = text[end : end + 24].split("\n")[0]
        return f"{where}: \u2026{left}[{text[start:end]} -> {e.text}]{right}\u2026"
    if e.op == "insert_after":
        return f"insert {e.kind} after {where}: '{(e.text or '')[:60]}'"
    if e.op == "move":
        dest = e.after or e.before_unit
        return f"move {where} {'after' if e.after else 'before'} {_where(doc, dest)}"
    if e.op == "set_text":
        return f"rewrite {where}: '{(e.text or '')[:60]}'"
    return f"{e.op} {where}"


def print_edit(doc: Document, report: dict[str, Any], out: IO[str]) -> None:
    """``ledger edit`` as text, from :func:`service.edits.edit_file`."""
    out.write(f"{report['explanation']}\n")
    for op in report["operations"]:
        out.write(f"  {describe(doc, edit_from_json(op))}\n")
    if report["propagated"]:
        out.write(f"propagated ({len(report['propagated'])}):\n")
        for op in report["propagated"]:
            e = edit_from_json(op)
            out.write(f"  {describe(doc, e)}  [{e.reason}]\n")
    print_findings(doc, report["findings"], out)
    tok = report["tokens"]
    done = f"wrote {report['output']}" if report["output"] else "dry run: nothing written"
    out.write(f"{tally(report['findings'], report['counts'])}; context {tok['context']} tokens of "
              f"{tok['document']}; {done}\n")


def print_review(report: dict[str, Any], out: IO[str]) -> None:
    """The review as text: one line per operation, then the findings."""
    for o in report["operations"]:
        out.write(f"{o['status']:<9} {o['id']:<8} {o['op']:<12} {o.get('unit') or '':<18} {o.get('reason') or ''}\n")
    c = report["counts"]
    out.write(f"{c['accepted']} accepted, {c['rejected']} rejected, {c['pending']} pending"
              f"{'' if report.get('exact') else ' (closest match: the text was also changed by hand)'}\n")
    for f in report["findings"]:
        out.write(f"{f['severity']:<8} {f['kind']:<22} {f.get('unit') or '':<18} {f['message']}\n")
    out.write("consistent\n" if report["consistent"] else "NOT consistent: the review leaves errors the edit did not\n")
