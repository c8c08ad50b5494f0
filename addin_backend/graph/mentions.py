"""Textual mentions of document units ("Section 2.1", "Figs. 3 and 4", "Annex B", "see 5.2.1").

:func:`find_mentions` is a pure function of a text (cached per text): it finds every internal
mention with its minimal span and leaves out external citations ("Section 3 of [RFC9110]",
"(Smith et al., 2020, Table 2)"). :func:`build_label_index` collects the labels a document's
units answer to (:mod:`.label_index`), and :func:`resolve_mentions` joins the two: resolved mentions become
REFERENCES edges, explicit mentions of labels that do not exist become broken references.
The verification and rename code reuse the same spans (``Mention.items`` hold each number's
offsets).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Iterator

from adapters.label_grammar import (
    FAMILIES,
    NUM,
    PLURAL_IN,
    WORD_ALT,
    WORDS,
    WORD_START,
    canonical_label,
    clause_number,
    family_of,
    is_plural,
    norm_number,
    subpart,
)
from adapters.model import Document, Unit

from ..language.detect import detect
from ..language.lexicon import LANGUAGES, function_words
from ..language.nlp import FACTS
from .label_index import LabelIndex, build_label_index, parse_label, unit_keys
from .text import sentences
from adapters.vocabulary import NOTE_KINDS

__all__ = [
    "FAMILIES",
    "Item",
    "Mention",
    "Resolved",
    "BrokenReference",
    "LabelIndex",
    "find_mentions",
    "find_citations",
    "unit_mentions",
    "table_mentions",
    "document_names",
    "designations",
    "work_key",
    "parse_label",
    "canonical_label",
    "build_label_index",
    "unit_keys",
    "resolve_unit",
    "resolve_mentions",
    "iter_mention_keys",
]

_ITEM = rf"(?:\(\s*(?:{NUM})\s*\)|(?:{NUM})(?:\((?:[a-z]{{1,3}}|\d{{1,2}})\))*)"
# The words that join numbers, in the languages the label words cover ("Abschnitte 2 und 3",
# "secciones 2 a 4", "les tableaux 2 et 3", "de artikelen 2 en 3", "hoofdstukken 2 tot 4").
_AND_OR = r"(?:and|or|und|oder|sowie|et|ou|y|e|o|u|en)"
_SEP_LIST = rf"(?:\s*,\s*(?:{_AND_OR}\s+)?|\s+{_AND_OR}\s+|\s*&\s*)"
_SEP_RANGE = r"(?:\s*[-\u2013\u2014]\s*|\s+(?:to|through|thru|bis|\u00e0|a|al|hasta|tot)\s+)"
# Before the words are tried, a cheap look at what follows a word start: a word (no space, no
# digit) then a number, a capital or "(" (a quarter less time for this pattern on a standard).
_NUMBER_FOLLOWS = r"(?=[^\s\d]{1,24}(?:[ \t\u00a0~]|(?<=[.§]))\s*[\d(A-Z])"
_MENTION = re.compile(
    rf"{WORD_START}(?<![\w§\-]){_NUMBER_FOLLOWS}(?P<word>§§|§|{WORD_ALT})(?:[ \t\u00a0~]|(?<=[.§]))\s*"
    rf"(?P<items>{_ITEM}(?:(?:{_SEP_RANGE}|{_SEP_LIST}){_ITEM})*)"
)
_SEP_RANGE_RE = re.compile(_SEP_RANGE)
_SEP_LIST_RE = re.compile(_SEP_LIST)
_DOTTED = re.compile(r"\d\.\d|\b[A-Z]\.\d")
_ITEM_RE = re.compile(rf"(?P<sep>{_SEP_RANGE}|{_SEP_LIST})?(?P<item>{_ITEM})")
_NUM_IN_ITEM = re.compile(NUM)

# Bare clause numbers of standards ("see 5.2.1"): only after a cue that makes them references,
# only dotted numbers, and kept only when such a section exists.
_BARE_CUE = (
    r"(?:see(?:\s+also)?|cf\.|refer\s+to|(?:as\s+)?(?:specified|defined|described|given|listed|"
    r"shown|set\s+out|set\s+forth|stated|detailed|provided|referred\s+to|covered|addressed|explained|"
    r"indicated|included|contained|presented|outlined|identified|established|prescribed|laid\s+down|"
    r"required|dealt\s+with|determined|calculated)\s+(?:in|by)|according\s+to|in\s+accordance\s+with|"
    r"pursuant\s+to|subject\s+to|under|(?:as\s+)?per|(?:the\s+)?requirements\s+of|"
    r"(?:method|procedure|test|requirement|provision|condition|instruction|rule|specification)s?\s+(?:of|in)|"
    r"conform(?:s|ing)?\s+to|compl(?:y|ies|ying)\s+with)"
)
_BARE_NUM = clause_number(2, 7) + r"(?!\w|\.\d)"
_BARE = re.compile(
    rf"(?<![\w.])(?P<cue>{_BARE_CUE})\s+(?P<items>{_BARE_NUM}(?:(?:{_SEP_LIST}|{_SEP_RANGE}){_BARE_NUM})*)",
    re.I,
)
# Without a cue, only numbers that cannot be decimals: two dots or more ("in 5.2.1", "of A.3"),
# after a preposition; and ISO-style term references, a clause number alone in parentheses
# right after a word ("medical device (3.11)").
_DEEP_NUM = clause_number(3, 7) + r"(?!\w|\.\d)"
_BARE_WEAK = re.compile(
    rf"(?<![\w.])(?P<cue>in|of|to|and|or|from|with|by|at|for|on)\s+"
    rf"(?P<items>{_DEEP_NUM}(?:(?:{_SEP_LIST}|{_SEP_RANGE}){_DEEP_NUM})*)"
)
_BARE_PAREN = re.compile(rf"(?<=[A-Za-z])\s\((?P<items>{clause_number(2, 7, letters=False)})\)")
_BARE_ITEM = re.compile(rf"(?P<sep>{_SEP_RANGE}|{_SEP_LIST})?(?P<item>{clause_number(2, 7)})")
# A measurement or version right after a number is not a clause reference.
_UNIT_AFTER = re.compile(
    r"\s*(?:%|‰|°|(?:mm|cm|km|m|s|ms|us|µs|ns|min|h|hz|khz|mhz|ghz|kb|mb|gb|tb|v|kv|mv|a|ma|w|kw|mw|"
    r"kg|g|mg|l|ml|db|px|pt|em|seconds?|minutes?|hours?|days?|years?|percent|times)\b)",
    re.I,
)

# --- external citations ----------------------------------------------------------------------

_STD = r"(?:RFC|BCP|STD|ISO(?:/IEC)?|IEC|IEEE|ITU(?:-[TR])?|ETSI|EN|ANSI|NIST|BS|DIN|ASTM|ECMA|3GPP|W3C|IETF|CEN|CENELEC|SAE|JIS|GB|FIPS|SP)"
# "VA Handbook 6500.6, Appendix C", "Directive 2011/83/EU, Article 6": a numbered document first.
_NUMBERED_DOC = (
    r"(?-i:\b(?:Handbook|Manual|Directive|Regulation|Publication|Pub\.|Standard|Specification|Instruction|"
    r"Order|Circular|Bulletin|Decision|Act|Law|Code|Memorandum)\s+(?:No\.\s*)?(?:\([A-Z]+\)\s*)?"
    r"[\w\-./]*\d[\w\-./]*)"
)
# "44 U.S.C. chapters 21, 29", "36 CFR Chapter XII": a title of a legal code first.
_LEGAL_CODE = r"\b\d+\s+(?-i:U\.\s?S\.\s?C\.|USC|C\.\s?F\.\s?R\.|CFR)(?:\s*\u00a7+)?"
_CITE_BEFORE = re.compile(
    rf"(?:\[[^\[\]]{{1,80}}\]|\b{_STD}[ \t/\-]*[\w\-:./]*\d[\w\-:./]*(?:\s*\(\d{{4}}\))?"
    rf"|\bet\s+al\.?\s*\(\d{{4}}[a-z]?\)|\(\d{{4}}[a-z]?\)|{_NUMBERED_DOC}|{_LEGAL_CODE})\s*[,;:]?\s*(?:see\s+)?$",
    re.I,
)
_DOC_NOUN = (
    r"(?:specification|standard|recommendation|paper|article|report|act|regulation|directive|convention|code|"
    r"treaty|law|rfc|guidelines?|datasheet|data\s+sheet|manual|handbook|textbook|book|thesis|dissertation|"
    r"proceedings|documentation|catalogue|catalog|format|protocol|language|syntax)"
)
# Another party's document ("the supplier's quality handbook", "the Customer's Security Policy").
_OWNED_DOC = rf"(?:{_DOC_NOUN}|proposal|contract|agreement|policy|terms)"
_CITE_AFTER = re.compile(
    # a cited work's tag right after the part: "§15.5 [CSS2]", "Section 4 [RFC9110]" (not a
    # statement id with a dotted number, "[MQTT-SN-4.2-1]", which ends a sentence of this document)
    rf"^\s*\[(?![^\[\]]*\d\.\d)[A-Za-z][^\[\]]{{0,39}}\]"
    # sub-parts "(b)", or the cited part's title: 'Section 5.8 ("Retry Packet Integrity") of [QUIC-TLS]',
    # "§2.2.4 (Region Subtag) of [RFC5646]"
    rf"|^(?:\s*\([a-z0-9]{{1,4}}\))*(?:\s*\(\s*[\"\u201c]?[^()]{{1,80}}[\"\u201d]?\s*\))?\s*,?\s*(?:of|in|from)\s+(?:"
    rf"\[|\(?{_STD}\b|ref(?:erence)?s?\.?\s*\[?\d"
    rf"|(?:the\s+)?[A-Z][\w\-]+(?:\s+and\s+[A-Z][\w\-]+)?\s+(?:et\s+al\b|\(\d{{4}}|\[\d)"
    rf"|(?:the\s+)?(?!this\b|these\b|the\s+present\b)(?:[A-Z][\w/\-.]*\s+)(?:[A-Z0-9][\w/\-.]*\s+){{0,5}}"
    rf"{_DOC_NOUN}\b"
    rf"|[A-Z]{{2,}}[\w/\-.]*\d"
    # "section 6 of the GNU GPL": a name with an acronym ("this License" is the document itself)
    rf"|(?:the\s+)?(?-i:(?:[A-Z][\w\-]*\s+){{0,3}}[A-Z]{{2,}}[A-Z0-9\-]*\b)"
    # "Clause 6 of the supplier's quality handbook": another party's document
    rf"|(?:the\s+)?[\w\-]+['\u2019]s\s+(?:[\w\-]+\s+){{0,3}}{_OWNED_DOC}\b"
    # "Table 2 of the vendor datasheet [VND-114]": a short phrase closed by a bracketed citation
    rf"|(?:the\s+|an?\s+)?(?!this\b|these\b|the\s+present\b)(?:(?!(?:{WORD_ALT})\b)[\w\-']+\s+){{0,4}}\[[^\[\]]{{1,40}}\])",
    re.I,
)
# "the GNU Affero General Public License, section 13": a named work with an acronym, a comma.
_NAMED_BEFORE = re.compile(r"(?<![\w\-])[A-Z]{2,}[\w\-]*(?:\s+[A-Z][\w\-]*){1,6}\s*,\s*$")
_OPEN_BRACKET_CITE = re.compile(r"\[[^\[\]]*[\w.]\s*,\s*(?:[^\[\]]*,\s*)?$")
_OPEN_PAREN_CITE = re.compile(r"\((?:[^()]*?(?:et\s+al\.?|[A-Z][a-z]+),?\s*\d{4}[a-z]?\s*[,;]\s*(?:p+\.\s*\d+\s*,\s*)?)$")


# What may sit between two locators of one external citation: commas and finer locators.
_CHAIN = re.compile(r"\s*,\s*(?:(?:paragraph|para\.|p\.|pp\.|page|line|item|note)\s*[\w.()]+\s*,\s*)*$", re.I)
_STD_WORD = re.compile(rf"\b{_STD}|et\s+al|U\.\s?S\.\s?C\.|C\.\s?F\.\s?R\.|\bCFR\b|\bUSC\b", re.I)
_DIGIT_BEFORE = re.compile(r"\d[\w\-./]*\s*[,;:]?\s*(?:see\s+)?$", re.I)


# The words other languages than English put between a part and the work it belongs to ("der",
# "du", "de la", "della", "dell'", "da", "van het"): the genitive of the patterns below.
_OF_ML = (r"(?:des|der|du|de\s+la|de\s+las?|de\s+los|del|della|dello|dei|degli|delle|do|da|dos|das|de|"
          r"van\s+het|van\s+de|van)\s+|dell['\u2019]\s*")

# Statute citations: "§ 823 Abs. 1 BGB", "Art. 5 GG", "artículo 5 de la Ley 39/2015",
# "article 1240 du Code civil". The words laws number their parts with, then finer locators, then
# the code's abbreviation or a law's name: a part of another text, not of this document.
_LAW_WORDS = r"§§?|arts?\.|artikel(?:e?n)?|articles?|art(?:i|\u00ed)culos?|articol[oi]|artigos?"
_LAW_WORD = re.compile(rf"^(?:{_LAW_WORDS})$", re.I)
#: The part letter a code numbers its articles with ("L. 121-1", "R. 4127-1"): the
#: article of a code, never a lettered part of this document.
_CODE_PART = re.compile(r"[A-Z]\*?\.\s+\d")
_LOCATOR = (
    r"(?:Abs\.|Absatz|Satz|S\.|Nr\.|Ziff\.|lit\.|Buchst\.|Hs\.|Halbsatz|UAbs\.|Unterabs\.|Alt\.|Var\.|"
    r"al\.|al(?:\u00ed|i)nea|alin(?:\u00e9|e)a|p(?:\u00e1|a)rrafo|apartado|inciso|letra|numeral|f\.|ff\.|"
    r"comma|lettera|n\.\s?\u00ba|lid)"
)
#: A word of :data:`_LOCATOR` right after a part's number names a finer part of that reference
#: ("§ 1 Abs. 2 Satz 1", "Absatz 1 Satz 2", "Abschnitt 4 Satz 2"), no part of its own.
_LOCATOR_WORD = re.compile(rf"{_LOCATOR}$", re.I)
_FINER_THAN = re.compile(rf"(?:{_LAW_WORDS}|{_LOCATOR}|{WORD_ALT})\s*\d+[a-z]?\s*,?\s*$", re.I)
_LAW_NAME = (
    r"(?:Ley|C(?:\u00f3|o)digo|Code|Loi|D(?:\u00e9|e)cret|(?:Real\s+)?Decreto|Reglamento|R(?:\u00e8|e)glement|"
    r"Constituci(?:\u00f3|o)n|Constitution|Gesetz|Verordnung|Richtlinie|Convenio|Convention|Tratado|Trait(?:\u00e9|e)|"
    r"Ordonnance|Directive|Regulation|Gesetzbuch(?:es)?|Codice|Legge|Regolamento|Direttiva|Lei|Regulamento|Diretiva|"
    r"Wet(?:boek)?|Verordening|Richtlijn|Besluit)\b"
)
_LAW_AFTER = re.compile(
    # (a book's article first: "artikel 6:248 van het Burgerlijk Wetboek")
    # (an ordinal after the number: "artigo 5.º da Lei n.º 58/2019"; its sub-parts: "Article
    # 6(1)(b) GDPR", "artículo 6.1.b) del RGPD")
    rf"^(?::\d+[a-z]?)?(?:\.?[\u00ba\u00aa\u00b0])?(?:\([a-z0-9]{{1,4}}\)|\.[a-z]\))*"
    # (a code's abbreviation in lower case right after the number: "articolo 2043 c.c.")
    r"(?:\s+(?P<code>(?-i:[a-z]{1,3}\.(?:[a-z]{1,4}\.)+))|"
    # (finer locators, a comma between them as the EU writes: "article 6, paragraphe 1, point b), du
    # règlement", "Article 6, paragraph 1, point (b), of Regulation")
    rf"(?:\s*,?\s*(?:{_LOCATOR}|paragraph(?:e)?s?|points?|punto|onder|sub)\s*"
    r"(?:\d+[a-z]?|\(?(?-i:[a-z])\)|(?-i:[a-z])\b|\(\d+\)|[IVX]+)?)*\s*,?\s*"
    rf"(?:{_OF_ML}|(?:of\s+the|of)\s+)?"
    # the law's name, after an adjective if any ("Bürgerlichen Gesetzbuches", "Burgerlijk Wetboek"),
    # or its abbreviation: in capitals ("BGB", "DSGVO") or with full stops ("D.Lgs.", "C. civ.")
    rf"(?P<law>(?-i:[A-Z][a-z\u00e4\u00f6\u00fc]{{0,3}}[A-Z][A-Za-z]{{0,6}})\b"
    r"|(?-i:[A-Z][A-Za-z]{0,3}\.(?:\s?[A-Za-z]{1,4}\.)+)"
    rf"|(?:(?-i:[A-Z][a-z\u00e4\u00f6\u00fc\u00df]+)\s+)?{_LAW_NAME}"
    r"|(?-i:[A-Z][a-z\u00e4\u00f6\u00fc\u00df]+(?:gesetz(?:es|buch(?:es)?)?|ordnung|richtlinie)\b)))",
    re.I,
)
# The designation of a cited work next to a mention ("Section 4.2 of RFC 6787", "[RFC9110],
# Section 3"): when it is the document's own designation, the mention is internal after all.
_WORK_ID = rf"\[?(?P<id>(?-i:{_STD})[ \t\-]?\d[\w.:\-]*?)\]?"
_WORK_AFTER = re.compile(
    rf"\s*(?:,?\s*(?:(?:of|in)\s+|{_OF_ML})(?:the\s+|la\s+)?|(?=\[)){_WORK_ID}(?![\w])", re.I)
_WORK_BEFORE = re.compile(rf"{_WORK_ID}\s*,\s*$")
_DESIGNATION = re.compile(rf"(?<![\w\-])(?-i:{_STD})[ \t\-]?\d[\w.:\-]*")


def work_key(designation: str) -> str:
    """A cited work's designation in one spelling: ``"RFC 6787"``, ``"[RFC6787]"`` -> ``"RFC6787"``;
    an edition year is dropped (``"ISO 9001:2015"`` -> ``"ISO9001"``).

    >>> work_key("RFC 6787"), work_key("[rfc6787]"), work_key("ISO 9001:2015")
    ('RFC6787', 'RFC6787', 'ISO9001')
    """
    key = re.sub(r"[\s\[\]\-]", "", designation).upper().rstrip(".,:")
    return re.sub(r":(?:19|20)\d\d$", "", key)


def document_names(units: Iterable[Unit]) -> frozenset[str]:
    """The designations a document gives itself in its title block ("RFC 9002" in the subtitle
    "RFC 9002 / draft-ietf-quic-recovery-34", "ISO 9001:2015" in the title)."""
    return document_names_of_texts(
        u.text for u in units if u.kind == "title" or (u.style and "subtitle" in u.style.lower()))


def _cited_work(text: str, start: int, end: int) -> str:
    """The designation of the work an external mention cites, when it is written next to it."""
    m = _WORK_AFTER.match(text, end) or _WORK_BEFORE.search(text[max(0, start - 40) : start])
    return work_key(m.group("id")) if m else ""


# A named work in German, French, Spanish, Italian, Portuguese or Dutch ("in den
# Debian-Richtlinien, Kapitel 9.2.2", "la Charte Debian, chapitre 9.2.2", "Abschnitt 11.4 der
# Debian-Policy", "paragrafo 2.1 della norma ISO 27001"): a document noun with a name, or a
# standard's designation, written before the label and a comma or after it in the genitive.
_DOC_NOUN_ML = (
    r"(?:richtlinien?|policy|handbuch|handb(?:u|\u00fc)cher|spezifikation(?:en)?|norm(?:en)?|dokumentation|anleitung|"
    r"charte|manuel|guide|norme|sp(?:\u00e9|e)cification|documentation|directive|r(?:\u00e8|e)glement|"
    r"manual|gu(?:\u00ed|i)a|norma|especificaci(?:\u00f3|o)n|documentaci(?:\u00f3|o)n|pol(?:\u00ed|i)tica|reglamento|directiva|"
    r"specifica|manuale|guida|documentazione|regolamento|direttiva|"
    r"especifica(?:\u00e7|c)(?:\u00e3|a)o|documenta(?:\u00e7|c)(?:\u00e3|a)o|regulamento|diretiva|"
    r"specificatie|handleiding|documentatie|richtlijn|beleid)"
)
_NAMED_WORK_ML = (
    rf"(?:(?-i:[A-Z][\w\-]*)-{_DOC_NOUN_ML}"  # Debian-Richtlinien, Debian-Policy
    rf"|(?:(?-i:[A-Z][\w\-]*)\s+){{1,3}}{_DOC_NOUN_ML}"  # Debian Policy
    rf"|{_DOC_NOUN_ML}(?:\s+(?-i:[A-Z][\w\-]*)){{1,3}}"  # Charte Debian
    rf"|{_DESIGNATION.pattern})"  # ISO 27001
)
_NAMED_BEFORE_ML = re.compile(
    rf"{_NAMED_WORK_ML}\s*,\s*(?:(?:in|im|dans|en)\s+(?:seinem|ihrem|son|sa|su)\s+)?$", re.I)
_NAMED_AFTER_ML = re.compile(rf"\s+(?:{_OF_ML})(?:(?:la|le|el|het|de)\s+)?{_NAMED_WORK_ML}\b", re.I)


def _is_named_work(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 80) : start]
    return bool(("," in before and _NAMED_BEFORE_ML.search(before)) or _NAMED_AFTER_ML.match(text, end))


#: A third-person possessive right before a part's word ("its Article 32", "son article 32"), in
#: any language the lexicon has.
_POSSESSIVE_BEFORE = re.compile(
    r"(?<![\w'])(?:%s)\s+$" % "|".join(map(re.escape, sorted(
        set().union(*(function_words("third_possessives", lang=lang) for lang in LANGUAGES)), key=len, reverse=True))),
    re.I,
)
#: A work named by its designation, its number or a law's name ("RFC 9110", "Regulation (EU)
#: 2016/679", "la Ley 39/2015", "Decreto legislativo 196/2003", "Lei n.º 58/2019", "[QUIC-TLS]").
_WORK_NAMED = re.compile(
    rf"{_DESIGNATION.pattern}|{_NUMBERED_DOC}|\b{_LAW_NAME}\s*(?:\([A-Z]+\)\s*)?[\w\-./]*\d"
    rf"|\b(?-i:{_LAW_NAME})\s+(?:n\.?\s?[\u00ba\u00b0o]\.?|Nr\.|No\.|[^\W\d_]+)\s+[\w\-./]*\d"
    rf"|\[[A-Za-z][^\[\]]{{0,39}}\]",
    re.I,
)


def _part_of_named_work(text: str, start: int) -> bool:
    """"Regulation (EU) 2016/679, in particular its Article 32": a possessive's part belongs to
    the work its sentence named before it."""
    if not _POSSESSIVE_BEFORE.search(text, max(0, start - 12), start):
        return False
    lo = max(0, start - 160)
    spans = sentences(text[lo:start])  # (the sentence reader knows "Art. 5" ends no sentence)
    lo += spans[-1][0] if spans else 0
    return _WORK_NAMED.search(text, max(lo, text.rfind("; ", lo, start) + 1), start) is not None


_WORD_BEFORE = re.compile(r"([^\W\d_]+['\u2019]?)\s*$")


def _plural(word: str, text: str, start: int) -> bool:
    """Whether the label word at ``text[start:]`` is a plural: for a form two languages read
    differently ("tabelle"), in the text's language, else in that of the article or preposition
    before it ("Vedi le tabelle 1 e 2", "nelle tabelle")."""
    langs = PLURAL_IN.get(word.lower())
    if langs is None:
        return is_plural(word)
    lang = detect(text)
    before = _WORD_BEFORE.search(text, max(0, start - 24), start) if lang is None else None
    if before is not None:
        small = before.group(1).lower().replace("\u2019", "'")
        lang = next((x for x in sorted(langs) if small in function_words("articles", "prepositions", lang=x)), None)
    return is_plural(word, lang)


def _statute(word: str, text: str, end: int) -> tuple[int, str]:
    """Where a statute citation that starts with ``word`` and whose number ends at ``end`` ends,
    its finer locators and the law's name included ("§ 823 Abs. 1 Satz 2 BGB"), and that name
    ("BGB"); ``(-1, "")`` if it is none."""
    law = _LAW_AFTER.match(text[end : end + 80]) if _LAW_WORD.match(word) else None
    return (-1, "") if law is None else (end + law.end(), law.group("law") or law.group("code"))


def _is_external(text: str, start: int, end: int) -> bool:
    """Whether the mention at ``text[start:end]`` cites another document."""
    before = text[max(0, start - 100) : start]
    # cheap tests first: the anchored patterns scan the whole window
    if ("]" in before or ")" in before or _STD_WORD.search(before) or _DIGIT_BEFORE.search(before)) and (
        _CITE_BEFORE.search(before)
    ):
        return True
    if "," in before[-3:] and _NAMED_BEFORE.search(before):
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
    #: For a mention of another work's part: that work's designation ("RFC6787", a statute's name
    #: "BGB"; "" unknown).
    external: str | None = None
    #: Each hyphenated pair of numbers ("4-1" in "figures 4-1 and 4-2") as ``(start, end, "4-1")``:
    #: one chapter-style number where the document numbers that family so.
    pairs: tuple[tuple[int, int, str], ...] = ()


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
    items_text: str, base: int, family: str, plural: bool, item_re: re.Pattern[str],
    pairs: list[tuple[int, int, str]] | None = None,
) -> tuple[list[Item], str | None]:
    """Parse the numbers after a word into items (ranges expanded).

    Returns the items and, for a singular word with a hyphenated pair ("Figure 2-4"), the
    literal number that chapter-style numbering would give it; every hyphenated pair of digits
    is appended to ``pairs`` as ``(start, end, "2-4")``.
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
        num = norm_number(nm.group(0))
        if not _letters_ok(family, num):
            break
        is_range = sep is not None and _SEP_RANGE_RE.fullmatch(sep) is not None
        continued = False
        if sep is not None and not is_range and not plural:
            # "Table 1, 2019 data": lists follow plural words, but "Clause 5 and 7.2" lists clauses
            if not (family == "section" and "." in num and num[0].isdigit()):
                break
            continued = True
        if raw.startswith("("):
            n_start, n_end = base + m.start("item"), base + m.end("item")
        else:  # a trailing sub-part "(b)" is not part of the minimal span
            n_start, n_end = base + m.start("item") + nm.start(), base + m.start("item") + nm.end()
        if is_range and prev is not None:
            expanded = _expand(prev.number, num)
            digits = sep.strip() == "-" and prev.number.isdigit() and num.isdigit()
            if digits and pairs is not None:
                pairs.append((prev.start, n_end, f"{prev.number}-{num}"))
            hyphen_pair = digits and not plural
            if hyphen_pair and len(out) == 1:
                literal = f"{prev.number}-{num}"
                if expanded is None:  # "Table 3-1": only chapter numbering makes sense
                    out[-1] = Item(literal, prev.start, n_end)
                    pos = m.end()
                    break
            for mid in (expanded or [])[1:-1]:
                out.append(Item(mid, prev.start, n_end, False))
        prev = Item(num, n_start, n_end, not continued)
        out.append(prev)
        pos = m.end()
    return out, literal


def _scan(text: str) -> tuple[Mention, ...]:
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    external_end = law_end = -1
    for m in _MENTION.finditer(text):
        word = m.group("word")
        start = m.start("word")
        if _LOCATOR_WORD.match(word) and _FINER_THAN.search(text, max(0, start - 40), start):
            continue  # "Satz 2" of "Absatz 1 Satz 2": a sentence of that paragraph, not Theorem 2
        if _LAW_WORD.match(word) and _CODE_PART.match(text, m.start("items")):
            continue  # "article L. 121-1 du Code de la consommation": a code's article, not Article L
        family = family_of(word)
        plural = _plural(word, text, start)
        pairs: list[tuple[int, int, str]] = []
        items, literal = _items(m.group("items"), m.start("items"), family, plural, _ITEM_RE, pairs)
        if not items:
            continue
        end = max(i.end for i in items)
        if family == "equation":
            # "Eq. (1)": the closing parenthesis belongs to the label.
            while end < len(text) and text[end] == ")" and text[start:end].count("(") > text[start:end].count(")"):
                end += 1
        inside_law = start < law_end  # "Satz 2" of "§ 823 Abs. 1 Satz 2 BGB": the statute's locator
        law, law_name = _statute(word, text, end)
        law_end = max(law_end, law)
        if (inside_law or law >= 0 or _is_external(text, start, end) or _is_named_work(text, start, end)
                or _part_of_named_work(text, start)
                or (external_end >= 0 and _CHAIN.match(text, external_end, start))):
            external_end = end  # "VA Handbook 6500.6, Appendix C, paragraph 9, Appendix D": one citation
            cited = _cited_work(text, start, end) or (work_key(law_name) if law >= 0 else "")
            prev = found[-1] if found else None
            if prev is not None and prev.external is None and _SEP_LIST_RE.fullmatch(text, prev.end, start):
                found[-1] = replace(prev, external=cited)  # "Section 5 and Appendix C of [RFC8618]": both
            found.append(Mention(start, end, text[start:end], word, family, tuple(items), literal=literal,
                                 external=cited, pairs=tuple(pairs)))
            taken.append((start, end))
            continue
        found.append(Mention(start, end, text[start:end], word, family, tuple(items), literal=literal,
                             pairs=tuple(pairs)))
        taken.append((start, end))
    bare = (_BARE, _BARE_WEAK, _BARE_PAREN) if _DOTTED.search(text) else ()
    for m in (m for rx in bare for m in rx.finditer(text)):
        items, _ = _items(m.group("items"), m.start("items"), "section", True, _BARE_ITEM)
        if not items:
            continue
        start, end = items[0].start, max(i.end for i in items)
        if any(a < end and start < b for a, b in taken):
            continue
        if _UNIT_AFTER.match(text, end):
            continue
        if _is_external(text, start, end):
            found.append(Mention(start, end, text[start:end], "", "section", tuple(items), bare=True,
                                 external=_cited_work(text, start, end)))
            continue
        found.append(Mention(start, end, text[start:end], "", "section", tuple(items), bare=True))
        taken.append((start, end))
    found.sort(key=lambda x: x.start)
    return tuple(found)


def _split(text: str) -> tuple[tuple[Mention, ...], tuple[Mention, ...]]:
    """A text's mentions of this document's parts, and of other works' parts."""
    found = _scan(text)
    return tuple(m for m in found if m.external is None), tuple(m for m in found if m.external is not None)


def find_citations(text: str) -> tuple[Mention, ...]:
    """The mentions of other works' parts in ``text`` ("Section 3 of [RFC9110]"), each with the
    cited work's designation in ``external`` when it is written beside it.

    >>> [(m.text, m.external) for m in find_citations("See Section 4.2 of RFC 6787 and § 823 BGB.")]
    [('Section 4.2', 'RFC6787'), ('§ 823', 'BGB')]
    """
    return FACTS.memo("mentions", text, _split)[1]


def find_mentions(text: str) -> tuple[Mention, ...]:
    """Every internal mention in ``text``, in order, external citations left out.

    >>> [m.text for m in find_mentions("As Fig. 3(b) and Section 2.1 show; see Section 3 of [RFC9110].")]
    ['Fig. 3', 'Section 2.1']
    >>> [(i.number, i.explicit) for i in find_mentions("Sections 2-4 apply.")[0].items]
    [('2', True), ('3', False), ('4', True)]
    >>> [i.number for i in find_mentions("Compare Equations (1) and (3).")[0].items]
    ['1', '3']
    """
    return FACTS.memo("mentions", text, _split)[0]


# --- the mentions a unit makes ----------------------------------------------------------------

# A table column whose header names references cites sections by bare numbers in its cells: the
# header is one of the label grammar's words for sections ("Section", "Clause", "Abschnitt",
# "Sección", "§"), or a word for a reference ("Reference(s)", "See", "Defined in", "Specification"
# and "Definition" as registries write them) in English, German, French or Spanish.
_SECTION_WORDS = "|".join(w.cited for w in WORDS if w.cited and w.family == "section")
_REF_HEADER = re.compile(
    rf"^\s*(?:§+|{_SECTION_WORDS}|paragraphs?|paras?\.|references?|refs?\.?|see|(?:defined|specified|described)\s+in|"
    r"definitions?|specifications?|spec\.?|spezifikation(?:en)?|fundstellen?|sp(?:\u00e9|e)cifications?|"
    r"especificaci(?:\u00f3|o)n(?:es)?|definici(?:\u00f3|o)n(?:es)?|d(?:\u00e9|e)finitions?|"
    r"referenz(?:en)?|verweise?|siehe|(?:definiert|beschrieben)\s+in|"
    r"r(?:\u00e9|e)f(?:\u00e9|e)rences?|voir|d(?:\u00e9|e)fini(?:e|s|es)?\s+(?:en|dans)|"
    r"referencias?|v(?:\u00e9|e)ase|ver|definid[oa]s?\s+en)\s*[:.]?\s*$",
    re.I,
)
# A cell that is nothing but section numbers: "5.1", "5.2.1.1, 5.2.2.2", "§ 4", "3-5".
_CELL_NUM = r"(?:§\s*)?" + clause_number(suffix=True)
_CELL_LIST = re.compile(rf"\s*(?P<items>{_CELL_NUM}(?:(?:{_SEP_RANGE}|{_SEP_LIST}|\s*;\s*){_CELL_NUM})*)\s*\.?\s*")
_CELL_ITEM = re.compile(rf"(?P<sep>{_SEP_RANGE}|{_SEP_LIST}|\s*;\s*)?(?:§\s*)?(?P<item>{_CELL_NUM})")


def _cell_spans(text: str, cells: list[list[str]]) -> list[list[tuple[int, str]]]:
    """Each cell's offset in the table unit's text (cells are written in reading order)."""
    out, pos = [], 0
    for row in cells:
        spans = []
        for cell in row:
            at = text.find(cell, pos) if cell else -1
            if at >= 0:
                pos = at + len(cell)
            spans.append((at, cell))
        out.append(spans)
    return out


def table_mentions(unit: Unit) -> tuple[Mention, ...]:
    r"""Bare section numbers in the cells of a column whose header names references.

    >>> from adapters.model import Unit
    >>> t = Unit("t", "table", "Code\nSection\n0x01\n5.1\n0x02\n5.2.1.1, 5.2.2.2", 0,
    ...          meta={"cells": [["Code", "Section"], ["0x01", "5.1"], ["0x02", "5.2.1.1, 5.2.2.2"]]})
    >>> [(m.text, [i.number for i in m.items]) for m in table_mentions(t)]
    [('5.1', ['5.1']), ('5.2.1.1, 5.2.2.2', ['5.2.1.1', '5.2.2.2'])]
    """
    cells = unit.meta.get("cells") if unit.kind == "table" else None
    if not cells or len(cells) < 2:
        return ()
    heads = max(1, int(unit.meta.get("header_rows") or 1))
    columns = {c for row in cells[:heads] for c, h in enumerate(row) if h and _REF_HEADER.match(h)}
    if not columns:
        return ()
    out: list[Mention] = []
    for row in _cell_spans(unit.text, cells)[heads:]:
        for c, (at, cell) in enumerate(row):
            if c not in columns or at < 0:
                continue
            m = _CELL_LIST.fullmatch(cell)
            if not m or not any(ch.isdigit() for ch in m.group("items")):
                continue
            items, _ = _items(m.group("items"), at + m.start("items"), "section", True, _CELL_ITEM)
            if items:
                start, end = items[0].start, max(i.end for i in items)
                out.append(Mention(start, end, unit.text[start:end], "", "section", tuple(items), bare=True))
    return tuple(out)


def own_names(index: LabelIndex) -> frozenset[str]:
    """The designations the document gives itself (cached on the index)."""
    names = index.__dict__.get("_names")
    if names is None:
        names = document_names_of_texts(index.front)
        index.__dict__["_names"] = names
    return names


def document_names_of_texts(texts: Iterable[str]) -> frozenset[str]:
    return frozenset(work_key(m.group(0)) for t in texts for m in _DESIGNATION.finditer(t))


def designations(text: str) -> list[str]:
    """The designations of works written in ``text``, each as :func:`work_key` spells it.

    >>> designations("conform to RFC 3986 and ISO 29192")
    ['RFC3986', 'ISO29192']
    """
    return [work_key(m.group(0)) for m in _DESIGNATION.finditer(text)]


def unit_mentions(unit: Unit, names: frozenset[str] = frozenset()) -> tuple[Mention, ...]:
    """Every internal mention a unit makes: those of its text, its citations of the document
    itself by designation ("Section 4.2 of RFC 6787" in RFC 6787), and bare numbers in the
    reference columns of a table. What resolution, propagation and verification all read."""
    found = find_mentions(unit.text)
    own = tuple(m for m in find_citations(unit.text) if m.external and m.external in names) if names else ()
    cells = table_mentions(unit) if unit.kind == "table" else ()
    if not own and not cells:
        return found
    taken = [(m.start, m.end) for m in found + own]
    cells = tuple(m for m in cells if not any(a < m.end and m.start < b for a, b in taken))
    return tuple(sorted(found + own + cells, key=lambda m: m.start))


# --- resolving -------------------------------------------------------------------------------


def _lookup(index: LabelIndex, family: str, item: Item) -> tuple[str | None, str]:
    """The unit an item names, or failing that the item without a trailing letter ("3b")."""
    hit = index.resolve(family, item.number)
    if hit:
        return hit, item.number
    part = subpart(item.number)
    if part:
        hit = index.resolve(family, part[0])
        if hit:
            return hit, part[0]
    return None, item.number


_HEADING_AFTER = re.compile(r"[ \t]*(?:[\u2013\u2014:]|-|\.)[ \t]+[A-Z]")


def _heading_label(text: str, m: Mention) -> bool:
    """Whether a mention opens a line as a run-in heading ("Section 4 – Alleged Abuser
    Information" in a form's table, "Section 2. Term." in a contract): it names the text that
    follows, it does not cite another part."""
    line_start = text.rfind("\n", 0, m.start) + 1
    if text[line_start : m.start].strip() or len(m.items) != 1:
        return False
    return bool(_HEADING_AFTER.match(text, m.end))


def _weak(unit: Unit, m: Mention, index: LabelIndex) -> bool:
    """Mentions that are not findings when they resolve to nothing: a plural word with a single
    number ("Basic Exponential Equations (4.4)" names a topic and its textbook section),
    mentions in footnotes and endnotes, where bibliographic citations live ("Gaiman, Don't Panic,
    Chapter 14." cites a book), a caption's title ("Figure 31: Verification Results Example 1"
    names what it shows), "§ 202" in a document that does not number its own parts with
    "§" (it cites a statute the text has named), and a section number in a document that
    numbers no section at all ("the man page from section 7"): nothing here says it is this
    document's."""
    return ((_plural(m.word, unit.text, m.start) and len(m.items) == 1) or unit.kind in NOTE_KINDS
            or unit.kind == "caption"
            or (m.word.startswith("§") and not index.section_sign)
            or (m.family == "section" and not index.numbered_sections))


_CAPTIONED = frozenset({"figure", "table", "equation", "listing"})


def _chapter_items(m: Mention, index: LabelIndex) -> tuple[Item, ...] | None:
    """The items of a mention whose hyphenated pairs are chapter-style numbers: "figures 4-1 and
    4-2" where the document numbers its figures 4-1, 4-2 (or "table 3-39" where it numbers its
    figures so and has no table): each pair one item, not a range."""
    if not m.pairs:
        return None
    chapter = index.chapter_families
    if m.family not in chapter and not (
            m.family in _CAPTIONED and chapter & _CAPTIONED and not index.hasfamily_of(m.family)):
        return None
    out: list[Item] = []
    for it in m.items:
        pair = next((p for p in m.pairs if p[0] <= it.start and it.end <= p[1]), None)
        if pair is None:
            out.append(it)
        elif not out or (out[-1].start, out[-1].end) != pair[:2]:
            out.append(Item(pair[2], pair[0], pair[1]))
    return tuple(out)


def resolve_unit(unit: Unit, index: LabelIndex) -> tuple[list[Resolved], list[BrokenReference]]:
    """The REFERENCES a unit's text makes, and its broken references."""
    resolved: list[Resolved] = []
    broken: list[BrokenReference] = []
    text = unit.text
    own = {k for k, _ in unit_keys(unit)}
    fields = [(f.start, f.end) for f in unit.fields if f.is_reference and f.end > f.start]
    for m in unit_mentions(unit, own_names(index)):
        if m.start == len(text) - len(text.lstrip()) and any((m.family, i.number) in own for i in m.items):
            continue  # the unit's own label ("Figure 3: ..." opening its caption)
        if any(a < m.end and m.start < b for a, b in fields):
            continue  # a reference field covers it: the field's exact target wins
        if _heading_label(text, m):
            continue  # "Section 4 – Alleged Abuser Information" opening a line: a label, not a citation
        items = _chapter_items(m, index) or m.items
        if m.literal and index.resolve(m.family, m.literal):
            items = (Item(m.literal, m.items[0].start, m.items[-1].end),)
        single = len(items) == 1
        for item in items:
            target, number = _lookup(index, m.family, item)
            if target is None:
                if item.explicit and not m.bare and not _weak(unit, m, index):
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
            part = subpart(i.number)
            if part:
                yield m.family, part[0]
