"""Quoted text in an instruction: found first and taken whole; the grammar reads only around it.

``Replace the text of the paragraph starting with 'If the Server is not enrolled to the Client'
with: …`` was split at the quoted " to ", and "the Client' with: If the Client…" went into the
document. Reading an instruction therefore starts here: :func:`mask` replaces every quoted span
by an opaque placeholder, so no pattern of the grammar can see a word inside a quotation, and
:meth:`Masked.unmask` puts the spans back into what a rule's groups captured.

Quotes are the pairs people type in the languages the rules read: "…", “…”, ”…”, „…“, „…”, «…»,
»…«, ‹…›, '…', ‘…’, ’…’, ‚…‘ and 「…」, 『…』. A quote does not open right after a letter or digit
(the apostrophe of "don't" opens none); a single quote followed by a letter is an apostrophe
inside the quotation ('the client's key'), not its end; inside double quotes, single ones are text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["QUOTED", "PAIRS", "quoted", "unquote", "is_quoted", "Masked", "mask", "PLACEHOLDER", "protect"]

#: Opening -> closing marks of the double-quote pairs (and the CJK corner brackets).
_DOUBLE = (('"', '"'), ("\u201c", "\u201d"), ("\u201d", "\u201d"), ("\u201e", "\u201c\u201d"),
           ("\u00ab", "\u00bb"), ("\u00bb", "\u00ab"), ("\u2039", "\u203a"), ("\u300c", "\u300d"),
           ("\u300e", "\u300f"))
#: The single quotes and apostrophes that open or close a single-quoted span (autocorrect mixes them).
_SINGLE_OPEN = "'\u2018\u2019\u201a"
_SINGLE_CLOSE = "'\u2019\u2018"
_SINGLES = "'\u2018\u2019\u201a"
#: Every pair, for what quotes a document's or an instruction's text (opening, closing marks).
PAIRS: tuple[tuple[str, str], ...] = (*_DOUBLE, (_SINGLE_OPEN, _SINGLE_CLOSE))


def _pattern() -> str:
    parts = []
    for opening, closing in _DOUBLE:
        inner = re.escape("".join(dict.fromkeys(opening + closing)))
        parts.append(f"{re.escape(opening)}[^{inner}\n]+[{re.escape(closing)}]")
    s = re.escape(_SINGLES)
    parts.append(f"[{re.escape(_SINGLE_OPEN)}](?:[^{s}\n]|[{s}](?=\\w))+[{re.escape(_SINGLE_CLOSE)}](?!\\w)")
    return rf"(?<!\w)(?:{'|'.join(parts)})"


#: A quoted string in an instruction (see the module docstring). No groups: grammars embed it.
#: The one definition of a quoted string, for the rules and for the LLM engine's repair.
QUOTED = re.compile(_pattern())


def quoted(text: str) -> list[str]:
    r"""The strings ``text`` quotes (:data:`QUOTED`), without their quotes, in order: the terms an
    instruction names exactly, whatever quotes it was typed with.

    >>> quoted("Don't rename \u201cconnection ID\u201d to 'connection identifier' in the user's guide")
    ['connection ID', 'connection identifier']
    >>> quoted('Replace "user\'s key" with \u2018client key\u2019')
    ["user's key", 'client key']
    >>> quoted("Remplacer « serveur » par « hôte » ; ersetze „Server“ durch 'the client's'")
    ['serveur', 'hôte', 'Server', "the client's"]
    """
    return [unquote(m.group()) for m in QUOTED.finditer(text)]


def is_quoted(text: str) -> bool:
    """Whether ``text`` is one quoted span, whole (surrounding space aside)."""
    return QUOTED.fullmatch(text.strip()) is not None


def unquote(text: str) -> str:
    """``text`` without the quotes around it when it is one quoted span (the space French and
    others set inside guillemets dropped); else ``text`` stripped, unchanged.

    >>> unquote("«\u00a0hôte\u00a0»"), unquote("'the client's key'"), unquote("a 'b' c")
    ('hôte', "the client's key", "a 'b' c")
    """
    s = text.strip()
    if not is_quoted(s):
        return s
    return s[1:-1].strip(" \u00a0\u202f")


#: A quoted span's stand-in while the grammar reads: private-use marks around its index.
PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
#: A character of the instruction kept from the grammar (:func:`protect`) is moved up by this.
_SHIFT = 0xF0000


@dataclass(frozen=True)
class Masked:
    """An instruction with its quoted spans replaced by placeholders (``text``), and the spans."""

    text: str
    spans: tuple[str, ...]

    def unmask(self, value: str | None) -> str | None:
        """A captured value with its quoted spans (their quotes included) and protected
        characters put back."""
        if value is None:
            return None
        out = PLACEHOLDER.sub(lambda m: self.spans[int(m.group(1))], value)
        return "".join(chr(ord(c) - _SHIFT) if _SHIFT <= ord(c) < _SHIFT + 0x10000 else c for c in out)

    def whole(self, value: str | None) -> bool:
        """Whether a captured value is one quoted span and nothing else."""
        return value is not None and PLACEHOLDER.fullmatch(value.strip()) is not None


def mask(text: str) -> Masked:
    """``text`` with each quoted span replaced by a placeholder (see :class:`Masked`).

    >>> m = mask("Replace the text of the paragraph starting with 'If X is not enrolled to Y' with: Z")
    >>> m.text
    'Replace the text of the paragraph starting with \\ue0000\\ue001 with: Z'
    >>> m.unmask(m.text) == "Replace the text of the paragraph starting with 'If X is not enrolled to Y' with: Z"
    True
    """
    spans: list[str] = []

    def hold(m: re.Match[str]) -> str:
        spans.append(m.group())
        return f"\ue000{len(spans) - 1}\ue001"

    return Masked(QUOTED.sub(hold, text), tuple(spans))


def protect(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the characters of ``spans`` moved where no pattern of the grammar matches
    them (a word the grammar must not split at, this time); :meth:`Masked.unmask` moves them back."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if ord(chars[i]) < 0x10000:
                chars[i] = chr(ord(chars[i]) + _SHIFT)
    return "".join(chars)
