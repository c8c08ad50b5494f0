"""Seed documents for the fuzz targets and the writers' property suite: the real-world corpus's
small .docx and .odt files (small ones keep each run fast, so the fuzzer tries more inputs)."""
from __future__ import annotations

import functools
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("LEDGER_CORPUS", ROOT.parent / "shared" / "corpus"))
#: Seeds larger than this are left out: they read in tens of milliseconds, not a few.
MAX_SEED_BYTES = 96 * 1024


@functools.lru_cache(maxsize=None)
def seed_paths(max_bytes: int = MAX_SEED_BYTES) -> tuple[Path, ...]:
    """The corpus's readable .docx/.odt files up to ``max_bytes``, by name (empty without a corpus)."""
    if not CORPUS.is_dir():
        return ()
    from adapters import AdapterError, read

    out = []
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix not in (".docx", ".odt") or not path.is_file() or path.stat().st_size > max_bytes:
            continue
        try:
            read(path.read_bytes())
        except AdapterError:
            continue
        out.append(path)
    return tuple(out)
