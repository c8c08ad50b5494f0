"""What a view needs from the running app: the store, the job runner, request helpers."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from flask import current_app, request

from adapters.package import DEFAULT_LIMITS, Limits

from ..errors import InvalidRequestError
from ..jobs import JobRunner
from ..store import Store

__all__ = ["store", "runner", "limits", "int_arg", "choice_arg", "list_arg", "json_body"]


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


def list_arg(name: str, choices: tuple[str, ...]) -> list[str] | None:
    """A comma-separated query parameter of values from ``choices`` (``None`` when absent).

    :raise InvalidRequestError: an empty item or a value outside ``choices``.
    """
    raw = request.args.get(name)
    if raw is None:
        return None
    items = raw.split(",")
    if any(item not in choices for item in items):
        raise InvalidRequestError(f"query parameter {name!r} must be a comma-separated list of {', '.join(choices)}")
    return list(dict.fromkeys(items))


@lru_cache(maxsize=None)
def _validator(schema: str) -> Any:
    import jsonschema_rs

    from .schemas import SCHEMAS

    return jsonschema_rs.validator_for({"$ref": f"#/components/schemas/{schema}",
                                        "components": {"schemas": SCHEMAS}})


def json_body(schema: str) -> dict[str, Any]:
    """The request's JSON object, valid against ``SCHEMAS[schema]`` of the OpenAPI document.

    The same schema the OpenAPI document publishes decides what is accepted.

    :raise InvalidRequestError: not JSON, or not valid (the message names the first problem).
    """
    body = request.get_json(silent=True)
    if body is None:
        raise InvalidRequestError("the request body must be a JSON object (Content-Type: application/json)")
    errors = list(_validator(schema).iter_errors(body))
    if errors:
        first = min(errors, key=lambda e: len(list(e.instance_path)))
        where = "/".join(str(p) for p in first.instance_path) or "body"
        message = first.message if len(first.message) <= 200 else first.message[:197] + "..."
        raise InvalidRequestError(f"{where}: {message}", field=where)
    return body
