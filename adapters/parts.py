"""The XML parts a writer may read, parsed at read time: a bad one is refused at upload.

The readers parse the body, styles, numbering, notes, headers and comments; the writers and
:mod:`.properties` also read the content types, the relationships, the settings, the comment
side parts (people, extended, ids) and the document properties. Each is parsed here by the
package's one hardened parser (:func:`.package.parse_xml`), so a part with entities, a DTD
subset, deep nesting or bad XML gives the same clear error at upload that the readers give,
never a 500 at apply.

Which parts: those the package itself declares XML. In a .docx, every part whose content type
(``[Content_Types].xml``, an ``Override`` by part name or a ``Default`` by extension, both
compared ignoring case as OPC does) is an OPC XML type, ``…+xml`` (relationships, document
properties and every WordprocessingML part); a generic ``application/xml`` item (custom XML data,
which no writer reads and every writer copies byte for byte) is left alone. In an .odt, the
manifest and every entry it lists as ``text/xml`` (content, styles, meta, settings, embedded
objects' parts). Parts the package declares otherwise are copied untouched and never parsed.
"""
from __future__ import annotations

import posixpath

from lxml import etree

from .docx.oxml import qn as docx_qn
from .errors import TooLargeError
from .odt.odfxml import qn as odf_qn
from .package import DEFAULT_LIMITS, DOCX, ODT, Limits, Package

__all__ = ["xml_parts", "check_parts", "count_paragraphs", "check_paragraphs"]

_CONTENT_TYPES = "[Content_Types].xml"
_MANIFEST = "META-INF/manifest.xml"
#: The paragraph elements of each format (an ODF heading is a paragraph too).
_PARAGRAPHS = {DOCX: (docx_qn("w:p"),), ODT: (odf_qn("text:p"), odf_qn("text:h"))}
#: Parts a .odt writer reads when its manifest does not list them.
_ODT_PARTS = ("content.xml", "styles.xml", "meta.xml", "settings.xml")


def _local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def _attr(el: etree._Element, name: str) -> str:
    """An attribute by local name, whatever its namespace (ODF's are qualified, OPC's are not)."""
    for key, value in el.attrib.items():
        if key == name or key.endswith("}" + name):
            return value
    return ""


def _docx_parts(pkg: Package) -> list[str]:
    types = pkg.xml(_CONTENT_TYPES)
    overrides: dict[str, str] = {}
    defaults: dict[str, str] = {}
    for el in types.iterchildren(etree.Element):
        kind = _local(el)
        if kind == "Override":
            overrides[_attr(el, "PartName").lstrip("/").casefold()] = _attr(el, "ContentType")
        elif kind == "Default":
            defaults[_attr(el, "Extension").casefold()] = _attr(el, "ContentType")
    out = []
    for name in pkg.names:
        if name == _CONTENT_TYPES or name.endswith("/"):
            continue
        base = posixpath.basename(name)  # OPC's extension follows the last dot: "_rels/.rels" has "rels"
        ext = base.rpartition(".")[2].casefold() if "." in base else ""
        ctype = overrides.get(name.casefold(), defaults.get(ext, ""))
        if ctype.strip().casefold().endswith("+xml"):
            out.append(name)
    return out


def _odt_parts(pkg: Package) -> list[str]:
    if not pkg.has(_MANIFEST):
        return [n for n in _ODT_PARTS if pkg.has(n)]
    listed = [_attr(el, "full-path") for el in pkg.xml(_MANIFEST).iter(etree.Element)
              if _local(el) == "file-entry" and _attr(el, "media-type").strip() == "text/xml"]
    return [_MANIFEST] + [n for n in dict.fromkeys(listed) if pkg.has(n)]


def xml_parts(pkg: Package) -> list[str]:
    """The members of ``pkg`` the package declares XML (see the module's docstring), the
    content types or the manifest first.

    :raise adapters.errors.AdapterError: the content types or the manifest themselves are unsafe
        or malformed.
    """
    if pkg.format == DOCX:
        return [_CONTENT_TYPES, *_docx_parts(pkg)] if pkg.has(_CONTENT_TYPES) else []
    if pkg.format == ODT:
        return _odt_parts(pkg)
    return []  # pragma: no cover - open_package knows two formats


def check_parts(pkg: Package) -> None:
    """Parse every part of :func:`xml_parts` with the hardened parser (parts a reader parsed
    already come from the package's cache).

    :raise adapters.errors.UnsafeXmlError: entities, a DTD subset, nesting too deep.
    :raise adapters.errors.MalformedXmlError: not well-formed; both name the part.
    """
    for name in xml_parts(pkg):
        pkg.xml(name)


def count_paragraphs(pkg: Package, name: str, stop: int) -> int:
    """The paragraph elements of part ``name``, counted as it inflates and stopping past
    ``stop``: a pull parser (entities, DTDs and the network off, as the hardened parser) sees
    each paragraph's end, and every paragraph, with what came before it, is dropped at once,
    so no tree of the part is ever held. Prefixes do not matter: names are compared with their
    namespace. A part that is not well-formed is counted up to its fault (its parse reports it).
    """
    parser = etree.XMLPullParser(events=("end",), tag=_PARAGRAPHS[pkg.format], resolve_entities=False,
                                 no_network=True, load_dtd=False, huge_tree=False)
    seen = 0
    try:
        for chunk in pkg.stream(name, 1 << 16):
            parser.feed(chunk)
            for _event, el in parser.read_events():
                seen += 1
                el.clear()
                parent = el.getparent()
                while parent is not None and el.getprevious() is not None:
                    del parent[0]
                if seen > stop:
                    return seen
    except etree.XMLSyntaxError:
        return seen
    return seen


def check_paragraphs(pkg: Package, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse a package whose XML parts hold more than ``limits.max_paragraphs`` paragraphs
    before any of them is parsed: a 2 MB upload of 1,000,000 paragraphs grew the worker by
    2.8 GB when it was refused only once read (:func:`.package.check_size`).

    :raise TooLargeError: naming the count reached and the limit.
    """
    if not limits.max_paragraphs:
        return
    left = limits.max_paragraphs
    for name in xml_parts(pkg):
        left -= count_paragraphs(pkg, name, left)
        if left < 0:
            raise TooLargeError(f"the document has more than {limits.max_paragraphs:,} paragraphs (counted before "
                                "it is read; max_paragraphs, LEDGER_MAX_PARAGRAPHS)")
