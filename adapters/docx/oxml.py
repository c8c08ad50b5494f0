"""WordprocessingML namespaces and the helpers that spell them: the only place a URI appears.

``qn("w:p")`` gives the Clark name ``{uri}p``; ``xpath(el, expr)`` always passes :data:`NSMAP`.
Strict OOXML (ISO/IEC 29500 Strict, ``purl.oclc.org`` namespaces) is read by mapping its
namespaces to the transitional ones before parsing, so everything above sees one vocabulary.
"""
from __future__ import annotations

from lxml import etree

from ..package import Package, parse_xml

__all__ = [
    "NSMAP",
    "STRICT_TO_TRANSITIONAL",
    "qn",
    "xpath",
    "local",
    "is_strict",
    "to_transitional",
    "to_strict",
    "load_part",
    "serialize_part",
    "w_attr",
    "prefixed",
]

NSMAP: dict[str, str] = {
    "w": "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "m": "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "wp": "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "pic": "http://schemas.openxmlformats.org/drawingml/2006/picture",
    "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
    "dgm": "http://schemas.openxmlformats.org/drawingml/2006/diagram",
    "mc": "http://schemas.openxmlformats.org/markup-compatibility/2006",
    "v": "urn:schemas-microsoft-com:vml",
    "o": "urn:schemas-microsoft-com:office:office",
    "w10": "urn:schemas-microsoft-com:office:word",
    "w14": "http://schemas.microsoft.com/office/word/2010/wordml",
    "w15": "http://schemas.microsoft.com/office/word/2012/wordml",
    "wps": "http://schemas.microsoft.com/office/word/2010/wordprocessingShape",
    "wpg": "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup",
    "wpc": "http://schemas.microsoft.com/office/word/2010/wordprocessingCanvas",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
    "xml": "http://www.w3.org/XML/1998/namespace",
}

#: Strict OOXML namespaces and their transitional twins (ECMA-376 Part 1, Strict conformance).
STRICT_TO_TRANSITIONAL: dict[str, str] = {
    "http://purl.oclc.org/ooxml/wordprocessingml/main": NSMAP["w"],
    "http://purl.oclc.org/ooxml/officeDocument/relationships": NSMAP["r"],
    "http://purl.oclc.org/ooxml/officeDocument/math": NSMAP["m"],
    "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing": NSMAP["wp"],
    "http://purl.oclc.org/ooxml/drawingml/main": NSMAP["a"],
    "http://purl.oclc.org/ooxml/drawingml/picture": NSMAP["pic"],
    "http://purl.oclc.org/ooxml/drawingml/chart": NSMAP["c"],
    "http://purl.oclc.org/ooxml/drawingml/diagram": NSMAP["dgm"],
}

_STRICT_PREFIX = b"http://purl.oclc.org/ooxml/"


def qn(tag: str) -> str:
    """Clark name of a prefixed tag: ``qn("w:p") == "{http://...main}p"``.

    >>> qn("w:t").endswith("}t")
    True
    """
    prefix, _, name = tag.partition(":")
    return f"{{{NSMAP[prefix]}}}{name}"


def xpath(el: etree._Element, expr: str) -> list:
    """``el.xpath(expr)`` with :data:`NSMAP` (not for hot paths: it compiles each call)."""
    return el.xpath(expr, namespaces=NSMAP)


def local(tag: object) -> str:
    """The local part of a Clark name (``"{uri}p"`` -> ``"p"``); comments and PIs give ``""``."""
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2]


def w_attr(name: str) -> str:
    """Clark name of a ``w:`` attribute (``w_attr("val")``)."""
    return qn("w:" + name)


def is_strict(data: bytes) -> bool:
    """Whether a part's bytes use Strict OOXML namespaces (looked for in the root start tag)."""
    head = data[:8192]
    return _STRICT_PREFIX in head


def to_transitional(data: bytes) -> bytes:
    """The part's bytes with every Strict namespace URI replaced by its transitional twin.

    Namespace URIs are attribute values of ``xmlns`` declarations; relationship types in
    ``.rels`` parts change too, which the relationship readers ignore (they match on suffixes).
    """
    for strict, trans in STRICT_TO_TRANSITIONAL.items():
        data = data.replace(strict.encode("ascii"), trans.encode("ascii"))
    return data


def to_strict(data: bytes) -> bytes:
    """Inverse of :func:`to_transitional`: a part read from a Strict package goes back as Strict."""
    for strict, trans in STRICT_TO_TRANSITIONAL.items():
        data = data.replace(trans.encode("ascii"), strict.encode("ascii"))
    return data


_DECL_END = b"?>"


def serialize_part(original: bytes, root: etree._Element, strict: bool = False) -> bytes:
    """A changed part's bytes: the original XML declaration kept, the tree as lxml writes it.

    ``strict`` maps the transitional namespaces back (the part came from a Strict package).
    A part declared in an encoding other than UTF-8 is written in that encoding.

    >>> root = etree.fromstring(b"<a><b/></a>")
    >>> serialize_part(b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\\r\\n<a/>', root)
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\\r\\n<a><b/></a>'
    """
    prolog = b""
    if original.startswith(b"<?xml"):
        end = original.find(_DECL_END)
        if end > 0:
            end += len(_DECL_END)
            while end < len(original) and original[end : end + 1] in b" \t\r\n":
                end += 1
            prolog = original[:end]
    lowered = prolog.lower().replace(b"'", b'"')
    if b"encoding=" in lowered and b'encoding="utf-8"' not in lowered:
        enc = lowered.split(b"encoding=")[1][1:].split(b'"')[0].decode("ascii")
        body = etree.tostring(root, encoding=enc, xml_declaration=True, standalone=b"standalone" in lowered or None)
        return to_strict(body) if strict else body
    body = etree.tostring(root, encoding="UTF-8", xml_declaration=False)
    if strict:
        body = to_strict(body)
    return prolog + body


def load_part(pkg: Package, part: str) -> etree._Element:
    """A part parsed by the package's hardened parser, in transitional vocabulary.

    :raise adapters.errors.AdapterError: the part is missing, unsafe or malformed.
    """
    root = pkg.xml(part)
    ns = etree.QName(root).namespace or ""
    if ns.startswith("http://purl.oclc.org/ooxml/"):
        root = parse_xml(to_transitional(pkg.read(part)), part)
    return root


_PREFIX_OF = {uri: prefix for prefix, uri in NSMAP.items()}


def prefixed(tag: str) -> str:
    """A Clark name as a reader writes it: ``"{...main}foo"`` -> ``"w:foo"`` (unknown URIs kept).

    >>> prefixed(qn("w:p"))
    'w:p'
    """
    uri, sep, name = tag[1:].partition("}")
    if not sep:
        return tag
    prefix = _PREFIX_OF.get(uri)
    return f"{prefix}:{name}" if prefix else tag
