"""US against UK spelling: "behavior" / "behaviour", "center" / "centre", "-ize" / "-ise".

The variety comes from the style sheet (``spelling.variety``), else from the document's language
tag when it names a region (``en-US``, ``en-GB``, ``en-GB-oxendict``, ``en-AU``, ...), else from
the document's own majority. A tag yields to decisive text, as a template's default does: a
document tagged ``en-US`` whose every variant word is British is British (the finding says so).
UK spelling writes "-ise" or, in the Oxford style (``en-GB-oxendict``, and Canadian), "-ize";
in a UK document "-ise" and "-ize" are compared with each other, the majority deciding (a style
sheet's ``en-GB`` means "-ise").

The words are those of :mod:`.spelling_pairs` (SCOWL: each pair two real spellings of one word;
words both varieties share, such as "program", "license" or "meter", are never flagged). Only
English units are read; a capitalised word inside a sentence is part of a name ("Centre for
Cyber Security") and a word alone in quotes is a literal value (a status "cancelled"): both are
left alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from adapters import words as _words

from ...findings import Finding, Place
from ...language.detect import primary
from .prose import Prose, make_finding
from .sheet import StyleSheet

__all__ = ["spelling_findings", "variety_of_tag", "pairs"]

_US_REGIONS = frozenset({"us", "ph", "pr", "um", "vi", "as", "gu", "lr"})
_IZE_REGIONS = frozenset({"ca"})


@lru_cache(maxsize=1)
def pairs() -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
    """``(us -> (uk, category), uk -> (us, category))`` from :mod:`.spelling_pairs`."""
    from .spelling_pairs import PAIRS

    us: dict[str, tuple[str, str]] = {}
    uk: dict[str, tuple[str, str]] = {}
    for line in PAIRS.split("\n"):
        if line:
            a, b, cat = line.split()
            us.setdefault(a, (b, cat))
            uk.setdefault(b, (a, cat))
    return us, uk


def variety_of_tag(tag: str | None) -> str | None:
    """``"us"``, ``"uk"`` (-ise), ``"oxford"`` (UK with -ize) or ``None`` for a tag with no region.

    >>> [variety_of_tag(t) for t in ("en-US", "en-GB", "en-GB-oxendict", "en-CA", "en_AU", "en", "de-DE", None)]
    ['us', 'uk', 'oxford', 'oxford', 'uk', None, None, None]
    """
    if not tag or primary(tag) != "en":
        return None
    parts = [x.lower() for x in re.split(r"[-_]", tag)[1:]]
    if "oxendict" in parts:
        return "oxford"
    region = next((x for x in parts if len(x) == 2 and x.isalpha()), None)
    if region is None or tag.lower() == "any":
        return None
    if region in _US_REGIONS:
        return "us"
    return "oxford" if region in _IZE_REGIONS else "uk"


@dataclass
class _Seen:
    us: list[tuple[str, int, int, str]] = field(default_factory=list)  # unit, start, end, word (general)
    uk: list[tuple[str, int, int, str]] = field(default_factory=list)
    ize: list[tuple[str, int, int, str]] = field(default_factory=list)
    ise: list[tuple[str, int, int, str]] = field(default_factory=list)


_PART = re.compile(r"[^\W\d_]+")


def _name_word(text: str, start: int) -> bool:
    """A capitalised word that does not start a sentence: part of a name."""
    if not text[start].isupper():
        return False
    before = text[:start].rstrip()
    return bool(before) and before[-1] not in ".!?:\u2022\n\"'\u201c(" and not before.endswith("\t")


_QUOTES = "\"'\u201c\u201d\u2018\u2019`<>"


def _quoted_token(text: str, start: int, end: int) -> bool:
    """A word standing alone in quotes or angle brackets: a literal value ('a cause of "cancelled"')."""
    return start > 0 and end < len(text) and text[start - 1] in _QUOTES and text[end] in _QUOTES


def _collect(p: Prose) -> _Seen:
    us_map, uk_map = pairs()
    seen = _Seen()
    for u in p.units:
        if not p.english(u):
            continue
        text = u.text
        for m in _words.finditer(text):
            w = m.group()
            if not w[0].isalpha():
                continue
            for part in _PART.finditer(w):
                low = part.group().lower()
                if low not in us_map and low not in uk_map:
                    continue
                s, e = m.start() + part.start(), m.start() + part.end()
                if _name_word(text, s) or (part.group().isupper() and len(low) > 1) or _quoted_token(text, m.start(), m.end()):
                    continue
                where = (u.id, s, e, part.group())
                if low in us_map:
                    (seen.ize if us_map[low][1] == "ize" else seen.us).append(where)
                else:
                    (seen.ise if uk_map[low][1] == "ize" else seen.uk).append(where)
    return seen


def _case_like(model: str, word: str) -> str:
    if model.isupper():
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _group(kind_places: list[tuple[str, int, int, str]], target: dict[str, tuple[str, str]]) -> dict[str, list[Place]]:
    out: dict[str, list[Place]] = {}
    for uid, s, e, w in kind_places:
        repl = target[w.lower()][0]
        out.setdefault(w.lower(), []).append(Place(uid, s, e, w, _case_like(w, repl)))
    return out


def spelling_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Words of the other spelling variety than the document's, one finding per word."""
    if sheet.variety == "any" or "en" not in p.languages():
        return []
    seen = _collect(p)
    n_us, n_uk, n_ize, n_ise = len(seen.us), len(seen.uk), len(seen.ize), len(seen.ise)
    if not (n_us or n_uk or n_ize or n_ise):
        return []
    rule = sheet.rule("spelling.variety") if sheet.variety else None
    tag = str(p.doc.meta.get("language") or "")
    why = ""
    variety = variety_of_tag(sheet.variety) if sheet.variety else None
    if variety is None:
        tagged = variety_of_tag(tag)
        uk_all, us_all = n_uk + n_ise, n_us + n_ize
        if tagged == "us" and uk_all >= 5 and uk_all >= 2 * us_all:
            tagged, why = "uk", f" (the document is tagged {tag}, but its text is British throughout)"
        elif tagged in ("uk", "oxford") and n_us >= 5 and n_us >= 2 * n_uk:
            tagged, why = "us", f" (the document is tagged {tag}, but its text is American throughout)"
        variety = tagged
        if variety is not None and not why:
            why = f" (the document's language tag is {tag})"
    if variety is None:  # the document's majority
        if n_us + n_uk:
            variety = "us" if n_us > n_uk or (n_us == n_uk and n_ize >= n_ise) else "uk"
        else:
            variety = "us" if n_ize >= n_ise else "uk"
        why = " (the document's usual spelling)"
    if variety == "uk" and n_ize > n_ise and not sheet.variety:
        variety = "oxford"  # British with -ize: the Oxford spelling (a sheet says en-GB-oxendict for it)
    us_map, uk_map = pairs()
    wrong: dict[str, list[Place]] = {}
    if variety == "us":
        wrong.update(_group(seen.uk, uk_map))
        wrong.update(_group(seen.ise, uk_map))
    else:
        wrong.update(_group(seen.us, us_map))
        wrong.update(_group(seen.ise if variety == "oxford" else seen.ize, uk_map if variety == "oxford" else us_map))
    name = {"us": "US", "uk": "UK", "oxford": "UK (Oxford, -ize)"}[variety]
    counts = {"us": n_us + n_ize, "uk": n_uk + n_ise, "oxford": n_uk + n_ize}[variety]
    out = []
    for low, places in sorted(wrong.items()):
        other = places[0].replacement
        if sheet.variety:
            msg = f"'{places[0].text}' is not {name} spelling, which the style sheet asks for; write '{other}'"
        else:
            msg = (f"'{places[0].text}' ({len(places)}) is not {name} spelling, which this document uses "
                   f"({counts} word(s)){why}; write '{other}'")
        out.append(make_finding("spelling_variety", "warning", places, msg, rule=rule))
    return out
