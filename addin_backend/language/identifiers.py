"""Which spans of a unit are identifiers: names a program reads, not prose an editor edits.

An element name (``<manifest:file-entry>``), an attribute (``table:data-type``), an option
(``--safe``), a property (``ruleId``, ``"partialFingerprints":``, ``result.locations[0]``), a
program keyword (``FILEVERSION``), a file name, a URI: a rename, a fix or a check that rewrites
one breaks the document's meaning while the prose around it reads fine. This module is the one
place that says where they are, from what the document itself says:

1. **its formatting**: the character spans a reader recorded in ``Unit.meta["code"]`` (a code,
   element, attribute or keyword character style, a monospace font; :mod:`adapters.monospace`),
   and lines in a code paragraph style (:func:`is_code_line`);
2. **the token's shape** (:data:`_SHAPES`): a namespace prefix, angle brackets, camelCase inside a
   word, snake_case, a leading dash, a dotted path or index, a quoted JSON key, a file name, a
   URI, a media type, a call, and ALL-CAPS program words glued from English words
   ("FOLLOWEDBY", "FILEVERSION"), which no acronym is;
3. **the names it defines** (:func:`code_names`): a token the document writes in a code style
   anywhere, or with a namespace prefix ("manifest:file-entry" makes "file-entry" a name), is a
   name wherever it is written, in that spelling; ordinary dictionary words are not.

Every user asks the same functions: renames (``edits/renaming.py``), the checks and fixes
(``checks/style/prose.py``: ``protected_spans``, ``untouchable``), the hyphenation counts.
Shared test vectors: ``tests/vectors/identifiers.json``.
"""
from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, NamedTuple

from adapters.model import Document, Unit
from adapters.monospace import CODE_STYLE

__all__ = ["CODE_STYLE", "Identifier", "code_names", "identifier_at", "identifier_shape", "identifier_spans",
           "is_code_line", "is_code_style", "is_identifier", "shape_spans"]


@dataclass(frozen=True)
class Identifier:
    """One identifier in a unit's text: ``text`` at ``start:end``, and ``why`` it is one (what a
    reviewer is told: "written in a code style", "a namespace-prefixed name", ...)."""

    start: int
    end: int
    text: str
    why: str


def is_code_style(style: str | None) -> bool:
    """Whether a paragraph or character style's name says code (``adapters.monospace.CODE_STYLE``).

    >>> is_code_style("Source Code"), is_code_style("HTML Preformatted"), is_code_style("Body Text")
    (True, True, False)
    """
    return bool(style) and bool(CODE_STYLE.search(style or ""))


# --- token shapes ------------------------------------------------------------------------------

_SHAPE_PARTS: list[tuple[str, str]] = [
    ("markup", r"</?[A-Za-z_][\w.\-]*(?::[A-Za-z_][\w.\-]*)?(?:\s+[\w:.\-]+\s*=\s*(?:\"[^\"<>]*\"|'[^'<>]*'))*\s*/?>"
               r"|<[^<>\s]{3,}>"),
    # a field or value a format names in angle brackets: "<Packet Identifier>", "<Reason Code>"
    ("a placeholder", r"<[A-Za-z][\w\-]*(?: [\w\-]+){1,5}>"),
    ("URI", r"(?:[A-Za-z][A-Za-z0-9+.\-]*://|mailto:|urn:|www\.)[^\s<>\"\u201d]*[^\s<>\"\u201d.,;:)\]]"),
    ("e-mail address", r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+"),
    ("media type", r"(?<![\w/])(?i:application|audio|example|font|haptics|image|message|model|multipart|text|video|\*)"
                   r"/(?:[A-Za-z0-9*][\w.+\-*]*)(?:\s*;\s*[\w\-]+=[\w\-\"]+)*"),
    ("path", r"(?<![\w.~/$+#])(?:~|\.{1,2})?/[\w\-.]+(?:/[\w\-.]+)*"
             r"|(?<![\w/])[\w$+#.\-]+(?:/[\w$+#.\-]+){2,}/?"),  # "/etc/hosts", "$SYS/monitor/Clients"
    ("file name", r"(?<![\w.])[\w\-]+\.(?i:txt|xml|xsd|rng|json|ya?ml|html?|css|js|ts|py|c|h|cpp|java|go|rs|rb|sh|md"
                  r"|rst|pdf|docx?|odt|ods|odp|xlsx?|csv|toml|ini|cfg|conf|log|zip|gz|tar|png|jpe?g|gif|svg|exe|dll|so"
                  r"|abnf|asn|pem|der|crt|key|sarif|proto)(?![\w.])"),
    ("code in backticks", r"`[^`\n]{1,200}`"),
    ("a call", r"(?<![\w\-])[A-Za-z_$][\w$]*(?:(?:::|->|\.)[A-Za-z_$][\w$]*)*\(\)"),
    ("a JSON key", r"(?<=[\"\u201c])[A-Za-z_$][\w$.\-]*(?=[\"\u201d]\s*:)"),
    ("an option", r"(?:(?<=[\s(\[\"'\u201c\u2018])|^)--?[A-Za-z][\w\-]*(?<!-)(?=[\s,.;:)\]\"'\u201d\u2019]|$)"),
    ("a namespace-prefixed name", r"(?<![\w:/.\-])[A-Za-z_][\w.\-]*:[A-Za-z_][\w\-]*(?:\.[\w\-]+)*(?<![.\-])(?![\w:/])"),
    ("a dotted path", r"(?<![\w.$\-])[A-Za-z_$][\w$]*(?:\[\w*\])?(?:\.[A-Za-z_$][\w$\-]*(?:\[\w*\])?)+(?![\w(])"
                      r"|(?<![\w.$\-])[A-Za-z_$][\w$]*\[\w*\](?:\[\w*\])*"),
    ("snake_case", r"(?<![\w\-])(?=[\w\-]*[A-Za-z0-9]_[A-Za-z0-9])[A-Za-z_][\w\-]*"),
    ("scoped name", r"(?<![\w\-])\w+(?:::\w+)+"),
    ("an assignment", r"(?<![\w\-])\w[\w.\-]*=[\w\"\-]+"),
    # a capital after two small letters ("ruleId", "JavaScript") or after a one-letter prefix
    # ("pBuffer"); not a mixed-case abbreviation ("QoS", "DDoS", "PhD"), which the checks read
    ("camelCase", r"(?<![\w\-])(?=[a-z][A-Z][a-z]|[A-Za-z0-9]*[a-z]{2}[A-Z])[A-Za-z][A-Za-z0-9]*(?![\w\-])"),
    ("a program word in capitals", r"(?<![\w\-])[A-Z]{6,}(?![\w\-])"),
    ("a quoted value", r"(?<=[\"\u201c])[a-z][a-z0-9]{3,}(?=[\"\u201d])"),
]
#: Every shape, in order: what the scan of only the shapes a text can hold (:func:`_shapes_for`)
#: finds the same as (tests/addin_backend/language/test_identifiers.py).
_SHAPES = re.compile("|".join(f"(?P<g{i}>{rx})" for i, (_why, rx) in enumerate(_SHAPE_PARTS)))
_WHY = {f"g{i}": why for i, (why, _rx) in enumerate(_SHAPE_PARTS)}
_LOWER_UPPER = re.compile(r"[a-z][A-Z]")
_SIX_CAPITALS = re.compile(r"[A-Z]{6}")
_QUOTES = ("\"", "\u201c")
#: What every match of each shape contains (its literal characters, or what its lookarounds
#: require), by :data:`_SHAPE_PARTS`' order: a shape whose test fails on a text matches nowhere
#: in it, so the scan leaves it out. The alternation tried every shape at every position (the
#: hyphenation check's tokens at 5,400 units: a third of its time), though most prose holds the
#: characters of three or four.
_NEEDS: list[Callable[[str], bool]] = [
    lambda t: "<" in t,  # markup
    lambda t: "<" in t,  # a placeholder
    lambda t: ":" in t or "www." in t,  # URI: "://", "mailto:", "urn:", "www."
    lambda t: "@" in t,  # e-mail address
    lambda t: "/" in t,  # media type
    lambda t: "/" in t,  # path
    lambda t: "." in t,  # file name
    lambda t: "`" in t,  # code in backticks
    lambda t: "()" in t,  # a call
    lambda t: ":" in t,  # a JSON key: a colon after its closing quote
    lambda t: "-" in t,  # an option
    lambda t: ":" in t,  # a namespace-prefixed name
    lambda t: "." in t or "[" in t,  # a dotted path, an index
    lambda t: "_" in t,  # snake_case
    lambda t: "::" in t,  # scoped name
    lambda t: "=" in t,  # an assignment
    lambda t: _LOWER_UPPER.search(t) is not None,  # camelCase: a small letter, then a capital
    lambda t: _SIX_CAPITALS.search(t) is not None,  # a program word in capitals
    lambda t: any(q in t for q in _QUOTES),  # a quoted value: after an opening quote
]
assert len(_NEEDS) == len(_SHAPE_PARTS)


@lru_cache(maxsize=512)
def _shapes_of(mask: int) -> re.Pattern[str]:
    """The alternation of the shapes in ``mask`` (bit ``i``: :data:`_SHAPE_PARTS`' ``i``), in
    their order and under their names: where each match starts, the first shape that matches
    there wins, as in :data:`_SHAPES`, and a shape left out matches nowhere in the text."""
    return re.compile("|".join(f"(?P<g{i}>{rx})" for i, (_why, rx) in enumerate(_SHAPE_PARTS) if mask >> i & 1))


def _shapes_for(text: str) -> re.Pattern[str] | None:
    """The alternation of the shapes ``text`` can hold (:data:`_NEEDS`); ``None``: none."""
    mask = 0
    for i, needs in enumerate(_NEEDS):
        if needs(text):
            mask |= 1 << i
    return _shapes_of(mask) if mask else None
#: "e.g", "i.e", "U.S.A": abbreviations written with dots are no paths.
_ABBREVIATION = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]?|(?i:etc|al|cf|vs|viz|approx|fig|figs|no|vol|pp?|sec|ch)\.\w+")


def _plain_word(word: str) -> bool:
    from .wordlists import is_english_word

    return is_english_word(word)


def _dictionary_piece(word: str) -> bool:
    from .wordlists import dictionary_word

    return dictionary_word(word)


def _function_piece(word: str) -> str | None:
    """The class of a function word a keyword glues in ("by" of FOLLOWEDBY, "is" of ISSUBSET),
    or ``None`` for a content word."""
    from .lexicon import is_function_word

    for subset in ("auxiliaries", "prepositions", "quantifiers", "coordinators", "articles"):
        if is_function_word(word, subset):
            return subset
    return None


def _phrase(pieces: list[str]) -> bool:
    """Whether words glued in capitals read as a name made of words: each piece a word of the
    spelling dictionaries (not a word of the embedder's vocabulary only, which knows "csis" and
    "dia"), the content words of three letters or more and one of four or more, and each function
    word where English grammar puts it in a name: an auxiliary opens a predicate ("IS SUBSET",
    "HAS KEY") and never follows a word ("DOCSIS" is no "docs is"); a preposition, particle or
    quantifier stands on either side ("FOLLOWED BY", "WAKE UP", "DOT ALL").

    >>> _phrase(["followed", "by"]), _phrase(["is", "subset"]), _phrase(["file", "version"]), _phrase(["docs", "is"])
    (True, True, True, False)
    """
    content = [p for p in pieces if _function_piece(p) is None]
    if not content or max(map(len, content)) < 4 or any(len(p) < 3 for p in content):
        return False
    if any(_function_piece(p) == "auxiliaries" for p in pieces[1:]):
        return False
    return all(_dictionary_piece(p) for p in pieces)


@lru_cache(maxsize=8192)
def _glued_capitals(token: str) -> bool:
    """An ALL-CAPS word that is no English word but English words glued ("FOLLOWEDBY",
    "ISSUBSET", "FILEVERSION", "PINGRESP"), or longer than an acronym ever is: a program's
    keyword; an acronym's letters spell no such phrase ("NISTIR", "OSCORE", "DOCSIS"):
    :func:`_phrase`."""
    low = token.lower()
    if _plain_word(low):
        return False
    if len(low) > 10:
        return True  # longer than any acronym by the checks' measure (2-10 letters), and no word
    for i in range(2, len(low) - 1):
        head, tail = low[:i], low[i:]
        if _phrase([head, tail]):
            return True
        if any(_phrase([head, tail[:j], tail[j:]]) for j in range(2, len(tail) - 1)):
            return True
    return False


_CAPS_WORD = re.compile(r"(?<![\w\-])[A-Z]{3,}(?![\w\-])")
_ANY_WORD = re.compile(r"[^\W\d_]{2,}")


def _shouting(text: str) -> bool:
    """A text written in capitals (a licence's disclaimer): its words in capitals are emphasis,
    not program words."""
    caps = len(_CAPS_WORD.findall(text))
    return caps >= 5 and 2 * caps > len(_ANY_WORD.findall(text))


#: "Data.The": a sentence whose space after the full stop was lost, not a dotted path.
_LOST_SPACE = re.compile(r"([^\W\d_]+)\.([A-Z][a-z]+)")


def _keep(why: str, text: str) -> bool:
    """Whether a shape match is an identifier after all (an abbreviation with dots is not; a
    word in capitals only when glued from words; a quoted value only when it is no word)."""
    if why == "a dotted path":
        if _ABBREVIATION.fullmatch(text) or all(len(p) <= 1 for p in text.split(".")):
            return False
        lost = _LOST_SPACE.fullmatch(text)
        return not (lost and _plain_word(lost.group(1)) and _plain_word(lost.group(2)))
    if why == "a program word in capitals":
        return _glued_capitals(text)
    if why == "a quoted value":
        return not _plain_word(text)
    if why == "an option":
        return text.startswith("--") or len(text) <= 4
    return True


def shape_spans(text: str) -> list[Identifier]:
    """The identifiers ``text`` shows by their shape alone (no document needed).

    >>> t = "Each <manifest:file-entry> has a manifest:full-path; run it with --safe (see ruleId)."
    >>> [(i.text, i.why) for i in shape_spans(t)]  # doctest: +NORMALIZE_WHITESPACE
    [('<manifest:file-entry>', 'markup'), ('manifest:full-path', 'a namespace-prefixed name'),
     ('--safe', 'an option'), ('ruleId', 'camelCase')]
    >>> [i.text for i in shape_spans('The "partialFingerprints": {...} of result.locations[0], e.g. a FOLLOWEDBY.')]
    ['partialFingerprints', 'result.locations[0]', 'FOLLOWEDBY']
    """
    return list(_shape_scan(text))


@lru_cache(maxsize=8192)
def _shape_scan(text: str) -> tuple[Identifier, ...]:
    """:func:`shape_spans`, kept by text: a check asks for the same unit's shapes three or four
    times (the hyphenation tokens, the named words, the straight quotes' marks, the identifiers
    of the style checks), and a text's shapes depend on nothing else."""
    shapes = _shapes_for(text)
    if shapes is None:
        return ()
    out = []
    shouting: bool | None = None
    for m in shapes.finditer(text):
        why = _WHY[m.lastgroup or ""]
        if why == "a program word in capitals":
            if shouting is None:
                shouting = _shouting(text)
            if shouting:
                continue
        if _keep(why, m.group()):
            out.append(Identifier(m.start(), m.end(), m.group(), why))
    return tuple(out)


def identifier_shape(token: str) -> str | None:
    """Why a whole token is an identifier by its shape, or ``None`` when it is not.

    >>> identifier_shape("table:data-type"), identifier_shape("max_ack_delay"), identifier_shape("data type")
    ('a namespace-prefixed name', 'snake_case', None)
    """
    for i in shape_spans(token):
        if i.start == 0 and i.end == len(token):
            return i.why
    return None


def is_identifier(token: str) -> bool:
    """Whether a whole token is an identifier by its shape (:func:`identifier_shape`).

    >>> [is_identifier(t) for t in ("--safe", "ruleId", "FILEVERSION", "HTTP", "e.g", "file-entry", "index.html")]
    [True, True, True, False, False, False, True]
    """
    return identifier_shape(token) is not None


# --- code lines --------------------------------------------------------------------------------

#: Lines that read as code or grammar (each pattern matches a whole line, stripped).
_CODE_LINES = [
    re.compile(p)
    for p in (
        # ABNF rules, pseudo-code assignments, BNF: "name = rule / rule", "x += 1", "a ::= b"
        r"[A-Za-z_$][\w.$\-]*(?:\s*\[[^\]]*\])?\s*(?:=/?|::=|:=|\+=|-=|<-)\s*\S.*(?<![.!?])",
        # a line that opens or closes a block: "struct {", "};", "} ClientHello;"
        r"[{}].*|.*\{",
        # lower-case keyword statements: "if (x):", "while (y) {", "else:", "return x;"
        r"(?:if|elif|while|for|switch|select)\s*\(.*|(?:else|try|finally)\s*[:{]?|return\b.*;",
        r"(?:def|function|class)\s+\w+\s*[({:].*",
        # a call: "max(kTimeThreshold * max(smoothed_rtt, latest_rtt), kGranularity)"
        r"[A-Za-z_$][\w.$]*\((?:[^()]|\([^()]*\))*\)\s*[;:{]?",
        # box drawing: "+-----+", "|  Start  |", "Loss or |"
        r"[|+].*|.*[|]|.*-\+",
    )
]
#: A declaration ending in ";": "opaque random[32];", "ProtocolVersion legacy_version = 0x0303;".
_DECLARATION = re.compile(r"(?:[\w<>\[\].]+\s+){1,3}[\w<>\[\]().^\-]+\s*(?:=\s*[^;]+)?;")
_CODE_MARK = re.compile(r"[<>\[\]=_\d]|[a-z][A-Z]")
#: Characters of ASCII art and operators: a line mostly made of them is a drawing or a formula.
_ART = re.compile(r"[-+|/\\<>=*_{}\[\]()#:;^~.,!@%&'\"`0-9]")
#: A value written in digits: a number, a date, a time or a version ("2025-10-07", "1.2.0",
#: "v5", "10:30", "1,000"); its separators stand between digits, so they draw nothing.
_VALUE = re.compile(r"(?<![\w.])[vV]?\d+(?:[.\-/:,]\d+)*(?![\w])")


def _reads_as_code(line: str) -> bool:
    line = line.strip()
    if any(p.fullmatch(line) for p in _CODE_LINES):
        return True
    if _DECLARATION.fullmatch(line) and _CODE_MARK.search(line):
        return True
    if _VALUE.fullmatch(line):
        # one value alone on its line ("2025-10-07", "1.2.0") is a date, a number or a version
        # as prose writes it; rows of values (a hex dump) and formulas still read as code
        return False
    chars = len(line) - line.count(" ") - line.count("\t")
    return chars >= 3 and len(_ART.findall(line)) / chars > 0.5


def _all_code(unit: Unit) -> bool:
    """Whether the reader found every visible character of the unit written as code."""
    spans = unit.meta.get("code")
    if not spans:
        return False
    text = unit.text
    covered = [False] * len(text)
    for a, b in spans:
        for k in range(max(0, a), min(b, len(text))):
            covered[k] = True
    return all(c or text[k].isspace() for k, c in enumerate(covered))


def is_code_line(unit: Unit) -> bool:
    """A paragraph of code, grammar or ASCII art: in a code/preformatted style, written wholly
    in a code character style or monospace font, or most of its lines read as code
    (:data:`_CODE_LINES`, a declaration ending in ";") or are mostly operators and digits
    (ASCII art, formulas); a value alone (a date, a number, a version) draws nothing.

    >>> is_code_line(Unit("p-1", "paragraph", "Cache-Control   = #cache-directive", 0))
    True
    >>> is_code_line(Unit("p-2", "paragraph", "The cache directive is case-insensitive.", 1))
    False
    >>> is_code_line(Unit("p-3", "paragraph", "manifest.xml", 2, meta={"code": [[0, 12]]}))
    True
    >>> is_code_line(Unit("p-4", "paragraph", "2025-10-07", 3))
    False
    """
    if unit.style and CODE_STYLE.search(unit.style):
        return True
    if _all_code(unit):
        return True
    lines = [ln for ln in unit.text.split("\n") if ln.strip()]
    if not lines:
        return False
    return 2 * sum(_reads_as_code(ln) for ln in lines) > len(lines)


# --- names the document defines ----------------------------------------------------------------

_TOKEN = re.compile(r"[^\s,;()\[\]{}\"'\u201c\u201d\u2018\u2019<>]+")
_EDGE = ".:!?"


def _token_is_name(tok: str) -> bool:
    """A token written in code that names something wherever it is written: identifier-shaped,
    in capitals, or no dictionary word ("DSUM", "visualbasic"); not an ordinary word ("type")."""
    if len(tok) < 2 or not any(c.isalpha() for c in tok):
        return False
    if identifier_shape(tok):
        return True
    letters = [c for c in tok if c.isalpha()]
    if all(c.isupper() for c in letters) and len(letters) >= 2:
        return True
    return tok.replace("-", "").isalnum() and not _plain_word(tok) and not _plain_word(tok.lower())


class _DocNames(NamedTuple):
    ref: weakref.ref
    key: tuple
    names: frozenset
    spans: dict


_DOCS: dict[int, _DocNames] = {}


def _forgetter(key: int) -> Callable[[object], None]:
    def forget(_ref: object) -> None:
        _DOCS.pop(key, None)

    return forget


def _doc_key(doc: Document) -> tuple:
    """What invalidates a document's names: units added or removed (a unit's own spans are
    checked against its text on every call)."""
    return (len(doc.units),)


def _compute_names(doc: Document) -> frozenset[str]:
    names: set[str] = set()
    for u in doc.units:
        spans = u.meta.get("code")
        text = u.text
        if spans and not (u.style and CODE_STYLE.search(u.style)):
            for a, b in spans:  # inline code: the names the prose uses
                for m in _TOKEN.finditer(text, max(0, a), min(b, len(text))):
                    tok = m.group().strip(_EDGE)
                    if _token_is_name(tok):
                        names.add(tok)
        if ":" in text:
            for i in shape_spans(text):
                if i.why in ("a namespace-prefixed name", "markup"):
                    names.add(i.text.strip("</>"))
    for name in list(names):  # a prefixed name's local part, where it is no plain word ("file-entry")
        if ":" in name:
            local = name.rpartition(":")[2]
            if re.search(r"[\-_]|[a-z][A-Z]", local):
                names.add(local)
    return frozenset(n for n in names if n)


def _record(doc: Document) -> _DocNames:
    key = id(doc)
    hit = _DOCS.get(key)
    dkey = _doc_key(doc)
    if hit is not None and hit.ref() is doc and hit.key == dkey:
        return hit
    rec = _DocNames(weakref.ref(doc, _forgetter(key)), dkey, _compute_names(doc), {})
    _DOCS[key] = rec
    return rec


def code_names(doc: Document) -> frozenset[str]:
    """The names ``doc`` defines by writing them as code (in a code style, inline) or with a
    namespace prefix, and the local parts of prefixed names that are no plain word: each is an
    identifier wherever the document writes it in that spelling."""
    return _record(doc).names


# --- all identifiers of a unit -----------------------------------------------------------------


def _merge(found: list[Identifier], text: str) -> list[Identifier]:
    found.sort(key=lambda i: (i.start, -i.end))
    out: list[Identifier] = []
    for i in found:
        if out and i.start < out[-1].end:
            last = out[-1]
            if i.end > last.end:
                out[-1] = Identifier(last.start, i.end, text[last.start:i.end], last.why)
            continue
        out.append(i)
    return out


def identifier_spans(unit: Unit, doc: Document | None = None) -> list[Identifier]:
    """Every identifier in ``unit``'s text, left to right, overlapping ones merged (the first
    reason kept): the spans the reader found written as code, the tokens shaped as identifiers,
    and the names ``doc`` defines (:func:`code_names`) where the unit writes them.

    >>> u = Unit("p", "paragraph", "Set DSUM in the <table:table-cell> and the file-entry.", 0, meta={"code": [[4, 8]]})
    >>> [(i.text, i.why) for i in identifier_spans(u, Document("docx", [u]))]  # doctest: +NORMALIZE_WHITESPACE
    [('DSUM', 'written in a code style'), ('<table:table-cell>', 'markup')]
    """
    text = unit.text
    rec = _record(doc) if doc is not None else None
    if rec is not None:
        hit = rec.spans.get(unit.id)
        if hit is not None and hit[0] == text and hit[1] is unit.meta.get("code"):
            return hit[2]
    found: list[Identifier] = []
    for a, b in unit.meta.get("code") or ():
        a, b = max(0, a), min(b, len(text))
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            found.append(Identifier(a, b, text[a:b], "written in a code style"))
    found.extend(shape_spans(text))
    if rec is not None and rec.names:
        names = rec.names
        for m in _TOKEN.finditer(text):
            tok = m.group()
            core = tok.strip(_EDGE)
            if core in names:
                s = m.start() + tok.index(core)
                found.append(Identifier(s, s + len(core), core, "a name the document writes as code"))
    out = _merge(found, text)
    if rec is not None:
        rec.spans[unit.id] = (text, unit.meta.get("code"), out)
    return out


def identifier_at(unit: Unit, start: int, end: int, doc: Document | None = None) -> Identifier | None:
    """The identifier of ``unit`` that overlaps ``start:end`` (an empty range: that contains
    it), or ``None``."""
    for i in identifier_spans(unit, doc):
        if i.start < end and start < i.end or (start == end and i.start <= start < i.end):
            return i
    return None
