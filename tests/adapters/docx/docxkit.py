"""Small real .docx packages written inline for tests: a body snippet (and side parts) -> bytes.

The snippets use the usual prefixes (``w:``, ``m:``, ``wp:``...); declarations come from
``adapters.docx.oxml.NSMAP``, so a test reads like the XML Word writes.
"""
from __future__ import annotations

import io
import zipfile

from adapters import read
from adapters.docx.oxml import NSMAP
from adapters.model import Document

__all__ = ["make_docx", "read_body", "numbering_xml", "styles_xml"]

_DECL = " ".join(f'xmlns:{p}="{u}"' for p, u in NSMAP.items() if p not in ("xml", "rel"))
_REL_NS = NSMAP["rel"]
_RT = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_CT = "application/vnd.openxmlformats-officedocument.wordprocessingml."


def _wrap(root: str, inner: str) -> bytes:
    return f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:{root} {_DECL}>{inner}</w:{root}>'.encode()


def make_docx(
    body: str,
    *,
    styles: str | None = None,
    numbering: str | None = None,
    footnotes: str | None = None,
    endnotes: str | None = None,
    comments: str | None = None,
    settings: str | None = None,
    main_part: str = "word/document.xml",
    raw_document: bytes | None = None,
) -> bytes:
    """A minimal but complete WordprocessingML package around ``body`` (the w:body content)."""
    parts: dict[str, tuple[bytes, str, str]] = {}
    if styles is not None:
        parts["styles.xml"] = (_wrap("styles", styles), "styles", _CT + "styles+xml")
    if numbering is not None:
        parts["numbering.xml"] = (_wrap("numbering", numbering), "numbering", _CT + "numbering+xml")
    if footnotes is not None:
        parts["footnotes.xml"] = (_wrap("footnotes", footnotes), "footnotes", _CT + "footnotes+xml")
    if endnotes is not None:
        parts["endnotes.xml"] = (_wrap("endnotes", endnotes), "endnotes", _CT + "endnotes+xml")
    if comments is not None:
        parts["comments.xml"] = (_wrap("comments", comments), "comments", _CT + "comments+xml")
    if settings is not None:
        parts["settings.xml"] = (_wrap("settings", settings), "settings", _CT + "settings+xml")
    folder, _, name = main_part.rpartition("/")
    overrides = "".join(
        f'<Override PartName="/{folder}/{n}" ContentType="{ct}"/>' for n, (_d, _t, ct) in parts.items()
    )
    content_types = (
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/{main_part}" ContentType="{_CT}document.main+xml"/>{overrides}</Types>'
    )
    root_rels = (
        f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_REL_NS}">'
        f'<Relationship Id="rId1" Type="{_RT}officeDocument" Target="{main_part}"/></Relationships>'
    )
    doc_rels = "".join(
        f'<Relationship Id="rIdP{i}" Type="{_RT}{t}" Target="{n}"/>' for i, (n, (_d, t, _c)) in enumerate(parts.items())
    )
    doc_rels += f'<Relationship Id="rIdLink" Type="{_RT}hyperlink" Target="https://example.org/page" TargetMode="External"/>'
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", content_types)
        zf.writestr("_rels/.rels", root_rels)
        zf.writestr(main_part, raw_document if raw_document is not None else _wrap("document", f"<w:body>{body}</w:body>"))
        zf.writestr(f"{folder}/_rels/{name}.rels", f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{_REL_NS}">{doc_rels}</Relationships>')
        for n, (data, _t, _c) in parts.items():
            zf.writestr(f"{folder}/{n}", data)
    return buf.getvalue()


def read_body(body: str, **parts) -> Document:
    """Read a body snippet (plus side parts) through the real reader."""
    return read(make_docx(body, **parts))


def styles_xml(*styles: str) -> str:
    """A styles part with a default "Normal" paragraph style plus ``styles`` (``w:style`` XML)."""
    normal = '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
    return normal + "".join(styles)


def numbering_xml(abstracts: dict[str, list[tuple[int, str, str, int]]], nums: dict[str, str], extra: str = "") -> str:
    """A numbering part: ``abstracts`` id -> [(ilvl, numFmt, lvlText, start)], ``nums`` numId -> abstract id."""
    out = []
    for aid, levels in abstracts.items():
        lv = "".join(
            f'<w:lvl w:ilvl="{i}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/><w:lvlText w:val="{text}"/></w:lvl>'
            for i, fmt, text, start in levels
        )
        out.append(f'<w:abstractNum w:abstractNumId="{aid}">{lv}</w:abstractNum>')
    for nid, aid in nums.items():
        out.append(f'<w:num w:numId="{nid}"><w:abstractNumId w:val="{aid}"/></w:num>')
    return "".join(out) + extra


def paragraphs_docx(paragraphs: list[str]) -> bytes:
    """A document as Word writes one (python-docx's template: styles, settings, theme) holding one
    plain paragraph per string."""
    import io

    import docx

    d = docx.Document()
    for p in paragraphs:
        d.add_paragraph(p)
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()
