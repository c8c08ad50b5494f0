"""Generated indexes of a .docx (tables of contents and figures, alphabetical indexes): no units.

Word and LibreOffice regenerate an index's text from the headings and captions, so its lines
are no body text: no rename, check or edit touches them, and a renumbered heading's entry is
what the word processor writes when the reviewer updates the index. The ODT reader lists
``text:table-of-content`` and its kin in ``Document.meta["indexes"]``; this module recognises
the same thing in WordprocessingML by what the file says, whoever wrote it:

- the paragraph lies in the result of a ``TOC`` (or ``INDEX``) field (Word, LibreOffice);
- it sits in a content control whose ``w:docPartGallery`` is "Table of Contents" (Word's and
  LibreOffice's wrapper around a TOC);
- its paragraph style is an index entry style ("toc 2", "Contents 1", "Verzeichnis 3",
  "Table of Figures", "index 1").
"""
from __future__ import annotations

import re
from typing import Any, Iterable

from .oxml import qn, w_attr
from .scan import ParagraphScan

__all__ = ["index_kind", "index_style_kind", "entry_target", "toc_heading_styles"]

_SDT, _SDTPR, _SDTCONTENT = qn("w:sdt"), qn("w:sdtPr"), qn("w:sdtContent")
_DOCPART, _GALLERY, _CUSTOMXML = qn("w:docPartObj"), qn("w:docPartGallery"), qn("w:customXml")
_VAL = w_attr("val")

#: Index entry styles by name as Word and LibreOffice write them ("toc 1", "Contents 2",
#: LibreOffice's ODF-escaped "Contents_20_3", Word's German style id "Verzeichnis1").
_TOC_STYLE = re.compile(r"^(?:toc|contents|verzeichnis|inhaltsverzeichnis)[\s_]*(?:20_)?\d{1,2}$", re.I)
_FIGURES_STYLE = re.compile(r"^(?:table[\s_]*(?:20_)?of[\s_]*(?:20_)?figures|(?:illustration|figure)[\s_]*(?:20_)?index[\s_]*(?:20_)?\d{0,2})$", re.I)
_ALPHA_STYLE = re.compile(r"^index[\s_]*(?:20_)?\d{1,2}$", re.I)
#: Field names whose result is a generated index, by the ODF element the same index is.
_FIELDS = {"TOC": "table-of-content", "INDEX": "alphabetical-index"}


def index_style_kind(style_name: str | None) -> str | None:
    """The index a paragraph style's entries belong to, if it is an index entry style.

    >>> [index_style_kind(s) for s in ("toc 2", "Contents 1", "Verzeichnis1", "Table of Figures", "index 1")]
    ['table-of-content', 'table-of-content', 'table-of-content', 'illustration-index', 'alphabetical-index']
    >>> index_style_kind("Contents Heading"), index_style_kind("Normal"), index_style_kind(None)
    (None, None, None)
    """
    name = (style_name or "").strip()
    if _TOC_STYLE.match(name):
        return "table-of-content"
    if _FIGURES_STYLE.match(name):
        return "illustration-index"
    if _ALPHA_STYLE.match(name):
        return "alphabetical-index"
    return None


def _gallery(p: Any) -> str | None:
    """The ``w:docPartGallery`` of the content control a ``w:p`` sits in, if any."""
    node = p.getparent()
    while node is not None and node.tag in (_SDTCONTENT, _CUSTOMXML, _SDT):
        if node.tag == _SDT:
            pr = node.find(_SDTPR)
            obj = pr.find(_DOCPART) if pr is not None else None
            gallery = obj.find(_GALLERY) if obj is not None else None
            if gallery is not None:
                return gallery.get(_VAL)
        node = node.getparent()
    return None


def _field_kind(scan: ParagraphScan, text: str) -> str | None:
    """The index whose field result holds the whole paragraph, if any."""
    for rec in scan.fields:
        kind = _FIELDS.get(rec.parsed.name) if rec.parsed is not None else None
        if kind is None:
            continue
        if not text.strip() or (rec.end > rec.start and not text[: rec.start].strip() and not text[rec.end :].strip()):
            if kind == "table-of-content" and rec.parsed is not None and rec.parsed.switch("\\c") is not None:
                return "illustration-index"  # TOC \c "Figure": a table of figures
            return kind
    return None


def index_kind(scan: ParagraphScan, style_name: str | None) -> str | None:
    """Which generated index a body paragraph belongs to (``"table-of-content"``,
    ``"illustration-index"``, ``"alphabetical-index"``), or ``None`` for a paragraph of the text.
    """
    text = scan.text()
    got = _field_kind(scan, text) or index_style_kind(style_name)
    if got is not None:
        return got
    gallery = _gallery(scan.p)
    if gallery is not None and gallery.strip().lower() == "table of contents":
        return "table-of-content"
    return None


def entry_target(scan: ParagraphScan) -> str | None:
    """The bookmark an index entry points at: its hyperlink's anchor, else its PAGEREF's."""
    for kinds in (("hyperlink",), ("pageref", "ref")):
        for rec in scan.fields:
            if rec.kind in kinds and rec.target and "#" not in rec.target and "/" not in rec.target:
                return rec.target
    return None


def toc_heading_styles(scans: Iterable[ParagraphScan]) -> dict[str, int]:
    r"""Style name (lower case) -> heading level, as the document's TOC fields list them.

    ``TOC \t "Appendix,1,Appendix Heading 2,2"`` says that paragraphs in those styles are
    headings of those levels (Word builds the table of contents from them), whether or not
    the styles carry an outline level: the OASIS templates number their appendix headings so.
    Word writes the list with the locale's list separator (``,`` or ``;``).

    >>> from adapters.docx.fields import parse_instruction
    >>> from adapters.docx.scan import FieldRecord
    >>> scan = ParagraphScan(None)
    >>> scan.fields.append(FieldRecord("other", "", None, "", 0, 0, None, parse_instruction('TOC \\o "1-3" \\t "Appendix,1;App 2,2"')))
    >>> toc_heading_styles([scan])
    {'appendix': 1, 'app 2': 2}
    """
    out: dict[str, int] = {}
    for scan in scans:
        for rec in scan.fields:
            spec = rec.parsed.switch("\\t") if rec.parsed is not None and rec.parsed.name == "TOC" else None
            if not spec:
                continue
            parts = [p.strip() for p in re.split(r"[,;]", spec)]
            for name, level in zip(parts[0::2], parts[1::2]):
                if name and level.isdigit() and 1 <= int(level) <= 9:
                    out.setdefault(name.lower(), int(level))
    return out
