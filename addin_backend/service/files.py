"""Documents on disk, for the callers that work on files (``ledger``, a future ``ledger mcp``):
reading one with the adapters' checks, writing an output file with a clear error."""
from __future__ import annotations

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
    """The bytes of a document file, after the adapters' checks (exists, size, readable package)."""
    read_document(path)
    with open(path, "rb") as fh:
        return fh.read()


def write_bytes(path: str, data: bytes) -> None:
    """Write an output file; a failure is a clear error, not a traceback.

    :raise InvalidRequestError: the file cannot be written.
    """
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise InvalidRequestError(f"cannot write {path}: {exc.strerror or exc}") from None
