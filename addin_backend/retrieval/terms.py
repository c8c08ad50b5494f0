"""Defined terms an instruction names: their defining units are context (or the target itself).

"Rename 'net load' to 'residual demand'" is about the unit that defines net load; "Insert a
paragraph on SLA penalties" needs the unit that expands SLA. What this reads of the registry of
definitions (each term's first definition: :func:`term_index`) is kept on the graph when the
graph is built (:mod:`addin_backend.graph.term_index`), so a graph kept by the command line or
the store answers it without building the registry again.

Each term's usage pattern (:func:`~addin_backend.graph.definitions.usage_pattern`: its plural
and possessive forms, from the English dictionaries) is known with the words one of which every
use of the term holds (:func:`needles`): a text that holds none of them is not searched. Both can
be handed in (:func:`remember`) and taken out (:func:`known`): the command line keeps them with
a file's graph, so a second ``ledger context`` loads no dictionary and compiles only the patterns
of the terms its instruction may use.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from itertools import product
from typing import TYPE_CHECKING, Any, Iterable, Mapping

if TYPE_CHECKING:  # (a kept graph is read without networkx: graph.stored)
    import networkx as nx

from adapters.model import Document

from ..graph.term_index import TERM_INDEX, term_index

__all__ = ["TermHit", "terms_in", "term_index", "TERM_INDEX", "needles", "remember", "known", "usage_key"]

#: ``usage_key`` -> ``[pattern source, flags, needles or None]``: computed, or handed in.
_usages: dict[str, list[Any]] = {}
#: A server reads many documents' terms: past this many usages the known ones are forgotten.
_MAX_USAGES = 50_000
#: The most alternatives a needle set holds (the forms of a word, a class of two cases).
_MAX_NEEDLES = 64
#: Characters outside ASCII that a case-insensitive pattern matches to an ASCII letter (``re``'s
#: simple case mapping and its extra cases: the dotted and dotless i, the long s, the Kelvin sign).
_TO_ASCII = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})


@dataclass(frozen=True)
class TermHit:
    term: str
    unit: str  # the (first) defining unit
    span: str  # the defining phrase
    case_sensitive: bool = False

    def inside(self, other: "TermHit") -> bool:
        """Whether this term is part of ``other`` ("service level" in "service level agreement")."""
        if self.case_sensitive or other.case_sensitive:
            return self.term in other.term
        return self.term.lower() in other.term.lower()


def _re_module(name: str) -> Any:
    """``re``'s own parser or its opcodes (``re._parser``, ``re._constants``: what ``sre_parse``
    and ``sre_constants`` were before Python 3.11)."""
    return import_module(f"re.{name}")


def _exact(items: Iterable[tuple[Any, Any]]) -> set[str] | None:
    """The strings a parsed sequence matches, when they are few and fixed; else ``None``."""
    C = _re_module("_constants")  # the parser's opcodes

    out = {""}
    for op, av in items:
        if op in (C.ASSERT, C.ASSERT_NOT, C.AT):
            continue  # zero width
        if op is C.LITERAL:
            alts: set[str] | None = {chr(av)}
        elif op is C.IN and all(o is C.LITERAL for o, _ in av):
            alts = {chr(c) for _, c in av}
        elif op is C.SUBPATTERN:
            alts = _exact(av[-1])
        elif op is C.BRANCH:
            alts = set()
            for branch in av[1]:
                found = _exact(branch)
                if found is None:
                    alts = None
                    break
                alts |= found
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[0] == av[1] == 1:
            alts = _exact(av[2])
        else:
            return None
        if alts is None or len(out) * len(alts) > _MAX_NEEDLES:
            return None
        out = {a + b for a, b in product(out, alts)}
    return out


def _required(items: list[tuple[Any, Any]]) -> set[str] | None:
    """Strings one of which every match of a parsed sequence holds (the longest such run of
    fixed items, or one inside a group every match passes through), or ``None``."""
    C = _re_module("_constants")
    found: list[set[str]] = []
    run: list[tuple[Any, Any]] = []
    for op, av in [*items, (None, None)]:
        if op is not None and _exact([(op, av)]) is not None:
            run.append((op, av))
            continue
        if run:
            whole = _exact(run)
            found.extend([whole] if whole is not None else [s for s in (_exact([i]) for i in run) if s is not None])
            run = []
        if op is C.SUBPATTERN:
            inner = _required(list(av[-1]))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[0] >= 1:
            inner = _required(list(av[2]))
        else:
            inner = None
        if inner is not None:
            found.append(inner)
    found = [f for f in found if f and min(map(len, f)) > 0]
    return max(found, key=lambda f: (min(map(len, f)), -len(f))) if found else None


def needles(pattern: re.Pattern[str]) -> list[str] | None:
    """Lower-case ASCII strings one of which every match of ``pattern`` holds, as :func:`_fold`
    folds the text (so a search may skip a text that holds none), or ``None`` when the pattern
    has none such.

    >>> needles(re.compile(r"(?<![\\w\\-])[Nn]et\\s+load(?:s)?(?![\\w\\-])"))
    ['load']
    >>> needles(re.compile(r"ind(?:ices|exes|ex)", re.I))
    ['indices', 'index']
    """
    try:
        found = _required(list(_re_module("_parser").parse(pattern.pattern, pattern.flags)))
    except Exception:  # another Python's parser: search every text
        return None
    if not found or not all(s.isascii() for s in found):
        return None
    lower = {s.lower() for s in found}
    # a needle that holds another is found whenever it is: the shorter one says as much
    return sorted((s for s in lower if not any(o != s and o in s for o in lower)), key=lambda s: (-len(s), s))


def _fold(text: str) -> str:
    """``text`` in the case :func:`needles` gives: lower case, with the characters that a
    case-insensitive pattern matches to an ASCII letter written as that letter."""
    return text.translate(_TO_ASCII).lower()


def usage_key(term: str, kind: str, case_sensitive: bool) -> str:
    """The key of a term's usage pattern in :func:`known` and :func:`remember`."""
    return f"{kind}\x1f{int(case_sensitive)}\x1f{term}"


def remember(usages: Mapping[str, Any]) -> None:
    """Take ``usages`` (as :func:`known` gave them) as known."""
    if len(_usages) + len(usages) > _MAX_USAGES:
        _usages.clear()
    for key, value in usages.items():
        if isinstance(value, list) and len(value) == 3:
            _usages.setdefault(key, value)


def known(keys: Iterable[str] | None = None) -> dict[str, list[Any]]:
    """The usage patterns known in this process (of ``keys`` only, when given), by :func:`usage_key`."""
    if keys is None:
        return dict(_usages)
    return {k: _usages[k] for k in keys if k in _usages}


def _usage(term: str, kind: str, case_sensitive: bool) -> list[Any]:
    key = usage_key(term, kind, case_sensitive)
    usage = _usages.get(key)
    if usage is None:
        from ..graph.definitions import usage_pattern

        pattern = usage_pattern(term, kind, case_sensitive)
        if len(_usages) >= _MAX_USAGES:
            _usages.clear()
        usage = _usages[key] = [pattern.pattern, pattern.flags, needles(pattern)]
    return usage


@lru_cache(maxsize=8192)
def _compiled(source: str, flags: int) -> re.Pattern[str]:
    return re.compile(source, flags)


def terms_in(doc: Document, G: nx.MultiDiGraph | None, text: str) -> list[TermHit]:
    """Terms defined in ``doc`` that ``text`` uses, longest first, each with its defining unit.

    >>> from adapters.model import Unit
    >>> d = Document("docx", [Unit("a", "paragraph", "We define net load as demand minus generation.", 0)])
    >>> [(h.term, h.unit) for h in terms_in(d, None, "Rename 'net load' to 'residual demand'")]
    [('net load', 'a')]

    Symbols keep their case: the Θ defined in one unit is not the θ of another.
    """
    hits: list[TermHit] = []
    folded = _fold(text)
    for term, kind, case_sensitive, uid, span in term_index(doc, G):
        source, flags, needed = _usage(term, kind, case_sensitive)
        if needed is not None and not any(n in folded for n in needed):
            continue  # no use of the term can be in the text
        if _compiled(source, flags).search(text):
            hits.append(TermHit(term, uid, span, case_sensitive))
    hits.sort(key=lambda h: -len(h.term))
    # "service level" inside "service level agreement": keep the longest term only
    out: list[TermHit] = []
    for h in hits:
        if not any(h.inside(o) for o in out):
            out.append(h)
    return out
