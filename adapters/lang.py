"""Language tags as readers find them (``w:lang``, ``fo:language``), shared by both readers.

A unit's language is the tag covering most of its characters; the backend
(:mod:`addin_backend.language.detect`) decides from it, the text and the document's default which
rules run on the unit.
"""
from __future__ import annotations

from typing import Iterable, Mapping

__all__ = ["NO_LANGUAGE", "known", "majority"]

#: Tags that say "no language" (program code, numbers) or "not determined".
NO_LANGUAGE = frozenset({"zxx", "none", "x-none", "und"})


def known(tag: str | None) -> str | None:
    """The tag, or None when it names no language.

    >>> known("de-DE"), known("zxx"), known("x-none"), known("")
    ('de-DE', None, None, None)
    """
    if not tag or tag.strip().lower() in NO_LANGUAGE:
        return None
    return tag.strip()


def majority(counts: Mapping[str | None, int] | Iterable[tuple[str | None, int]]) -> str | None:
    """The tag of most characters (the first one on a tie); None when that tag is unknown
    or names no language ("zxx": the unit is code, not text in some language).

    >>> majority({"en-US": 12, "de-DE": 40, None: 3})
    'de-DE'
    >>> majority([("zxx", 30), ("en-US", 4)]) is None
    True
    """
    items = counts.items() if isinstance(counts, Mapping) else counts
    total: dict[str | None, int] = {}
    for tag, n in items:
        total[tag] = total.get(tag, 0) + n
    if not total:
        return None
    best = max(total.values())
    for tag, n in total.items():
        if n == best:
            return known(tag)
    return None  # pragma: no cover
