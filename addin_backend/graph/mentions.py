"""Textual mentions of document units ("Section 2.1", "Figs. 3 and 4", "Annex B", "see 5.2.1").

:func:`find_mentions` is a pure function of a text (cached per text): it finds every internal
mention with its minimal span and leaves out external citations ("Section 3 of [RFC9110]",
"(Smith et al., 2020, Table 2)"). :func:`build_label_index` collects the labels a document's
units answer to, and :func:`resolve_mentions` joins the two: resolved mentions become
REFERENCES edges, explicit mentions of labels that do not exist become broken references.
The verification and rename code reuse the same spans (``Mention.items`` hold each number's
offsets).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Iterator

from adapters.labels import caption_label, leading_label
from adapters.model import Document, Unit

from ..nlp import FACTS

__all__ = [
    "FAMILIES",
    "Item",
    "Mention",
    "Resolved",
    "BrokenReference",
    "LabelIndex",
    "find_mentions",
    "parse_label",
    "canonical_label",
    "build_label_index",
    "unit_keys",
    "resolve_unit",
    "resolve_mentions",
]

# --- the words a reader cites units by ------------------------------------------------------

# (regex, family, lower case allowed). Families are what labels are indexed by: every
# sectioning word (Chapter, Clause, Annex, Article, §) shares the family "section".
_WORD_TABLE: tuple[tuple[str, str, bool], ...] = (
    (r"sub-?sections?|sections?|sects?\.|secs?\.", "section", True),
    (r"chapters?|chaps?\.", "section", True),
    (r"Ch\.", "section", False),
    (r"sub-?clauses?|clauses?", "section", True),
    (r"appendix|appendices|annex(?:es)?", "section", True),
    (r"App\.", "section", False),
    (r"articles?", "section", True),
    (r"Arts?\.", "section", False),
    # "paragraph 3.2.1" (military and legal standards); a plain "paragraph 2" is too ambiguous
    (r"paragraphs?(?=\s+(?:\d+|[A-Z])\.\d)|paras?\.(?=\s*(?:\d+|[A-Z])\.\d)", "section", True),
    (r"figures?|figs?\.|fig(?=\s*\d)", "figure", True),
    (r"tables?", "table", True),
    (r"Tabs?\.|Tbls?\.", "table", False),
    (r"equations?|eqs?\.|eqns?\.", "equation", True),
    (r"theorems?", "theorem", True),
    (r"Thms?\.", "theorem", False),
    (r"lemmas?|lemmata", "lemma", True),
    (r"Lems?\.", "lemma", False),
    (r"Definitions?|Defs?\.", "definition", False),
    (r"propositions?", "proposition", True),
    (r"Props?\.", "proposition", False),
    (r"corollary|corollaries", "corollary", True),
    (r"Cors?\.", "corollary", False),
    (r"algorithms?", "algorithm", True),
    (r"Algs?\.", "algorithm", False),
    (r"Examples?", "example", False),
    (r"Remarks?", "remark", False),
    (r"Assumptions?", "assumption", False),
    (r"Conjectures?", "conjecture", False),
    (r"Claims?", "claim", False),
    (r"Axioms?", "axiom", False),
    (r"Requirements?", "requirement", False),
    (r"Listings?", "listing", False),
)

#: Every family a mention or a label can belong to.
FAMILIES = tuple(dict.fromkeys(f for _, f, _ in _WORD_TABLE))

_PLURAL = re.compile(
    r"^(?:sections|subsections|sub-sections|secs\.|sects\.|chapters|chaps\.|clauses|subclauses|"
    r"sub-clauses|appendices|annexes|articles|arts\.|paragraphs|paras\.|figures|figs\.|tables|tabs\.|tbls\.|"
    r"equations|eqs\.|eqns\.|theorems|thms\.|lemmas|lemmata|lems\.|definitions|defs\.|"
    r"propositions|props\.|corollaries|cors\.|algorithms|algs\.|examples|remarks|assumptions|"
    r"conjectures|claims|axioms|requirements|listings|§§)$",
    re.I,
)

_WORD_ALT = "|".join(f"(?i:{rx})" if lower else f"(?:{rx})" for rx, _, lower in _WORD_TABLE)

# One number: "2", "2.1.3", "3b", "A.2", "B" (letters and roman numerals: sections only).
_NUM = r"\d+[A-Za-z]?(?:\.\d+[A-Za-z]?)*(?![\w])|[A-Z](?:\.\d+)+(?![\w])|[A-Z](?![\w])|[IVXLC]{1,6}(?![\w])"
# An item: a number, "(1)" for equations, and a trailing sub-part "(b)" / "(iii)" that is not
# part of the minimal span.
_ITEM = rf"(?:\(\s*(?:{_NUM})\s*\)|(?:{_NUM})(?:\((?:[a-z]{{1,3}}|\d{{1,2}})\))*)"
_SEP_LIST = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+|\s*&\s*)"
_SEP_RANGE = r"(?:\s*[-\u2013\u2014]\s*|\s+(?:to|through|thru)\s+)"
_MENTION = re.compile(
    rf"(?<![\w§\-])(?P<word>§§|§|{_WORD_ALT})(?:[ \t\u00a0~]|(?<=[.§]))\s*"
    rf"(?P<items>{_ITEM}(?:(?:{_SEP_RANGE}|{_SEP_LIST}){_ITEM})*)"
)
_SEP_RANGE_RE = re.compile(_SEP_RANGE)
_DOTTED = re.compile(r"\d\.\d|\b[A-Z]\.\d")
_ITEM_RE = re.compile(rf"(?P<sep>{_SEP_RANGE}|{_SEP_LIST})?(?P<item>{_ITEM})")
_NUM_IN_ITEM = re.compile(_NUM)

# Bare clause numbers of standards ("see 5.2.1"): only after a cue that makes them references,
# only dotted numbers, and kept only when such a section exists.
_BARE_CUE = (
    r"(?:see(?:\s+also)?|cf\.|refer\s+to|(?:as\s+)?(?:specified|defined|described|given|listed|"
    r"shown|set\s+out|set\s+forth|stated|detailed|provided)\s+in|according\s+to|in\s+accordance\s+with|"
    r"pursuant\s+to|subject\s+to|under|(?:as\s+)?per)"
)
_BARE = re.compile(
    rf"(?<![\w.])(?P<cue>{_BARE_CUE})\s+(?P<items>(?:\d{{1,3}}|[A-Z])(?:\.\d{{1,3}}){{1,6}}(?!\w|\.\d)"
    rf"(?:(?:{_SEP_LIST}|{_SEP_RANGE})(?:\d{{1,3}}|[A-Z])(?:\.\d{{1,3}}){{1,6}}(?!\w|\.\d))*)",
    re.I,
)
_BARE_ITEM = re.compile(rf"(?P<sep>{_SEP_RANGE}|{_SEP_LIST})?(?P<item>(?:\d{{1,3}}|[A-Z])(?:\.\d{{1,3}}){{1,6}})")
# A measurement or version right after a number is not a clause reference.
_UNIT_AFTER = re.compile(
    r"\s*(?:%|‰|°|(?:mm|cm|km|m|s|ms|us|µs|ns|min|h|hz|khz|mhz|ghz|kb|mb|gb|tb|v|kv|mv|a|ma|w|kw|mw|"
    r"kg|g|mg|l|ml|db|px|pt|em|seconds?|minutes?|hours?|days?|years?|percent|times)\b)",
    re.I,
)

# --- external citations ----------------------------------------------------------------------

_STD = r"(?:RFC|BCP|STD|ISO(?:/IEC)?|IEC|IEEE|ITU(?:-[TR])?|ETSI|EN|ANSI|NIST|BS|DIN|ASTM|ECMA|3GPP|W3C|IETF|CEN|CENELEC|SAE|JIS|GB|FIPS|SP)"
_CITE_BEFORE = re.compile(
    rf"(?:\[[^\[\]]{{1,80}}\]|\b{_STD}[ \t/\-]*[\w\-:./]*\d[\w\-:./]*(?:\s*\(\d{{4}}\))?"
    rf"|\bet\s+al\.?\s*\(\d{{4}}[a-z]?\)|\(\d{{4}}[a-z]?\))\s*[,;:]?\s*(?:see\s+)?$",
    re.I,
)
_CITE_AFTER = re.compile(
    rf"^(?:\s*\([a-z0-9]{{1,4}}\))*\s*,?\s*(?:of|in|from)\s+(?:"
    rf"\[|\(?{_STD}\b|ref(?:erence)?s?\.?\s*\[?\d"
    rf"|(?:the\s+)?[A-Z][\w\-]+(?:\s+and\s+[A-Z][\w\-]+)?\s+(?:et\s+al\b|\(\d{{4}}|\[\d)"
    rf"|(?:the\s+)?(?!this\b|these\b|the\s+present\b)(?:[A-Z][\w/\-.]*\s+){{1,5}}"
    rf"(?:specification|standard|recommendation|paper|article|report|act|regulation|directive|"
    rf"convention|code|treaty|law|rfc|guidelines?)\b"
    rf"|[A-Z]{{2,}}[\w/\-.]*\d)",
    re.I,
)
_OPEN_BRACKET_CITE = re.compile(r"\[[^\[\]]*[\w.]\s*,\s*(?:[^\[\]]*,\s*)?$")
_OPEN_PAREN_CITE = re.compile(r"\((?:[^()]*?(?:et\s+al\.?|[A-Z][a-z]+),?\s*\d{4}[a-z]?\s*[,;]\s*(?:p+\.\s*\d+\s*,\s*)?)$")


_STD_WORD = re.compile(rf"\b{_STD}|et\s+al", re.I)


def _is_external(text: str, start: int, end: int) -> bool:
    """Whether the mention at ``text[start:end]`` cites another document."""
    before = text[max(0, start - 100) : start]
    # cheap tests first: the anchored patterns scan the whole window
    if ("]" in before or ")" in before or _STD_WORD.search(before)) and _CITE_BEFORE.search(before):
        return True
    if "[" in before and _OPEN_BRACKET_CITE.search(before):
        return True
    if "(" in before and _OPEN_PAREN_CITE.search(before):
        return True
    return bool(_CITE_AFTER.match(text[end : end + 120]))


# --- data ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One number inside a mention: its normalised form and where it is written.

    ``explicit`` is false for the numbers a range implies ("3" in "Sections 2-4"); ``start`` and
    ``end`` are then those of the whole range.
    """

    number: str
    start: int
    end: int
    explicit: bool = True


@dataclass(frozen=True)
class Mention:
    """An internal mention in a unit's text: ``text[start:end]`` is the minimal span.

    ``literal`` is the hyphenated number of a singular mention ("Figure 2-4"), tried as one
    label (chapter-style numbering) before the items are read as a range.
    """

    start: int
    end: int
    text: str
    word: str
    family: str
    items: tuple[Item, ...]
    bare: bool = False
    literal: str | None = None


@dataclass(frozen=True)
class Resolved:
    """A mention item resolved to a unit: one REFERENCES edge."""

    source: str
    target: str
    mention: Mention
    item: Item
    score: float


@dataclass(frozen=True)
class BrokenReference:
    """An explicit mention of a label that no unit carries (a finding for ``ledger check``)."""

    source: str
    start: int
    end: int
    mention: str
    label: str
    reason: str

    def to_json(self) -> dict[str, object]:
        return {
            "source": self.source,
            "mention": self.mention,
            "label": self.label,
            "start": self.start,
            "end": self.end,
            "reason": self.reason,
        }


# --- finding ---------------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def _family(word: str) -> str:
    if word.startswith("§"):
        return "section"
    for rx, fam, lower in _WORD_TABLE:
        if re.fullmatch(rx, word, 0 if not lower else re.I):
            return fam
    return "section"  # pragma: no cover - the regex only matches table words


def _norm_number(num: str) -> str:
    return num.strip().strip("()").strip().rstrip(".")


def _expand(a: str, b: str) -> list[str] | None:
    """The numbers from ``a`` to ``b`` inclusive when they differ only in the last component."""
    pa, pb = a.split("."), b.split(".")
    if len(pa) != len(pb) or pa[:-1] != pb[:-1]:
        return None
    x, y = pa[-1], pb[-1]
    if x.isdigit() and y.isdigit():
        lo, hi = int(x), int(y)
        vals = [str(i) for i in range(lo, hi + 1)] if 0 < hi - lo <= 40 else None
    elif len(x) == 1 and len(y) == 1 and x.isalpha() and y.isalpha() and x.isupper() == y.isupper():
        lo, hi = ord(x), ord(y)
        vals = [chr(i) for i in range(lo, hi + 1)] if 0 < hi - lo <= 26 else None
    else:
        vals = None
    if vals is None:
        return None
    prefix = ".".join(pa[:-1])
    return [f"{prefix}.{v}" if prefix else v for v in vals]


def _letters_ok(family: str, num: str) -> bool:
    """Letter-only numbers ("Annex B", "Section IV") are sections; others need digits."""
    if any(c.isdigit() for c in num):
        return True
    return family == "section"


def _items(
    items_text: str, base: int, family: str, plural: bool, item_re: re.Pattern[str]
) -> tuple[list[Item], str | None]:
    """Parse the numbers after a word into items (ranges expanded).

    Returns the items and, for a singular word with a hyphenated pair ("Figure 2-4"), the
    literal number that chapter-style numbering would give it.
    """
    out: list[Item] = []
    pos = 0
    prev: Item | None = None
    literal: str | None = None
    for m in item_re.finditer(items_text):
        sep = m.group("sep")
        if m.start() != pos or (sep is not None and prev is None):
            break
        raw = m.group("item")
        nm = _NUM_IN_ITEM.search(raw)
        if not nm:
            break
        num = _norm_number(nm.group(0))
        if not _letters_ok(family, num):
            break
        is_range = sep is not None and _SEP_RANGE_RE.fullmatch(sep) is not None
        if sep is not None and not is_range and not plural:
            break  # "Table 1, 2019 data": lists follow plural words only
        if raw.startswith("("):
            n_start, n_end = base + m.start("item"), base + m.end("item")
        else:  # a trailing sub-part "(b)" is not part of the minimal span
            n_start, n_end = base + m.start("item") + nm.start(), base + m.start("item") + nm.end()
        if is_range and prev is not None:
            expanded = _expand(prev.number, num)
            hyphen_pair = sep.strip() == "-" and not plural and prev.number.isdigit() and num.isdigit()
            if hyphen_pair and len(out) == 1:
                literal = f"{prev.number}-{num}"
                if expanded is None:  # "Table 3-1": only chapter numbering makes sense
                    out[-1] = Item(literal, prev.start, n_end)
                    pos = m.end()
                    break
            for mid in (expanded or [])[1:-1]:
                out.append(Item(mid, prev.start, n_end, False))
        prev = Item(num, n_start, n_end)
        out.append(prev)
        pos = m.end()
    return out, literal


def _scan(text: str) -> tuple[Mention, ...]:
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for m in _MENTION.finditer(text):
        word = m.group("word")
        family = _family(word)
        plural = bool(_PLURAL.match(word))
        items, literal = _items(m.group("items"), m.start("items"), family, plural, _ITEM_RE)
        if not items:
            continue
        start = m.start("word")
        end = max(i.end for i in items)
        if family == "equation":
            # "Eq. (1)": the closing parenthesis belongs to the label.
            while end < len(text) and text[end] == ")" and text[start:end].count("(") > text[start:end].count(")"):
                end += 1
        if _is_external(text, start, end):
            continue
        found.append(Mention(start, end, text[start:end], word, family, tuple(items), literal=literal))
        taken.append((start, end))
    for m in _BARE.finditer(text) if _DOTTED.search(text) else ():
        items, _ = _items(m.group("items"), m.start("items"), "section", True, _BARE_ITEM)
        if not items:
            continue
        start, end = items[0].start, max(i.end for i in items)
        if any(a < end and start < b for a, b in taken):
            continue
        if _UNIT_AFTER.match(text, end) or _is_external(text, start, end):
            continue
        found.append(Mention(start, end, text[start:end], "", "section", tuple(items), bare=True))
    found.sort(key=lambda x: x.start)
    return tuple(found)


def find_mentions(text: str) -> tuple[Mention, ...]:
    """Every internal mention in ``text``, in order, external citations left out.

    >>> [m.text for m in find_mentions("As Fig. 3(b) and Section 2.1 show; see Section 3 of [RFC9110].")]
    ['Fig. 3', 'Section 2.1']
    >>> [(i.number, i.explicit) for i in find_mentions("Sections 2-4 apply.")[0].items]
    [('2', True), ('3', False), ('4', True)]
    >>> [i.number for i in find_mentions("Compare Equations (1) and (3).")[0].items]
    ['1', '3']
    """
    return FACTS.memo("mentions", text, _scan)


# --- labels ----------------------------------------------------------------------------------

_LABEL = re.compile(rf"^\s*(?P<word>§|{_WORD_ALT})\s*(?P<num>\(?\s*(?:{_NUM})\s*\)?)\s*[.:]?\s*$")
_GENERIC_LABEL = re.compile(r"^\s*(?P<word>[A-Za-z][\w\-]*)\s+(?P<num>\(?[\w.\-]+\)?)\s*$")
_HEADING_WORD = re.compile(
    rf"^\s*(?P<word>(?i:chapter|section|clause|annex|appendix|article|part)|§)\s*"
    rf"(?P<num>\d+[A-Za-z]?(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVXLC]{{1,6}})(?![\w])"
)
_HEADING_NUM = re.compile(r"^\s*(?P<num>\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+)\.?(?=\s+\S|\s*$)")


def parse_label(label: str | None) -> tuple[str, str] | None:
    """``(family, number)`` of a label as a reader writes it.

    >>> parse_label("Section 2.1"), parse_label("Appendix A"), parse_label("Equation (2)")
    (('section', '2.1'), ('section', 'A'), ('equation', '2'))
    >>> parse_label("Listing 4"), parse_label("Annex B"), parse_label(None)
    (('listing', '4'), ('section', 'B'), None)
    """
    if not label:
        return None
    m = _LABEL.match(label)
    if m:
        return _family(m.group("word")), _norm_number(m.group("num"))
    m = _GENERIC_LABEL.match(label)
    if m:
        return m.group("word").lower(), _norm_number(m.group("num"))
    return None


_CANON_WORD = {
    "section": "Section",
    "figure": "Figure",
    "table": "Table",
    "equation": "Equation",
}


_SECTION_WORDS = (
    ("sub", "Section"),
    ("sec", "Section"),
    ("§", "Section"),
    ("ch", "Chapter"),
    ("clause", "Clause"),
    ("subclause", "Clause"),
    ("app", "Appendix"),
    ("annex", "Annex"),
    ("art", "Article"),
    ("para", "Paragraph"),
)


def canonical_label(family: str, number: str, word: str | None = None) -> str:
    """The label a reader would print for ``(family, number)``, in the words of ``word`` if given.

    >>> canonical_label("equation", "3"), canonical_label("section", "B"), canonical_label("lemma", "2")
    ('Equation (3)', 'Appendix B', 'Lemma 2')
    >>> canonical_label("section", "7", "Clause"), canonical_label("section", "2", "§§")
    ('Clause 7', 'Section 2')
    """
    if family == "equation":
        return f"Equation ({number})"
    if family == "section" and word:
        low = word.lower()
        for prefix, name in _SECTION_WORDS:
            if low.startswith(prefix):
                return f"{name} {number}"
    if family == "section" and number.isalpha() and len(number) == 1:
        return f"Appendix {number}"
    return f"{_CANON_WORD.get(family, family.title())} {number}"


_KIND_RANK = {
    "section": {"section": 0},
    "figure": {"figure": 0, "caption": 1},
    "table": {"table": 0, "caption": 1},
    "equation": {"equation": 0, "caption": 1},
}


def unit_keys(unit: Unit) -> list[tuple[tuple[str, str], int]]:
    """The ``(family, number)`` keys a unit answers to, each with its source rank (0 = label)."""
    keys: list[tuple[tuple[str, str], int]] = []
    parsed = parse_label(unit.label)
    if parsed:
        keys.append((parsed, 0))
    if unit.kind == "section":
        if unit.number:
            num = _norm_number(unit.number)
            if num and re.fullmatch(r"[\w.]+", num):
                keys.append((("section", num), 0))
        head = unit.title or unit.text
        m = _HEADING_WORD.match(head) or _HEADING_NUM.match(head)
        if m:
            keys.append((("section", _norm_number(m.group("num"))), 1))
    elif unit.kind in ("caption", "figure", "table", "equation"):
        got = caption_label(unit.text)
        if got:
            p = parse_label(got[0])
            if p:
                keys.append((p, 1))
    if unit.kind in ("paragraph", "list_item", "caption"):
        got = leading_label(unit.text)
        if got:
            p = parse_label(got[0])
            if p:
                keys.append((p, 1))
    seen: set[tuple[str, str]] = set()
    out = []
    for k, r in keys:
        if k not in seen:
            seen.add(k)
            out.append((k, r))
    return out


@dataclass
class LabelIndex:
    """``(family, number)`` -> the unit ids answering to it, best first."""

    entries: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    ambiguous: set[tuple[str, str]] = field(default_factory=set)

    def resolve(self, family: str, number: str) -> str | None:
        hits = self.entries.get((family, number))
        return hits[0] if hits else None

    def has_family(self, family: str) -> bool:
        return any(f == family for f, _ in self.entries)

    def targets(self) -> dict[tuple[str, str], tuple[str, bool]]:
        """The resolution of every key and whether it is ambiguous (what a change to the labels
        is measured against)."""
        return {k: (v[0], k in self.ambiguous) for k, v in self.entries.items() if v}


def build_label_index(units: Iterable[Unit]) -> LabelIndex:
    """Index the labels of ``units`` (reader labels first, then labels read from the text).

    >>> from adapters.model import Unit
    >>> idx = build_label_index([Unit("s1", "section", "Scope", 0, number="1"),
    ...                          Unit("c1", "caption", "Table 2: Costs", 1, label="Table 2"),
    ...                          Unit("t1", "table", "a | b", 2, label="Table 2")])
    >>> idx.resolve("section", "1"), idx.resolve("table", "2")
    ('s1', 't1')
    """
    cand: dict[tuple[str, str], list[tuple[tuple[int, int, int], str]]] = {}
    for u in units:
        for key, rank in unit_keys(u):
            kind_rank = _KIND_RANK.get(key[0], {}).get(u.kind, 2)
            cand.setdefault(key, []).append(((rank, kind_rank, u.order), u.id))
    idx = LabelIndex()
    for key, lst in cand.items():
        lst.sort()
        idx.entries[key] = [uid for _, uid in lst]
        if len(lst) > 1 and lst[0][0][:2] == lst[1][0][:2]:
            idx.ambiguous.add(key)
    return idx


# --- resolving -------------------------------------------------------------------------------


def _lookup(index: LabelIndex, family: str, item: Item) -> tuple[str | None, str]:
    """The unit an item names, or failing that the item without a trailing letter ("3b")."""
    hit = index.resolve(family, item.number)
    if hit:
        return hit, item.number
    if re.fullmatch(r"[\d.]+[a-z]", item.number, re.I) and item.number[-2].isdigit():
        hit = index.resolve(family, item.number[:-1])
        if hit:
            return hit, item.number[:-1]
    return None, item.number


def resolve_unit(unit: Unit, index: LabelIndex) -> tuple[list[Resolved], list[BrokenReference]]:
    """The REFERENCES a unit's text makes, and its broken references."""
    resolved: list[Resolved] = []
    broken: list[BrokenReference] = []
    text = unit.text
    own = {k for k, _ in unit_keys(unit)}
    fields = [(f.start, f.end) for f in unit.fields if f.is_reference and f.end > f.start]
    for m in find_mentions(text):
        if m.start == len(text) - len(text.lstrip()) and any((m.family, i.number) in own for i in m.items):
            continue  # the unit's own label ("Figure 3: ..." opening its caption)
        if any(a < m.end and m.start < b for a, b in fields):
            continue  # a reference field covers it: the field's exact target wins
        items = m.items
        if m.literal and index.resolve(m.family, m.literal):
            items = (Item(m.literal, m.items[0].start, m.items[-1].end),)
        single = len(items) == 1
        for item in items:
            target, number = _lookup(index, m.family, item)
            if target is None:
                if item.explicit and not m.bare:
                    label = canonical_label(m.family, item.number, m.word)
                    broken.append(
                        BrokenReference(
                            unit.id,
                            item.start if not single else m.start,
                            item.end if not single else m.end,
                            m.text,
                            label,
                            f"no unit is labelled {label}",
                        )
                    )
                continue
            if target == unit.id:
                continue
            score = 1.0
            if m.bare:
                score = 0.9
            elif (m.family, number) in index.ambiguous:
                score = 0.8
            resolved.append(Resolved(unit.id, target, m, item, score))
    return resolved, broken


def resolve_mentions(
    doc: Document, index: LabelIndex | None = None, units: Iterable[Unit] | None = None
) -> tuple[list[Resolved], list[BrokenReference]]:
    """Resolve the textual mentions of every unit (or of ``units``) against the labels of ``doc``."""
    index = index or build_label_index(doc.units)
    res: list[Resolved] = []
    brk: list[BrokenReference] = []
    for u in units if units is not None else doc.units:
        r, b = resolve_unit(u, index)
        res.extend(r)
        brk.extend(b)
    return res, brk


def iter_mention_keys(text: str) -> Iterator[tuple[str, str]]:
    """The ``(family, number)`` keys a text mentions (for incremental invalidation)."""
    for m in find_mentions(text):
        if m.literal:
            yield m.family, m.literal
        for i in m.items:
            yield m.family, i.number
            if re.fullmatch(r"[\d.]+[a-z]", i.number, re.I):
                yield m.family, i.number[:-1]
