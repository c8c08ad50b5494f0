"""Words: the one definition of a word that the readers, the checks and the clients share.

A word is a run of word characters -- letters of any script, combining marks, digits (any
Unicode number) and "_" -- that stays whole across ONE joining character standing between
two word characters:

- a hyphen ``-``, U+2010 or U+2011 (Word's non-breaking hyphen): "30-day", "e-mail", "Jean-Paul";
- an apostrophe ``'`` or U+2019: "don't", "l'homme", "aujourd\u2019hui" (an elided article
  stays on its word, as in the task pane's diff; U+02BC is a letter anyway);
- a full stop: "3.5", "v1.2.3", "e.g", "example.com" (a final stop is punctuation: "e.g." ->
  "e.g");
- a comma between two digits only: "3,5", "1,000" (between letters it is punctuation whose
  space is missing);
- the invisible soft hyphen U+00AD, ZWNJ U+200C and ZWJ U+200D ("Daten\u00adbank" as Word
  stores a hyphenation hint, Persian and Indic words);
- the middle dot U+00B7 (Catalan "col\u00b7lecci\u00f3") and the Hebrew geresh and gershayim
  U+05F3/U+05F4.

Two joiners in a row ("a--b"), or one at either end ("-5", "students'"), split. Scripts
written without spaces (Chinese, Japanese, Thai) give one word per run: there is no dictionary
segmentation here, and no NLP. Spans are Python string offsets (code points); JavaScript
counts UTF-16 units, so a client comparing spans converts astral characters.

``tests/vectors/words.json`` is the specification: ``[{"note": ..., "text": ..., "words":
[[start, end], ...]}, ...]`` in code points, run by three runtimes: here
(tests/adapters/test_words.py), the task pane's copy (``wordSpans``/``tokenize`` in
static/js/textplan.js, tests/js/vectors.test.mjs, which converts UTF-16 offsets) and the
LibreOffice bridge's (``word_spans``/``tokenize`` in ledger_client.py, which cannot import this
package; tests/clients/test_bridge_client.py, also under LibreOffice's own Python). The
server's tracked changes (:mod:`adapters.textdiff`) and both clients cut their word-level
diffs with it, so all three mark the same spans.

>>> words("Die Straße schließt um 17.30 Uhr; don't e-mail l'homme, 3,5 % mehr.")
['Die', 'Straße', 'schließt', 'um', '17.30', 'Uhr', "don't", 'e-mail', "l'homme", '3,5', 'mehr']
>>> spans("a--b e.g. x")
[(0, 1), (3, 4), (5, 8), (10, 11)]
"""
from __future__ import annotations

import re
from typing import Iterator

from ._marks import MARKS

__all__ = ["WORD", "WORD_CHAR", "UNPLAIN", "spans", "words", "finditer", "is_word_char", "plain", "fold"]

#: One word character: a letter, digit or "_" (``\w``) or a combining mark.
WORD_CHAR = rf"[\w{MARKS}]"
_JOIN = r"(?:['\u2019.\u00b7\u00ad\u200c\u200d\u05f3\u05f4\u2010\u2011-]|(?<=\d),(?=\d))"
#: A whole word (see the module docstring).
WORD = re.compile(rf"{WORD_CHAR}+(?:{_JOIN}{WORD_CHAR}+)*")
_CHAR = re.compile(WORD_CHAR)
# The marks beyond the BMP (Brahmi, musical symbols, ...) make every character test walk a
# list of ranges: three times slower. Text without astral characters uses the BMP class alone.
_BMP_CHAR = "[\\w" + MARKS[: next(i for i, c in enumerate(MARKS) if c > "\uffff")] + "]"
_WORD_BMP = re.compile(rf"{_BMP_CHAR}+(?:{_JOIN}{_BMP_CHAR}+)*")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_PLAIN = dict.fromkeys(map(ord, "\u00ad\u200c\u200d"), None) | {0x2010: "-", 0x2011: "-", 0x2019: "'"}
#: The characters :func:`plain` drops or replaces: a text without them is plain once lower-cased.
UNPLAIN = re.compile("[\u00ad\u200c\u200d\u2010\u2011\u2019]")


def _pattern(text: str) -> re.Pattern[str]:
    return WORD if _ASTRAL.search(text) else _WORD_BMP


def finditer(text: str) -> Iterator[re.Match[str]]:
    """The words of ``text`` as matches, left to right."""
    return _pattern(text).finditer(text)


def spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each word of ``text``."""
    return [m.span() for m in _pattern(text).finditer(text)]


def words(text: str) -> list[str]:
    """The words of ``text``, as written."""
    return _pattern(text).findall(text)


def is_word_char(ch: str) -> bool:
    """Whether the character ``ch`` belongs inside a word (a letter, digit, "_" or mark).

    >>> is_word_char("ß"), is_word_char("\u0301"), is_word_char("-")
    (True, True, False)
    """
    return bool(_CHAR.fullmatch(ch))


def plain(word: str) -> str:
    """A word as spellings are compared: lower case, the invisible soft hyphen, ZWNJ and ZWJ
    dropped, Word's non-breaking hyphen, U+2010 and U+2019 made "-" and "'".

    >>> plain("Daten\u00adbank"), plain("E\u2011Mail"), plain("It\u2019s")
    ('datenbank', 'e-mail', "it's")
    """
    return word.translate(_PLAIN).lower()


def fold(word: str) -> str:
    """:func:`plain`, case-folded: "STRASSE" and "Straße" fold alike.

    >>> fold("STRASSE") == fold("Straße"), fold("E\u2011Mail")
    (True, 'e-mail')
    """
    return plain(word).casefold()
