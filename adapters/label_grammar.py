"""The grammar of labels: the words and numbers by which a reader cites a part of a document
("Section 2.1", "Abb. 3", "Annex B", "§ 5", "Théorème 2"), parsed and printed one way by the
readers, the graph (label index, mention finder), the edit engines and verification.

A label is a key ``(family, number)``: a lower-case family ("section", "figure", "table",
"equation", "theorem", ...) and the number as written ("2.1", "A", "IV"). Every sectioning
word (Chapter, Clause, Annex, Article, Abschnitt, Anexo, §) shares the family "section", so
"Clause 7", "Annex B", "Sect. 3" and "Kapitel 2" find the same units a heading's number gives.

:data:`WORDS` is the one table of label words, in English, German, French, Spanish, Italian,
Portuguese and Dutch, each with the roles it plays:

- ``cited``: the forms running text cites it by (singular, plural, abbreviations), a regular
  expression; ``None`` for a word that labels its own unit but is not read as a mention;
- ``caption``: a caption may open with it ("Abbildung 3: ...", and its ``abbrevs``);
- ``statement``: a numbered statement may open with it ("Theorem 2. ...");
- ``heading``: it may stand before a heading's own number ("Annex B Scope", a list label
  "Appendix A.").

It lives in the adapters because the readers compute labels; the backend imports it.
"""
from __future__ import annotations

import importlib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = [
    "LabelWord",
    "WORDS",
    "FAMILIES",
    "WORD_ALT",
    "WORD_START",
    "NUM",
    "OWN_NUM",
    "CLAUSE_NUMBER",
    "clause_number",
    "PLURAL",
    "PLURAL_IN",
    "is_plural",
    "NAME_ALT",
    "TYPED_LABEL",
    "family_of",
    "word_of",
    "word_name",
    "norm_number",
    "number_depth",
    "subpart",
    "canonical_label",
    "parse_label",
    "label_word",
    "parse_typed_label",
    "heading_number",
    "heading_word_alt",
]


@dataclass(frozen=True)
class LabelWord:
    """One label word: how it is printed (``name``), its family and language, and its roles."""

    name: str
    family: str
    lang: str
    cited: str | None = None
    #: Whether lower-case forms of ``cited`` count ("section 2"; "Example 2" only capitalised).
    lower: bool = True
    caption: bool = False
    statement: bool = False
    heading: bool = False
    #: Abbreviations a caption may open with ("Fig.", "Abb.").
    abbrevs: tuple[str, ...] = ()


def _w(name: str, family: str, lang: str, cited: str | None = None, lower: bool = True, **roles) -> LabelWord:
    return LabelWord(name, family, lang, cited, lower, **roles)


# The order of the cited words is the order the mention pattern tries them (a word another one
# starts, like "annex" of "annexe", comes first and yields when what follows does not fit).
WORDS: tuple[LabelWord, ...] = (
    _w("Section", "section", "en", r"sub-?sections?|sections?|sects?\.|secs?\.", heading=True),
    _w("Chapter", "section", "en", r"chapters?|chaps?\.", heading=True),
    _w("Chapter", "section", "en", r"Ch\.", lower=False),
    _w("Clause", "section", "en", r"sub-?clauses?|clauses?", heading=True),
    _w("Appendix", "section", "en", r"appendix|appendices", heading=True),
    _w("Annex", "section", "en", r"annex(?:es)?", heading=True),
    _w("Appendix", "section", "en", r"App\.", lower=False),
    _w("Article", "section", "en", r"articles?", heading=True),
    _w("Article", "section", "en", r"Arts?\.", lower=False, heading=True),  # "Art. 1 – Oggetto"
    # "paragraph 3.2.1" (military and legal standards); a plain "paragraph 2" is too ambiguous
    _w("Paragraph", "section", "en", r"paragraphs?(?=\s+(?:\d+|[A-Z])\.\d)|paras?\.(?=\s*(?:\d+|[A-Z])\.\d)"),
    _w("Figure", "figure", "en", r"figures?|figs?\.|fig(?=\s*\d)", caption=True, abbrevs=("Fig.",)),
    _w("Table", "table", "en", r"tables?", caption=True, abbrevs=("Tab.",)),
    _w("Table", "table", "en", r"Tabs?\.|Tbls?\.", lower=False),
    _w("Equation", "equation", "en", r"equations?|eqs?\.|eqns?\.", caption=True, abbrevs=("Eq.",)),
    # ISO and IEC documents cite "Formula (3)" since the 2016 directives
    _w("Formula", "equation", "en", r"formulae|formulas?"),
    _w("Theorem", "theorem", "en", r"theorems?", statement=True),
    _w("Theorem", "theorem", "en", r"Thms?\.", lower=False),
    _w("Lemma", "lemma", "en", r"lemmas?|lemmata", statement=True),
    _w("Lemma", "lemma", "en", r"Lems?\.", lower=False),
    _w("Definition", "definition", "en", r"Definitions?|Defs?\.", lower=False, statement=True),
    _w("Proposition", "proposition", "en", r"propositions?", statement=True),
    _w("Proposition", "proposition", "en", r"Props?\.", lower=False),
    _w("Corollary", "corollary", "en", r"corollary|corollaries", statement=True),
    _w("Corollary", "corollary", "en", r"Cors?\.", lower=False),
    _w("Algorithm", "algorithm", "en", r"algorithms?", statement=True),
    _w("Algorithm", "algorithm", "en", r"Algs?\.", lower=False),
    _w("Example", "example", "en", r"Examples?", lower=False, statement=True),
    _w("Remark", "remark", "en", r"Remarks?", lower=False, statement=True),
    _w("Assumption", "assumption", "en", r"Assumptions?", lower=False, statement=True),
    _w("Conjecture", "conjecture", "en", r"Conjectures?", lower=False, statement=True),
    _w("Claim", "claim", "en", r"Claims?", lower=False, statement=True),
    _w("Axiom", "axiom", "en", r"Axioms?", lower=False, statement=True),
    _w("Requirement", "requirement", "en", r"Requirements?", lower=False, statement=True),
    _w("Listing", "listing", "en", r"Listings?", lower=False, caption=True),
    # German, French, Spanish, Italian, Portuguese and Dutch: the words documents in those
    # languages cite their parts with (a word two languages share is listed once). "Abs."
    # (Absatz) is a locator inside a statute citation, not a part of this document, so it is
    # not here.
    _w("Abschnitt", "section", "de", r"(?:unter)?abschnitte?n?|abschn\.", heading=True),
    _w("Kapitel", "section", "de", r"kapiteln?|kap\.", heading=True),
    _w("Anhang", "section", "de", r"anh(?:a|\u00e4)nge?n?", heading=True),
    _w("Anlage", "section", "de", r"anlagen?", heading=True),
    _w("Artikel", "section", "de", r"artikel(?:e?n)?", heading=True),  # (Dutch "artikelen" too)
    _w("Chapitre", "section", "fr", r"chapitres?", heading=True),
    _w("Annexe", "section", "fr", r"annexes?", heading=True),
    _w("Article", "section", "fr", r"articles?"),
    _w("Partie", "section", "fr", r"parties?(?=\s+[IVX\d])", heading=True),
    _w("Paragraphe", "section", "fr", r"paragraphes?(?=\s+\d+\.\d)"),
    _w("Secci\u00f3n", "section", "es", r"secci(?:o|\u00f3)n|secciones|subsecci(?:o|\u00f3)n", heading=True),
    _w("Cap\u00edtulo", "section", "es", r"cap(?:i|\u00ed)tulos?", heading=True),
    _w("Apartado", "section", "es", r"apartados?", heading=True),
    _w("Anexo", "section", "es", r"anexos?", heading=True),
    _w("Ap\u00e9ndice", "section", "es", r"ap(?:e|\u00e9)ndices?", heading=True),
    _w("Art\u00edculo", "section", "es", r"art(?:i|\u00ed)culos?", heading=True),
    _w("Articolo", "section", "it", r"articol[oi]", heading=True),
    _w("Sezione", "section", "it", r"sezion[ei]", heading=True),
    _w("Capitolo", "section", "it", r"capitol[oi]", heading=True),
    _w("Allegato", "section", "it", r"allegat[oi]", heading=True),
    _w("Appendice", "section", "it", r"appendic[ei]", heading=True),
    _w("Paragrafo", "section", "it", r"paragraf[oi](?=\s+\d+\.\d)"),
    _w("Artigo", "section", "pt", r"artigos?", heading=True),
    _w("Se\u00e7\u00e3o", "section", "pt", r"sec?(?:c|\u00e7)(?:a|\u00e3)o|sec?(?:c|\u00e7)(?:o|\u00f5)es", heading=True),
    _w("Ap\u00eandice", "section", "pt", r"ap\u00eandices?", heading=True),
    _w("Hoofdstuk", "section", "nl", r"hoofdstuk(?:ken)?", heading=True),
    _w("Bijlage", "section", "nl", r"bijlagen?", heading=True),
    _w("Sectie", "section", "nl", r"secties?", heading=True),
    _w("Paragraaf", "section", "nl", r"paragra(?:af|fen)(?=\s+\d+\.\d)"),
    _w("Abbildung", "figure", "de", r"abbildungen|abbildung|abb\.", caption=True, abbrevs=("Abb.",)),
    _w("Figura", "figure", "es", r"figuras?", caption=True),
    _w("Figure", "figure", "fr", r"fig\.(?=\s*\d)"),
    _w("Tabelle", "table", "de", r"tabellen?|tab\.", caption=True),
    _w("Tableau", "table", "fr", r"tableaux?|tabl\.", caption=True),
    _w("Tabla", "table", "es", r"tablas?", caption=True),
    _w("Tabela", "table", "pt", r"tabelas?"),
    _w("Tabella", "table", "it", r"tabella", caption=True),
    _w("Tabel", "table", "nl", r"tabel(?!l)", caption=True),
    _w("Figuur", "figure", "nl", r"figuur|figuren", caption=True),
    _w("Cuadro", "table", "es", r"cuadros?", caption=True),
    _w("Gleichung", "equation", "de", r"gleichungen|gleichung|gl\.", caption=True),
    _w("Formel", "equation", "de", r"formeln?"),
    _w("\u00c9quation", "equation", "fr", r"(?:e|\u00e9)quations?|(?:e|\u00e9)q\.", caption=True),
    _w("Ecuaci\u00f3n", "equation", "es", r"ecuaci(?:o|\u00f3)n|ecuaciones|ec\.", caption=True),
    _w("F\u00f3rmula", "equation", "es", r"f(?:o|\u00f3)rmulas?"),
    _w("Formule", "equation", "fr", r"formules?"),
    _w("Equazione", "equation", "it", r"equazion[ei]", caption=True),
    _w("Equa\u00e7\u00e3o", "equation", "pt", r"equa(?:c|\u00e7)(?:a|\u00e3)o|equa(?:c|\u00e7)(?:o|\u00f5)es", caption=True),
    _w("Vergelijking", "equation", "nl", r"vergelijking(?:en)?", caption=True),
    _w("Satz", "theorem", "de", r"S(?:a|\u00e4)tze?", lower=False),
    _w("Theorem", "theorem", "de", r"Theoreme?", lower=False),
    _w("Th\u00e9or\u00e8me", "theorem", "fr", r"Th(?:e|\u00e9)or(?:e|\u00e8)mes?", lower=False),
    _w("Teorema", "theorem", "es", r"Teoremas?", lower=False),
    # Words that label their own unit (a caption sequence, a heading's list label) but that
    # running text is not read for: "Illustration 1" is LibreOffice's caption, "Schedule 1" a
    # contract's own sequence.
    _w("Illustration", "figure", "en", caption=True),
    _w("Drawing", "figure", "en", caption=True),
    _w("Image", "figure", "en"),
    _w("Ilustraci\u00f3n", "figure", "es", caption=True),
    _w("Illustrazione", "figure", "it", caption=True),
    _w("Ilustra\u00e7\u00e3o", "figure", "pt", caption=True),
    _w("Afbeelding", "figure", "nl", caption=True),
    _w("Dibujo", "figure", "es"),
    _w("Zeichnung", "figure", "de"),
    _w("Dessin", "figure", "fr"),
    _w("Part", "section", "en", heading=True),
    _w("Schedule", "schedule", "en", heading=True),
    _w("Exhibit", "exhibit", "en", heading=True),
    _w("Text", "text", "en"),
)

#: Every family a mention can belong to (the families of the cited words).
FAMILIES = tuple(dict.fromkeys(w.family for w in WORDS if w.cited))

_CITED = tuple(w for w in WORDS if w.cited)
#: The cited words as one alternation (the mention finder's and the label parser's).
WORD_ALT = "|".join(f"(?i:{w.cited})" if w.lower else f"(?:{w.cited})" for w in _CITED)
#: The printed names of the words not cited in running text ("Illustration", "Schedule").
NAME_ALT = "|".join(re.escape(n) for n in sorted({w.name for w in WORDS if not w.cited}, key=len, reverse=True))

PLURAL = re.compile(
    r"^(?:sections|subsections|sub-sections|secs\.|sects\.|chapters|chaps\.|clauses|subclauses|"
    r"sub-clauses|appendices|annexes|articles|arts\.|paragraphs|paras\.|figures|figs\.|tables|tabs\.|tbls\.|"
    r"equations|eqs\.|eqns\.|formulae|formulas|theorems|thms\.|lemmas|lemmata|lems\.|definitions|defs\.|"
    r"propositions|props\.|corollaries|cors\.|algorithms|algs\.|examples|remarks|assumptions|"
    r"conjectures|claims|axioms|requirements|listings|§§|"
    r"abschnitte|abschnitten|unterabschnitte|kapiteln|anh\u00e4nge|anhänge|anhaenge|anlagen|artikeln|abbildungen|"
    r"tabellen|gleichungen|formeln|s\u00e4tze|theoreme|chapitres|annexes|parties|paragraphes|tableaux|\u00e9quations|"
    r"formules|th\u00e9or\u00e8mes|secciones|subsecciones|cap\u00edtulos|capitulos|apartados|anexos|ap\u00e9ndices|"
    r"apendices|art\u00edculos|articulos|figuras|tablas|tabelas|cuadros|ecuaciones|f\u00f3rmulas|formulas|teoremas|"
    r"sezioni|se\u00e7\u00f5es|sec\u00e7\u00f5es|secoes|seccoes|capitoli|allegati|articoli|appendici|paragrafi|"
    r"equazioni|artigos|ap\u00eandices|equa\u00e7\u00f5es|equacoes|hoofdstukken|bijlagen|secties|paragrafen|figuren|"
    r"vergelijkingen|artikelen)$",
    re.I,
)
"""A plural label word ("Sections", "Abbildungen"): a list or range follows it."""

#: Forms that are singular in one language and plural in another, with the languages they are
#: plurals in: Italian "le tabelle 1 e 2", "le figure 3 e 4" (German "Tabelle 1", English
#: "Figure 1", French "formule 2" are singular).
PLURAL_IN: dict[str, frozenset[str]] = {
    "tabelle": frozenset({"it"}), "figure": frozenset({"it"}), "formule": frozenset({"it"})}


def is_plural(word: str, lang: str | None = None) -> bool:
    """Whether a label word is a plural (a list or range follows it) in text of ``lang``.

    >>> is_plural("Sections"), is_plural("tabelle"), is_plural("tabelle", "it"), is_plural("Tabelle", "de")
    (True, False, True, False)
    """
    return PLURAL.match(word) is not None or lang in PLURAL_IN.get(word.lower(), ())


def _first_chars(pattern: str) -> set[str] | None:
    """The characters a match of ``pattern`` can start with (``None`` when that cannot be read)."""
    try:
        # the parser of the standard library's own regex compiler (private, so typeshed has no stub)
        _parser: Any = importlib.import_module("re._parser")
    except ImportError:  # pragma: no cover - other Python versions
        return None
    out: set[str] = set()

    def walk(seq) -> bool:  # whether seq can match the empty string
        for op, av in seq:
            name = str(op)
            if name == "LITERAL":
                out.add(chr(av))
                return False
            if name == "IN":
                for o, a in av:
                    if str(o) == "LITERAL":
                        out.add(chr(a))
                    elif str(o) == "RANGE":
                        out.update(chr(c) for c in range(a[0], a[1] + 1))
                    else:
                        raise ValueError(o)
                return False
            if name == "BRANCH":
                if not any([walk(b) for b in av[1]]):
                    return False
            elif name == "SUBPATTERN":
                if not walk(av[3]):
                    return False
            elif name in ("MAX_REPEAT", "MIN_REPEAT"):
                if not walk(av[2]) and av[0] > 0:
                    return False
            elif name not in ("ASSERT", "ASSERT_NOT", "AT"):
                raise ValueError(name)
        return True

    try:
        if walk(_parser.parse(pattern)):
            return None  # can match nothing: no first character to require
    except (ValueError, TypeError, AttributeError):  # pragma: no cover - a construct not read here
        return None
    return out


def _starts() -> str:
    chars: set[str] = {"§"}
    for w in _CITED:
        got = _first_chars(w.cited) if w.cited else None
        if got is None:
            return ""
        chars |= got | ({c.swapcase() for c in got} if w.lower else set())
    return "".join(sorted(chars))


#: A lookahead on the first letters label words can start with: the mention pattern then skips
#: every other word start at once (half the time of trying each word, measured on a standard).
WORD_START = f"(?=[{re.escape(_starts())}])" if _starts() else ""

# One number: "2", "2.1.3", "3b", "A.2", "B" (letters and roman numerals: sections only).
# Not a number: one joined to a word by a hyphen ("Example 1-RTT", "a 3-way handshake"), or a
# letter before ".Y" (the placeholder "Section X.Y").
NUM = (r"\d+[A-Za-z]?(?:\.\d+[A-Za-z]?)*(?![\w]|-[^\W\d_])|[A-Z](?:\.\d+)+(?![\w])|[A-Z](?![\w]|\.[^\W\d_])"
       r"|[IVXLC]{1,6}(?![\w]|\.[^\W\d_])")


def clause_number(min_parts: int = 1, max_parts: int | None = None, *, letters: bool = True,
                  suffix: bool = False) -> str:
    """The one clause-number pattern (a regular expression, no group): dotted parts of one to
    three digits, ``min_parts`` to ``max_parts`` of them ("4", "2.1.3"), with a letter after
    each part with ``suffix`` ("5.2a"); with ``letters`` also an annex letter followed by dotted
    parts ("A.1", "B.2.3"), which no decimal and no count is, so it needs no more parts. A rule
    that reads numbers without a label word asks for more parts than a decimal has.
    Spec: ``tests/vectors/clause_numbers.json``.

    >>> [bool(re.fullmatch(clause_number(), t)) for t in ("4", "2.1.3", "A.1", "A", "1234", "2.1.")]
    [True, True, True, False, False, False]
    >>> [bool(re.fullmatch(clause_number(3), t)) for t in ("5.2", "5.2.1", "A.3")]
    [False, True, True]
    """
    part = r"\d{1,3}[A-Za-z]?" if suffix else r"\d{1,3}"
    top = "" if max_parts is None else str(max_parts - 1)
    digits = rf"{part}(?:\.{part}){{{min_parts - 1},{top}}}"
    if not letters:
        return f"(?:{digits})"
    annex = rf"[A-Z](?:\.\d{{1,3}}){{1,{top}}}"
    return f"(?:{digits}|{annex})"


#: A clause number of any depth: what a heading, a list item or a table cell types
#: (:func:`clause_number`).
CLAUSE_NUMBER = clause_number()


#: A number as a caption or a statement types it after its word, for itself ("Table 3-1",
#: "Theorem A.2"): chapter-style hyphens are part of it.
OWN_NUM = r"(?:[A-Z]|\d+)(?:[.\-]\d+)*"


def _fold(text: str) -> str:
    """Case and accents folded, a final full stop dropped: how a word is looked up by name."""
    text = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in text if not unicodedata.combining(c)).rstrip(".")


_BY_NAME: dict[str, LabelWord] = {}
for _word in WORDS:
    for _form in (_word.name, *_word.abbrevs):
        _BY_NAME.setdefault(_fold(_form), _word)


@lru_cache(maxsize=1024)
def word_of(word: str) -> LabelWord | None:
    """The table entry of a label word as written ("Sect." -> Section, "Abb." -> Abbildung,
    "Illustration" -> Illustration); ``None`` for "§" and words the grammar does not know.

    >>> word_of("Sect.").name, word_of("abbildungen").name, word_of("ILLUSTRATION").family
    ('Section', 'Abbildung', 'figure')
    >>> word_of("§") is None, word_of("Widget") is None
    (True, True)
    """
    w = word.strip()
    for entry in _CITED:
        if entry.cited and re.fullmatch(entry.cited, w, re.I if entry.lower else 0):
            return entry
    return _BY_NAME.get(_fold(w))


def family_of(word: str) -> str:
    """The family of a label word ("Clause", "§", "Anhang" -> "section"; "Abb." -> "figure")."""
    if word.startswith("§"):
        return "section"
    entry = word_of(word)
    return entry.family if entry else "section"


def word_name(word: str | None) -> str | None:
    """How a label word is printed: its name ("Sects." -> "Section", "Abb." -> "Abbildung")."""
    entry = word_of(word) if word else None
    return entry.name if entry else None


def norm_number(num: str) -> str:
    """A number as keys hold it: no brackets, no final full stop (``"(2)"`` -> ``"2"``)."""
    return num.strip().strip("()").strip().rstrip(".")


def number_depth(number: str | None) -> int | None:
    """How deep a number sits in an outline: ``"2.1.3"`` -> 3, ``"A"`` -> 1; ``None`` for what
    is no outline number ("Appendix A", "a)").

    >>> number_depth("2.1.3"), number_depth("A.1."), number_depth("IV"), number_depth("a b")
    (3, 2, 1, None)
    """
    num = norm_number(number or "")
    if not num or not re.fullmatch(r"\w+(?:\.\w+)*", num):
        return None
    return num.count(".") + 1


def subpart(number: str) -> tuple[str, str] | None:
    """A number that names a lettered part of a numbered unit ("subsection 6b": item b of
    clause 6), split into the unit's number and the part's letter.

    >>> subpart("6b"), subpart("4.2a"), subpart("6"), subpart("A")
    (('6', 'b'), ('4.2', 'a'), None, None)
    """
    if re.fullmatch(r"[\d.]+[a-z]", number, re.I) and number[-2].isdigit():
        return number[:-1], number[-1]
    return None


_DEFAULT_NAME = {w.family: w.name for w in reversed(WORDS) if w.lang == "en"}


def canonical_label(family: str, number: str, word: str | None = None) -> str:
    """The label a reader prints for ``(family, number)``: in the word the document used when
    ``word`` is given ("Abb." -> "Abbildung 3", "Clause" -> "Clause 7"), else in English (a lone
    capital is an appendix; "a" numbers a sub-clause).

    >>> canonical_label("equation", "3"), canonical_label("section", "B"), canonical_label("lemma", "2")
    ('Equation (3)', 'Appendix B', 'Lemma 2')
    >>> canonical_label("section", "7", "Clause"), canonical_label("section", "2", "§§")
    ('Clause 7', 'Section 2')
    >>> canonical_label("figure", "3", "Abb."), canonical_label("equation", "2", "Gl."), canonical_label("section", "A", "Anhang")
    ('Abbildung 3', 'Gleichung (2)', 'Anhang A')
    >>> canonical_label("section", "a"), canonical_label("figure", "2", "Clause")
    ('Section a', 'Figure 2')
    """
    entry = word_of(word) if word and not word.startswith("§") else None
    if entry is not None and entry.family == family:
        name = entry.name
    elif family == "section":
        name = "Appendix" if re.fullmatch(r"[A-Z]", number) else "Section"
    else:
        name = _DEFAULT_NAME.get(family, family.title())
    return f"{name} ({number})" if family == "equation" else f"{name} {number}"


_LABEL = re.compile(rf"^\s*(?P<word>§|{WORD_ALT}|(?i:{NAME_ALT}))\s*(?P<num>\(?\s*(?:{NUM})\s*\)?)\s*[.:]?\s*$")
_GENERIC_LABEL = re.compile(r"^\s*(?P<word>[A-Za-z][\w\-]*)\s+(?P<num>\(?[\w.\-]+\)?)\s*$")


def label_word(label: str | None) -> str | None:
    """The word a label is written with (``"Abb. 3"`` -> ``"Abb."``), if the grammar reads it."""
    m = _LABEL.match(label) if label else None
    return m.group("word") if m else None


@lru_cache(maxsize=4096)
def parse_label(label: str | None) -> tuple[str, str] | None:
    """``(family, number)`` of a label as a reader writes it.

    >>> parse_label("Section 2.1"), parse_label("Appendix A"), parse_label("Equation (2)")
    (('section', '2.1'), ('section', 'A'), ('equation', '2'))
    >>> parse_label("Listing 4"), parse_label("Annex B"), parse_label(None)
    (('listing', '4'), ('section', 'B'), None)
    >>> parse_label("Abbildung 3"), parse_label("Illustration 1"), parse_label("Schedule 2")
    (('figure', '3'), ('figure', '1'), ('schedule', '2'))
    """
    if not label:
        return None
    m = _LABEL.match(label)
    if m:
        return family_of(m.group("word")), norm_number(m.group("num"))
    m = _GENERIC_LABEL.match(label)
    if m:
        return m.group("word").lower(), norm_number(m.group("num"))
    return None


# --- labels typed in an instruction ----------------------------------------------------------

# As a person types a number: any case ("appendix a"), roman numerals ("Part II"), "(2)".
_TYPED_NUM = r"\(?(?:\d+[A-Za-z]?|[IVXLC]{2,6}|[A-Z])(?:[.\-](?:\d+|[A-Z]))*\)?"
#: A label as typed in an instruction ("Section 2.1", "Sect. 5.2.3", "§ 4", "Annex B",
#: "Abschnitt 3", "fig. 3", "Equation (2)"): every word of the grammar, any case.
TYPED_LABEL = rf"(?:(?:§§?|{WORD_ALT}|(?i:{NAME_ALT}))\s*{_TYPED_NUM}(?![\w]))"
_TYPED = re.compile(rf"\s*(?P<word>§§?|{WORD_ALT}|{NAME_ALT})\s*(?P<num>{_TYPED_NUM})\s*\.?\s*", re.I)


def parse_typed_label(text: str) -> tuple[str, str] | None:
    """``(family, number)`` of a label typed in an instruction, in the key space of
    :func:`parse_label` (a lone letter or roman numeral upper-cased).

    >>> parse_typed_label("Sect. 5.2.3"), parse_typed_label("appendix a"), parse_typed_label("§4")
    (('section', '5.2.3'), ('section', 'A'), ('section', '4'))
    >>> parse_typed_label("Abschnitt 3"), parse_typed_label("fig. 2"), parse_typed_label("part ii")
    (('section', '3'), ('figure', '2'), ('section', 'II'))
    >>> parse_typed_label("the intro") is None
    True
    """
    m = _TYPED.fullmatch(text)
    if not m:
        return None
    num = norm_number(m.group("num"))
    if num.isalpha() and (len(num) == 1 or re.fullmatch(r"[ivxlc]+", num, re.I)):
        num = num.upper()
    return family_of(m.group("word")), num


# --- the number a heading types before its title ---------------------------------------------

def heading_word_alt(family: str | None = None) -> str:
    """The words that may stand before a heading's number (of ``family``, or any), as their names
    print them or as running text cites them ("Secção 2", "Articulo 3", "Art. 1"): a regular
    expression to use without case (no group)."""
    words = [w for w in WORDS if w.heading and (family is None or w.family == family)]
    names = sorted({w.name for w in words}, key=len, reverse=True)
    return "|".join([re.escape(n) for n in names] + [w.cited for w in words if w.cited])


_HEADING_WORD = re.compile(
    rf"^\s*(?P<word>(?i:{heading_word_alt('section')})|§)\s*"
    rf"(?P<num>\d+[A-Za-z]?(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVXLC]{{1,6}})(?![\w])"
)
_HEADING_NUM = re.compile(rf"^\s*(?P<num>{CLAUSE_NUMBER})\.?(?=\s+\S|\s*$)")


def heading_number(text: str) -> tuple[str, int, int] | None:
    """The number a heading types before its title, with or without a sectioning word, and
    where it is: ``(number, start, end)``.

    >>> heading_number("2.1 Scope"), heading_number("A.1 Scope"), heading_number("Section 3 Terms")
    (('2.1', 0, 3), ('A.1', 0, 3), ('3', 8, 9))
    >>> heading_number("Annex B Scope"), heading_number("Anhang A Glossar"), heading_number("§ 5 Haftung")
    (('B', 6, 7), ('A', 7, 8), ('5', 2, 3))
    >>> heading_number("Secção 2 Âmbito"), heading_number("Articolo 10 Durata"), heading_number("Hoofdstuk 4 Doel")
    (('2', 7, 8), ('10', 9, 11), ('4', 10, 11))
    >>> heading_number("A Guide to Keys"), heading_number("2021 Results"), heading_number("Scope")
    (None, None, None)
    >>> heading_number("Parties 2 and 3 Obligations"), heading_number("Sections of the text")
    (None, None)
    """
    m = _HEADING_WORD.match(text)
    if m and PLURAL.match(m.group("word")):  # "Parties 2 and 3": a list, no heading's number
        m = None
    m = m or _HEADING_NUM.match(text)
    if not m:
        return None
    return norm_number(m.group("num")), m.start("num"), m.start("num") + len(norm_number(m.group("num")))
