"""Whether a phrase spells an abbreviation by its letters: Schwartz and Hearst's algorithm ("A
simple algorithm for identifying abbreviation definitions in biomedical text", 2003).

One place for it: the definition rules read an acronym's long form with it ("Round-Trip Time
(RTT)": :mod:`addin_backend.graph.definition_rules`), and the checks ask whether a gloss spells
the abbreviation it stands beside (:mod:`addin_backend.checks.style.abbreviations`). Each reader
chooses which characters of the abbreviation count (letters, or letters and digits) and how far
the phrase may run; the scan is the same.
"""
from __future__ import annotations

from typing import Sequence

__all__ = ["spelled_from"]


def spelled_from(letters: Sequence[str], text: str) -> int | None:
    """Where the shortest tail of ``text`` that spells ``letters`` begins, else ``None``.

    ``letters`` (lower case) are found in ``text`` right to left, in order, ignoring case; the
    first one at the start of a word.

    >>> spelled_from("rtt", "the Round-Trip Time"), spelled_from("rtt", "round trip")
    (4, None)
    >>> spelled_from("sp", "space"), spelled_from("ab", "xab")
    (0, None)
    """
    si, li = len(letters) - 1, len(text) - 1
    while si >= 0:
        c = letters[si]
        while li >= 0 and (text[li].lower() != c or (si == 0 and li > 0 and text[li - 1].isalnum())):
            li -= 1
        if li < 0:
            return None
        si -= 1
        li -= 1
    return li + 1
