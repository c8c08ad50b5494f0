r"""Text normalisation: the one definition of when two texts count as the same text.

Two needs, one table each:

- :func:`squash` -- two copies of the SAME document text (a unit's text and Word's or
  LibreOffice's paragraph, a selection and the unit it came from) compare after it: the
  invisible characters a reader or an editor may keep or drop (soft hyphen U+00AD, zero-width
  space U+200B, word joiner U+2060, byte-order mark U+FEFF) removed, then NFC (Word and a
  reader may store an accent composed or not); every run of white space
  -- Unicode's White_Space: tab, line feed, vertical tab (Word's manual line break), form
  feed, carriage return, U+0085, space, no-break space, U+1680, U+2000..U+200A, U+2028,
  U+2029, U+202F, U+205F, U+3000 -- one space; trimmed. ZWNJ and ZWJ stay: they change how
  Persian and Indic words read. Letters and their case are left alone.
- :func:`loose` -- text a person or a model TYPED compared with the document's ("the paragraph
  that starts with 'Don't'", a model quoting the old text of a replace): :func:`squash`, then
  typographic quotes and dashes as their ASCII forms (:data:`QUOTES`, :data:`DASHES`), then
  case-folded. :func:`loose_pattern` finds such a text inside a document text and keeps the
  document's offsets.

``tests/vectors/normalise.json`` is the specification (``{"note", "text", "squash", "loose"}``);
the task pane (``normalizeText`` in static/js/textplan.js) and the LibreOffice bridge
(``normalize`` in ledger_client.py, which cannot import this package) run its ``squash``
column. The word tokenizer is :mod:`adapters.words`.

>>> squash("  Figure\u00a03:\tDaten\u00adbank\n")
'Figure 3: Datenbank'
>>> loose("\u201cDon\u2019t\u201d \u2013 STRASSE")
'"don\'t" - strasse'
"""
from __future__ import annotations

import re
import unicodedata

__all__ = ["SPACE", "INVISIBLE", "QUOTES", "DASHES", "squash", "loose", "loose_pattern"]

#: One character of Unicode's White_Space property (Python's ``\s`` also takes U+001C..U+001F,
#: which are no white space, and JavaScript's also U+FEFF: this class is spelled out so that
#: the three runtimes agree).
SPACE = "\t\n\u000b\u000c\r\u0085 \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: Characters that do not show and that readers and editors keep or drop at will.
INVISIBLE = "\u00ad\u200b\u2060\ufeff"
#: Typographic single and double quotes as ``'`` and ``"`` (a ``str.translate`` table; each
#: character stays one character, so offsets survive).
QUOTES = {0x2018: "'", 0x2019: "'", 0x201A: "'", 0x201B: "'", 0x201C: '"', 0x201D: '"', 0x201E: '"', 0x201F: '"'}
#: Hyphens, dashes and the minus sign as ``-`` (a ``str.translate`` table, one for one).
DASHES = dict.fromkeys([0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212], "-")

_SPACES = re.compile(f"[{SPACE}]+")
_DROP = dict.fromkeys(map(ord, INVISIBLE))
_FOLD = QUOTES | DASHES
_CLASSES: dict[str, str] = {}
for _code, _plain in _FOLD.items():
    _CLASSES[_plain] = _CLASSES.get(_plain, re.escape(_plain)) + chr(_code)


def squash(text: str | None) -> str:
    """The text as two copies of the same document text compare (see the module docstring).

    >>> squash("a\u000bb \u2003 c\u200b"), squash("e\u0301t\u00e9")
    ('a b c', 'été')
    """
    t = text or ""
    if not t.isascii():  # invisible characters first: one between a letter and its accent
        t = unicodedata.normalize("NFC", t.translate(_DROP))
    return _SPACES.sub(" ", t).strip(" ")


def loose(text: str | None) -> str:
    """The text as typed text and document text compare: :func:`squash`, quotes and dashes
    plain, case-folded.

    >>> loose("  The \u2018Widget\u2019\u00a0\u2014 Stra\u00dfe ") == loose("the 'widget' - strasse")
    True
    """
    return squash(text).translate(_FOLD).casefold()


def loose_pattern(text: str, *, ignore_case: bool = False) -> re.Pattern[str]:
    """A pattern that finds ``text`` in a document's text as :func:`loose` compares, without
    changing the document's offsets: any run of white space matches any other, each quote or
    dash any of its kind, and (with ``ignore_case``) any case.

    >>> loose_pattern("don't  stop - now").search("We don\u2019t stop \u2013\u00a0now.").span()
    (3, 19)
    """
    out = []
    for piece in _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip(" ").split(" "):
        chars = []
        for c in piece:
            plain = _FOLD.get(ord(c), c)
            chars.append(f"[{_CLASSES[plain]}]" if plain in _CLASSES else re.escape(c))
        out.append("".join(chars))
    return re.compile(f"[{SPACE}]+".join(out), re.IGNORECASE if ignore_case else 0)
