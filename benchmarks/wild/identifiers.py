"""Identifiers in the original, found without LEDGER's identifier layer, and whether an edited copy
kept every one of them.

An identifier is text LibreOffice shows in a code character or paragraph style or a monospace
font (``uno_wild.py``'s ``code`` spans, token by token), or a token of a shape no prose word has: a
namespace prefix (``manifest:file-entry``), angle brackets (``<manifest:file-entry>``), camelCase
or an inner capital (``physicalLocation``, ``TopicAlias``), snake_case or a dotted property
(``created_by_ref``, ``result.fingerprints``), a command-line option (``--safe``), a file name
(``manifest.xml``), a URI. The edited copy is read after Accept All; its paragraphs are paired
with the original's by a diff, and an identifier that occurs fewer times in a paired paragraph
than in the original was changed.
"""
from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Sequence

__all__ = ["SHAPES", "identifiers", "pair_paragraphs", "changed_identifiers"]

#: Token shapes no prose word has.
SHAPES = re.compile(
    r"https?://[^\s<>\"]+"                                       # a URI
    r"|<[^<>\s][^<>]{0,80}>"                                      # <element> or <placeholder>
    r"|(?<![\w:])[A-Za-z][\w.\-]*:[A-Za-z_][\w.\-]*[\w]"           # a namespace prefix
    r"|(?<![\w\-])--[a-zA-Z][\w\-]*(?![\w\-])|(?<=\s)-[a-zA-Z][\w\-]*(?![\w\-])"  # --option, -option
    r"|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b"                              # camelCase
    r"|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b"                      # PascalCase: words glued (not DoS, QoS, PhD)
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"                          # snake_case
    r"|\b[a-z][a-z0-9]+(?:\.[a-z][a-z0-9]+)+\b(?!\.\w)"           # dotted.property
    r"|\b[\w\-]+\.(?:xml|json|docx|odt|txt|py|js|html|css|zip|rdf|xsd|rng|md|png|jpg|svg|sarif|ya?ml|exe|dll)\b"
)

_PROSE_DOTTED = {"e.g", "i.e", "etc"}


def identifiers(text: str, code: Sequence[tuple[int, int]] = ()) -> Counter:
    """The identifiers of one paragraph: its code spans' tokens and its tokens of an identifier's shape.

    >>> sorted(identifiers("The <manifest:file-entry> element, physicalLocation and --safe; see a.json").items())
    [('--safe', 1), ('<manifest:file-entry>', 1), ('a.json', 1), ('physicalLocation', 1)]
    >>> sorted(identifiers("Set x to the created_by_ref value", [(9, 10)]).items())
    [('created_by_ref', 1)]
    >>> identifiers("A well-known file entry, e.g. here; 10:30 and the end.")
    Counter()
    """
    out: Counter = Counter()
    taken: list[tuple[int, int]] = []
    for start, end in code:
        for m in re.finditer(r"\S+", text[start:end]):
            tok = m.group().strip(".,;:()[]{}\"'")
            if len(tok) >= 2 and re.search(r"\w", tok):
                out[tok] += 1
        taken.append((start, end))
    for m in SHAPES.finditer(text):
        if any(s <= m.start() < e for s, e in taken) or m.group().lower() in _PROSE_DOTTED:
            continue
        out[m.group()] += 1
    return out


def pair_paragraphs(before: Sequence[str], after: Sequence[str]) -> list[tuple[int, int]]:
    """(index in ``before``, index in ``after``) of the paragraphs a diff pairs: equal ones, and
    changed ones in a stretch of equal length (an edited paragraph stays itself)."""
    norm = [" ".join(t.split()) for t in before], [" ".join(t.split()) for t in after]
    sm = difflib.SequenceMatcher(None, norm[0], norm[1], autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            out.extend((i1 + k, j1 + k) for k in range(i2 - i1))
        elif op == "replace":  # unequal stretches: pair each old paragraph with its closest new one, in order
            j = j1
            for i in range(i1, i2):
                best, score = None, 0.6
                for k in range(j, j2):
                    r = difflib.SequenceMatcher(None, norm[0][i], norm[1][k]).quick_ratio()
                    if r > score:
                        best, score = k, r
                if best is not None:
                    out.append((i, best))
                    j = best + 1
    return out


def changed_identifiers(before: Sequence[dict], code: Sequence[Sequence[int]], after: Sequence[dict],
                        pairs: Sequence[tuple[int, int]] | None = None) -> list[str]:
    """The identifiers of ``before`` (LibreOffice's paragraphs, with its ``code`` spans) that a
    paired paragraph of ``after`` no longer holds as often: "identifier (paragraph start)"."""
    spans: dict[int, list[tuple[int, int]]] = {}
    for i, s, e in code:
        spans.setdefault(i, []).append((s, e))
    if pairs is None:
        pairs = pair_paragraphs([p["text"] for p in before], [p["text"] for p in after])
    out = []
    for i, j in pairs:
        old, new = before[i]["text"], after[j]["text"]
        if old == new:
            continue
        for tok, n in identifiers(old, spans.get(i, ())).items():
            if new.count(tok) < n:
                out.append(f"{tok} ({' '.join(old.split())[:50]})")
    return out
