"""The ``ledger`` command line: a thin shell over the same functions the HTTP API calls.

Start-up stays fast: each command imports what it needs when it runs, so ``ledger units``
never imports spaCy or torch.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Sequence

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


def _read(path: str):
    from adapters import read_path

    return read_path(path)


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
        doc = _read(args.file)
    except Exception as exc:
        return _fail(exc, args.file, args.json)
    from .graph.command import run_graph_command

    return run_graph_command(
        doc, as_json=args.json, semantic=not args.no_semantic, graphml=args.graphml, png=args.png
    )


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve

    return serve(args)


# --- parser ---------------------------------------------------------------------------------

_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {}


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

    s = sub.add_parser("serve", help="run the HTTP backend")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8750)
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--threads", type=int, default=4)
    s.add_argument("--cert", help="TLS certificate (PEM) for HTTPS")
    s.add_argument("--key", help="TLS private key (PEM) for HTTPS")
    s.set_defaults(func=cmd_serve)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
