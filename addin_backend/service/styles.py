"""House style sheets: the one a command names (``--style FILE``), the server's default
(``LEDGER_STYLE``, a TOML file) and those teams upload (``PUT /api/v1/styles/{name}``).

An uploaded sheet is checked on the way in (a bad one is a 400 naming the line) and kept in the
store under the scope ``style:<owner>:<name>``: names belong to the API key that uploaded them
(``owner``, the key's fingerprint; one shared owner on a server without keys), so another key
cannot replace a team's ``house`` sheet, and its bytes count in that key's quota. Like a
document it expires ``LEDGER_TTL_SECONDS`` after its last write, and every use writes it again,
so a sheet a team uses stays.
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import InvalidRequestError, UnknownStyleError
from ..store import Store
from ..checks.style.sheet import MAX_SHEET_BYTES, StyleSheet, StyleSheetError, load_style, parse_style, style_from_env

__all__ = ["STYLE_NAME", "put_style", "get_style", "resolve_style", "file_style", "style_scope"]

#: A style sheet's name: a team or house name ("legal", "acme-docs").
STYLE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_ITEM = "toml"


def style_scope(owner: str, name: str) -> str:
    """The store scope of ``owner``'s style sheet ``name``.

    :raise InvalidRequestError: not a style sheet name.
    """
    if not STYLE_NAME.match(name or ""):
        raise InvalidRequestError(f"a style sheet name is 1-64 letters, digits, '.', '_' or '-', not {name[:80]!r}",
                                  field="style")
    return f"style:{owner}:{name}"


def put_style(store: Store, name: str, text: str, owner: str = "") -> dict[str, Any]:
    """Check and keep the TOML ``text`` as ``owner``'s style sheet ``name``; returns ``{name, sheet}``.

    :raise StyleSheetError: the sheet is malformed (the message names the line).
    """
    scope = style_scope(owner, name)
    sheet = parse_style(text, f"{name}.toml")
    store.put(scope, {_ITEM: text.encode("utf-8")})
    return {"name": name, "sheet": sheet.to_json()}


def get_style(store: Store, name: str, owner: str = "") -> dict[str, Any]:
    """``{name, sheet, toml}`` of an uploaded style sheet.

    :raise InvalidRequestError: not a style sheet name.
    :raise UnknownStyleError: no such sheet (never uploaded, or expired).
    """
    scope = style_scope(owner, name)
    raw = store.get(scope, _ITEM)
    if raw is None:
        raise UnknownStyleError(f"no style sheet {name!r} (never uploaded by this key, or expired)", field="style")
    text = raw.decode("utf-8")
    store.put(scope, {_ITEM: raw})  # a sheet in use stays
    return {"name": name, "sheet": parse_style(text, f"{name}.toml").to_json(), "toml": text}


def resolve_style(store: Store | None, name: str | None, owner: str = "") -> StyleSheet | None:
    """The sheet a request names (uploaded by ``owner``), else the server's ``LEDGER_STYLE``, else ``None``.

    :raise UnknownStyleError: a named sheet that is not there.
    :raise StyleSheetError: ``LEDGER_STYLE`` names a bad sheet.
    """
    if name is not None:  # a name given empty is a bad name, not the server's default
        if store is None:
            raise InvalidRequestError("style sheets by name need the server's store", field="style")
        text = get_style(store, name, owner)["toml"]
        return parse_style(text, f"{name}.toml")
    return style_from_env()


def file_style(path: str | None) -> StyleSheet | None:
    """``--style FILE``, else ``LEDGER_STYLE``, else ``None``.

    :raise StyleSheetError: the file is unreadable or malformed.
    """
    return load_style(path) if path else style_from_env()


__all__ += ["StyleSheetError", "MAX_SHEET_BYTES"]
