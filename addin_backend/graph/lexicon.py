"""The words and numbers by which a reader cites a unit ("Section 2.1", "Fig. 3", "Annex B").

Shared by the mention finder and the label index, so a label and a mention of it are read by the
same grammar.
"""
from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["FAMILIES", "WORD_TABLE", "WORD_ALT", "NUM", "PLURAL", "family_of", "norm_number", "canonical_label"]


# (regex, family, lower case allowed). Families are what labels are indexed by: every
# sectioning word (Chapter, Clause, Annex, Article, §) shares the family "section".
WORD_TABLE: tuple[tuple[str, str, bool], ...] = (
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
    # ISO and IEC documents cite "Formula (3)" since the 2016 directives
    (r"formulae|formulas?", "equation", True),
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
    # German, French, Spanish (and the Italian and Portuguese words they share): the words
    # documents in those languages cite their parts with. "Abs." (Absatz) is a locator inside a
    # statute citation, not a part of this document, so it is not here.
    (r"(?:unter)?abschnitte?n?|abschn\.|kapiteln?|kap\.|anh(?:a|\u00e4)nge?n?|anlagen?|artikeln?", "section", True),
    (r"chapitres?|annexes?|articles?|parties?(?=\s+[IVX\d])|paragraphes?(?=\s+\d+\.\d)", "section", True),
    (r"secci(?:o|\u00f3)n|secciones|subsecci(?:o|\u00f3)n|cap(?:i|\u00ed)tulos?|apartados?|anexos?|"
     r"ap(?:e|\u00e9)ndices?|art(?:i|\u00ed)culos?|sezion[ei]|se(?:c|\u00e7)(?:a|\u00e3)o|se(?:c|\u00e7)(?:o|\u00f5)es|"
     r"capitol[oi]|allegat[oi]", "section", True),
    (r"abbildungen|abbildung|abb\.|figuras?|fig\.(?=\s*\d)", "figure", True),
    (r"tabellen?|tab\.|tableaux?|tabl\.|tablas?|tabelas?|cuadros?", "table", True),
    (r"gleichungen|gleichung|gl\.|formeln?|(?:e|\u00e9)quations?|(?:e|\u00e9)q\.|ecuaci(?:o|\u00f3)n|ecuaciones|"
     r"ec\.|f(?:o|\u00f3)rmulas?|formules?", "equation", True),
    (r"S(?:a|\u00e4)tze?|Theoreme?|Th(?:e|\u00e9)or(?:e|\u00e8)mes?|Teoremas?", "theorem", False),
)

#: Every family a mention or a label can belong to.
FAMILIES = tuple(dict.fromkeys(f for _, f, _ in WORD_TABLE))

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
    r"sezioni|se\u00e7\u00f5es|capitoli|allegati)$",
    re.I,
)

WORD_ALT = "|".join(f"(?i:{rx})" if lower else f"(?:{rx})" for rx, _, lower in WORD_TABLE)


def _first_chars(pattern: str) -> set[str] | None:
    """The characters a match of ``pattern`` can start with (``None`` when that cannot be read)."""
    try:
        from re import _parser  # the parser of the standard library's own regex compiler
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
    for rx, _, lower in WORD_TABLE:
        got = _first_chars(rx)
        if got is None:
            return ""
        chars |= got | ({c.swapcase() for c in got} if lower else set())
    return "".join(sorted(chars))


#: A lookahead on the first letters label words can start with: the mention pattern then skips
#: every other word start at once (half the time of trying each word, measured on a standard).
WORD_START = f"(?=[{re.escape(_starts())}])" if _starts() else ""

# One number: "2", "2.1.3", "3b", "A.2", "B" (letters and roman numerals: sections only).
# Not a number: one joined to a word by a hyphen ("Example 1-RTT", "a 3-way handshake"), or a
# letter before ".Y" (the placeholder "Section X.Y").
NUM = (r"\d+[A-Za-z]?(?:\.\d+[A-Za-z]?)*(?![\w]|-[^\W\d_])|[A-Z](?:\.\d+)+(?![\w])|[A-Z](?![\w]|\.[^\W\d_])"
       r"|[IVXLC]{1,6}(?![\w]|\.[^\W\d_])")
# An item: a number, "(1)" for equations, and a trailing sub-part "(b)" / "(iii)" that is not
# part of the minimal span.
@lru_cache(maxsize=1024)
def family_of(word: str) -> str:
    if word.startswith("§"):
        return "section"
    for rx, fam, lower in WORD_TABLE:
        if re.fullmatch(rx, word, 0 if not lower else re.I):
            return fam
    return "section"  # pragma: no cover - the regex only matches table words


def norm_number(num: str) -> str:
    return num.strip().strip("()").strip().rstrip(".")


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


