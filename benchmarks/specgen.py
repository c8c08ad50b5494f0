"""A Word-like specification at any size: numbered headings, ``_Ref`` bookmarks, REF fields, captions, notes.

    python -m benchmarks.specgen --out DIR [--units 7000] [--refs 1230] [--formats docx,odt] [--seed 0]

What a hand-edited Word specification holds and the edits of issue 28 stress: Heading 1-4
paragraphs numbered automatically through the heading styles' ``w:numPr`` (one multilevel
list, as Word's "1 / 1.1 / 1.1.1" numbering writes it; ``--numpr paragraph`` puts the
``w:numPr`` on each heading instead); a table of contents (``TOC`` field, ``_Toc`` bookmarks,
``PAGEREF`` results); ``_Ref`` bookmarks on the headings that are cited and ``REF _Ref… \\r \\h``
fields whose cached results are their numbers (one in ten written as ``w:fldSimple``); internal
hyperlinks with typed text ("Section 3.12"); Caption paragraphs "Figure N: …" / "Table N: …"
with ``SEQ`` fields and bookmarks over "Figure N", cited by ``REF _Ref… \\h``; footnotes, some
cited by ``NOTEREF``. Chapter 3 is the long one (as in SARIF 2.1.0): most of the sections and
most references are in it, so inserting a section before §3.10 renumbers most references.

Output: ``NAME.docx`` (``NAME`` is ``spec-<units>``, ``-s<seed>`` for another seed), its
``NAME.odt`` saved by headless LibreOffice (fields refreshed) when asked, and ``NAME.truth.json``: every
heading (number, level, title, bookmark) and field (kind, code, target number, result) and
``renumbered_by_insert_before`` — for a few sections, how many reference fields and links an
insertion of one section of the same level before it renumbers. Same arguments, same bytes of
every XML part.
"""
from __future__ import annotations

import argparse
import io
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence
from xml.sax.saxutils import escape

from adapters.docx.oxml import NSMAP

__all__ = ["Heading", "Spec", "build", "write_docx", "write_odt", "generate", "main"]

_WORDS = (
    "server client message packet frame stream session endpoint record field value header payload "
    "sequence identifier handshake connection transport buffer timer state transition error "
    "response request token key cipher digest signature schema object property array element "
    "attribute location region artifact result rule tool invocation notification configuration "
    "extension version baseline fingerprint suppression policy taxonomy reference graph node edge "
    "address port channel gateway broker topic subscription"
).split()
_VERBS = ("sends", "receives", "validates", "ignores", "records", "updates", "discards", "encodes",
          "decodes", "returns", "selects", "retains", "rejects", "accepts", "describes", "contains")
_TITLE_WORDS = ("Overview", "Format", "Processing", "Requirements", "Encoding", "Semantics",
                "Properties", "Constraints", "Examples", "Errors", "Lifecycle", "Security", "Usage")

#: Chapter titles; chapter 3 is the long one.
_CHAPTERS = ("Introduction", "Conventions", "File Format", "Processing Model", "Conformance",
             "Security Considerations", "Privacy Considerations", "Interoperability")


@dataclass
class Heading:
    """One numbered heading: its shown number, level (1-4) and the bookmarks on its text."""

    number: str
    level: int
    title: str
    ref: str | None = None  # the _Ref bookmark when the heading is cited
    toc: str | None = None  # the _Toc bookmark when the TOC lists it


@dataclass
class Spec:
    """The document in reading order: ``blocks`` are ``(kind, payload)``, rendered by the writers."""

    name: str
    headings: list[Heading] = field(default_factory=list)
    blocks: list[tuple[str, object]] = field(default_factory=list)
    fields: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    figures: int = 0
    tables: int = 0


# --- planning --------------------------------------------------------------------------------


def _sentence(rng: random.Random) -> str:
    a, b = rng.sample(_WORDS, 2)
    tail = rng.choice(_WORDS)
    return f"The {a} {rng.choice(_VERBS)} the {b} {tail} when the {rng.choice(_WORDS)} is {rng.choice(('present', 'absent', 'valid', 'empty', 'stale'))}."


def _title(rng: random.Random) -> str:
    return f"{rng.choice(_WORDS).capitalize()} {rng.choice(_TITLE_WORDS)}"


def _outline(n_headings: int, rng: random.Random) -> list[tuple[int, str]]:
    """(level, number) of every heading: 8 chapters, chapter 3 with three quarters of them."""
    big = max(12, int(n_headings * 0.75 / 3.2))  # level-2 sections of chapter 3
    others = max(2, (n_headings - int(n_headings * 0.75)) // (3 * (len(_CHAPTERS) - 1)))
    out: list[tuple[int, str]] = []
    for c in range(1, len(_CHAPTERS) + 1):
        out.append((1, str(c)))
        subs = big if c == 3 else others
        for s in range(1, subs + 1):
            out.append((2, f"{c}.{s}"))
            kids = rng.choice((0, 1, 2, 3, 4)) if c == 3 else rng.choice((0, 1, 2))
            for k in range(1, kids + 1):
                out.append((3, f"{c}.{s}.{k}"))
                if c == 3 and rng.random() < 0.25:
                    for g in range(1, rng.choice((2, 3)) + 1):
                        out.append((4, f"{c}.{s}.{k}.{g}"))
    return out


def _ref_name(rng: random.Random, taken: set[str], prefix: str = "_Ref") -> str:
    while True:
        name = f"{prefix}{rng.randrange(10**8, 10**9)}"
        if name not in taken:
            taken.add(name)
            return name


def _key(number: str) -> tuple[int, ...]:
    return tuple(int(x) for x in number.split("."))


def build(units: int = 7000, refs: int = 1230, seed: int = 0, *, late_share: float = 0.85,
          late_from: str = "3.10", toc: bool = True) -> Spec:
    """Plan a specification of about ``units`` units holding ``refs`` heading references.

    ``late_share`` of the references cite a section at or after ``late_from`` (in chapter 3,
    as in SARIF) or below it; the others any heading, figure or table.
    """
    rng = random.Random(seed)
    name = f"spec-{units}" + (f"-s{seed}" if seed else "")
    spec = Spec(name)
    names: set[str] = set()
    outline = _outline(max(12, units // 9), rng)
    for level, number in outline:
        title = _CHAPTERS[int(number) - 1] if level == 1 else _title(rng)
        spec.headings.append(Heading(number, level, title))
    n_head = len(spec.headings)
    n_fig = max(2, units // 120)
    n_tab = max(1, units // 400)
    n_notes = max(2, units // 60)
    n_toc = 1 + sum(1 for h in spec.headings if h.level <= 2) if toc else 0
    n_paras = max(n_head, units - n_head - n_fig - n_tab - n_notes - n_toc - 1)
    # which paragraph after which heading: every section gets at least one
    per = [1] * n_head
    for _ in range(n_paras - n_head):
        per[rng.randrange(n_head)] += 1
    late = [h for h in spec.headings if h.number.split(".")[0] == late_from.split(".")[0]
            and _key(h.number) >= _key(late_from)]
    # the references: a target heading and a form for each
    cites: list[tuple[str, object]] = []
    for _ in range(refs):
        h = rng.choice(late) if late and rng.random() < late_share else rng.choice(spec.headings)
        if h.ref is None:
            h.ref = _ref_name(rng, names)
        form = rng.random()
        cites.append(("simple" if form < 0.1 else "link" if form < 0.15 else "ref", h))
    if toc:
        for h in spec.headings:
            if h.level <= 2:
                h.toc = _ref_name(rng, names, "_Toc")
        spec.blocks.append(("toc", None))
    spec.blocks.append(("title", "Specification of a Synthetic Protocol Version 2.0"))
    # paragraphs in reading order; captions and notes spread among them
    slots: list[list] = []
    for h, count in zip(spec.headings, per):
        spec.blocks.append(("heading", h))
        for _ in range(count):
            para: list = [("text", " ".join(_sentence(rng) for _ in range(rng.choice((1, 2, 3)))))]
            spec.blocks.append(("para", para))
            slots.append(para)
    # figures and tables: a caption (and a 2x2 table) after a random paragraph
    captions: list[tuple[str, int, str]] = []
    body_idx = [i for i, b in enumerate(spec.blocks) if b[0] == "para"]
    spots = sorted(rng.sample(body_idx, min(len(body_idx), n_fig + n_tab)))
    kinds = ["Figure"] * n_fig + ["Table"] * n_tab
    rng.shuffle(kinds)
    for at, kind in sorted(zip(spots, kinds), reverse=True):
        cap = {"kind": kind, "number": 0, "ref": _ref_name(rng, names), "title": _title(rng)}
        spec.blocks.insert(at + 1, ("caption", cap))
        if kind == "Table":
            spec.blocks.insert(at + 2, ("table", [[_title(rng), rng.choice(_WORDS)], [rng.choice(_WORDS), _sentence(rng)]]))
    counters = {"Figure": 0, "Table": 0}
    for kind, payload in spec.blocks:
        if kind == "caption":
            cap = payload  # type: ignore[assignment]
            counters[cap["kind"]] += 1  # type: ignore[index]
            cap["number"] = counters[cap["kind"]]  # type: ignore[index]
            captions.append((cap["kind"], cap["number"], cap["ref"]))  # type: ignore[index]
    spec.figures, spec.tables = counters["Figure"], counters["Table"]
    # a few references to figures and tables
    for _ in range(max(1, refs // 20)):
        kind, number, ref = rng.choice(captions)
        cites.append(("caption", (kind, number, ref)))
    # footnotes, some cited by NOTEREF
    note_slots = rng.sample(range(len(slots)), min(len(slots), n_notes))
    for k, s in enumerate(sorted(note_slots), 1):
        bm = _ref_name(rng, names) if k % 4 == 0 else None
        slots[s].append(("note", (k, bm)))
        spec.notes.append(_sentence(rng))
        if bm:
            cites.append(("noteref", (k, bm)))
    for form, target in cites:
        para = slots[rng.randrange(len(slots))]
        para.append(("cite", (form, target)))
    return spec


# --- DOCX ------------------------------------------------------------------------------------

_W = NSMAP["w"]
_DECL = f'xmlns:w="{_W}" xmlns:r="{NSMAP["r"]}"'
_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."
_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_THEME_CT = "application/vnd.openxmlformats-officedocument.theme+xml"


def _t(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def _complex(code: str, result: str, rpr: str = "") -> str:
    """A complex field: begin, instruction, separate, cached result, end (one run each)."""
    return (f'<w:r>{rpr}<w:fldChar w:fldCharType="begin"/></w:r>'
            f'<w:r>{rpr}<w:instrText xml:space="preserve"> {escape(code)} </w:instrText></w:r>'
            f'<w:r>{rpr}<w:fldChar w:fldCharType="separate"/></w:r>'
            f'<w:r>{rpr}<w:t>{escape(result)}</w:t></w:r>'
            f'<w:r>{rpr}<w:fldChar w:fldCharType="end"/></w:r>')


class _Docx:
    def __init__(self, spec: Spec, numpr: str) -> None:
        self.spec = spec
        self.numpr = numpr
        self.bid = 0
        self.out: list[str] = []

    def bookmark(self, name: str | None, inner: str) -> str:
        if not name:
            return inner
        self.bid += 1
        return f'<w:bookmarkStart w:id="{self.bid}" w:name="{name}"/>{inner}<w:bookmarkEnd w:id="{self.bid}"/>'

    def para(self, style: str | None, inner: str, extra_ppr: str = "") -> None:
        ppr = (f'<w:pStyle w:val="{style}"/>' if style else "") + extra_ppr
        self.out.append(f'<w:p>{"<w:pPr>" + ppr + "</w:pPr>" if ppr else ""}{inner}</w:p>')

    def field(self, kind: str, code: str, result: str) -> str:
        self.spec.fields.append({"kind": kind, "code": code, "result": result})
        if kind == "simple":
            return f'<w:fldSimple w:instr=" {escape(code)} ">{_t(result)}</w:fldSimple>'
        return _complex(code, result)

    def cite(self, form: str, target: object) -> str:
        if form in ("ref", "simple", "link"):
            h: Heading = target  # type: ignore[assignment]
            word = "Section " if h.level > 1 or form == "link" else "Chapter "
            if form == "link":
                self.spec.fields.append({"kind": "link", "code": f"HYPERLINK \\l {h.ref}", "result": word + h.number,
                                         "number": h.number})
                return _t(" See ") + f'<w:hyperlink w:anchor="{h.ref}"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>{word}{h.number}</w:t></w:r></w:hyperlink>' + _t(".")
            xml = _t(" See " + word) + self.field(form, f"REF {h.ref} \\r \\h", h.number) + _t(".")
            self.spec.fields[-1]["number"] = h.number
            return xml
        if form == "caption":
            kind, number, ref = target  # type: ignore[misc]
            xml = _t(" As shown in ") + self.field("ref", f"REF {ref} \\h", f"{kind} {number}") + _t(", it holds.")
            self.spec.fields[-1]["number"] = f"{kind} {number}"
            return xml
        k, bm = target  # type: ignore[misc]
        xml = _t(" See note ") + self.field("noteref", f"NOTEREF {bm} \\h", str(k)) + _t(".")
        self.spec.fields[-1]["number"] = str(k)
        return xml

    def pieces(self, para: list) -> str:
        out = []
        for kind, val in para:
            if kind == "text":
                out.append(_t(val))
            elif kind == "note":
                k, bm = val
                ref = f'<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteReference w:id="{k}"/></w:r>'
                out.append(self.bookmark(bm, ref))
            else:
                out.append(self.cite(*val))
        return "".join(out)

    def toc(self) -> None:
        hs = [h for h in self.spec.headings if h.toc]
        self.para("TOCHeading", _t("Table of Contents"))
        for i, h in enumerate(hs):
            start = (f'<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-2" \\h \\z \\u </w:instrText></w:r>'
                     '<w:r><w:fldChar w:fldCharType="separate"/></w:r>') if i == 0 else ""
            page = _complex(f"PAGEREF {h.toc} " + "\\h", str(2 + i // 3))
            link = (f'<w:hyperlink w:anchor="{h.toc}" w:history="1">{_t(h.number)}<w:r><w:tab/></w:r>{_t(h.title)}<w:r><w:tab/></w:r>'
                    f'{page}</w:hyperlink>')
            end = '<w:r><w:fldChar w:fldCharType="end"/></w:r>' if i == len(hs) - 1 else ""
            self.para(f"TOC{h.level}", start + link + end)

    def body(self) -> str:
        numpr = self.numpr == "paragraph"
        for kind, val in self.spec.blocks:
            if kind == "toc":
                self.toc()
            elif kind == "title":
                self.para("Title", _t(val))  # type: ignore[arg-type]
            elif kind == "heading":
                h: Heading = val  # type: ignore[assignment]
                extra = f'<w:numPr><w:ilvl w:val="{h.level - 1}"/><w:numId w:val="1"/></w:numPr>' if numpr else ""
                inner = self.bookmark(h.ref, self.bookmark(h.toc, _t(h.title)))
                self.para(f"Heading{h.level}", inner, extra)
            elif kind == "para":
                self.para(None, self.pieces(val))  # type: ignore[arg-type]
            elif kind == "caption":
                cap: dict = val  # type: ignore[assignment]
                label = _t(cap["kind"] + " ") + self.field("seq", f"SEQ {cap['kind']} \\* ARABIC", str(cap["number"]))
                self.para("Caption", self.bookmark(cap["ref"], label) + _t(f": {cap['title']}"))
            elif kind == "table":
                rows = "".join("<w:tr>" + "".join(f'<w:tc><w:tcPr><w:tcW w:w="4500" w:type="dxa"/></w:tcPr><w:p>{_t(c)}</w:p></w:tc>' for c in row) + "</w:tr>"
                               for row in val)  # type: ignore[union-attr]
                self.out.append('<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr>'
                                f'<w:tblGrid><w:gridCol w:w="4500"/><w:gridCol w:w="4500"/></w:tblGrid>{rows}</w:tbl>')
        sect = '<w:sectPr><w:footnotePr><w:numFmt w:val="decimal"/></w:footnotePr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>'
        return f'{_HEAD}<w:document {_DECL}><w:body>{"".join(self.out)}{sect}</w:body></w:document>'


def _style(sid: str, name: str, ppr: str = "", rpr: str = "", kind: str = "paragraph", extra: str = "") -> str:
    return (f'<w:style w:type="{kind}" w:styleId="{sid}"><w:name w:val="{name}"/>{extra}'
            f'{"<w:pPr>" + ppr + "</w:pPr>" if ppr else ""}{"<w:rPr>" + rpr + "</w:rPr>" if rpr else ""}</w:style>')


def _styles(numpr: str) -> str:
    heads = []
    for lvl in range(1, 5):
        num = f'<w:numPr><w:ilvl w:val="{lvl - 1}"/><w:numId w:val="1"/></w:numPr>' if numpr == "style" else ""
        heads.append(_style(f"Heading{lvl}", f"heading {lvl}",
                            f'<w:keepNext/>{num}<w:spacing w:before="240" w:after="120"/><w:outlineLvl w:val="{lvl - 1}"/>',
                            f'<w:b/><w:sz w:val="{32 - 2 * lvl}"/>', extra='<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>'))
    toc = [_style(f"TOC{lvl}", f"toc {lvl}", f'<w:tabs><w:tab w:val="right" w:leader="dot" w:pos="9350"/></w:tabs><w:ind w:left="{220 * (lvl - 1)}"/>',
                  extra='<w:basedOn w:val="Normal"/><w:next w:val="Normal"/>') for lvl in range(1, 5)]
    return (f'{_HEAD}<w:styles {_DECL}>'
            '<w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="22"/><w:lang w:val="en-US"/></w:rPr></w:rPrDefault>'
            '<w:pPrDefault><w:pPr><w:spacing w:after="120"/></w:pPr></w:pPrDefault></w:docDefaults>'
            + '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style>'
            + "".join(heads) + "".join(toc)
            + _style("Title", "Title", '<w:jc w:val="center"/>', '<w:b/><w:sz w:val="40"/>', extra='<w:basedOn w:val="Normal"/>')
            + _style("TOCHeading", "TOC Heading", "", '<w:b/><w:sz w:val="28"/>', extra='<w:basedOn w:val="Normal"/>')
            + _style("Caption", "caption", '<w:spacing w:after="200"/>', '<w:i/><w:sz w:val="18"/>', extra='<w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/>')
            + _style("FootnoteText", "footnote text", '<w:spacing w:after="0"/>', '<w:sz w:val="20"/>', extra='<w:basedOn w:val="Normal"/>')
            + _style("FootnoteReference", "footnote reference", rpr='<w:vertAlign w:val="superscript"/>', kind="character")
            + _style("Hyperlink", "Hyperlink", rpr='<w:color w:val="0563C1"/><w:u w:val="single"/>', kind="character")
            + '<w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/></w:style>'
            + _style("TableGrid", "Table Grid", kind="table", extra='<w:basedOn w:val="TableNormal"/>')
            + "</w:styles>")


def _numbering() -> str:
    lvls = "".join(
        f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading{i + 1}"/>'
        f'<w:lvlText w:val="{".".join(f"%{j + 1}" for j in range(i + 1))}"/><w:lvlJc w:val="left"/>'
        f'<w:pPr><w:ind w:left="{432 + 144 * i}" w:hanging="{432 + 144 * i}"/></w:pPr></w:lvl>'
        for i in range(4))
    return (f'{_HEAD}<w:numbering {_DECL}><w:abstractNum w:abstractNumId="0"><w:multiLevelType w:val="multilevel"/>{lvls}</w:abstractNum>'
            '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>')


def _footnotes(notes: list[str]) -> str:
    sep = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:separator/></w:r></w:p></w:footnote>'
           '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:pPr><w:spacing w:after="0"/></w:pPr><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>')
    body = "".join(
        f'<w:footnote w:id="{k}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr>'
        f'<w:r><w:rPr><w:rStyle w:val="FootnoteReference"/></w:rPr><w:footnoteRef/></w:r>{_t(" " + text)}</w:p></w:footnote>'
        for k, text in enumerate(notes, 1))
    return f"{_HEAD}<w:footnotes {_DECL}>{sep}{body}</w:footnotes>"


def _template_parts() -> dict[str, tuple[str, str]]:
    """The font table and theme of python-docx's default template (Word's own), which a
    WordprocessingML main part must have."""
    import docx

    template = Path(docx.__file__).parent / "templates" / "default.docx"
    with zipfile.ZipFile(template) as z:
        return {"fontTable.xml": (z.read("word/fontTable.xml").decode("utf-8"), "fontTable"),
                "theme/theme1.xml": (z.read("word/theme/theme1.xml").decode("utf-8"), "theme")}


def write_docx(spec: Spec, path: Path, numpr: str = "style") -> None:
    """Write the .docx: document, styles, numbering, footnotes, settings (fixed zip dates)."""
    spec.fields.clear()
    document = _Docx(spec, numpr).body()
    settings = (f'{_HEAD}<w:settings {_DECL}><w:defaultTabStop w:val="720"/>'
                '<w:footnotePr><w:footnote w:id="-1"/><w:footnote w:id="0"/></w:footnotePr>'
                '<w:compat><w:compatSetting w:name="compatibilityMode" w:uri="http://schemas.microsoft.com/office/word" w:val="15"/></w:compat></w:settings>')
    parts = {
        "styles.xml": (_styles(numpr), "styles"),
        "numbering.xml": (_numbering(), "numbering"),
        "footnotes.xml": (_footnotes(spec.notes), "footnotes"),
        "settings.xml": (settings, "settings"),
        **_template_parts(),
    }
    ct = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
          '<Default Extension="xml" ContentType="application/xml"/>'
          f'<Override PartName="/word/document.xml" ContentType="{_CT}document.main+xml"/>'
          + "".join(f'<Override PartName="/word/{n}" ContentType="{_THEME_CT if t == "theme" else _CT + t + "+xml"}"/>'
                    for n, (_x, t) in parts.items())
          + "</Types>")
    rel_ns = NSMAP["rel"]
    root_rels = (f'{_HEAD}<Relationships xmlns="{rel_ns}"><Relationship Id="rId1" Type="{_RT}officeDocument" '
                 'Target="word/document.xml"/></Relationships>')
    doc_rels = (f'{_HEAD}<Relationships xmlns="{rel_ns}">'
                + "".join(f'<Relationship Id="rId{i}" Type="{_RT}{t}" Target="{n}"/>' for i, (n, (_x, t)) in enumerate(parts.items(), 1))
                + "</Relationships>")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("[Content_Types].xml", ct), ("_rels/.rels", root_rels), ("word/document.xml", document),
                           ("word/_rels/document.xml.rels", doc_rels),
                           *((f"word/{n}", x) for n, (x, _t) in parts.items())):
            info = zipfile.ZipInfo(name, (2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data.encode("utf-8"))
    path.write_bytes(buf.getvalue())


def write_odt(docx_path: Path, out_dir: Path, timeout: int = 900) -> Path:
    """The .odt that headless LibreOffice saves for the .docx, its fields refreshed first
    (``benchmarks/uno_convert.py`` under Debian's python3 with UNO; its own profile, removed)."""
    if shutil.which("soffice") is None or not Path("/usr/bin/python3").exists():
        raise RuntimeError("LibreOffice (soffice and python3-uno) is not installed: no .odt")
    out = out_dir / (docx_path.stem + ".odt")
    script = Path(__file__).with_name("uno_convert.py")
    with tempfile.TemporaryDirectory(prefix="specgen-lo-") as profile:
        subprocess.run(["/usr/bin/python3", str(script), profile, str(docx_path), str(out)], check=True,
                       capture_output=True, timeout=timeout, env={"PATH": "/usr/bin:/bin", "HOME": profile, "LANG": "C.UTF-8"})
    if not out.exists():
        raise RuntimeError(f"LibreOffice wrote no {out.name}")
    return out


# --- truth -----------------------------------------------------------------------------------


def _renumbered_by_insert(spec: Spec, before: str) -> int:
    """How many heading references an inserted section of ``before``'s level renumbers: those
    citing ``before``, its later siblings and everything below them."""
    parts = _key(before)
    parent, pos = parts[:-1], parts[-1]

    def moves(number: str) -> bool:
        k = _key(number)
        return len(k) >= len(parts) and k[: len(parent)] == parent and k[len(parent)] >= pos

    return sum(1 for f in spec.fields if f["kind"] in ("ref", "simple", "link") and "number" in f
               and not f["number"].startswith(("Figure", "Table")) and moves(f["number"]))


def truth(spec: Spec) -> dict:
    """The generated document's truth: headings, fields, counts."""
    probes = [n for n in ("1.2", "3.2", "3.10", "3.20", "4") if any(h.number == n for h in spec.headings)]
    return {
        "name": spec.name,
        "headings": [{"number": h.number, "level": h.level, "title": h.title, "ref": h.ref} for h in spec.headings],
        "fields": spec.fields,
        "counts": {
            "headings": len(spec.headings),
            "paragraphs": sum(1 for k, _ in spec.blocks if k == "para"),
            "figures": spec.figures,
            "tables": spec.tables,
            "footnotes": len(spec.notes),
            "reference_fields": sum(1 for f in spec.fields if f["kind"] in ("ref", "simple", "noteref")),
            "links": sum(1 for f in spec.fields if f["kind"] == "link"),
            "seq_fields": sum(1 for f in spec.fields if f["kind"] == "seq"),
        },
        "renumbered_by_insert_before": {n: _renumbered_by_insert(spec, n) for n in probes},
    }


def generate(out: str | Path, units: int = 7000, refs: int = 1230, seed: int = 0, formats: Sequence[str] = ("docx",),
             numpr: str = "style") -> dict:
    """Write the document in ``formats`` and its truth into ``out``; return the truth."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    spec = build(units, refs, seed)
    docx_path = folder / f"{spec.name}.docx"
    write_docx(spec, docx_path, numpr)
    data = truth(spec)
    (folder / f"{spec.name}.truth.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    if "odt" in formats:
        write_odt(docx_path, folder)
    if "docx" not in formats:
        docx_path.unlink()
    return data


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.specgen", description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--units", type=int, default=7000, help="about how many units (default 7000)")
    p.add_argument("--refs", type=int, default=1230, help="REF fields and links to headings (default 1230)")
    p.add_argument("--formats", default="docx", help="docx, odt or docx,odt (the .odt through LibreOffice)")
    p.add_argument("--numpr", choices=("style", "paragraph"), default="style",
                   help="heading numbering through the heading styles (Word's way) or on each heading")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    if not formats or set(formats) - {"docx", "odt"}:
        p.error("--formats takes docx and/or odt")
    start = time.perf_counter()
    data = generate(args.out, args.units, args.refs, args.seed, formats, args.numpr)
    c = data["counts"]
    print(f"{data['name']}: {c['headings']} headings, {c['paragraphs']} paragraphs, {c['figures']} figures, "
          f"{c['tables']} tables, {c['footnotes']} footnotes, {c['reference_fields']} reference fields, "
          f"{c['links']} links; an inserted section renumbers {data['renumbered_by_insert_before']} references "
          f"({', '.join(formats)} in {time.perf_counter() - start:.1f}s)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
