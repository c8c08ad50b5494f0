"""Values stated in text ("30 days", "thirty (30) days", "$1,000", "5%"): find them, restate them.

A change of value must find every way a document states it — contracts write "thirty (30) days",
tables write "30", prose writes "thirty days" — and restate the new value in the same way.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .terms import case_pattern

__all__ = ["Value", "ValueMatch", "find_value", "named_value", "number_to_words", "parse_value", "words_to_number"]

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORD_VALUE = {w: i for i, w in enumerate(_ONES)} | {w: 10 * i for i, w in enumerate(_TENS) if w != "_"}
_SCALES = {"hundred": 100, "thousand": 1000}
_NUMBER_WORD = "|".join(sorted(list(_WORD_VALUE) + list(_SCALES) + ["and"], key=len, reverse=True))
_WORDS_RX = rf"(?:{_NUMBER_WORD})(?:[\s\-]+(?:{_NUMBER_WORD}))*"
_DIGITS_RX = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_PERCENT = ("%", "percent", "per cent")
_LABEL_BEFORE = re.compile(
    r"(?:section|sec\.|§|figure|fig\.|table|tab\.|equation|eq\.|chapter|appendix|article|clause|"
    r"page|p\.|no\.|number|theorem|lemma|definition|step|item)\s*\(?$",
    re.IGNORECASE,
)


def number_to_words(n: int) -> str | None:
    """English words for 0 <= n < 1,000,000 as contracts write them; ``None`` outside that range.

    >>> number_to_words(45), number_to_words(100), number_to_words(1250)
    ('forty-five', 'one hundred', 'one thousand two hundred fifty')
    """
    if not 0 <= n < 1_000_000:
        return None
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" {number_to_words(rest)}" if rest else "")
    thousands, rest = divmod(n, 1000)
    return f"{number_to_words(thousands)} thousand" + (f" {number_to_words(rest)}" if rest else "")


def words_to_number(text: str) -> int | None:
    """The value of a number written in words, or ``None``.

    >>> words_to_number("Forty-five"), words_to_number("one hundred and twenty"), words_to_number("days")
    (45, 120, None)
    """
    words = [w for w in re.split(r"[\s\-]+", text.strip().lower()) if w and w != "and"]
    if not words:
        return None
    total = current = 0
    for w in words:
        if w in _WORD_VALUE:
            current += _WORD_VALUE[w]
        elif w == "hundred":
            current = max(current, 1) * 100
        elif w == "thousand":
            total += max(current, 1) * 1000
            current = 0
        else:
            return None
    return total + current


@dataclass(frozen=True)
class Value:
    """A stated quantity: ``prefix`` (currency), ``number`` (digits, no separators), ``tail`` (unit)."""

    prefix: str
    number: str
    tail: str

    @property
    def as_int(self) -> int | None:
        return int(self.number) if self.number.isdigit() else None


_VALUE_RX = re.compile(
    rf"^\s*(?P<prefix>[$€£¥]|(?:USD|EUR|GBP)\s)?\s*"
    rf"(?:(?P<words>{_WORDS_RX})\s*\(\s*(?P<wd>{_DIGITS_RX})\s*\)|(?P<digits>{_DIGITS_RX})|(?P<only>{_WORDS_RX}))"
    rf"(?P<tail>(?:\s*%|[\s\-]+[^\d\s].*)?)\s*$",
    re.IGNORECASE,
)


def parse_value(text: str) -> Value | None:
    """A value if the text states one: ``"30 days"``, ``"thirty (30) days"``, ``"$1,000"``, ``"5%"``.

    >>> parse_value("thirty (30) days"), parse_value("$1,000")
    (Value(prefix='', number='30', tail='days'), Value(prefix='$', number='1000', tail=''))
    >>> parse_value("the retention period") is None
    True
    """
    m = _VALUE_RX.match(text)
    if not m:
        return None
    if m.group("only"):
        n = words_to_number(m.group("only"))
        if n is None:
            return None
        number = str(n)
    else:
        number = (m.group("wd") or m.group("digits")).replace(",", "")
    tail = m.group("tail").strip().lstrip("-").strip()
    return Value((m.group("prefix") or "").strip(), number, tail)


#: "the <noun phrase> <value>": a determiner, one to four words that name what the value is, then
#: the value itself ("the date 2025-10-07", "the retention period 30 days", "the version 2.1.1").
_NAMED = re.compile(r"^the\s+(?P<noun>[^\W\d_][\w\-]*(?:\s+[^\W\d_][\w\-]*){0,3}?)\s+(?P<value>\S.*?)\s*$",
                    re.IGNORECASE)
_LINKS = {"of", "in", "on", "for", "from", "at", "by", "to", "and", "or", "with"}
#: A value written as one token with digits: a date, a version, a code ("2025-10-07", "v2.1.1").
_TOKEN_VALUE = re.compile(r"[$€£¥]?[\w.\-/:,]*\d[\w.\-/:,%]*")


def named_value(phrase: str) -> tuple[str, str] | None:
    """``(noun, value)`` where a phrase names a value by what it is: "the date 2025-10-07" is the
    value 2025-10-07 (a date); ``None`` where the phrase ends in no value.

    The value is the phrase's shortest ending that states a quantity in digits
    (:func:`parse_value`: "30 days", "$1,000") or is one token with digits (a date, a version);
    what stands between "the" and it is the noun that says what the value is.

    >>> named_value("the date 2025-10-07"), named_value("the retention period 30 days")
    (('date', '2025-10-07'), ('retention period', '30 days'))
    >>> named_value("the supplier") is None, named_value("the 30 days") is None
    (True, True)
    """
    m = _NAMED.match(phrase)
    if not m:
        return None
    noun, rest = m.group("noun"), m.group("value")
    # the noun is lazy: the first split whose remainder is a value gives the shortest noun
    words = (noun + " " + rest).split()
    for k in range(1, min(4, len(words) - 1) + 1):
        if words[k - 1].lower() in _LINKS:
            break  # "the date of 2025": a phrase that goes on, not a noun naming its value
        value = " ".join(words[k:])
        first = value[:1]
        if _TOKEN_VALUE.fullmatch(value) or ((first.isdigit() or first in "$€£¥") and parse_value(value) is not None):
            return " ".join(words[:k]), value
    return None


@dataclass(frozen=True)
class ValueMatch:
    """One statement of a value in a text: the span to replace and its replacement."""

    start: int
    end: int
    text: str
    replacement: str


def _digit_forms(number: str) -> list[str]:
    forms = {number}
    whole, dot, frac = number.partition(".")
    if len(whole) > 3:
        grouped = f"{int(whole):,}" + (dot + frac if dot else "")
        forms.add(grouped)
    return sorted(forms, key=len, reverse=True)


def _tail_rx(tail: str) -> str:
    if not tail:
        return ""
    if tail.lower() in _PERCENT:
        return r"(?:%|percent|per\s+cent)"
    body = re.escape(tail).replace(r"\ ", r"\s+")
    stem = tail[:-1] if tail.lower().endswith("s") and not tail.lower().endswith("ss") else tail
    if stem != tail or tail[-1:].isalpha():
        body = re.escape(stem).replace(r"\ ", r"\s+") + "s?"
    return body


def _same_tail(a: str, b: str) -> bool:
    def norm(t: str) -> str:
        t = t.lower().strip()
        if t in _PERCENT:
            return "%"
        return t[:-1] if t.endswith("s") and not t.endswith("ss") else t

    return norm(a) == norm(b)


def _format_digits(new: Value, model: str) -> str:
    number = new.number
    whole, dot, frac = number.partition(".")
    if "," in model and whole.isdigit():
        number = f"{int(whole):,}" + (dot + frac if dot else "")
    return number


def _format_words(new: Value, model: str) -> str | None:
    n = new.as_int
    words = number_to_words(n) if n is not None else None
    if words is None:
        return None
    pattern = case_pattern(model)
    if pattern == "upper":
        return words.upper()
    if pattern in ("title", "sentence") and model[:1].isupper():
        return words[:1].upper() + words[1:]
    return words


def find_value(text: str, old: Value, new: Value) -> list[ValueMatch]:
    """Every statement of ``old`` in ``text`` with the replacement that states ``new`` the same way.

    Only the number is replaced when prefix and unit stay; the whole statement otherwise.

    >>> [(m.text, m.replacement) for m in find_value("within thirty (30) days, or 30-day notice; 130 days",
    ...     parse_value("30 days"), parse_value("45 days"))]
    [('thirty (30)', 'forty-five (45)'), ('30', '45')]
    """
    n = old.as_int
    words = number_to_words(n) if n is not None else None
    words_rx = re.escape(words).replace(r"\-", r"[\s\-]+").replace(r"\ ", r"\s+") if words else None
    digits_rx = "|".join(re.escape(f) for f in _digit_forms(old.number))
    number_alts = []
    if words_rx:
        number_alts.append(rf"(?P<w>{words_rx})\s*\(\s*(?P<wd>{digits_rx})\s*\)")
    number_alts.append(rf"(?P<d>{digits_rx})")
    if words_rx:
        number_alts.append(rf"(?P<wo>{words_rx})")
    prefix_rx = rf"(?P<prefix>{re.escape(old.prefix)}\s*)" if old.prefix else ""
    tail = _tail_rx(old.tail)
    if tail:
        tail_rx = rf"(?P<sep>\s*-?\s*)(?P<tail>{tail})(?!\w)" if old.tail.lower() not in _PERCENT else rf"(?P<sep>\s*)(?P<tail>{tail})(?!\w)"
    else:
        tail_rx = r"(?!\w|[.,]\d)"
    rx = re.compile(rf"(?<![\w.,$€£¥]){prefix_rx}(?:{'|'.join(number_alts)}){tail_rx}", re.IGNORECASE)
    keep_frame = old.prefix == new.prefix and _same_tail(old.tail, new.tail)
    out: list[ValueMatch] = []
    for m in rx.finditer(text):
        if not old.tail and not old.prefix and _LABEL_BEFORE.search(text, 0, m.start()):
            continue  # a bare number after "Section" or "Table" is a label, not the value
        if words_rx and m.group("w"):  # no group "w" where the number has no words (30.5, 0x1F)
            words_new = _format_words(new, m.group("w"))
            number_new = _format_digits(new, m.group("wd"))
            num_text = f"{words_new} ({number_new})" if words_new else number_new
            num_start = m.start("w")
            num_end = m.end("wd") + text[m.end("wd"):].index(")") + 1
        elif m.group("d"):
            num_text = _format_digits(new, m.group("d"))
            num_start, num_end = m.start("d"), m.end("d")
        else:
            num_text = _format_words(new, m.group("wo")) or _format_digits(new, "")
            num_start, num_end = m.start("wo"), m.end("wo")
        if keep_frame:
            start, end, repl = num_start, num_end, num_text
        else:
            start, end = m.start(), m.end()
            sep = m.group("sep") if tail else ""
            if new.tail and not sep and new.tail[:1].isalpha():
                sep = " "
            repl = (f"{new.prefix}" if new.prefix else "") + num_text + (sep + new.tail if new.tail else "")
        if text[start:end] != repl:
            out.append(ValueMatch(start, end, text[start:end], repl))
    return out
