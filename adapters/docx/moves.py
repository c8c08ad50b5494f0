"""A tracked move of whole blocks: ``w:moveFrom`` at the source, ``w:moveTo`` on a copy at the destination.

The copy is the blocks' accepted state (other authors' pending changes resolved in it), so
that accept-all shows the moved text as the reader showed it, and reject-all shows the source
untouched. Paragraph runs are wrapped in ``w:moveFrom``/``w:moveTo`` inside a named pair of
``w:moveFromRangeStart``/``w:moveToRangeStart`` ranges; tables move as deleted and inserted
rows. Bookmarks and comments whose whole range moves go with the copy (names stay unique);
``w14:paraId``/``w14:textId`` are dropped from the copy and drawing ids renumbered.
"""
from __future__ import annotations

import copy
from typing import Any

from lxml import etree

from ..errors import AnchorError
from .blockedit import delete_paragraph, delete_table, insert_table, paragraph_runs
from .oxml import qn
from .resolve import resolve_tree
from .revision_xml import Stamp, range_marker, wrap_runs
from .tags import ID, W_BODY, W_DEL, W_INS, W_BOOKMARKEND, W_BOOKMARKSTART, W_COMMENTRANGEEND, W_COMMENTRANGESTART, W_COMMENTREFERENCE, W_MOVEFROM, W_MOVETO, W_P, W_PPR, W_R, W_RPR, W_TBL, WP_DOCPR

__all__ = ["MoveResult", "move_blocks"]

_W14_IDS = (qn("w14:paraId"), qn("w14:textId"))
W_MOVEFROMRANGESTART, W_MOVEFROMRANGEEND = qn("w:moveFromRangeStart"), qn("w:moveFromRangeEnd")
W_MOVETORANGESTART, W_MOVETORANGEEND = qn("w:moveToRangeStart"), qn("w:moveToRangeEnd")


class MoveResult:
    """What a move made: the copies, element map (original -> copy) and paragraph merges in the copy."""

    def __init__(self, copies: list[Any], emap: dict[int, Any], merged: dict[Any, Any]) -> None:
        self.copies = copies
        self.emap = emap
        self.merged = merged

    def follow(self, el) -> Any:
        """The copy of an original element (a paragraph merged in the copy maps to where it went)."""
        new = self.emap.get(id(el))
        while new is not None and new in self.merged:
            new = self.merged[new]
        return new


def _ids(blocks: list[Any], tag: str) -> set[str]:
    return {el.get(ID) for b in blocks for el in b.iter(tag)}


def _drop(blocks: list[Any], tags: tuple[str, ...], ids: set[str]) -> None:
    for b in blocks:
        for el in list(b.iter(*tags)):
            if el.get(ID) in ids:
                parent = el.getparent()
                parent.remove(el)
                if parent.tag == W_R and all(c.tag == W_RPR for c in parent):
                    parent.getparent().remove(parent)


def _split_markers(source: list[Any], copies: list[Any]) -> None:
    """Bookmarks and comments wholly inside the moved blocks move; the others stay at the source."""
    whole_bm = _ids(source, W_BOOKMARKSTART) & _ids(source, W_BOOKMARKEND)
    partial_bm = (_ids(source, W_BOOKMARKSTART) | _ids(source, W_BOOKMARKEND)) - whole_bm
    c_tags = (W_COMMENTRANGESTART, W_COMMENTRANGEEND, W_COMMENTREFERENCE)
    sets = [_ids(source, t) for t in c_tags]
    whole_c = sets[0] & sets[1] & sets[2]
    partial_c = (sets[0] | sets[1] | sets[2]) - whole_c
    _drop(source, (W_BOOKMARKSTART, W_BOOKMARKEND), whole_bm)
    _drop(source, c_tags, whole_c)
    _drop(copies, (W_BOOKMARKSTART, W_BOOKMARKEND), partial_bm)
    _drop(copies, c_tags, partial_c)


def _fresh_ids(copies: list[Any], next_docpr: list[int]) -> None:
    for b in copies:
        for el in b.iter():
            for attr in _W14_IDS:
                if attr in el.attrib:
                    del el.attrib[attr]
        for pr in b.iter(WP_DOCPR):
            pr.set("id", str(next_docpr[0]))
            next_docpr[0] += 1


def _range(blocks: list[Any], start_tag: str, end_tag: str, stamp: Stamp, rid: str, name: str) -> None:
    start = range_marker(start_tag, stamp, rid, name)
    first, last = blocks[0], blocks[-1]
    if first.tag == W_P:
        ppr = first.find(W_PPR)
        first.insert(1 if ppr is not None and first.index(ppr) == 0 else 0, start)
    else:
        first.addprevious(start)
    end = range_marker(end_tag, None, rid)
    if last.tag == W_P:
        last.append(end)
    else:
        last.addnext(end)


def _bare(p) -> bool:
    """A paragraph with nothing to show but its mark (an empty line in a code block).

    Its mark is written as a deleted / inserted one (``w:del``/``w:ins``) in a move:
    LibreOffice (7.4) keeps an empty paragraph whose only change is a ``w:moveFrom`` or
    ``w:moveTo`` mark through both Accept All and Reject All, so each such line was left twice.
    """
    return not any(ch.tag != W_RPR for r in paragraph_runs(p) for ch in r)


def move_blocks(
    source: list[Any], place: str, ref, stamp: Stamp, marks_from: dict, marks_to: dict, next_docpr: list[int],
    plain: bool = False,
) -> MoveResult:
    """Move ``source`` blocks (adjacent, in document order) ``place`` ("after"/"before") ``ref``.

    ``marks_from``/``marks_to`` collect the paragraphs whose marks are to be marked
    (``w:moveFrom``/``w:moveTo``), left to :func:`~adapters.docx.blockedit.mark_paragraph_groups`.
    ``plain`` writes the move as a deletion plus an insertion (``w:del``/``w:ins``, no
    ranges): used when the moved text is edited too, since LibreOffice drops a ``w:del``
    nested in a ``w:moveTo`` while it keeps one nested in a ``w:ins``.
    """
    tag_from, tag_to = (W_DEL, W_INS) if plain else (W_MOVEFROM, W_MOVETO)
    if any(b.tag not in (W_P, W_TBL) for b in source):
        raise AnchorError("a picture placed directly in the body cannot be moved as a tracked change")
    copies = [copy.deepcopy(b) for b in source]
    emap: dict[int, Any] = {}
    for b, c in zip(source, copies):
        for o, n in zip(b.iter(), c.iter()):
            emap[id(o)] = n
    holder = etree.Element(W_BODY)
    for c in copies:
        holder.append(c)
    merged = resolve_tree(holder, accept=True)
    copies = list(holder)
    _split_markers(source, copies)
    _fresh_ids(copies, next_docpr)
    for b in source:
        if b.tag == W_P:
            bare = _bare(b)  # before its runs are marked (a marked run no longer shows)
            delete_paragraph(b, stamp, tag_from)
            marks_from[b] = (W_DEL if bare else tag_from, stamp)
        else:
            delete_table(b, stamp)
    for c in copies:
        if c.tag == W_P:
            bare = _bare(c)
            wrap_runs(paragraph_runs(c), tag_to, stamp)
            marks_to[c] = (W_INS if bare else tag_to, stamp)
        else:
            insert_table(c, stamp)
    if not plain:
        name = f"move{stamp.ids()}"
        _range(source, W_MOVEFROMRANGESTART, W_MOVEFROMRANGEEND, stamp, stamp.ids(), name)
        _range(copies, W_MOVETORANGESTART, W_MOVETORANGEEND, stamp, stamp.ids(), name)
    if place == "after":
        for c in reversed(copies):
            ref.addnext(c)
    else:
        for c in copies:
            ref.addprevious(c)
    return MoveResult(copies, emap, merged)
