"""A reviewer for the round-trip tests: a .docx reviewed as Word saves it, by XML edits.

:func:`word_review` reads each comment of the author's changes, asks ``decide(comment text)``
for ``"accept"``, ``"reject"`` or ``None`` (leave it), and applies that to the revisions the
comment's range covers (a paragraph mark or a table row takes the decision of the revisions in
its paragraph, else of the paragraph after it: the mark LEDGER moves up a deleted block). Then,
as Word does on save, every revision and comment id is renumbered from 0 in document order.
"""
from __future__ import annotations

import contextlib
import io
import json
import zipfile
from pathlib import Path
from typing import Callable

import pytest

from lxml import etree

from adapters.docx.oxml import NSMAP

__all__ = ["word_review", "comment_texts", "AUTHOR", "need", "edit_file"]

#: The author of the round-trip tests' edits.
AUTHOR = "Ada Lovelace"


def need(path: Path) -> Path:
    """``path``, or a skip when that corpus file is not here."""
    if not path.exists():
        pytest.skip(f"corpus file {path} is not here")
    return path


def edit_file(src: Path, instruction: str, out: Path, *extra: str) -> dict:
    """``ledger edit SRC --instruction ... -o OUT --json`` by :data:`AUTHOR`; its JSON report."""
    from addin_backend.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["edit", str(src), "--instruction", instruction, "--no-semantic", "--author", AUTHOR,
                     "-o", str(out), "--json", *extra]) == 0
    return json.loads(buf.getvalue())

W = NSMAP["w"]


def _q(tag: str) -> str:
    return f"{{{W}}}{tag}"


INS, DEL, MFROM, MTO = _q("ins"), _q("del"), _q("moveFrom"), _q("moveTo")
P, R, PPR, RPR, TR, TRPR = _q("p"), _q("r"), _q("pPr"), _q("rPr"), _q("tr"), _q("trPr")
CRS, CRE, CREF, ID = _q("commentRangeStart"), _q("commentRangeEnd"), _q("commentReference"), _q("id")
_REVISIONS = (INS, DEL, MFROM, MTO)
_RENUMBER = (INS, DEL, MFROM, MTO, _q("moveFromRangeStart"), _q("moveFromRangeEnd"), _q("moveToRangeStart"),
             _q("moveToRangeEnd"), _q("pPrChange"), _q("rPrChange"))


def comment_texts(data: bytes) -> dict[str, str]:
    """Comment id -> its text."""
    z = zipfile.ZipFile(io.BytesIO(data))
    if "word/comments.xml" not in z.namelist():
        return {}
    root = etree.fromstring(z.read("word/comments.xml"))
    return {c.get(ID): "".join(t.text or "" for t in c.iter(_q("t"))) for c in root.iter(_q("comment"))}


def _unwrap(el) -> None:
    parent = el.getparent()
    i = parent.index(el)
    for child in list(el):
        parent.insert(i, child)
        i += 1
    parent.remove(el)


def _undelete(el) -> None:
    for t in el.iter(_q("delText")):
        t.tag = _q("t")
    for t in el.iter(_q("delInstrText")):
        t.tag = _q("instrText")
    _unwrap(el)


def _merge_into_next(p) -> None:
    """A paragraph whose mark goes: its content joins the next paragraph (or it goes, empty)."""
    content = [c for c in p if c.tag != PPR]
    nxt = p.getnext()
    if content and nxt is not None and nxt.tag == P:
        at = 1 if nxt.find(PPR) is not None else 0
        for c in content:
            nxt.insert(at, c)
            at += 1
    p.getparent().remove(p)


def word_review(data: bytes, author: str, decide: Callable[[str], str | None]) -> bytes:
    """``data`` reviewed: the changes of ``author`` accepted or rejected by their comments."""
    z = zipfile.ZipFile(io.BytesIO(data))
    texts = comment_texts(data)
    root = etree.fromstring(z.read("word/document.xml"))
    # which comment covers each revision (document order; the innermost open range)
    open_: list[str] = []
    verdict: dict[int, str | None] = {}
    asked: dict[str, str | None] = {}
    alive = list(root.iter())
    for el in alive:
        if el.tag == CRS:
            open_.append(el.get(ID))
        elif el.tag == CRE and el.get(ID) in open_:
            open_.remove(el.get(ID))
        elif el.tag in _REVISIONS and el.get(_q("author")) == author and el.getparent().tag not in (RPR, TRPR):
            mine = [c for c in open_ if c in texts]
            if mine and mine[-1] not in asked:
                asked[mine[-1]] = decide(texts[mine[-1]])  # once per comment, in document order
            verdict[id(el)] = asked[mine[-1]] if mine else None

    order = {id(el): i for i, el in enumerate(alive)}
    decided = sorted((order[k], v) for k, v in verdict.items())

    def verdict_from(node) -> str | None:
        """The decision of the first revision at or after ``node`` (its mark, its row, its change)."""
        at = order[id(node)]
        return next((v for i, v in decided if i >= at), None)

    marks = []
    for el in alive:
        if el.tag == _q("pPrChange") and el.get(_q("author")) == author:
            marks.append((el, el.getparent().getparent(), verdict_from(el.getparent().getparent())))
        elif el.tag in _REVISIONS and el.get(_q("author")) == author and el.getparent().tag in (RPR, TRPR):
            holder = el.getparent().getparent()  # w:pPr (of a w:p) or w:tr
            block = holder.getparent() if holder.tag == PPR else holder
            marks.append((el, block, verdict_from(block)))
    for el in alive:
        if id(el) not in verdict or el.getparent() is None:
            continue
        choice = verdict[id(el)]
        if choice == "accept":
            (_unwrap if el.tag in (INS, MTO) else lambda e: e.getparent().remove(e))(el)
        elif choice == "reject":
            (_undelete if el.tag in (DEL, MFROM) else lambda e: e.getparent().remove(e))(el)
    for el, block, choice in marks:
        if choice is None or el.getparent() is None:
            continue
        if el.tag == _q("pPrChange"):
            ppr = el.getparent()
            if choice == "reject":
                for ch in [c for c in ppr if c.tag not in (RPR, _q("sectPr"), _q("pPrChange"))]:
                    ppr.remove(ch)
                old = el.find(PPR)
                for i, ch in enumerate(list(old) if old is not None else []):
                    ppr.insert(i, ch)
            ppr.remove(el)
            continue
        inserted = el.tag in (INS, MTO)
        goes = (choice == "reject") if inserted else (choice == "accept")
        el.getparent().remove(el)
        if goes:
            if block.tag == TR:
                table = block.getparent()
                table.remove(block)
                if table.find(TR) is None:  # no row left: the table goes
                    table.getparent().remove(table)
            elif block.getparent() is not None:
                _merge_into_next(block)
    # Word renumbers revision and comment ids on save
    n = 0
    for el in root.iter(*_RENUMBER):
        el.set(ID, str(n))
        n += 1
    cmap: dict[str, str] = {}
    for el in root.iter(CRS, CRE, CREF):
        old = el.get(ID)
        if old not in cmap:
            cmap[old] = str(len(cmap))
        el.set(ID, cmap[old])
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in z.infolist():
            raw = z.read(info.filename)
            if info.filename == "word/document.xml":
                raw = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
            elif info.filename == "word/comments.xml":
                croot = etree.fromstring(raw)
                for c in croot.iter(_q("comment")):
                    if c.get(ID) in cmap:
                        c.set(ID, cmap[c.get(ID)])
                raw = etree.tostring(croot, xml_declaration=True, encoding="UTF-8", standalone=True)
            dst.writestr(info, raw)
    return out.getvalue()
