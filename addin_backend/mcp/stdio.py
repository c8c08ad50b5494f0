"""``ledger mcp``: the MCP server over stdio, for Claude Desktop, VS Code and any MCP client.

It reads and writes files only under its roots (``--root``, plus the client's MCP roots);
documents, graphs and proposals live in a store of its own (a temporary folder unless
``--data-dir`` names one), so nothing is left behind. Stdout carries the protocol only: logs
go to stderr.
"""
from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
from typing import Sequence

__all__ = ["serve_stdio"]


def serve_stdio(roots: Sequence[str], *, data_dir: str | None = None, semantic: bool = True,
                log_level: str = "WARNING") -> int:
    """Serve MCP on stdin/stdout until the client closes it; 2 when a root is no folder."""
    missing = [r for r in roots if not os.path.isdir(os.path.expanduser(r))]
    if missing:
        sys.stderr.write(f"ledger mcp: --root {missing[0]} is not a folder\n")
        return 2
    if not roots:
        sys.stderr.write("ledger mcp: no --root given: only the client's roots (if it sends any) are allowed\n")
    logging.basicConfig(level=log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s %(message)s")

    from ..jobs.runner import JobRunner
    from ..store import open_store
    from .roots import Roots
    from .server import build_server
    from .workspace import Workspace

    own = data_dir is None
    folder = tempfile.mkdtemp(prefix="ledger-mcp-") if data_dir is None else data_dir
    os.makedirs(folder, exist_ok=True)
    store = open_store("sqlite", folder)
    runner = JobRunner(store, threads=2)
    ws = Workspace(store=store, runner=runner, semantic=semantic, roots=Roots(list(roots)),
                   audit_log=os.path.join(folder, "audit.jsonl"), who="mcp:stdio")
    try:
        build_server(ws).run("stdio")
    except KeyboardInterrupt:
        pass
    finally:
        runner.shutdown(wait=False)
        store.close()
        if own:
            shutil.rmtree(folder, ignore_errors=True)
    return 0
