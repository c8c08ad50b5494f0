"""Which files ``ledger mcp`` may read and write: only under its roots.

The roots are the folders given with ``--root`` plus, per call, the ``file://`` roots the
client sends (MCP roots). A path is resolved (``~``, symlinks, ``..``) before it is checked,
so a link out of a root is refused like the path it points to; a relative path is taken in
the first root. Nothing here reads or writes a file: :func:`Roots.check` only says where.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Sequence
from urllib.parse import unquote, urlparse

from ..errors import PathNotAllowedError

__all__ = ["Roots", "file_roots"]


def _real(path: str) -> str:
    return os.path.realpath(os.path.expanduser(path))


def file_roots(uris: Iterable[str]) -> list[str]:
    """The local folders of the client's ``file://`` roots (other schemes are no folders).

    >>> file_roots(["file:///home/ann/My%20Docs", "https://example.org/x", "file://localhost/srv"])
    ['/home/ann/My Docs', '/srv']
    """
    out = []
    for uri in uris:
        parsed = urlparse(str(uri))
        if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
            out.append(unquote(parsed.path) or "/")
    return out


@dataclass
class Roots:
    """The folders given at start-up (``--root``); :meth:`check` adds the client's for one call."""

    folders: Sequence[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.folders = [_real(f) for f in self.folders]

    def all(self, client: Sequence[str] = ()) -> list[str]:
        """Every root of a call: ours, then the client's (resolved, without repeats)."""
        return list(dict.fromkeys([*self.folders, *(_real(f) for f in client if "\x00" not in f)]))

    def check(self, path: str, client: Sequence[str] = (), *, what: str = "path") -> str:
        """The resolved ``path`` when it lies under a root; a relative one is taken in the first.

        >>> import tempfile; root = tempfile.mkdtemp()
        >>> Roots([root]).check("a.docx") == os.path.join(os.path.realpath(root), "a.docx")
        True
        >>> Roots([root]).check("../outside.docx")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        addin_backend.errors.PathNotAllowedError: path '../outside.docx' lies outside the allowed roots (...)

        :raise PathNotAllowedError: outside every root, there is no root at all, or a NUL in the path.
        """
        if "\x00" in path:
            raise PathNotAllowedError(f"{what} holds a NUL character, which no file name can", path=path.replace("\x00", "\\0"))
        roots = self.all(client)
        if not roots:
            raise PathNotAllowedError(
                f"{what} {path!r} cannot be used: this server has no roots (start it with --root DIR, "
                "or let the client send its roots)", path=path)
        given = os.path.expanduser(path)
        real = _real(given if os.path.isabs(given) else os.path.join(roots[0], given))
        for root in roots:
            if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
                return real
        raise PathNotAllowedError(f"{what} {path!r} lies outside the allowed roots ({', '.join(roots)})",
                                  path=path, roots=roots)
