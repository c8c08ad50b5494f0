"""Document-wide terminology checks: acronyms (undefined, defined twice, used before their
definition) and one term spelled several ways ("data set" / "dataset" / "data-set").

Acronym definitions are those the DEPENDS detector reads (Schwartz-Hearst "Service Level
Agreement (SLA)" and "SLA (Service Level Agreement)"), plus glossary lines ("SLA: Service Level
Agreement", "SLA - ...", a table row "SLA<tab>Service Level Agreement") whose words' initials
spell the acronym. An acronym is a token of 2-10 capitals and digits with at least two capitals
(a plural "s" allowed). Not reported as undefined: :data:`KNOWN_ACRONYMS` (abbreviations that
style guides let writers use without expansion, units of measure, RFC 2119 keywords), roman
numerals, and tokens in text written in capitals (a shouted heading is not an acronym list).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from adapters.model import Document, Unit

from .findings import Finding
from .graph.definitions import find_definitions
from .nlp import common_words

__all__ = ["KNOWN_ACRONYMS", "FUNCTION_WORDS", "acronym_findings", "variant_findings", "find_acronyms"]

#: Abbreviations readers know without an expansion (Chicago Manual 10.2 and most technical
#: style guides: "familiar to readers"), units and RFC 2119 keywords. Kept short on purpose:
#: domain abbreviations (SLA, WAL) must still be defined.
KNOWN_ACRONYMS = frozenset(
    """
    AI API ASCII CD CEO CFO CPU CSS CSV CTO DNA DNS DVD EU FAQ FTP GDP GPS GPU GUI HR HTML HTTP HTTPS ID
    IDE IP IT JPEG JPG JSON LAN LED MP3 NASA NATO OK OS PC PDF PHP PIN PNG RAM ROM SMS SQL SSH SSL TCP TLS
    TV UDP UI UK UN URL URI US USA USB UTC GMT UTF UX VPN WAN XML YAML ZIP ISO IEC IEEE ANSI ASTM NIST W3C
    AM PM BC AD CV DIY FYI NB PS PTO RSVP TBD TBA TODO NA VAT VS
    KB MB GB TB PB KW MW GW KWH MWH GWH KV MV HZ KHZ MHZ GHZ DB
    MUST SHALL SHOULD MAY NOT REQUIRED RECOMMENDED OPTIONAL NOTE WARNING CAUTION IMPORTANT
    """.split()
)

#: Words that never form a compound worth flagging ("in to" / "into", "may be" / "maybe", "set
#: up" / "setup" are different words, not variant spellings).
FUNCTION_WORDS = frozenset(
    """
    a an the this that these those some any every each no all both either neither one another other
    such what which who whom whose where when why how whatever however wherever
    i me my we us our you your he him his she her it its they them their
    am is are was were be been being do does did have has had can could may might must shall should will would
    and or but nor so yet if then than as of at by for from in into on onto off out over under up down
    to too with without within about above below after before between through during against among
    per via not never ever also just only very more most less least much many few here there now
    back away around along forward aside apart together
    """.split()
)

_ACRONYM = re.compile(r"(?<![\w\-&/.])(?P<core>[A-Z][A-Z0-9&]*[A-Z0-9])(?P<plural>s?)(?![\w\-])")
_ROMAN = re.compile(r"^(?=[MDCLXVI])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")
_GLOSSARY = re.compile(r"^\s*(?P<short>[A-Z][A-Za-z0-9&]{1,9})\s*(?::|=|\t|\u2013|\u2014|-{1,2}|\s+means\s)\s*(?P<long>[^\n]+)$")
_SMALL = frozenset("of and the for in on to a an by with from or".split())


def _is_acronym(core: str) -> bool:
    """2-10 characters, two capitals or more, not a roman numeral, not an identifier such as
    "RFC9110" or "ISO27001" (three digits or more)."""
    return (2 <= len(core) <= 10 and sum(c.isupper() for c in core) >= 2 and not _ROMAN.match(core)
            and sum(c.isdigit() for c in core) < 3)


def _emphasis(token: str, lower_words: set[str], common: frozenset[str]) -> bool:
    """A word in capitals rather than an acronym: a common English word of four letters or more
    ("ANYONE", "FIGURES"), or a word the document also writes in lower case ("ALL", "END")."""
    low = token.lower()
    if not low.isalpha():
        return False
    return low in lower_words or (len(low) >= 4 and (low in common or low.rstrip("s") in common))


def _shouting(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) / len(letters) > 0.6


def _initials_match(short: str, long: str) -> bool:
    words = [w for w in re.findall(r"[A-Za-z][\w\-]*", long)[: len(short) + 4]]
    letters = "".join(c for c in short if c.isalpha()).lower()
    initials = "".join(w[0].lower() for w in words if w.lower() not in _SMALL)
    parts = "".join(p[0].lower() for w in words if w.lower() not in _SMALL for p in w.split("-") if p)
    return initials.startswith(letters) or parts.startswith(letters)


def _expansion(span: str, short: str) -> str:
    """The long form out of a definition span: "Write-Ahead Log (WAL)" -> "Write-Ahead Log"."""
    if span.startswith(short):  # "SLA (Service Level Agreement)"
        inner = span[len(short):].strip()
        return inner.strip("()").strip()
    return span[: span.rfind("(")].strip() if "(" in span else span


def _norm(expansion: str) -> str:
    words = re.sub(r"[\-\u2010-\u2015]", " ", expansion.lower()).split()
    if words and words[-1].endswith("s") and not words[-1].endswith("ss"):
        words[-1] = words[-1][:-1]
    return " ".join(words)


@dataclass
class AcronymInfo:
    """Where one acronym is defined and used."""

    term: str
    definitions: list[tuple[int, str, str, int, int]] = field(default_factory=list)  # order, unit, long, start, end
    glossary: set[str] = field(default_factory=set)  # units whose definition is a glossary line
    uses: list[tuple[int, str, int, int]] = field(default_factory=list)  # order, unit, start, end


def find_acronyms(doc: Document) -> dict[str, AcronymInfo]:
    """Every acronym of ``doc`` with its definitions and uses, in document order."""
    out: dict[str, AcronymInfo] = {}
    units = [u for u in doc.units if u.text and u.meta.get("absent_in") != "accepted"]
    for u in units:
        for d in find_definitions(u.text):
            if d.kind == "acronym":
                out.setdefault(d.term, AcronymInfo(d.term)).definitions.append(
                    (u.order, u.id, _expansion(d.span, d.term), d.start, d.end))
        for line_start, line in _lines(u.text):
            m = _GLOSSARY.match(line)
            if m and _is_acronym(m.group("short")) and _initials_match(m.group("short"), m.group("long")):
                short = m.group("short")
                info = out.setdefault(short, AcronymInfo(short))
                if all(x[1] != u.id for x in info.definitions):
                    long = re.split(r"[.;(]", m.group("long"))[0].strip()
                    info.definitions.append((u.order, u.id, long, line_start + m.start("short"), line_start + m.end()))
                    info.glossary.add(u.id)
    lower_words = {w for u in units for w in re.findall(r"\b[a-z]{2,}\b", u.text)}
    common = common_words()
    for u in units:
        if _shouting(u.text):
            continue
        defined_here = [(s, e) for info in out.values() for o, uid, _, s, e in info.definitions if uid == u.id]
        for m in _ACRONYM.finditer(u.text):
            core = m.group("core")
            if not _is_acronym(core) or any(s <= m.start() < e for s, e in defined_here) or u.text[m.start() - 1 : m.start()] == "[":
                continue
            if not (core in out and out[core].definitions) and _emphasis(core + m.group("plural"), lower_words, common):
                continue
            out.setdefault(core, AcronymInfo(core)).uses.append((u.order, u.id, m.start(), m.end()))
    return out


def _lines(text: str):
    pos = 0
    for line in text.split("\n"):
        yield pos, line
        pos += len(line) + 1


def acronym_findings(doc: Document) -> list[Finding]:
    """Undefined acronyms, acronyms defined twice, and acronyms used before their definition."""
    out: list[Finding] = []
    kinds = {u.id: u.kind for u in doc.units}
    for term, info in sorted(find_acronyms(doc).items()):
        uses = [x for x in info.uses if kinds.get(x[1]) not in ("title",)]
        if not info.definitions:
            if term in KNOWN_ACRONYMS or term.upper() in KNOWN_ACRONYMS or not uses:
                continue
            order, uid, s, e = uses[0]
            units = list(dict.fromkeys(x[1] for x in uses))
            out.append(Finding("undefined_acronym", "warning", uid,
                               f"{term} is used {len(uses)} time(s) in {len(units)} unit(s) but never spelled out",
                               term, units[1:11], s, e))
            continue
        info.definitions.sort(key=lambda d: (d[0], d[3]))
        first = info.definitions[0]
        forms = {}
        for d in info.definitions:
            forms.setdefault(_norm(d[2]), d)
        if len(forms) > 1:
            d2 = list(forms.values())[1]
            out.append(Finding("acronym_redefined", "warning", d2[1],
                               f"{term} is spelled out as '{first[2]}' and as '{d2[2]}'",
                               term, [d[1] for d in info.definitions if d[1] != d2[1]], d2[3], d2[4]))
        elif len([d for d in info.definitions if d[1] not in info.glossary]) > 1:  # a glossary may repeat
            d2 = [d for d in info.definitions if d[1] not in info.glossary][1]
            out.append(Finding("acronym_defined_twice", "info", d2[1],
                               f"{term} ('{first[2]}') is spelled out {len(info.definitions)} times",
                               term, [d[1] for d in info.definitions if d[1] != d2[1]], d2[3], d2[4]))
        early = [x for x in uses if x[0] < first[0] and kinds.get(x[1]) != "section"]
        if early:
            order, uid, s, e = early[0]
            out.append(Finding("acronym_before_definition", "warning", uid,
                               f"{term} is used here, before it is spelled out ('{first[2]}')",
                               term, [first[1]], s, e))
    return out


# --- variant spellings -----------------------------------------------------------------------

_WORDS = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*|[^\sA-Za-z]+")


@dataclass
class _Form:
    count: int = 0
    units: list[str] = field(default_factory=list)
    first: tuple[str, int, int] | None = None


def _note(forms: dict[str, dict[str, _Form]], key: str, form: str, unit: Unit, start: int, end: int) -> None:
    f = forms.setdefault(key, {}).setdefault(form, _Form())
    f.count += 1
    if unit.id not in f.units:
        f.units.append(unit.id)
    if f.first is None:
        f.first = (unit.id, start, end)


def variant_findings(doc: Document) -> list[Finding]:
    """Terms written as two words, hyphenated and closed up ("data set", "data-set", "dataset")."""
    closed: dict[str, list[tuple[Unit, int, int]]] = {}
    hyphened: set[str] = set()
    tokens: list[tuple[Unit, list[re.Match[str]]]] = []
    for u in doc.units:
        if not u.text or u.meta.get("absent_in") == "accepted":
            continue
        toks = list(_WORDS.finditer(u.text))
        tokens.append((u, toks))
        for t in toks:
            w = t.group(0).lower()
            if not w[0].isalpha():
                continue
            parts = w.split("-")
            if len(parts) == 1:
                closed.setdefault(w, []).append((u, t.start(), t.end()))
            elif len(parts) == 2 and not any(p in FUNCTION_WORDS for p in parts):
                hyphened.add("".join(parts))
    forms: dict[str, dict[str, _Form]] = {}
    for u, toks in tokens:
        for i, t in enumerate(toks):
            w = t.group(0).lower()
            if not w[0].isalpha():
                continue
            parts = w.split("-")
            if len(parts) == 2 and not any(p in FUNCTION_WORDS for p in parts):
                _note(forms, "".join(parts), w, u, t.start(), t.end())
            nxt = toks[i + 1] if i + 1 < len(toks) else None
            if len(parts) != 1 or nxt is None or u.text[t.end() : nxt.start()] not in (" ", "\u00a0"):
                continue
            a, b = w, nxt.group(0).lower()
            if not b[0].isalpha() or "-" in b or len(a) < 2 or len(b) < 2 or a in FUNCTION_WORDS or b in FUNCTION_WORDS:
                continue
            if a + b in closed or a + b in hyphened:
                _note(forms, a + b, f"{a} {b}", u, t.start(), nxt.end())
    for key in forms:
        for u, s, e in closed.get(key, ()):
            _note(forms, key, key, u, s, e)
    out = []
    for key, fs in sorted(forms.items()):
        if len(fs) < 2:
            continue
        ranked = sorted(fs.items(), key=lambda kv: (-kv[1].count, kv[0]))
        rare = ranked[-1][1]
        uid, s, e = rare.first  # type: ignore[misc]
        listing = ", ".join(f"'{f}' ({x.count})" for f, x in ranked)
        related = list(dict.fromkeys(x for _, f in ranked[:-1] for x in f.units))[:10]
        # without a closed form, "low-priority" / "low priority" is usually a compound modifier
        # before a noun and the same words elsewhere: worth a look, not a warning
        closed_form = key in fs
        tail = "" if closed_form else " (a hyphen before a noun may be intended)"
        out.append(Finding("variant_spelling", "warning" if closed_form else "info", uid,
                           f"one term spelled {len(fs)} ways: {listing}; the usual form is '{ranked[0][0]}'{tail}",
                           doc.unit(uid).text[s:e], related, s, e, ranked[0][0]))
    return out
