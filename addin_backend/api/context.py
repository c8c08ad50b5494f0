"""What a view needs from the running app: the store, the job runner, request helpers."""
from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import lru_cache
from contextlib import AbstractContextManager
from typing import Any, Callable, overload

from flask import current_app, g, request

from adapters.package import DEFAULT_LIMITS, Limits

from ..errors import InvalidRequestError
from ..jobs.runner import JobRunner
from ..store import Store

__all__ = ["store", "runner", "limits", "client_id", "owner", "ensure_room", "reserve", "quota_bytes", "account", "int_arg", "choice_arg", "list_arg",
           "json_body"]


def store() -> Store:
    return current_app.extensions["ledger.store"]


def runner() -> JobRunner:
    return current_app.extensions["ledger.jobs"]


def limits() -> Limits:
    """The adapters' limits with the upload size, unit and text limits of this app."""
    cfg = current_app.config
    return replace(DEFAULT_LIMITS, max_input_bytes=cfg["MAX_CONTENT_LENGTH"],
                   max_units=int(cfg.get("MAX_UNITS", DEFAULT_LIMITS.max_units)),
                   max_text_chars=int(cfg.get("MAX_TEXT_CHARS", DEFAULT_LIMITS.max_text_chars)),
                   max_paragraphs=int(cfg.get("MAX_PARAGRAPHS", DEFAULT_LIMITS.max_paragraphs)))


def client_id() -> str:
    """Who is asking: the API key's fingerprint, or the address when the server has no keys."""
    who = g.get("client", "anonymous")
    return who if who not in ("anonymous", "-") else f"ip:{request.remote_addr}"


def owner() -> str | None:
    """Whose documents this request reaches: its key's group (``LEDGER_KEY_GROUPS``) or its key's
    fingerprint; ``None`` on a server without keys (every client reaches every document, as
    before keys), where nothing is owned."""
    client = str(g.get("client", "-"))
    if not current_app.config["API_KEYS"] or not client.startswith("key:"):
        return None
    return current_app.config.get("GROUPS", {}).get(client, client)


def quota_bytes() -> int:
    """The per-client quota in bytes (``LEDGER_QUOTA_MB``; 0: none)."""
    from ..service import quota

    return int(float(current_app.config["QUOTA_MB"]) * quota.MB)


def account() -> tuple[str, int] | None:
    """Whose quota what a request derives counts in: its client and ``LEDGER_QUOTA_MB`` (no quota: none)."""
    size = quota_bytes()
    return (client_id(), size) if size > 0 else None


def ensure_room(incoming: int) -> None:
    """Refuse a write of about ``incoming`` bytes past the client's quota (``LEDGER_QUOTA_MB``).

    :raise QuotaExceededError: 507 ``quota_exceeded``.
    """
    from ..service import quota

    quota.ensure_room(store(), client_id(), incoming, quota_bytes())


def reserve(incoming: int) -> AbstractContextManager[Callable[[str], None]]:
    """Hold ``incoming`` bytes of the client's quota for the write in the ``with`` block, which
    gets ``charge(scope)`` to count what it stored (:func:`..service.quota.reserve`).

    :raise QuotaExceededError: 507 ``quota_exceeded``, before anything is written.
    """
    from ..service import quota

    return quota.reserve(store(), client_id(), incoming, quota_bytes())


@overload
def int_arg(name: str, default: int, minimum: int = 0, maximum: int | None = None) -> int: ...
@overload
def int_arg(name: str, default: None, minimum: int = 0, maximum: int | None = None) -> int | None: ...
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


@overload
def choice_arg(name: str, choices: tuple[str, ...], default: str) -> str: ...
@overload
def choice_arg(name: str, choices: tuple[str, ...], default: None) -> str | None: ...
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
    body = _parsed_json()
    errors = list(_validator(schema).iter_errors(body))
    if errors:
        first = _first_error(errors)
        where = "/".join(str(p) for p in first.instance_path) or "body"
        message = first.message if len(first.message) <= 200 else first.message[:197] + "..."
        from .schemas import XML_CHARS, control_character

        if first.message.endswith(f'does not match "{XML_CHARS}"'):
            message = control_character(str(first.instance)) or message
        raise InvalidRequestError(f"{where}: {message}", field=where)
    return body


def _first_error(errors: list[Any]) -> Any:
    """The error to report: the shallowest one, and inside a ``oneOf`` that no branch
    satisfies, the shallowest of the branch that failed least (its own words, not "is not
    valid under any of the schemas")."""
    first = min(errors, key=lambda e: len(list(e.instance_path)))
    branches = [b for b in (getattr(first.kind, "context", None) or []) if b]
    if type(first.kind).__name__ == "OneOfNotValid" and branches:
        return _first_error(min(branches, key=len))
    return first


#: JSON bodies nest at most this deep (the schemas need 5 levels): deeper ones are refused
#: before any recursive code (schema validation, the store's encoder) walks them.
MAX_JSON_DEPTH = 32


def _parsed_json() -> Any:
    """The request body as JSON: UTF-8, at most :data:`MAX_JSON_DEPTH` levels deep, and no lone
    surrogate (``"\\ud800"``) in any string or key, which no store or document can encode.

    :raise InvalidRequestError: anything else (400 ``invalid_request``).
    """
    if not request.is_json:
        raise InvalidRequestError("the request body must be a JSON object (Content-Type: application/json)")
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise InvalidRequestError("the request body is not UTF-8") from None
    except RecursionError:
        raise InvalidRequestError(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels") from None
    except ValueError as exc:
        raise InvalidRequestError(f"the request body is not JSON: {str(exc)[:120]}") from None
    stack: list[tuple[Any, str, int]] = [(body, "body", 1)]
    while stack:  # iterative: the depth check must not recurse itself
        value, where, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise InvalidRequestError(f"the JSON body nests deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(value, dict):
            for key, item in value.items():
                _encodable(key, where)
                stack.append((item, f"{where}/{key}"[:200], depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}/{i}"[:200], depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            _encodable(value, where)
    return body


def _encodable(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidRequestError(f"{where.removeprefix('body/')}: a lone surrogate (an unpaired \\uD800-\\uDFFF "
                                  "escape) is not text", field=where.removeprefix("body/")) from None
