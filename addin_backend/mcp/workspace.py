"""What one MCP server works on: the store and job runner, its settings, and (over stdio) the
roots and the files it opened and wrote.

The HTTP door (``ledger serve`` at ``/mcp``) shares the Flask app's store and job runner, so a
document uploaded through the REST API is the same document by id over MCP; it has no roots
and reads or writes no file (documents come by upload or id, results are revisions). The stdio
door (``ledger mcp``) has a store of its own and its roots.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, field
from typing import Any

from adapters.package import DEFAULT_LIMITS, Limits

from ..errors import PathNotAllowedError
from ..jobs.runner import JobRunner
from ..store import Store
from .roots import Roots

__all__ = ["Workspace", "Opened", "CLIENT_HEADER", "QUOTA_HEADER", "OWNER_HEADER", "DOOR_HEADERS"]

#: The header the HTTP door puts on each request it hands to the MCP server: the API key's
#: fingerprint (a client cannot set it: the door drops any it sends).
CLIENT_HEADER = "x-ledger-client"
#: The same door's header naming whose quota a write counts to (as the REST API counts it: the
#: key, or the address on a server without keys); dropped from what a client sends too.
QUOTA_HEADER = "x-ledger-quota-client"
#: The same door's header naming whose documents the request reaches (the key's group or
#: fingerprint: ``api.context.owner``); empty on a server without keys; dropped from what a client sends.
OWNER_HEADER = "x-ledger-owner"
#: The headers only the HTTP door sets.
DOOR_HEADERS = (CLIENT_HEADER, QUOTA_HEADER, OWNER_HEADER)


@dataclass(frozen=True)
class Opened:
    """A file opened over stdio: its document id, and what it was when read (for reuse)."""

    document_id: str
    path: str
    size: int
    mtime_ns: int


@dataclass
class Workspace:
    """The state one MCP server shares between its calls (thread-safe: tools run in threads)."""

    store: Store
    runner: JobRunner
    semantic: bool = True
    audit_log: str | None = None
    limits: Limits = DEFAULT_LIMITS
    #: The stdio door's roots; ``None`` for the HTTP door, which reads and writes no file.
    roots: Roots | None = None
    who: str = "mcp:stdio"
    graph_timeout: float = 600.0
    #: The per-client quota in bytes (the HTTP door: ``LEDGER_QUOTA_MB``; 0: none).
    quota_bytes: int = 0
    #: Wall-clock budget of one tool call's work (``LEDGER_REQUEST_SECONDS`` over HTTP; 0: none).
    request_seconds: float = 0.0
    #: The memory one apply may take by its estimate (HTTP: ``LEDGER_WORK_MEMORY_MB`` as configured;
    #: ``None``: that variable or the default, as ``ledger edit`` reads it; 0: none).
    work_memory_mb: float | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _opened: dict[str, Opened] = field(default_factory=dict, repr=False)
    _written: set[str] = field(default_factory=set, repr=False)

    @property
    def files(self) -> bool:
        """Whether this door reads and writes files (stdio)."""
        return self.roots is not None

    def path(self, path: str, client_roots: list[str], *, what: str = "path") -> str:
        """``path`` resolved under a root (see :meth:`Roots.check`).

        :raise PathNotAllowedError: no files over this door, or outside the roots.
        """
        if self.roots is None:
            raise PathNotAllowedError(f"this server reads and writes no files ({what} {path!r}): upload the "
                                      "document (content_base64) or give its document_id", path=path)
        return self.roots.check(path, client_roots, what=what)

    def known(self, path: str) -> Opened | None:
        """The document opened from ``path`` (resolved) while the file is unchanged since."""
        with self._lock:
            prev = self._opened.get(path)
        if prev is None:
            return None
        try:
            st = os.stat(path)
        except OSError:
            return None
        return prev if (st.st_size, st.st_mtime_ns) == (prev.size, prev.mtime_ns) else None

    def remember(self, document_id: str, path: str) -> None:
        st = os.stat(path)
        with self._lock:
            self._opened[path] = Opened(document_id, path, st.st_size, st.st_mtime_ns)

    def source(self, document_id: str) -> str | None:
        """The file a document was opened from over this door, if any."""
        with self._lock:
            return next((o.path for o in self._opened.values() if o.document_id == document_id), None)

    def opened(self) -> list[dict[str, Any]]:
        with self._lock:
            return [{"document_id": o.document_id, "path": o.path} for o in self._opened.values()]

    def output(self, path: str, *, source: str | None, overwrite: bool) -> str:
        """May this door write ``path`` (resolved)? Never its input file unless ``overwrite``;
        another existing file only when this server wrote it, or with ``overwrite``.

        :raise PathNotAllowedError: refused.
        """
        with self._lock:
            ours = path in self._written
        if not overwrite:
            if source is not None and os.path.exists(source) and os.path.exists(path) \
                    and os.path.samefile(path, source):
                raise PathNotAllowedError(f"{path} is the input document: give another output_path, or "
                                          "overwrite=true to write into the input itself", path=path)
            if os.path.exists(path) and not ours:
                raise PathNotAllowedError(f"{path} exists and this server did not write it: give another "
                                          "output_path, or overwrite=true", path=path)
        if os.path.isdir(path):
            raise PathNotAllowedError(f"{path} is a folder, not a file", path=path)
        return path

    def wrote(self, path: str) -> None:
        with self._lock:
            self._written.add(path)
