"""The adapters' one exception tree: every unreadable input maps to one of these, with a code."""
from __future__ import annotations

from typing import Callable

__all__ = [
    "AdapterError",
    "NotADocumentError",
    "UnsupportedFormatError",
    "EncryptedDocumentError",
    "CorruptDocumentError",
    "MalformedXmlError",
    "UnsafeXmlError",
    "TooLargeError",
    "ZipBombError",
    "AnchorError",
    "FileAccessError",
    "InvalidEditError",
    "Stopped",
    "guarded",
]


_CATEGORIES = {"not_a_document", "unsupported_format", "encrypted", "corrupt", "too_large"}


class AdapterError(Exception):
    """Base of every error an adapter raises; ``code`` is stable and machine-readable."""

    code = "adapter_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def category(self) -> str:
        """The broad class among the CLI's documented codes (a zip bomb is ``too_large``)."""
        for klass in type(self).__mro__:
            if klass.__dict__.get("code") in _CATEGORIES:
                return klass.__dict__["code"]
        return self.code

    def to_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.category != self.code:
            out["category"] = self.category
        return out


class NotADocumentError(AdapterError):
    """The bytes are no word-processing package at all (plain text, PDF, an image...)."""

    code = "not_a_document"


class UnsupportedFormatError(AdapterError):
    """A real package, but not one we read (legacy .doc, a spreadsheet, a presentation)."""

    code = "unsupported_format"


class EncryptedDocumentError(AdapterError):
    """Password-protected: Office's encrypted OLE container or ODF manifest encryption."""

    code = "encrypted"


class CorruptDocumentError(AdapterError):
    """The package is damaged: a truncated zip, a missing required part."""

    code = "corrupt"


class MalformedXmlError(CorruptDocumentError):
    """A part is not well-formed XML; names the part."""

    code = "malformed_xml"

    def __init__(self, part: str, detail: str) -> None:
        super().__init__(f"part {part!r} is not well-formed XML: {detail}")
        self.part = part


class UnsafeXmlError(CorruptDocumentError):
    """A part uses a DTD, entity declarations or nesting deep enough to be an attack."""

    code = "unsafe_xml"

    def __init__(self, part: str, detail: str) -> None:
        super().__init__(f"part {part!r} was refused: {detail}")
        self.part = part


class TooLargeError(AdapterError):
    """The input, a member or the whole unpacked package exceeds the configured limits."""

    code = "too_large"


class ZipBombError(TooLargeError):
    """Compression ratios or member counts typical of a decompression bomb."""

    code = "zip_bomb"


class AnchorError(AdapterError):
    """An edit names a unit whose anchor no longer matches the package (it changed since)."""

    code = "anchor_mismatch"


class FileAccessError(AdapterError):
    """The path cannot be read: missing, a directory, or not permitted."""

    code = "file_not_readable"


class InvalidEditError(AdapterError):
    """An edit malformed in itself: an unknown operation or field, a missing field, a bad span.

    The backend reports it as a 400 ``invalid_request`` naming the edit (``edits_from_json``,
    ``validate_edits``); one that escapes unwrapped is a 400 too (``ERROR_TABLE``).
    """

    code = "invalid_edit"


class Stopped(Exception):
    """What a caller's ``check`` raised inside a writer (a deadline), carried past the writer's
    catch-all, which turns a bug on odd input into an :class:`AdapterError`; ``write`` raises
    ``cause`` again, so the caller gets its own error."""

    def __init__(self, cause: Exception) -> None:
        super().__init__(str(cause))
        self.cause = cause


def guarded(check: Callable[[], None] | None) -> Callable[[], None] | None:
    """``check`` with what it raises wrapped in :class:`Stopped` (``None`` stays ``None``).

    >>> def late() -> None:
    ...     raise TimeoutError("past the deadline")
    >>> try:
    ...     guarded(late)()
    ... except Stopped as stop:
    ...     print(type(stop.cause).__name__)
    TimeoutError
    """
    if check is None:
        return None

    def call() -> None:
        try:
            check()
        except Exception as exc:
            raise Stopped(exc) from exc

    return call
