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
           "VARIETIES", "STYLE_ENV", "MAX_SHEET_BYTES", "MAX_ENTRIES"]

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

    def rule(self, path: str) -> str:
        """The name of a rule as findings give it: ``STYLE.toml terms."web site"`` (the sheet
        and the key; the key is unique in its table)."""
        table, _, key = path.partition(".")
        return f"{self.name or 'style'} {table}" + (f".{_quote_key(key)}" if key else "")

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


# --- limits (a sheet is a client's text: every size is bounded) ------------------------------

#: The most UTF-8 bytes a style sheet may hold.
MAX_SHEET_BYTES = 512 * 1024
#: The most entries (terms, banned terms, abbreviations, exception words) a sheet may list.
MAX_ENTRIES = 20_000
#: The most characters of one term, abbreviation, replacement or exception word.
MAX_TERM_CHARS = 200
#: The most characters of one banned term's message.
MAX_MESSAGE_CHARS = 1_000


def _control_at(text: str, allow: str = "") -> int:
    r"""Where the first control character of ``text`` (one not in ``allow``) is, or -1.

    >>> _control_at("web\x00site"), _control_at("a\tb"), _control_at("line\nline", allow="\n")
    (3, 1, -1)
    """
    m = _CONTROL.search(text)
    while m is not None and m.group() in allow:
        m = _CONTROL.search(text, m.end())
    return -1 if m is None else m.start()


def _control(text: str, allow: str = "") -> str | None:
    """The first control character of ``text`` (not in ``allow``), as ``ascii()`` writes it."""
    at = _control_at(text, allow)
    return None if at < 0 else ascii(text[at])


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def _line_of(text: str, *needles: str) -> int | None:
    """The line (1-based) of the first of ``needles`` found in ``text``: a hint for an error
    message only (one search, on the error path); the sheet itself is read by tomllib alone."""
    for needle in needles:
        at = text.find(needle) if needle else -1
        if at >= 0:
            return text.count("\n", 0, at) + 1
    return None


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
    def __init__(self, name: str, text: str) -> None:
        self.name, self.text = name, text
        self.entries = 0

    def fail(self, path: str, message: str) -> StyleSheetError:
        table, _, key = path.partition(".")
        last = key.rsplit(".", 1)[-1]
        needles = [n for k in dict.fromkeys(k for k in (key, last) if k) for n in (f'"{k}"', f"'{k}'", k)]
        line = _line_of(self.text, *needles, f"[{table}")
        where = f"{self.name or 'style sheet'}, line {line}" if line else (self.name or "style sheet")
        return StyleSheetError(f"{where}: {message}", line=line, key=path[:200])

    def count(self, path: str, n: int = 1) -> None:
        self.entries += n
        if self.entries > MAX_ENTRIES:
            raise self.fail(path, f"a style sheet lists at most {MAX_ENTRIES:,} terms, abbreviations and words")

    def term(self, path: str, value: Any, *, limit: int = MAX_TERM_CHARS, allow: str = "",
             choices: tuple[str, ...] | None = None) -> str:
        """A non-empty string of at most ``limit`` characters without control characters."""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, f"{_short(path)} must be a non-empty string")
        if len(value) > limit:
            raise self.fail(path, f"{_short(path)} is longer than {limit:,} characters")
        bad = _control(value, allow)
        if bad is not None:
            raise self.fail(path, f"{_short(path)} holds the control character {bad}")
        if choices is not None and value not in choices:
            raise self.fail(path, f"{path} must be one of {', '.join(repr(c) for c in choices)}, not {value!r}")
        return value

    def string(self, path: str, value: Any, choices: tuple[str, ...] | None = None) -> str:
        return self.term(path, value, choices=choices)

    def strings(self, path: str, value: Any) -> list[str]:
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(path, f"{path} must be a list of strings")
        self.count(path, len(value))
        return [self.term(path, v) for v in value]

    def mapping(self, path: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"{_short(path)} must be a table")
        return value


def _short(path: str, limit: int = 80) -> str:
    return path if len(path) <= limit else path[:limit] + "..."


def parse_style(text: str, name: str = "") -> StyleSheet:
    """A style sheet from TOML text (read by :mod:`tomllib` alone); ``name`` (a file name) is how
    errors and rules cite it. A sheet is a client's text: its size, its number of entries and the
    length of each are bounded, and control characters are refused.

    >>> s = parse_style('[terms]\\n"web site" = "website"\\n[spelling]\\nvariety = "en-GB"\\n', "house.toml")
    >>> s.terms, s.variety, s.rule('terms.web site')
    ({'web site': 'website'}, 'en-GB', 'house.toml terms."web site"')
    >>> parse_style('[spelling]\\nvarieties = "en-GB"\\n', "house.toml")
    Traceback (most recent call last):
    ...
    addin_backend.checks.style.sheet.StyleSheetError: house.toml, line 2: unknown key 'varieties' in [spelling]; known keys: variety
    """
    label = name or "style sheet"
    if len(text) > MAX_SHEET_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_SHEET_BYTES:
        raise StyleSheetError(f"{label}: a style sheet is at most {MAX_SHEET_BYTES // 1024} KB")
    at = _control_at(text, "\t\n\r")
    if at >= 0:
        at_line = text.count("\n", 0, at) + 1
        raise StyleSheetError(f"{label}, line {at_line}: the control character {ascii(text[at])} has no place "
                              "in a style sheet", line=at_line)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = int(m.group(1)) if m else None
        what = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "malformed TOML"
        where = f"{label}, line {line}" if line else label
        raise StyleSheetError(f"{where}: malformed TOML: {what}", line=line) from None
    except RecursionError:  # inline tables or arrays nested thousands deep
        raise StyleSheetError(f"{label}: malformed TOML: tables or arrays nested too deep") from None
    r = _Reader(name, text)
    sheet = StyleSheet(name=name)
    for table, value in data.items():
        if table not in _SCHEMA:
            raise r.fail(table, f"unknown table [{_short(table)}]; known tables: {', '.join(_SCHEMA)}")
        body = r.mapping(table, value)
        known = _SCHEMA[table]
        if known:
            for key in body:
                if key not in known:
                    raise r.fail(f"{table}.{key}", f"unknown key {_short(key)!r} in [{table}]; known keys: {', '.join(known)}")
        if table == "terms":
            r.count("terms", len(body))
            for old, new in body.items():
                sheet.terms[r.term(f"terms.{old}", old)] = r.term(f"terms.{old}", new)
        elif table == "banned":
            r.count("banned", len(body))
            for term, v in body.items():
                path = f"banned.{term}"
                r.term(path, term)
                if isinstance(v, str):
                    sheet.banned.append(BannedTerm(term, r.term(path, v, limit=MAX_MESSAGE_CHARS, allow="\n")))
                    continue
                v = r.mapping(path, v)
                extra = set(v) - {"message", "replacement"}
                if extra:
                    raise r.fail(path, f"unknown key {_short(sorted(extra)[0])!r} in banned term {_short(term)!r}; "
                                       "known keys: message, replacement")
                repl = v.get("replacement")
                if repl is not None:
                    if not isinstance(repl, str):
                        raise r.fail(path, f"{_short(path)}.replacement must be a string")
                    if repl:  # "" deletes the term
                        r.term(path + ".replacement", repl)
                message = r.term(path + ".message", v.get("message", f"'{term}' is banned"), limit=MAX_MESSAGE_CHARS,
                                 allow="\n")
                sheet.banned.append(BannedTerm(term, message, repl))
        elif table == "abbreviations":
            if "known" in body:
                sheet.known_abbreviations = frozenset(r.strings("abbreviations.known", body["known"]))
            if "preferred" in body:
                preferred = r.mapping("abbreviations.preferred", body["preferred"])
                r.count("abbreviations.preferred", len(preferred))
                for old, new in preferred.items():
                    path = f"abbreviations.preferred.{old}"
                    sheet.preferred_abbreviations[r.term(path, old)] = r.term(path, new)
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
            raw = fh.read(MAX_SHEET_BYTES + 1)
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
