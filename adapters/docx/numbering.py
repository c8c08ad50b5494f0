"""The numbering part and the counters that render list and heading labels as Word does.

:func:`parse_numbering` reads ``w:abstractNum`` / ``w:num`` definitions once;
:class:`ListCounters` is fed the numbered paragraphs in document order and returns each one's
rendered label ("2.1", "a)", "•"). Counters belong to the abstract definition, so several
``w:num`` that share one ``w:abstractNum`` continue one another (as in Word) unless a
``w:lvlOverride/w:startOverride`` restarts them the first time that ``w:num`` is used.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, overload

from ..labels import repeated, repeated_letters, roman
from .oxml import qn, w_attr

__all__ = [
    "Level",
    "AbstractNum",
    "Num",
    "Numbering",
    "ListCounters",
    "parse_numbering",
    "format_number",
    "EMPTY_NUMBERING",
]

_VAL = w_attr("val")
_PLACEHOLDER = re.compile(r"%([1-9])")

# Bullets written in symbol fonts' private-use area, as LibreOffice and Word display them.
_BULLET_MAP = {
    "\uf0b7": "\u2022",  # Symbol bullet
    "\uf0a7": "\u25aa",  # Wingdings small square
    "\uf0d8": "\u27a2",  # Wingdings arrowhead
    "\uf0fc": "\u2713",  # Wingdings check
    "\uf076": "\u2756",  # Wingdings diamond
    "\uf06e": "\u25a0",  # Wingdings black square
    "\uf06f": "\u25a1",
    "\uf0a8": "\u25fb",
    "\uf02d": "\u2013",
    "\uf0e0": "\u2192",
    "\uf0d7": "\u25c6",
    "\uf020": "",  # a space in the Symbol font: no visible bullet
}


@dataclass(frozen=True)
class Level:
    """One ``w:lvl``: how a level counts and what its label looks like."""

    ilvl: int
    start: int = 0
    num_fmt: str = "decimal"
    lvl_text: str | None = None
    restart: int | None = None
    is_lgl: bool = False
    p_style: str | None = None


@dataclass(frozen=True)
class AbstractNum:
    """One ``w:abstractNum``: up to nine levels, or a link to a numbering style."""

    abstract_id: str
    levels: Mapping[int, Level]
    num_style_link: str | None = None
    style_link: str | None = None


@dataclass(frozen=True)
class Num:
    """One ``w:num`` (a list instance): its abstract definition plus level overrides."""

    num_id: str
    abstract_id: str
    start_overrides: Mapping[int, int] = field(default_factory=dict)
    level_overrides: Mapping[int, Level] = field(default_factory=dict)


@dataclass(frozen=True)
class Numbering:
    """All numbering definitions of a package."""

    abstracts: Mapping[str, AbstractNum]
    nums: Mapping[str, Num]

    def resolve_abstract(self, num: Num, numbering_style_num=None) -> AbstractNum | None:
        """The abstract definition that really holds the levels (following ``numStyleLink``)."""
        absn = self.abstracts.get(num.abstract_id)
        hops = 0
        while absn is not None and absn.num_style_link and numbering_style_num and hops < 8:
            hops += 1
            target_num = self.nums.get(numbering_style_num(absn.num_style_link) or "")
            if target_num is None:
                break
            nxt = self.abstracts.get(target_num.abstract_id)
            if nxt is None or nxt is absn:
                break
            absn = nxt
        return absn

    def level(self, num: Num, absn: AbstractNum, ilvl: int) -> Level | None:
        return num.level_overrides.get(ilvl) or absn.levels.get(ilvl)


EMPTY_NUMBERING = Numbering(MappingProxyType({}), MappingProxyType({}))


@overload
def _int(val: str | None, default: int) -> int: ...
@overload
def _int(val: str | None, default: None = None) -> int | None: ...
def _int(val: str | None, default: int | None = None) -> int | None:
    try:
        return int(val) if val is not None else default
    except ValueError:
        return default


def _first(el, tag: str):
    """The child ``tag`` of ``el``, looking through ``mc:AlternateContent`` (its Fallback)."""
    hit = el.find(tag)
    if hit is not None:
        return hit
    for ac in el.iterchildren(qn("mc:AlternateContent")):
        fb = ac.find(qn("mc:Fallback"))
        if fb is not None and fb.find(tag) is not None:
            return fb.find(tag)
        for ch in ac.iterchildren(qn("mc:Choice")):
            if ch.find(tag) is not None:
                return ch.find(tag)
    return None


def _level(lvl) -> Level | None:
    ilvl = _int(lvl.get(w_attr("ilvl")))
    if ilvl is None or not 0 <= ilvl <= 8:
        return None
    start = _first(lvl, qn("w:start"))
    fmt = _first(lvl, qn("w:numFmt"))
    text = _first(lvl, qn("w:lvlText"))
    restart = lvl.find(qn("w:lvlRestart"))
    is_lgl = lvl.find(qn("w:isLgl"))
    p_style = lvl.find(qn("w:pStyle"))
    return Level(
        ilvl=ilvl,
        start=_int(start.get(_VAL), 0) if start is not None else 0,
        num_fmt=(fmt.get(_VAL) or "decimal") if fmt is not None else "decimal",
        lvl_text=text.get(_VAL) if text is not None else None,
        restart=_int(restart.get(_VAL)) if restart is not None else None,
        is_lgl=is_lgl is not None and is_lgl.get(_VAL, "1").lower() in ("1", "true", "on"),
        p_style=p_style.get(_VAL) if p_style is not None else None,
    )


def parse_numbering(root) -> Numbering:
    """Read a ``w:numbering`` element (already parsed by the hardened parser)."""
    abstracts: dict[str, AbstractNum] = {}
    nums: dict[str, Num] = {}
    for an in root.iterchildren(qn("w:abstractNum")):
        aid = an.get(w_attr("abstractNumId"))
        if aid is None:
            continue
        levels: dict[int, Level] = {}
        for lvl in an.iterchildren(qn("w:lvl")):
            lv = _level(lvl)
            if lv is not None:
                levels[lv.ilvl] = lv
        nsl = an.find(qn("w:numStyleLink"))
        sl = an.find(qn("w:styleLink"))
        abstracts[aid] = AbstractNum(
            abstract_id=aid,
            levels=MappingProxyType(levels),
            num_style_link=nsl.get(_VAL) if nsl is not None else None,
            style_link=sl.get(_VAL) if sl is not None else None,
        )
    for num in root.iterchildren(qn("w:num")):
        nid = num.get(w_attr("numId"))
        ref = num.find(qn("w:abstractNumId"))
        if nid is None or ref is None:
            continue
        starts: dict[int, int] = {}
        levels = {}
        for ov in num.iterchildren(qn("w:lvlOverride")):
            ilvl = _int(ov.get(w_attr("ilvl")))
            if ilvl is None or not 0 <= ilvl <= 8:
                continue
            so = ov.find(qn("w:startOverride"))
            if so is not None:
                starts[ilvl] = _int(so.get(_VAL), 0)
            lvl = ov.find(qn("w:lvl"))
            if lvl is not None:
                lv = _level(lvl)
                if lv is not None:
                    levels[ilvl] = Level(**{**lv.__dict__, "ilvl": ilvl})
        nums[nid] = Num(nid, ref.get(_VAL) or "", MappingProxyType(starts), MappingProxyType(levels))
    return Numbering(MappingProxyType(abstracts), MappingProxyType(nums))


# --- number formats ---------------------------------------------------------------------------

_ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_ORD_WORDS = {"one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth", "nine": "ninth", "twelve": "twelfth"}
_CHICAGO = "*\u2020\u2021\u00a7"


def _cardinal(n: int) -> str:
    if n < 20:
        return _ONES[n] if n >= 0 else str(n)
    if n < 100:
        t, o = divmod(n, 10)
        return _TENS[t] + ("-" + _ONES[o] if o else "")
    if n < 1000:
        h, r = divmod(n, 100)
        return _ONES[h] + " hundred" + (" " + _cardinal(r) if r else "")
    return str(n)


def _ordinal_text(n: int) -> str:
    words = _cardinal(n)
    head, sep, last = words.rpartition("-") if "-" in words else words.rpartition(" ")
    if last in _ORD_WORDS:
        last = _ORD_WORDS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return head + sep + last


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_CJK_DIGITS = "〇一二三四五六七八九"


def _cjk_counting(n: int) -> str:
    """Chinese counting numerals as Word writes them: 1 一, 10 十, 11 十一, 21 二十一, 105 一百零五."""
    if n <= 0 or n >= 10000:
        return str(n)
    out = []
    units = ((1000, "千"), (100, "百"), (10, "十"))
    rest = n
    zero = False
    for value, name in units:
        d, rest = divmod(rest, value)
        if d:
            if zero:
                out.append("零")
                zero = False
            if not (value == 10 and d == 1 and not out):
                out.append(_CJK_DIGITS[d])
            out.append(name)
        elif out:
            zero = True
    if rest:
        if zero:
            out.append("零")
        out.append(_CJK_DIGITS[rest])
    return "".join(out)


def format_number(n: int, fmt: str) -> str:
    """A counter value in a ``w:numFmt``: ``format_number(4, "lowerRoman") == "iv"``.

    >>> [format_number(28, f) for f in ("upperLetter", "decimalZero", "ordinal", "none")]
    ['BB', '28', '28th', '']
    >>> format_number(3, "cardinalText"), format_number(3, "ordinalText")
    ('Three', 'Third')
    >>> [format_number(n, "chineseCountingThousand") for n in (6, 10, 12, 20, 105)]
    ['六', '十', '十二', '二十', '一百零五']
    """
    if fmt in ("decimal", "arabicAbjad", "numberInDash"):
        return str(n) if fmt != "numberInDash" else f"- {n} -"
    if fmt == "lowerRoman":
        return roman(n)
    if fmt == "upperRoman":
        return roman(n).upper()
    if fmt == "lowerLetter":
        return repeated_letters(n)
    if fmt == "upperLetter":
        return repeated_letters(n).upper()
    if fmt == "decimalZero":
        return f"{n:02d}" if 0 <= n < 10 else str(n)
    if fmt == "ordinal":
        return _ordinal(n)
    if fmt == "cardinalText":
        return _cardinal(n).capitalize()
    if fmt == "ordinalText":
        return _ordinal_text(n).capitalize()
    if fmt in ("none", "bullet"):
        return ""
    if fmt == "decimalEnclosedParen":
        return f"({n})"
    if fmt == "decimalEnclosedFullstop":
        return f"{n}."
    if fmt == "decimalEnclosedCircle" and 1 <= n <= 20:
        return chr(0x2460 + n - 1)
    if fmt == "chicago" and n > 0:
        return repeated(_CHICAGO, n)
    if fmt == "hex":
        return f"{n:X}"
    if fmt == "ideographTraditional" and 1 <= n <= 10:
        return "甲乙丙丁戊己庚辛壬癸"[n - 1]
    if fmt in ("chineseCounting", "chineseCountingThousand", "japaneseCounting", "taiwaneseCounting"):
        return _cjk_counting(n)
    if fmt in ("ideographDigital", "taiwaneseDigital", "chineseLegalSimplified"):
        return "".join(_CJK_DIGITS[int(d)] for d in str(n)) if n >= 0 else str(n)
    return str(n)


# --- counters ---------------------------------------------------------------------------------


class ListCounters:
    """Word's list counters, advanced paragraph by paragraph in document order."""

    def __init__(self, numbering: Numbering, numbering_style_num=None) -> None:
        self._numbering = numbering
        self._style_num = numbering_style_num
        self._counters: dict[str, list[int | None]] = {}
        self._seen_nums: set[str] = set()

    def level_for(self, num_id: str, ilvl: int | None, styles: tuple[str, ...] = ()) -> tuple[Num, AbstractNum, int] | None:
        """The list instance, abstract definition and level of a numbered paragraph, or None.

        A paragraph numbered through its style without ``w:ilvl`` takes the level whose
        ``w:pStyle`` names that style or the nearest style it is based on (``styles`` is the
        chain, nearest first): how heading styles link to outline numbering.
        """
        num = self._numbering.nums.get(num_id)
        if num is None:
            return None
        absn = self._numbering.resolve_abstract(num, self._style_num)
        if absn is None:
            return None
        if ilvl is None:
            ilvl = 0
            by_style = {lv.p_style: lv.ilvl for lv in absn.levels.values() if lv.p_style}
            for sid in styles:
                if sid in by_style:
                    ilvl = by_style[sid]
                    break
        if not 0 <= ilvl <= 8:
            ilvl = max(0, min(ilvl, 8))
        return num, absn, ilvl

    def next_label(self, num_id: str, ilvl: int | None, styles: tuple[str, ...] = ()) -> tuple[str, str, int] | None:
        """Advance the counters for one paragraph and return ``(label, number, level)``, or None.

        ``label`` is the rendered ``w:lvlText`` ("1.2.", "a)", "•"; it may be empty);
        ``number`` only its numbers, joined by dots ("1.2"; empty for bullets).
        """
        found = self.level_for(num_id, ilvl, styles)
        if found is None:
            return None
        num, absn, ilvl = found
        lvl = self._numbering.level(num, absn, ilvl)
        if lvl is None:
            return None
        key = absn.abstract_id
        counters = self._counters.get(key)
        if counters is None:
            counters = self._counters[key] = [None] * 9
        if num.num_id not in self._seen_nums:
            self._seen_nums.add(num.num_id)
            for lv_i in num.start_overrides:
                counters[lv_i] = None
        cur = counters[ilvl]
        counters[ilvl] = self._start(num, absn, ilvl) if cur is None else cur + 1
        for deeper in range(ilvl + 1, 9):
            dl = self._numbering.level(num, absn, deeper)
            bound = deeper if dl is None or dl.restart is None or dl.restart > deeper else dl.restart
            if ilvl < bound:
                counters[deeper] = None
        label, numbers = self._render(num, absn, lvl, counters)
        return label, ".".join(n for n in numbers if n), ilvl

    def _start(self, num: Num, absn: AbstractNum, ilvl: int) -> int:
        if ilvl in num.start_overrides:
            return num.start_overrides[ilvl]
        lv = self._numbering.level(num, absn, ilvl)
        return lv.start if lv is not None else 0

    def _render(self, num: Num, absn: AbstractNum, lvl: Level, counters: list[int | None]) -> tuple[str, list[str]]:
        text = lvl.lvl_text
        numbers: list[str] = []
        if text is None:
            return "", numbers
        if lvl.num_fmt == "bullet":
            return "".join(_BULLET_MAP.get(ch, ch) for ch in text), numbers

        def sub(m: re.Match) -> str:
            i = int(m.group(1)) - 1
            lv = self._numbering.level(num, absn, i)
            value = counters[i]
            if value is None:
                value = self._start(num, absn, i)
            fmt = lv.num_fmt if lv is not None else "decimal"
            if lvl.is_lgl and fmt != "none":
                fmt = "decimal"
            shown = format_number(value, fmt)
            numbers.append(shown)
            return shown

        return _PLACEHOLDER.sub(sub, text), numbers
