"""Page headers and footers of an ODT: the master pages' ``style:header``/``style:footer`` in styles.xml.

ODF keeps a page style's header and footer in ``office:master-styles`` of styles.xml, each with
its own ``text:tracked-changes`` (LibreOffice writes a tracked change of a footer there, before
the footer's paragraphs). :func:`read_margins` reads each one that shows text as one
:class:`MarginText` (its paragraphs joined, as a note's are), with its accepted and rejected
views walked by the body's own walk over a context whose change table is the margin's own;
:func:`margin_context` gives that context to a writer. A margin's anchor is
``Anchor("styles.xml", "/M/N", (("tag", "style:footer"),))``: element indexes from
``office:master-styles`` (M: the master page, N: its header or footer).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lxml import etree

from ..errors import AdapterError, AnchorError
from ..model import Anchor, ConcreteEdit, Document
from .anchors import block_paragraphs, element_path
from .changes import read_changes, rejected_lines
from .context import open_changes
from .anchors import follow
from .odfxml import prefixed, qn
from .revision_xml import ChangeIds
from .textmap import rejected_segments, walk_paragraph

if TYPE_CHECKING:  # pragma: no cover
    from .context import OdtContext

__all__ = ["MARGIN_PART", "MarginText", "check_margins", "in_margin", "margin_context", "master_styles", "read_margins",
           "tracked_margins", "write_margins"]

#: The part that holds the master pages.
MARGIN_PART = "styles.xml"
_MASTER_STYLES = qn("office:master-styles")
_MASTER_PAGE = qn("style:master-page")
_DISPLAY = qn("style:display")
_NAME = qn("style:name")
_DISPLAY_NAME = qn("style:display-name")
#: The margins of a master page -> (unit kind, the pages it styles).
_MARGINS = {
    qn("style:header"): ("header", "default"),
    qn("style:header-left"): ("header", "even"),
    qn("style:header-first"): ("header", "first"),
    qn("style:footer"): ("footer", "default"),
    qn("style:footer-left"): ("footer", "even"),
    qn("style:footer-first"): ("footer", "first"),
}


@dataclass
class MarginText:
    """One header or footer that shows text: its kind, views, where it is and its walked paragraphs."""

    kind: str
    pages: str
    master_page: str
    text: str
    rejected: str | None
    anchor: Anchor
    walks: list[Any]  # the reader's walk of each paragraph (segments, events)


def master_styles(styles_root: Any) -> Any:
    """``office:master-styles`` of a styles.xml root (``None`` when it has none)."""
    return styles_root.find(_MASTER_STYLES) if styles_root is not None else None


def margin_context(ctx: "OdtContext", styles_root: Any, margin: Any) -> "OdtContext":
    """The reader's context for the text of one header or footer: its own change table, with
    ``content``/``office_text`` the styles.xml root and the margin element."""
    changes = read_changes(margin)
    kinds = {cid: r.kind for cid, r in changes.items()}
    return dataclasses.replace(ctx, content=styles_root, office_text=margin, changes=changes, change_kinds=kinds,
                               open_changes=open_changes(margin, kinds) if changes else {}, _deleted={})


def _margin_elements(masters: Any):
    """``(master page index, its element, child index, the margin element)`` of every header
    and footer of the master pages, hidden ones included."""
    for i, page in enumerate(masters.iterchildren(etree.Element)):
        if page.tag != _MASTER_PAGE:
            continue
        for j, el in enumerate(page.iterchildren(etree.Element)):
            if el.tag in _MARGINS:
                yield i, page, j, el


def tracked_margins(ctx: "OdtContext") -> list["OdtContext"]:
    """A context (:func:`margin_context`) for each header and footer that holds tracked changes,
    over one parse of styles.xml that the caller may change (accept all, reject all)."""
    root = ctx.package.xml_or_none(MARGIN_PART)
    masters = master_styles(root)
    if masters is None:
        return []
    return [margin_context(ctx, root, el) for _i, _page, _j, el in _margin_elements(masters)
            if el.find(qn("text:tracked-changes")) is not None]


def read_margins(ctx: "OdtContext") -> list[MarginText]:
    """Every master page's header and footer that shows text, in master-page order."""
    root = ctx.package.xml_or_none(MARGIN_PART)
    masters = master_styles(root)
    if masters is None:
        return []
    out: list[MarginText] = []
    for i, page, j, el in _margin_elements(masters):
        if el.get(_DISPLAY) == "false":
            continue
        name = page.get(_DISPLAY_NAME) or page.get(_NAME) or ""
        sub = margin_context(ctx, root, el)
        flow: list[str] = []
        walks, rows = [], []
        for p in block_paragraphs(el):
            inserted = any(sub.change_kinds.get(c) == "insertion" for c in flow)
            w = walk_paragraph(p, sub, flow)
            flow[:] = w.open_changes
            walks.append(w)
            rows.append((inserted, rejected_segments(w, sub)))
        text = "\n".join("".join(s.text for s in w.segments) for w in walks)
        rejected = "\n".join(line.text for line in rejected_lines(rows)[0]) if sub.changes else None
        if not text.strip() and not (rejected or "").strip():
            continue
        anchor = Anchor(MARGIN_PART, element_path((i, j)), (("tag", prefixed(el.tag)),))
        kind, pages = _MARGINS[el.tag]
        out.append(MarginText(kind, pages, name, text, None if rejected == text else rejected, anchor, walks))
    return out


def in_margin(document: Document, e: ConcreteEdit) -> bool:
    """Whether an edit changes a header or footer (a unit anchored in styles.xml)."""
    unit = document.get(e.unit)
    return unit is not None and unit.anchor is not None and unit.anchor.part == MARGIN_PART


def write_margins(ctx: "OdtContext", document: Document, edits: list[ConcreteEdit], writer: Any) -> bytes:
    """styles.xml with the edits of headers and footers written as tracked changes: each margin's
    changes in its own ``text:tracked-changes``, as LibreOffice records them there.

    ``writer`` is the ODT writer's class (``writer(ctx, document, part)`` with ``apply``): the
    body's word-level text edits, run over the margin's context. Only text changes reach a
    header or footer; inserting, deleting or moving one is refused.

    :raise AnchorError: an edit that is no text change, or a margin that no longer resolves.
    """
    root = ctx.package.xml(MARGIN_PART)  # this write's own parse: the writer changes it
    ids = ChangeIds(root, prefix="ledger-hf-ct")
    groups: dict[str, list[ConcreteEdit]] = {}
    for e in edits:
        if e.op not in ("replace", "set_text"):
            raise AnchorError(f"a header or footer takes text changes only, not {e.op!r} (unit {e.unit})")
        anchor = document.unit(e.unit).anchor
        assert anchor is not None  # in_margin chose it by its anchor
        groups.setdefault(anchor.path, []).append(e)
    for lst in groups.values():
        anchor = document.unit(lst[0].unit).anchor
        assert anchor is not None
        el = follow(root, anchor)
        w = writer(margin_context(ctx, root, el), document, MARGIN_PART)
        w.t.ids = ids  # one id space for the whole part
        w.apply(lst)
    return etree.tostring(root.getroottree(), encoding="UTF-8", xml_declaration=True)


def check_margins(written: Document, document: Document) -> None:
    """The written headers and footers, rejected, must be the input's (in its rejected view)."""
    def views(doc: Document) -> list[str]:
        return [u.view("rejected") for u in doc.units if u.anchor is not None and u.anchor.part == MARGIN_PART]

    if views(written) != views(document):
        raise AdapterError("internal error: the written package's original headers or footers differ from the input's")
