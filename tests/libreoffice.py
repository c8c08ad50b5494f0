"""Real headless LibreOffice for the tests: what a word processor sees in a file.

The probe runs under Debian's python3 (python3-uno) in a subprocess with its own profile, so
the test process never imports UNO and each run starts from a clean LibreOffice.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

__all__ = ["probe", "require_libreoffice", "run_uno_script", "without_indexes"]

PROBE = Path(__file__).with_name("uno_probe.py")
SYSTEM_PYTHON = "/usr/bin/python3"


def require_libreoffice() -> None:
    """Skip only where LibreOffice cannot exist (`make test` installs it as root)."""
    if not shutil.which("soffice") or not Path(SYSTEM_PYTHON).exists():
        pytest.skip("LibreOffice (soffice + python3-uno) is not installed")


def run_uno_script(script: Path, *args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    """Run a UNO script under Debian's python3 with a fresh LibreOffice profile (its first argument)."""
    require_libreoffice()
    with tempfile.TemporaryDirectory(prefix="ledger-lo-") as profile:
        return subprocess.run(
            [SYSTEM_PYTHON, str(script), profile, *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env={"PATH": "/usr/bin:/bin", "HOME": profile, "LANG": "C.UTF-8"},
        )


def probe(files: list[str | Path], ops: tuple[str, ...] = ("paragraphs",), timeout: int = 600) -> list[dict]:
    """One JSON result per file: the ops of ``uno_probe.py`` run in one LibreOffice instance."""
    jobs = [f"{Path(f).resolve()}::{','.join(ops)}" for f in files]
    proc = run_uno_script(PROBE, *jobs, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"uno probe failed ({proc.returncode}): {proc.stderr[-2000:]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def without_indexes(lines: list[str], doc) -> list[str]:
    """LibreOffice's paragraphs without those of the document's generated indexes (a table of
    contents): the readers keep them in ``Document.meta["indexes"]`` (every line an index spans,
    ``"lines"``), not as units. Each index's lines go where they first stand together."""
    out = list(lines)
    for ix in doc.meta.get("indexes", ()):
        block = [t.replace("\u2028", "\n") for t in ix.get("lines", ())]
        n = len(block)
        at = next((i for i in range(len(out) - n + 1) if out[i:i + n] == block), None) if n else None
        if at is not None:
            del out[at:at + n]
    return out
