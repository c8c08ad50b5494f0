"""Cheap text helpers shared by the detectors: sentences, word sets, plural forms, previews."""
from __future__ import annotations

import re
from functools import lru_cache

from ..language.lexicon import function_words

__all__ = [
    "sentences",
    "word_set",
    "noun_forms",
    "forms_pattern",
    "preview",
    "snippet",
    "capital_after",
]

# Abbreviations after which a full stop does not end a sentence.
_ABBREV = (
    "e.g", "i.e", "cf", "vs", "etc", "al", "fig", "figs", "sec", "secs", "sect", "eq", "eqs", "eqn",
    "tab", "no", "nos", "vol", "pp", "p", "ch", "chap", "app", "art", "thm", "def", "prop", "cor",
    "lem", "alg", "ref", "refs", "approx", "resp", "dr", "mr", "mrs", "ms", "prof", "inc", "ltd",
    "co", "corp", "st", "cl", "para",
)
# An initial is a capital ("J. Smith"); a lower-case letter before a full stop is a symbol ending
# its sentence ("at depth d. This structure").
_ABBREV_RE = re.compile(r"(?:\b(?:" + "|".join(re.escape(a) for a in _ABBREV) + r")|\b(?-i:[A-Z]))\.$", re.I)
_SENT_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z0-9])")
_WORD = re.compile(r"[A-Za-z][A-Za-z\-']*")


def sentences(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence, by punctuation, skipping common abbreviations.

    >>> t = "See Fig. 3 for details. This approach works. It is fast."
    >>> [t[a:b] for a, b in sentences(t)]
    ['See Fig. 3 for details.', 'This approach works.', 'It is fast.']
    >>> t = "Leaves sit at depth d. This shape is unique, says J. Smith."
    >>> [t[a:b] for a, b in sentences(t)]
    ['Leaves sit at depth d.', 'This shape is unique, says J. Smith.']
    """
    out: list[tuple[int, int]] = []
    start = 0
    n = len(text)
    while start < n and text[start].isspace():
        start += 1
    for m in _SENT_END.finditer(text):
        if _ABBREV_RE.search(text, max(start, m.start() - 11), m.start() + 1):
            continue
        end = m.start() + len(m.group(0).rstrip())
        if end > start:
            out.append((start, end))
        start = m.end()
    end = len(text.rstrip())
    if end > start:
        out.append((start, end))
    return out


def _words(text: str) -> frozenset[str]:
    return frozenset(w.strip("'") for w in _WORD.findall(text.lower()))


def word_set(text: str) -> frozenset[str]:
    """The lower-cased words of a text (cached per text): a prefilter before regex searches."""
    from ..language.nlp import FACTS

    return FACTS.memo("words", text, _words)


@lru_cache(maxsize=4096)
def noun_forms(lemma: str) -> tuple[str, ...]:
    """Singular and plural surface forms of a noun lemma (lower case), from the one forms
    engine (``language.forms``: the renames and the checks read the same).

    >>> noun_forms("policy")
    ('policies', 'policy')
    >>> noun_forms("analysis"), noun_forms("child")
    (('analyses', 'analysis'), ('child', 'children'))
    """
    from ..language.forms import noun_forms as forms_of

    w = lemma.lower()
    out = {w} | {f.lower() for fs in forms_of(w).values() for f in fs}
    return tuple(sorted(out))


@lru_cache(maxsize=4096)
def forms_pattern(lemma: str) -> re.Pattern[str]:
    """A case-insensitive whole-word pattern for any form of a noun lemma."""
    alts = "|".join(re.escape(f) for f in sorted(noun_forms(lemma), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alts})(?![\w-])", re.I)


def preview(text: str, limit: int = 80) -> str:
    """One line of at most ``limit`` characters, for node labels and listings."""
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 1].rstrip() + "\u2026"


def snippet(text: str, start: int, end: int, words: int = 3) -> str:
    """The span ``text[start:end]`` with up to ``words`` words of left context (for evidence)."""
    left = text[:start].split()
    lead = " ".join(left[-words:]) if words else ""
    core = text[start:end]
    return f"{lead} {core}".strip() if lead else core


#: The small words after a capitalised word that end its name rather than continue it ("the
#: Client MUST", "the Tool of", "Producer and"): a name's words are capitalised, these are not.
_ENDS_NAME = function_words("determiners", "prepositions", "coordinators", "auxiliaries")
_NEXT_CAPITAL = re.compile(r"[ \u00a0]+([A-Z][\w\-]*)")  # (a tab or a line break ends a name: a table's cells)


def capital_after(text: str, end: int) -> str | None:
    """The capitalised word after the word ending at ``end``, in the same line and cell, that makes that
    word part of a longer name ("Service Level Agreement", "the Tool SDO"); ``None`` when none
    follows or it is a small word (a modal written in capitals, "Extension MUST", ends a name).

    A word in capitals after it ("Finished MAC", "Tool SDO") makes the word a modifier: no head
    noun an anaphor can point back to, yet still a use of a term so named."""
    nxt = _NEXT_CAPITAL.match(text, end)
    return nxt.group(1) if nxt is not None and nxt.group(1).lower() not in _ENDS_NAME else None
