"""Labels as a reader cites them ("Section 2.1", "Figure 3", "Theorem 1"), shared by both readers.

Readers know numbers from fields and numbering definitions; these helpers turn them into the
label strings of the neutral model, and recognise labels that live only in the text (a caption
typed by hand, a paragraph opening with "Theorem 2.").
"""
from __future__ import annotations

import re

__all__ = [
    "SEQ_KINDS",
    "THEOREM_WORDS",
    "caption_label",
    "typed_caption_label",
    "leading_label",
    "repeated_letters",
    "roman",
    "section_label",
    "section_number_and_label",
    "seq_label",
]

#: Caption sequence names (Word SEQ identifiers, ODF text:sequence names) -> the word a reader cites.
SEQ_KINDS = {
    "figure": "Figure",
    "fig": "Figure",
    "illustration": "Figure",
    "drawing": "Figure",
    "image": "Figure",
    "abbildung": "Figure",
    "figura": "Figure",
    "ilustraci\u00f3n": "Figure",
    "ilustracion": "Figure",
    "dibujo": "Figure",
    "zeichnung": "Figure",
    "dessin": "Figure",
    "table": "Table",
    "tabelle": "Table",
    "tableau": "Table",
    "tabla": "Table",
    "tabela": "Table",
    "tabella": "Table",
    "cuadro": "Table",
    "equation": "Equation",
    "formula": "Equation",
    "listing": "Listing",
    "text": "Text",
}

#: Words that open a numbered statement a reader can cite ("Theorem 2", "Definition 3.1").
THEOREM_WORDS = (
    "Theorem",
    "Lemma",
    "Definition",
    "Proposition",
    "Corollary",
    "Algorithm",
    "Example",
    "Remark",
    "Assumption",
    "Conjecture",
    "Claim",
    "Axiom",
    "Requirement",
)

_ROMAN = (
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
    (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
)
_NUM = r"(?:[A-Z]|\d+)(?:[.\-]\d+)*"
_LEADING = re.compile(rf"^\s*(?P<word>{'|'.join(THEOREM_WORDS)})\s+(?P<num>{_NUM})\b(?=\s*[.:(\u2014\-]|\s*$)")
_CAPTION = re.compile(
    rf"^\s*(?P<word>Figure|Fig\.|Table|Tab\.|Equation|Eq\.|Listing|Illustration|Drawing|Abbildung|Abb\.|Tabelle|"
    rf"Tableau|Figura|Tabla|Cuadro|Ilustraci\u00f3n|Gleichung|\u00c9quation|Ecuaci\u00f3n)\s*(?P<num>{_NUM})\b"
)
_WORDED = re.compile(r"(?P<word>(?i:appendix|annex|chapter|section|part|clause|article))\s+(?P<num>[A-Z0-9][\w.]*)")
_CANON = {"Fig.": "Figure", "Tab.": "Table", "Eq.": "Equation", "Illustration": "Figure", "Drawing": "Figure",
          "Abb.": "Figure", "Abbildung": "Figure", "Figura": "Figure", "Ilustraci\u00f3n": "Figure",
          "Tabelle": "Table", "Tableau": "Table", "Tabla": "Table", "Cuadro": "Table",
          "Gleichung": "Equation", "\u00c9quation": "Equation", "Ecuaci\u00f3n": "Equation"}


def roman(n: int) -> str:
    """A counter in lower-case Roman numerals, as Word and LibreOffice number lists and headings.

    >>> roman(4), roman(1994), roman(0)
    ('iv', 'mcmxciv', '0')
    """
    if n <= 0:
        return str(n)
    out = []
    for value, letters in _ROMAN:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def repeated_letters(n: int) -> str:
    """A counter in letters, repeated past z (Word's letter numbering, LibreOffice's with
    ``style:num-letter-sync``): a..z, aa..zz, aaa...

    >>> repeated_letters(1), repeated_letters(26), repeated_letters(28), repeated_letters(0)
    ('a', 'z', 'bb', '0')
    """
    if n <= 0:
        return str(n)
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def seq_label(seq_name: str, number: str) -> str:
    """The cited label of a caption number: ``seq_label("Figure", "3") == "Figure 3"``.

    >>> seq_label("Illustration", "2")
    'Figure 2'
    >>> seq_label("Equation", "4")
    'Equation (4)'
    """
    word = SEQ_KINDS.get(seq_name.strip().lower(), seq_name.strip().title() or "Item")
    if word == "Equation":
        return f"Equation ({number})"
    return f"{word} {number}"


def section_label(number: str | None) -> str | None:
    """``"2.1"`` -> ``"Section 2.1"``; a lone letter is an appendix (``"A"`` -> ``"Appendix A"``).

    >>> section_label("A")
    'Appendix A'
    >>> section_label("3.2.")
    'Section 3.2'

    A number rendered with its own word (an ODF list label "Appendix A", "Annex B:") is already
    the label:

    >>> section_label("Appendix A"), section_label("Annex B:")
    ('Appendix A', 'Annex B')
    """
    if not number:
        return None
    num = number.strip().rstrip(".):").lstrip("(")
    if not num:
        return None
    worded = _WORDED.fullmatch(num)
    if worded:
        return f"{worded.group('word').title()} {worded.group('num')}"
    if re.fullmatch(r"[A-Z]", num):
        return f"Appendix {num}"
    return f"Section {num}"


_WORDED = re.compile(
    r"^\s*(?P<word>Appendix|Annex|Chapter|Part|Article|Clause|Section|Schedule|Exhibit)\s+(?P<num>[A-Z0-9][\w.]*?)[.):]?\s*$",
    re.I,
)


def section_number_and_label(shown: str | None) -> tuple[str | None, str | None]:
    """A heading's number and label from its rendered number, which may carry a word.

    >>> section_number_and_label("Appendix A")
    ('A', 'Appendix A')
    >>> section_number_and_label("2.1")
    ('2.1', 'Section 2.1')
    """
    if not shown or not shown.strip():
        return None, None
    m = _WORDED.match(shown)
    if m:
        word = m.group("word").title()
        return m.group("num"), f"{word} {m.group('num')}"
    return shown, section_label(shown)


def caption_label(text: str) -> tuple[str, str] | None:
    """A label typed at the start of a caption: ``"Table 2: Results"`` -> ``("Table 2", "2")``.

    >>> caption_label("Fig. 3 - The pipeline")
    ('Figure 3', '3')
    >>> caption_label("A table of results") is None
    True
    """
    m = _CAPTION.match(text)
    if not m:
        return None
    word = _CANON.get(m.group("word"), m.group("word"))
    return seq_label(word, m.group("num")), m.group("num")


_CAPTION_SEP = re.compile(r"\s*(?:[:.\u2013\u2014\-]\s*\S|$)")


def typed_caption_label(text: str) -> tuple[str, str] | None:
    """A caption typed as a plain paragraph: the label, then a separator or nothing.

    >>> typed_caption_label("Table 1: Codes"), typed_caption_label("Table 1 shows the codes.")
    (('Table 1', '1'), None)
    """
    m = _CAPTION.match(text)
    if not m or not _CAPTION_SEP.match(text, m.end()):
        return None
    return caption_label(text)


def leading_label(text: str) -> tuple[str, str] | None:
    """A numbered statement opening a paragraph: ``"Theorem 2 (Bound). ..."`` -> ``("Theorem 2", "2")``.

    >>> leading_label("Definition 3.1. A ledger is ...")
    ('Definition 3.1', '3.1')
    >>> leading_label("Theorem proving is hard.") is None
    True
    """
    m = _LEADING.match(text)
    if not m:
        return None
    return f"{m.group('word')} {m.group('num')}", m.group("num")
