"""What a view needs from the running app: the store, the job runner, request helpers."""
from __future__ import annotations

from dataclasses import replace

from flask import current_app, request

from adapters.package import DEFAULT_LIMITS, Limits

from ..errors import InvalidRequestError
from ..jobs import JobRunner
from ..store import Store

__all__ = ["store", "runner", "limits", "int_arg", "choice_arg"]


def store() -> Store:
    return current_app.extensions["ledger.store"]


def runner() -> JobRunner:
    return current_app.extensions["ledger.jobs"]


def limits() -> Limits:
    """The adapters' limits with the upload size limit of this app."""
    return replace(DEFAULT_LIMITS, max_input_bytes=current_app.config["MAX_CONTENT_LENGTH"])


def int_arg(name: str, default: int | None, minimum: int = 0, maximum: int | None = None) -> int | None:
    """An integer query parameter within bounds.

    :raise InvalidRequestError: not an integer, or out of bounds.
    """
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise InvalidRequestError(f"query parameter {name!r} must be an integer") from None
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise InvalidRequestError(f"query parameter {name!r} must be {bound}")
    return value


def choice_arg(name: str, choices: tuple[str, ...], default: str | None) -> str | None:
    """A query parameter that must be one of ``choices``.

    :raise InvalidRequestError: any other value.
    """
    value = request.args.get(name, default)
    if value is not None and value not in choices:
        raise InvalidRequestError(f"query parameter {name!r} must be one of {', '.join(choices)}")
    return value
