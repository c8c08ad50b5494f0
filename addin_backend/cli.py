"""The ``ledger`` command line: parse the arguments, call the orchestration layer
(:mod:`addin_backend.service`, the functions the HTTP API calls), print the answer as JSON or as
text (:mod:`addin_backend.cli_text`) and map errors to exit codes.

Start-up stays fast: each command imports what it needs when it runs, so ``ledger units``
never imports spaCy or torch. The commands that build a graph (``graph``, ``check``, ``context``,
``edit``) keep the document and the graph they built by the file's content
(:mod:`addin_backend.service.graph_cache`), so the next one on an unchanged file loads them, and
each waits only for the stages it uses (:data:`addin_backend.service.graphs.NEEDS`).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from adapters.vocabulary import NAME_POLICIES

if TYPE_CHECKING:
    from typing import Any, Sequence

__all__ = ["main", "build_parser"]


def _emit_json(obj: Any, stream=None) -> None:
    stream = stream or sys.stdout
    stream.write(json.dumps(obj, ensure_ascii=False))
    stream.write("\n")


def _fail(exc: Exception, path: str | None, as_json: bool) -> int:
    """Report a known error in one clear line (or JSON); re-raise unknown ones."""
    from .errors import describe

    known = describe(exc)
    if known is None:
        raise exc
    err, _status, exit_code = known
    if as_json:
        _emit_json({"path": path, "error": err})
    where = f"{path}: " if path else ""
    sys.stderr.write(f"ledger: {where}{err['code']}: {err['message']}\n")
    return exit_code


def _work_memory(given: float | None) -> float | None:
    """The memory an edit may take by its estimate: ``--max-memory`` (0: no limit), else ``None``:
    the service reads ``LEDGER_WORK_MEMORY_MB`` as ``ledger serve`` does (:func:`budget.work_memory_mb`).

    :raise InvalidRequestError: a limit below 0.
    """
    from .errors import InvalidRequestError

    if given is not None and given < 0:
        raise InvalidRequestError(f"--max-memory is {given:g} MB; give 0 (no limit) or more")
    return given


def _read(path: str, *, kept: bool = False):
    """The file's document; ``kept``: the one kept for its content, if any (and keep it)."""
    if kept:
        from .service.graph_cache import read_file

        return read_file(path)
    from .service.files import read_document

    return read_document(path)


# --- commands -------------------------------------------------------------------------------


def cmd_units(args: argparse.Namespace) -> int:
    status = 0
    many = len(args.files) > 1
    for path in args.files:
        try:
            doc = _read(path)
        except Exception as exc:  # mapped by the error table; unknown errors propagate
            status = max(status, _fail(exc, path, args.json or many))
            continue
        if args.json or many:
            out = doc.to_json()
            out["path"] = path
            _emit_json(out)
        else:
            for u in doc.units:
                label = f" [{u.label}]" if u.label else ""
                text = " ".join(u.text.split())  # one unit per line: tables and breaks fold
                text = text if len(text) <= 100 else text[:97] + "..."
                sys.stdout.write(f"{u.order:5d} {u.kind:<10} {u.id:<18}{label} {text}\n")
    return status


def cmd_text(args: argparse.Namespace) -> int:
    try:
        doc = _read(args.file)
    except Exception as exc:
        return _fail(exc, args.file, False)
    for line in doc.lines(args.view):
        sys.stdout.write(line + "\n")
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    try:
        doc = _read(args.file, kept=True)
    except Exception as exc:
        return _fail(exc, args.file, args.json)
    from .graph.command import run_graph_command
    from .service.graph_cache import file_graph
    from .service.graphs import scope_of_work

    semantic = not args.no_semantic
    G = file_graph(doc, scope_of_work("graph", semantic), progress=_progress("graph", semantic))
    return run_graph_command(
        doc, as_json=args.json, semantic=semantic, graphml=args.graphml, png=args.png, graph=G
    )


def cmd_check(args: argparse.Namespace) -> int:
    try:
        from .service.styles import file_style

        style = file_style(args.style)
        doc = _read(args.file, kept=not args.fix)
        if args.fix:
            if not args.output and not args.dry_run:
                from .errors import InvalidRequestError

                raise InvalidRequestError("--fix writes a file: give -o OUT (or --dry-run)")
            from .service.fixes import fix_file

            report = fix_file(args.file, doc, kinds=args.fix, output=None if args.dry_run else args.output,
                              author=args.author, style=style)
        else:
            from .service.checks import check_key, check_report
            from .service.graph_cache import file_graph, kept_or
            from .service.graphs import scope_of_work

            def compute() -> dict:
                G = file_graph(doc, scope_of_work("check"))
                return {**check_report(doc, G, style=style), "stages": list(G.graph.get("stages", ()))}

            # the same file, sheet and code: the report the last check kept (check_key says what decides it)
            report = kept_or(doc, check_key(None, style, 0), compute)
    except Exception as exc:
        return _fail(exc, args.file, args.json)
    if args.json:
        _emit_json(report)
    elif args.fix:
        from .cli_text import print_fix

        print_fix(doc, report, sys.stdout)
    else:
        from .cli_text import print_check

        print_check(doc, report, sys.stdout)
    return 0


def _progress(work: str, semantic: bool):
    """The progress display of the stages ``work`` waits for."""
    from .cli_text import graph_progress
    from .service.graphs import scope_of_work, stages_of

    return graph_progress(stages_of(scope_of_work(work, semantic)))


def cmd_context(args: argparse.Namespace) -> int:
    try:
        from .service.context import document_context, parse_weights

        weights = parse_weights(args.weights, name="--weights")
        doc = _read(args.file, kept=True)
        semantic = not args.no_semantic
        report = document_context(
            doc, instruction=args.instruction, target=args.target, selection=args.find, budget=args.budget,
            strategy=args.strategy, weights=weights, semantic=semantic, with_text=False,
            progress=_progress("context", semantic),
        )
    except Exception as exc:
        return _fail(exc, args.file, args.json)
    if args.json:
        _emit_json(report)
    else:
        from .cli_text import print_context

        print_context(report, sys.stdout)
    return 0


def cmd_edit(args: argparse.Namespace) -> int:
    try:
        if not args.output and not args.dry_run:
            from .errors import InvalidRequestError

            raise InvalidRequestError("give -o OUT for the edited file (or --dry-run to write nothing)")
        doc = _read(args.file, kept=True)
        from .service.edits import edit_file

        from .budget import budget

        semantic = not args.no_semantic
        with budget(args.deadline, "the edit"):
            report = edit_file(
                args.file, doc, instruction=args.instruction, engine=args.engine, author=args.author,
                output=None if args.dry_run else args.output, target=args.target, budget=args.budget,
                semantic=semantic, progress=_progress("edit", semantic), comments=not args.no_comments,
                threads=args.comment_threads, names=args.names, memory_mb=_work_memory(args.max_memory),
            )
    except Exception as exc:
        return _fail(exc, args.file, args.json)
    if args.json:
        _emit_json(report)
    else:
        from .cli_text import print_edit

        print_edit(doc, report, sys.stdout)
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    try:
        from .service.files import read_bytes
        from .service.review import review_files

        report = review_files(read_bytes(args.file), read_bytes(args.against))
    except Exception as exc:
        return _fail(exc, args.file, args.json)
    if args.json:
        _emit_json(report)
    else:
        from .cli_text import print_review

        print_review(report, sys.stdout)
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    try:
        from .service.files import read_bytes, write_bytes
        from .service.revisions import resolve

        write_bytes(args.output, resolve(read_bytes(args.file), args.command))
    except Exception as exc:
        return _fail(exc, args.file, False)
    verb = "accepted" if args.command == "accept" else "rejected"
    sys.stdout.write(f"{verb} every tracked change; wrote {args.output}\n")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .serving.server import serve

    return serve(args)


def cmd_mcp(args: argparse.Namespace) -> int:
    from .mcp.stdio import serve_stdio

    return serve_stdio(args.root, data_dir=args.data_dir, semantic=not args.no_semantic)


# --- parser ---------------------------------------------------------------------------------


def cmd_worker(args: argparse.Namespace) -> int:
    from .serving.queue_worker import main_worker

    return main_worker(args)


def _user_caches() -> None:
    """Embeddings, documents and graphs of the command line persist in the user's cache folder
    (each file opened only when a command uses it), unless ``LEDGER_EMBEDDING_CACHE`` or
    ``LEDGER_GRAPH_CACHE`` names another file or ``off``."""
    import os

    from .embeddings.encoders import cache_home

    if os.environ.get("LEDGER_EMBEDDING_CACHE") is None:
        from .language.nlp import configure_embedding_cache

        configure_embedding_cache(os.path.join(cache_home(), "embeddings.sqlite3"))
    from .service.graph_cache import configure_for_user

    configure_for_user()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ledger",
        description="Dependency-aware editing of long .docx/.odt documents (LEDGER).",
    )
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("units", help="list a document's units")
    s.add_argument("files", nargs="+", metavar="FILE")
    s.add_argument("--json", action="store_true", help="JSON (JSON Lines for several files)")
    s.set_defaults(func=cmd_units)

    s = sub.add_parser("text", help="print the visible text, one paragraph per line")
    s.add_argument("file", metavar="FILE")
    s.add_argument("--view", choices=("accepted", "rejected"), default="accepted")
    s.set_defaults(func=cmd_text)

    s = sub.add_parser("graph", help="build a document's dependency graph")
    s.add_argument("file", metavar="FILE")
    s.add_argument("--json", action="store_true", help="print the graph as JSON")
    s.add_argument("--no-semantic", action="store_true", help="skip RELATED edges (no embeddings)")
    s.add_argument("--graphml", metavar="OUT", help="also write GraphML (Gephi, yEd)")
    s.add_argument("--png", metavar="OUT", help="also draw the graph into a PNG")
    s.set_defaults(func=cmd_graph)

    s = sub.add_parser("check", help="document-wide findings: broken references, numbering, abbreviations, house style")
    s.add_argument("file", metavar="FILE")
    s.add_argument("--style", metavar="STYLE.toml", help="the house style sheet (default: $LEDGER_STYLE)")
    s.add_argument("--fix", metavar="KIND|all", help="fix these finding kinds (comma-separated) as tracked changes")
    s.add_argument("--author", default="LEDGER", metavar="NAME", help="the author of the fixes' tracked changes")
    s.add_argument("-o", "--output", metavar="OUT", help="where --fix writes the result")
    s.add_argument("--dry-run", action="store_true", help="with --fix: plan, propagate and verify; write nothing")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_check)

    s = sub.add_parser("context", help="the context retrieval packs for an edit of one unit")
    s.add_argument("file", metavar="FILE")
    which = s.add_mutually_exclusive_group(required=True)
    which.add_argument("--target", metavar="ID", help="the unit's id")
    which.add_argument("--find", metavar="TEXT", help="text the unit contains (as selected in Word)")
    s.add_argument("--instruction", metavar="TEXT")
    s.add_argument("--budget", type=int, default=1500, metavar="N", help="token budget (default 1500)")
    s.add_argument("--strategy", choices=("ledger", "full", "window", "flat_rag", "hier_rag"), default="ledger")
    s.add_argument("--weights", metavar="SPEC", help="e.g. REFERENCES=100,DEPENDS=50,CONTAINS=30,RELATED=10,decay=0.5")
    s.add_argument("--no-semantic", action="store_true", help="skip RELATED edges (no embeddings)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_context)

    s = sub.add_parser("edit", help="apply an instruction as tracked changes, with propagation and checks")
    s.add_argument("file", metavar="FILE")
    s.add_argument("--instruction", required=True, metavar="TEXT")
    s.add_argument("--engine", choices=("rules", "llm", "auto"), default="rules")
    s.add_argument("--author", default="LEDGER", metavar="NAME")
    s.add_argument("--target", metavar="ID", help="the unit at the cursor (for 'this paragraph')")
    s.add_argument("--budget", type=int, default=1500, metavar="N")
    s.add_argument("--no-semantic", action="store_true", help="no embeddings (no RELATED edges, no drift check)")
    s.add_argument("-o", "--output", metavar="OUT", help="where to write the result (required unless --dry-run)")
    s.add_argument("--dry-run", action="store_true", help="plan, propagate and verify; write nothing")
    s.add_argument("--names", choices=NAME_POLICIES, default="auto",
                   help="a rename and the term inside a longer name ('Destination Connection ID' for 'connection "
                        "ID'): auto follows the document's usage, rename renames inside names too, keep keeps every "
                        "capitalised use (the instruction's 'including names' wins)")
    s.add_argument("--no-comments", action="store_true", help="no comment saying why on each change")
    s.add_argument("--comment-threads", action="store_true",
                   help="propagated changes as replies to their operation's comment (default: their own comments)")
    s.add_argument("--max-memory", type=float, metavar="MB",
                   help="refuse a write whose memory, estimated before it starts, is over MB (default: "
                        "$LEDGER_WORK_MEMORY_MB, else 1024; 0: no limit); no count of operations is capped")
    s.add_argument("--deadline", type=float, default=0, metavar="S",
                   help="stop with deadline_exceeded once the edit has run S seconds (default 0: none)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_edit)

    s = sub.add_parser("review", help="which of LEDGER's changes a reviewer accepted, rejected or left, and what that breaks")
    s.add_argument("file", metavar="REVIEWED", help="the document as it came back from review")
    s.add_argument("--against", required=True, metavar="EDITED", help="the file ledger edit wrote")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_review)

    for name, verb in (("accept", "accept"), ("reject", "reject")):
        s = sub.add_parser(name, help=f"{verb} every tracked change")
        s.add_argument("file", metavar="FILE")
        s.add_argument("-o", "--output", required=True, metavar="OUT")
        s.set_defaults(func=cmd_resolve)

    s = sub.add_parser("serve", help="run the HTTP backend")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8750)
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--threads", type=int, default=4)
    s.add_argument("--cert", help="TLS certificate (PEM) for HTTPS")
    s.add_argument("--key", help="TLS private key (PEM) for HTTPS")
    s.set_defaults(func=cmd_serve)

    s = sub.add_parser("worker", help="run queued graph and proposal jobs (needs LEDGER_STORE=redis://...)")
    s.add_argument("--queues", metavar="Q,...", help="queues to serve, in order (default edits,small,large)")
    s.add_argument("--burst", action="store_true", help="quit when the queues are empty")
    s.add_argument("--name", help="the worker's name (default host.pid)")
    s.add_argument("--max-jobs", type=int, metavar="N", help="quit after N jobs (a supervisor restarts it)")
    s.add_argument("--heartbeat", type=int, default=5, metavar="S",
                   help="seconds between heartbeats while a job runs (default 5)")
    s.add_argument("--no-preload", action="store_true", help="load the models at the first job, not at start")
    s.add_argument("--processes", type=int, default=1, metavar="N",
                   help="worker processes to keep running; one that dies is started again (default 1)")
    s.add_argument("--no-supervise", action="store_true",
                   help="run one worker in this process, with no supervisor (a service manager restarts it)")
    s.add_argument("--health", action="store_true", help="check the queues and their workers; exit 0 when healthy")
    s.add_argument("--local", action="store_true", help="with --health: count only this machine's workers")
    s.add_argument("--max-wait", type=float, default=300.0, metavar="S",
                   help="with --health: unhealthy when a job has waited longer (default 300)")
    s.add_argument("--json", action="store_true", help="with --health: one line of JSON")
    s.set_defaults(func=cmd_worker)

    s = sub.add_parser("mcp", help="serve MCP over stdio (Claude Desktop, VS Code): tools for agents")
    s.add_argument("--root", action="append", default=[], metavar="DIR",
                   help="a folder the server may read and write (repeatable; the client's roots add to them)")
    s.add_argument("--data-dir", metavar="DIR", help="keep documents and graphs here (default: a temporary folder)")
    s.add_argument("--no-semantic", action="store_true", help="no embeddings (no RELATED edges, no drift check)")
    s.set_defaults(func=cmd_mcp)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _user_caches()
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
