"""Quotation marks and apostrophes as a document writes them: which mark is which, the
document's own majority, and a text written in that style.

One definition for the check that reports mixed quotes (``checks/style/punctuation.py``) and
for the edits that write text into a document (the rules engine's inserted and replaced text
follows the document: curly where the document writes curly marks, in its own pairs, German
„…“, French «…», English “…”). Apostrophes are a family of their own: French writes « » with
straight apostrophes, two choices, not one. A straight mark after a digit is a prime (5' 10",
12") and no quotation mark.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Iterator

__all__ = ["QUOTE_CHARS", "CURLY", "OPEN_DOUBLE", "is_open", "classify_mark", "curly_marks", "marks",
           "QuoteStyle", "quote_style", "restyle"]

OPEN_DOUBLE = "\u201c\u201e\u00ab"
CURLY = "\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019\u201a"
QUOTE_CHARS = re.compile(r"[\"'\u201c\u201d\u201e\u00ab\u00bb\u2018\u2019\u201a]")


def is_open(text: str, i: int) -> bool:
    """A quote at ``i`` opens when nothing or a space, an opening bracket or a dash precedes it."""
    return i == 0 or text[i - 1].isspace() or text[i - 1] in "([{\u2014\u2013/-"


def classify_mark(text: str, i: int) -> tuple[str, str] | None:
    """``(role, style)`` of the mark at ``i``: role ``double``/``single``/``apostrophe``, style
    ``straight``/``curly``; ``None`` for a prime after a digit or a lone mark.

    >>> classify_mark("don't", 3), classify_mark("5' 10", 1), classify_mark("\u201cA\u201d", 0)
    (('apostrophe', 'straight'), None, ('double', 'curly'))
    """
    c = text[i]
    prev = text[i - 1] if i else ""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if c in "\"'" and prev.isdigit():
        return None  # 5' 10", 12": primes
    if c == '"':
        return ("double", "straight")
    if c in "\u201c\u201d\u201e\u00ab\u00bb":
        return ("double", "curly")
    if c in "'\u2019":
        if prev.isalpha() and (nxt.isalpha() or not nxt or not nxt.isalnum()):
            if prev.isalpha() and nxt.isalpha():
                return ("apostrophe", "straight" if c == "'" else "curly")
            if c == "'" and prev in "sS" and (not nxt or nxt.isspace() or nxt in ".,;:"):
                return ("apostrophe", "straight")  # the students' books
        return ("single", "straight" if c == "'" else "curly")
    if c in "\u2018\u201a":
        return ("single", "curly")
    return None


def curly_marks(counts: Counter) -> dict[str, str]:
    """The curly marks the document uses most: opening and closing double quotes (counted as
    ``("open", mark)``), and the single quotes of the same pairs."""
    opening = max((c for c in OPEN_DOUBLE), key=lambda c: (counts.get(("open", c), 0), c == "\u201c"))
    closing = {"\u201e": "\u201c", "\u00ab": "\u00bb"}.get(opening, "\u201d")
    return {"double_open": opening, "double_close": closing,
            "single_open": {"\u201e": "\u201a", "\u00ab": "\u2039"}.get(opening, "\u2018"),
            "single_close": {"\u201e": "\u2018", "\u00ab": "\u203a"}.get(opening, "\u2019")}


def marks(text: str) -> Iterator[tuple[int, str, str]]:
    """Each quotation mark or apostrophe of ``text``: ``(offset, role, style)`` (primes left out)."""
    if "'" not in text and '"' not in text and not any(c in text for c in CURLY):
        return
    for m in QUOTE_CHARS.finditer(text):
        got = classify_mark(text, m.start())
        if got is not None:
            yield m.start(), got[0], got[1]


@dataclass(frozen=True)
class QuoteStyle:
    """A document's majority: ``quotes`` and ``apostrophes`` each ``straight``, ``curly`` or
    ``None`` (the document writes none, or as many of each), and its curly marks."""

    quotes: str | None
    apostrophes: str | None
    curly: dict[str, str]


def quote_style(texts: Iterable[str]) -> QuoteStyle:
    """The quotation marks and apostrophes ``texts`` (a document's units) write most.

    >>> quote_style(["the \u201cClient\u201d\u2019s key", "a \u201cServer\u201d"]).quotes
    'curly'
    >>> quote_style(["Der \u201eServer\u201c"]).curly["double_open"]
    '\u201e'
    """
    counts: dict[str, Counter] = {"quotes": Counter(), "apostrophes": Counter()}
    opening: Counter = Counter()
    for text in texts:
        for i, role, style in marks(text):
            counts["apostrophes" if role == "apostrophe" else "quotes"][style] += 1
            if style == "curly" and role == "double" and is_open(text, i):
                opening[("open", text[i])] += 1

    def majority(c: Counter) -> str | None:
        return None if c["curly"] == c["straight"] else "curly" if c["curly"] > c["straight"] else "straight"

    return QuoteStyle(majority(counts["quotes"]), majority(counts["apostrophes"]), curly_marks(opening))


def restyle(text: str, style: QuoteStyle) -> str:
    """``text`` with its quotation marks and apostrophes written as the document writes them
    (a family the document does not decide is left as typed; primes stay).

    >>> s = quote_style(["the \u201cClient\u201d and the server\u2019s key"])
    >>> restyle('the "Server" and the client\\'s key', s)
    'the \u201cServer\u201d and the client\u2019s key'
    >>> restyle("the \u201cServer\u201d", quote_style(['a "b" c']))
    'the "Server"'
    """
    out = list(text)
    for i, role, have in marks(text):
        want = style.apostrophes if role == "apostrophe" else style.quotes
        if want is None or want == have:
            continue
        if want == "straight":
            out[i] = '"' if role == "double" else "'"
        elif role == "apostrophe":
            out[i] = "\u2019"
        else:
            out[i] = style.curly[f"{role}_{'open' if is_open(text, i) else 'close'}"]
    return "".join(out)
