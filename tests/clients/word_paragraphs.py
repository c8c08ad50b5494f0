"""The paragraphs of a .docx or .odt as Word's JavaScript API shows them, read from the file itself.

The scripted Word host of the pane's tests (tests/js/browser/office-shim.js) is fed with this:
``body.paragraphs`` in order -- every paragraph of a table cell one paragraph, with its
``tableNestingLevel`` -- each with the text Word's ``Paragraph.text`` gives and its list number
apart (``ListItem.listString``). It is written from ECMA-376 and ODF 1.3, independent of LEDGER's
readers, so that the pane is tried on what Word shows rather than on what LEDGER read:

- a manual line break is U+000B, a tab U+0009, a page break U+000C, a column break U+000E, a
  non-breaking hyphen U+001E, an optional hyphen U+001F, a note reference U+0002, a picture or
  an embedded object U+0001 (Word's own characters for them);
- a field shows its result, never its code; hidden text (``w:vanish``, ``text:hidden-text``) is
  not shown;
- a tracked deletion stays in the text (struck through, until accepted), a tracked insertion is
  there too; each is given as a run with ``del``/``ins`` so the host keeps them as tracked changes;
- the list number (automatic numbering of a list or a heading) is not in the text.

``accepted(data)`` and ``rejected(data)`` give the paragraphs' texts with every tracked change
accepted or rejected: what a document written by LEDGER's server must read as once Word holds
the same changes.
"""
from __future__ import annotations

import base64
import io
import re
import zipfile
from pathlib import Path
from typing import Any, Iterator

from lxml import etree

__all__ = ["word_paragraphs", "host_config", "accepted", "rejected", "comparable"]

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
M = "http://schemas.openxmlformats.org/officeDocument/2006/math"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
FO = "urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"
DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"


def w(tag: str) -> str:
    return f"{{{W}}}{tag}"


def t(tag: str) -> str:
    return f"{{{TEXT}}}{tag}"


_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)


def _xml(z: zipfile.ZipFile, name: str) -> etree._Element | None:
    try:
        return etree.fromstring(z.read(name), _PARSER)
    except KeyError:
        return None


# --- numbering: the list strings Word shows apart from the text --------------------------------

def _roman(n: int) -> str:
    out = ""
    for v, s in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"),
                 (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out += s
            n -= v
    return out


def _letters(n: int) -> str:
    # Word: a..z, then aa..zz, aaa..
    if n <= 0:
        return ""
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def _format(n: int, fmt: str) -> str:
    fmt = fmt or "decimal"
    if fmt in ("decimal", "1"):
        return str(n)
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("lowerLetter", "a"):
        return _letters(n)
    if fmt in ("upperLetter", "A"):
        return _letters(n).upper()
    if fmt in ("lowerRoman", "i"):
        return _roman(n)
    if fmt in ("upperRoman", "I"):
        return _roman(n).upper()
    if fmt in ("none", ""):
        return ""
    return str(n)


class _DocxNumbering:
    """Counters of ``numbering.xml`` lists, as Word numbers paragraphs in document order."""

    def __init__(self, numbering: etree._Element | None, styles: "_DocxStyles") -> None:
        self.styles = styles
        self.abstract: dict[str, dict[int, dict[str, Any]]] = {}
        self.nums: dict[str, tuple[str, dict[int, int]]] = {}
        self.counters: dict[str, list[int]] = {}
        self.started: set[str] = set()
        if numbering is None:
            return
        for a in numbering.iter(w("abstractNum")):
            self.abstract[a.get(w("abstractNumId")) or ""] = {int(lv.get(w("ilvl")) or 0): self._level(lv) for lv in a.iter(w("lvl"))}
        for n in numbering.iter(w("num")):
            aid = n.find(w("abstractNumId"))
            overrides = {}
            for o in n.iter(w("lvlOverride")):
                so = o.find(w("startOverride"))
                if so is not None:
                    overrides[int(o.get(w("ilvl")) or 0)] = int(so.get(w("val")) or 1)
            self.nums[n.get(w("numId")) or ""] = (aid.get(w("val")) if aid is not None else "", overrides)

    @staticmethod
    def _level(lv: etree._Element) -> dict[str, Any]:
        def val(tag: str, default: str = "") -> str:
            e = lv.find(w(tag))
            return e.get(w("val")) if e is not None and e.get(w("val")) is not None else default
        return {"start": int(val("start", "1") or 1), "fmt": val("numFmt", "decimal"), "text": val("lvlText", "")}

    def list_string(self, p: etree._Element) -> str | None:
        num_id, ilvl = self.styles.numbering_of(p)
        if not num_id or num_id == "0" or num_id not in self.nums:
            return None
        aid, overrides = self.nums[num_id]
        levels = self.abstract.get(aid, {})
        if ilvl not in levels:
            return None
        key = aid
        counts = self.counters.setdefault(key, [0] * 10)
        if num_id not in self.started and overrides:
            for lv, start in overrides.items():
                counts[lv] = start - 1
            self.started.add(num_id)
        self.started.add(num_id)
        counts[ilvl] = counts[ilvl] + 1 if counts[ilvl] else levels[ilvl]["start"]
        for deeper in range(ilvl + 1, 10):
            counts[deeper] = 0
        lvl = levels[ilvl]
        if lvl["fmt"] == "bullet":
            return lvl["text"]

        def sub(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            spec = levels.get(k, {"fmt": "decimal", "start": 1})
            return _format(counts[k] or spec["start"], spec["fmt"])
        return re.sub(r"%(\d)", sub, lvl["text"])


class _DocxStyles:
    """Paragraph and character styles: which hide their text (``w:vanish``) and which number."""

    def __init__(self, styles: etree._Element | None) -> None:
        self.by_id: dict[str, etree._Element] = {}
        if styles is not None:
            for s in styles.iter(w("style")):
                self.by_id[s.get(w("styleId")) or ""] = s

    def _chain(self, sid: str | None) -> Iterator[etree._Element]:
        seen = set()
        while sid and sid in self.by_id and sid not in seen:
            seen.add(sid)
            s = self.by_id[sid]
            yield s
            b = s.find(w("basedOn"))
            sid = b.get(w("val")) if b is not None else None

    def hidden(self, sid: str | None) -> bool:
        for s in self._chain(sid):
            v = s.find(f"{w('rPr')}/{w('vanish')}")
            if v is not None:
                return _on(v)
        return False

    def numbering_of(self, p: etree._Element) -> tuple[str | None, int]:
        ppr = p.find(w("pPr"))
        num = ppr.find(w("numPr")) if ppr is not None else None
        num_id = ilvl = None
        if num is not None:
            n = num.find(w("numId"))
            lv = num.find(w("ilvl"))
            num_id = n.get(w("val")) if n is not None else None
            ilvl = int(lv.get(w("val")) or 0) if lv is not None else None
        if num_id is None:
            ps = ppr.find(w("pStyle")) if ppr is not None else None
            for s in self._chain(ps.get(w("val")) if ps is not None else None):
                sn = s.find(f"{w('pPr')}/{w('numPr')}")
                if sn is None:
                    continue
                n = sn.find(w("numId"))
                lv = sn.find(w("ilvl"))
                num_id = n.get(w("val")) if n is not None else None
                if ilvl is None and lv is not None:
                    ilvl = int(lv.get(w("val")) or 0)
                break
        return num_id, ilvl or 0


def _on(e: etree._Element) -> bool:
    return (e.get(w("val")) or "true") not in ("false", "0", "off")


class _DocxParagraph:
    """One ``w:p`` as Word's Paragraph.text: runs of text, each plain, inserted or deleted."""

    def __init__(self, styles: _DocxStyles) -> None:
        self.styles = styles
        self.runs: list[dict[str, Any]] = []
        self.fields: list[str] = []  # the state of each open complex field: "code" or "result"
        self.para_hidden = False

    def add(self, text: str, rev: str | None) -> None:
        if not text or any(f == "code" for f in self.fields):
            return
        if self.runs and self.runs[-1].get("rev") == rev:
            self.runs[-1]["text"] += text
        else:
            self.runs.append({"text": text, "rev": rev})

    def walk(self, el: etree._Element, rev: str | None = None) -> None:
        for ch in el:
            tag = ch.tag
            if tag == w("r"):
                self.run(ch, rev)
            elif tag in (w("ins"), w("moveTo")):
                self.walk(ch, "ins")
            elif tag in (w("del"), w("moveFrom")):
                self.walk(ch, "del")
            elif tag in (w("hyperlink"), w("smartTag"), w("customXml"), w("fldSimple"), w("dir"), w("bdo")):
                self.walk(ch, rev)
            elif tag == w("sdt"):
                c = ch.find(w("sdtContent"))
                if c is not None:
                    self.walk(c, rev)
            elif tag == f"{{{MC}}}AlternateContent":
                choice = ch.find(f"{{{MC}}}Choice")
                if choice is not None:
                    self.walk(choice, rev)
            elif tag in (f"{{{M}}}oMath", f"{{{M}}}oMathPara"):
                self.add("".join(x.text or "" for x in ch.iter(f"{{{M}}}t")), rev)

    def run(self, r: etree._Element, rev: str | None) -> None:
        rpr = r.find(w("rPr"))
        hidden = False
        if rpr is not None:
            v = rpr.find(w("vanish"))
            rs = rpr.find(w("rStyle"))
            if v is not None:
                hidden = _on(v)
            elif rs is not None:
                hidden = self.styles.hidden(rs.get(w("val")))
            elif self.para_hidden:
                hidden = True
        elif self.para_hidden:
            hidden = True
        for ch in r:
            tag = ch.tag
            if tag == w("fldChar"):
                kind = ch.get(w("fldCharType"))
                if kind == "begin":
                    self.fields.append("code")
                elif kind == "separate" and self.fields:
                    self.fields[-1] = "result"
                elif kind == "end" and self.fields:
                    self.fields.pop()
                continue
            if hidden:
                continue
            if tag in (w("t"), w("delText")):
                self.add(ch.text or "", rev)
            elif tag in (w("tab"), w("ptab")):
                self.add("\t", rev)
            elif tag == w("br"):
                kind = ch.get(w("type")) or "textWrapping"
                self.add({"page": "\u000c", "column": "\u000e"}.get(kind, "\u000b"), rev)
            elif tag == w("cr"):
                self.add("\u000b", rev)
            elif tag == w("noBreakHyphen"):
                self.add("\u001e", rev)
            elif tag == w("softHyphen"):
                self.add("\u001f", rev)
            elif tag == w("sym"):
                code = ch.get(w("char")) or ""
                try:
                    self.add(chr(int(code, 16)), rev)
                except ValueError:
                    pass
            elif tag in (w("footnoteReference"), w("endnoteReference")):
                self.add("\u0002", rev)
            elif tag in (w("drawing"), w("pict"), w("object")):
                self.add("\u0001", rev)
            elif tag == f"{{{MC}}}AlternateContent":
                self.add("\u0001", rev)


def _docx(data: bytes) -> list[dict[str, Any]]:
    z = zipfile.ZipFile(io.BytesIO(data))
    doc = _xml(z, "word/document.xml")
    if doc is None:
        raise ValueError("not a .docx: word/document.xml is missing")
    styles = _DocxStyles(_xml(z, "word/styles.xml"))
    numbering = _DocxNumbering(_xml(z, "word/numbering.xml"), styles)
    out: list[dict[str, Any]] = []
    table_ids = [0]

    def block(el: etree._Element, tables: list[int], row_deleted: bool = False) -> None:
        for ch in el:
            tag = ch.tag
            if tag == w("p"):
                para(ch, tables, row_deleted)
            elif tag == w("tbl"):
                table_ids[0] += 1
                tid = table_ids[0]
                for row in _rows(ch):
                    trpr = row.find(w("trPr"))
                    gone = row_deleted or (trpr is not None and trpr.find(w("del")) is not None)
                    for cell in _cells(row):
                        block(cell, [*tables, tid], gone)
            elif tag in (w("sdt"),):
                c = ch.find(w("sdtContent"))
                if c is not None:
                    block(c, tables, row_deleted)
            elif tag == w("customXml"):
                block(ch, tables, row_deleted)

    def para(p: etree._Element, tables: list[int], row_deleted: bool) -> None:
        ppr = p.find(w("pPr"))
        ps = ppr.find(w("pStyle")) if ppr is not None else None
        sid = ps.get(w("val")) if ps is not None else None
        walker = _DocxParagraph(styles)
        walker.para_hidden = styles.hidden(sid)
        walker.walk(p)
        mark = ppr.find(f"{w('rPr')}/{w('del')}") if ppr is not None else None
        mark_ins = ppr.find(f"{w('rPr')}/{w('ins')}") if ppr is not None else None
        entry: dict[str, Any] = {"runs": [{"text": r["text"], **({r["rev"]: True} if r["rev"] else {})} for r in walker.runs],
                                 "style": sid or "Normal", "listString": numbering.list_string(p),
                                 "tableNestingLevel": len(tables)}
        if tables:
            entry["table"] = tables[-1]
            entry["tables"] = tables
        if mark is not None or row_deleted:
            entry["markDeleted"] = True
        if mark_ins is not None:
            entry["markInserted"] = True
        out.append(entry)

    body = doc.find(w("body"))
    if body is not None:
        block(body, [])
    return out


def _rows(tbl: etree._Element) -> Iterator[etree._Element]:
    for ch in tbl:
        if ch.tag == w("tr"):
            yield ch
        elif ch.tag in (w("sdt"), w("customXml")):
            c = ch.find(w("sdtContent")) if ch.tag == w("sdt") else ch
            if c is not None:
                yield from _rows(c)


def _cells(tr: etree._Element) -> Iterator[etree._Element]:
    for ch in tr:
        if ch.tag == w("tc"):
            yield ch
        elif ch.tag in (w("sdt"), w("customXml")):
            c = ch.find(w("sdtContent")) if ch.tag == w("sdt") else ch
            if c is not None:
                yield from _cells(c)


# --- ODF ------------------------------------------------------------------------------------------

class _OdtLists:
    """List and outline numbering of ODF: the labels a list item or a numbered heading shows."""

    def __init__(self, roots: list[etree._Element]) -> None:
        self.styles: dict[str, dict[int, dict[str, Any]]] = {}
        self.outline: dict[int, dict[str, Any]] = {}
        for root in roots:
            for ls in root.iter(t("list-style")):
                self.styles[ls.get(f"{{{STYLE}}}name") or ""] = self._levels(ls)
            for os_ in root.iter(t("outline-style")):
                self.outline = self._levels(os_)
        self.counters: dict[str, list[int]] = {}
        self.heading = [0] * 11

    @staticmethod
    def _levels(el: etree._Element) -> dict[int, dict[str, Any]]:
        out = {}
        for lv in el:
            level = int(lv.get(t("level")) or 1)
            if lv.tag == t("list-level-style-bullet"):
                out[level] = {"bullet": lv.get(t("bullet-char")) or "•"}
            elif lv.tag in (t("list-level-style-number"), t("outline-level-style")):
                out[level] = {"fmt": lv.get(f"{{{STYLE}}}num-format") or "", "prefix": lv.get(f"{{{STYLE}}}num-prefix") or "",
                              "suffix": lv.get(f"{{{STYLE}}}num-suffix") or "", "display": int(lv.get(t("display-levels")) or 1),
                              "start": int(lv.get(t("start-value")) or 1)}
        return out

    def _label(self, levels: dict[int, dict[str, Any]], counts: list[int], level: int) -> str | None:
        spec = levels.get(level)
        if not spec:
            return None
        if "bullet" in spec:
            return spec["bullet"]
        if not spec["fmt"]:
            return None
        parts = []
        for k in range(level - spec["display"] + 1, level + 1):
            s = levels.get(k, {"fmt": "1", "start": 1})
            parts.append(_format(counts[k] or s.get("start", 1), s.get("fmt", "1")))
        return f"{spec['prefix']}{'.'.join(parts)}{spec['suffix']}"

    def item(self, style: str, level: int, restart: bool) -> str | None:
        levels = self.styles.get(style)
        if not levels:
            return None
        counts = self.counters.setdefault(style, [0] * 12)
        if restart:
            self.counters[style] = counts = [0] * 12
        start = levels.get(level, {}).get("start", 1)
        counts[level] = counts[level] + 1 if counts[level] else start
        for k in range(level + 1, 12):
            counts[k] = 0
        return self._label(levels, counts, level)

    def head(self, level: int) -> str | None:
        if not self.outline or level not in self.outline:
            return None
        start = self.outline.get(level, {}).get("start", 1)
        self.heading[level] = self.heading[level] + 1 if self.heading[level] else start
        for k in range(level + 1, 11):
            self.heading[k] = 0
        return self._label(self.outline, self.heading, level)


class _OdtParagraph:
    def __init__(self, changes: dict[str, tuple[str, str]], hidden_styles: set[str]) -> None:
        self.runs: list[dict[str, Any]] = []
        self.changes = changes
        self.hidden_styles = hidden_styles
        self.open_ins: set[str] = set()

    def add(self, text: str, rev: str | None) -> None:
        if not text:
            return
        if self.open_ins:
            rev = "ins"
        if self.runs and self.runs[-1].get("rev") == rev:
            self.runs[-1]["text"] += text
        else:
            self.runs.append({"text": text, "rev": rev})

    def walk(self, el: etree._Element) -> None:
        if el.text:
            self.add(_odf_chars(el.text), None)
        for ch in el:
            tag = ch.tag
            if tag == t("s"):
                self.add(" " * int(ch.get(t("c")) or 1), None)
            elif tag == t("tab"):
                self.add("\t", None)
            elif tag == t("line-break"):
                self.add("\u000b", None)
            elif tag == t("note"):
                self.add("\u0002", None)
            elif tag in (t("hidden-text"), t("hidden-paragraph"), t("bookmark"), t("bookmark-start"), t("bookmark-end"),
                         t("reference-mark"), t("reference-mark-start"), t("reference-mark-end"), t("soft-page-break"),
                         f"{{{OFFICE}}}annotation", f"{{{OFFICE}}}annotation-end", t("sequence-decls")):
                pass
            elif tag == t("change-start"):
                cid = ch.get(t("change-id")) or ""
                if self.changes.get(cid, ("", ""))[0] == "insertion":
                    self.open_ins.add(cid)
            elif tag == t("change-end"):
                self.open_ins.discard(ch.get(t("change-id")) or "")
            elif tag == t("change"):
                kind, deleted = self.changes.get(ch.get(t("change-id")) or "", ("", ""))
                if kind == "deletion":
                    self.add(deleted, "del")
            elif tag == f"{{{DRAW}}}frame":
                self.add("\u0001", None)
            elif tag == t("span") and (ch.get(t("style-name")) or "") in self.hidden_styles:
                pass
            else:
                self.walk(ch)  # spans, links, fields (their result is their text), ruby
            if ch.tail:
                self.add(_odf_chars(ch.tail), None)


def _odf_chars(s: str) -> str:
    # the characters Word uses for a non-breaking and an optional hyphen
    return s.replace("\u2011", "\u001e").replace("\u00ad", "\u001f")


def _odt(data: bytes) -> list[dict[str, Any]]:
    z = zipfile.ZipFile(io.BytesIO(data))
    content = _xml(z, "content.xml")
    if content is None:
        raise ValueError("not an .odt: content.xml is missing")
    styles = _xml(z, "styles.xml")
    lists = _OdtLists([r for r in (styles, content) if r is not None])
    hidden_styles = set()
    for st in content.iter(f"{{{STYLE}}}style"):
        tp = st.find(f"{{{STYLE}}}text-properties")
        if tp is not None and tp.get(t("display")) == "none":
            hidden_styles.add(st.get(f"{{{STYLE}}}name") or "")
    changes: dict[str, tuple[str, str]] = {}
    for region in content.iter(t("changed-region")):
        cid = region.get(t("id")) or region.get("{http://www.w3.org/XML/1998/namespace}id") or ""
        for kind in ("insertion", "deletion", "format-change"):
            e = region.find(t(kind))
            if e is not None:
                deleted = ""
                if kind == "deletion":
                    deleted = "".join(_flat(p) for p in e if p.tag in (t("p"), t("h")))
                changes[cid] = (kind, deleted)
    out: list[dict[str, Any]] = []
    table_ids = [0]

    def para(p: etree._Element, tables: list[int], list_string: str | None) -> None:
        walker = _OdtParagraph(changes, hidden_styles)
        walker.walk(p)
        entry: dict[str, Any] = {"runs": [{"text": r["text"], **({r["rev"]: True} if r["rev"] else {})} for r in walker.runs],
                                 "style": p.get(t("style-name")) or "Standard", "listString": list_string,
                                 "tableNestingLevel": len(tables)}
        if tables:
            entry["table"] = tables[-1]
            entry["tables"] = tables
        out.append(entry)

    def block(el: etree._Element, tables: list[int], list_style: str | None = None, level: int = 0) -> None:
        for ch in el:
            tag = ch.tag
            if tag == t("p"):
                para(ch, tables, lists.item(list_style, level, False) if list_style and level else None)
            elif tag == t("h"):
                lvl = int(ch.get(t("outline-level")) or 1)
                label = lists.item(list_style, level, False) if list_style and level else lists.head(lvl)
                para(ch, tables, label)
            elif tag == t("list"):
                style = ch.get(t("style-name")) or list_style
                restart = level == 0 and ch.get(t("continue-numbering")) != "true" and ch.get(t("continue-list")) is None
                if restart and style in lists.counters:
                    lists.counters[style] = [0] * 12
                for item in ch:
                    if item.tag == t("list-item"):
                        block(item, tables, style, level + 1)
                    elif item.tag == t("list-header"):
                        block(item, tables, None, 0)
            elif tag == f"{{{TABLE}}}table":
                table_ids[0] += 1
                tid = table_ids[0]
                for cell in _odf_cells(ch):
                    block(cell, [*tables, tid])
            elif tag in (t("section"), t("index-body"), t("table-of-content"), t("illustration-index"), t("table-index"),
                         t("alphabetical-index"), t("object-index"), t("user-index"), t("bibliography")):
                block(ch, tables, list_style, level)

    body = content.find(f"{{{OFFICE}}}body/{{{OFFICE}}}text")
    if body is not None:
        block(body, [])
    return out


def _flat(el: etree._Element) -> str:
    return "".join(el.itertext())


def _odf_cells(tbl: etree._Element) -> Iterator[etree._Element]:
    for ch in tbl:
        if ch.tag == f"{{{TABLE}}}table-row":
            for cell in ch:
                if cell.tag == f"{{{TABLE}}}table-cell":
                    yield cell
        elif ch.tag in (f"{{{TABLE}}}table-header-rows", f"{{{TABLE}}}table-rows", f"{{{TABLE}}}table-row-group"):
            yield from _odf_cells(ch)


# --- the doors --------------------------------------------------------------------------------

def word_paragraphs(data: bytes | Path | str) -> list[dict[str, Any]]:
    """``body.paragraphs`` of the file as the host takes them: ``[{runs: [{text, ins?, del?}],
    style, listString, tableNestingLevel, table?, tables?, markDeleted?, markInserted?}]``."""
    raw = Path(data).read_bytes() if isinstance(data, (str, Path)) else data
    names = zipfile.ZipFile(io.BytesIO(raw)).namelist()
    return _odt(raw) if "content.xml" in names else _docx(raw)


def host_config(path: Path, **extra: Any) -> dict[str, Any]:
    """The scripted host's configuration for ``path``: its bytes and its paragraphs as Word shows them."""
    return {"fileBase64": base64.b64encode(Path(path).read_bytes()).decode(), "paragraphs": word_paragraphs(path),
            "url": f"C:\\Users\\ada\\Documents\\{Path(path).name}", **extra}


def _view(paras: list[dict[str, Any]], drop: str, gone_mark: str) -> list[str]:
    out = []
    for p in paras:
        text = "".join(r["text"] for r in p["runs"] if not r.get(drop))
        if p.get(gone_mark) and not text:
            continue
        out.append(text)
    return out


def accepted(data: bytes | Path | str) -> list[str]:
    """The paragraphs' texts with every tracked change accepted (a deleted paragraph gone)."""
    return _view(word_paragraphs(data), "del", "markDeleted")


def rejected(data: bytes | Path | str) -> list[str]:
    """The paragraphs' texts with every tracked change rejected (an inserted paragraph gone)."""
    return _view(word_paragraphs(data), "ins", "markInserted")


_SPACE = re.compile(r"[\s\u00a0\u2028\u2029\u000b]+")
_MARKS = re.compile(r"[\u0000-\u0008\u000c\u000e-\u001d\u001f\u00ad\u200b\u2060\ufeff]")


def comparable(texts: list[str]) -> list[str]:
    """Texts as two copies of one document compare: Word's marks and invisible characters out,
    white space as one space, the non-breaking hyphen as LEDGER writes it, empty paragraphs out."""
    out = []
    for s in texts:
        s = _SPACE.sub(" ", _MARKS.sub("", s.replace("\u001e", "\u2011"))).strip()
        if s:
            out.append(s)
    return out
