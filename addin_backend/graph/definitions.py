"""Definitions (terms, acronyms, notation) and the units that use them: DEPENDS edges.

A unit that uses a defined term depends on the unit that defines it. Definitions come from two
places, both without a model: the text of each unit (:mod:`.definition_rules`: quoted and
contract terms, naming phrases, definitional sentences, symbols, acronyms) and the document's
structure (:mod:`.glossary`: definition lists, terminology sections). The
registry (:func:`definition_registry`) gathers them with the document-wide facts that decide
which uses make edges, and the coinages only a document can confirm: writers put a new term in
quotes where they introduce it and drop the quotes afterwards, while a value is quoted wherever
it is given. So a quoted phrase no rule reads as defined is a term where it is the document's
first mention of the phrase in prose, or, not a common word, the one place the document quotes it
after at most two mentions in passing. Code lines, tables, captions and reference entries quote
values and titles: they coin nothing, and a coinage's use there is none. A common word in a
terminology list ("Depth:", "Expected:") is used in any case; a word in capitals ("STREAM
frames") is a name, no use of a case-free term.

Which uses a unit has (:func:`find_usages`): every later use of the term, in its plural and
possessive forms for English units (a defined verb's forms: "pipelined"), tied to the nearest
earlier definition written as the use is written; a repeated introduction (an acronym expanded
again) is no new definition. A unit that defines a term itself does not use it, and where
defined names nest the longest wins. Two uses English words make that are no uses: the
singular of a one-word plural term modifying a noun ("a Host header field" for "headers"), and
a common adjective defined as a state ('A stream is considered "idle" if') used other than as
a predicate ("idle timeout").
"""
from __future__ import annotations

import bisect
import logging
import os
import re
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable, Iterator, Sequence

from adapters.model import Document, Unit

from ..budget import check as check_budget
from ..language.forms import noun_forms, singular
from ..language.identifiers import is_code_style
from ..language.lexicon import function_words
from ..language.nlp import word_classes
from ..language.detect import is_english, primary
from .definition_rules import (
    Q_CLOSE,
    Q_OPEN,
    Definition,
    acronym_ok,
    find_coinages,
    find_definitions,
    has_function_word,
    is_common_word,
    is_identifier,
    is_statement,
    tag_at,
    term_ok,
)
from .glossary import structural_definitions
from .related import is_reference_entry
from .text import capital_after, word_set

log = logging.getLogger(__name__)

__all__ = [
    "Definition",
    "Usage",
    "TOPIC_SHARE",
    "find_definitions",
    "definition_registry",
    "find_usages",
    "usage_pattern",
    "is_common_word",
]


@dataclass(frozen=True)
class Usage:
    """A later unit's use of a term defined in ``definer``."""

    source: str
    definer: str
    used: str
    start: int
    end: int
    definition: Definition


# --- usages ----------------------------------------------------------------------------------

_MATH_NEAR = set("=<>+-*/^_()[]{}|\u2264\u2265\u2208\u2211\u00b7\u00d7\u2212,")
_POSSESSIVE = r"(?:'s|\u2019s|'|\u2019)?"


@lru_cache(maxsize=8192)
def _noun_forms(word: str, name: bool = False) -> tuple[str, ...]:
    """A noun's singular and plural forms, from the one term-forms engine renames and checks use
    (:mod:`..language.forms`): a plural term is used in the singular ("In-flight packets", "an
    in-flight packet"), a singular one in the plural, irregulars included ("analyses"), except for
    a ``name`` (a capitalised term), whose irregular plural names another thing ("Application
    Data" uses no type "Datum")."""
    one = singular(word) or word
    forms = [one, *noun_forms(one).get("plural", ())]
    return tuple(dict.fromkeys([word, *(f for f in forms if not name or f.lower().startswith(one.lower()[:-1]))]))


def _plural_forms(word: str, name: bool = False) -> str:
    """A regex for the singular, plural and possessive forms of a noun's last word (their common
    start written first, so that a sentence may capitalise it)."""
    forms = _noun_forms(word, name)
    n = len(os.path.commonprefix(forms))
    rest = "|".join(re.escape(f[n:]) for f in sorted(forms, key=len, reverse=True))
    return rf"{re.escape(word[:n])}(?:{rest}){_POSSESSIVE}"


def _verb_forms(word: str) -> str:
    """A regex for an English verb's forms ("pipeline": pipelines, pipelined, pipelining)."""
    if word.endswith("e"):
        return rf"{re.escape(word[:-1])}(?:e|es|ed|ing)"
    return rf"{re.escape(word)}(?:s|es|ed|ing)?"


@lru_cache(maxsize=8192)
def usage_pattern(term: str, kind: str, case_sensitive: bool, english: bool = True, verb: bool = False) -> re.Pattern[str]:
    """How a later unit's use of a term is recognised (English plural and possessive forms for
    English text, a verb's forms for a defined verb; the exact form otherwise).

    >>> bool(usage_pattern("Ack-eliciting packets", "term", False).search("an ack-eliciting packet is sent"))
    True
    >>> bool(usage_pattern("policy", "term", True).search("the policies")), bool(usage_pattern("policy", "term", True, False).search("the policies"))
    (True, False)
    >>> bool(usage_pattern("pipeline", "term", True, True, True).search("pipelined requests"))
    True
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
        elif verb and len(words) == 1 and last.isalpha():
            words[-1] = _verb_forms(last)
        elif last[-1:].isalpha():
            words[-1] = _plural_forms(last, case_sensitive and last[:1].isupper())
    if case_sensitive and words and term[:1].islower() and words[0].startswith(re.escape(term[0])):
        words[0] = f"[{term[0]}{term[0].upper()}]" + words[0][len(re.escape(term[0])):]  # a sentence may open with it
    body = r"[\s\-]+".join(words) if not case_sensitive else r"\s+".join(words)
    flags = 0 if case_sensitive else re.I
    return re.compile(rf"(?<![\w\-]){body}(?![\w\-])", flags)


def _probe(term: str) -> str | None:
    words = re.findall(r"[A-Za-z][A-Za-z\-']*", term)
    return max(words, key=len).lower() if words else None


def _probe_forms(probe: str, verb: bool = False) -> set[str]:
    """The words a unit using a term holds (its longest word's forms, as :func:`usage_pattern` reads them)."""
    forms = {probe, *(f.lower() for f in _noun_forms(probe))}
    if verb:
        stem = probe[:-1] if probe.endswith("e") else probe
        forms |= {probe + "s", probe + "es", stem + "ed", stem + "ing"}
    return forms


#: Words a capitalised term may stand beside and still be the term (not a longer name).
_NAME_OK_BEFORE = function_words("determiners", "prepositions", "coordinators") | {"said", "such"}


_PREV_WORD = re.compile(r"([A-Za-z][\w\-]*)[ \u00a0]+$")  # the word before, in the same line and cell


def _inside_name(text: str, start: int, end: int) -> bool:
    """Whether a capitalised term is part of a longer name ("Service Level Agreement")."""
    prev = _PREV_WORD.search(text, max(0, start - 40), start)
    if (prev and prev.group(1)[0].isupper() and prev.group(1).lower() not in _NAME_OK_BEFORE
            and text[: prev.start(1)].rstrip()[-1:] not in ("", ".", "!", "?", ":")):
        return True  # a capitalised word before it that does not open the sentence
    nxt = capital_after(text, end)
    return nxt is not None and not nxt.isupper()  # (a word in capitals is a name of its own: "the Finished MAC")


def _bare_capital(text: str, m: re.Match[str]) -> bool:
    """A capital letter standing alone in prose that is no word ("transmitted in place of P"; not
    "A", "I", nor a label's letter: "Appendix B", "Option C")."""
    letter = m.group(0)
    if not letter.isupper() or letter in "AI":
        return False
    prev = _PREV_WORD.search(text, max(0, m.start() - 40), m.start())
    return prev is None or not prev.group(1)[:1].isupper()


def _math_context(text: str, start: int, end: int) -> bool:
    left = text[max(0, start - 2) : start]
    right = text[end : end + 2]
    return any(c in _MATH_NEAR for c in left + right)


#: Headings and titles name topics; they do not need a term's definition to be read.
_NOT_USERS = ("section", "title")


#: Words that may follow a noun that is not a modifier ("the header is", "headers of"), and
#: those before an adjective used as a predicate ("it is disconnected", "considered safe").
_AFTER_NOUN = function_words("auxiliaries", "relatives", "conjunctions", "prepositions") | {
    "cannot", "no", "not", "then", "when", "where"}
_PREDICATE_BEFORE = re.compile(
    r"\b(?:is|are|be|been|being|was|were|become|becomes|became|remain|remains|considered|deemed|not|longer)"
    r"\s+(?:[a-z]+ly\s+)?$", re.I
)
_NEXT_WORD = re.compile(r"\s+([a-z][\w\-]*)")


def _modifier(text: str, m: re.Match[str]) -> bool:
    """Whether this use of a one-word plural term is its singular modifying a noun ("a Host
    header field" is no use of "headers"): a noun before a noun names another thing."""
    if m.group(0).rstrip("'\u2019").endswith(("s", "S")):
        return False
    nxt = _NEXT_WORD.match(text, m.end())
    if not nxt or nxt.group(1) in _AFTER_NOUN or nxt.group(1).endswith("ing"):
        return False
    cls = word_classes(nxt.group(1))  # the lexicon as the gate, the tagger for a word of several classes
    if "noun" not in cls:
        return False  # "epoch allow", "epoch during"
    return len(cls) == 1 or tag_at(text, nxt.start(1)).startswith("NN")  # "header field"


@lru_cache(maxsize=8192)
def _reader(term: str, kind: str, case_sensitive: bool, english: bool, how: str) -> tuple[re.Pattern[str], int]:
    """The pattern of a term's uses and which checks its matches need (bits of ``_LETTER``...)."""
    checks = 0
    if kind == "notation" and len(term) == 1 and term.isascii():
        checks |= _LETTER
    if english and kind == "term" and case_sensitive and term[:1].isupper() and not term.isupper():
        checks |= _NAME  # (a word in capitals, "SCO", is a name itself, however it is defined)
    if english and kind == "term" and term.endswith("s") and " " not in term:
        checks |= _PLURAL_WORD
    if how == "condition" and " " not in term and is_common_word(term):
        checks |= _PREDICATE
    if english and kind == "term" and not case_sensitive and not term.isupper():
        checks |= _CAPS
    return usage_pattern(term, kind, case_sensitive, english, how == "verb"), checks


_LETTER, _NAME, _PLURAL_WORD, _PREDICATE, _CAPS = 1, 2, 4, 8, 16


def _uses_in(text: str, d: Definition, english: bool) -> Iterator[re.Match[str]]:
    pat, checks = _reader(d.term, d.kind, d.case_sensitive, english, d.how)
    for m in pat.finditer(text):
        if not checks:
            yield m
            continue
        if checks & _LETTER and not _math_context(text, m.start(), m.end()) and not _bare_capital(text, m):
            continue  # a Latin letter is also a word ("a", "I"); a Greek one in prose is the symbol
        if checks & _NAME and _inside_name(text, m.start(), m.end()):
            continue  # English capitalises names, not nouns: "Service Level Agreement" holds no "Agreement"
        if checks & _PLURAL_WORD and _modifier(text, m):
            continue
        if checks & _CAPS and len(m.group(0)) > 1 and m.group(0).isupper():
            continue  # "STREAM frames": a word in capitals is a name (a frame type), not the term "stream"
        if checks & _PREDICATE and not _PREDICATE_BEFORE.search(text, max(0, m.start() - 40), m.start()):
            continue  # a common adjective defined as a state ("is "idle" if") is used as one: "is idle", not "idle timeout"
        yield m


# --- the registry ------------------------------------------------------------------------------

#: A term used in at least this share of a document's prose paragraphs is core vocabulary, like
#: a term in the title: the document's topic (see :func:`definition_registry`).
TOPIC_SHARE = 0.10
#: Below this many prose paragraphs a share says nothing; only the title makes a topic.
_TOPIC_MIN_UNITS = 40


def _structural(unit: Unit, term: str, start: int, end: int, how: str, body: str, glossary: bool) -> Definition | None:
    """A definition list's or glossary's term. Outside a terminology section a list names local
    things (the fields of a structure: ``type:``, ``length:``); a common word written in lower
    case there is not a document's term."""
    if len(term) == 1 and term.isalpha() and term not in "aAI":
        # "q:" in a list of symbols: the letter is a symbol of the formulas ("By setting q = v")
        return Definition(term, "notation", start, end, unit.text[start:end], True, 0.9, how=how)
    if not term_ok(term) or len(term) < 2 or has_function_word(term):
        return None
    if not glossary and " " not in term and term.islower() and is_common_word(term):
        return None
    if is_identifier(term):
        return Definition(term, "notation", start, end, unit.text[start:end], True, 0.95, how=how)
    if acronym_ok(term) and " " not in term:
        return Definition(term, "term", start, end, unit.text[start:end], True, 0.95, how=how)
    # "Length:" in a field list names the Length field, not every length; in a terminology
    # section the capital is the list's, the word the document's ("Expected:", "Depth:")
    cs = len(term.split()) == 1 and is_common_word(term) and not glossary
    return Definition(term, "term", start, end, unit.text[start:end], cs, 0.95, how=how)


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
    content: tuple | None = None


def _content(units: Sequence[Unit]) -> tuple:
    """Everything the registry reads of the units (ids, kinds, styles, parents, texts, cells, order
    and language tag): equal contents give equal registries."""
    return tuple([(u.id, u.kind, u.style, u.parent, u.title, u.text, len(u.meta.get("cells") or ()), u.order,
                   u.meta.get("lang")) for u in units])


#: The last registries built, by content. An incremental update reads the registry of the
#: document before the edit, which building its graph computed already; so do checks that
#: compare a document before and after an edit.
_RECENT: OrderedDict[tuple, Registry] = OrderedDict()
_RECENT_SIZE = 4


def definition_registry(units: Iterable[Unit]) -> dict[str, list[tuple[int, str, Definition]]]:
    """Term key -> ``(order, unit id, definition)`` of every unit defining it, in order.

    Besides the definitions in each text, the registry holds those given by structure (a
    definition list, a terminology section) and the document-wide facts that
    decide which uses become DEPENDS edges. They sit on each definition, so that a change to any
    of them reaches the users (incremental updates compare registries):

    * ``scope``: a term heading in a terminology section (an ISO entry) is defined by its whole
      section; uses inside it are the definition, not dependencies.
    * ``topic``: the term is the document's topic: named in its title, or used in at least
      :data:`TOPIC_SHARE` of its prose paragraphs (TLS in the TLS specification). A reader
      meets it on every page: it links once per section, from the section's first unit using it.
    * ``linked_from``: the units whose uses link (``None``: all), for topics. Exact uses of a
      term quoted in a defining statement (``"Agreement" means``, ``A "shared cache" is a cache
      that``) and of a symbol a statement introduced always link: the document asks its reader
      to read them as defined. No other thinning: a definer many units use is a hub, which the
      benchmark reports (``real_bench``: top target share), not a figure the registry aims at.

    The last few registries are kept by content: the registry of the
    document before an edit, which an incremental update compares, is not built twice.
    """
    units = list(units)
    content = _content(units)
    reg = _RECENT.get(content)
    if reg is not None:
        _RECENT.move_to_end(content)
        return reg
    reg = _build_registry(units)
    reg.content = content
    _RECENT[content] = reg
    while len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return reg


def _build_registry(units: list[Unit]) -> Registry:
    by_id = {u.id: u for u in units}
    reg = Registry()
    struct = structural_definitions(units, _structural)
    mentions = _Mentions(units)
    coined: list[tuple[int, Unit, Definition]] = []
    for i, u in enumerate(units):
        ds: Sequence[Definition] = ()
        if not is_code_style(u.style):  # code lines quote values: the prose rules do not read them
            ds = find_definitions(u.text)
            if ds:
                ds = [d for d in ds if (d.how != "codename" or mentions.names_code(d.term, i))
                      and (d.how != "capitalised" or _titled(u, d, by_id))]
            if u.kind not in _NOT_USERS and u.kind not in ("table", "caption"):
                # (code lines and tables quote values; a reference entry quotes a title)
                new = find_coinages(u.text, ds)
                if new and not is_reference_entry(u):
                    coined.extend((i, u, d) for d in new)
        if u.id in struct:  # (a term the text's rules read already, in any case, is theirs)
            have = {d.term.lower() for d in ds}
            ds = [*ds, *(d for d in struct[u.id] if d.term.lower() not in have)]
        for d in ds:
            reg.setdefault(d.key, []).append((u.order, u.id, d))
    words_of = {u.id: word_set(u.text) for u in units}  # read once: the coinages and the uses need them
    for i, u, d in mentions.first_mentions(coined, words_of):
        if d.key not in reg:
            reg[d.key] = [(u.order, u.id, d)]
    for lst in reg.values():
        lst.sort(key=lambda x: (x[0], x[1]))
    _add_scopes(reg, by_id)
    uses = _find(units, reg, units, None, None, words_of)
    if uses:
        uses = _add_policy(reg, units, by_id, uses)
    reg.uses, reg.units = tuple(uses), units
    return reg


def _titled(u: Unit, d: Definition, by_id: dict[str, Unit]) -> bool:
    """Whether the heading of ``u``'s section names ``d``'s term: a capitalised name said to be
    a thing ("The Sleep Duration is a four-byte integer") is a definition under its own heading,
    where a specification describes each field; elsewhere it may describe a work or a party
    ("The GNU General Public License is a free, copyleft license")."""
    sec = by_id.get(u.parent) if u.parent else None
    title = (sec.title or sec.text) if sec is not None and sec.kind == "section" else ""
    return bool(title) and next(_uses_in(title, d, True), None) is not None


def _find_name(text: str, term: str) -> int:
    """Where ``term`` first occurs in ``text`` as a whole name (not inside "x_term" or "term-y"); -1 if not."""
    at = text.find(term)
    while at >= 0:
        end = at + len(term)
        if not (at and (text[at - 1].isalnum() or text[at - 1] in "_-")) and not (
                end < len(text) and (text[end].isalnum() or text[end] in "_-")):
            return at
        at = text.find(term, at + 1)
    return -1


#: How many units may mention a phrase in passing before the one place that quotes it says what
#: it is (an example that uses "a positive bignum" first).
_EARLY_MENTIONS = 2


class _Mentions:
    """Where a name is first mentioned and which names the code uses: the document facts that
    decide whether a name in code or in parentheses is introduced (read on demand, once)."""

    def __init__(self, units: Sequence[Unit]) -> None:
        self.units = units
        self._full: str | None = None
        self._starts: list[int] = []
        self._code: str | None = None

    def first(self, term: str) -> int:
        """The index of the first unit that mentions ``term`` as a whole name."""
        if self._full is None:
            texts = [u.text or "" for u in self.units]
            at = 0
            for t in texts:
                self._starts.append(at)
                at += len(t) + 1
            self._full = "\n".join(texts)
        at = _find_name(self._full, term)
        return bisect.bisect_right(self._starts, at) - 1 if at >= 0 else len(self.units)

    def first_mentions(self, found: list[tuple[int, Unit, Definition]], words_of: dict[str, frozenset[str]]
                       ) -> list[tuple[int, Unit, Definition]]:
        """The quoted coinages a document introduces: its first mention of the phrase in prose
        (in any form: "bignum" before '"bignums"' is a mention; a heading, a table or a caption,
        which name or sum up, are not), or the one place it quotes a phrase that is no common
        word (an example may use "a positive bignum" before '"bignums" representing arbitrarily
        sized integers' says what they are; a value is quoted wherever it is given)."""
        if not found:
            return []
        quoted: dict[str, int] = {}
        for _, _, d in found:
            quoted[d.key] = quoted.get(d.key, 0) + 1
        probes: dict[str, list[tuple[int, Unit, Definition]]] = {}
        for x in found:
            p = _probe(x[2].term)
            if p:
                for f in _probe_forms(p):
                    probes.setdefault(f, []).append(x)
        last = max(x[0] for x in found)
        seen: dict[int, int] = {}  # how many units mention a candidate before its quote
        words = frozenset(probes)
        for j, v in enumerate(self.units[: last + 1]):
            if v.kind in _NOT_USERS or v.kind in ("table", "caption") or not v.text or is_code_style(v.style):
                continue
            for w in words_of[v.id] & words:
                for x in probes[w]:
                    i, u, d = x
                    if j > i or seen.get(id(x), 0) > _EARLY_MENTIONS:
                        continue
                    end = d.start if j == i else len(v.text)
                    pat = usage_pattern(d.term, "term", d.case_sensitive)
                    if pat.search(v.text, 0, end):
                        seen[id(x)] = seen.get(id(x), 0) + 1
        return [x for x in found if _probe(x[2].term) and (
            id(x) not in seen
            or (x[2].how == "coined" and seen[id(x)] <= _EARLY_MENTIONS and quoted[x[2].key] == 1
                and not is_common_word(x[2].term)))]

    def names_code(self, term: str, at: int) -> bool:
        """Whether a name in parentheses ("(obs-fold)") names the document's code, where it is
        first mentioned: its grammar uses the name, and no earlier unit does."""
        if self._code is None:
            self._code = "\n".join([u.text for u in self.units if u.text and is_code_style(u.style)])
        return _find_name(self._code, term) >= 0 and self.first(term) == at


def _add_scopes(reg: dict, by_id: dict[str, Unit]) -> None:
    """A term heading's section (an ISO entry: its definition, notes and examples) is the
    definition itself: uses inside it are not dependencies."""
    for lst in reg.values():
        for i, (order, uid, d) in enumerate(lst):
            if by_id[uid].kind == "section" and d.kind != "acronym":
                # (an acronym a heading expands is the section's too: its paragraphs use it)
                lst[i] = (order, uid, replace(d, scope=uid))


def _inside(uid: str, section: str, by_id: dict[str, Unit]) -> bool:
    p = by_id[uid].parent
    while p is not None and p in by_id:
        if p == section:
            return True
        p = by_id[p].parent
    return False


def _in_title(title: str, d: Definition) -> bool:
    """Whether a title names the term, or for an acronym its expansion ("Secure Transfer Protocol")."""
    if next(_uses_in(title, d, True), None):
        return True
    if d.kind != "acronym":
        return False
    long = d.span[: d.span.rfind("(")].strip() if d.span.endswith(")") and not d.span.startswith(d.term) else (
        d.span[d.span.find("(") + 1 : -1] if "(" in d.span else "")
    return len(long) > len(d.term) and long.lower().strip(Q_OPEN + Q_CLOSE) in title.lower()


def _add_policy(reg: dict, units: list[Unit], by_id: dict[str, Unit], uses: list[Usage]) -> list[Usage]:
    """Mark the document's topics (``topic``, ``linked_from``: see :func:`definition_registry`);
    the uses, re-tied to the updated definitions."""
    titles = [u.text for u in units if u.kind == "title" and u.text]
    prose = {u.id for u in units if u.kind in ("paragraph", "list_item") and u.text and not is_code_style(u.style)}
    by_key: dict[str, list[Usage]] = {}
    for x in uses:
        if not (x.definition.scope and _inside(x.source, x.definition.scope, by_id)):
            by_key.setdefault(x.definition.key, []).append(x)
    new: dict[tuple[str, str], Definition] = {}
    for key, group in by_key.items():
        d0 = reg[key][0][2]
        prose_users = len({x.source for x in group if x.source in prose})
        if not (any(_in_title(t, d0) for t in titles)
                or (len(prose) >= _TOPIC_MIN_UNITS and prose_users >= TOPIC_SHARE * len(prose))):
            continue
        # the first use of each section read as prose (a code line only where none is), and
        # every exact use of a quoted statement or an introduced symbol
        first: dict[str | None, str] = {}
        code: dict[str | None, str] = {}
        keep = set()
        for x in group:
            (first if x.source in prose else code).setdefault(_section_of(by_id[x.source], by_id), x.source)
            if quoted_use(x) or symbol_use(x):
                keep.add(x.source)
        ok = frozenset(first.values()) | frozenset(v for k, v in code.items() if k not in first) | keep
        reg[key] = [(o, uid, replace(d, topic=True, linked_from=ok)) for o, uid, d in reg[key]]
        new.update(((uid, key), d) for _, uid, d in reg[key])
    if not new:
        return uses
    out = []
    for x in uses:  # Usage(...) rather than dataclasses.replace, which costs more than the rest here
        d = new.get((x.definer, x.definition.key))
        out.append(x if d is None else Usage(x.source, x.definer, x.used, x.start, x.end, d))
    return out


#: Structural definitions that may restate an earlier acronym: entries of a list or glossary.
_RESTATING = frozenset({"entry", "list"})


def symbol_use(x: Usage) -> bool:
    """A use of a symbol beyond ASCII that a statement introduced ("the request rate, denoted φ"): such a letter in prose is nothing but that symbol and says nothing of itself,
    so, like a quoted term, it always links to its definition, even from a topic's sections."""
    d = x.definition
    return d.kind == "notation" and d.how == "denoted" and x.used == d.term and not d.term.isascii()


def quoted_use(x: Usage) -> bool:
    """An exact use of a term quoted in a defining statement (``"Agreement" means``, ``A "shared
    cache" is a cache that``): the document asks its reader to read it as defined, so it always
    links, even from a topic's sections."""
    d = x.definition
    return d.quoted and is_statement(d) and x.used == d.term


def _definers(entries: list[tuple[int, str, Definition]], tabled: frozenset[str] = frozenset()
              ) -> list[tuple[int, str, Definition]]:
    """The entries that define: a repeated introduction (an acronym expanded again) is not one,
    except the first in running text after introductions only in tables (``tabled``)."""
    out: list[tuple[int, str, Definition]] = []
    in_prose = False  # whether a definer so far lies outside the tables
    for e in entries:
        if out and not is_statement(e[2]) and (in_prose or e[1] in tabled):
            continue
        out.append(e)
        in_prose = in_prose or e[1] not in tabled
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


#: Terms whose uses one unit is searched for, at most (real documents: up to 131).
MAX_TERMS_PER_UNIT = 256
#: Searches for term uses in one document, at most: this many per unit read, plus a floor (real
#: documents make 2-4 per unit). Both keep the stage linear in the document, whatever it defines.
SEARCHES_PER_UNIT = 32
SEARCH_FLOOR = 4096


def _find(
    units: list[Unit],
    registry: dict[str, list[tuple[int, str, Definition]]],
    todo_units: Iterable[Unit],
    keys: Iterable[str] | None,
    doc: Document | None,
    words_of: dict[str, frozenset[str]] | None = None,
) -> list[Usage]:
    todo = [u for u in todo_units if u.kind not in _NOT_USERS and u.text]
    wanted = [k for k in (list(keys) if keys is not None else list(registry)) if k in registry]
    rank = {k: i for i, k in enumerate(wanted)}
    tabled = frozenset(u.id for u in units if u.kind == "table")
    # a term is looked for only in units holding its longest word (or a plural of it)
    always: list[str] = []
    by_word: dict[str, list[str]] = {}
    defined_in: dict[str, set[str]] = {}
    folded: dict[str, set[str]] = {}  # unit id -> the keys it defines, case-folded
    definers: dict[str, tuple[list[int], list[tuple[int, str, Definition]]]] = {}
    for k in wanted:
        entries = _definers(registry[k], tabled)
        definers[k] = ([e[0] for e in entries], entries)
        for _, uid, d in registry[k]:
            defined_in.setdefault(uid, set()).add(k)
            if d.how != "coined":  # (a coinage is where a phrase is first mentioned, not defined)
                folded.setdefault(uid, set()).add(k.lower())
        probe = _probe(entries[0][2].term)
        if probe is None:
            always.append(k)
            continue
        for f in _probe_forms(probe, entries[0][2].how == "verb"):
            by_word.setdefault(f, []).append(k)
    probe_words = frozenset(by_word)  # a set: intersecting two sets is cheaper than a set and a view
    out: list[Usage] = []
    searches = SEARCHES_PER_UNIT * len(todo) + SEARCH_FLOOR
    skipped = 0
    for u in todo:
        check_budget()
        # Many terms sharing their longest word ("Widget Alpha1" ... "Widget Alpha3000") made
        # every unit that says "alpha" search for each: terms x units. Each list is in the order
        # of the definitions, so the earliest-defined ones are kept, without touching the rest;
        # the bounds never bind on real documents (at most 131 terms in a unit)
        cap = max(0, min(MAX_TERMS_PER_UNIT, searches))
        hits = set(always[:cap])
        skipped += len(always) - len(hits)
        for w in (words_of[u.id] if words_of is not None else word_set(u.text)) & probe_words:
            keys = by_word[w]
            hits.update(keys[:cap])
            skipped += max(0, len(keys) - cap)
        if len(hits) > cap:
            skipped += len(hits) - cap
            hits = set(sorted(hits, key=rank.__getitem__)[:cap])
        if not hits:
            continue
        searches -= len(hits)
        own = defined_in.get(u.id, ())
        own_folded = folded.get(u.id, ())
        english = is_english(u, doc)
        code = is_code_style(u.style)
        found: list[tuple[str, int, list[re.Match[str]], Iterator[re.Match[str]]]] = []
        mine: list[tuple[int, int, str]] = []
        for key in sorted(hits, key=rank.__getitem__):
            orders, entries = definers[key]
            at = bisect.bisect_left(orders, u.order)
            if key in own:  # a unit that defines a term uses its own definition
                d = next(d for _, uid, d in registry[key] if uid == u.id)
                earlier = entries[at - 1] if at > 0 else None
                if not (d.how in _RESTATING and earlier is not None and earlier[1] != u.id
                        and earlier[2].kind == "acronym"):
                    mine.extend((m.start(), m.end(), key) for m in _uses_in(u.text, d, english))
                    continue
                # a list of abbreviations restating one the prose expanded before ("GPU:
                # Graphics Processing Unit." after "... Unit (GPU)") reads that expansion; a
                # field named like a concept ("Final Size:") is a term of its own
            if key.lower() in own_folded and key not in own:
                continue  # the unit defines the term itself, in another case ("referred to as the Session State")
            if at == 0:
                continue  # defined only later (or here)
            it = _uses_in(u.text, entries[at - 1][2], english)
            first = next(it, None)
            if first is not None:
                found.append((key, at, [first], it))
        nested = bool(found) and (bool(mine) or len(found) > 1)
        if nested:  # every use of every term, to see which sit inside a longer one
            for hit in found:
                hit[2].extend(hit[3])
        spans = mine + [(m.start(), m.end(), key) for key, _, ms, _ in found for m in ms] if nested else []
        for key, at, ms, _ in found:
            # the longest defined name wins: "Maximum Stream Data" is no use of "Stream Data"; an
            # acronym keeps its meaning inside a compound ("ECN counts" uses ECN)
            nest = spans if definers[key][1][0][2].kind != "acronym" else ()
            m = next((m for m in ms if not any(a <= m.start() and m.end() <= b and b - a > m.end() - m.start()
                                               and k != key for a, b, k in nest)), None)
            if m is None:
                continue
            _, uid, d = _pick(definers[key][1], at, m.group(0))
            if d.how == "coined" and (code or is_reference_entry(u)):
                continue  # a coinage is a word of the prose: a grammar's token or a cited title is no use
            out.append(Usage(u.id, uid, m.group(0), m.start(), m.end(), d))
    if skipped:
        log.warning("definition uses: %d searches left out (over %d terms in a unit, or %d in the document)",
                    skipped, MAX_TERMS_PER_UNIT, SEARCHES_PER_UNIT * len(todo) + SEARCH_FLOOR)
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
        and (all(a is b for a, b in zip(own_units, doc.units)) or getattr(registry, "content", None) == _content(doc.units))
        and primary(doc.meta.get("language")) in (None, "en")
    ):
        ids = None if units is None else {u.id for u in units}
        ks = None if keys is None else set(keys)
        return [x for x in cached if (ids is None or x.source in ids) and (ks is None or x.definition.key in ks)]
    return _find(doc.units, registry, units if units is not None else doc.units, keys, doc)
