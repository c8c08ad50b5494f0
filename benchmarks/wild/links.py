"""The explicit links of a .docx or .odt, read from the package itself (ECMA-376, ODF 1.3): the truth
the wild battery scores LEDGER's REFERENCES against, written without the readers so it can judge them.

A link names its target: a DOCX ``REF``/``PAGEREF``/``NOTEREF`` field (complex or ``w:fldSimple``),
a ``HYPERLINK … \\l "name"`` field or a ``w:hyperlink w:anchor`` names a bookmark
(``w:bookmarkStart``); an ODF ``text:bookmark-ref`` a bookmark (``text:bookmark``,
``text:bookmark-start``), ``text:reference-ref`` a reference mark, ``text:sequence-ref`` a sequence
number's ``text:ref-name``, ``text:note-ref`` a note's ``text:id``, and ``text:a xlink:href="#name"``
a bookmark (``#Heading|outline``: the heading of that text). The paragraph that holds the named
target is the target; a link whose name nothing carries is a defect to count, not a pair.

Each paragraph says where it lies (``body``, ``table``, ``toc``, ``note``, ``header``, ``footer``,
``frame``): a table of contents (a ``TOC`` field's result, a ``w:sdt`` of the "Table of Contents"
gallery, ``text:table-of-content`` and the other ODF indexes) is no body text, and its entries'
links are counted apart.
"""
from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator
from urllib.parse import unquote

from lxml import etree

from adapters.docx.oxml import NSMAP as W_NS
from adapters.odt.odfxml import NSMAP as O_NS

__all__ = ["Para", "Link", "Links", "extract", "extract_docx", "extract_odt"]

#: Where a paragraph lies; links from the first group are scored, the rest counted apart.
SCORED = ("body", "table", "note", "frame")

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True, remove_blank_text=False)


@dataclass
class Para:
    """One paragraph in package order: where it lies, its visible text (the accepted view),
    and the top-level body table that holds it (its ordinal), if one does."""

    index: int
    part: str
    where: str
    text: str
    table: int | None = None


@dataclass
class Link:
    """A field or hyperlink in paragraph ``source`` naming ``name`` in the ``space`` of names it
    looks in (``bookmark``, ``reference``, ``sequence``, ``note``, ``outline``)."""

    source: int
    kind: str
    name: str
    text: str = ""
    space: str = "bookmark"


@dataclass
class Links:
    """Every paragraph, link and named target of one package."""

    paragraphs: list[Para] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    #: (space, name) -> the paragraph holding it
    targets: dict[tuple[str, str], int] = field(default_factory=dict)

    def target(self, link: Link) -> int | None:
        """The paragraph ``link`` points at, or ``None`` when nothing carries its name."""
        if link.space == "outline":
            want = _norm(link.name)
            return next((p.index for p in self.paragraphs if p.where in ("body", "table") and _norm(p.text) == want), None)
        return self.targets.get((link.space, link.name))

    def resolved(self) -> Iterator[tuple[Link, int]]:
        """Each link with the paragraph it points at (links to nothing left out)."""
        for ln in self.links:
            t = self.target(ln)
            if t is not None:
                yield ln, t

    def broken(self) -> list[Link]:
        """The links whose target name nothing in the package carries."""
        return [ln for ln in self.links if self.target(ln) is None]


def _norm(text: str) -> str:
    return " ".join(text.split())


def extract(path: str | Path) -> Links:
    """The links of the .docx or .odt at ``path``."""
    with zipfile.ZipFile(path) as z:
        names = set(z.namelist())
        if "word/document.xml" in names:
            return extract_docx(z)
        if "content.xml" in names:
            return extract_odt(z)
    raise ValueError(f"{path}: neither a .docx nor an .odt")


# --- WordprocessingML ----------------------------------------------------------------------------

def _w(name: str) -> str:
    return f"{{{W_NS['w']}}}{name}"


_P, _T, _TAB, _BR, _CR, _NBH = _w("p"), _w("t"), _w("tab"), _w("br"), _w("cr"), _w("noBreakHyphen")
_TBL, _FLDCHAR, _INSTR, _SIMPLE, _HYPER = _w("tbl"), _w("fldChar"), _w("instrText"), _w("fldSimple"), _w("hyperlink")
_BMSTART, _SDT, _DEL, _MOVEFROM, _TXBX = _w("bookmarkStart"), _w("sdt"), _w("del"), _w("moveFrom"), _w("txbxContent")
_PPR, _RPR = _w("pPr"), _w("rPr")
_FIELD_REF = re.compile(r"^\s*(REF|PAGEREF|NOTEREF)\s+(\S+)", re.I)
_FIELD_LINK = re.compile(r'^\s*HYPERLINK\b.*?\\l\s+"?([^"\s]+)"?', re.I)
_FIELD_TOC = re.compile(r"^\s*TOC\b", re.I)


def _instruction_links(instr: str) -> tuple[str, str] | None:
    """(kind, bookmark) named by a field instruction, or ``None`` for a field that names none.

    >>> _instruction_links(' REF _Ref123 \\\\r \\\\h '), _instruction_links('PAGEREF _Toc5 \\\\h')
    (('REF', '_Ref123'), ('PAGEREF', '_Toc5'))
    >>> _instruction_links('HYPERLINK \\\\l "_Toc9"'), _instruction_links('HYPERLINK "https://x"')
    (('HYPERLINK', '_Toc9'), None)
    """
    m = _FIELD_REF.match(instr)
    if m:
        return m.group(1).upper(), m.group(2).strip('"')
    m = _FIELD_LINK.match(instr)
    if m:
        return "HYPERLINK", m.group(1)
    return None


class _DocxWalk:
    """One pass over the parts in order; fields may span paragraphs (a TOC does)."""

    def __init__(self, out: Links) -> None:
        self.out = out
        self.fields: list[dict] = []  # open complex fields: instr, phase, source, text
        self.para: int | None = None
        self.pending: list[tuple[str, str]] = []  # bookmarks met between paragraphs
        self.tables = 0
        self.toc_text = False

    def part(self, root: etree._Element, part: str, where: str) -> None:
        self.fields = []
        self._walk(root, part, where, None, 0, False)

    def _walk(self, el: etree._Element, part: str, where: str, table: int | None, depth: int, toc: bool) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in (_DEL, _MOVEFROM, _PPR, _RPR):
                continue
            if tag == _P:
                self._paragraph(child, part, where, table, toc)
            elif tag == _TBL:
                t = table
                if depth == 0 and where == "body":
                    t = self.tables
                    self.tables += 1
                self._walk(child, part, "table" if where == "body" else where, t, depth + 1, toc)
            elif tag == _SDT:
                gallery = child.find(f"{_w('sdtPr')}/{_w('docPartObj')}/{_w('docPartGallery')}")
                is_toc = gallery is not None and "table of contents" in (gallery.get(_w("val")) or "").lower()
                self._walk(child, part, where, table, depth, toc or is_toc)
            elif tag == _BMSTART:
                self._bookmark(child)
            else:
                self._walk(child, part, where, table, depth, toc)

    def _bookmark(self, el: etree._Element) -> None:
        name = el.get(_w("name"))
        if not name:
            return
        if self.para is None:
            self.pending.append(("bookmark", name))
        else:
            self.out.targets.setdefault(("bookmark", name), self.para)

    def _paragraph(self, p: etree._Element, part: str, where: str, table: int | None, toc: bool) -> None:
        outer = self.para
        index = len(self.out.paragraphs)
        para = Para(index, part, where, "", table)
        self.out.paragraphs.append(para)
        self.para = index
        for kind, name in self.pending:
            self.out.targets.setdefault((kind, name), index)
        self.pending = []
        text: list[str] = []
        outer_toc, self.toc_text = self.toc_text, False
        self._runs(p, text, part, where, table)
        para.text = "".join(text)
        if toc or self.toc_text:  # its text is a TOC field's result, or it lies in a TOC gallery
            para.where = "toc"
        self.para, self.toc_text = outer, outer_toc

    def _emit(self, s: str, text: list[str]) -> None:
        text.append(s)
        for f in self.fields:
            if f["phase"] == "result":
                f["text"].append(s)
                self.toc_text = self.toc_text or (f["toc"] and bool(s.strip()))

    def _runs(self, el: etree._Element, text: list[str], part: str, where: str, table: int | None) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in (_DEL, _MOVEFROM, _PPR, _RPR):
                continue
            if tag == _T:
                self._emit(child.text or "", text)
            elif tag == _TAB:
                self._emit("\t", text)
            elif tag in (_BR, _CR):
                self._emit("\n", text)
            elif tag == _NBH:
                self._emit("\u2011", text)
            elif tag == _FLDCHAR:
                self._field_char(child)
            elif tag == _INSTR:
                if self.fields and self.fields[-1]["phase"] == "code":
                    self.fields[-1]["instr"].append(child.text or "")
            elif tag == _BMSTART:
                self._bookmark(child)
            elif tag == _SIMPLE:
                instr = child.get(_w("instr")) or ""
                sub: list[str] = []
                self._runs(child, sub, part, where, table)
                text.extend(sub)
                found = _instruction_links(instr)
                if found and self.para is not None:
                    self.out.links.append(Link(self.para, found[0], found[1], "".join(sub)))
            elif tag == _HYPER:
                sub = []
                self._runs(child, sub, part, where, table)
                text.extend(sub)
                anchor = child.get(_w("anchor"))
                if anchor and self.para is not None:
                    self.out.links.append(Link(self.para, "hyperlink", anchor, "".join(sub)))
            elif tag == _TXBX:  # a text box: its paragraphs are frames of their own
                self._walk(child, part, "frame", table, 1, False)
            elif tag == _P:
                self._paragraph(child, part, where, table, False)
            else:
                self._runs(child, text, part, where, table)

    def _field_char(self, el: etree._Element) -> None:
        kind = el.get(_w("fldCharType"))
        if kind == "begin":
            self.fields.append({"instr": [], "phase": "code", "source": self.para, "text": [], "toc": False})
        elif kind == "separate" and self.fields:
            f = self.fields[-1]
            f["phase"] = "result"
            f["toc"] = bool(_FIELD_TOC.match("".join(f["instr"])))
        elif kind == "end" and self.fields:
            f = self.fields.pop()
            found = _instruction_links("".join(f["instr"]))
            if found and f["source"] is not None:
                self.out.links.append(Link(f["source"], found[0], found[1], "".join(f["text"])))


def extract_docx(z: zipfile.ZipFile) -> Links:
    """The links of a WordprocessingML package (``z`` open)."""
    out = Links()
    walk = _DocxWalk(out)
    names = set(z.namelist())
    body = etree.fromstring(z.read("word/document.xml"), _PARSER).find(_w("body"))
    if body is not None:
        walk.part(body, "word/document.xml", "body")
    for part, where in (("word/footnotes.xml", "note"), ("word/endnotes.xml", "note")):
        if part in names:
            walk.part(etree.fromstring(z.read(part), _PARSER), part, where)
    for part in sorted(n for n in names if re.fullmatch(r"word/(header|footer)\d*\.xml", n)):
        walk.part(etree.fromstring(z.read(part), _PARSER), part, "header" if "header" in part else "footer")
    return out


# --- OpenDocument -------------------------------------------------------------------------------

def _o(name: str) -> str:
    prefix, _, local = name.partition(":")
    return f"{{{O_NS[prefix]}}}{local}"


_OP, _OH, _OTABLE, _OS, _OTAB, _OLB = _o("text:p"), _o("text:h"), _o("table:table"), _o("text:s"), _o("text:tab"), _o("text:line-break")
_OA, _ONOTE, _ONOTEBODY, _OCITE = _o("text:a"), _o("text:note"), _o("text:note-body"), _o("text:note-citation")
_OTRACKED, _OANNOT, _OANNOT_END, _OTEXTBOX = (_o("text:tracked-changes"), _o("office:annotation"),
                                              _o("office:annotation-end"), _o("draw:text-box"))
_OINDEX = {_o(f"text:{n}") for n in ("table-of-content", "illustration-index", "table-index", "object-index",
                                      "user-index", "alphabetical-index", "bibliography")}
_OTARGETS = {_o("text:bookmark"): "bookmark", _o("text:bookmark-start"): "bookmark",
             _o("text:reference-mark"): "reference", _o("text:reference-mark-start"): "reference"}
_OREFS = {_o("text:bookmark-ref"): "bookmark", _o("text:reference-ref"): "reference",
          _o("text:sequence-ref"): "sequence", _o("text:note-ref"): "note"}
_OSEQ, _XHREF, _NAME, _REFNAME, _ID, _C = (_o("text:sequence"), _o("xlink:href"), _o("text:name"),
                                            _o("text:ref-name"), _o("text:id"), _o("text:c"))


class _OdtWalk:
    def __init__(self, out: Links) -> None:
        self.out = out
        self.para: int | None = None
        self.tables = 0

    def walk(self, el: etree._Element, part: str, where: str, table: int | None, depth: int) -> None:
        for child in el:
            tag = child.tag
            if not isinstance(tag, str) or tag in (_OTRACKED, _OANNOT):
                continue
            if tag in (_OP, _OH):
                self._paragraph(child, part, where, table)
            elif tag == _OTABLE:
                t = table
                if depth == 0 and where == "body":
                    t = self.tables
                    self.tables += 1
                self.walk(child, part, "table" if where == "body" else where, t, depth + 1)
            elif tag in _OINDEX:
                self.walk(child, part, "toc", table, depth)
            else:
                self.walk(child, part, where, table, depth)

    def _paragraph(self, p: etree._Element, part: str, where: str, table: int | None) -> None:
        outer = self.para
        index = len(self.out.paragraphs)
        para = Para(index, part, where, "", table)
        self.out.paragraphs.append(para)
        self.para = index
        text: list[str] = []
        if p.text:
            text.append(p.text)
        self._inline(p, text, part, where, table)
        para.text = "".join(text)
        self.para = outer

    def _inline(self, el: etree._Element, text: list[str], part: str, where: str, table: int | None) -> None:
        for child in el:
            tag = child.tag
            if isinstance(tag, str) and tag not in (_OTRACKED, _OANNOT, _OCITE):
                self._element(child, tag, text, part, where, table)
            if child.tail:
                text.append(child.tail)

    def _element(self, child: etree._Element, tag: str, text: list[str], part: str, where: str,
                 table: int | None) -> None:
        if tag == _OS:
            text.append(" " * int(child.get(_C) or 1))
        elif tag == _OTAB:
            text.append("\t")
        elif tag == _OLB:
            text.append("\n")
        elif tag in _OTARGETS:
            name = child.get(_NAME)
            if name and self.para is not None:
                self.out.targets.setdefault((_OTARGETS[tag], name), self.para)
        elif tag == _ONOTE:
            nid = child.get(_ID)
            if nid and self.para is not None:
                self.out.targets.setdefault(("note", nid), self.para)
            body = child.find(_ONOTEBODY)
            if body is not None:
                self.walk(body, part, "note", None, 1)
        elif tag == _OTEXTBOX:
            self.walk(child, part, "frame", None, 1)
        elif tag in (_OP, _OH):
            self._paragraph(child, part, where, table)
        else:
            sub: list[str] = [child.text] if child.text else []
            self._inline(child, sub, part, where, table)
            text.extend(sub)
            shown = "".join(sub)
            if tag == _OSEQ and child.get(_REFNAME) and self.para is not None:
                self.out.targets.setdefault(("sequence", child.get(_REFNAME)), self.para)
            elif tag in _OREFS and child.get(_REFNAME) and self.para is not None:
                self.out.links.append(Link(self.para, tag.rpartition("}")[2], child.get(_REFNAME) or "", shown,
                                           _OREFS[tag]))
            elif tag == _OA and self.para is not None:
                href = child.get(_XHREF) or ""
                if href.startswith("#") and len(href) > 1:
                    name = unquote(href[1:])
                    target, _, kind = name.rpartition("|")
                    if kind == "outline":
                        self.out.links.append(Link(self.para, "a", target, shown, "outline"))
                    elif target and kind:  # a table, frame, graphic or section by name: no paragraph
                        pass
                    else:
                        self.out.links.append(Link(self.para, "a", name, shown, "bookmark"))


def extract_odt(z: zipfile.ZipFile) -> Links:
    """The links of an OpenDocument text package (``z`` open)."""
    out = Links()
    walk = _OdtWalk(out)
    content = etree.fromstring(z.read("content.xml"), _PARSER)
    body = content.find(f"{_o('office:body')}/{_o('office:text')}")
    if body is not None:
        walk.walk(body, "content.xml", "body", None, 0)
    if "styles.xml" in z.namelist():
        styles = etree.fromstring(z.read("styles.xml"), _PARSER)
        for page in styles.iter(_o("style:master-page")):
            for child in page:
                local = child.tag.rpartition("}")[2] if isinstance(child.tag, str) else ""
                if local.startswith(("header", "footer")):
                    walk.walk(child, "styles.xml", "header" if local.startswith("header") else "footer", None, 1)
    return out
