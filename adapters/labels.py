"""Labels as a reader cites them ("Section 2.1", "Figure 3", "Theorem 1"), shared by both readers.

Readers know numbers from fields and numbering definitions; these helpers turn them into the
label strings of the neutral model, and recognise labels that live only in the text (a caption
typed by hand, a paragraph opening with "Theorem 2."). The words are the grammar's
(:mod:`adapters.label_grammar`), and a label is printed in the word the document shows: a
German caption "Abbildung 3: ..." is labelled "Abbildung 3" (its key is ``("figure", "3")``
all the same), a heading with no word of its own "Section 2.1" or "Appendix A".
"""
from __future__ import annotations

import re

from .label_grammar import OWN_NUM, WORDS, canonical_label, heading_word_alt, word_of

__all__ = [
    "SEQ_KINDS",
    "THEOREM_WORDS",
    "caption_label",
    "typed_caption_label",
    "leading_label",
    "repeated",
    "repeated_letters",
    "roman",
    "MAX_COUNTER_CHARS",
    "section_label",
    "section_number_and_label",
    "seq_label",
]

#: Words a caption opens with ("Figure", "Fig.", "Abbildung", "Tableau"), from the grammar.
CAPTION_WORDS = tuple(dict.fromkeys(f for w in WORDS if w.caption for f in (w.name, *w.abbrevs)))
#: Words that open a numbered statement a reader can cite ("Theorem 2", "Definition 3.1").
THEOREM_WORDS = tuple(dict.fromkeys(w.name for w in WORDS if w.statement))
#: Caption sequence names (Word SEQ identifiers, ODF text:sequence names) -> their family.
SEQ_KINDS = {w.name.lower(): w.family for w in WORDS if w.family in ("figure", "table", "equation", "listing", "text")}

_ROMAN = (
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
    (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
)
_LEADING = re.compile(rf"^\s*(?P<word>{'|'.join(THEOREM_WORDS)})\s+(?P<num>{OWN_NUM})\b(?=\s*[.:(\u2014\-]|\s*$)")
_CAPTION = re.compile(
    rf"^\s*(?P<word>{'|'.join(re.escape(w) for w in sorted(CAPTION_WORDS, key=len, reverse=True))})\s*(?P<num>{OWN_NUM})\b"
)
_WORDED = re.compile(
    rf"^\s*(?P<word>{heading_word_alt()})"
    rf"\s+(?P<num>[A-Z0-9][\w.]*?)[.):]?\s*$",
    re.I,
)


#: The longest a counter written by repetition (letters past z, Roman thousands, Chicago's
#: symbols) may be; past it the counter is written in digits. Those forms grow with the number,
#: not its logarithm: a list that starts in the billions (``w:start``, ``text:start-value``, a
#: 2 KB upload) made labels of millions of characters and held gigabytes. Word and LibreOffice
#: would repeat the letters on; no reader cites "aaaa…" 65 letters long, so digits lose nothing.
MAX_COUNTER_CHARS = 64


def roman(n: int) -> str:
    """A counter in lower-case Roman numerals, as Word and LibreOffice number lists and headings;
    in digits past :data:`MAX_COUNTER_CHARS` (one "m" per thousand).

    >>> roman(4), roman(1994), roman(0), roman(3_000_000_000)
    ('iv', 'mcmxciv', '0', '3000000000')
    """
    if n <= 0 or n // 1000 > MAX_COUNTER_CHARS - 16:  # 15: the longest tail below 1000 ("dccclxxxviii")
        return str(n)
    out = []
    for value, letters in _ROMAN:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def repeated(symbols: str, n: int) -> str:
    """A counter as one of ``symbols`` repeated, the next symbol per count and one more copy per
    round (Word's letters past z, Chicago's ``*†‡§``); in digits where that would be longer than
    :data:`MAX_COUNTER_CHARS` (the length is known before anything is built).

    >>> repeated("*†‡§", 6), repeated("ab", 0), repeated("ab", 2_000_000_000)
    ('††', '0', '2000000000')
    """
    if n <= 0 or (n - 1) // len(symbols) + 1 > MAX_COUNTER_CHARS:
        return str(n)
    return symbols[(n - 1) % len(symbols)] * ((n - 1) // len(symbols) + 1)


def repeated_letters(n: int) -> str:
    """A counter in letters, repeated past z (Word's letter numbering, LibreOffice's with
    ``style:num-letter-sync``): a..z, aa..zz, aaa...; digits past :data:`MAX_COUNTER_CHARS`.

    >>> repeated_letters(1), repeated_letters(26), repeated_letters(28), repeated_letters(0)
    ('a', 'z', 'bb', '0')
    >>> len(repeated_letters(26 * 64)), repeated_letters(26 * 64 + 1)
    (64, '1665')
    """
    return repeated("abcdefghijklmnopqrstuvwxyz", n)


def seq_label(seq_name: str, number: str, text: str | None = None) -> str:
    """The cited label of a caption number, in the word the caption shows (``text``, when it
    opens with the number's label) or else the word of its sequence:
    ``seq_label("Figure", "3") == "Figure 3"``.

    >>> seq_label("Illustration", "2"), seq_label("Abbildung", "1"), seq_label("fig", "5")
    ('Illustration 2', 'Abbildung 1', 'Figure 5')
    >>> seq_label("Equation", "4"), seq_label("Diagram", "7")
    ('Equation (4)', 'Diagram 7')

    LibreOffice names its figure sequence "Illustration" whatever the language, and shows the
    word of the document's language:

    >>> seq_label("Illustration", "1", "Abbildung 1: Image caption"), seq_label("Table", "1", "1 Prices")
    ('Abbildung 1', 'Table 1')
    """
    entry = word_of(seq_name) if seq_name.strip() else None
    if entry is None:
        return f"{seq_name.strip().title() or 'Item'} {number}"
    shown = _CAPTION.match(text) if text else None
    said = word_of(shown.group("word")) if shown and shown.group("num") == number else None
    if shown and said is not None and said.family == entry.family:
        return canonical_label(entry.family, number, shown.group("word"))
    return canonical_label(entry.family, number, entry.name)


def section_label(number: str | None, shown: str | None = None) -> str | None:
    """``"2.1"`` -> ``"Section 2.1"``; a lone letter is an appendix (``"A"`` -> ``"Appendix A"``);
    ``shown``, the number as rendered ("Annex B."), gives the word where it carries one.

    >>> section_label("A"), section_label("3.2."), section_label("B", "Annex B.")
    ('Appendix A', 'Section 3.2', 'Annex B')

    A number rendered with its own word (an ODF list label "Appendix A", "Annex B:") is already
    the label:

    >>> section_label("Appendix A"), section_label("Annex B:"), section_label("Anhang C")
    ('Appendix A', 'Annex B', 'Anhang C')
    """
    for text in (shown, number):
        worded = _WORDED.match(text) if text else None
        said = word_of(worded.group("word")) if worded else None
        if worded and said is not None:
            return canonical_label(said.family, worded.group("num"), worded.group("word"))
    if not number:
        return None
    num = number.strip().rstrip(".):").lstrip("(")
    if not num:
        return None
    return canonical_label("section", num)


def section_number_and_label(shown: str | None) -> tuple[str | None, str | None]:
    """A heading's number and label from its rendered number, which may carry a word.

    >>> section_number_and_label("Appendix A"), section_number_and_label("Kapitel 3.")
    (('A', 'Appendix A'), ('3', 'Kapitel 3'))
    >>> section_number_and_label("2.1")
    ('2.1', 'Section 2.1')
    """
    if not shown or not shown.strip():
        return None, None
    m = _WORDED.match(shown)
    if m:
        return m.group("num"), section_label(shown)
    return shown, section_label(shown)


def caption_label(text: str) -> tuple[str, str] | None:
    """A label typed at the start of a caption, in its word: ``"Table 2: Results"`` ->
    ``("Table 2", "2")``; an abbreviation is printed whole.

    >>> caption_label("Fig. 3 - The pipeline"), caption_label("Abb. 2: Aufbau")
    (('Figure 3', '3'), ('Abbildung 2', '2'))
    >>> caption_label("A table of results") is None
    True
    """
    m = _CAPTION.match(text)
    if not m:
        return None
    return seq_label(m.group("word"), m.group("num")), m.group("num")


# a colon, full stop or any dash (also the full-width forms a CJK input method types: "Figure 2-1 －Structure")
_CAPTION_SEP = re.compile(r"\s*(?:[:.\-\u2010-\u2015\u2212\uff0d\uff1a\uff0e]\s*\S|$)")


def typed_caption_label(text: str) -> tuple[str, str] | None:
    """A caption typed as a plain paragraph: the label, then a separator or nothing.

    >>> typed_caption_label("Table 1: Codes"), typed_caption_label("Table 1 shows the codes.")
    (('Table 1', '1'), None)
    >>> typed_caption_label("Figure 2-1 \uff0dStructure of a packet")
    ('Figure 2-1', '2-1')
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
