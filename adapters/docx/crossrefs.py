"""Links between units, made once all units exist: bookmarks, field targets, captions, comments."""
from __future__ import annotations

from ..model import Bookmark, Comment, Unit
from ..vocabulary import OUTSIDE_FLOW_KINDS

__all__ = ["attach_bookmarks", "resolve_targets", "link_captions", "collect_comments"]


def attach_bookmarks(units: list[Unit], events: list[tuple[int, tuple]]) -> dict[str, int]:
    """Attach bookmarks to the units they span; return name -> index of the starting unit.

    ``events`` are ``(unit index, ("bm_start", part, id, name, offset))`` and
    ``(unit index, ("bm_end", part, id, offset))`` in document order. A bookmark over several
    units is recorded on each of them (to the end of the first, from the start of the last).
    """
    open_: dict[tuple[str, str | None], tuple[str, int, int]] = {}
    starts: dict[str, int] = {}
    for index, ev in events:
        off = min(ev[-1], len(units[index].text))  # a figure's text is its alt text
        if ev[0] == "bm_start":
            _, part, bid, name, _off = ev
            if not name or name == "_GoBack":
                continue
            open_[(part, bid)] = (name, index, off)
            starts.setdefault(name, index)
        else:
            _, part, bid, _off = ev
            hit = open_.pop((part, bid), None)
            if hit is None:
                continue
            name, sidx, soff = hit
            if sidx == index:
                units[index].bookmarks.append(Bookmark(name, soff, off))
            else:
                units[sidx].bookmarks.append(Bookmark(name, soff, len(units[sidx].text)))
                for mid in range(sidx + 1, index):
                    if units[mid].kind not in OUTSIDE_FLOW_KINDS:
                        units[mid].bookmarks.append(Bookmark(name, 0, len(units[mid].text)))
                units[index].bookmarks.append(Bookmark(name, 0, off))
    for name, sidx, soff in open_.values():
        units[sidx].bookmarks.append(Bookmark(name, soff, len(units[sidx].text)))
    return starts

def resolve_targets(units: list[Unit], starts: dict[str, int]) -> None:
    """Point REF/PAGEREF/HYPERLINK fields at the unit holding their bookmark.

    A NOTEREF whose bookmark wraps a note reference points at that note's unit.
    """
    for unit in units:
        for f in unit.fields:
            if f.kind in ("note", "seq") or not f.target:
                continue
            idx = starts.get(f.target)
            if idx is None:
                continue
            target = units[idx]
            if f.kind == "noteref":
                bm = next((b for b in target.bookmarks if b.name == f.target), None)
                note = next(
                    (nf for nf in target.fields if nf.kind == "note" and bm is not None and bm.start <= nf.start <= bm.end),
                    None,
                )
                if note is not None and note.target_unit:
                    f.target_unit = note.target_unit
                    continue
            f.target_unit = target.id

def link_captions(units: list[Unit]) -> None:
    """Give each caption's neighbouring figure or table its label, and make it the caption's parent.

    A "Table" caption looks at the unit after it first (table captions stand above tables),
    any other caption at the unit before it; empty paragraphs in between are skipped.
    """
    body = [u for u in units if u.kind not in OUTSIDE_FLOW_KINDS]
    for i, cap in enumerate(body):
        if cap.kind != "caption":
            continue
        prev = _neighbour(body, i, -1)
        nxt = _neighbour(body, i, +1)
        word = (cap.label or "").split(" ")[0]
        order = (nxt, prev) if word == "Table" else (prev, nxt)
        for cand in order:
            if cand is not None and cand.kind in ("figure", "table") and "caption" not in cand.meta:
                if word == "Table" and cand.kind == "figure" and cand is prev and nxt is not None and nxt.kind == "table":
                    continue
                cand.meta["caption"] = cap.id
                cand.label = cap.label
                cand.number = cap.number
                cap.parent = cand.id
                break

def collect_comments(
    units: list[Unit], events: list[tuple[int, tuple]], texts: dict[str, tuple[str | None, str | None, str]]
) -> list[Comment]:
    """Comments with the text they are anchored on; each spanned unit lists the comment's id.

    ``events`` are ``(unit index, ("c_start"|"c_end"|"c_ref", id, offset))``; ``texts`` maps
    a comment id to its author, date and text.
    """
    ranges: dict[str, dict[str, tuple[int, int]]] = {}
    for index, (kind, cid, off) in events:
        ranges.setdefault(cid, {})[kind] = (index, off)
    out: list[Comment] = []
    for cid, (author, date, text) in texts.items():
        r = ranges.get(cid, {})
        start = r.get("c_start") or r.get("c_ref")
        end = r.get("c_end") or r.get("c_ref") or start
        unit_id = None
        anchor_text = ""
        if start is not None and end is not None:
            sidx, soff = start
            eidx, eoff = end
            unit_id = units[sidx].id
            if sidx == eidx:
                anchor_text = units[sidx].text[soff:eoff]
                spanned = [sidx]
            else:
                parts = [units[sidx].text[soff:]]
                parts += [units[k].text for k in range(sidx + 1, eidx)]
                parts.append(units[eidx].text[:eoff])
                anchor_text = "\n".join(parts)
                spanned = list(range(sidx, eidx + 1))
            for k in spanned:
                if cid not in units[k].comments:
                    units[k].comments.append(cid)
        out.append(Comment(cid, author, date, text, unit_id, anchor_text))
    return out


def _neighbour(units: list[Unit], i: int, step: int) -> Unit | None:
    j = i + step
    while 0 <= j < len(units):
        u = units[j]
        if u.kind == "paragraph" and not u.text.strip():
            j += step
            continue
        return u
    return None
