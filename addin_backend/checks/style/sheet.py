"""The house style sheet: a team's own rules, as TOML (``ledger check FILE --style STYLE.toml``,
``LEDGER_STYLE`` on the server, ``PUT /api/v1/styles/{name}`` per team).

Every key is optional; an unknown table or key, a value of the wrong type or malformed TOML is a
:class:`StyleSheetError` whose message names the line::

    [terms]                      # the form to avoid = the preferred form
    "web site" = "website"
    "e-mail" = "email"

    [banned]                     # a term = the message, or {message, replacement}
    "utilize" = "Write 'use'."
    "whitelist" = { message = "Write 'allowlist'.", replacement = "allowlist" }

    [abbreviations]
    known = ["QUIC", "TLS"]      # need no spelling out in this team's documents
    [abbreviations.preferred]    # the form to avoid = the preferred form
    "U.S." = "US"
    "IPSec" = "IPsec"

    [spelling]
    variety = "en-US"            # en-US, en-GB, en-GB-oxendict (-ize), en-CA, en-AU, ... or "any"

    [numbers]
    percent = "%"                # "%", "percent" or "per cent"
    thousands = ","              # ",", ".", " ", "\u202f" or "none"
    unit_space = true            # "10 ms" (true) or "10ms" (false)
    spell_out_below = 10         # one..nine in words, 10 and up in digits
    unit_numerals = true         # counts of a unit ("5 seconds", "5 percent") always in digits

    [punctuation]
    quotes = "curly"             # or "straight"
    dash = "em"                  # "em" (closed: a\u2014b) or "en" (spaced: a \u2013 b)

    [headings]
    case = "sentence"            # or "title"

    [captions]
    label = "Figure 1:"          # "Figure 1:", "Figure 1.", "Fig. 1:", "Fig. 1." ...

    [exceptions]
    words = ["flow-controlled"]  # never reported, in any check
    kinds = ["quote_style"]      # checks switched off

Without a choice (variety, percent, quotes, ...) a check follows the document's own majority.
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from ...errors import InvalidRequestError

__all__ = ["StyleSheet", "StyleSheetError", "BannedTerm", "load_style", "parse_style", "style_from_env",
           "VARIETIES", "STYLE_ENV"]

#: The environment variable naming the server's default style sheet (a TOML file).
STYLE_ENV = "LEDGER_STYLE"

#: The spelling varieties a sheet may name (BCP 47 tags; ``any`` turns the check off).
VARIETIES = ("en-US", "en-GB", "en-GB-oxendict", "en-CA", "en-AU", "en-NZ", "en-IE", "en-ZA", "en-IN", "any")
_PERCENT = ("%", "percent", "per cent")
_THOUSANDS = (",", ".", " ", "\u202f", "\u00a0", "'", "none")
_QUOTES = ("curly", "straight")
_DASHES = ("em", "en")
_CASES = ("sentence", "title")


class StyleSheetError(InvalidRequestError):
    """A style sheet that cannot be used; the message names the line."""

    code = "invalid_style"


@dataclass(frozen=True)
class BannedTerm:
    term: str
    message: str
    replacement: str | None = None


@dataclass
class StyleSheet:
    """What a style sheet says (see the module docstring); an empty sheet says nothing."""

    name: str = ""
    terms: dict[str, str] = field(default_factory=dict)
    banned: list[BannedTerm] = field(default_factory=list)
    known_abbreviations: frozenset[str] = frozenset()
    preferred_abbreviations: dict[str, str] = field(default_factory=dict)
    variety: str | None = None
    percent: str | None = None
    thousands: str | None = None
    unit_space: bool | None = None
    spell_out_below: int | None = None
    unit_numerals: bool | None = None
    quotes: str | None = None
    dash: str | None = None
    heading_case: str | None = None
    caption_label: str | None = None
    exception_words: frozenset[str] = frozenset()
    disabled: frozenset[str] = frozenset()
    lines: dict[str, int] = field(default_factory=dict)  # "terms.web site" -> line, for the rule names

    def rule(self, path: str) -> str:
        """The name of a rule as findings give it: ``STYLE.toml:4 terms."web site"``."""
        table, _, key = path.partition(".")
        where = f"{self.name or 'style'}:{self.lines[path]}" if path in self.lines else (self.name or "style")
        return f"{where} {table}" + (f".{_quote_key(key)}" if key else "")

    def excepted(self, text: str) -> bool:
        """Whether the sheet's exceptions name ``text`` (any case)."""
        return bool(self.exception_words) and text.strip().lower() in self.exception_words

    def enabled(self, kind: str) -> bool:
        return kind not in self.disabled

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "terms": dict(self.terms),
            "banned": [{"term": b.term, "message": b.message, "replacement": b.replacement} for b in self.banned],
            "abbreviations": {"known": sorted(self.known_abbreviations), "preferred": dict(self.preferred_abbreviations)},
            "spelling": {"variety": self.variety},
            "numbers": {"percent": self.percent, "thousands": self.thousands, "unit_space": self.unit_space,
                        "spell_out_below": self.spell_out_below, "unit_numerals": self.unit_numerals},
            "punctuation": {"quotes": self.quotes, "dash": self.dash},
            "headings": {"case": self.heading_case}, "captions": {"label": self.caption_label},
            "exceptions": {"words": sorted(self.exception_words), "kinds": sorted(self.disabled)},
        }


def _quote_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else '"' + key.replace('"', '\\"') + '"'


# --- where each key is written (tomllib gives values, not lines) ------------------------------

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.-]+)\s*=""")


def _unquote(part: str) -> str:
    part = part.strip()
    if part.startswith('"') and part.endswith('"'):
        return part[1:-1].encode("utf-8").decode("unicode_escape") if "\\" in part else part[1:-1]
    if part.startswith("'") and part.endswith("'"):
        return part[1:-1]
    return part


def _split_dotted(key: str) -> list[str]:
    return [_unquote(p) for p in re.findall(r""""(?:[^"\\]|\\.)*"|'[^']*'|[^.\s]+""", key)]


def _key_lines(text: str) -> dict[str, int]:
    """``"table.key"`` -> line number (1-based) of each key and table header of the sheet."""
    out: dict[str, int] = {}
    table: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        m = _HEADER.match(line)
        if m:
            table = _split_dotted(m.group(1))
            out.setdefault(".".join(table), n)
            continue
        m = _KEY.match(line)
        if m:
            path = table + _split_dotted(m.group(1))
            out.setdefault(".".join(path), n)
    return out


# --- parsing ---------------------------------------------------------------------------------

_SCHEMA: dict[str, tuple[str, ...]] = {
    "terms": (),  # any key
    "banned": (),
    "abbreviations": ("known", "preferred"),
    "spelling": ("variety",),
    "numbers": ("percent", "thousands", "unit_space", "spell_out_below", "unit_numerals"),
    "punctuation": ("quotes", "dash"),
    "headings": ("case",),
    "captions": ("label",),
    "exceptions": ("words", "kinds"),
}
_CAPTION_LABEL = re.compile(r"^(?:[A-Z][a-z]*\.?)\s+1\s*([:.\u2013\u2014-]?)$")


class _Reader:
    def __init__(self, name: str, lines: dict[str, int]) -> None:
        self.name, self.lines = name, lines

    def fail(self, path: str, message: str) -> StyleSheetError:
        line = self.lines.get(path)
        if line is None and "." in path:
            line = self.lines.get(path.rsplit(".", 1)[0])
        where = f"{self.name or 'style sheet'}, line {line}" if line else (self.name or "style sheet")
        return StyleSheetError(f"{where}: {message}", line=line, key=path)

    def string(self, path: str, value: Any, choices: tuple[str, ...] | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, f"{path} must be a non-empty string")
        if choices is not None and value not in choices:
            raise self.fail(path, f"{path} must be one of {', '.join(repr(c) for c in choices)}, not {value!r}")
        return value

    def strings(self, path: str, value: Any) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(path, f"{path} must be a list of strings")
        return list(value)

    def mapping(self, path: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"{path} must be a table")
        return value


def parse_style(text: str, name: str = "") -> StyleSheet:
    """A style sheet from TOML text; ``name`` (a file name) is how errors and rules cite it.

    >>> s = parse_style('[terms]\\n"web site" = "website"\\n[spelling]\\nvariety = "en-GB"\\n', "house.toml")
    >>> s.terms, s.variety, s.rule('terms.web site')
    ({'web site': 'website'}, 'en-GB', 'house.toml:2 terms."web site"')
    >>> parse_style('[spelling]\\nvarieties = "en-GB"\\n', "house.toml")
    Traceback (most recent call last):
    ...
    addin_backend.checks.style.sheet.StyleSheetError: house.toml, line 2: unknown key 'varieties' in [spelling]; known keys: variety
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = int(m.group(1)) if m else None
        what = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "malformed TOML"
        where = f"{name or 'style sheet'}, line {line}" if line else (name or "style sheet")
        raise StyleSheetError(f"{where}: malformed TOML: {what}", line=line) from None
    lines = _key_lines(text)
    r = _Reader(name, lines)
    sheet = StyleSheet(name=name, lines=lines)
    for table, value in data.items():
        if table not in _SCHEMA:
            raise r.fail(table, f"unknown table [{table}]; known tables: {', '.join(_SCHEMA)}")
        body = r.mapping(table, value)
        known = _SCHEMA[table]
        if known:
            for key in body:
                if key not in known:
                    raise r.fail(f"{table}.{key}", f"unknown key {key!r} in [{table}]; known keys: {', '.join(known)}")
        if table == "terms":
            for old, new in body.items():
                sheet.terms[r.string(f"terms.{old}", old)] = r.string(f"terms.{old}", new)
        elif table == "banned":
            for term, v in body.items():
                path = f"banned.{term}"
                if isinstance(v, str):
                    sheet.banned.append(BannedTerm(term, v))
                    continue
                v = r.mapping(path, v)
                extra = set(v) - {"message", "replacement"}
                if extra:
                    raise r.fail(path, f"unknown key {sorted(extra)[0]!r} in banned term {term!r}; known keys: message, replacement")
                repl = v.get("replacement")
                if repl is not None and not isinstance(repl, str):
                    raise r.fail(path, f"{path}.replacement must be a string")
                sheet.banned.append(BannedTerm(term, r.string(path + ".message", v.get("message", f"'{term}' is banned")),
                                               repl))
        elif table == "abbreviations":
            if "known" in body:
                sheet.known_abbreviations = frozenset(r.strings("abbreviations.known", body["known"]))
            if "preferred" in body:
                for old, new in r.mapping("abbreviations.preferred", body["preferred"]).items():
                    sheet.preferred_abbreviations[old] = r.string(f"abbreviations.preferred.{old}", new)
        elif table == "spelling" and "variety" in body:
            sheet.variety = r.string("spelling.variety", body["variety"], VARIETIES)
        elif table == "numbers":
            if "percent" in body:
                sheet.percent = r.string("numbers.percent", body["percent"], _PERCENT)
            if "thousands" in body:
                sheet.thousands = r.string("numbers.thousands", body["thousands"], _THOUSANDS)
            if "unit_space" in body:
                if not isinstance(body["unit_space"], bool):
                    raise r.fail("numbers.unit_space", "numbers.unit_space must be true or false")
                sheet.unit_space = body["unit_space"]
            if "spell_out_below" in body:
                v = body["spell_out_below"]
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 101:
                    raise r.fail("numbers.spell_out_below", "numbers.spell_out_below must be an integer from 0 to 101")
                sheet.spell_out_below = v
            if "unit_numerals" in body:
                if not isinstance(body["unit_numerals"], bool):
                    raise r.fail("numbers.unit_numerals", "numbers.unit_numerals must be true or false")
                sheet.unit_numerals = body["unit_numerals"]
        elif table == "punctuation":
            if "quotes" in body:
                sheet.quotes = r.string("punctuation.quotes", body["quotes"], _QUOTES)
            if "dash" in body:
                sheet.dash = r.string("punctuation.dash", body["dash"], _DASHES)
        elif table == "headings" and "case" in body:
            sheet.heading_case = r.string("headings.case", body["case"], _CASES)
        elif table == "captions" and "label" in body:
            label = r.string("captions.label", body["label"])
            if not _CAPTION_LABEL.match(label):
                raise r.fail("captions.label", f"captions.label must look like 'Figure 1:' or 'Fig. 1.', not {label!r}")
            sheet.caption_label = label
        elif table == "exceptions":
            if "words" in body:
                sheet.exception_words = frozenset(w.strip().lower() for w in r.strings("exceptions.words", body["words"]))
            if "kinds" in body:
                from ...findings import FINDING_KINDS

                kinds = r.strings("exceptions.kinds", body["kinds"])
                bad = [k for k in kinds if k not in FINDING_KINDS]
                if bad:
                    raise r.fail("exceptions.kinds", f"unknown finding kind {bad[0]!r} in exceptions.kinds")
                sheet.disabled = frozenset(kinds)
    return sheet


def load_style(path: str) -> StyleSheet:
    """The style sheet in the file ``path``.

    :raise StyleSheetError: unreadable, malformed or unknown keys (the message names the line).
    """
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise StyleSheetError(f"{path}: cannot read the style sheet ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise StyleSheetError(f"{path}: a style sheet is UTF-8 text") from None
    return parse_style(text, os.path.basename(path))


def style_from_env(environ: dict[str, str] | None = None) -> StyleSheet | None:
    """The style sheet ``LEDGER_STYLE`` names, or ``None`` when it is unset."""
    path = (environ if environ is not None else os.environ).get(STYLE_ENV, "").strip()
    return load_style(path) if path else None
