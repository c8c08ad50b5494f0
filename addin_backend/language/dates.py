"""Calendar dates as documents write them, in their languages: found, compared, written again.

A title page says "09 October 2025" and the footer "19 Oct. 2025" or "2025-10-19": the same
kind of fact, written in each place's own way. :func:`find_dates` reads the usual shapes
(day month year, month day year, ISO, day.month.year, month year) with the month names of the
languages the readers meet; :func:`write_like` writes a date the way another occurrence is
written (its order, padding, month name or abbreviation, separators), so a changed date is
restated in each place as that place writes dates.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Date", "find_dates", "write_like"]

_MONTHS: dict[str, tuple[str, ...]] = {
    "en": ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"),
    "de": ("januar", "februar", "märz", "april", "mai", "juni", "juli", "august", "september", "oktober",
           "november", "dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"),
    "it": ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre",
           "novembre", "dicembre"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december"),
    "pt": ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
           "novembro", "dezembro"),
}
#: Month word (full, or its first three or four letters with an optional full stop) -> (lang, month).
_MONTH_OF: dict[str, tuple[str, int]] = {}
for _lang, _names in _MONTHS.items():
    for _i, _name in enumerate(_names, 1):
        for _form in (_name, _name[:3], _name[:4]):
            _MONTH_OF.setdefault(_form, (_lang, _i))
_MONTH_RX = "|".join(sorted((re.escape(k) for k in _MONTH_OF), key=len, reverse=True))
_M = rf"(?P<month>(?i:{_MONTH_RX}))(?P<dot>\.)?"
_PATTERNS = (
    ("iso", re.compile(r"(?<![\d.\-/])(?P<year>\d{4})-(?P<mon>\d{2})-(?P<day>\d{2})(?![\d\-])")),
    ("dmy", re.compile(rf"(?<![\w.])(?P<day>\d{{1,2}})(?P<dd>\.)?(?P<s1>\s+(?:de\s+)?){_M}(?P<s2>,?\s+(?:de\s+)?)(?P<year>\d{{4}})(?!\d)")),
    ("mdy", re.compile(rf"(?<![\w.]){_M}(?P<s1>\s+)(?P<day>\d{{1,2}})(?P<s2>,?\s+)(?P<year>\d{{4}})(?!\d)")),
    ("num", re.compile(r"(?<![\d.])(?P<day>\d{1,2})\.(?P<mon>\d{1,2})\.(?P<year>\d{4})(?![\d])")),
    ("my", re.compile(rf"(?<![\w.]){_M}(?P<s1>\s+)(?P<year>\d{{4}})(?!\d)")),
)


@dataclass(frozen=True)
class Date:
    """A date found in a text: its value (``day`` None for "October 2025") and how it is written."""

    year: int
    month: int
    day: int | None
    start: int
    end: int
    text: str
    shape: str  # iso | dmy | mdy | num | my

    @property
    def value(self) -> tuple[int, int, int | None]:
        return self.year, self.month, self.day


def find_dates(text: str) -> list[Date]:
    """The dates of a text, left to right, none inside another.

    >>> [(d.value, d.shape) for d in find_dates("Draft 01, 09 October 2025; see 2025-10-23 and October 2025.")]
    [((2025, 10, 9), 'dmy'), ((2025, 10, 23), 'iso'), ((2025, 10, None), 'my')]
    >>> [d.value for d in find_dates("9. Oktober 2025, 9 de octubre de 2025, Oct. 9, 2025, 4 June 1999")]
    [(2025, 10, 9), (2025, 10, 9), (2025, 10, 9), (1999, 6, 4)]
    >>> find_dates("Section 3 May be 2025 bytes"), find_dates("version 10.2025")
    ([], [])
    """
    found: list[Date] = []
    taken: list[tuple[int, int]] = []
    for shape, rx in _PATTERNS:
        for m in rx.finditer(text):
            if any(m.start() < b and a < m.end() for a, b in taken):
                continue
            g = m.groupdict()
            if g.get("month"):
                month = _MONTH_OF[g["month"].lower()][1]
                if shape == "my" and not g["month"][:1].isupper():
                    continue  # "may 2025": a month and a year are a date when the month is a name
            else:
                month = int(g["mon"])
            day = int(g["day"]) if g.get("day") else None
            if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
                continue
            found.append(Date(int(g["year"]), month, day, m.start(), m.end(), m.group(), shape))
            taken.append((m.start(), m.end()))
    return sorted(found, key=lambda d: d.start)


def _month_word(model: str, month: int) -> str:
    """Month ``month`` in the language, length and case of ``model`` (a month word of another date)."""
    lang = _MONTH_OF[model.lower()][0]
    full = _MONTHS[lang][month - 1]
    word = full if model.lower() == _MONTHS[lang][_MONTH_OF[model.lower()][1] - 1] else full[: len(model)]
    if model.isupper():
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def write_like(value: tuple[int, int, int | None], like: Date) -> str | None:
    """``value`` (year, month, day) written as ``like`` is written; ``None`` when ``like`` cannot
    hold it (a month-year shape for a date with a day is written without the day).

    >>> d = find_dates("19 Oct. 2025")[0]; write_like((2025, 11, 3), d)
    '03 Nov. 2025'
    >>> write_like((2025, 10, 23), find_dates("2025-10-19")[0]), write_like((2025, 10, 23), find_dates("Oktober 9, 2025")[0])
    ('2025-10-23', 'Oktober 23, 2025')
    """
    year, month, day = value
    m = next(rx.fullmatch(like.text) for shape, rx in _PATTERNS if shape == like.shape)
    if m is None:
        return None
    g = m.groupdict()
    pad = g.get("day") is not None and len(g["day"]) == 2

    def dd() -> str:
        return f"{day:02d}" if pad else str(day)

    if like.shape == "iso":
        return f"{year:04d}-{month:02d}-{day:02d}" if day else None
    if like.shape == "num":
        return f"{dd()}.{month:02d}.{year:04d}" if day else None
    word = _month_word(g["month"], month) + (g.get("dot") or "")
    if like.shape == "my":
        return f"{word}{g['s1']}{year}"
    if day is None:
        return None
    if like.shape == "dmy":
        return f"{dd()}{g.get('dd') or ''}{g['s1']}{word}{g['s2']}{year}"
    return f"{word}{g['s1']}{dd()}{g['s2']}{year}"
