"""Heading numbers typed in the heading's own text ("3.17.4 Topic Alias", "Appendix C. Guidance").

Some editors type their heading numbers instead of letting the word processor number them
(OASIS MQTT-SN: 346 of 346 headings). Word and LibreOffice show no list label then, yet the
typed number is the heading's number: readers cite it and editors renumber it by hand. Both
readers call :func:`apply_typed_numbers` once their units are made, so that ``Unit.number``,
``Unit.label`` and ``Unit.title`` mean the same for a typed heading as for a numbered one.

The rule is the document's own usage, not a pattern: a typed number counts where its depth is
the heading's level ("3.17.4" on a level-3 heading, "C.1" under "Appendix C"), it extends the
typed number of the heading above it, and most headings without an automatic number carry one
(a lone "X.509 Certificate" or "9.2 Constants" heading in a document of unnumbered headings is
a title that starts with a number, not the document's numbering).
"""
from __future__ import annotations

from .label_grammar import heading_number, number_depth
from .labels import section_label
from .model import Unit

__all__ = ["typed_section", "apply_typed_numbers"]

#: What separates a typed number from its title ("1.2. Scope", "Appendix A: Terms", "2 - Keys").
_SEPARATORS = " \t.:)\u2013\u2014-\u00a0"


def typed_section(text: str, level: int | None = None) -> tuple[str, str | None, str] | None:
    """The number typed before a heading's title, its label and the title after it:
    ``(number, label, title)``; ``None`` when the heading types no number, or one whose depth
    is not ``level``.

    >>> typed_section("3.17.4 Topic Alias", 3)
    ('3.17.4', 'Section 3.17.4', 'Topic Alias')
    >>> typed_section("Appendix C. Implementation Guidance (Informative)", 1)
    ('C', 'Appendix C', 'Implementation Guidance (Informative)')
    >>> typed_section("128 Bits", 3) is None, typed_section("Scope", 1) is None
    (True, True)
    """
    got = heading_number(text)
    if got is None:
        return None
    number, _start, end = got
    if level is not None and number_depth(number) != level:
        return None
    title = text[end:].lstrip(_SEPARATORS).rstrip()
    return number, section_label(number, text[:end]), title or text.strip()


def apply_typed_numbers(units: list[Unit]) -> int:
    """Give each section whose number is typed in its text that number, label and title.

    Only sections without a number of their own (automatic numbering) are read, and only when
    the typed numbers are the document's numbering: at least half of those sections carry one
    that fits its level and the number of the typed heading above it. Returns how many
    sections were numbered.

    >>> us = [Unit("a", "section", "1 Scope", 0, level=1), Unit("b", "section", "1.1 Terms", 1, level=2),
    ...       Unit("c", "section", "Appendix A. Notes", 2, level=1), Unit("d", "section", "Revision History", 3, level=1)]
    >>> apply_typed_numbers(us), [(u.number, u.label, u.title) for u in us]
    (3, [('1', 'Section 1', 'Scope'), ('1.1', 'Section 1.1', 'Terms'), ('A', 'Appendix A', 'Notes'), (None, None, None)])
    """
    candidates = [u for u in units if u.kind == "section" and not u.number and u.text.strip()]
    if not candidates:
        return 0
    found: list[tuple[Unit, tuple[str, str | None, str]]] = []
    open_numbers: list[tuple[int, str | None]] = []  # (level, typed number) of the open headings
    for u in candidates:
        lvl = u.level or 1
        while open_numbers and open_numbers[-1][0] >= lvl:
            open_numbers.pop()
        got = typed_section(u.text.strip(), lvl)
        above = open_numbers[-1][1] if open_numbers else None
        if got is not None and lvl > 1 and above is not None and not got[0].startswith(above + "."):
            got = None  # "4.2" under "3": a title that opens with a number, not this outline's
        open_numbers.append((lvl, got[0] if got else None))
        if got is not None:
            found.append((u, got))
    if len(found) * 2 < len(candidates):
        return 0
    for u, (number, label, title) in found:
        u.number, u.label, u.title = number, label, title
    return len(found)
