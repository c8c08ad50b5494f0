"""Existing tracked changes: the ``text:tracked-changes`` table and the two views of a text flow.

ODF keeps inserted text in the body between ``text:change-start`` and ``text:change-end`` and
moves deleted text into the table (``text:changed-region/text:deletion``), leaving a
``text:change`` point in the body. The accepted view is the body as it is; the rejected view
drops the insertions and puts the deleted content back. :func:`rejected_lines` does this for
a whole flow of paragraphs, because changes cross paragraph boundaries: an inserted
paragraph break joins two paragraphs in the rejected view, deleted breaks split one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from .odfxml import qn

__all__ = ["ChangedRegion", "read_changes", "FlowLine", "rejected_lines", "CHANGE_KINDS"]

_TRACKED = qn("text:tracked-changes")
_REGION = qn("text:changed-region")
_INFO = qn("office:change-info")
_CREATOR = qn("dc:creator")
_DATE = qn("dc:date")
_ID = qn("text:id")
_XML_ID = qn("xml:id")
_INSERTION = qn("text:insertion")

#: ODF change elements -> our kind names.
CHANGE_KINDS = {
    qn("text:insertion"): "insertion",
    qn("text:deletion"): "deletion",
    qn("text:format-change"): "format-change",
}


@dataclass(frozen=True)
class ChangedRegion:
    """One ``text:changed-region``: its kind, author and date, and deleted content if any."""

    id: str
    kind: str
    author: str | None
    date: str | None
    element: Any = field(compare=False, repr=False)
    #: For a deletion: the deleted blocks (``text:p``, ``text:h``, ``text:list``, ``table:table``).
    content: tuple = field(default=(), compare=False, repr=False)
    #: A deletion of text that was itself a pending insertion (LibreOffice writes a
    #: ``text:insertion`` after the ``text:deletion``): the text shows in neither view.
    inserted: bool = False


def read_changes(office_text: etree._Element) -> dict[str, ChangedRegion]:
    """The change regions of the body by id (``text:id``, or ``xml:id`` in ODF 1.2+ files)."""
    out: dict[str, ChangedRegion] = {}
    for tracked in office_text.iterchildren(_TRACKED):
        for region in tracked.iterchildren(_REGION):
            rid = region.get(_ID) or region.get(_XML_ID) or ""
            stacked = sum(1 for c in region if c.tag in CHANGE_KINDS) > 1 and any(
                c.tag == _INSERTION for c in region
            )
            for change in region:
                kind = CHANGE_KINDS.get(change.tag)
                if kind is None:
                    continue
                author = date = None
                content = []
                for child in change:
                    if child.tag == _INFO:
                        for info in child:
                            if info.tag == _CREATOR:
                                author = (info.text or "").strip() or None
                            elif info.tag == _DATE:
                                date = (info.text or "").strip() or None
                    elif isinstance(child.tag, str):
                        content.append(child)
                out[rid] = ChangedRegion(rid, kind, author, date, region, tuple(content), stacked and kind == "deletion")
                break
    return out


@dataclass
class FlowLine:
    """One paragraph of the rejected view of a flow, and the flow paragraph that owns it.

    ``owner`` is the index of the flow paragraph whose original text the line holds (the
    first one when an inserted paragraph break joined several), or of an empty paragraph
    that starts the line; ``None`` for a line made only of deleted text (a paragraph that
    exists in the rejected view only). ``node`` is the deleted paragraph such a line comes
    from. ``para`` is the deleted paragraph whose paragraph mark ends the line (``None`` where
    the line ends with a paragraph of the flow): its pictures stand on this line.
    """

    text: str
    owner: int | None
    node: Any = None
    para: Any = None


def rejected_lines(paragraphs: list[tuple[bool, list[Any]]]) -> tuple[list[FlowLine], list[int]]:
    """The rejected view of a flow, paragraph by paragraph.

    :param paragraphs: for each paragraph of the flow in order, ``(starts_inside_insertion,
        rejected_segments)``; a segment with text ``"\\n"`` and ``change_kind == "deletion"``
        is a deleted paragraph break.
    :return: the lines, and for each paragraph the index of the line where it starts.
    """
    lines: list[dict] = []
    cur: dict | None = None
    has_original = [False] * len(paragraphs)
    starts: list[int] = []
    spans: dict[int, tuple[int, int]] = {}  # a paragraph that starts a line: its first and last line
    for idx, (start_inserted, segs) in enumerate(paragraphs):
        if cur is None or not start_inserted:
            cur = {"parts": [], "origs": [], "marker": idx, "node": None}
            lines.append(cur)
            spans[idx] = (len(lines) - 1, len(lines) - 1)
        starts.append(len(lines) - 1)
        for seg in segs:
            if seg.change_kind == "deletion" and seg.slot == "self" and seg.text == "\n":
                cur["para"] = seg.node
                cur = {"parts": [], "origs": [], "marker": None, "node": seg.node}
                lines.append(cur)
                if idx in spans:
                    spans[idx] = (spans[idx][0], len(lines) - 1)
                continue
            cur["parts"].append(seg.text)
            if seg.change_kind != "deletion" and seg.text:
                cur["origs"].append(idx)
                has_original[idx] = True
            elif cur["node"] is None and seg.change_kind == "deletion":
                cur["node"] = seg.node
    # A paragraph without text of its own that deleted paragraphs were restored into is the
    # blank line among its lines: the first when the deletion closes it (the marker at its end),
    # the last when the deletion opens it (the marker at its start: the deleted paragraphs come
    # back before it).
    own: dict[int, int] = {}
    for idx, (a, b) in spans.items():
        if has_original[idx]:
            continue
        blank = ["".join(lines[k]["parts"]).strip() == "" for k in (a, b)]
        own[a if blank[0] or not blank[1] else b] = idx
    out: list[FlowLine] = []
    for k, line in enumerate(lines):
        text = "".join(line["parts"])
        if line["origs"]:
            owner = line["origs"][0]
        else:
            owner = own.get(k)
        out.append(FlowLine(text, owner, line["node"], line.get("para")))
    return out, starts
