"""Heading numbers against LibreOffice: each paragraph LibreOffice shows at an outline level (outside
a table of contents) is a heading; its number is the number typed at the start of its text when the
editors typed one ("3.17.4 Sender Identifier", "Appendix D. Revision History"), else the list
label LibreOffice renders ("4.1."), else none (a bullet or nothing). LEDGER must read each such
heading as a section with that number."""
from __future__ import annotations

import difflib
import re
from typing import Any, Sequence

__all__ = ["typed_number", "bare_number", "lo_headings", "score_headings"]

_WORDS = r"(?:Appendix|Annex|Chapter|Section|Part|Clause|Anhang|Annexe|Anexo|Kapitel|Abschnitt)"
_TYPED = re.compile(rf"^\s*(?:{_WORDS}\s+(?P<w>[A-Z]|\d+)(?P<wt>(?:\.\d+)*)|(?P<n>\d+(?:\.\d+)*|[A-Z](?:\.\d+)+))\.?(?=\s|$)")


def typed_number(text: str) -> str | None:
    """The number typed at the start of a heading's text, or ``None``.

    >>> typed_number("3.17.4 Sender Identifier"), typed_number("Appendix D. Revision History (Informative)")
    ('3.17.4', 'D')
    >>> typed_number("C.6.7 Payload"), typed_number("1.0 Intellectual property"), typed_number("A Session")
    ('C.6.7', '1.0', None)
    >>> typed_number("Introduction"), typed_number("2024 Review")
    (None, '2024')
    """
    m = _TYPED.match(text)
    if not m:
        return None
    return m.group("n") or (m.group("w") + (m.group("wt") or ""))


def bare_number(label: str | None) -> str:
    """A rendered label or a number as a bare number: words, trailing points and bullets gone.

    >>> bare_number("Appendix A."), bare_number("4.1."), bare_number("\u25cf"), bare_number(None), bare_number("2")
    ('A', '4.1', '', '', '2')
    """
    s = (label or "").strip()
    s = re.sub(rf"^{_WORDS}\s+", "", s)
    s = s.strip().rstrip(".:)").lstrip("(§ ")
    return s if re.search(r"\w", s) else ""


def lo_headings(paragraphs: Sequence[dict]) -> list[dict]:
    """The headings of LibreOffice's paragraphs, each with the number it shows (``number``).

    Typed numbers count in a document whose editors type them: where most headings start with
    one (in a document that does not, "X.509 Certificate Object" is a title, not Appendix X.509).
    """
    out = []
    for i, p in enumerate(paragraphs):
        if not p.get("outline") or p.get("toc") or not p.get("text", "").strip() or p.get("table", -1) >= 0:
            continue
        out.append({"index": i, "text": p["text"], "level": p["outline"], "label": bare_number(p.get("label")),
                    "typed": typed_number(p["text"])})
    typing = sum(1 for h in out if h["typed"] is not None) * 2 > len(out)
    for h in out:
        typed = h.pop("typed") if typing else None
        h["typed"] = typed is not None
        h["number"] = typed if typed is not None else h["label"]
    return out


def _norm(text: str) -> str:
    return " ".join(text.split())


def score_headings(doc: Any, paragraphs: Sequence[dict]) -> dict[str, Any]:
    """Each LibreOffice heading against LEDGER's unit for it: a section, with the same number."""
    heads = lo_headings(paragraphs)
    units = [u for u in doc.units if u.text.strip()]
    a = [_norm(h["text"]) for h in heads]
    b = [_norm(u.text.split("\n")[0]) for u in units]
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    unit_of: dict[int, Any] = {}
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            for k in range(i2 - i1):
                if op == "equal" or difflib.SequenceMatcher(None, a[i1 + k], b[j1 + k]).ratio() >= 0.8:
                    unit_of[i1 + k] = units[j1 + k]
    right = not_section = missing = 0
    wrong: list[dict[str, Any]] = []
    for i, h in enumerate(heads):
        u = unit_of.get(i)
        if u is None:
            missing += 1
            got, why = None, "no unit"
        elif u.kind != "section":
            not_section += 1
            got, why = bare_number(u.number), f"read as {u.kind}"
        else:
            got = bare_number(u.number)
            if got == h["number"]:
                right += 1
                continue
            why = "number"
        if len(wrong) < 10:
            wrong.append({"text": h["text"][:60], "want": h["number"], "got": got, "why": why})
    seen = {id(u) for u in unit_of.values()}
    extra = sum(1 for u in doc.units if u.kind == "section" and id(u) not in seen)
    return {"headings": len(heads), "right": right, "typed": sum(1 for h in heads if h["typed"]),
            "not_section": not_section, "missing": missing, "extra_sections": extra, "wrong": wrong}
