"""Element helpers for WordprocessingML tracked changes: split runs, wrap them, mark paragraph marks.

These speak XML only (runs, ``w:ins``/``w:del``, ``w:pPr``), never units or offsets into a
unit's text. Children are inserted in schema order from ``_SEQ`` tuples (ECMA-376 Part 1,
§17.13 for the revision elements; CT_PPr, CT_ParaRPr, CT_TrPr, CT_Settings for the order).
"""
from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator

from lxml import etree

from .oxml import qn
from .tags import (
    AUTHOR,
    DATE,
    ID,
    NAME,
    W_BR,
    W_DEL,
    W_DELINSTRTEXT,
    W_DELTEXT,
    W_INS,
    W_INSTRTEXT,
    W_MOVEFROM,
    W_MOVETO,
    W_NOBREAKHYPHEN,
    W_P,
    W_PPR,
    W_R,
    W_RPR,
    W_RPRCHANGE,
    W_SOFTHYPHEN,
    W_T,
    W_TAB,
    W_TRPR,
    W_VANISH,
    XML_SPACE,
)

__all__ = [
    "Stamp",
    "IdCounter",
    "used_ids",
    "insert_in_order",
    "split_run",
    "isolate",
    "to_deleted",
    "wrap_runs",
    "wrap_in_del",
    "make_ins",
    "make_run",
    "run_content",
    "mark_paragraph",
    "mark_row",
    "base_props",
    "same_props",
    "change_paragraph_props",
    "escape_revision",
    "range_marker",
    "clean_mark_rpr",
    "set_track_revisions",
    "REVISION_WRAPPERS",
    "PPR_SEQ",
    "SETTINGS_SEQ",
]

_XML_WS = " \t\r\n"
W_TRACKREVISIONS = qn("w:trackRevisions")
_VAL = qn("w:val")

#: Content-level revision containers: what an insertion or deletion wraps runs in.
REVISION_WRAPPERS = (W_INS, W_DEL, W_MOVEFROM, W_MOVETO)

#: CT_PPr children in schema order (``w:rPr`` holds the paragraph mark's revision).
PPR_SEQ = tuple(
    qn("w:" + t)
    for t in (
        "pStyle", "keepNext", "keepLines", "pageBreakBefore", "framePr", "widowControl", "numPr",
        "suppressLineNumbers", "pBdr", "shd", "tabs", "suppressAutoHyphens", "kinsoku", "wordWrap",
        "overflowPunct", "topLinePunct", "autoSpaceDE", "autoSpaceDN", "bidi", "adjustRightInd",
        "snapToGrid", "spacing", "ind", "contextualSpacing", "mirrorIndents", "suppressOverlap", "jc",
        "textDirection", "textAlignment", "textboxTightWrap", "outlineLvl", "divId", "cnfStyle", "rPr",
        "sectPr", "pPrChange",
    )
)
#: CT_ParaRPr: the mark's revisions come first, then the run properties, then rPrChange.
PARA_RPR_SEQ = (W_INS, W_DEL, W_MOVEFROM, W_MOVETO)
#: CT_TrPr: the base row properties, then ins, del, trPrChange.
TRPR_SEQ = tuple(
    qn("w:" + t)
    for t in (
        "cnfStyle", "divId", "gridBefore", "gridAfter", "wBefore", "wAfter", "cantSplit", "trHeight",
        "tblHeader", "tblCellSpacing", "jc", "hidden", "ins", "del", "trPrChange",
    )
)
_TR_SEQ = (qn("w:tblPrEx"), W_TRPR)
#: CT_Settings up to and around ``w:trackRevisions``.
SETTINGS_SEQ = tuple(
    qn("w:" + t)
    for t in (
        "writeProtection", "view", "zoom", "removePersonalInformation", "removeDateAndTime",
        "doNotDisplayPageBoundaries", "displayBackgroundShape", "printPostScriptOverText",
        "printFractionalCharacterWidth", "printFormsData", "embedTrueTypeFonts", "embedSystemFonts",
        "saveSubsetFonts", "saveFormsData", "mirrorMargins", "alignBordersAndEdges",
        "bordersDoNotSurroundHeader", "bordersDoNotSurroundFooter", "gutterAtTop", "hideSpellingErrors",
        "hideGrammaticalErrors", "activeWritingStyle", "proofState", "formsDesign", "attachedTemplate",
        "linkStyles", "stylePaneFormatFilter", "stylePaneSortMethod", "documentType", "mailMerge",
        "revisionView", "trackRevisions", "doNotTrackMoves", "doNotTrackFormatting", "documentProtection",
        "autoFormatOverride", "styleLockTheme", "styleLockQFSet", "defaultTabStop",
    )
)

_ID_ATTR = re.compile(rb':id="(\d{1,10})"')


_MAX_ID = 2**31 - 1  # ST_DecimalNumber is a 32-bit signed integer


class IdCounter:
    """Hands out ``w:id`` values no element of the package uses: above the largest one, or,
    when that would leave the 32-bit range, the smallest unused ones.

    >>> ids = IdCounter({0, 1, 5})
    >>> ids(), ids()
    ('6', '7')
    >>> ids = IdCounter({0, 2, 2**31 - 1})
    >>> ids(), ids()
    ('1', '3')
    """

    def __init__(self, used: set[int]) -> None:
        start = max(used, default=-1) + 1
        if start < _MAX_ID - 1_000_000:
            self._it: Iterator[int] = itertools.count(start)
        else:
            self._it = (i for i in itertools.count(0) if i not in used)

    def __call__(self) -> str:
        return str(next(self._it))


def used_ids(roots: Iterable[Any], raw_parts: Iterable[bytes] = ()) -> set[int]:
    """Every numeric ``w:id`` in the given trees and raw XML parts.

    Revision ids (``w:ins``, ``w:del``, moves and their ranges, ``w:rPrChange``...) share one
    space; taking every ``w:id`` (bookmarks and comments too) is the safe superset.
    """
    out: set[int] = set()
    for root in roots:
        for el in root.iter():
            val = el.get(ID) if isinstance(el.tag, str) else None
            if val is not None and val.isdigit():
                out.add(int(val))
    for raw in raw_parts:
        out.update(int(m.group(1)) for m in _ID_ATTR.finditer(raw))
    return out


@dataclass
class Stamp:
    """Who and when: the attributes every revision element of one edit carries."""

    author: str
    date: str | None
    ids: IdCounter = field(repr=False, default_factory=lambda: IdCounter(set()))
    #: every revision element made with this stamp (where a comment on the edit is anchored)
    made: list[Any] = field(repr=False, default_factory=list, compare=False)

    def attrs(self) -> dict[str, str]:
        out = {ID: self.ids(), AUTHOR: self.author}
        if self.date:
            out[DATE] = self.date
        return out

    def element(self, tag: str) -> Any:
        """A new revision element (``w:ins``, ``w:del``...) with a fresh id, author and date."""
        el = etree.Element(tag)
        for k, v in self.attrs().items():
            el.set(k, v)
        self.made.append(el)
        return el


# --- order ------------------------------------------------------------------------------------


def insert_in_order(parent, child, seq: tuple[str, ...]) -> Any:
    """Insert ``child`` into ``parent`` after the last child that precedes it in ``seq``.

    Children not named in ``seq`` (extensions) never count as predecessors, so an element
    lands before them when nothing of the sequence precedes it.
    """
    rank = seq.index(child.tag)
    before = set(seq[:rank])
    pos = 0
    for i, ch in enumerate(parent):
        if ch.tag in before:
            pos = i + 1
    parent.insert(pos, child)
    return child


def _get_or_add(parent, tag: str, seq: tuple[str, ...]) -> Any:
    el = parent.find(tag)
    if el is None:
        el = insert_in_order(parent, etree.Element(tag), seq)
    return el


# --- runs -------------------------------------------------------------------------------------


def _preserve(t) -> None:
    text = t.text or ""
    if text and (text[0] in _XML_WS or text[-1] in _XML_WS):
        t.set(XML_SPACE, "preserve")


def _normalise_t(t) -> None:
    """Drop the edge whitespace Word ignores in a ``w:t`` without ``xml:space="preserve"``."""
    if t.get(XML_SPACE) != "preserve" and t.text:
        t.text = t.text.strip(_XML_WS)


def _new_run_like(r) -> Any:
    new = etree.Element(r.tag, dict(r.attrib))
    rpr = r.find(W_RPR)
    if rpr is not None:
        new.append(copy.deepcopy(rpr))
    return new


def split_run(r, child, offset: int) -> Any:
    """Split ``w:r`` before character ``offset`` of ``child`` (a ``w:t``) or before/after another child.

    For a ``w:t``, ``offset`` counts characters of its text; for any other child, 0 splits
    before it and 1 after it. ``r`` keeps what comes before (its ``w:rPr`` stays); the returned
    new run, inserted right after ``r`` with a copy of ``w:rPr``, holds the rest. Returns
    ``None`` when the split point is at an end of the run (nothing to split).
    """
    kids = [c for c in r if c.tag != W_RPR]
    idx = kids.index(child)
    if child.tag in (W_T, W_DELTEXT):
        text = child.text or ""
        if 0 < offset < len(text):
            right = _new_run_like(r)
            tail = etree.SubElement(right, child.tag)
            tail.text = text[offset:]
            child.text = text[:offset]
            _preserve(child)
            _preserve(tail)
            for c in kids[idx + 1 :]:
                right.append(c)
            r.addnext(right)
            return right
        after = idx + 1 if offset >= len(text) else idx
    else:
        after = idx + (1 if offset else 0)
    if after <= 0 or after >= len(kids):
        return None
    right = _new_run_like(r)
    for c in kids[after:]:
        right.append(c)
    r.addnext(right)
    return right


def isolate(el, start: int | None = None, end: int | None = None) -> Any:
    """The ``w:r`` that holds exactly ``el`` (or characters ``start..end`` of a ``w:t``), split out of its run.

    Offsets count the ``w:t``'s raw text. Without ``xml:space="preserve"`` its ignorable edge
    whitespace is dropped first (offsets are adjusted), so that splitting never makes it visible.
    """
    r = el.getparent()
    if r is None or r.tag != W_R:
        raise ValueError("the element is not directly inside a run")
    if el.tag == W_T and start is not None and end is not None:
        raw = el.text or ""
        if el.get(XML_SPACE) != "preserve":
            lead = len(raw) - len(raw.lstrip(_XML_WS))
            _normalise_t(el)
            start, end = max(0, start - lead), max(0, end - lead)
            end = min(end, len(el.text or ""))
        right = split_run(r, el, end)  # noqa: F841  (the tail run, left in place)
        mid = split_run(r, el, start)
        return mid if mid is not None else r
    split_run(r, el, 1)
    mid = split_run(r, el, 0)
    return mid if mid is not None else r


def to_deleted(r) -> Any:
    """Turn a run's ``w:t``/``w:instrText`` into ``w:delText``/``w:delInstrText`` (for a ``w:del``).

    Edge whitespace Word ignores (a ``w:t`` without ``xml:space="preserve"``) is dropped, not
    preserved: a rejected deletion must show what the paragraph showed before.
    """
    for el in r:
        if el.tag == W_T or el.tag == W_INSTRTEXT:
            if el.tag == W_T:
                _normalise_t(el)
            el.tag = W_DELTEXT if el.tag == W_T else W_DELINSTRTEXT
            _preserve(el)
    return r


def wrap_runs(runs: list[Any], tag: str, stamp: Stamp) -> list[Any]:
    """Wrap runs in revision elements of ``tag``: one per stretch of adjacent siblings."""
    out: list[Any] = []
    group: list[Any] = []

    def flush() -> None:
        if group:
            wrapper = stamp.element(tag)
            group[0].addprevious(wrapper)
            for r in group:
                wrapper.append(r)
            out.append(wrapper)
            group.clear()

    for r in runs:
        if group and group[-1].getnext() is not r:
            flush()
        group.append(r)
    flush()
    return out


def wrap_in_del(runs: list[Any], stamp: Stamp, tag: str = W_DEL) -> list[Any]:
    """``w:del`` (or ``w:moveFrom``) around runs whose text becomes ``w:delText``."""
    for r in runs:
        to_deleted(r)
    return wrap_runs(runs, tag, stamp)


_SPECIAL = {"\t": W_TAB, "\u2028": W_BR, "\u2011": W_NOBREAKHYPHEN, "\u00ad": W_SOFTHYPHEN}
_SPECIAL_RX = re.compile("([\t\u2028\u2011\u00ad])")


def run_content(text: str) -> list[Any]:
    """The run children that show ``text``: ``w:t`` pieces, ``w:tab``, ``w:br``, hyphens."""
    out = []
    for piece in _SPECIAL_RX.split(text):
        if not piece:
            continue
        tag = _SPECIAL.get(piece)
        if tag is not None:
            out.append(etree.Element(tag))
        else:
            t = etree.Element(W_T)
            t.text = piece
            _preserve(t)
            out.append(t)
    return out


def make_run(text: str, rpr=None) -> Any:
    """A ``w:r`` showing ``text`` with a copy of ``rpr`` (or none)."""
    r = etree.Element(W_R)
    if rpr is not None:
        r.append(copy.deepcopy(rpr))
    for c in run_content(text):
        r.append(c)
    return r


def make_ins(text: str, rpr, stamp: Stamp, tag: str = W_INS) -> Any:
    """``<w:ins><w:r>text</w:r></w:ins>`` (or ``w:moveTo``), the run formatted by ``rpr``."""
    wrapper = stamp.element(tag)
    wrapper.append(make_run(text, rpr))
    return wrapper


def clean_mark_rpr(rpr) -> Any:
    """A copy of run properties fit for new text: no revision marks, no format change, not hidden."""
    if rpr is None:
        return None
    out = copy.deepcopy(rpr)
    out.tag = W_RPR
    for ch in list(out):
        if ch.tag in PARA_RPR_SEQ or ch.tag in (W_RPRCHANGE, W_VANISH):
            out.remove(ch)
    return out if len(out) else None


# --- paragraph marks, rows, ranges ------------------------------------------------------------


def mark_paragraph(p, tag: str, stamp: Stamp) -> Any:
    """Mark a ``w:p``'s paragraph mark as inserted/deleted/moved: ``w:pPr/w:rPr/<tag>``."""
    ppr = p.find(W_PPR)
    if ppr is None:
        ppr = etree.Element(W_PPR)
        p.insert(0, ppr)
    rpr = _get_or_add(ppr, W_RPR, PPR_SEQ)
    el = stamp.element(tag)
    return insert_in_order(rpr, el, PARA_RPR_SEQ)


def mark_row(tr, tag: str, stamp: Stamp) -> Any:
    """Mark a table row inserted or deleted: ``w:trPr/w:ins`` or ``w:trPr/w:del``."""
    trpr = _get_or_add(tr, W_TRPR, _TR_SEQ)
    return insert_in_order(trpr, stamp.element(tag), TRPR_SEQ)


_NOT_BASE = (W_RPR, qn("w:sectPr"), qn("w:pPrChange"))


def base_props(p) -> list[Any]:
    """The paragraph properties of a ``w:p`` that a ``w:pPrChange`` records (CT_PPrBase: no mark
    run properties, no section, no change)."""
    ppr = p.find(W_PPR)
    return [] if ppr is None else [ch for ch in ppr if isinstance(ch.tag, str) and ch.tag not in _NOT_BASE]


def same_props(a: list[Any], b: list[Any]) -> bool:
    """Whether two lists of property elements are equal, element for element."""
    return [etree.tostring(x) for x in a] == [etree.tostring(x) for x in b]


def change_paragraph_props(p, new_base: list[Any] | None, old_base: list[Any], stamp: Stamp) -> bool:
    """A tracked paragraph-property change: ``w:pPr`` gets ``new_base`` (None: keeps its own) and a
    ``w:pPrChange`` holding ``old_base``. False (nothing done) when a change is already there."""
    ppr = p.find(W_PPR)
    if ppr is None:
        ppr = etree.Element(W_PPR)
        p.insert(0, ppr)
    if ppr.find(qn("w:pPrChange")) is not None:
        return False
    if new_base is not None:
        for ch in base_props(p):
            ppr.remove(ch)
        for ch in reversed(new_base):
            ppr.insert(0, copy.deepcopy(ch))
    change = stamp.element(qn("w:pPrChange"))
    old = etree.SubElement(change, W_PPR)
    for ch in old_base:
        old.append(copy.deepcopy(ch))
    insert_in_order(ppr, change, PPR_SEQ)
    return True


def range_marker(tag: str, stamp: Stamp | None, rid: str, name: str | None = None) -> Any:
    """A ``w:moveFromRangeStart``/``End`` (or moveTo) marker; starts carry author, date and name."""
    el = etree.Element(tag)
    el.set(ID, rid)
    if stamp is not None:
        el.set(AUTHOR, stamp.author)
        if stamp.date:
            el.set(DATE, stamp.date)
    if name is not None:
        el.set(NAME, name)
    return el


def _ancestors_until_paragraph(el) -> Iterator[Any]:
    for anc in el.iterancestors():
        if anc.tag == W_P:
            return
        yield anc


def escape_revision(el, stamp: Stamp) -> Any:
    """Move a new ``w:ins`` out of an enclosing insertion (someone else's ``w:ins``/``w:moveTo``).

    An insertion inside another insertion is not nested: the outer one is split around it
    (the second half gets a fresh id, same author and date), so both stay intact.
    """
    parent = el.getparent()
    while parent is not None and parent.tag in (W_INS, W_MOVETO):
        if el.getprevious() is None:
            parent.addprevious(el)
        elif el.getnext() is None:
            parent.addnext(el)
        else:
            tail = etree.Element(parent.tag, dict(parent.attrib))
            tail.set(ID, stamp.ids())
            for sib in list(el.itersiblings()):
                tail.append(sib)
            parent.addnext(tail)
            parent.addnext(el)
        parent = el.getparent()
    return el


# --- settings ---------------------------------------------------------------------------------


def set_track_revisions(settings) -> bool:
    """Turn ``w:trackRevisions`` on in a ``w:settings`` root; False when it already was on."""
    el = settings.find(W_TRACKREVISIONS)
    if el is not None:
        val = el.get(_VAL)
        if val is None or val in ("1", "true", "on"):
            return False
        del el.attrib[_VAL]
        return True
    insert_in_order(settings, etree.Element(W_TRACKREVISIONS), SETTINGS_SEQ)
    return True
