"""Word-level differences between two texts: the minimal changes a tracked-change writer records.

Both writers turn a ``replace``/``set_text`` into these changes, so that a changed word is a
deletion of the old word plus an insertion of the new one, never the whole paragraph.
"""
from __future__ import annotations

import difflib
import re

__all__ = ["Change", "tokenize", "word_changes", "line_changes"]

#: ``(start, end, text)``: replace ``old[start:end]`` with ``text`` (an empty span inserts).
Change = tuple[int, int, str]

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)


def tokenize(text: str) -> list[str]:
    """Words, runs of whitespace and single punctuation marks, in order; joining gives ``text``.

    >>> tokenize("Hello,  world!")
    ['Hello', ',', '  ', 'world', '!']
    """
    return _TOKEN.findall(text)


def word_changes(old: str, new: str, offset: int = 0) -> list[Change]:
    """The word-level changes that turn ``old`` into ``new``, in ascending order.

    Offsets are into ``old`` plus ``offset`` (the start of ``old`` in a longer text). Equal
    words are kept; a changed word becomes one change covering it.

    >>> word_changes("the red car", "the blue car")
    [(4, 7, 'blue')]
    >>> word_changes("a b", "a b c")
    [(3, 3, ' c')]
    """
    if old == new:
        return []
    a, b = tokenize(old), tokenize(new)
    starts = [0]
    for tok in a:
        starts.append(starts[-1] + len(tok))
    out: list[Change] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out.append((starts[i1] + offset, starts[i2] + offset, "".join(b[j1:j2])))
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
