"""Definitions given by a document's structure: definition lists, terminology sections.

Standards define most of their vocabulary outside sentences: a term line (``Ack-eliciting
packets:``) followed by the paragraph that defines it, or an entry of a "Terms and definitions"
section. This module reads those shapes from the units alone (kinds, styles, headings, neighbours), in any language:

* a **term line** is a paragraph in a term or glossary style (``Definition Term``, ``Term(s)``,
  ``Glossary``); or a short noun phrase ending in ":" followed by an ordinary paragraph; or,
  inside a terminology section, a short line without final punctuation followed by a paragraph;
* an **inline entry** (``Term: definition``, ``Term - definition``, ``Term. Definition``) counts
  inside a terminology section or a glossary style;
* a section's **opening statement** says what its heading names ("Side-car Suppressions" / "A
  side-car suppression is one that ..."): the section's first paragraph defines the term (English).

A term line's term is the line without its colon, a parenthesised abbreviation or an index
(``sent_packets[kPacketNumberSpace]:`` defines ``sent_packets``).
"""
from __future__ import annotations

import re
from typing import Callable, Sequence

from adapters.label_grammar import CLAUSE_NUMBER
from adapters.model import Unit

from ..language.forms import singular
from ..language.lexicon import LANGUAGES, function_words
from ..language.identifiers import is_code_style

__all__ = ["is_term_style", "is_terminology_heading", "term_of_line", "opening_term", "structural_definitions"]

_TERMINOLOGY_WORDS = frozenset(
    """terminology terms term definitions definition glossary abbreviations abbreviation acronyms acronym
    symbols symbol notation notations nomenclature
    begriffe begriffsbestimmungen begriffsbestimmung definitionen terminologie glossar abkürzungen
    abkürzungsverzeichnis abkürzung symbole formelzeichen benennungen
    définitions définition terminologie termes terme glossaire abréviations sigles symboles lexique
    definiciones definición terminología términos término glosario abreviaturas acrónimos siglas símbolos
    definizioni terminologia termini glossario abbreviazioni simboli""".split()
)
#: The small words of a terminology heading ("Terms used in this document", "Termes et définitions").
_FILLER_WORDS = frozenset().union(*(function_words("articles", "prepositions", "coordinators", lang=lang)
                                    for lang in LANGUAGES)) | frozenset(
    "this document used conventions convention list key general other abbreviated verwendete verwendeten utilisés".split())
#: A heading's or term line's number: the label grammar's clause number, an annex letter or a Roman numeral.
_NUMBER_PREFIX = re.compile(rf"^\s*(?:{CLAUSE_NUMBER}\.?|[A-Z]\.|[IVXLC]+\.)\s+")
_WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)


def is_term_style(style: str | None) -> bool:
    """Whether a paragraph style holds terms.

    >>> [is_term_style(s) for s in ("Definition Term", "Definition_20_Term", "DefinitionTerm", "Term(s)",
    ...     "Glossary", "Definition", "Determination", "Terminal Output", None)]
    [True, True, True, True, True, False, False, False, False]
    """
    return bool(style and _TERM_STYLE.search(style))


def is_terminology_heading(title: str) -> bool:
    """Whether a heading names a terminology section, in English, German, French, Spanish or Italian.

    >>> [is_terminology_heading(t) for t in ("Conventions and Definitions", "3 Terms and definitions",
    ...     "Begriffsbestimmungen", "Términos y definiciones", "Glossary", "Definitions of Done in Scrum",
    ...     "Security Considerations")]
    [True, True, True, True, True, False, False]
    """
    words = [w.lower() for w in _WORDS.findall(_NUMBER_PREFIX.sub("", title or ""))]
    if not words or len(words) > 7:
        return False
    return any(w in _TERMINOLOGY_WORDS for w in words) and all(
        w in _TERMINOLOGY_WORDS or w in _FILLER_WORDS for w in words
    )


#: Term and glossary styles: "Definition Term", "Definition_20_Term", "DefinitionTerm", "Term(s)",
#: "Glossary", "Begriff", "Término"; not "Terminal" or "Determination".
_TERM_STYLE = re.compile(r"(?i:(?:\b|_)terms?\b|glossar|begriff|benennung|t[ée]rmino|\bdt\b)|Terms?(?![a-z])")
_GLOSSARY_STYLE = re.compile(r"(?i)glossar")
#: Words a term line does not start with: lead-ins, notes, examples, steps ("For example:").
_NOT_TERM_START = (function_words("determiners", "prepositions", "conjunctions") - {"v"}) | frozenset(
    """such it they we you note notes example examples e.g. i.e. see step steps figure table then also here there
    other following follows is are when where""".split())  # ("v", versus, is a symbol's term line: "v:")
#: Words that make a line a sentence rather than a term ("The fields are:").
_VERBS = function_words("auxiliaries") | frozenset(
    "follows following include includes including contains contain consists defined given shown listed described".split())
_INDEX = re.compile(r"\[[^\]]{0,40}\]")
_PAREN = re.compile(r"\s*\([^()]{0,40}\)")
_ENDS_SENTENCE = re.compile(r"[.!?;,]\s*$")
#: A terminology entry on one line: the term, then a colon, a tab, a dash or a full stop before
#: its definition's first sentence ("Client: the party ...", "TLP - Traffic Light Protocol",
#: "Fingerprint. A persistent string value ...").
_INLINE = re.compile(r"^(?P<term>[^:\n\t]{1,60}?)\s*(?::|\t|\s[\u2013\u2014-]\s|\.\s+(?=[A-Z]))\s*(?P<body>\S.{8,})", re.S)


def term_of_line(line: str, *, strict: bool = True) -> str | None:
    """The term a term line names, or ``None`` when the line reads as a sentence or a lead-in.

    >>> term_of_line("Ack-eliciting packets:"), term_of_line("sent_packets[kPacketNumberSpace]:")
    ('Ack-eliciting packets', 'sent_packets')
    >>> term_of_line("Key Compromise Impersonation (KCI) resistance:")
    'Key Compromise Impersonation resistance'
    >>> term_of_line("For example:"), term_of_line("The following fields are defined:"), term_of_line("Note:")
    (None, None, None)
    """
    t = _NUMBER_PREFIX.sub("", line.strip()) if strict else line.strip()
    t = t.rstrip().rstrip(":").strip()
    t = _PAREN.sub("", _INDEX.sub("", t)).strip().strip("\"'\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e").strip()
    if not t or len(t) > 60 or "\n" in t:
        return None
    words = t.split()
    if len(words) > 6 or not (t[0].isalnum() or t[0] in "_$(") or _ENDS_SENTENCE.search(t):
        return None
    low = [w.lower().strip(",") for w in words]
    if low[0] in _NOT_TERM_START or any(w in _VERBS for w in low):
        return None
    if len(words) == 1 and low[0] in ("where", "notes", "note", "example", "examples", "definition", "definitions"):
        return None
    return t


def _is_code(u: Unit) -> bool:
    return is_code_style(u.style) or u.text[:1] in (" ", "\t")


#: A sentence that says what a noun phrase is: "(A|An|The) PHRASE is|are ...".
_OPENING = re.compile(r"(?:(?:A|An|The)\s+)?(?P<term>[^\W\d_][\w\-]*(?:[ \t]+[^\W\d_][\w\-]*){0,5}?)[ \t]+(?:is|are)\s")


def _one_phrase(phrase: str) -> str:
    low = phrase.lower()
    return singular(low) or low


def opening_term(heading: str, text: str) -> tuple[str, int, int] | None:
    """The term a section's first paragraph defines by opening with what its heading names, and
    where the phrase naming it lies in ``text``: "In-source suppressions are indicators ..." under "In-source
    Suppressions" defines "in-source suppression" (the sentence's capital is no part of it;
    "Attack Patterns are ..." keeps "Attack Pattern"). ``None`` when the paragraph does not open
    so: a section's first sentence about something else defines nothing.

    >>> opening_term("3.2 Side-car Suppressions", "A side-car suppression is one that is kept apart.")
    ('side-car suppression', 2, 22)
    >>> opening_term("Advantages", "Side-car suppressions can be expressed in any format.") is None
    True
    """
    named = term_of_line(heading)
    m = _OPENING.match(text)
    if named is None or m is None or _one_phrase(m.group("term")) != _one_phrase(named):
        return None
    term = m.group("term")
    first, *rest = term.split()
    if all(w.islower() for w in rest) and not first.isupper():
        term = first[:1].lower() + term[1:]
    return singular(term) or term, m.start("term"), m.end("term")


def structural_definitions(
    units: Sequence[Unit], make: Callable[[Unit, str, int, int, str, str, bool], object | None]
) -> dict[str, list]:
    """Unit id -> the definitions its place in the structure gives it.

    ``make(unit, term, start, end, how, definition_text, in_terminology)`` builds one
    definition (or refuses it, returning ``None``); ``how`` is ``list`` or ``entry``;
    ``in_terminology`` says whether the unit is in a terminology section.
    """
    by_id = {u.id: u for u in units}
    terminology: dict[str, bool] = {}

    def in_terminology(u: Unit) -> bool:
        seen = []
        p = u.parent
        found = False
        while p is not None and p in by_id:
            if p in terminology:
                found = terminology[p]
                break
            seen.append(p)
            sec = by_id[p]
            if sec.kind == "section" and is_terminology_heading(sec.title or sec.text):
                found = True
                break
            p = sec.parent
        for s in seen:
            terminology[s] = found
        return found

    out: dict[str, list] = {}
    seq = [u for u in units if u.text.strip()]
    opened: set[str] = set()  # the sections whose first unit has been seen
    for i, u in enumerate(seq):
        nxt = seq[i + 1] if i + 1 < len(seq) else None
        got: list = []
        sec = by_id.get(u.parent) if u.parent is not None and u.kind != "section" else None
        if sec is not None and sec.kind == "section" and sec.id not in opened:
            opened.add(sec.id)
            said = opening_term(sec.title or sec.text, u.text) if u.kind == "paragraph" and not _is_code(u) else None
            if said is not None:
                d = make(u, *said, "opening", u.text, in_terminology(u))
                if d is not None:
                    got.append(d)
        if u.kind in ("paragraph", "list_item") and not _is_code(u):
            text = u.text.strip()
            styled = is_term_style(u.style)
            inline = styled and bool(_GLOSSARY_STYLE.search(u.style or "")) or in_terminology(u)
            follows = (
                nxt is not None and nxt.kind == "paragraph" and not _is_code(nxt)
                and not nxt.text.rstrip().endswith(":")
            )
            entry = _INLINE.match(text) if inline else None  # "Term: its definition", "TLP - Traffic Light Protocol"
            term = None
            how = "list"
            if styled and len(text) <= 80:
                term = term_of_line(text)
            elif text.endswith(":") and follows and len(text) <= 60:
                term = term_of_line(text)
            elif (inline and follows and len(text) <= 40 and not _ENDS_SENTENCE.search(text) and ":" not in text
                    and entry is None):  # a term line; an entry is read below
                term = term_of_line(text)
            if term is None and entry is not None:
                term = term_of_line(entry.group("term"))
                how = "entry"
                if term:
                    d = make(u, term, 0, entry.end("term"), how, entry.group("body"), in_terminology(u))
                    if d is not None:
                        got.append(d)
                    term = None
            if term:
                d = make(u, term, 0, len(u.text), how, nxt.text if nxt is not None else "", in_terminology(u))
                if d is not None:
                    got.append(d)
        if got:
            out[u.id] = got
    return out
