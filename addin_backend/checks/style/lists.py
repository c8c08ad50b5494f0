"""Lists: the items of one list ending in different punctuation, or starting some with a capital
and some in lower case.

A list is a run of list items of one level with nothing else between them (a nested list
interrupts it without ending it; a numbered list that starts again is a new list). Its items but the last should end alike: all with a full stop,
all with a semicolon or comma (the last then ends the sentence with a full stop), or all with
nothing; an item ending with a colon, or followed by a nested list, introduces it and an item ending "; and" or
", or" follows the legal style, neither is compared; in a list of fragments without end
punctuation, an item that is a whole sentence (eight words or more) may end with a full stop. The first words are compared when they are
ordinary words: an abbreviation, an identifier ("max_ack_delay", "iOS"), a number or a name the
document always capitalises keeps its case.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Set as AbstractSet

from adapters.model import Document, Unit

from ...findings import Finding, Place
from .prose import Prose, known_word, make_finding, word_cases
from .sheet import StyleSheet

__all__ = ["list_findings", "lists_of"]

_NAMES = {"period": "a full stop", "semicolon": "a semicolon", "comma": "a comma", "none": "no punctuation"}
_MARK = {"period": ".", "semicolon": ";", "comma": ",", "none": ""}


def lists_of(doc: Document, include: set[str] | None = None) -> list[list[Unit]]:
    """The document's lists: each a run of list items of one level (see the module docstring)."""
    out: list[list[Unit]] = []
    open_: dict[int, list[Unit]] = {}
    for u in doc.units:
        if u.meta.get("absent_in") == "accepted":
            continue
        if u.kind != "list_item":
            out.extend(v for _, v in sorted(open_.items()))
            open_ = {}
            continue
        level = u.level or 1
        for deeper in [lv for lv in open_ if lv > level]:
            out.append(open_.pop(deeper))
        if level in open_ and _restarts(open_[level][-1], u):
            out.append(open_.pop(level))
        open_.setdefault(level, []).append(u)
    out.extend(v for _, v in sorted(open_.items()))
    if include is not None:
        out = [[u for u in lst if u.id in include] for lst in out]
    return [lst for lst in out if len(lst) >= 2]


def _number(u: Unit) -> int | None:
    label = str(u.meta.get("list_label") or "").strip().rstrip(".)")
    return int(label) if label.isdigit() else None


def _restarts(prev: Unit, u: Unit) -> bool:
    """A numbered list starting again ("1." after "5."): a new list."""
    a, b = _number(prev), _number(u)
    return a is not None and b is not None and b <= a


_END = re.compile(r"(?P<mark>[.;,:!?]*)(?P<close>[\"'\u201d\u2019)\]]*)\s*$")


def _ending(text: str) -> tuple[str, int, int]:
    """``(class, start, end)`` of the item's final punctuation (its span may be empty)."""
    body = text.rstrip()
    if re.search(r"[;,]\s+(?:and|or|und|oder|et|ou|y|o)$", body):
        return "legal", len(body), len(body)
    m = _END.search(body)
    mark = m.group("mark") if m else ""
    start = m.start("mark") if m else len(body)
    end = m.end("mark") if m else len(body)
    if mark.endswith("..."):
        return "other", start, end
    last = mark[-1:] if mark else ""
    cls = {".": "period", ";": "semicolon", ",": "comma", ":": "colon", "": "none"}.get(last, "other")
    return cls, start, end


_FIRST = re.compile(r"[\"'\u201c\u2018(\[]*(?P<w>[^\W\d_][\w'\u2019\-]*)")


def _first_word(text: str, lower: AbstractSet[str], names: AbstractSet[str]) -> tuple[str, int] | None:
    """``(case, offset)`` of the item's first word when it is an ordinary word."""
    m = _FIRST.match(text.lstrip())
    if not m:
        return None
    w = m.group("w")
    at = len(text) - len(text.lstrip()) + m.start("w")
    if not w.isalpha() or len(w) < 2:
        return None
    low = w.lower()
    if w.islower():
        return ("lower", at)
    if w[0].isupper() and w[1:].islower() and (low in lower or known_word(low)) and low not in names:
        return ("upper", at)
    return None


def list_findings(p: Prose, sheet: StyleSheet) -> list[Finding]:
    """Mixed end punctuation and mixed first-word case within each list."""
    include = {u.id for u in p.units}
    lists = lists_of(p.doc, include)
    if not lists:
        return []
    lower, names = word_cases(p)
    units = p.doc.units
    opens = {a.id for a, b in zip(units, units[1:])  # an item that a nested list follows introduces it
             if a.kind == "list_item" and b.kind == "list_item" and (b.level or 1) > (a.level or 1)}
    out: list[Finding] = []
    for items in lists:
        out.extend(_punctuation(items, opens))
        out.extend(_capitals(items, lower, names))
    return out


def _punctuation(items: list[Unit], opens: set[str]) -> list[Finding]:
    ends = [(u, *_ending(u.text)) if u.id not in opens else (u, "colon", 0, 0) for u in items]
    body = [e for e in ends[:-1] if e[1] not in ("colon", "legal", "other")]
    last = ends[-1]
    c = Counter(e[1] for e in body)
    if not c:
        return []
    want = max(c, key=lambda k: (c[k], k == "period"))
    wrong: list[tuple[Unit, str, int, int] | tuple[Unit, str, int, int, str]]
    wrong = [e for e in body if e[1] != want] if len(c) > 1 else []
    if want == "none":  # fragments take no full stop; an item that is a whole sentence does
        wrong = [e for e in wrong if not (e[1] == "period" and len(e[0].text.split()) >= 8)]
    if last[1] not in ("colon", "legal", "other"):
        end_want = {"semicolon": "period", "comma": "period", "period": "period", "none": None}[want]
        if end_want == "period" and last[1] in ("none", "semicolon", "comma") and (want != "period" or c[want] >= 2):
            wrong.append((*last[:1], last[1], last[2], last[3], "period"))
        elif want == "none" and last[1] in ("semicolon", "comma"):
            wrong.append((*last[:1], last[1], last[2], last[3], "none"))
    if not wrong:
        return []
    places = []
    for e in wrong:
        u, cls, s, t = e[0], e[1], e[2], e[3]
        target = e[4] if len(e) > 4 else want
        places.append(Place(u.id, s, t, u.text[s:t], _MARK[target]))
    listing = ", ".join(f"{n} with {_NAMES.get(k, k)}" for k, n in c.most_common())
    return [make_finding("list_punctuation", "info", places,
                         f"the items of this list end differently ({listing}); the usual ending is {_NAMES[want]}"
                         + ("" if want == "none" else ", and the last item ends the sentence with a full stop"
                            if want in ("semicolon", "comma") else ""),
                         evidence=items[0].text.strip()[:60])]


def _capitals(items: list[Unit], lower: AbstractSet[str], names: AbstractSet[str]) -> list[Finding]:
    words = [(u, _first_word(u.text, lower, names)) for u in items]
    firsts = [(u, f) for u, f in words if f is not None]
    c = Counter(f[0] for _, f in firsts)
    if len(c) < 2:
        return []
    want = max(c, key=lambda k: (c[k], k == "upper"))
    places = []
    for u, (case, at) in firsts:
        if case == want:
            continue
        ch = u.text[at]
        places.append(Place(u.id, at, at + 1, ch, ch.upper() if want == "upper" else ch.lower()))
    return [make_finding("list_capitalisation", "info", places,
                         f"the items of this list start {c['upper']} time(s) with a capital and {c['lower']} time(s) "
                         f"in lower case; the usual start is {'a capital' if want == 'upper' else 'lower case'}",
                         evidence=places[0].text)]
