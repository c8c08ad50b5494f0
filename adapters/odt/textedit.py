"""Tracked edits inside one paragraph: a span of its text deleted, new text inserted.

Offsets are those of the paragraph's accepted text as the reader's walk
(:func:`adapters.odt.textmap.paragraph_segments`) builds it; this module maps them back to
XML through the walk's segments. Conventions follow what LibreOffice writes:

* the deleted content moves into a ``text:changed-region/text:deletion`` as a paragraph
  (a shallow copy of the edited one) holding the original spans, and a ``text:change``
  marks the place; spans cut by the edit are split around the marker;
* inserted text sits between ``text:change-start`` and ``text:change-end``, in the spans of
  the text it replaces (or of the text it follows);
* another author's deletion is never edited: a deleted span that contains its
  ``text:change`` point is cut in two around it; text that another author inserted may be
  deleted: LibreOffice's stacked form (a region with the ``text:deletion`` and a copy of the
  ``text:insertion``) is written and the other author's region is split around the edit;
* fields and note citations are atoms: an edit may remove one whole, never cut into it;
  a new cached result of a field (a reference renumbered) is written as the field deleted
  and a copy of it, showing the new result, inserted (``field=`` of
  :func:`replace_in_paragraph`), so the field survives Accept All;
* bookmarks, reference marks, index marks, comments and frames inside a deleted span stay
  in the text (they move to the deletion point).

Before a paragraph is edited its white space is respelled canonically (each shown space is
a literal space after a non-space, or a ``text:s``); the paragraph then shows the same text,
and an edit can never make dropped white space reappear.
"""
from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from ..errors import AdapterError, AnchorError
from .revision_xml import (
    CHANGE,
    CHANGE_END,
    CHANGE_START,
    Item,
    append_items,
    detach,
    hoist,
    insert_after,
    insert_at,
    insert_before,
    insert_items,
    marker,
    nested_copies,
    shallow_copy,
    split_space,
    take_between,
    text_items,
)
from .odfxml import prefixed, qn
from .textmap import FIELD_KINDS, rejected_segments, walk_paragraph
from .tracking import Tracker

__all__ = [
    "replace_in_paragraph", "canonicalize", "atom_spans", "field_atoms", "spell_space_at", "MILESTONE", "KEEP_OUT",
    "SPLITTABLE", "rewritable",
]

#: A temporary element that marks a place while the tree is cut; never written out.
MILESTONE = "ledger-milestone"

_NOTE = qn("text:note")
_ATOMS = frozenset(FIELD_KINDS) | {_NOTE}
#: Inline wrappers an edit may split in two (their formatting is copied to both halves).
SPLITTABLE = frozenset({qn("text:span"), qn("text:a"), qn("text:meta")})
_S = qn("text:s")
_DRAW_NS = "{" + qn("draw:x")[1:].partition("}")[0] + "}"
#: Zero-width elements that a deletion leaves in the text (moved to the deletion point).
KEEP_OUT = frozenset(
    qn(f"text:{n}")
    for n in (
        "bookmark", "bookmark-start", "bookmark-end", "reference-mark", "reference-mark-start",
        "reference-mark-end", "toc-mark", "toc-mark-start", "toc-mark-end", "alphabetical-index-mark",
        "alphabetical-index-mark-start", "alphabetical-index-mark-end", "user-index-mark",
        "user-index-mark-start", "user-index-mark-end",
    )
) | {qn("office:annotation"), qn("office:annotation-end")}
_MARKER_EVENTS = ("change", "change-start", "change-end")


def _keep_out(el: Any) -> bool:
    tag = el.tag
    return isinstance(tag, str) and (tag in KEEP_OUT or tag.startswith(_DRAW_NS))


def _milestone() -> etree._Element:
    return etree.Element(MILESTONE)


# -- white space ----------------------------------------------------------------------------


def canonicalize(t: Tracker, p: etree._Element) -> None:
    """Respell the strings of ``p`` as the text they show (same text shown, no dropped spaces).

    Runs of white space that show as one space become one literal space; white space that
    shows nothing is removed. Strings the walk does not read (note bodies, comments, frames)
    are left alone.
    """
    w = t.walk(p, record=True)
    shown: dict[tuple[Any, str], list[str]] = {}
    for seg in w.segments:
        if seg.slot != "self":
            shown.setdefault((seg.node, seg.slot), []).append(seg.text)
    for node, slot in w.slots or ():
        new = "".join(shown.get((node, slot), ())) or None
        if getattr(node, slot) != new:
            setattr(node, slot, new)


def _spell_space(segs: list, offs: list[int], x: int) -> None:
    """Make the literal space shown at offset ``x`` a ``text:s`` (it would collapse otherwise)."""
    i = _seg_index(offs, segs, x)
    seg = segs[i]
    if seg.slot == "self" or seg.field is not None:
        return
    raw = seg.start + (x - offs[i])
    s = getattr(seg.node, seg.slot) or ""
    if raw >= len(s) or s[raw] != " ":
        return
    setattr(seg.node, seg.slot, (s[:raw] + s[raw + 1 :]) or None)
    insert_at(seg.node, seg.slot, raw, etree.Element(_S))


def spell_space_at(t: Tracker, p: etree._Element, x: int) -> None:
    """Spell the space shown at offset ``x`` of ``p`` as ``text:s`` (``p`` canonical first)."""
    canonicalize(t, p)
    segs = t.walk(p).segments
    _spell_space(segs, _offsets(segs), x)


# -- offsets to places ----------------------------------------------------------------------


def _offsets(segs: list) -> list[int]:
    out, pos = [], 0
    for seg in segs:
        out.append(pos)
        pos += len(seg.text)
    return out


def _seg_index(offs: list[int], segs: list, x: int) -> int:
    """Index of the segment that holds character ``x``."""
    lo, hi = 0, len(offs) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if offs[mid] <= x:
            lo = mid
        else:
            hi = mid - 1
    if not (offs[lo] <= x < offs[lo] + len(segs[lo].text)):
        raise AdapterError(f"offset {x} is outside the paragraph text")
    return lo


def _atom(p: etree._Element, el: Any) -> Any:
    """The outermost field or note around ``el`` inside ``p`` (``None`` when there is none)."""
    top = None
    node = el
    while node is not None and node is not p:
        if node.tag in _ATOMS:
            top = node
        node = node.getparent()
    return top


def _atom_span(p, segs, offs, i) -> tuple[Any, int, int]:
    atom = _atom(p, segs[i].field)
    j = i
    while j > 0 and segs[j - 1].field is not None and _atom(p, segs[j - 1].field) is atom:
        j -= 1
    k = i
    while k + 1 < len(segs) and segs[k + 1].field is not None and _atom(p, segs[k + 1].field) is atom:
        k += 1
    return atom, offs[j], offs[k] + len(segs[k].text)


def atom_spans(t: Tracker, p: etree._Element) -> list[tuple[int, int]]:
    """The ``(start, end)`` of every field and note citation shown in ``p`` (edits keep them whole)."""
    return [(start, end) for start, end, _ in field_atoms(t, p)]


def field_atoms(t: Tracker, p: etree._Element) -> list[tuple[int, int, Any]]:
    """Every field and note citation shown in ``p``: ``(start, end, element)``."""
    segs = t.walk(p).segments
    offs = _offsets(segs)
    out: list[tuple[int, int, Any]] = []
    i = 0
    while i < len(segs):
        if segs[i].field is None:
            i += 1
            continue
        atom, start, end = _atom_span(p, segs, offs, i)
        out.append((start, end, atom))
        while i < len(segs) and offs[i] < end:
            i += 1
    return out


def rewritable(atom: Any) -> bool:
    """Whether a new result of this atom may be written as a copy of it (a field, not a note)."""
    return atom is not None and atom.tag != _NOTE


def _cut_error(atom: Any) -> AnchorError:
    return AnchorError(f"the edit would cut into {prefixed(atom.tag)}; an edit may replace a field or note whole, not part of it")


def _mark_before(p, segs, offs, x) -> etree._Element:
    """A milestone right before character ``x`` (after any zero-width element before it)."""
    i = _seg_index(offs, segs, x)
    seg = segs[i]
    m = _milestone()
    if seg.field is not None:
        atom, start, _ = _atom_span(p, segs, offs, i)
        if x != start:
            raise _cut_error(atom)
        insert_before(atom, m)
        return m
    k = x - offs[i]
    if seg.slot == "self":
        if k == 0:
            insert_before(seg.node, m)
        else:
            insert_before(split_space(seg.node, k), m)
        return m
    insert_at(seg.node, seg.slot, seg.start + k if len(seg.text) == seg.end - seg.start else seg.start, m)
    return m


def _mark_after(p, segs, offs, y) -> etree._Element:
    """A milestone right after character ``y - 1`` (before any zero-width element after it)."""
    i = _seg_index(offs, segs, y - 1)
    seg = segs[i]
    m = _milestone()
    if seg.field is not None:
        atom, _, end = _atom_span(p, segs, offs, i)
        if y != end:
            raise _cut_error(atom)
        insert_after(atom, m)
        return m
    k = y - 1 - offs[i]
    if seg.slot == "self":
        if k == len(seg.text) - 1:
            insert_after(seg.node, m)
        else:
            insert_before(split_space(seg.node, k + 1), m)
        return m
    raw = seg.start + k + 1 if len(seg.text) == seg.end - seg.start else seg.end
    insert_at(seg.node, seg.slot, raw, m)
    return m


def _common_ancestor(a: etree._Element, b: etree._Element) -> etree._Element:
    seen = {id(a)}
    seen.update(id(x) for x in a.iterancestors())
    node = b
    while id(node) not in seen:
        node = node.getparent()
    return node


# -- deletion -------------------------------------------------------------------------------


def _pieces(w, offs: list[int], a: int, b: int) -> list[tuple[int, int, str | None]]:
    """Cut ``[a, b)`` where another author's insertion or format change starts or ends, and at
    every change marker inside it; each piece lies in one such region or in none."""
    cuts = {a, b}
    for ev in w.events:
        if ev.kind in _MARKER_EVENTS and a < ev.start < b:
            cuts.add(ev.start)
    keys: dict[int, str | None] = {}
    for seg, off in zip(w.segments, offs):
        end = off + len(seg.text)
        if end <= a or off >= b:
            continue
        key = seg.change if seg.change_kind in ("insertion", "format-change") else None
        start = max(off, a)
        keys[start] = key
        cuts.add(start)
    points = sorted(cuts)
    out: list[tuple[int, int, str | None]] = []
    current: str | None = None
    for x, y in zip(points, points[1:]):
        current = keys.get(x, current)
        if out and out[-1][2] == current and out[-1][1] == x and not _marker_at(w, x):
            out[-1] = (out[-1][0], y, current)
        else:
            out.append((x, y, current))
    return out


def _marker_at(w, x: int) -> bool:
    return any(ev.kind in _MARKER_EVENTS and ev.start == x for ev in w.events)


def _pull_keepers(items: list[Item]) -> tuple[list[Item], list[etree._Element]]:
    """Take the zero-width elements that must stay in the text out of cut content."""
    kept: list[etree._Element] = []
    rest: list[Item] = []
    for item in items:
        if isinstance(item, str):
            rest.append(item)
            continue
        if _keep_out(item):
            kept.append(item)
            continue
        if item.tag in _ATOMS:  # a field or note goes whole, with whatever it holds
            rest.append(item)
            continue
        inner = [d for d in item.iterdescendants() if _keep_out(d) and not _sheltered(d, item)]
        for d in inner:
            detach(d)
            kept.append(d)
        rest.append(item)
    return rest, kept


def _sheltered(d: etree._Element, top: etree._Element) -> bool:
    """Inside another kept element, a field or a note (they keep what they hold)."""
    for anc in d.iterancestors():
        if anc is top:
            return False
        if _keep_out(anc) or anc.tag in _ATOMS:
            return True
    return False




def _fix_region_start(t: Tracker, rp: etree._Element, expected: str) -> None:
    """A deleted text that starts with a space shows it at the start of its own paragraph."""
    w = walk_paragraph(rp, t.ctx, None, record=True)
    shown = "".join(s.text for s in w.segments)
    if shown == expected:
        return
    if expected.startswith(" ") and shown == expected[1:] and w.slots:
        node, slot = w.slots[0]
        s = getattr(node, slot) or ""
        if s.startswith(" "):
            setattr(node, slot, s[1:] or None)
            insert_at(node, slot, 0, etree.Element(_S))
            shown = "".join(s.text for s in walk_paragraph(rp, t.ctx).segments)
    if shown != expected:
        raise AdapterError(f"internal error: deleted text {expected!r} would read {shown!r}")


def _delete_piece(
    t: Tracker, p, x: int, y: int, foreign: str | None, author, date, tracking: bool
) -> tuple[etree._Element, list[etree._Element]]:
    """Delete ``[x, y)`` (one piece); return the place marker and the wrappers of its start."""
    w = t.walk(p)
    segs = w.segments
    offs = _offsets(segs)
    expected = "".join(s.text for s in segs)[x:y]
    mb = _mark_after(p, segs, offs, y)
    ma = _mark_before(p, segs, offs, x)
    lca = _common_ancestor(ma.getparent(), mb.getparent())
    fmt: list[etree._Element] = []
    node = ma.getparent()
    while node is not lca:
        fmt.append(node)
        node = node.getparent()
    wrap: list[etree._Element] = []
    node = lca
    while node is not p:
        wrap.append(node)
        node = node.getparent()
    try:
        hoist(ma, lca, SPLITTABLE)
        hoist(mb, lca, SPLITTABLE)
    except ValueError as exc:
        raise AnchorError(f"the edit cuts an element that cannot be split ({exc})") from None
    items = take_between(ma, mb)
    items, kept = _pull_keepers(items)
    for el in kept:
        insert_before(ma, el)
    if not tracking:
        detach(mb)
        t.touch()
        return ma, fmt
    region = t.ctx.changes.get(foreign) if foreign else None
    # (the author of the insertion is read before the split may drop its emptied region)
    info = copy.deepcopy(t.info(foreign)) if foreign and region is not None and region.kind == "insertion" else None
    if foreign and region is not None:
        t.split_region(foreign, ma, mb)
    rp, inner = nested_copies(p, wrap)
    append_items(inner, items)
    _fix_region_start(t, rp, expected)
    rid = t.region("deletion", author, date, [rp], inserted_info=info)
    mk = marker(CHANGE, rid)
    insert_after(ma, mk)
    detach(ma)
    detach(mb)
    t.touch()
    return mk, fmt


# -- insertion ------------------------------------------------------------------------------


#: Ends of ranges that text typed right after them does not join.
_RANGE_ENDS = frozenset({CHANGE_END} | {qn(f"text:{n}-end") for n in (
    "bookmark", "reference-mark", "toc-mark", "alphabetical-index-mark", "user-index-mark")})


def _insertion_spot(p, segs, offs, a: int) -> etree._Element:
    """A milestone where text typed at offset ``a`` goes: after the character before it
    (in its spans), past the ends of changes, bookmarks and marks that close there."""
    if not segs:
        m = _milestone()
        p.append(m)
        return m
    if a == 0:
        return _mark_before(p, segs, offs, 0)
    m = _mark_after(p, segs, offs, a)
    while not m.tail and m.getnext() is not None and m.getnext().tag in _RANGE_ENDS:
        nxt = m.getnext()
        detach(m)
        insert_after(nxt, m)
    return m


def _insert(t: Tracker, p, spot, fmt, text: str, after_space: bool, author, date, tracking: bool,
            field: Any = None) -> None:
    items = text_items(text, after_space)
    if field is not None:  # the field again, showing the new text
        el = shallow_copy(field)
        append_items(el, items)
        items = [el]
    payload: list[Item]
    if fmt:
        outer, inner = nested_copies(fmt[-1], fmt[:-1])
        append_items(inner, items)
        payload = [outer]
    else:
        payload = items
    if not tracking:
        insert_items(spot, payload)
        return
    open_ = [r for r in t.open_at(p, spot) if t.ctx.change_kinds.get(r) in ("insertion", "format-change")]
    rid = t.region("insertion", author, date)
    cs, ce = marker(CHANGE_START, rid), marker(CHANGE_END, rid)
    insert_items(spot, [cs, *payload, ce])
    for r in open_:
        t.split_region(r, cs, ce)
    t.touch()


# -- the edit -------------------------------------------------------------------------------


def replace_in_paragraph(
    t: Tracker,
    p: etree._Element,
    a: int,
    b: int,
    text: str,
    author: str | None,
    date: str | None,
    tracking: bool = True,
    field: Any = None,
) -> None:
    """Replace ``[a, b)`` of the paragraph's accepted text by ``text`` as tracked changes.

    With ``tracking=False`` the edit is made in place (for copies that are inserted whole).
    ``field`` (the field element that ``[a, b)`` spans exactly) makes the inserted text the
    new result of a copy of that field.

    :raise AnchorError: the span cuts into a field, a note citation or an element that
        cannot be split.
    :raise AdapterError: the result would not read as intended (an internal check).
    """
    with t.local(p):
        _replace_in_paragraph(t, p, a, b, text, author, date, tracking, field)


def _replace_in_paragraph(t: Tracker, p: etree._Element, a: int, b: int, text: str, author: str | None,
                          date: str | None, tracking: bool, field: Any) -> None:
    canonicalize(t, p)
    w = t.walk(p)
    cur = "".join(s.text for s in w.segments)
    if not 0 <= a <= b <= len(cur):
        raise AnchorError(f"span {a}..{b} is outside the paragraph text ({len(cur)} characters)")
    if a == b and not text:
        return
    rejected_before = "".join(s.text for s in rejected_segments(w, t.ctx)) if tracking else None
    if b < len(cur) and cur[b] == " ":
        ends_in_space = text.endswith(" ") if text else (a == 0 or cur[a - 1] == " ")
        if ends_in_space:
            _spell_space(w.segments, _offsets(w.segments), b)
            w = t.walk(p)
    spot: etree._Element | None = None
    fmt: list[etree._Element] = []
    if a < b:
        for x, y, foreign in reversed(_pieces(w, _offsets(w.segments), a, b)):
            spot, fmt = _delete_piece(t, p, x, y, foreign, author, date, tracking)
    if text:
        if spot is None:
            segs = t.walk(p).segments
            spot = _insertion_spot(p, segs, _offsets(segs), a)
            fmt = []
        _insert(t, p, spot, fmt, text, a == 0 or cur[a - 1] == " ", author, date, tracking, field)
    if spot is not None and spot.tag == MILESTONE:
        detach(spot)
    w = t.walk(p)
    got = "".join(s.text for s in w.segments)
    want = cur[:a] + text + cur[b:]
    if got != want:
        raise AdapterError(f"internal error: the edited paragraph would read {got!r}, not {want!r}")
    if tracking:
        rejected = "".join(s.text for s in rejected_segments(w, t.ctx))
        if rejected != rejected_before:
            raise AdapterError(f"internal error: the original text would read {rejected!r}, not {rejected_before!r}")
