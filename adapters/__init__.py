"""Format adapters: .docx/.odt bytes <-> the neutral Document model, and nothing else.

``read(data)`` detects the format and returns a :class:`~adapters.model.Document`;
``write(data, edits)`` writes concrete edits back as tracked changes, ``accept_all(data)`` and
``reject_all(data)`` resolve them. Readers and writers are imported lazily so a command pays
only for the format it opens.
"""
from __future__ import annotations

from typing import Callable, Sequence

from .errors import AdapterError, CorruptDocumentError
from .model import Document, Edit, Note
from .package import DEFAULT_LIMITS, DOCX, ODT, Limits, check_size, open_package

__all__ = ["read", "read_path", "read_file_bytes", "write", "accept_all", "reject_all", "AdapterError", "Document", "Limits"]


def read(data: bytes, *, path: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Read a .docx or .odt package into the neutral model.

    :raise AdapterError: (a subclass naming the problem) for anything unreadable.
    """
    pkg = open_package(data, limits)
    from .parts import check_paragraphs

    check_paragraphs(pkg, limits)  # before any tree: memory bounded before parsing
    if pkg.format == DOCX:
        from .docx.reader import read_package
    elif pkg.format == ODT:
        from .odt.reader import read_package
    else:  # pragma: no cover - open_package only returns the two formats
        raise AssertionError(pkg.format)
    try:
        doc = read_package(pkg)
    except (AdapterError, MemoryError, RecursionError):
        raise
    except Exception as exc:  # a reader bug on odd input must still be a clear error
        raise CorruptDocumentError(
            f"the document could not be interpreted ({type(exc).__name__}: {exc})"
        ) from exc
    check_size(doc, limits)
    from .parts import check_parts
    from .properties import check_properties

    check_parts(pkg)  # every part a writer reads: refused here, not met first by an apply
    check_properties(pkg)  # the review record's part: refused here, not met first by a review
    doc.path = path
    return doc


def read_file_bytes(path: str, *, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The bytes of a regular file, read once (size-checked before they are loaded).

    The file is opened without blocking and checked on the open descriptor, so a FIFO, a device
    or a socket is refused at once instead of holding the reader forever, and what is checked is
    what is read (no race between a check and the open).

    :raise FileAccessError: missing, not a regular file, a NUL in the path, not permitted.
    :raise TooLargeError: larger than ``limits.max_input_bytes``.
    """
    import os
    import stat

    from .errors import FileAccessError, TooLargeError

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise FileAccessError("no such file") from None
    except IsADirectoryError:
        raise FileAccessError("this is a directory, not a file") from None
    except ValueError:  # "embedded null byte"
        raise FileAccessError("a path cannot hold a NUL character") from None
    except OSError as exc:
        raise FileAccessError(f"cannot read the file: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise FileAccessError("this is a directory, not a file")
        if not stat.S_ISREG(st.st_mode):
            raise FileAccessError("this is not a regular file (a FIFO, a device or a socket)")
        if st.st_size > limits.max_input_bytes:
            raise TooLargeError(f"the document is {st.st_size} bytes; the limit is {limits.max_input_bytes} bytes")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            data = fh.read(limits.max_input_bytes + 1)
    except OSError as exc:
        raise FileAccessError(f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limits.max_input_bytes:
        raise TooLargeError(f"the document is over {limits.max_input_bytes} bytes")
    return data


def read_path(path: str, *, limits: Limits = DEFAULT_LIMITS) -> Document:
    """Read a regular file from disk (:func:`read_file_bytes`: size-checked before it is loaded)."""
    return read(read_file_bytes(path, limits=limits), path=path, limits=limits)


def _format_module(data: bytes, module: str):
    from importlib import import_module

    return import_module(f".{open_package(data).format}.{module}", __name__)


def write(original: bytes, edits: Sequence[Edit], *, document: Document | None = None,
          notes: Sequence[Note] = (), check: Callable[[], None] | None = None) -> bytes:
    """The package with the edits written as tracked changes (``<format>/writer.py``), and
    ``notes`` as comments on what they changed; ``check`` (the caller's deadline) is called as
    the writer goes and may raise."""
    return _format_module(original, "writer").write(original, edits, document=document, notes=notes, check=check)


def accept_all(data: bytes) -> bytes:
    """The package with every tracked change accepted (``<format>/resolve.py``)."""
    return _format_module(data, "resolve").accept_all(data)


def reject_all(data: bytes) -> bytes:
    """The package with every tracked change rejected (``<format>/resolve.py``)."""
    return _format_module(data, "resolve").reject_all(data)
