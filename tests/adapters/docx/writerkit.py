"""Helpers for the DOCX writer tests: write edits, check both views, compare zip members.

The backend validates edits and computes the intended result (``apply_to_document``); the
writer only sees the concrete edits. Tests may import both layers.
"""
from __future__ import annotations

import io
import struct
import zipfile
from dataclasses import dataclass
from typing import Callable

from lxml import etree

from adapters import read
from adapters.docx.oxml import NSMAP, qn
from adapters.docx.writer import accept_all, reject_all, write
from adapters.model import EDIT_TYPES, Document, Edit
from addin_backend.edits.operations import apply_to_document, validate_edits

__all__ = ["AUTHOR", "DATE", "Written", "ed", "write_edits", "part_xml", "raw_members", "untouched_members_identical", "W"]

AUTHOR = "Reviewer Bot"
DATE = "2026-11-30T12:00:00Z"
W = NSMAP["w"]


def ed(op: str, unit: str | None = None, **kw) -> Edit:
    """An edit with the test author and date."""
    kw.setdefault("author", AUTHOR)
    kw.setdefault("date", DATE)
    return EDIT_TYPES[op](unit=unit, **kw)


@dataclass
class Written:
    """One write: the input, its document, the concrete edits, the output and both intended views."""

    data: bytes
    doc: Document
    edits: list[Edit]
    out: bytes
    expected: list[str]
    original: list[str]

    def accepted(self) -> list[str]:
        """Our own accept-all of the output, read back."""
        return read(accept_all(self.out)).lines()

    def rejected(self) -> list[str]:
        return read(reject_all(self.out)).lines()

    def xml(self, part: str = "word/document.xml") -> etree._Element:
        return part_xml(self.out, part)


def write_edits(data: bytes, make: Callable[[Document], list[Edit]], check: bool = True) -> Written:
    """Validate ``make(doc)`` as the backend does, write it, and (``check``) assert both views.

    Accept-all of the output reads as ``apply_to_document``; reject-all reads as the input's
    rejected view (the original, with other authors' changes also rejected).
    """
    doc = read(data)
    edits = validate_edits(doc, make(doc))
    out = write(data, edits, document=doc)
    w = Written(data, doc, edits, out, apply_to_document(doc, edits).lines(), doc.lines("rejected"))
    if check:
        assert w.accepted() == w.expected
        assert w.rejected() == w.original
    return w


def part_xml(data: bytes, part: str) -> etree._Element:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return etree.fromstring(zf.read(part))


def raw_members(data: bytes) -> list[tuple[str, bytes]]:
    """Each member's name and its raw local record (header, compressed bytes, descriptor)."""
    zf = zipfile.ZipFile(io.BytesIO(data))
    infos = zf.infolist()
    offsets = sorted(i.header_offset for i in infos)
    end_of_data = struct.unpack_from("<I", data, data.rfind(b"PK\x05\x06") + 16)[0]
    out = []
    for info in infos:
        nxt = next((o for o in offsets if o > info.header_offset), end_of_data)
        out.append((info.filename, data[info.header_offset : nxt]))
    return out


def untouched_members_identical(before: bytes, after: bytes, changed: set[str]) -> list[str]:
    """Assert every member not in ``changed`` is byte-identical (raw record), in the same order.

    Returns the names that differ (all in ``changed``).
    """
    a, b = raw_members(before), raw_members(after)
    assert [n for n, _ in a] == [n for n, _ in b][: len(a)], "member order changed"
    za, zb = zipfile.ZipFile(io.BytesIO(before)), zipfile.ZipFile(io.BytesIO(after))
    differ = []
    for (name, raw_a), (_n, raw_b) in zip(a, b):
        if raw_a != raw_b:
            differ.append(name)
            assert name in changed, f"{name} was not to be touched"
        ia, ib = za.getinfo(name), zb.getinfo(name)
        if name not in changed:
            assert (ia.compress_type, ia.date_time, ia.external_attr, ia.extra) == (
                ib.compress_type, ib.date_time, ib.external_attr, ib.extra)
    return differ


def revision_ids(root: etree._Element) -> list[str]:
    """The ``w:id`` of every revision-like element (ins, del, moves, ranges, property changes)."""
    tags = {qn("w:" + t) for t in ("ins", "del", "moveFrom", "moveTo", "moveFromRangeStart", "moveToRangeStart",
                                   "rPrChange", "pPrChange")}
    return [el.get(qn("w:id")) for el in root.iter() if el.tag in tags]
