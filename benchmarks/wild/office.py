"""One headless LibreOffice for many files: :mod:`benchmarks.wild.uno_wild` through
``tests/libreoffice.py`` (its own profile, Debian's python3). A file that brings LibreOffice down
is reported as not opening, and the files after it are read in a fresh LibreOffice."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Sequence

__all__ = ["look"]

SCRIPT = Path(__file__).with_name("uno_wild.py")


def look(jobs: Sequence[tuple[str | Path, Sequence[str]]], *, timeout: int = 3600) -> dict[str, dict]:
    """``{resolved path: what uno_wild.py reports}`` for each ``(file, ops)``, in one LibreOffice
    while it lasts."""
    from tests.libreoffice import run_uno_script

    todo = [(str(Path(f).resolve()), list(ops)) for f, ops in jobs]
    out: dict[str, dict] = {}
    while todo:
        args = [f"{f}::{','.join(ops)}" for f, ops in todo]
        try:
            proc = run_uno_script(SCRIPT, *args, timeout=timeout)
            stdout, stderr = proc.stdout, proc.stderr
        except subprocess.TimeoutExpired as exc:
            stdout = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
            stderr = "timed out"
        for line in stdout.splitlines():
            if line.strip().startswith("{"):
                r = json.loads(line)
                out[r["file"]] = r
        rest = [(f, ops) for f, ops in todo if f not in out]
        if not rest:
            break
        first = rest[0][0]  # the file LibreOffice was reading when it went down
        out[first] = {"file": first, "error": f"LibreOffice stopped on it: {stderr.strip()[-300:]}"}
        todo = rest[1:]
    return out
