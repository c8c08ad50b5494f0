"""The language of each unit, which decides the detectors and checks that run on it.

Readers put the tag the document gives (``w:lang``, ``fo:language``) in ``unit.meta["lang"]``
and the document default in ``doc.meta["language"]``. English-only rules (anaphora word lists,
English plurals, variant spellings built from English word joins) ask :func:`is_english`.
"""
from __future__ import annotations

from adapters.model import Document, Unit

__all__ = ["primary", "unit_language", "is_english"]


def primary(tag: str | None) -> str | None:
    """The primary subtag of a language tag, lower case ("de-DE" -> "de"); ``None`` for none.

    >>> primary("de-DE"), primary("EN_us"), primary(""), primary("zxx")
    ('de', 'en', None, None)
    """
    if not tag:
        return None
    head = tag.replace("_", "-").split("-", 1)[0].strip().lower()
    return head if head and head not in ("zxx", "none", "und", "x") else None


def unit_language(unit: Unit, doc: Document | None = None) -> str:
    """The unit's language: its own tag, else the document's, else English."""
    return primary(unit.meta.get("lang")) or primary(doc.meta.get("language") if doc else None) or "en"


def is_english(unit: Unit, doc: Document | None = None) -> bool:
    return unit_language(unit, doc) == "en"
