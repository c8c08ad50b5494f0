"""The side data of an .odt (styles, outline and list styles, the tracked-changes table, meta),
read once into one frozen :class:`OdtContext` that every later stage of the reader and the
writer reads (the twin of ``adapters/docx/context.py``; moved from ``adapters/odt/reader.py``,
which every stage imported for it while it imported them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ..errors import CorruptDocumentError
from ..package import Package
from .changes import ChangedRegion, read_changes
from .odfxml import qn
from .styles import StyleSheet, read_styles

__all__ = ["OdtContext", "load_context", "open_changes"]

_BODY = qn("office:body")
_TEXT = qn("office:text")
_META = qn("office:meta")
_P = qn("text:p")
_H = qn("text:h")
_CHANGE_START = qn("text:change-start")
_CHANGE_END = qn("text:change-end")
_CHANGE_ID = qn("text:change-id")


@dataclass(frozen=True)
class OdtContext:
    """Everything about a package that is read once before the body is walked.

    ``open_changes`` maps a paragraph element to the ids of the change regions open where it
    starts (an insertion begun in an earlier paragraph), so that the walk of one paragraph
    alone (:func:`adapters.odt.textmap.paragraph_segments`) tags its text like the full read;
    ``_deleted`` holds the deletions' segments once :func:`adapters.odt.textmap.deleted_segments`
    has read them.
    """

    package: Package
    content: Any
    office_text: Any
    styles: StyleSheet
    changes: dict[str, ChangedRegion]
    change_kinds: dict[str, str]
    open_changes: dict[Any, tuple[str, ...]]
    meta: dict[str, Any]
    _deleted: dict[str, list] = field(default_factory=dict, repr=False, compare=False)



def _meta(pkg: Package) -> dict[str, Any]:
    root = pkg.xml_or_none("meta.xml")
    if root is None:
        return {}
    meta = root.find(_META)
    if meta is None:
        return {}
    out: dict[str, Any] = {}
    for child in meta:
        if not isinstance(child.tag, str) or len(child):
            continue
        local = child.tag.rpartition("}")[2]
        if local in ("title", "subject", "description", "creator", "initial-creator", "date",
                     "creation-date", "language", "generator"):
            value = (child.text or "").strip()
            if value:
                out[local] = value
    return out


def open_changes(office_text: etree._Element, kinds: dict[str, str]) -> dict[Any, tuple[str, ...]]:
    """Paragraphs that start inside a change region (one pass over markers and paragraphs)."""
    out: dict[Any, tuple[str, ...]] = {}
    if not any(k != "deletion" for k in kinds.values()):
        return out
    open_: list[str] = []
    for el in office_text.iter(_CHANGE_START, _CHANGE_END, _P, _H):
        tag = el.tag
        if tag == _CHANGE_START:
            cid = el.get(_CHANGE_ID, "")
            if cid not in open_:
                open_.append(cid)
        elif tag == _CHANGE_END:
            cid = el.get(_CHANGE_ID, "")
            if cid in open_:
                open_.remove(cid)
        elif open_:
            out[el] = tuple(open_)
    return out


def load_context(pkg: Package) -> OdtContext:
    """Read the side data of an ODT package into one frozen context.

    :raise CorruptDocumentError: content.xml has no ``office:body/office:text``.
    :raise MalformedXmlError: a part is not well-formed.
    """
    content = pkg.xml("content.xml")
    body = content.find(_BODY)
    office_text = body.find(_TEXT) if body is not None else None
    if office_text is None:
        raise CorruptDocumentError("content.xml has no office:body/office:text (not a text document)")
    styles_root = pkg.xml_or_none("styles.xml")
    sheet = read_styles(content, styles_root)
    changes = read_changes(office_text)
    kinds = {cid: r.kind for cid, r in changes.items()}
    return OdtContext(
        package=pkg,
        content=content,
        office_text=office_text,
        styles=sheet,
        changes=changes,
        change_kinds=kinds,
        open_changes=open_changes(office_text, kinds) if changes else {},
        meta=_meta(pkg),
    )
