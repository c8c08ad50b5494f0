"""The version of the code that made what a cache keeps: one digest for every cache by content."""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

__all__ = ["code_version"]


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the code that reads documents and builds and checks graphs (this package and
    the adapters): what another version made is not read back, by the command line's graph cache
    or by the server's cached checks.

    >>> len(code_version())
    16
    """
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[2]
    for package in ("addin_backend", "adapters"):
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
