"""Random *valid* operations on a document, and the round trip every writer must keep: the
tracked changes accepted read as the edited model, rejected as the original.

``pick(lo, hi)`` is the only source of choices (an integer in ``[lo, hi]``), so the same code
serves atheris (its FuzzedDataProvider) and hypothesis (``data.draw``).
"""
from __future__ import annotations

from typing import Callable

from adapters import accept_all, read, reject_all, write
from adapters.model import Delete, Document, Edit, InsertAfter, Replace, SetText
from addin_backend.edits.operations import apply_to_document, validate_edits
from addin_backend.errors import EditConflictError, InvalidRequestError

__all__ = ["random_edits", "concrete", "round_trip", "WORDS"]

Pick = Callable[[int, int], int]
DATE = "2026-01-02T03:04:05Z"
#: Replacement words: scripts, digits, punctuation the tokenizer treats specially, spaces.
WORDS = ("alpha", "Beta", "γάμμα", "数据", "x-1", "3.5", "don't", "naïve", "ZZ", "—", "«q»", "e\u0301", "𝔘", "  ")
OPS = ("replace", "replace", "replace", "delete", "insert_after", "set_text")
#: The units the operations touch: running text without tracked changes of its own. (Figures,
#: equations and notes have rules of their own that writers enforce with ``AnchorError``.)
KINDS = ("paragraph", "section", "title", "list_item", "heading")


def _words(pick: Pick, most: int = 3) -> str:
    return " ".join(WORDS[pick(0, len(WORDS) - 1)] for _ in range(pick(0, most)))


def random_edits(doc: Document, pick: Pick, author: str = "Fuzz Tester") -> list[Edit]:
    """One to three operations on units that have text (may contradict each other: see
    :func:`concrete`)."""
    units = [u for u in doc.units if u.kind in KINDS and u.text.strip() and u.rejected_text is None
             and not u.meta.get("absent_in")]
    if not units:
        return []
    edits = []
    for _ in range(pick(1, 3)):
        u = units[pick(0, len(units) - 1)]
        op = OPS[pick(0, len(OPS) - 1)]
        if op == "replace":
            start = pick(0, len(u.text))
            end = pick(start, min(len(u.text), start + 40))
            cut = u.text.find("\n", start, end)
            end = cut if cut >= 0 else end
            edits.append(Replace(u.id, text=_words(pick), start=start, end=end, author=author, date=DATE))
        elif op == "set_text":
            lines = u.text.split("\n")
            i = pick(0, len(lines) - 1)
            lines[i] = (lines[i] + " " + _words(pick, 2)).strip() or lines[i]
            edits.append(SetText(u.id, text="\n".join(lines), author=author, date=DATE))
        elif op == "insert_after":
            edits.append(InsertAfter(u.id, text=_words(pick) or "new", author=author, date=DATE))
        else:
            edits.append(Delete(u.id, author=author, date=DATE))
    return edits


def concrete(doc: Document, edits: list[Edit]) -> list[Edit] | None:
    """The edits as the backend checks them, or ``None`` when they are not a valid set (they
    overlap, delete what another edits, change nothing...)."""
    try:
        return validate_edits(doc, edits)
    except (InvalidRequestError, EditConflictError):
        return None


def round_trip(data: bytes, doc: Document, edits: list[Edit]) -> None:
    """Write ``edits`` (concrete) into ``data`` (read as ``doc``) and check the two views.

    Lines are compared without the blank ones (as the writers' own tests compare them).

    :raise AssertionError: accept-all differs from the edited model, or reject-all from the original.
    """
    out = write(data, edits, document=doc)
    accepted = nonblank(read(accept_all(out)).lines())
    expected = nonblank(apply_to_document(doc, edits).lines())
    assert accepted == expected, ("accept-all", [e.to_json() for e in edits])
    rejected = nonblank(read(reject_all(out)).lines())
    assert rejected == nonblank(doc.lines("rejected")), ("reject-all", [e.to_json() for e in edits])


def nonblank(lines: list[str]) -> list[str]:
    """Lines with text (a deleted last paragraph leaves its empty paragraph mark, as in Word)."""
    return [line for line in lines if line.strip()]
