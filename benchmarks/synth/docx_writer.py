"""Render a benchmark :class:`~benchmarks.synth.spec.Block` list as a real WordprocessingML package.

python-docx supplies the package, styles and pictures; the rest is lxml through python-docx's
own ``qn``/``OxmlElement`` helpers (so no namespace URI is spelled here):

* headings: styles ``Heading 1..3`` carry ``w:numPr`` to a multilevel list (``%1``, ``%1.%2``,
  ``%1.%2.%3``); appendix headings override it with a letter list (``Appendix %1``);
* captions: ``Figure `` + ``SEQ Figure \\* ARABIC`` complex field (likewise ``Table``, and
  ``Equation`` for equation numbers);
* cross-references: a ``_Ref`` bookmark over the heading text or over the caption's
  "Figure 3", and a ``REF _Ref… \\h`` field (``\\r \\h`` for heading numbers);
* equations: ``m:oMathPara`` followed by a tab and "(" SEQ Equation ")";
* numbered lists: one ``w:num`` per list (restarting at 1) over a decimal ``%1.`` list.
"""
from __future__ import annotations

import io
from datetime import datetime, timezone

import docx
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches

from .spec import Block, Math, RefField, SeqNumber, Text

__all__ = ["write_docx"]

HEADING_NUM, APPENDIX_NUM, LIST_ABSTRACT, LIST_NUM_BASE = 90, 91, 92, 100
_FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)


def _el(tag: str, **attrs: str):
    """An element ``tag`` with ``w:``-style attributes given as ``w_val="1"``."""
    el = OxmlElement(tag)
    for k, v in attrs.items():
        el.set(qn(k.replace("_", ":", 1)), v)
    return el


def _lvl(ilvl: int, fmt: str, text: str, style: str | None = None, indent: int = 0):
    lvl = _el("w:lvl", w_ilvl=str(ilvl))
    lvl.append(_el("w:start", w_val="1"))
    lvl.append(_el("w:numFmt", w_val=fmt))
    if style:
        lvl.append(_el("w:pStyle", w_val=style))
    lvl.append(_el("w:lvlText", w_val=text))
    lvl.append(_el("w:lvlJc", w_val="left"))
    ppr = _el("w:pPr")
    ppr.append(_el("w:ind", w_left=str(indent + 432 * (ilvl + 1)), w_hanging="432"))
    lvl.append(ppr)
    return lvl


def _abstract(abstract_id: int, levels: list) -> object:
    an = _el("w:abstractNum", w_abstractNumId=str(abstract_id))
    an.append(_el("w:multiLevelType", w_val="multilevel" if len(levels) > 1 else "singleLevel"))
    for lvl in levels:
        an.append(lvl)
    return an


def _num(num_id: int, abstract_id: int, restart: bool = False):
    num = _el("w:num", w_numId=str(num_id))
    num.append(_el("w:abstractNumId", w_val=str(abstract_id)))
    if restart:
        over = _el("w:lvlOverride", w_ilvl="0")
        over.append(_el("w:startOverride", w_val="1"))
        num.append(over)
    return num


def _setup_numbering(document, list_ids: list[int]) -> None:
    """Add the heading, appendix and list definitions to ``word/numbering.xml``."""
    numbering = document.part.numbering_part.element
    abstracts = [
        _abstract(HEADING_NUM, [_lvl(i, "decimal", ".".join(f"%{j + 1}" for j in range(i + 1)), f"Heading{i + 1}") for i in range(3)]),
        _abstract(APPENDIX_NUM, [_lvl(0, "upperLetter", "Appendix %1")]),
        _abstract(LIST_ABSTRACT, [_lvl(0, "decimal", "%1.", indent=288)]),
    ]
    # Schema order: every w:abstractNum before every w:num.
    first_num = numbering.find(qn("w:num"))
    for an in abstracts:
        if first_num is not None:
            first_num.addprevious(an)
        else:
            numbering.append(an)
    numbering.append(_num(HEADING_NUM, HEADING_NUM))
    numbering.append(_num(APPENDIX_NUM, APPENDIX_NUM))
    for lid in list_ids:
        numbering.append(_num(LIST_NUM_BASE + lid, LIST_ABSTRACT, restart=True))
    for level in range(3):
        ppr = document.styles[f"Heading {level + 1}"].element.get_or_add_pPr()
        numpr = _el("w:numPr")
        numpr.append(_el("w:ilvl", w_val=str(level)))
        numpr.append(_el("w:numId", w_val=str(HEADING_NUM)))
        ppr.insert(0, numpr)
        _fix_ppr_order(ppr)


_PPR_ORDER = ("w:pStyle", "w:keepNext", "w:keepLines", "w:pageBreakBefore", "w:framePr", "w:widowControl", "w:numPr")


def _fix_ppr_order(ppr) -> None:
    """Move ``w:numPr`` after the ``w:pPr`` children that precede it in schema order."""
    numpr = ppr.find(qn("w:numPr"))
    last = None
    for tag in _PPR_ORDER[:-1]:
        found = ppr.find(qn(tag))
        if found is not None:
            last = found
    if last is not None:
        last.addnext(numpr)


def _run(text: str, bold: bool = False):
    r = _el("w:r")
    if bold:
        rpr = _el("w:rPr")
        rpr.append(_el("w:b"))
        r.append(rpr)
    parts = text.split("\t")
    for i, part in enumerate(parts):
        if i:
            r.append(_el("w:tab"))
        if part:
            t = _el("w:t")
            t.text = part
            t.set(qn("xml:space"), "preserve")
            r.append(t)
    return r


def _field(p, code: str, result: str) -> None:
    """A complex field ``code`` whose cached result is ``result`` (begin/instr/separate/result/end)."""
    for kind in ("begin", "instr", "separate", "result", "end"):
        r = _el("w:r")
        if kind == "instr":
            it = _el("w:instrText")
            it.set(qn("xml:space"), "preserve")
            it.text = f" {code} "
            r.append(it)
        elif kind == "result":
            r = _run(result)
        else:
            r.append(_el("w:fldChar", w_fldCharType=kind))
        p.append(r)


def _math(tokens) -> object:
    """``m:oMathPara`` holding one ``m:oMath`` of plain math runs (identifiers italic by default)."""
    para = _el("m:oMathPara")
    omath = _el("m:oMath")
    for kind, text in tokens:
        r = _el("m:r")
        if kind != "i":
            rpr = _el("m:rPr")
            rpr.append(_el("m:sty", m_val="p"))
            r.append(rpr)
        t = _el("m:t")
        t.text = text
        r.append(t)
        omath.append(r)
    para.append(omath)
    return para


class _Writer:
    def __init__(self, document) -> None:
        self.doc = document
        self.bookmark_id = 0

    def pieces(self, p, pieces: list, bookmark: str | None = None, span: int = 0) -> None:
        """Append the runs of ``pieces`` to paragraph element ``p``, with an optional bookmark."""
        end_at = span if bookmark and span else len(pieces)
        if bookmark:
            self.bookmark_id += 1
            p.append(_el("w:bookmarkStart", w_id=str(self.bookmark_id), w_name=bookmark))
        for i, piece in enumerate(pieces):
            if isinstance(piece, Text):
                p.append(_run(piece.text, piece.bold))
            elif isinstance(piece, SeqNumber):
                _field(p, f"SEQ {piece.seq} \\* ARABIC", piece.text)
            elif isinstance(piece, RefField):
                code = f"REF {piece.name} \\r \\h" if piece.to == "heading" else f"REF {piece.name} \\h"
                _field(p, code, piece.result)
            elif isinstance(piece, Math):
                p.append(_math(piece.tokens))
            else:  # pragma: no cover - the planner makes only these pieces
                raise TypeError(piece)
            if bookmark and i == end_at - 1:
                p.append(_el("w:bookmarkEnd", w_id=str(self.bookmark_id)))

    def block(self, b: Block) -> None:
        doc = self.doc
        if b.style == "table":
            self.table(b)
            return
        style = {
            "title": "Title",
            "heading": f"Heading {b.level}",
            "caption": "Caption",
            "list": "List Number",
        }.get(b.style, "Normal")
        para = doc.add_paragraph(style=style)
        p = para._p
        if b.style == "heading" and b.appendix:
            p.get_or_add_pPr().append(_numpr(0, APPENDIX_NUM))
            _fix_ppr_order(p.pPr)
        elif b.style == "list":
            p.get_or_add_pPr().append(_numpr(0, LIST_NUM_BASE + int(b.list_id or 0)))
            _fix_ppr_order(p.pPr)
        if b.style == "figure":
            para.add_run().add_picture(io.BytesIO(b.image or b""), width=Inches(1.5))
            for docpr in p.iter(qn("wp:docPr")):
                docpr.set("descr", b.alt or "")
                docpr.set("name", f"Picture {b.number}")
            return
        self.pieces(p, b.pieces, b.bookmark, b.bookmark_span)

    def table(self, b: Block) -> None:
        rows = b.rows or []
        table = self.doc.add_table(rows=len(rows), cols=len(rows[0]))
        table.style = self.doc.styles["Table Grid"]
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                self.pieces(table.cell(r, c).paragraphs[0]._p, cell)


def _numpr(ilvl: int, num_id: int):
    numpr = _el("w:numPr")
    numpr.append(_el("w:ilvl", w_val=str(ilvl)))
    numpr.append(_el("w:numId", w_val=str(num_id)))
    return numpr


def write_docx(blocks: list[Block], path: str, title: str) -> None:
    """Write ``blocks`` as a .docx at ``path``."""
    document = docx.Document()
    props = document.core_properties
    props.title, props.author, props.created, props.modified = title, "LEDGER benchmark", _FIXED_DATE, _FIXED_DATE
    props.last_modified_by, props.revision = "LEDGER benchmark", 1
    _setup_numbering(document, sorted({b.list_id for b in blocks if b.list_id is not None}))
    writer = _Writer(document)
    for b in blocks:
        writer.block(b)
    document.save(path)
