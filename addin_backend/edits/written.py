"""What text may be written into a document: no bidirectional control the document does not use.

A right-to-left override (U+202E) or isolate written into a paragraph makes its words display in
an order other than the one they are stored in, so a reviewer reads one thing and the document
says another (the "Trojan Source" characters: embeddings and overrides U+202A-U+202E, isolates
U+2066-U+2069). Text that LEDGER writes (a model's answer, a client's operations) may hold one
only where the document itself already uses that character: a document written with explicit
embeddings keeps working, and no other document gains one. The marks U+200E, U+200F and U+061C
change no order of what is stored, and right-to-left scripts need them: they stay allowed.
"""
from __future__ import annotations

from typing import Any, Iterable

from adapters.model import Document

__all__ = ["BIDI_CONTROLS", "bidi_control", "document_controls", "check_written"]

#: Embeddings, overrides and isolates (and their pops).
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))


def document_controls(doc: Document) -> frozenset[str]:
    """The bidirectional controls the document's own text uses (either view)."""
    found: set[str] = set()
    for u in doc.units:
        for text in (u.text, u.rejected_text or ""):
            if not text.isascii():
                found.update(BIDI_CONTROLS.intersection(text))
    return frozenset(found)


def bidi_control(text: str, allowed: Iterable[str] = ()) -> str | None:
    """What is wrong with ``text`` when it holds a bidirectional control outside ``allowed``
    (the document's own), in the words every door answers; else ``None``.

    >>> bidi_control("45 \\u202edays")
    'U+202E is a bidirectional control: it would show the text in another order than it is written'
    >>> bidi_control("45 days"), bidi_control("\\u202bשלום\\u202c", "\\u202b\\u202c")
    (None, None)
    """
    if text.isascii():
        return None
    ok = set(allowed)
    for ch in text:
        if ch in BIDI_CONTROLS and ch not in ok:
            return f"U+{ord(ch):04X} is a bidirectional control: it would show the text in another order than it is written"
    return None


def check_written(doc: Document, texts: Iterable[tuple[str, Any]]) -> tuple[str, str] | None:
    """``(where, problem)`` of the first text in ``texts`` (pairs of where it goes and the text)
    that holds a bidirectional control ``doc`` does not use; ``None`` when all may be written."""
    allowed: frozenset[str] | None = None
    for where, text in texts:
        if not isinstance(text, str) or text.isascii():
            continue
        if allowed is None:
            allowed = document_controls(doc)
        problem = bidi_control(text, allowed)
        if problem is not None:
            return where, problem
    return None
