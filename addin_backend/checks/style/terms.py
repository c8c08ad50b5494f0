"""The style sheet's own rules: preferred terms (``[terms]``), banned terms (``[banned]``) and
preferred abbreviations (``[abbreviations.preferred]``). Each finding names the rule that fired
(``house.toml terms."web site"``).

Terms and banned terms match whole words in any case, with their inflections ("web sites",
"utilized", "utilizing"); the replacement follows the case of each occurrence. Abbreviations
match as written (case matters: "US" is not "us"). A term inside a quoted definition is still
reported: renaming a defined term renames its definition too (the fix goes through the edit
pipeline, which carries the rename to the uses).
"""
from __future__ import annotations

import re
from typing import Iterator

from adapters.model import Unit

from ...budget import check as check_budget
from ...edits.terms import recase
from ...findings import Finding, Place
from .prose import Prose, make_finding
from .sheet import StyleSheet

__all__ = ["sheet_findings", "term_pattern", "inflect"]

_SUFFIXES = ("s", "es", "'s", "\u2019s", "d", "ed", "ing")


def inflect(word: str, suffix: str) -> str:
    """``word`` with an inflection: ``inflect("use", "ing") == "using"``.

    >>> inflect("use", "ing"), inflect("use", "ed"), inflect("website", "s"), inflect("box", "es")
    ('using', 'used', 'websites', 'boxes')
    """
    if not suffix:
        return word
    if suffix in ("'s", "\u2019s"):
        return word + suffix
    if word.endswith("e") and suffix in ("ed", "ing", "es"):
        return word[:-1] + suffix if suffix != "es" else word + "s"
    if suffix == "d" and not word.endswith("e"):
        return word + "ed"
    if suffix == "es" and not word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "s"
    return word + suffix


def term_pattern(term: str, case_sensitive: bool = False) -> re.Pattern[str]:
    """A whole-word pattern of ``term`` (a run of spaces as any run of spaces, hyphens as any
    hyphen) with an optional inflection in the group ``suffix``.

    A term is a client's text: it is escaped, and a run of white space in it becomes one
    ``[ \\u00a0]+`` between literals, so matching stays linear in the text (twelve spaces are
    not twelve nested repeats).

    >>> term_pattern("web   site").pattern.count("+")
    1
    >>> bool(term_pattern("a            b").search("a" + "\\u00a0" * 60 + "c"))
    False
    """
    term = term.strip()
    parts: list[str] = []
    for ch in term:
        if ch.isspace():
            if not parts or parts[-1] != _SPACES:
                parts.append(_SPACES)
        elif ch in "-\u2010\u2011":
            parts.append(r"[-\u2010\u2011]")
        else:
            parts.append(re.escape(ch))
    body = "".join(parts)
    if term.endswith("e"):
        body = body[:-1] + "(?:e(?P<suffix>s|'s|\u2019s|d)?|(?P<suffix2>ing|ed))"
    else:
        body += "(?P<suffix>s|es|'s|\u2019s|ed|ing)?"
    edge_l = r"(?<![\w\-\u2010\u2011.])" if term[:1].isalnum() else ""
    edge_r = r"(?![\w\-\u2010\u2011])" if term[-1:].isalnum() else r"(?!\w)"
    return re.compile(edge_l + body + edge_r, 0 if case_sensitive else re.I)


_SPACES = r"[ \u00a0]+"
_WORD = re.compile(r"\w+")


class _Index:
    """The words of the prose units (lower case) and the units each occurs in, built once per
    check, so that a sheet of thousands of terms looks each one up instead of scanning every
    unit's text per term."""

    def __init__(self, units: list[Unit]) -> None:
        self.units = units
        where: dict[str, list[int]] = {}
        for i, u in enumerate(units):
            check_budget()
            for w in set(_WORD.findall(u.text.lower())):
                where.setdefault(w, []).append(i)
        self.where = where

    def candidates(self, term: str) -> list[Unit]:
        """The units that may hold ``term``: those with its first word (a whole word: the term's
        first word, or when the term is one word, that word or one of its inflections).

        >>> from adapters.model import Unit
        >>> ix = _Index([Unit("a", "paragraph", "We utilized it.", order=0), Unit("b", "paragraph", "No.", order=1)])
        >>> [u.id for u in ix.candidates("utilize")], [u.id for u in ix.candidates("web site")]
        (['a'], [])
        """
        term = term.strip()
        m = _WORD.search(term.lower())
        if m is None or (m.start() == 0 and not term[:1].isalnum()):
            return self.units  # no word to look up, or one that may start inside a word: every unit
        first = m.group()
        if m.end() < len(term):
            return [self.units[i] for i in self.where.get(first, ())]
        # one word: it or an inflection of it, as term_pattern allows ("'s" is no part of a word)
        forms = {first, *(inflect(first, sfx) for sfx in ("s", "es", "d", "ed", "ing"))}
        if first.endswith("e"):
            forms |= {first[:-1] + "ing", first[:-1] + "ed"}
        else:
            forms |= {first + "es", first + "ed", first + "ing"}
        hits: set[int] = set()
        for form in forms:
            hits.update(self.where.get(form, ()))
        return [self.units[i] for i in sorted(hits)]


def _matches(index: _Index, term: str, case_sensitive: bool = False) -> Iterator[tuple[Unit, re.Match[str], str]]:
    check_budget()  # per term: a sheet of 20,000 terms ran a check past 600 s between two checks
    units = index.candidates(term)
    if not units:
        return
    pat = term_pattern(term, case_sensitive)
    for u in units:
        check_budget()  # and per unit the term is searched in
        for m in pat.finditer(u.text):
            suffix = m.groupdict().get("suffix") or m.groupdict().get("suffix2") or ""
            yield u, m, suffix


def _replacement(found: str, suffix: str, term: str, new: str) -> str:
    stem = found[: len(found) - len(suffix)] if suffix else found
    if term.endswith("e") and suffix in ("ing", "ed") and not stem.lower().endswith("e"):
        stem += "e"
    return inflect(recase(stem, term, new), suffix.lower() if suffix else "")


def search_cost(index: _Index, sheet: StyleSheet) -> int:
    """How many units the sheet's entries will be searched in: each term, banned term and
    preferred abbreviation in the units its first word's index entry gives (:meth:`_Index.candidates`).
    A sheet whose thousands of terms all start with a common word costs thousands of scans of most
    units, however short the sheet: this is what the check costs, counted before any search."""
    entries = [*sheet.terms, *(b.term for b in sheet.banned), *sheet.preferred_abbreviations]
    return sum(len(index.candidates(t)) for t in entries)


def sheet_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """The style sheet's terms, banned terms and preferred abbreviations.

    :raise WorkTooLargeError: ``413 too_large``: :func:`search_cost` is past
        ``LEDGER_MAX_CHECK_COST`` (issue 33: a sheet within its caps ran a check past 600 s).
    """
    from ...budget import check_cost

    out: list[Finding] = []
    index = _Index(p.units)
    entries = len(sheet.terms) + len(sheet.banned) + len(sheet.preferred_abbreviations)
    check_cost("check", search_cost(index, sheet), "checking this document with its style sheet",
               "use a style sheet with fewer terms (or terms that start with rarer words), or check a shorter "
               "document", units=len(p.units), style_sheet_entries=entries)
    for old, new in sheet.terms.items():
        places = [Place(u.id, m.start(), m.end(), m.group(), _replacement(m.group(), sfx, old, new))
                  for u, m, sfx in _matches(index, old)]
        places = [x for x in places if x.text != x.replacement]
        if places:
            out.append(make_finding("style_term", "warning", places,
                                    f"the house style writes '{new}', not '{old}' ({len(places)} time(s))",
                                    rule=sheet.rule(f"terms.{old}")))
    for b in sheet.banned:
        places = [Place(u.id, m.start(), m.end(), m.group(),
                        _replacement(m.group(), sfx, b.term, b.replacement) if b.replacement is not None else None)
                  for u, m, sfx in _matches(index, b.term)]
        if places:
            out.append(make_finding("banned_term", "warning", places,
                                    f"'{places[0].text}' is banned by the house style ({len(places)} time(s)): {b.message}",
                                    rule=sheet.rule(f"banned.{b.term}")))
    for old, new in sheet.preferred_abbreviations.items():
        places = [Place(u.id, m.start(), m.end(), m.group(), new + (m.group()[len(old):] if m.group() != old else ""))
                  for u, m, _sfx in _matches(index, old, case_sensitive=True)]
        places = [x for x in places if x.text != x.replacement]
        if places:
            out.append(make_finding("style_abbreviation", "warning", places,
                                    f"the house style writes the abbreviation '{new}', not '{old}' ({len(places)} time(s))",
                                    rule=sheet.rule(f"abbreviations.preferred.{old}")))
    return out
