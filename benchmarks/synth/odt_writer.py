"""Render a benchmark :class:`~benchmarks.synth.spec.Block` list as a real ODF text package (odfpy).

* headings: ``text:h`` with ``text:outline-level`` numbered by ``text:outline-style``
  ("1", "1.1", "1.1.1"); appendix headings sit in a ``text:list`` of the ``Appendix`` list
  style ("Appendix A"), continued from one appendix to the next;
* captions: ``Figure `` + ``text:sequence text:name="Figure"`` with ``text:ref-name``
  ``refFigure<n-1>`` (LibreOffice's own naming); likewise ``Table`` and ``Equation``;
* cross-references: ``text:sequence-ref`` (format ``category-and-value``) to captions and
  ``text:bookmark-ref`` (format ``number``) to a ``text:bookmark-start/end`` pair named
  ``_Ref…`` around the heading text;
* figures: an as-char ``draw:frame`` holding ``draw:image`` and ``svg:desc`` (the alt text);
* equations: an embedded formula object (``Object N/content.xml``, MathML ``mi``/``mo``/``mn``)
  followed by a tab and "(" sequence ")";
* numbered lists: one ``text:list`` per list with the ``Numbering 123`` style.
"""
from __future__ import annotations

from odf import draw, style, svg, table, text
from odf.element import Element
from odf.namespaces import MATHNS, OFFICENS
from odf.opendocument import OpenDocument, OpenDocumentText

from .spec import Block, Math, RefField, SeqNumber, Text

__all__ = ["write_odt"]

_FORMULA_MIME = "application/vnd.oasis.opendocument.formula"
_SEQUENCES = ("Illustration", "Table", "Text", "Drawing", "Figure", "Equation")


def _add_text(el, s: str) -> None:
    """Append ``s`` to ``el``, turning tabs into ``text:tab``."""
    for i, part in enumerate(s.split("\t")):
        if i:
            el.addElement(text.Tab())
        if part:
            el.addText(part)


def _para_style(name: str, display: str, parent: str | None = None, **props) -> style.Style:
    st = style.Style(name=name, displayname=display, family="paragraph")
    if parent:
        st.setAttribute("parentstylename", parent)
    if props.get("outline"):
        st.setAttribute("defaultoutlinelevel", str(props["outline"]))
    if props.get("bold") or props.get("size"):
        tp = style.TextProperties()
        if props.get("bold"):
            tp.setAttribute("fontweight", "bold")
        if props.get("size"):
            tp.setAttribute("fontsize", props["size"])
        st.addElement(tp)
    return st


def _list_level(level: int, fmt: str, prefix: str = "", suffix: str = "", display: int = 1):
    lvl = text.ListLevelStyleNumber(level=level, numformat=fmt, displaylevels=display)
    if prefix:
        lvl.setAttribute("numprefix", prefix)
    if suffix:
        lvl.setAttribute("numsuffix", suffix)
    props = style.ListLevelProperties(listlevelpositionandspacemode="label-alignment")
    props.addElement(
        style.ListLevelLabelAlignment(labelfollowedby="listtab", listtabstopposition=f"{0.3 * level + 0.3:.1f}in",
                                      textindent="-0.3in", marginleft=f"{0.3 * level + 0.3:.1f}in")
    )
    lvl.addElement(props)
    return lvl


def _styles(doc) -> dict[str, style.Style]:
    s = doc.styles
    named = {
        "body": _para_style("Text_20_body", "Text body"),
        "title": _para_style("Title", "Title", bold=True, size="20pt"),
        "caption": _para_style("Caption", "Caption", size="10pt"),
        "list": _para_style("List_20_Number", "List Number"),
        "cell": _para_style("Table_20_Contents", "Table Contents"),
        "figure": _para_style("Figure_20_Body", "Figure Body"),
        "equation": _para_style("Equation", "Equation"),
    }
    for level in (1, 2, 3):
        named[f"h{level}"] = _para_style(f"Heading_20_{level}", f"Heading {level}", outline=level, bold=True,
                                         size=("16pt", "14pt", "12pt")[level - 1])
    for st in named.values():
        s.addElement(st)
    outline = text.OutlineStyle(name="Outline")
    for level in range(1, 11):
        lvl = text.OutlineLevelStyle(level=level, numformat="1" if level <= 3 else "", displaylevels=min(level, 3))
        outline.addElement(lvl)
    s.addElement(outline)
    numbering = text.ListStyle(name="Numbering_20_123", displayname="Numbering 123")
    numbering.addElement(_list_level(1, "1", suffix="."))
    s.addElement(numbering)
    appendix = text.ListStyle(name="Appendix", displayname="Appendix")
    appendix.addElement(_list_level(1, "A", prefix="Appendix "))
    s.addElement(appendix)
    frame = style.Style(name="fr1", family="graphic")
    frame.addElement(style.GraphicProperties(anchortype="as-char", verticalpos="top", verticalrel="baseline"))
    doc.automaticstyles.addElement(frame)
    named["frame"] = frame
    named["numbering"] = numbering
    named["appendix"] = appendix
    return named


def _math_object(doc, tokens) -> str:
    """Embed a formula subdocument (MathML) and return its href (``./Object N``)."""
    sub = OpenDocument(_FORMULA_MIME)
    sub.formula = Element(qname=(OFFICENS, "formula"), check_grammar=False)
    sub.body.addElement(sub.formula, check_grammar=False)
    root = Element(qname=(MATHNS, "math"), check_grammar=False)
    semantics = Element(qname=(MATHNS, "semantics"), check_grammar=False)
    row = Element(qname=(MATHNS, "mrow"), check_grammar=False)
    for kind, tok in tokens:
        el = Element(qname=(MATHNS, f"m{kind}"), check_grammar=False)
        el.addText(tok, check_grammar=False)
        row.addElement(el, check_grammar=False)
    semantics.addElement(row, check_grammar=False)
    root.addElement(semantics, check_grammar=False)
    sub.formula.addElement(root, check_grammar=False)
    return doc.addObject(sub)


class _Writer:
    def __init__(self, doc) -> None:
        self.doc = doc
        self.st = _styles(doc)
        self.appendix_list_id: str | None = None
        self.list_el = None
        self.list_id: int | None = None
        self.objects = 0
        decls = text.SequenceDecls()
        for name in _SEQUENCES:
            decls.addElement(text.SequenceDecl(name=name, displayoutlinelevel=0))
        doc.text.addElement(decls)

    def pieces(self, el, pieces: list, bookmark: str | None = None, span: int = 0) -> None:
        end_at = span if bookmark and span else len(pieces)
        if bookmark:
            el.addElement(text.BookmarkStart(name=bookmark))
        for i, piece in enumerate(pieces):
            if isinstance(piece, Text):
                if piece.bold:
                    span_el = text.Span(stylename=self._bold())
                    _add_text(span_el, piece.text)
                    el.addElement(span_el)
                else:
                    _add_text(el, piece.text)
            elif isinstance(piece, SeqNumber):
                el.addElement(text.Sequence(name=piece.seq, formula=f"ooow:{piece.seq}+1", numformat="1",
                                            refname=piece.ref_name, text=piece.text))
            elif isinstance(piece, RefField):
                if piece.to == "heading":
                    el.addElement(text.BookmarkRef(referenceformat="number", refname=piece.odt_name, text=piece.result))
                else:
                    el.addElement(text.SequenceRef(referenceformat="category-and-value", refname=piece.odt_name,
                                                   text=piece.result))
            elif isinstance(piece, Math):
                self.objects += 1
                href = _math_object(self.doc, piece.tokens)
                frame = draw.Frame(stylename=self.st["frame"], anchortype="as-char", width="1.6in", height="0.3in",
                                   name=f"Object{self.objects}")
                frame.addElement(draw.Object(href=href))
                el.addElement(frame)
            else:  # pragma: no cover
                raise TypeError(piece)
            if bookmark and i == end_at - 1:
                el.addElement(text.BookmarkEnd(name=bookmark))

    _bold_style = None

    def _bold(self):
        if self._bold_style is None:
            self._bold_style = style.Style(name="T_bold", family="text")
            self._bold_style.addElement(style.TextProperties(fontweight="bold"))
            self.doc.automaticstyles.addElement(self._bold_style)
        return self._bold_style

    def block(self, b: Block) -> None:
        body = self.doc.text
        if b.style != "list":
            self.list_el = self.list_id = None
        if b.style == "heading":
            h = text.H(outlinelevel=b.level, stylename=self.st[f"h{b.level}"])
            self.pieces(h, b.pieces, b.bookmark, b.bookmark_span)
            if b.appendix:
                lst = text.List(stylename=self.st["appendix"])
                if self.appendix_list_id is None:
                    self.appendix_list_id = "appendix-list"
                    lst.setAttribute("id", self.appendix_list_id)
                else:
                    lst.setAttribute("continuelist", self.appendix_list_id)
                item = text.ListItem()
                item.addElement(h)
                lst.addElement(item)
                body.addElement(lst)
            else:
                body.addElement(h)
        elif b.style == "list":
            if self.list_el is None or self.list_id != b.list_id:
                self.list_el = text.List(stylename=self.st["numbering"])
                self.list_id = b.list_id
                body.addElement(self.list_el)
            item = text.ListItem()
            p = text.P(stylename=self.st["list"])
            self.pieces(p, b.pieces)
            item.addElement(p)
            self.list_el.addElement(item)
        elif b.style == "table":
            self.table(b)
        elif b.style == "figure":
            p = text.P(stylename=self.st["figure"])
            href = self.doc.addPicture(f"Pictures/figure{b.number}.png", "image/png", b.image or b"")
            frame = draw.Frame(stylename=self.st["frame"], anchortype="as-char", width="1.5in", height="1in",
                               name=f"Figure{b.number}")
            frame.addElement(draw.Image(href=href))
            desc = svg.Desc()
            desc.addText(b.alt or "")
            frame.addElement(desc)
            p.addElement(frame)
            body.addElement(p)
        else:
            key = {"title": "title", "caption": "caption", "equation": "equation"}.get(b.style, "body")
            p = text.P(stylename=self.st[key])
            self.pieces(p, b.pieces, b.bookmark, b.bookmark_span)
            body.addElement(p)

    def table(self, b: Block) -> None:
        rows = b.rows or []
        t = table.Table(name=f"Table{b.number}")
        t.addElement(table.TableColumn(numbercolumnsrepeated=len(rows[0])))
        for row in rows:
            tr = table.TableRow()
            for cell in row:
                tc = table.TableCell(valuetype="string")
                p = text.P(stylename=self.st["cell"])
                self.pieces(p, cell)
                tc.addElement(p)
                tr.addElement(tc)
            t.addElement(tr)
        self.doc.text.addElement(t)


def write_odt(blocks: list[Block], path: str, title: str) -> None:
    """Write ``blocks`` as an .odt at ``path``."""
    from odf import dc, meta

    doc = OpenDocumentText()
    doc.meta.addElement(dc.Title(text=title))
    doc.meta.addElement(meta.Generator(text="LEDGER benchmark generator"))
    writer = _Writer(doc)
    for b in blocks:
        writer.block(b)
    doc.save(path)
