"""Documents on disk, for the callers that work on files (``ledger``, ``ledger mcp``): reading
one with the adapters' checks (regular files only), writing an output file with a clear error.

An output is written to a new file beside it and renamed into place, so a write never goes
through an existing link: a symbolic or hard link at the output's path is replaced, and the
file it pointed to (perhaps outside ``ledger mcp``'s roots) is left as it was.
"""
from __future__ import annotations

import os
import stat
import tempfile

from adapters.model import Document

from ..errors import InvalidRequestError

__all__ = ["read_document", "read_bytes", "write_bytes"]


def read_document(path: str) -> Document:
    """The neutral model of a .docx/.odt file (``doc.path`` is ``path``).

    :raise AdapterError: the adapters' errors (missing, too large, not a document, …).
    """
    from adapters import read_path

    return read_path(path)


def read_bytes(path: str) -> bytes:
    """The bytes of a document file, after the adapters' checks (a regular file, size, readable
    package), read once."""
    from adapters import read, read_file_bytes

    data = read_file_bytes(path)
    read(data, path=path)
    return data


def write_bytes(path: str, data: bytes) -> None:
    """Write an output file: a new file in the same folder, renamed over ``path`` (never written
    through an existing symbolic or hard link); a failure is a clear error, not a traceback.

    :raise InvalidRequestError: the file cannot be written, or ``path`` is not a regular file.
    """
    if "\x00" in path:
        raise InvalidRequestError("an output path cannot hold a NUL character", field="output_path")
    folder = os.path.dirname(os.path.abspath(path))
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        mode = 0o666 & ~_UMASK
    except OSError as exc:
        raise InvalidRequestError(f"cannot write {path}: {exc.strerror or exc}") from None
    else:
        if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
            raise InvalidRequestError(f"cannot write {path}: it is not a regular file")
        mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else 0o666 & ~_UMASK
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise InvalidRequestError(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: The process's umask, read once at import (reading it sets it, which threads must not race).
_UMASK = _umask()
