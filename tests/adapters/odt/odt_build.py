"""Build small, valid .odt packages from ODF fragments for tests (LibreOffice opens them).

``odt(body, auto=..., styles=...)`` writes a package whose content.xml holds ``body`` inside
``office:text``; the helpers spell list styles, lists, items, headings and paragraphs
compactly, so a test reads like the document it builds.
"""
from __future__ import annotations

import io
import zipfile

__all__ = ["odt", "lvl", "p", "h", "item", "lst", "outline_style", "MATH_OBJECT"]

NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:foo="urn:example:foreign"'
)

#: A MathML formula object as LibreOffice Math writes it (with its StarMath annotation).
MATH_OBJECT = (
    '<?xml version="1.0" encoding="UTF-8"?><math xmlns="http://www.w3.org/1998/Math/MathML">'
    "<semantics><mrow><mi>a</mi><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup></mrow>"
    '<annotation encoding="StarMath 5.0">a + b^2</annotation></semantics></math>'
)


def odt(body: str, auto: str = "", styles: str = "", objects: dict[str, str] | None = None) -> bytes:
    """A .odt package: ``body`` in office:text, ``auto`` automatic styles, ``styles`` common ones.

    ``objects`` maps an object folder ("Object 1") to its content.xml.
    """
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {NS} office:version="1.3">'
        f"<office:automatic-styles>{auto}</office:automatic-styles>"
        f"<office:body><office:text>{body}</office:text></office:body></office:document-content>"
    )
    st = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {NS} office:version="1.3">'
        f"<office:styles>{styles}</office:styles></office:document-styles>"
    )
    entries = [("/", "application/vnd.oasis.opendocument.text"), ("content.xml", "text/xml"), ("styles.xml", "text/xml")]
    for folder in objects or {}:
        entries.append((folder + "/", "application/vnd.oasis.opendocument.formula"))
        entries.append((folder + "/content.xml", "text/xml"))
    manifest = (
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
        'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
        + "".join(f'<manifest:file-entry manifest:full-path="{n}" manifest:media-type="{t}"/>' for n, t in entries)
        + "</manifest:manifest>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        z.writestr("styles.xml", st, zipfile.ZIP_DEFLATED)
        for folder, xml in (objects or {}).items():
            z.writestr(folder + "/content.xml", xml, zipfile.ZIP_DEFLATED)
        z.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def lvl(n: int, fmt: str = "1", suffix: str = ".", prefix: str = "", display: int = 1, start: int | None = None,
        kind: str = "number", bullet: str = "\u2022", sync: bool = False, tag: str = "list-level-style-number",
        list_format: str | None = None) -> str:
    """One level of a list (or, with ``tag="outline-level-style"``, outline) style."""
    if kind == "bullet":
        return f'<text:list-level-style-bullet text:level="{n}" text:bullet-char="{bullet}"/>'
    a = f' style:num-prefix="{prefix}"' if prefix else ""
    a += f' text:start-value="{start}"' if start is not None else ""
    a += ' style:num-letter-sync="true"' if sync else ""
    a += f' loext:num-list-format="{list_format}"' if list_format is not None else ""
    return f'<text:{tag} text:level="{n}" style:num-format="{fmt}" style:num-suffix="{suffix}" text:display-levels="{display}"{a}/>'


def outline_style(*levels: str) -> str:
    return '<text:outline-style style:name="Outline">' + "".join(levels) + "</text:outline-style>"


def p(text: str, style: str = "Standard") -> str:
    return f'<text:p text:style-name="{style}">{text}</text:p>'


def h(text: str, level: int, style: str | None = None, restart: bool = False, start: int | None = None,
      header: bool = False) -> str:
    a = f' text:style-name="{style or "Heading_20_%d" % level}" text:outline-level="{level}"'
    a += ' text:restart-numbering="true"' if restart else ""
    a += f' text:start-value="{start}"' if start is not None else ""
    a += ' text:is-list-header="true"' if header else ""
    return f"<text:h{a}>{text}</text:h>"


def item(*kids: str, start: int | None = None, header: bool = False) -> str:
    tag = "text:list-header" if header else "text:list-item"
    a = f' text:start-value="{start}"' if start is not None else ""
    return f"<{tag}{a}>" + "".join(kids) + f"</{tag}>"


def lst(*items: str, style: str | None = None, xid: str | None = None, cont: str | None = None,
        contnum: bool = False) -> str:
    a = f' text:style-name="{style}"' if style else ""
    a += f' xml:id="{xid}"' if xid else ""
    a += f' text:continue-list="{cont}"' if cont else ""
    a += ' text:continue-numbering="true"' if contnum else ""
    return f"<text:list{a}>" + "".join(items) + "</text:list>"
