"""The backend's exception tree and the one table that maps every error to a code and status.

The HTTP layer (``api/errors.py``) and the command line (``cli.py``) both read
:data:`ERROR_TABLE`; views and commands never format errors themselves.
"""
from __future__ import annotations

from typing import Any

from adapters.errors import (
    AdapterError,
    AnchorError,
    CorruptDocumentError,
    EncryptedDocumentError,
    InvalidEditError,
    NotADocumentError,
    TooLargeError,
    UnsupportedFormatError,
)

__all__ = [
    "LedgerError",
    "UnknownUnitError",
    "UnknownDocumentError",
    "UnknownJobError",
    "UnauthorizedError",
    "RateLimitedError",
    "StoreUnavailableError",
    "EditConflictError",
    "InvalidRequestError",
    "InstructionNotUnderstoodError",
    "AmbiguousInstructionError",
    "EngineUnavailableError",
    "GraphNotReadyError",
    "GraphFailedError",
    "QuotaExceededError",
    "UnknownStyleError",
    "UnknownProposalError",
    "UnknownRevisionError",
    "PathNotAllowedError",
    "ForbiddenOriginError",
    "WorkTooLargeError",
    "DeadlineExceededError",
    "ERROR_TABLE",
    "describe",
]


class LedgerError(Exception):
    """Base of the backend's own errors; ``code`` is stable and machine-readable."""

    code = "ledger_error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out


class UnknownUnitError(LedgerError):
    """A unit id, label or selection that names nothing in the document."""

    code = "unknown_unit"


class UnknownDocumentError(LedgerError):
    """A document id the store does not hold (never uploaded, deleted or expired)."""

    code = "unknown_document"


class UnknownJobError(LedgerError):
    """A job id the store does not hold (never started, or its document was deleted or expired)."""

    code = "unknown_job"


class UnauthorizedError(LedgerError):
    """API keys are configured and the request carries none of them."""

    code = "unauthorized"


class RateLimitedError(LedgerError):
    """The key made more requests in the current window than the configured limit."""

    code = "rate_limited"


class StoreUnavailableError(LedgerError):
    """The store (SQLite file or Redis server) cannot be reached."""

    code = "store_unavailable"


class EditConflictError(LedgerError):
    """An edit whose 'before' text no longer matches the unit (the document changed)."""

    code = "edit_conflict"


class InvalidRequestError(LedgerError):
    """A request or operation that fails validation."""

    code = "invalid_request"


class InstructionNotUnderstoodError(LedgerError):
    """The rules engine cannot parse the instruction (and no LLM engine is configured)."""

    code = "instruction_not_understood"


class AmbiguousInstructionError(LedgerError):
    """An instruction that reads two ways or more on this document (free text with a seam word
    inside: "Rename A to B to C"); ``details.readings`` lists each, with the instruction quoted to
    mean it. Not an instruction the rules cannot read: no other engine guesses for the user."""

    code = "ambiguous_instruction"


class EngineUnavailableError(LedgerError):
    """The LLM engine is not configured or its endpoint failed after retries."""

    code = "engine_unavailable"


class GraphNotReadyError(LedgerError):
    """The document's graph job has not stored a graph yet; ``details.job`` names the job to follow."""

    code = "graph_not_ready"


class GraphFailedError(LedgerError):
    """The document's graph job failed: what waited for the graph fails with it (``details.job``,
    and ``details.cause``, the graph job's own error)."""

    code = "graph_failed"


class QuotaExceededError(LedgerError):
    """What a key keeps in the store would pass its quota (``LEDGER_QUOTA_MB``)."""

    code = "quota_exceeded"


class UnknownProposalError(LedgerError):
    """A proposal id the document does not hold (never made, or the document expired)."""

    code = "unknown_proposal"


class UnknownStyleError(LedgerError):
    """A style sheet name the store does not hold (never uploaded, or expired)."""

    code = "unknown_style"


class UnknownRevisionError(LedgerError):
    """A revision number the document does not hold (never applied, or the document expired)."""

    code = "unknown_revision"


class PathNotAllowedError(LedgerError):
    """A path outside the folders a file-serving door may read and write (``ledger mcp --root``)."""

    code = "path_not_allowed"


class ForbiddenOriginError(LedgerError):
    """A browser page from an origin ``LEDGER_CORS_ORIGINS`` does not allow (``/mcp``)."""

    code = "forbidden_origin"


class WorkTooLargeError(TooLargeError):
    """Work whose memory, estimated from sizes before it starts, is over what one request, job or
    command may take (``LEDGER_WORK_MEMORY_MB``, :func:`addin_backend.budget.check_memory`):
    ``413 too_large`` before any work, with the estimate and the limit in its details. Counts
    (of operations, of units) are never capped by themselves: what they cost is."""

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.details = details

    def to_dict(self) -> dict[str, object]:  # type: ignore[override]  # the adapters' dict plus details
        out: dict[str, object] = dict(super().to_dict())
        if self.details:
            out["details"] = self.details
        return out


class DeadlineExceededError(LedgerError):
    """A request's or a job's work ran past its wall-clock budget (``LEDGER_REQUEST_SECONDS``,
    ``LEDGER_JOB_SECONDS``): it stopped, and nothing it was making was kept."""

    code = "deadline_exceeded"


#: (exception class, HTTP status, CLI exit status), most specific first.
ERROR_TABLE: list[tuple[type[Exception], int, int]] = [
    (WorkTooLargeError, 413, 3),
    (TooLargeError, 413, 2),
    (EncryptedDocumentError, 422, 2),
    (UnsupportedFormatError, 415, 2),
    (NotADocumentError, 415, 2),
    (AnchorError, 409, 3),
    (CorruptDocumentError, 422, 2),
    (InvalidEditError, 400, 3),
    (AdapterError, 422, 2),
    (UnknownDocumentError, 404, 3),
    (UnknownUnitError, 404, 3),
    (UnknownJobError, 404, 3),
    (UnknownProposalError, 404, 3),
    (UnknownRevisionError, 404, 3),
    (UnknownStyleError, 404, 3),
    (GraphNotReadyError, 409, 3),
    (GraphFailedError, 409, 3),
    (QuotaExceededError, 507, 2),
    (UnauthorizedError, 401, 3),
    (RateLimitedError, 429, 3),
    (StoreUnavailableError, 503, 3),
    (EditConflictError, 409, 3),
    (InstructionNotUnderstoodError, 422, 3),
    (AmbiguousInstructionError, 422, 3),
    (EngineUnavailableError, 503, 3),
    (PathNotAllowedError, 403, 2),
    (ForbiddenOriginError, 403, 3),
    (DeadlineExceededError, 503, 3),
    (InvalidRequestError, 400, 3),
    (LedgerError, 400, 3),
]


def describe(exc: Exception) -> tuple[dict[str, Any], int, int] | None:
    """``(error dict, http status, exit status)`` for a known error, else ``None``."""
    for klass, status, exit_code in ERROR_TABLE:
        if isinstance(exc, klass) and isinstance(exc, (LedgerError, AdapterError)):  # every table class is
            return dict(exc.to_dict()), status, exit_code
    return None
