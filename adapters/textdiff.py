"""Word-level differences between two texts: the minimal changes a tracked-change writer records.

Both writers turn a ``replace``/``set_text`` into these changes, so that a changed word is a
deletion of the old word plus an insertion of the new one, never the whole paragraph. Text is
cut into words (:mod:`adapters.words`: "30-day", "don't", "3.5" are one word each, as in the
task pane and the LibreOffice bridge, so all three mark the same spans), runs of white space
and single other characters, and ``difflib`` aligns the two token lists. ``atoms`` are spans
of the old text that must stay whole (fields, note citations): each is one token, so a diff
either keeps it or replaces it entirely. Nothing here knows XML.
"""
from __future__ import annotations

import difflib
import re
from typing import Iterator, Sequence

from . import words as _words
from .text import SPACE

__all__ = ["Change", "Span", "tokenize", "word_changes", "line_changes"]

#: ``(start, end, text)``: replace ``old[start:end]`` with ``text`` (an empty span inserts).
Change = tuple[int, int, str]
#: ``(start, end)`` of a piece of a text.
Span = tuple[int, int]

# between words: runs of white space (Unicode's, as adapters.text spells it for all three
# runtimes) and single other characters
_GAP = re.compile(f"[{SPACE}]+|[^{SPACE}]")


def _tokens(text: str, pos: int) -> Iterator[Span]:
    """The tokens of ``text`` (words, white space runs, single other characters), shifted by ``pos``."""
    at = 0
    for m in _words.finditer(text):
        a, b = m.span()
        yield from ((g.start() + pos, g.end() + pos) for g in _GAP.finditer(text, at, a))
        yield a + pos, b + pos
        at = b
    yield from ((g.start() + pos, g.end() + pos) for g in _GAP.finditer(text, at))


def _spans(text: str, atoms: Sequence[Span] = ()) -> list[Span]:
    """The ``(start, end)`` of each token of ``text``; each atom span is one token."""
    out: list[Span] = []
    pos = 0
    for start, end in sorted(atoms):
        if start < pos:
            continue
        out.extend(_tokens(text[pos:start], pos))
        if end > start:
            out.append((start, end))
        pos = end
    out.extend(_tokens(text[pos:], pos))
    return out


def tokenize(text: str, atoms: Sequence[Span] = ()) -> list[str]:
    """Words, runs of whitespace, single punctuation marks and whole atoms, in order; joining
    gives ``text``.

    >>> tokenize("Hello,  world!")
    ['Hello', ',', '  ', 'world', '!']
    >>> tokenize("a 30-day term, don't")
    ['a', ' ', '30-day', ' ', 'term', ',', ' ', "don't"]
    >>> tokenize("a [1] b", [(2, 5)])
    ['a', ' ', '[1]', ' ', 'b']
    """
    return [text[a:b] for a, b in _spans(text, atoms)]


def _atoms_in(new: str, old: str, atoms: Sequence[Span]) -> list[Span]:
    """Where the atoms' texts occur in the new text, in order (so they can match whole)."""
    out: list[Span] = []
    pos = 0
    for start, end in sorted(atoms):
        piece = old[start:end]
        if not piece:
            continue
        at = new.find(piece, pos)
        if at < 0:
            continue
        out.append((at, at + len(piece)))
        pos = at + len(piece)
    return out


def word_changes(old: str, new: str, offset: int = 0, atoms: Sequence[Span] = ()) -> list[Change]:
    """The word-level changes that turn ``old`` into ``new``, in ascending order.

    Offsets are into ``old`` plus ``offset`` (the start of ``old`` in a longer text); ``atoms``
    are spans of ``old`` itself (without ``offset``). Equal words are kept; a changed stretch
    of words becomes one change covering it.

    >>> word_changes("the red car", "the blue car")
    [(4, 7, 'blue')]
    >>> word_changes("a 30-day term", "a 60-day term")
    [(2, 8, '60-day')]
    >>> word_changes("a b", "a b c")
    [(3, 3, ' c')]
    >>> word_changes("see [1] here", "see [1] there", atoms=[(4, 7)])
    [(8, 12, 'there')]
    """
    if old == new:
        return []
    ta, tb = _spans(old, atoms), _spans(new, _atoms_in(new, old, atoms))
    starts_a = [a for a, _b in ta] + [len(old)]
    starts_b = [a for a, _b in tb] + [len(new)]
    matcher = difflib.SequenceMatcher(None, [old[a:b] for a, b in ta], [new[a:b] for a, b in tb], autojunk=False)
    out: list[Change] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out.append((starts_a[i1] + offset, starts_a[i2] + offset, new[starts_b[j1] : starts_b[j2]]))
    return out


def line_changes(old: str, new: str) -> list[Change]:
    """Word-level changes line by line (both texts must have the same number of ``\\n``).

    A multi-paragraph unit (a table, merged paragraphs) keeps its paragraph structure: each
    line is compared with the line of the same index, so no change ever spans a line break.

    >>> line_changes("a\\nb c", "a\\nb d")
    [(4, 5, 'd')]
    """
    old_lines, new_lines = old.split("\n"), new.split("\n")
    if len(old_lines) != len(new_lines):
        raise ValueError("line_changes needs texts with the same number of lines")
    out: list[Change] = []
    pos = 0
    for o, n in zip(old_lines, new_lines):
        out.extend(word_changes(o, n, pos))
        pos += len(o) + 1
    return out
