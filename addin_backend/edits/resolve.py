"""Naming units as a reader does: "Section 2.1", "Fig. 3", "Equation (2)", "the paragraph starting with".

Labels resolve through the Document's labels and numbers (and, failing those, through labels
typed at the start of captions and numbered statements), so the rules engine finds "Figure 2"
however the reader of the format recorded it.
"""
from __future__ import annotations

import re

from adapters.labels import THEOREM_WORDS, caption_label, leading_label
from adapters.model import Document, Unit, descendant_ids
from addin_backend.errors import InvalidRequestError, UnknownUnitError

from ..graph.label_index import build_label_index, unit_keys
from .tree import body_units, enclosing_section, is_note, subtree

__all__ = [
    "LABEL_RX",
    "REF_RX",
    "group_of",
    "label_key",
    "labels_in",
    "last_of",
    "normalise",
    "resolve_ref",
]

_WORDS = {
    "section": "Section", "sec": "Section", "§": "Section", "chapter": "Section", "appendix": "Appendix",
    "figure": "Figure", "fig": "Figure", "table": "Table", "tab": "Table", "equation": "Equation",
    "eq": "Equation", "eqn": "Equation", "formula": "Equation", "listing": "Listing",
    **{w.lower(): w for w in THEOREM_WORDS},
}
_WORD_RX = (
    r"section|sec\.?|§|chapter|appendix|figure|fig\.?|table|tab\.?|equation|eqn?\.?|formula|listing|"
    + "|".join(w.lower() for w in THEOREM_WORDS)
)
_NUM_RX = r"\(?(?:[A-Z]|\d+)(?:[.\-](?:\d+|[A-Z]))*\)?"
#: A label as typed in an instruction ("Section 2.1", "fig. 3", "Equation (2)", "§4", "Appendix A").
LABEL_RX = rf"(?:(?:{_WORD_RX})\s*{_NUM_RX}(?![\w]))"
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "last": -1, "final": -1,
}
_PARA_WORDS = r"paragraph|para|item|list item|bullet(?: point)?|sentence"
#: Everything :func:`resolve_ref` can read, for grammars that need to bound a reference.
REF_RX = (
    rf"(?:{LABEL_RX}"
    rf"|(?:the\s+)?(?:{'|'.join(_ORDINALS)}|\d+(?:st|nd|rd|th))\s+(?:{_PARA_WORDS})\s+(?:of|in)\s+{LABEL_RX}"
    rf"|(?:{_PARA_WORDS})\s+\d+\s+(?:of|in)\s+{LABEL_RX}"
    rf"|(?:the\s+)?(?:{_PARA_WORDS}|text|line)\s+(?:that\s+|which\s+)?(?:start|begin|open|contain|mention)\w*(?:\s+with)?\s+.+?"
    r"|(?:this|the\s+current|the\s+selected)\s+(?:paragraph|section|unit|table|figure|caption|item|list item)"
    r"|the\s+selection|here|it|this"
    r"|the\s+(?:section|chapter)\s+(?:titled|called|named|headed)\s+.+?"
    r"|the\s+[\w\s\-]+?\s+section"
    r"|[a-z]+-[0-9a-f]{10}(?:-\d+)?)"
)


def normalise(text: str) -> str:
    """Text compared loosely: curly quotes straight, dashes plain, spaces collapsed, case folded."""
    table = {0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"', 0x2013: "-", 0x2014: "-", 0xA0: " "}
    return re.sub(r"\s+", " ", text.translate(table)).strip().casefold()


def label_key(label: str) -> tuple[str, str] | None:
    """A label reduced to (word, number): ``"Fig. 3"`` and ``"Figure 3"`` -> ``("Figure", "3")``.

    >>> label_key("Equation (3)"), label_key("§2.1"), label_key("appendix a")
    (('Equation', '3'), ('Section', '2.1'), ('Appendix', 'A'))
    """
    m = re.fullmatch(rf"\s*({_WORD_RX})\s*({_NUM_RX})\s*\.?", label.strip(), re.IGNORECASE)
    if not m:
        return None
    word = _WORDS[m.group(1).lower().rstrip(".")]
    num = m.group(2).strip("()").rstrip(".")
    if len(num) == 1 and num.isalpha():
        num = num.upper()
    if word == "Section" and num[:1].isalpha():
        word = "Appendix"
    return word, num


def _unit_keys(unit: Unit) -> set[tuple[str, str]]:
    keys = set()
    if unit.label and (k := label_key(unit.label)):
        keys.add(k)
    if unit.kind == "section" and unit.number:
        num = unit.number.strip().strip("()").rstrip(".")
        keys.add(("Appendix" if num[:1].isalpha() else "Section", num))
    if unit.kind == "caption" and (found := caption_label(unit.text)):
        keys.add(label_key(found[0]) or ("", ""))
    if unit.kind in ("paragraph", "list_item") and not unit.label and (found := leading_label(unit.text)):
        keys.add(label_key(found[0]) or ("", ""))
    return keys


def labels_in(doc: Document, word: str | None = None) -> list[str]:
    """The labels a document has (of one word, e.g. ``Figure``), for helpful error messages."""
    out = []
    for u in doc.units:
        for w, n in sorted(_unit_keys(u)):
            if w and (word is None or w == word):
                label = f"Equation ({n})" if w == "Equation" else f"{w} {n}"
                if label not in out:
                    out.append(label)
    return out


def group_of(doc: Document, units: list[Unit]) -> list[Unit]:
    """Labelled units plus the unlabelled figure or table their caption sits beside."""
    chosen = {u.id for u in units}
    flow = body_units(doc)
    pos = {u.id: i for i, u in enumerate(flow)}
    for u in units:
        if u.kind != "caption" or u.id not in pos:
            continue
        parent = doc.get(u.parent) if u.parent else None
        if parent is not None and parent.kind in ("figure", "table") and parent.id in chosen:
            continue
        i = pos[u.id]
        for j in (i - 1, i + 1):
            if 0 <= j < len(flow) and flow[j].kind in ("figure", "table") and not _unit_keys(flow[j]):
                chosen.add(flow[j].id)
                break
    return [u for u in doc.units if u.id in chosen]


def _typed_clause(doc: Document, key: tuple[str, str]) -> list[Unit]:
    """What a label names where a conversion left the numbers as text: a heading that types its
    number ("2. License Grants"), or a clause typed at a paragraph's start or numbered by a list
    ("2.1. Grants", "7. Additional Terms.") with the units after it, up to the next clause of
    its level or above (the graph's label index decides which unit answers to the label)."""
    family = "section" if key[0] in ("Section", "Appendix") else key[0].lower()
    uid = build_label_index(doc.units).resolve(family, key[1])
    if uid is None:
        return []
    head = doc.unit(uid)
    if family != "section" or head.kind == "section" or is_note(head):
        return [head]
    depth = key[1].count(".") + 1
    flow = body_units(doc)
    start = next(i for i, u in enumerate(flow) if u.id == uid)
    out = [head]
    for u in flow[start + 1 :]:
        levels = [num.count(".") + 1 for (fam, num), rank in unit_keys(u) if fam == "section" and rank >= 2]
        if u.kind == "section" or any(lvl <= depth for lvl in levels):
            break
        out.append(u)
    return out


def _by_label(doc: Document, text: str) -> list[Unit]:
    key = label_key(text)
    if key is None:
        return []
    hits = [u for u in doc.units if key in _unit_keys(u)] or _typed_clause(doc, key)
    if not hits:
        have = labels_in(doc, key[0])
        known = f"; the document has {', '.join(have[:12])}" if have else f"; the document has no {key[0].lower()} labels"
        raise UnknownUnitError(f"nothing in the document is labelled {text.strip()!r}{known}", label=text.strip())
    # a figure or table labelled like its caption is one group; keep the top-most units only
    ids = {u.id for u in hits}
    top = [u for u in hits if not (u.parent in ids)]
    return group_of(doc, top)


def _paragraphs(units: list[Unit]) -> list[Unit]:
    return [u for u in units if u.kind in ("paragraph", "list_item")]


def _by_text(doc: Document, how: str, text: str, scope: list[Unit] | None) -> list[Unit]:
    bare = text.strip().strip("'\"\u2018\u2019\u201c\u201d")
    needle = normalise(bare)
    pool = scope if scope is not None else [u for u in doc.units]
    pool = [u for u in pool if u.kind not in ("section", "figure", "table") and u.meta.get("absent_in") != "accepted"]
    if how == "start":
        hits = [u for u in pool if normalise(u.text).startswith(needle)]
    else:
        hits = [u for u in pool if needle in normalise(u.text)]
    what = "starts with" if how == "start" else "contains"
    if not hits:
        raise UnknownUnitError(f"no paragraph {what} '{bare}'")
    if len(hits) > 1:
        shown = "; ".join(f"{u.id}: {u.text[:60]!r}" for u in hits[:5])
        raise InvalidRequestError(
            f"{len(hits)} paragraphs {'start with' if how == 'start' else 'contain'} '{bare}' "
            f"({shown}); quote more of the text or add 'in Section N'",
            candidates=[u.id for u in hits],
        )
    return hits


def _need_target(doc: Document, target: str | None, what: str) -> Unit:
    if not target:
        raise InvalidRequestError(f"'{what}' needs the unit at the cursor (target), and none was given")
    unit = doc.get(target)
    if unit is None:
        raise UnknownUnitError(f"no unit has the id {target!r} (target)", unit=target)
    return unit


def resolve_ref(doc: Document, ref: str, *, target: str | None = None) -> list[Unit]:
    """The unit(s) a reference names, in document order (a figure with its caption is two units).

    Understands labels ("Section 2.1", "Fig. 3", "Equation (2)", "Theorem 1", "Appendix A"),
    "the paragraph starting with ..." / "containing ..." (optionally "in Section N"),
    "the first/2nd/last paragraph of Section N", "paragraph 3 of Section N",
    "the section titled ..." / "the Methods section", "this paragraph" / "this section" / "it"
    (the target at the cursor) and raw unit ids.

    :raise UnknownUnitError: nothing matches. :raise InvalidRequestError: several paragraphs match.
    """
    r = re.sub(r"\s+", " ", ref.strip().rstrip(".,;:"))
    low = r.lower()
    if doc.get(r) is not None:
        return [doc.unit(r)]
    if re.fullmatch(LABEL_RX, r, re.IGNORECASE):
        return _by_label(doc, r)
    m = re.fullmatch(
        rf"(?:the\s+)?(?:{_PARA_WORDS}|text|line)\s+(?:that\s+|which\s+)?(?P<how>start(?:s|ing)?|begin(?:s|ning)?|open(?:s|ing)?|contain(?:s|ing)?|mention(?:s|ing)?)"
        rf"(?:\s+with)?\s+(?P<text>.+?)(?:\s+(?:in|of|under|within)\s+(?P<scope>{LABEL_RX}))?",
        r, re.IGNORECASE,
    )
    if m:
        scope = None
        if m.group("scope"):
            scope = [u for g in _by_label(doc, m.group("scope")) for u in subtree(doc, g.id)]
        how = "start" if m.group("how").lower()[:3] in ("sta", "beg", "ope") else "contain"
        return _by_text(doc, how, m.group("text"), scope)
    m = re.fullmatch(
        rf"(?:the\s+)?(?:(?P<ord>{'|'.join(_ORDINALS)})|(?P<nth>\d+)(?:st|nd|rd|th))\s+(?:{_PARA_WORDS})\s+(?:of|in)\s+(?P<of>{LABEL_RX})"
        rf"|(?:{_PARA_WORDS})\s+(?P<num>\d+)\s+(?:of|in)\s+(?P<of2>{LABEL_RX})",
        r, re.IGNORECASE,
    )
    if m:
        of = m.group("of") or m.group("of2")
        n = _ORDINALS[m.group("ord").lower()] if m.group("ord") else int(m.group("nth") or m.group("num"))
        paras = _paragraphs([u for g in _by_label(doc, of) for u in subtree(doc, g.id)])
        if n == 0 or abs(n) > len(paras):
            raise UnknownUnitError(f"{of} has {len(paras)} paragraph(s); there is no {ref.strip()!r}")
        return [paras[n - 1 if n > 0 else n]]
    if low in ("this", "it", "here", "the selection") or re.fullmatch(
        r"(?:this|the current|the selected) (?:paragraph|unit|table|figure|caption|item|list item)", low
    ):
        return [_need_target(doc, target, r)]
    if re.fullmatch(r"(?:this|the current|the selected) section", low):
        unit = _need_target(doc, target, r)
        sec = enclosing_section(doc, unit)
        if sec is None:
            raise UnknownUnitError(f"the unit at the cursor ({unit.id}) is in no section")
        return [sec]
    m = re.fullmatch(r"the (?:section|chapter) (?:titled|called|named|headed) (?P<t>.+)|the (?P<t2>[\w\s\-]+?) section", r, re.IGNORECASE)
    if m:
        title = normalise((m.group("t") or m.group("t2")).strip("'\"\u2018\u2019\u201c\u201d"))
        hits = [u for u in doc.units if u.kind == "section" and normalise(u.title or u.text) == title]
        if not hits:
            hits = [u for u in doc.units if u.kind == "section" and normalise(u.title or u.text).endswith(title)]
        if len(hits) == 1:
            return hits
        if hits:
            raise InvalidRequestError(f"{len(hits)} sections are titled {title!r}", candidates=[u.id for u in hits])
        raise UnknownUnitError(f"no section is titled {title!r}")
    raise UnknownUnitError(f"cannot tell which unit {ref.strip()!r} names")


def last_of(doc: Document, units: list[Unit], exclude: set[str] | frozenset[str] = frozenset()) -> Unit:
    """The last unit of a group's subtrees in the main flow (where 'after it' begins)."""
    ids: set[str] = set()
    for u in units:
        ids |= descendant_ids(doc.units, u.id)
    return [u for u in doc.units if u.id in ids - exclude and not is_note(u)][-1]
