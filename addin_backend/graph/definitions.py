"""Definitions (terms, acronyms, notation) and the units that use them: DEPENDS edges.

A unit that uses a defined term depends on the unit that defines it (the nearest definition
before it). Detection is by pattern, with no model: contract style (``"Term" means``,
``(hereinafter the "Agreement")``, ``(the "Supplier")``), paper style (``we define X as``,
``X is defined as``, ``X, denoted Y``, ``let Y denote``) and Schwartz-Hearst acronyms
(``Service Level Agreement (SLA)``). Definitions found in a text are cached per text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from adapters.model import Document, Unit

from ..nlp import FACTS
from .text import sentences, word_set

__all__ = [
    "Definition",
    "Usage",
    "find_definitions",
    "definition_registry",
    "find_usages",
    "usage_pattern",
]


@dataclass(frozen=True)
class Definition:
    """A defined term in a unit's text; ``text[start:end]`` (``span``) is the defining phrase."""

    term: str
    kind: str  # "term" | "acronym" | "notation"
    start: int
    end: int
    span: str
    case_sensitive: bool
    score: float

    @property
    def key(self) -> str:
        return self.term if self.case_sensitive else self.term.lower()


@dataclass(frozen=True)
class Usage:
    """A later unit's use of a term defined in ``definer``."""

    source: str
    definer: str
    used: str
    start: int
    end: int
    definition: Definition


_Q_OPEN = "\"\u201c\u2018'"
_Q_CLOSE = "\"\u201d\u2019'"
_TERM_Q = rf"[{_Q_OPEN}](?P<term>[A-Za-z][^{_Q_CLOSE}\n]{{0,58}}?)[{_Q_CLOSE}]"
_MEANS = re.compile(
    rf"{_TERM_Q}\s*(?:,\s*)?(?:shall\s+)?(?:means?|has\s+the\s+meaning|shall\s+have\s+the\s+meaning|"
    rf"refers?\s+to|is\s+defined\s+as|includes?|denotes?)\b"
)
_HEREINAFTER = re.compile(
    rf"\b(?:hereinafter|hereafter)\b,?(?:\s+(?:referred\s+to\s+as|called|known\s+as|the))*\s*,?\s*"
    rf"(?:the\s+)?{_TERM_Q}",
    re.I,
)
_REFERRED_AS = re.compile(rf"\b(?:referred\s+to|known)\s+as\s+(?:the\s+)?{_TERM_Q}", re.I)
_PAREN = re.compile(r"\((?P<body>[^()]{1,200})\)")
_QUOTED = re.compile(rf"[{_Q_OPEN}]([A-Za-z][^{_Q_CLOSE}\n]{{0,58}}?)[{_Q_CLOSE}]")
_PAREN_FILLER = re.compile(
    r"^(?:\s|,|;|and|or|the|a|an|each|collectively|together|individually|jointly|hereinafter|hereafter|"
    r"referred|to|as|called|known|severally|respectively|any|such|its|their)*$",
    re.I,
)
_WE_DEFINE = re.compile(
    r"\b(?:[Ww]e\s+(?:formally\s+|now\s+|further\s+|first\s+|also\s+)?define|^\s*Define)\s+"
    r"(?P<term>(?:the\s+|a\s+|an\s+|our\s+)?[\w\-]+(?:\s+[\w\-]+){0,5}?)\s+(?:as|to\s+be)\b"
)
_IS_DEFINED = re.compile(r"\s*,?\s+(?:is|are)\s+(?:formally\s+)?defined\s+(?:as|to\s+be|by)\b|,\s+defined\s+as\b")
_DENOTED = re.compile(
    r",?\s+(?:denoted(?:\s+by|\s+as)?|written\s+as)\s+(?:the\s+symbol\s+)?"
    r"(?P<sym>\$[^$]{1,20}\$|[^\s,.;:()]{1,12}(?:\([^\s()]{1,8}\))?)"
)
_LET = re.compile(
    r"\b[Ll]et\s+(?P<sym>\$[^$]{1,20}\$|[^\s,.;:]{1,12}?)\s+(?:be|denote|represent)\b"
)
_THE_TERM = re.compile(
    rf"\b[Tt]he\s+term\s+(?:{_TERM_Q}|(?P<bare>[\w\-]+(?:\s+[\w\-]+){{0,3}}?))\s+(?:refers\s+to|means|denotes|describes|is\s+used\s+for)\b"
)

_STOP_BACK = frozenset(
    """is are was were be been being that which who whom whose where when while and or but nor then
    here there this these those it its we our they their them he she his her in on for with by to
    from at as if so thus hence therefore also now first second finally formally moreover however
    further furthermore let where such not no can may will shall must should would could do does
    did has have had above below into onto upon than each every all any some""".split()
)
_DETERMINERS = ("the ", "a ", "an ", "our ", "each ", "every ", "any ", "this ", "that ")
_GENERIC = frozenset("it this that they these those which what here there one ones".split())
_SYMBOL = re.compile(r"^(?:\$.+\$|[A-Za-z](?:_\w+|\^\w+|\d+)?|[\u0370-\u03ff]\w*|\w+\(\w+\)|[A-Za-z]{1,2}\d*)$")
_ROMAN = re.compile(r"^(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$", re.I)


_ARTICLE_AFTER = re.compile(r"(?:a|an|A|An)\s+[a-z]")


def _symbol_ok(sym: str) -> bool:
    """Whether the word after "denoted" is a symbol (``n``, ``λ``, ``T_max``, ``$x_i$``, ``RTT``)."""
    if sym.startswith("$") or sym.lower() in _STOP_BACK:
        return sym.startswith("$")
    return bool(_SYMBOL.match(sym)) or (sym.isupper() and len(sym) <= 6) or not sym.isascii()


def _strip_det(term: str) -> str:
    t = term.strip()
    low = t.lower()
    for d in _DETERMINERS:
        if low.startswith(d):
            return t[len(d) :].strip()
    return t


def _np_before(text: str, end: int, floor: int) -> tuple[str, int] | None:
    """The noun phrase that ends at ``end`` (walking back over words, at most five)."""
    words = list(re.finditer(r"[^\s,;:()\[\]]+", text[floor:end]))
    picked: list[re.Match[str]] = []
    for w in reversed(words):
        tok = w.group(0)
        low = tok.lower().strip(".")
        if text[floor + w.end() : end].strip(" ") and not picked:
            break  # punctuation between the phrase and the cue
        gap = text[floor + w.end() : floor + picked[-1].start()] if picked else ""
        if "," in gap or ";" in gap or ":" in gap:
            break
        if low in _STOP_BACK and not (low == "of" and picked):
            break
        if low == "of" and not picked:
            break
        picked.append(w)
        if len(picked) >= 6:
            break
    if not picked:
        return None
    if picked[-1].group(0).lower() == "of":
        picked.pop()
    if not picked:
        return None
    start = floor + picked[-1].start()
    return text[start:end], start


def _term_ok(term: str) -> bool:
    low = term.lower()
    if not term or low in _GENERIC or len(term) > 60 or len(term.split()) > 6:
        return False
    return any(c.isalpha() for c in term)


def _sh_long_form(short: str, before: str) -> str | None:
    """Schwartz-Hearst: the shortest tail of ``before`` whose letters spell ``short``."""
    s_i = len(short) - 1
    l_i = len(before) - 1
    while s_i >= 0:
        c = short[s_i].lower()
        if not c.isalnum():
            s_i -= 1
            continue
        while l_i >= 0 and (before[l_i].lower() != c or (s_i == 0 and l_i > 0 and before[l_i - 1].isalnum())):
            l_i -= 1
        if l_i < 0:
            return None
        l_i -= 1
        s_i -= 1
    start = before.rfind(" ", 0, l_i + 1) + 1
    long = before[start:].strip()
    return long or None


def _acronym_ok(short: str) -> bool:
    if not 2 <= len(short) <= 10 or " " in short.strip():
        return False
    if not short[0].isalnum() or _ROMAN.match(short) or short.isdigit() or re.fullmatch(r"\d{4}[a-z]?", short):
        return False
    return sum(c.isupper() for c in short) >= 2 or (short[0].isupper() and len(short) <= 4 and any(c.isupper() for c in short[1:]))


def _acronyms(text: str) -> list[Definition]:
    out: list[Definition] = []
    for m in _PAREN.finditer(text):
        body = m.group("body").strip()
        short = body.strip(_Q_OPEN + _Q_CLOSE).strip()
        if _acronym_ok(short):
            head = text[max(0, m.start() - 120) : m.start()]
            head = re.split(r"[.;:!?()\[\]]\s", head)[-1].rstrip()
            max_words = min(len(short) + 5, len(short) * 2)
            words = head.split()[-max_words:]
            long = _sh_long_form(short, " ".join(words))
            if long and len(long) > len(short) and short.lower() not in long.lower().split() and long[0].lower() == short[0].lower():
                where = list(re.finditer(r"\s+".join(map(re.escape, long.split())), text[: m.start()]))
                start = where[-1].start() if where else m.start()
                if short.endswith("s") and short[-2:-1].isupper():
                    short = short[:-1]  # "LLMs": the term is "LLM"; plurals match anyway
                out.append(Definition(short, "acronym", start, m.end(), text[start : m.end()], True, 0.9))
            continue
        # reverse form "SLA (Service Level Agreement)"
        prev = re.search(r"(?<![\w-])([A-Z][A-Za-z0-9&\-]{1,9})\s*$", text[: m.start()])
        if prev and _acronym_ok(prev.group(1)) and len(body.split()) >= 2 and not _QUOTED.search(body):
            long = _sh_long_form(prev.group(1), body)
            if long and long == body and body[0].lower() == prev.group(1)[0].lower():
                start = prev.start(1)
                out.append(Definition(prev.group(1), "acronym", start, m.end(), text[start : m.end()], True, 0.9))
    return out


def _contract_terms(text: str) -> list[Definition]:
    out: list[Definition] = []
    for m in _MEANS.finditer(text):
        out.append(Definition(m.group("term").strip(), "term", m.start(), m.end(), m.group(0), True, 0.95))
    for rx in (_HEREINAFTER, _REFERRED_AS):
        for m in rx.finditer(text):
            end = m.end()
            out.append(Definition(m.group("term").strip(), "term", m.start(), end, text[m.start() : end], True, 0.95))
    for m in _PAREN.finditer(text):
        body = m.group("body")
        quoted = list(_QUOTED.finditer(body))
        if not quoted or not _PAREN_FILLER.match(_QUOTED.sub(" ", body)):
            continue
        for q in quoted:
            term = q.group(1).strip()
            if _acronym_ok(term):
                continue  # ("SLA") is an acronym, found by _acronyms
            out.append(Definition(term, "term", m.start(), m.end(), m.group(0), True, 0.95))
    return out


def _paper_terms(text: str) -> list[Definition]:
    out: list[Definition] = []
    for m in _WE_DEFINE.finditer(text):
        term = _strip_det(m.group("term"))
        out.append(Definition(term, "term", m.start(), m.end(), m.group(0).strip(), False, 0.9))
    cues = ("defined" in text or "denoted" in text or "written" in text)
    for a, b in sentences(text) if cues else ():
        sent = text[a:b]
        for m in _IS_DEFINED.finditer(sent):
            got = _np_before(text, a + m.start(), a)
            if not got:
                continue
            phrase, start = got
            term = _strip_det(phrase)
            parts = term.split()
            if len(parts) > 1 and _SYMBOL.match(parts[-1]) and not parts[-1].islower():
                out.append(Definition(parts[-1], "notation", start, a + m.end(), text[start : a + m.end()], True, 0.8))
                term = " ".join(parts[:-1])
            out.append(Definition(term, "term", start, a + m.end(), text[start : a + m.end()], False, 0.9))
        for m in _DENOTED.finditer(sent):
            sym = m.group("sym").strip("$")
            if not _symbol_ok(m.group("sym")) or _ARTICLE_AFTER.match(sent, m.start("sym")):
                continue  # "written for the engineer", "written as a radio series": words, not symbols
            got = _np_before(text, a + m.start(), a)
            start = got[1] if got else a + m.start()
            out.append(Definition(sym, "notation", start, a + m.end(), text[start : a + m.end()], True, 0.8))
    for m in _LET.finditer(text):
        out.append(Definition(m.group("sym").strip("$"), "notation", m.start(), m.end(), m.group(0), True, 0.8))
    for m in _THE_TERM.finditer(text):
        term = (m.group("term") or m.group("bare") or "").strip()
        out.append(Definition(term, "term", m.start(), m.end(), m.group(0), bool(m.group("term")), 0.9))
    return out


def _scan(text: str) -> tuple[Definition, ...]:
    found = _contract_terms(text) + _acronyms(text) + _paper_terms(text)
    seen: set[str] = set()
    out = []
    for d in sorted(found, key=lambda d: (d.start, -d.score)):
        if not _term_ok(d.term) or (d.kind != "notation" and len(d.term) < 2) or d.key in seen:
            continue
        seen.add(d.key)
        out.append(d)
    return tuple(out)


def find_definitions(text: str) -> tuple[Definition, ...]:
    """The terms, acronyms and symbols that ``text`` defines (cached per text).

    >>> [(d.term, d.kind) for d in find_definitions('This Service Level Agreement (SLA) is made by '
    ...     'Acme Ltd (hereinafter the "Supplier").')]
    [('SLA', 'acronym'), ('Supplier', 'term')]
    >>> [(d.term, d.span) for d in find_definitions("The dependency graph is defined as a multigraph.")]
    [('dependency graph', 'The dependency graph is defined as')]
    """
    return FACTS.memo("definitions", text, _scan)


# --- usages ----------------------------------------------------------------------------------

_MATH_NEAR = set("=<>+-*/^_()[]{}|\u2264\u2265\u2208\u2211\u00b7\u00d7\u2212,")


@lru_cache(maxsize=8192)
def usage_pattern(term: str, kind: str, case_sensitive: bool) -> re.Pattern[str]:
    """How a later unit's use of a term is recognised (plural forms included)."""
    words = [re.escape(w) for w in term.split()]
    if kind == "notation":
        return re.compile(rf"(?<![\w]){re.escape(term)}(?![\w])")
    if words:
        last = words[-1]
        words[-1] = rf"{last}(?:s|es|'s|\u2019s)?" if kind == "acronym" or case_sensitive else rf"{last}(?:s|es)?"
    body = r"\s+".join(words)
    flags = 0 if case_sensitive else re.I
    return re.compile(rf"(?<![\w\-]){body}(?![\w\-])", flags)


def _probe(term: str) -> str | None:
    words = re.findall(r"[A-Za-z][A-Za-z\-']*", term)
    return max(words, key=len).lower() if words else None


_NAME_OK_BEFORE = frozenset(
    "the this that these those such each any a an our its their every all no said under in of by for "
    "with to from upon on at as and or".split()
)


def _inside_name(text: str, start: int, end: int) -> bool:
    """Whether a capitalised term is part of a longer name ("Service Level Agreement")."""
    prev = re.search(r"([A-Za-z][\w\-]*)\s+$", text[:start])
    if prev and prev.group(1)[0].isupper() and prev.group(1).lower() not in _NAME_OK_BEFORE:
        return True
    nxt = re.match(r"\s+([A-Z][\w\-]*)", text[end:])
    return bool(nxt and nxt.group(1).lower() not in _NAME_OK_BEFORE)


def _math_context(text: str, start: int, end: int) -> bool:
    left = text[max(0, start - 2) : start]
    right = text[end : end + 2]
    return any(c in _MATH_NEAR for c in left + right)


#: Headings and titles name topics; they do not need a term's definition to be read.
_NOT_USERS = ("section", "title")


def definition_registry(units: Iterable[Unit]) -> dict[str, list[tuple[int, str, Definition]]]:
    """Term key -> ``(order, unit id, definition)`` of every unit defining it, in order."""
    reg: dict[str, list[tuple[int, str, Definition]]] = {}
    for u in units:
        for d in find_definitions(u.text):
            reg.setdefault(d.key, []).append((u.order, u.id, d))
    for lst in reg.values():
        lst.sort(key=lambda x: (x[0], x[1]))
    return reg


def find_usages(
    doc: Document,
    registry: dict[str, list[tuple[int, str, Definition]]],
    units: Iterable[Unit] | None = None,
    keys: Iterable[str] | None = None,
) -> list[Usage]:
    """Uses of registered terms in ``units`` (default all), each tied to the nearest earlier definer."""
    todo = [u for u in (units if units is not None else doc.units) if u.kind not in _NOT_USERS]
    wanted = [k for k in (list(keys) if keys is not None else list(registry)) if k in registry]
    rank = {k: i for i, k in enumerate(wanted)}
    # a term is looked for only in units holding its longest word (or a plural of it)
    always: list[str] = []
    by_word: dict[str, list[str]] = {}
    for k in wanted:
        probe = _probe(registry[k][0][2].term)
        if probe is None:
            always.append(k)
            continue
        forms = {probe, probe + "s", probe + "es"} | ({probe[:-1]} if probe.endswith("s") else set())
        for f in forms:
            by_word.setdefault(f, []).append(k)
    out: list[Usage] = []
    for u in todo:
        if not u.text:
            continue
        own = {d.key: d for d in find_definitions(u.text)}
        hits = set(always)
        for w in word_set(u.text):
            hits.update(by_word.get(w, ()))
        for key in sorted(hits, key=rank.__getitem__):
            entries = registry[key]
            if entries[0][0] >= u.order:
                continue  # defined only later (or here)
            definer = None
            for order, uid, d in entries:
                if order < u.order:
                    definer = (uid, d)
                else:
                    break
            if definer is None:
                continue
            d = definer[1]
            pat = usage_pattern(d.term, d.kind, d.case_sensitive)
            mine = own.get(key)
            for m in pat.finditer(u.text):
                if mine and mine.start <= m.start() < mine.end:
                    continue
                if (d.kind == "notation" and len(d.term) == 1 and d.term.isascii()
                        and not _math_context(u.text, m.start(), m.end())):
                    # a Latin letter is also a word ("a", "I"); a Greek one in prose is the symbol
                    continue
                if d.kind == "term" and d.case_sensitive and d.term[:1].isupper() and _inside_name(u.text, m.start(), m.end()):
                    continue
                out.append(Usage(u.id, definer[0], m.group(0), m.start(), m.end(), d))
                break
    return out
