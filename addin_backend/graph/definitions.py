"""Definitions (terms, acronyms, notation) and the units that use them: DEPENDS edges.

A unit that uses a defined term depends on the unit that defines it. Detection is by pattern
and structure, with no model:

* contract style (``"Term" means``, ``(hereinafter the "Agreement")``, ``(the "Supplier")``)
  and its German, French and Spanish equivalents (``im Folgenden „Vertrag“``, ``ci-après « le
  Contrat »``, ``en adelante, «el Contrato»``);
* quoted terms as standards introduce them: ``A "shared cache" is a cache that``, ``... are
  "probing frames"``, ``... is called a "generation"``, ``... via a "sender ratchet".``,
  ``a set of "session keys" (the secrets derived ...)``;
* naming phrases: ``referred to as PMTU probes``, ``is known as the anti-amplification limit``,
  ``the term X refers to``;
* definitional sentences: ``A limited on-path attacker is an off-path attacker that ...``,
  ``The copath of a node is ...``, ``The final size is the amount of ...``, ``Speaker
  identification is the process of ...``, paper style (``we define X as``, ``X is defined as``,
  ``X, denoted Y``, ``let Y denote``);
* symbols: in apposition (``The RTT sample, latest_rtt, is``), in parentheses after their name
  (``timer granularity (kGranularity)``), as a sentence's subject (``Hash.length is its output
  length``, ``pk(X) represents``);
* Schwartz-Hearst acronyms (``Service Level Agreement (SLA)``, ``probe timeout (PTO; see ...)``);
* the document's structure (:mod:`.glossary`): definition lists, glossary tables, terminology
  sections.

A common English word is a defined term only when it is quoted, written with a capital as a
term, or given by the structure (a definition list): "values are defined to be ..." defines
nothing. Definitions found in a text are cached per text; the registry adds the structural
ones and the document-wide facts (:func:`definition_registry`).

Which uses a unit has (:func:`find_usages`): every later use of the term, in its plural and
possessive forms for English units, tied to the nearest earlier definition; an acronym's
expansion counts once (the first), its later re-expansions are repeats. A unit that defines a
term itself does not use it.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Iterator, Sequence

from adapters.model import Document, Unit

from ..language import is_english, primary
from ..nlp import FACTS, common_words, noun_lemma
from .glossary import structural_definitions
from .label_index import _CODE_STYLE
from .text import sentences, word_set

__all__ = [
    "Definition",
    "Usage",
    "TOPIC_SHARE",
    "find_definitions",
    "definition_registry",
    "registry_key",
    "find_usages",
    "usage_pattern",
    "is_common_word",
]


@dataclass(frozen=True)
class Definition:
    """A defined term in a unit's text; ``text[start:end]`` (``span``) is the defining phrase.

    ``quoted``: the term is written in quotes where it is defined. ``how`` says which rule found
    it. The registry fills the document-wide facts: ``topic`` (the term is the document's topic,
    see :func:`definition_registry`), ``scope`` (the id of a section that is about the term:
    uses inside it are the definition itself) and ``linked_from`` (when not ``None``, the only
    units whose uses make DEPENDS edges).
    """

    term: str
    kind: str  # "term" | "acronym" | "notation"
    start: int
    end: int
    span: str
    case_sensitive: bool
    score: float
    quoted: bool = False
    how: str = ""
    topic: bool = False
    scope: str | None = None
    linked_from: frozenset[str] | None = None

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


# Quotes: English, German („…“), French and Spanish (« … »), single quotes.
_Q_OPEN = "\"\u201c\u2018'\u201e\u00ab\u2039"
_Q_CLOSE = "\"\u201d\u2019'\u201c\u00bb\u203a"
_TERM_Q = rf"[{_Q_OPEN}]\s?(?P<term>[^\W\d_][^{_Q_CLOSE}\n]{{0,58}}?)\s?[{_Q_CLOSE}]"
_Q_PLAIN = _TERM_Q.replace("?P<term>", "")
_QUOTED = re.compile(_TERM_Q)
_QUOTE_CHARS = frozenset(_Q_OPEN)
# What the words around a quoted phrase say about it (read on short windows, per quote).
_MEANS_AFTER = re.compile(
    r"\s*(?:,\s*)?(?:shall\s+)?(?:means?|has\s+the\s+meaning|shall\s+have\s+the\s+meaning|"
    r"refers?\s+to|is\s+defined\s+as|includes?|denotes?|bezeichnet|bedeutet|désigne|signifie|significa)\b"
)
_HEREINAFTER_BEFORE = re.compile(
    r"\b(?:hereinafter|hereafter|im\s+Folgenden|nachfolgend|nachstehend|ci-après|en\s+lo\s+sucesivo|en\s+adelante)"
    r"\b,?(?:\s+(?:referred\s+to\s+as|called|known\s+as|the|dénommée?s?|désignée?s?|appelée?s?|"
    r"denominad[oa]s?|llamad[oa]s?|genannt|bezeichnet\s+als|als))*\s*,?\s*"
    r"(?:(?:the|le|la|les|l'|el|los|las|der|die|das)\s*)?$",
    re.I,
)
_PAREN = re.compile(r"\((?P<body>[^()]{1,200})\)")
_PAREN_FILLER = re.compile(
    r"^(?:\s|,|;|and|or|the|a|an|each|collectively|together|individually|jointly|hereinafter|hereafter|"
    r"referred|to|as|called|known|severally|respectively|any|its|their)*$",
    re.I,
)
# Quoted terms as technical prose introduces them. After a naming verb anything quoted is a
# term; after a bare copula the quoted phrase must be several words or follow an article (is
# "true" gives a value, not a term); after an indefinite article the quote must end the phrase
# (a "key_share" extension names a value of something else).
_NAMED_BEFORE = re.compile(
    r"\b(?:called|termed|named|dubbed|(?:also\s+)?known\s+as|referred\s+to\s+as)\s+(?:(?:a|an|the)\s+)?$", re.I
)
_COPULA_BEFORE = re.compile(r"\b(?:is|are)\s+(?P<art>(?:a|an|the)\s+)?$")
_ARTICLE_BEFORE = re.compile(r"\b(?:a|an|A|An)\s+$")
_LEAD_ARTICLE = re.compile(r"(?:(?:A|An|The)\s+)?$")
_SUBJECT_AFTER = re.compile(r"\s+(?:is|are)\s+(?:a|an|the|any|one|defined|used)\b")
_OR_BETWEEN = re.compile(r"\s*,?\s+or\s+(?:(?:a|an|the)\s+)?$")
_END_AFTER = re.compile(
    r"\s*(?:[,.;:)!?]|$)|\s+(?:and|or|but|that|which|who|whose|is|are|was|were|to|for|in|of|with|from|by|on|"
    r"at|as|where|when|if)\b"
)
_INNER_ARTICLE = re.compile(r"^(?:(?:the|le|la|les|el|los|las|der|die|das)\s+|l['\u2019])(?=[^\W\d_])", re.I)
_CHAIN = re.compile(rf"\s*,?\s+(?:or|and)\s+{_TERM_Q.replace('?P<term>', '')}")


def _chain_end(text: str, at: int) -> str:
    """What follows a coordination of quotes (``"closed" or "half-closed" state``)."""
    while (m := _CHAIN.match(text, at)) is not None:
        at = m.end()
    return text[at : at + 40]


_GLOSS_AFTER = re.compile(
    r"\s+\((?!see\b|e\.g|cf\.|section|figure|table|\d|RFC)(?:i\.e\.|that\s+is|[a-z])"
)
# Unquoted naming phrases: the name runs to the end of the clause, at most four words.
_NP = r"[A-Za-z][\w\-]*(?:\s+[A-Za-z][\w\-]*){0,3}?"
_NAMED_NP = re.compile(
    rf"\b(?:(?:also\s+)?(?:referred\s+to|known)\s+as|(?:is|are)\s+(?:called|termed))\s+(?:(?:the|a|an)\s+)?"
    rf"(?P<term>{_NP})(?=\s*(?:[,.;:)]|$))"
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
# Definitional sentences (genus and difference). Each anchors at a sentence start.
_CT = r"(?P<term>[A-Za-z][\w\-]*(?:\s+[A-Za-z][\w\-]*){0,3}?)"
_KIND_NOUN = (
    r"(?:amount|number|set|list|sum|total|size|length|count|duration|time|period|interval|difference|"
    r"ratio|fraction|proportion|sequence|collection|process|procedure|act|method|technique|mechanism|"
    r"practice|ability|capability|part|portion|maximum|minimum|union|intersection|concatenation|"
    r"combination|subset|series|range|degree|extent|state|condition|property|quantity)"
)
_SENT = r"(?:^|(?<=[.!?]\s)|(?<=[.!?][\"')\u201d]\s))"
#: Where a sentence may start: the definitional sentences below are matched there only.
_STARTS = re.compile(rf"{_SENT}[A-Z]")
_GENUS = re.compile(
    rf"(?:A|An)\s+{_CT}\s+is\s+(?:a|an)\s+[\w\-]+(?:\s+[\w\-]+){{0,4}}?\s+"
    r"(?:that|which|who|whose|where|in\s+which|used|consisting|containing|of)\b"
)
_RELATIONAL = re.compile(rf"The\s+{_CT}\s+of\s+(?:a|an|any|each)\s+[\w\- ]{{1,40}}?\s+(?:is|are)\s+(?:the|a|an)\b")
_MEASURE = re.compile(rf"The\s+{_CT}\s+is\s+(?:the|a|an)\s+{_KIND_NOUN}\s+of\b")
_BARE = re.compile(
    rf"(?P<term>[A-Z][a-z][\w\-]*(?:\s+[a-z][\w\-]*){{1,3}}?)\s+(?:is|are)\s+(?:the|a|an)\s+{_KIND_NOUN}\s+"
    r"(?:of|that|by|whereby|in\s+which)\b"
)
_SENTENCE_RULES = ((_GENUS, "genus"), (_RELATIONAL, "relational"), (_MEASURE, "measure"), (_BARE, "bare"))
_COPULA_ARTICLE = re.compile(r"\s(?:is|are)\s(?:a|an|the)\s")
# Symbols: code identifiers (dotted, snake_case, camelCase), optionally with an index or
# single-letter arguments (``node_pub[i]``, ``pk(X)``).
_IDENT = r"(?:[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z_][A-Za-z0-9]*)+|[a-z]+[A-Z][A-Za-z0-9]*)"
_IDENT_RE = re.compile(rf"^{_IDENT}$")
_CALL = r"[A-Za-z][\w.]*\([A-Z](?:,\s*[A-Z])*\)"
_APPOSED = re.compile(
    rf"(?<=[A-Za-z]),\s+(?P<sym>{_IDENT}),\s+(?:is|are|was|were|has|have|represents|denotes|holds|contains|"
    r"gives|can|must|should|may|will|indicates|measures)\b"
)
_IDENT_HINT = re.compile(r"[A-Za-z0-9][._][A-Za-z_]|[a-z][A-Z]|\w\([A-Z][,)]")  # a cheap test before the identifier rules
_SUBJECT_SYM = re.compile(
    rf"(?:{_SENT}|(?<=,\s)(?:and\s+)?|(?<=;\s))(?:[Tt]he\s+(?:value|constant|variable|field|parameter|function|quantity|symbol)\s+)?"
    rf"(?P<sym>{_CALL}|{_IDENT})(?:\[[^\]\s]{{1,20}}\])?\s+(?:is|are|represents|denotes|indicates|means|refers\s+to|"
    r"contains|holds|gives)\b"
)
_ABBREV_IDENT = frozenset("e.g i.e et.al etc.al a.k.a".split())

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
    if any(c in term for c in "={}<>|\\"):
        return False  # a formula or a code fragment in quotes
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




_WORD_THEN_SPACE = re.compile(r"[A-Za-z]\s+$")
_PREV_SHORT = re.compile(r"(?<![\w-])([A-Z][A-Za-z0-9&\-]{1,9})\s*$")
_ARTICLE_OPENS = re.compile(r"(?:^|[.!?:]\s+)(?:A|An|The)$")
_PREV_WORD = re.compile(r"([A-Za-z][\w\-]*)\s+$")


def _has_function_word(term: str) -> bool:
    return any(w.lower() in _STOP_BACK or w.lower() in ("cannot", "the", "a", "an") for w in term.split())


def _ident_ok(sym: str) -> bool:
    """A code identifier worth a definition: not an abbreviation, one part of two letters or more
    (a function symbol, ``pk(X)``, may be short)."""
    core = sym.split("(")[0]
    if "(" in sym:
        return core.lower() not in _ABBREV_IDENT and bool(core)
    if core.lower() in _ABBREV_IDENT or len(core) < 3:
        return False
    return any(len(p) >= 2 for p in re.split(r"[._]", core))


def _parens(text: str) -> list[Definition]:
    """Parentheses that define: ``(the "Supplier")``, ``Service Level Agreement (SLA)``,
    ``SLA (Service Level Agreement)``, ``timer granularity (kGranularity)``."""
    out: list[Definition] = []
    if "(" not in text:
        return out
    for m in _PAREN.finditer(text):
        body = m.group("body").strip()
        if any(c in body for c in _QUOTE_CHARS):
            quoted = list(_QUOTED.finditer(body))
            if quoted and _PAREN_FILLER.match(_QUOTED.sub(" ", body)):
                for q in quoted:
                    term = q.group("term").strip()
                    if not _acronym_ok(term) and len(term.split()) <= 4 and not _has_function_word(term):
                        # ("SLA") is an acronym, read below; ('leaf node has no children') a message
                        out.append(Definition(term, "term", m.start(), m.end(), m.group(0), True, 0.95, True, "paren"))
        # "(PTO; see Section 6.2)", "(ECN, [RFC3168])": the abbreviation is the first part
        first = re.split(r"\s*;\s*|\s*,\s*(?=see\b|e\.g|cf\.|\[|RFC)", body)[0]
        short = first.strip(_Q_OPEN + _Q_CLOSE).strip()
        if _IDENT_RE.match(short) and _ident_ok(short) and _WORD_THEN_SPACE.search(text, max(0, m.start() - 3), m.start()):
            got = _np_before(text, m.start(), max(0, m.start() - 80))
            start = got[1] if got else m.start()
            out.append(Definition(short, "notation", start, m.end(), text[start : m.end()], True, 0.85, how="symbol"))
            continue
        if _acronym_ok(short):
            head = text[max(0, m.start() - 120) : m.start()]
            head = re.split(r"[.;:!?()\[\]]\s", head)[-1].rstrip().rstrip(_Q_CLOSE)
            max_words = min(len(short) + 5, len(short) * 2)
            words = head.split()[-max_words:]
            long = _sh_long_form(short, " ".join(words))
            long = long.strip(_Q_OPEN + _Q_CLOSE) if long else long
            if long and len(long) > len(short) and short.lower() not in long.lower().split() and long[0].lower() == short[0].lower():
                where = list(re.finditer(r"\s+".join(map(re.escape, long.split())), text[: m.start()]))
                start = where[-1].start() if where else m.start()
                if short.endswith("s") and short[-2:-1].isupper():
                    short = short[:-1]  # "LLMs": the term is "LLM"; plurals match anyway
                out.append(Definition(short, "acronym", start, m.end(), text[start : m.end()], True, 0.9, how="acronym"))
            continue
        # reverse form "SLA (Service Level Agreement)"
        prev = _PREV_SHORT.search(text, max(0, m.start() - 16), m.start())
        if prev and _acronym_ok(prev.group(1)) and len(body.split()) >= 2 and not _QUOTED.search(body):
            long = _sh_long_form(prev.group(1), body)
            if long and long == body and body[0].lower() == prev.group(1)[0].lower():
                start = prev.start(1)
                out.append(Definition(prev.group(1), "acronym", start, m.end(), text[start : m.end()], True, 0.9, how="acronym"))
    return out


#: Rules that read a phrase as introduced where it is written (no defining verb): they define
#: only where the term appears for the first time, and only words (not identifiers).
_INTRODUCING = frozenset({"copula", "article", "gloss", "subject"})
_WORDS_ONLY = re.compile(r"^[^\W\d_]+(?:[ \-][^\W\d_]+)*$")


#: Literal values: what they mean is said again for every field that takes them.
_LITERALS = frozenset("true false yes no on off none null nil empty ok".split())


def _introduced_ok(term: str) -> bool:
    """A phrase a quote can introduce without a defining verb: words, not an identifier, a value
    in capitals or one common word ("a "testing" state")."""
    return bool(_WORDS_ONLY.match(term)) and not term.isupper() and not (" " not in term and "-" not in term
                                                                          and term.islower() and is_common_word(term))


def _opens_sentence(text: str, at: int) -> bool:
    """Whether ``text[at:]`` starts a sentence, after an optional article ("A "shared cache" is")."""
    lead = text[max(0, at - 6) : at]
    m = _LEAD_ARTICLE.search(lead)
    rest = text[: at - len(lead) + m.start()].rstrip()
    return not rest or rest[-1] in ".!?:"


def _quoted_terms(text: str) -> list[Definition]:
    """Quoted terms: ``"X" means``, ``hereinafter "X"``, ``called "X"``, ``are "X"``, ``a "X".``,
    ``A "X" is a ...``, ``"X" (a gloss)``, and the second of ``"X" or "Y"``."""
    out: list[Definition] = []
    last_end, last_how = -10, None
    for q in _QUOTED.finditer(text):
        term = q.group("term").strip()
        before = text[max(0, q.start() - 60) : q.start()]
        after = text[q.end() : q.end() + 40]
        how, start, end, score = None, q.start(), q.end(), 0.9
        m = _MEANS_AFTER.match(after)
        if m:
            how, end, score = "means", q.end() + m.end(), 0.95
        elif (m := _HEREINAFTER_BEFORE.search(before)) is not None:
            how, start, score = "hereinafter", q.start() - len(before) + m.start(), 0.95
            term = _INNER_ARTICLE.sub("", term)  # ci-après « le Prestataire »
        elif (m := _NAMED_BEFORE.search(before)) is not None:
            how, start, score = "named", q.start() - len(before) + m.start(), 0.95
        elif last_how and _OR_BETWEEN.fullmatch(text[last_end : q.start()]):
            how, start = last_how, out[-1].start  # called "enum" or "enumerated"
        elif _END_AFTER.match(_chain_end(text, q.end())):
            m = _COPULA_BEFORE.search(before)
            if m and (m.group("art") or " " in term):
                how, start = "copula", q.start() - len(before) + m.start()
            elif (m := _ARTICLE_BEFORE.search(before)) is not None:
                how, start, score = "article", q.start() - len(before) + m.start(), 0.85
        if how is None and _SUBJECT_AFTER.match(after) and _opens_sentence(text, q.start()):
            how = "subject"
        if how is None and _GLOSS_AFTER.match(after):
            how, score = "gloss", 0.85
        if how in _INTRODUCING and not _introduced_ok(term):
            how = None  # a "close_notify" is a quoted name in use, a "closed" state a value
        elif how is not None and term.lower() in _LITERALS:
            how = None  # "true" means ...: a value's meaning, not a term
        if how is None:
            last_how = None
            continue
        out.append(Definition(term, "term", start, end, text[start:end].strip(), True, score, True, how))
        last_end, last_how = q.end(), how
    return out


def _bare_terms(text: str) -> list[Definition]:
    """Unquoted naming phrases and definitional sentences (case-insensitive terms)."""
    out: list[Definition] = []
    if " as " in text or "called" in text or "termed" in text:
        for m in _NAMED_NP.finditer(text):
            term = m.group("term").strip()
            if not any(w.lower() in _STOP_BACK for w in term.split()):
                cs = _is_symbolish(term) or (term[:1].isupper() and _capitalised_as_term_at(text, m.start("term")))
                out.append(Definition(term, "term", m.start(), m.end(), m.group(0).strip(), cs, 0.85, how="named"))
    if not _COPULA_ARTICLE.search(text):
        return out
    for st in _STARTS.finditer(text):
        for rx, how in _SENTENCE_RULES:
            m = rx.match(text, st.start())
            if m is None:
                continue
            term = m.group("term").strip()
            if any(w.lower() in _STOP_BACK or w.lower() in _DET_WORDS for w in term.split()):
                continue
            if how == "relational":
                term = re.sub(r"\s+[A-Z]$", "", term)  # "The filtered direct path of a leaf node L"
            if how == "bare":
                term = term[0].lower() + term[1:]
            out.append(Definition(term, "term", m.start(), m.end(), m.group(0), False, 0.8, how=how))
            break
    return out


_DET_WORDS = frozenset("the a an this that these those some any each every no its their our your".split())


def _is_symbolish(term: str) -> bool:
    return bool(_IDENT_RE.match(term)) or (term.isupper() and len(term) <= 10)


def _symbols(text: str) -> list[Definition]:
    """Code identifiers in apposition (``The RTT sample, latest_rtt, is``) or as a subject
    (``Hash.length is its output length``, ``pk(X) represents``)."""
    out: list[Definition] = []
    if not _IDENT_HINT.search(text):
        return out
    for m in _APPOSED.finditer(text):
        sym = m.group("sym")
        if _ident_ok(sym):
            got = _np_before(text, m.start(), max(0, m.start() - 80))
            start = got[1] if got else m.start()
            out.append(Definition(sym, "notation", start, m.end(), text[start : m.end()], True, 0.85, how="apposition"))
    for m in _SUBJECT_SYM.finditer(text):
        sym = m.group("sym")
        if _ident_ok(sym):
            out.append(Definition(sym, "notation", m.start("sym"), m.end(), text[m.start("sym") : m.end()], True, 0.85,
                                  how="subject"))
    return out


def _paper_terms(text: str) -> list[Definition]:
    out: list[Definition] = []
    if "efine" not in text and "enote" not in text and "written" not in text and "et " not in text and "term" not in text:
        return out
    for m in _WE_DEFINE.finditer(text):
        term = _strip_det(m.group("term"))
        out.append(Definition(term, "term", m.start(), m.end(), m.group(0).strip(), False, 0.9, how="define"))
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
                out.append(Definition(parts[-1], "notation", start, a + m.end(), text[start : a + m.end()], True, 0.8,
                                      how="defined"))
                term = " ".join(parts[:-1])
            out.append(Definition(term, "term", start, a + m.end(), text[start : a + m.end()], False, 0.9, how="defined"))
        for m in _DENOTED.finditer(sent):
            sym = m.group("sym").strip("$")
            if not _symbol_ok(m.group("sym")) or _ARTICLE_AFTER.match(sent, m.start("sym")):
                continue  # "written for the engineer", "written as a radio series": words, not symbols
            got = _np_before(text, a + m.start(), a)
            start = got[1] if got else a + m.start()
            out.append(Definition(sym, "notation", start, a + m.end(), text[start : a + m.end()], True, 0.8, how="denoted"))
    for m in _LET.finditer(text):
        out.append(Definition(m.group("sym").strip("$"), "notation", m.start(), m.end(), m.group(0), True, 0.8, how="let"))
    for m in _THE_TERM.finditer(text):
        term = (m.group("term") or m.group("bare") or "").strip()
        out.append(Definition(term, "term", m.start(), m.end(), m.group(0), bool(m.group("term")), 0.9, how="term"))
    return out


def is_common_word(term: str) -> bool:
    """Whether a one-word term is a common English word (then only quotes, a capital or a
    definition list make it a defined term).

    >>> is_common_word("values"), is_common_word("copath"), is_common_word("token budget")
    (True, False, False)
    """
    if " " in term or "-" in term or not term.isalpha():
        return False
    low = term.lower()
    common = common_words()
    return low in common or noun_lemma(low) in common


def _capitalised_as_term_at(text: str, at: int) -> bool:
    """Whether a capital at ``text[at]`` is a term's, not the sentence's ("the Client")."""
    before = text[:at].rstrip(" \"'(\u201c\u2018")
    return bool(before) and before[-1] not in ".!?:\n" and not _ARTICLE_OPENS.search(before[-8:] if len(before) > 8 else before)


def _capitalised_as_term(d: Definition, text: str) -> bool:
    """A capital that is not the sentence's: "the Client", not "Client" opening a sentence."""
    if not d.term[:1].isupper() or d.term.isupper():
        return d.term.isupper() and len(d.term) >= 2
    at = text.find(d.term, d.start, d.end if d.end > d.start else None)
    return at >= 0 and _capitalised_as_term_at(text, at)


#: Statements that mark their word as a term however common it is: "we define an epoch as",
#: "the term reader refers to".
_MARKED = frozenset({"define", "term"})


def _scan(text: str) -> tuple[Definition, ...]:
    found = _parens(text) + _symbols(text) + _paper_terms(text) + _bare_terms(text)
    if any(c in text for c in _QUOTE_CHARS):
        found += _quoted_terms(text)
    seen: set[str] = set()
    out = []
    for d in sorted(found, key=lambda d: (d.start, -d.score)):
        if not _term_ok(d.term) or (d.kind != "notation" and len(d.term) < 2) or d.key in seen:
            continue
        if (d.kind == "term" and not d.quoted and d.how not in _MARKED and is_common_word(d.term)
                and not _capitalised_as_term(d, text)):
            continue  # "values are defined to be ...": a common word, not a term
        if d.kind == "term" and not d.quoted and d.term[:1].isupper() and not d.case_sensitive and _capitalised_as_term(d, text):
            d = replace(d, case_sensitive=True)
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
    >>> [d.term for d in find_definitions('A packet containing only probing frames is a "probing packet".')]
    ['probing packet']
    """
    return FACTS.memo("definitions", text, _scan)


# --- usages ----------------------------------------------------------------------------------

_MATH_NEAR = set("=<>+-*/^_()[]{}|\u2264\u2265\u2208\u2211\u00b7\u00d7\u2212,")
_POSSESSIVE = r"(?:'s|\u2019s|'|\u2019)?"


def _plural_forms(word: str) -> str:
    """A regex for the English singular, plural and possessive forms of a noun's last word."""
    if word.endswith("y") and len(word) > 2 and word[-2].lower() not in "aeiou":
        return rf"{re.escape(word[:-1])}(?:y|ies){_POSSESSIVE}"
    if word.endswith(("ss", "us", "is")):
        return rf"{re.escape(word)}(?:es)?{_POSSESSIVE}"
    if word.endswith("s") and len(word) > 3:  # a plural term ("In-flight packets"): its singular too
        return rf"{re.escape(word[:-1])}(?:s|es)?{_POSSESSIVE}"
    if word.endswith(("x", "z", "ch", "sh")):
        return rf"{re.escape(word)}(?:es)?{_POSSESSIVE}"
    return rf"{re.escape(word)}s?{_POSSESSIVE}"


@lru_cache(maxsize=8192)
def usage_pattern(term: str, kind: str, case_sensitive: bool, english: bool = True) -> re.Pattern[str]:
    """How a later unit's use of a term is recognised (English plural and possessive forms for
    English text; the exact form otherwise).

    >>> bool(usage_pattern("Ack-eliciting packets", "term", False).search("an ack-eliciting packet is sent"))
    True
    >>> bool(usage_pattern("policy", "term", True).search("the policies")), bool(usage_pattern("policy", "term", True, False).search("the policies"))
    (True, False)
    """
    if kind == "notation":
        call = re.match(r"^([A-Za-z][\w.]*)\(", term)
        if call:  # pk(X): any pk(...)
            return re.compile(rf"(?<![\w.]){re.escape(call.group(1))}\(")
        return re.compile(rf"(?<![\w]){re.escape(term)}(?![\w]|\.\w)")
    words = [re.escape(w) for w in term.split()]
    if words and english:
        last = term.split()[-1]
        if kind == "acronym" or (case_sensitive and last[:1].isupper() and last.isupper()):
            words[-1] = rf"{re.escape(last)}(?:s|es)?{_POSSESSIVE}"
        elif last[-1:].isalpha():
            words[-1] = _plural_forms(last)
    if case_sensitive and words and term[:1].islower():
        words[0] = f"[{term[0]}{term[0].upper()}]" + words[0][len(re.escape(term[0])):]  # a sentence may open with it
    body = r"[\s\-]+".join(words) if not case_sensitive else r"\s+".join(words)
    flags = 0 if case_sensitive else re.I
    return re.compile(rf"(?<![\w\-]){body}(?![\w\-])", flags)


def _probe(term: str) -> str | None:
    words = re.findall(r"[A-Za-z][A-Za-z\-']*", term)
    return max(words, key=len).lower() if words else None


def _probe_forms(probe: str) -> set[str]:
    forms = {probe, probe + "s", probe + "es"}
    if probe.endswith("s"):
        forms.add(probe[:-1])
    if probe.endswith("y"):
        forms.add(probe[:-1] + "ies")
    return forms


_NAME_OK_BEFORE = frozenset(
    "the this that these those such each any a an our its their every all no said under in of by for "
    "with to from upon on at as and or".split()
)


def _inside_name(text: str, start: int, end: int) -> bool:
    """Whether a capitalised term is part of a longer name ("Service Level Agreement")."""
    prev = _PREV_WORD.search(text, max(0, start - 40), start)
    if (prev and prev.group(1)[0].isupper() and prev.group(1).lower() not in _NAME_OK_BEFORE
            and text[: prev.start(1)].rstrip()[-1:] not in ("", ".", "!", "?", ":")):
        return True  # a capitalised word before it that does not open the sentence
    nxt = re.match(r"\s+([A-Z][\w\-]*)", text[end:])
    return bool(nxt and nxt.group(1).lower() not in _NAME_OK_BEFORE)


def _math_context(text: str, start: int, end: int) -> bool:
    left = text[max(0, start - 2) : start]
    right = text[end : end + 2]
    return any(c in _MATH_NEAR for c in left + right)


#: Headings and titles name topics; they do not need a term's definition to be read.
_NOT_USERS = ("section", "title")


def _first_use(text: str, d: Definition, english: bool) -> re.Match[str] | None:
    """The first use of ``d``'s term in ``text`` (none inside a longer name, none of a Latin
    letter outside mathematics)."""
    return next(_uses_in(text, d, english), None)


def _uses_in(text: str, d: Definition, english: bool) -> Iterator[re.Match[str]]:
    pat = usage_pattern(d.term, d.kind, d.case_sensitive, english)
    for m in pat.finditer(text):
        if (d.kind == "notation" and len(d.term) == 1 and d.term.isascii()
                and not _math_context(text, m.start(), m.end())):
            continue  # a Latin letter is also a word ("a", "I"); a Greek one in prose is the symbol
        if (english and d.kind == "term" and d.case_sensitive and d.term[:1].isupper()
                and _inside_name(text, m.start(), m.end())):
            continue  # English capitalises names, not nouns: "Service Level Agreement" holds no "Agreement"
        yield m


# --- the registry ------------------------------------------------------------------------------

#: A term used in at least this share of a document's prose paragraphs is core vocabulary, like
#: a term in the title: the document's topic (see :func:`definition_registry`).
TOPIC_SHARE = 0.10
#: Below this many prose paragraphs a share says nothing; only the title makes a topic.
_TOPIC_MIN_UNITS = 40
#: A definer whose terms would make more than this share of the document's definition links
#: (counted as the units holding each term's longest word) links once per section.
DOMINANT_SHARE = 0.10
_DOMINANT_MIN_EDGES = 50


def _structural(unit: Unit, term: str, start: int, end: int, how: str, body: str, glossary: bool) -> Definition | None:
    """A definition list's or glossary's term. Outside a terminology section a list names local
    things (the fields of a structure: ``type:``, ``length:``); a common word written in lower
    case there is not a document's term."""
    if not _term_ok(term) or len(term) < 2 or _has_function_word(term):
        return None
    if not glossary and " " not in term and term.islower() and is_common_word(term):
        return None
    if _IDENT_RE.match(term) and _ident_ok(term):
        return Definition(term, "notation", start, end, unit.text[start:end], True, 0.95, how=how)
    if _acronym_ok(term) and " " not in term:
        return Definition(term, "acronym" if how == "table" else "term", start, end, unit.text[start:end], True, 0.95, how=how)
    words = term.split()
    if len(words) == 1 and is_common_word(term):
        cs = True  # "Length:" names the Length field, not every length
    else:
        cs = False
    return Definition(term, "term", start, end, unit.text[start:end], cs, 0.95, how=how)


def registry_key(units: Sequence[Unit]) -> int:
    """A fingerprint of what the registry reads (ids, kinds, styles, parents, texts, cells): a
    cache of :func:`definition_registry` is valid while this is unchanged."""
    return hash(tuple((u.id, u.kind, u.style, u.parent, u.title, u.text, len(u.meta.get("cells") or ())) for u in units))


def _section_of(u: Unit, by_id: dict[str, Unit]) -> str | None:
    p = u.parent
    while p is not None and p in by_id and by_id[p].kind != "section":
        p = by_id[p].parent
    return p if p in by_id else None


class Registry(dict):
    """A definition registry (term key -> entries), plus the uses of its terms found while it
    was built, which :func:`find_usages` hands out again instead of searching twice."""

    uses: tuple[Usage, ...] | None = None
    units: list[Unit] | None = None


def definition_registry(units: Iterable[Unit]) -> dict[str, list[tuple[int, str, Definition]]]:
    """Term key -> ``(order, unit id, definition)`` of every unit defining it, in order.

    Besides the definitions in each text, the registry holds those given by structure (a
    definition list, a glossary table, a terminology section) and the document-wide facts that
    decide which uses become DEPENDS edges. They sit on each definition, so that a change to any
    of them reaches the users (incremental updates compare registries):

    * ``scope``: a term heading in a terminology section (an ISO entry) is defined by its whole
      section; uses inside it are the definition, not dependencies.
    * ``topic``: the term is the document's topic: named in its title, or used in at least
      :data:`TOPIC_SHARE` of its prose paragraphs (TLS in the TLS specification). A reader
      meets it on every page: it links once per section, from the section's first unit using it.
    * ``linked_from``: the units whose uses link (``None``: all). Besides topics, a dominant
      definer, one that would receive more than :data:`DOMINANT_SHARE` of the document's
      definition links and more than twice an even share of them (an introduction expanding the
      acronyms everyone uses, a glossary table), has its terms linked once per section, then
      once per chapter, then once, until it is not dominant. Exact uses
      of a term quoted in a defining statement (``"Agreement" means``, ``(the "Supplier")``)
      always link: the document asks its reader to read them as defined.
    """
    units = list(units)
    by_id = {u.id: u for u in units}
    reg = Registry()
    struct = structural_definitions(units, _structural)
    for u in units:
        # code and preformatted lines hold declarations, not the prose that defines
        ds = [] if (u.style and _CODE_STYLE.search(u.style)) else list(find_definitions(u.text))
        if u.id in struct:
            have = {d.key for d in ds}
            ds += [d for d in struct[u.id] if d.key not in have]
        for d in ds:
            reg.setdefault(d.key, []).append((u.order, u.id, d))
    for lst in reg.values():
        lst.sort(key=lambda x: (x[0], x[1]))
    _add_scopes(reg, by_id)
    uses = _find(units, reg, units, None, None)
    if uses:
        uses = _add_policy(reg, units, by_id, uses)
    reg.uses, reg.units = tuple(uses), units
    return reg


def _add_scopes(reg: dict, by_id: dict[str, Unit]) -> None:
    """A term heading's section (an ISO entry: its definition, notes and examples) is the
    definition itself: uses inside it are not dependencies."""
    for lst in reg.values():
        for i, (order, uid, d) in enumerate(lst):
            if by_id[uid].kind == "section":
                lst[i] = (order, uid, replace(d, scope=uid))


def _prose(u: Unit) -> bool:
    return u.kind in ("paragraph", "list_item") and bool(u.text) and not (u.style and _CODE_STYLE.search(u.style))


def _chapter_of(u: Unit, by_id: dict[str, Unit]) -> str | None:
    top = None
    p = u.parent
    while p is not None and p in by_id:
        if by_id[p].kind == "section":
            top = p
        p = by_id[p].parent
    return top


def _inside(uid: str, section: str, by_id: dict[str, Unit]) -> bool:
    p = by_id[uid].parent
    while p is not None and p in by_id:
        if p == section:
            return True
        p = by_id[p].parent
    return False


#: How finely a thinned term links: from the first user in each section, in each chapter, once.
_LEVELS = ("section", "chapter", "document")


def _in_title(title: str, d: Definition) -> bool:
    """Whether a title names the term, or for an acronym its expansion ("Secure Transfer Protocol")."""
    if _first_use(title, d, True):
        return True
    if d.kind != "acronym":
        return False
    long = d.span[: d.span.rfind("(")].strip() if d.span.endswith(")") and not d.span.startswith(d.term) else (
        d.span[d.span.find("(") + 1 : -1] if "(" in d.span else "")
    return len(long) > len(d.term) and long.lower().strip(_Q_OPEN + _Q_CLOSE) in title.lower()


def _add_policy(reg: dict, units: list[Unit], by_id: dict[str, Unit], uses: list[Usage]) -> list[Usage]:
    """Set ``topic`` and ``linked_from`` (see :func:`definition_registry`); the uses, re-tied
    to the updated definitions."""
    titles = [u.text for u in units if u.kind == "title" and u.text]
    n_prose = sum(1 for u in units if _prose(u))
    by_key: dict[str, list[Usage]] = {}
    for x in uses:
        if not (x.definition.scope and _inside(x.source, x.definition.scope, by_id)):
            by_key.setdefault(x.definition.key, []).append(x)
    part = {"section": lambda u: _section_of(u, by_id), "chapter": lambda u: _chapter_of(u, by_id), "document": lambda u: None}

    def exempt(x: Usage) -> bool:
        d = x.definition
        return d.quoted and d.how in _STATEMENTS and x.used == d.term

    def allowed(key: str, level: str) -> frozenset[str]:
        first: dict[str | None, str] = {}
        keep = set()
        for x in by_key[key]:
            first.setdefault(part[level](by_id[x.source]), x.source)
            if exempt(x):
                keep.add(x.source)
        return frozenset(first.values()) | keep

    level: dict[str, int] = {}
    topics = set()
    for key, xs in by_key.items():
        d0 = reg[key][0][2]
        prose_users = len({x.source for x in xs if _prose(by_id[x.source])})
        if any(_in_title(t, d0) for t in titles) or (
            n_prose >= _TOPIC_MIN_UNITS and prose_users >= TOPIC_SHARE * n_prose
        ):
            topics.add(key)
            level[key] = 0
    linked = {k: allowed(k, _LEVELS[v]) for k, v in level.items()}

    def links_to() -> dict[str, set[str]]:
        pairs: dict[str, set[str]] = {}
        for key, xs in by_key.items():
            ok = linked.get(key)
            for x in xs:
                if ok is None or x.source in ok:
                    pairs.setdefault(x.definer, set()).add(x.source)
        return pairs

    # A definer is dominant when it holds more than a tenth of the links and more than twice an
    # even share: where a few definers share the links evenly (a short report with five
    # acronyms) none is thinned, since thinning one would only push the others over.
    for _ in range(2 * len(_LEVELS)):
        pairs = links_to()
        total = sum(len(v) for v in pairs.values())
        if total < _DOMINANT_MIN_EDGES:
            break
        over = {uid for uid, v in pairs.items() if len(v) > DOMINANT_SHARE * total and len(v) > 2 * total / len(pairs)}
        changed = False
        for key, xs in by_key.items():
            if not any(x.definer in over and not exempt(x) for x in xs):
                continue
            nxt = level.get(key, -1) + 1
            if nxt < len(_LEVELS):
                level[key] = nxt
                linked[key] = allowed(key, _LEVELS[nxt])
                changed = True
        if not changed:
            break
    new: dict[tuple[str, str], Definition] = {}
    for key, ok in linked.items():
        lst = reg[key]
        reg[key] = [(o, uid, replace(d, topic=key in topics, linked_from=ok)) for o, uid, d in lst]
        for (_, uid, old), (_, _, d) in zip(lst, reg[key]):
            new[(uid, key)] = d
    if not new:
        return uses
    return [replace(x, definition=new.get((x.definer, x.definition.key), x.definition)) for x in uses]


#: Definitions by statement ("X" means, we define X as, a definition list): a later one
#: redefines the term. Every other rule (an acronym's expansion, a quoted or named phrase, a
#: definitional sentence) reads an introduction, and a term is introduced once: after its first
#: definition the same phrase is a repeat.
_STATEMENTS = frozenset({"means", "hereinafter", "paren", "define", "defined", "denoted", "let", "term", "list", "entry",
                         "table", "heading"})


def _definers(entries: list[tuple[int, str, Definition]]) -> list[tuple[int, str, Definition]]:
    """The entries that define: a repeated introduction (an acronym expanded again) is not one."""
    out = []
    for e in entries:
        if out and e[2].how not in _STATEMENTS:
            continue
        out.append(e)
    return out


def _case_shape(s: str) -> tuple[bool, ...]:
    return tuple(w[:1].isupper() for w in s.split())


def _pick(entries: list[tuple[int, str, Definition]], at: int, used: str) -> tuple[int, str, Definition]:
    """The definition a use refers to: the nearest earlier one written as the use is written
    (the concept "final size", not the field "Final Size"), else the nearest earlier one."""
    if at > 1:
        shape = _case_shape(used)
        for e in reversed(entries[:at]):
            if _case_shape(e[2].term)[: len(shape)] == shape:
                return e
    return entries[at - 1]


def _find(
    units: list[Unit],
    registry: dict[str, list[tuple[int, str, Definition]]],
    todo_units: Iterable[Unit],
    keys: Iterable[str] | None,
    doc: Document | None,
) -> list[Usage]:
    todo = [u for u in todo_units if u.kind not in _NOT_USERS and u.text]
    wanted = [k for k in (list(keys) if keys is not None else list(registry)) if k in registry]
    rank = {k: i for i, k in enumerate(wanted)}
    # a term is looked for only in units holding its longest word (or a plural of it)
    always: list[str] = []
    by_word: dict[str, list[str]] = {}
    defined_in: dict[str, set[str]] = {}
    definers: dict[str, tuple[list[int], list[tuple[int, str, Definition]]]] = {}
    for k in wanted:
        entries = _definers(registry[k])
        definers[k] = ([e[0] for e in entries], entries)
        for _, uid, _ in registry[k]:
            defined_in.setdefault(uid, set()).add(k)
        probe = _probe(entries[0][2].term)
        if probe is None:
            always.append(k)
            continue
        for f in _probe_forms(probe):
            by_word.setdefault(f, []).append(k)
    probe_words = by_word.keys()
    out: list[Usage] = []
    for u in todo:
        hits = set(always)
        for w in word_set(u.text) & probe_words:
            hits.update(by_word[w])
        if not hits:
            continue
        own = defined_in.get(u.id, ())
        english = is_english(u, doc)
        found: list[tuple[str, int, list[re.Match[str]]]] = []
        mine: list[tuple[int, int, str]] = []
        for key in sorted(hits, key=rank.__getitem__):
            if key in own:  # a unit that defines a term uses its own definition
                d = next(d for _, uid, d in registry[key] if uid == u.id)
                mine.extend((m.start(), m.end(), key) for m in _uses_in(u.text, d, english))
                continue
            orders, entries = definers[key]
            at = bisect.bisect_left(orders, u.order)
            if at == 0:
                continue  # defined only later (or here)
            ms = list(_uses_in(u.text, entries[at - 1][2], english))
            if ms:
                found.append((key, at, ms))
        spans = mine + [(m.start(), m.end(), key) for key, _, ms in found for m in ms] if found and (mine or len(found) > 1) else []
        for key, at, ms in found:
            # the longest defined name wins: "Maximum Stream Data" is no use of "Stream Data"; an
            # acronym keeps its meaning inside a compound ("ECN counts" uses ECN)
            nest = spans if definers[key][1][0][2].kind != "acronym" else ()
            m = next((m for m in ms if not any(a <= m.start() and m.end() <= b and b - a > m.end() - m.start()
                                               and k != key for a, b, k in nest)), None)
            if m is None:
                continue
            _, uid, d = _pick(definers[key][1], at, m.group(0))
            out.append(Usage(u.id, uid, m.group(0), m.start(), m.end(), d))
    return out


def find_usages(
    doc: Document,
    registry: dict[str, list[tuple[int, str, Definition]]],
    units: Iterable[Unit] | None = None,
    keys: Iterable[str] | None = None,
) -> list[Usage]:
    """Uses of registered terms in ``units`` (default all), each tied to its definer: the
    nearest earlier definition (see :func:`_pick`), a repeated introduction not counting."""
    cached = getattr(registry, "uses", None)
    own_units = getattr(registry, "units", None)
    if (
        cached is not None and own_units is not None and len(own_units) == len(doc.units)
        and all(a is b for a, b in zip(own_units, doc.units))
        and primary(doc.meta.get("language")) in (None, "en")
    ):
        ids = None if units is None else {u.id for u in units}
        ks = None if keys is None else set(keys)
        return [x for x in cached if (ids is None or x.source in ids) and (ks is None or x.definition.key in ks)]
    return _find(doc.units, registry, units if units is not None else doc.units, keys, doc)
