"""House style sheets: the one a command names (``--style FILE``), the server's default
(``LEDGER_STYLE``, a TOML file) and those teams upload (``PUT /api/v1/styles/{name}``).

An uploaded sheet is checked on the way in (a bad one is a 400 naming the line) and kept in the
store under the scope ``style:<name>``; like a document it expires ``LEDGER_TTL_SECONDS`` after
its last write, and every use writes it again, so a sheet a team uses stays.
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import InvalidRequestError, UnknownStyleError
from ..store import Store
from ..checks.style.sheet import StyleSheet, StyleSheetError, load_style, parse_style, style_from_env

__all__ = ["STYLE_NAME", "put_style", "get_style", "resolve_style", "file_style"]

#: A style sheet's name: a team or house name ("legal", "acme-docs").
STYLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_ITEM = "toml"


def _scope(name: str) -> str:
    if not STYLE_NAME.match(name or ""):
        raise InvalidRequestError(f"a style sheet name is 1-64 letters, digits, '.', '_' or '-', not {name!r}",
                                  field="style")
    return f"style:{name}"


def put_style(store: Store, name: str, text: str) -> dict[str, Any]:
    """Check and keep the TOML ``text`` as the style sheet ``name``; returns ``{name, sheet}``.

    :raise StyleSheetError: the sheet is malformed (the message names the line).
    """
    sheet = parse_style(text, f"{name}.toml")
    store.put(_scope(name), {_ITEM: text.encode("utf-8")})
    return {"name": name, "sheet": sheet.to_json()}


def get_style(store: Store, name: str) -> dict[str, Any]:
    """``{name, sheet, toml}`` of an uploaded style sheet.

    :raise InvalidRequestError: not a style sheet name.
    :raise UnknownStyleError: no such sheet (never uploaded, or expired).
    """
    raw = store.get(_scope(name), _ITEM)
    if raw is None:
        raise UnknownStyleError(f"no style sheet {name!r} (never uploaded, or expired)", field="style")
    text = raw.decode("utf-8")
    store.put(_scope(name), {_ITEM: raw})  # a sheet in use stays
    return {"name": name, "sheet": parse_style(text, f"{name}.toml").to_json(), "toml": text}


def resolve_style(store: Store | None, name: str | None) -> StyleSheet | None:
    """The sheet a request names (uploaded), else the server's ``LEDGER_STYLE``, else ``None``.

    :raise UnknownStyleError: a named sheet that is not there.
    :raise StyleSheetError: ``LEDGER_STYLE`` names a bad sheet.
    """
    if name is not None:  # a name given empty is a bad name, not the server's default
        if store is None:
            raise InvalidRequestError("style sheets by name need the server's store", field="style")
        text = get_style(store, name)["toml"]
        return parse_style(text, f"{name}.toml")
    return style_from_env()


def file_style(path: str | None) -> StyleSheet | None:
    """``--style FILE``, else ``LEDGER_STYLE``, else ``None``.

    :raise StyleSheetError: the file is unreadable or malformed.
    """
    return load_style(path) if path else style_from_env()


__all__ += ["StyleSheetError"]
