"""Word-level differences between two texts, as the spans a tracked change replaces.

Text is cut into words, runs of white space and single other characters; ``difflib`` aligns
the two token lists; every non-equal stretch becomes ``(start, end, replacement)`` in the
old text. A changed word is therefore a deletion of that word and an insertion of the new
one, never the whole paragraph. ``atoms`` are spans of the old text that must stay whole
(fields, note citations): they are one token each, so a diff either keeps them or replaces
them entirely. Nothing here knows XML; the module could serve any format.
"""
from __future__ import annotations

import difflib
import re
from typing import Sequence

__all__ = ["tokens", "word_ops"]

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)


def tokens(text: str, atoms: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """The ``(start, end)`` of each token of ``text``; each atom span is one token.

    >>> [("Hi, you"[a:b]) for a, b in tokens("Hi, you")]
    ['Hi', ',', ' ', 'you']
    >>> ["a [1] b"[a:b] for a, b in tokens("a [1] b", [(2, 5)])]
    ['a', ' ', '[1]', ' ', 'b']
    """
    out: list[tuple[int, int]] = []
    pos = 0
    for start, end in sorted(atoms):
        if start < pos:
            continue
        out.extend((m.start() + pos, m.end() + pos) for m in _TOKEN.finditer(text[pos:start]))
        if end > start:
            out.append((start, end))
        pos = end
    out.extend((m.start() + pos, m.end() + pos) for m in _TOKEN.finditer(text[pos:]))
    return out


def _atoms_in(new: str, old: str, atoms: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Where the atoms' texts occur in the new text, in order (so they can match whole)."""
    out: list[tuple[int, int]] = []
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


def word_ops(old: str, new: str, atoms: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int, str]]:
    """The minimal word-level replacements that turn ``old`` into ``new``.

    >>> word_ops("the quick brown fox", "the slow brown fox")
    [(4, 9, 'slow')]
    >>> word_ops("one two", "one two three")
    [(7, 7, ' three')]
    >>> word_ops("see [1] here", "see [1] there", [(4, 7)])
    [(8, 12, 'there')]
    """
    if old == new:
        return []
    ta = tokens(old, atoms)
    tb = tokens(new, _atoms_in(new, old, atoms))
    sa = [old[a:b] for a, b in ta]
    sb = [new[a:b] for a, b in tb]
    matcher = difflib.SequenceMatcher(None, sa, sb, autojunk=False)

    def a_off(i: int) -> int:
        return ta[i][0] if i < len(ta) else len(old)

    def b_off(j: int) -> int:
        return tb[j][0] if j < len(tb) else len(new)

    out: list[tuple[int, int, str]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out.append((a_off(i1), a_off(i2), new[b_off(j1) : b_off(j2)]))
    return out
