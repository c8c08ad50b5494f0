"""One custom document property, read and written in place: where a file keeps what LEDGER wrote.

A review compares the file that comes back with the file LEDGER wrote; the list of operations
(ids, units, reasons) travels inside that file as a custom property, so that ``ledger review
REVIEWED --against EDITED`` needs nothing else. DOCX keeps it in ``docProps/custom.xml``
(``op:property`` with a ``vt:lpwstr``; the part, its relationship from the package and its
content type are added when missing), ODT in ``meta.xml`` (``meta:user-defined``). Word and
LibreOffice show both under File > Properties > Custom and keep them on save. Every other
member is copied byte for byte.

These parts are a client's bytes like any other: every one is parsed by the package's one
hardened parser (no entities, no DTD), checked when a document is read
(:func:`check_properties`, so a bad one is refused at upload), and only a property where the
format puts it counts: in ODT a ``meta:user-defined`` directly inside ``office:meta`` (one
anywhere else is reported by :func:`misplaced_properties` and dropped when the property is
written).
"""
from __future__ import annotations

import re

from lxml import etree

from .errors import CorruptDocumentError
from .odt.odfxml import qn as odf_qn
from .package import DOCX, ODT, Package, open_package
from .repack import rewrite_zip

__all__ = ["get_property", "set_property", "check_properties", "misplaced_properties"]

_CUSTOM = "docProps/custom.xml"
_OP = "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties"
_VT = "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"
_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties"
_CT = "application/vnd.openxmlformats-officedocument.custom-properties+xml"
_FMTID = "{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"
_META = etree.QName(odf_qn("meta:x")).namespace
_OFFICE = etree.QName(odf_qn("office:x")).namespace
_MANIFEST = etree.QName(odf_qn("manifest:x")).namespace
#: A property id as the writer reads it: ASCII digits, at most 9 (an ``xsd:int``).
_PID = re.compile(r"[0-9]{1,9}")
_DECL = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'


def _tostring(root) -> bytes:
    return _DECL + etree.tostring(root, encoding="UTF-8")


def _custom_root(pkg: Package) -> etree._Element | None:
    """``docProps/custom.xml``'s ``op:Properties`` (hardened parser), or ``None`` without the part.

    :raise CorruptDocumentError: malformed, unsafe, or not a custom-properties part.
    """
    if not pkg.has(_CUSTOM):
        return None
    root = pkg.xml(_CUSTOM)
    if root.tag != f"{{{_OP}}}Properties":
        raise CorruptDocumentError(f"part {_CUSTOM!r} is not a custom-properties part (its root is "
                                   f"{str(root.tag)[:80]!r})")
    return root


def _odt_meta(pkg: Package) -> etree._Element | None:
    """``meta.xml``'s ``office:meta`` (hardened parser), or ``None`` without it.

    :raise CorruptDocumentError: malformed, unsafe, or not a document-meta part.
    """
    if not pkg.has("meta.xml"):
        return None
    root = pkg.xml("meta.xml")
    if root.tag != f"{{{_OFFICE}}}document-meta":
        raise CorruptDocumentError(f"part 'meta.xml' is not an ODF document-meta part (its root is "
                                   f"{str(root.tag)[:80]!r})")
    return root.find(f"{{{_OFFICE}}}meta")


def check_properties(pkg: Package) -> None:
    """Refuse a package whose custom-properties part is malformed or unsafe (read at upload, so
    a later review or apply never meets it first).

    :raise CorruptDocumentError: (``malformed_xml``, ``unsafe_xml``, ``corrupt``) naming the part.
    """
    if pkg.format == DOCX:
        _custom_root(pkg)
    elif pkg.format == ODT:
        _odt_meta(pkg)


def get_property(data: bytes, name: str) -> str | None:
    """The value of custom property ``name`` of a .docx or .odt (None when it has none).

    :raise CorruptDocumentError: the properties part is malformed or unsafe.
    """
    pkg = open_package(data)
    if pkg.format == DOCX:
        root = _custom_root(pkg)
        for prop in root.findall(f"{{{_OP}}}property") if root is not None else ():
            if prop.get("name") == name:
                return "".join(prop.itertext())
        return None
    if pkg.format == ODT:
        meta = _odt_meta(pkg)
        for el in meta.findall(f"{{{_META}}}user-defined") if meta is not None else ():
            if el.get(f"{{{_META}}}name") == name:
                return el.text or ""
    return None


def misplaced_properties(data: bytes, name: str) -> int:
    """How many copies of property ``name`` an ODT holds outside ``office:meta`` (ignored: the
    format keeps user-defined properties there, and LibreOffice reads them from nowhere else)."""
    pkg = open_package(data)
    if pkg.format != ODT or not pkg.has("meta.xml"):
        return 0
    root = pkg.xml("meta.xml")
    meta = root.find(f"{{{_OFFICE}}}meta")
    return sum(1 for el in root.iter(f"{{{_META}}}user-defined")
               if el.get(f"{{{_META}}}name") == name and el.getparent() is not meta)


def set_property(data: bytes, name: str, value: str) -> bytes:
    """The package with custom property ``name`` set to ``value`` (a string)."""
    pkg = open_package(data)
    if pkg.format == DOCX:
        return _set_docx(pkg, data, name, value)
    if pkg.format == ODT:
        return _set_odt(pkg, data, name, value)
    return data  # pragma: no cover - open_package knows two formats


def _next_pid(props: list[etree._Element]) -> str:
    """A property id above every other (ids start at 2). An id is an ``xsd:int``: only ASCII
    digits count, so one in superscript, circled or other Unicode digits (``str.isdigit`` takes
    them, ``int`` does not) is ignored rather than failing the write.

    >>> _next_pid([etree.Element("p", pid="7"), etree.Element("p", pid="\u00b2"), etree.Element("p", pid="\u2460")])
    '8'
    """
    pids = [int(pid) for pid in (p.get("pid") or "" for p in props) if _PID.fullmatch(pid)]
    return str(max(pids + [1]) + 1)


def _set_docx(pkg, data: bytes, name: str, value: str) -> bytes:
    changed: dict[str, bytes] = {}
    add: list[tuple[str, bytes]] = []
    found = _custom_root(pkg)
    if found is not None:
        root = found
    else:
        root = etree.Element(f"{{{_OP}}}Properties", nsmap={None: _OP, "vt": _VT})
        rels = pkg.xml("_rels/.rels")
        taken = {r.get("Id") for r in rels}
        rid = next(f"rIdLedger{i}" for i in range(1, len(taken) + 2) if f"rIdLedger{i}" not in taken)
        etree.SubElement(rels, f"{{{_REL}}}Relationship", Id=rid, Type=_REL_TYPE, Target=_CUSTOM)
        changed["_rels/.rels"] = _tostring(rels)
        ct = pkg.xml("[Content_Types].xml")
        etree.SubElement(ct, f"{{{etree.QName(ct).namespace}}}Override", PartName="/" + _CUSTOM, ContentType=_CT)
        changed["[Content_Types].xml"] = _tostring(ct)
    # the properties :func:`get_property` reads: children of the root (one nested deeper is none)
    props = root.findall(f"{{{_OP}}}property")
    prop = next((p for p in props if p.get("name") == name), None)
    if prop is None:
        prop = etree.SubElement(root, f"{{{_OP}}}property", fmtid=_FMTID, pid=_next_pid(list(root.iter(f"{{{_OP}}}property"))),
                                name=name)
    for ch in list(prop):
        prop.remove(ch)
    prop.text = None  # text beside the value would be read back as part of it
    etree.SubElement(prop, f"{{{_VT}}}lpwstr").text = value
    if pkg.has(_CUSTOM):
        changed[_CUSTOM] = _tostring(root)
    else:
        add.append((_CUSTOM, _tostring(root)))
    return rewrite_zip(data, changed, add)


def _set_odt(pkg, data: bytes, name: str, value: str) -> bytes:
    if pkg.has("meta.xml"):
        found = _odt_meta(pkg)
        root = pkg.xml("meta.xml")
        meta = found if found is not None else etree.SubElement(root, f"{{{_OFFICE}}}meta")
        for el in list(root.iter(f"{{{_META}}}user-defined")):  # a copy outside office:meta goes too
            parent = el.getparent()
            if el.get(f"{{{_META}}}name") == name and parent is not None:
                parent.remove(el)
        el = etree.SubElement(meta, f"{{{_META}}}user-defined")
        el.set(f"{{{_META}}}name", name)
        el.set(f"{{{_META}}}value-type", "string")
        el.text = value
        return rewrite_zip(data, {"meta.xml": etree.tostring(root, encoding="UTF-8", xml_declaration=True)})
    root = etree.Element(f"{{{_OFFICE}}}document-meta", nsmap={"office": _OFFICE, "meta": _META})
    root.set(f"{{{_OFFICE}}}version", "1.3")
    meta = etree.SubElement(root, f"{{{_OFFICE}}}meta")
    el = etree.SubElement(meta, f"{{{_META}}}user-defined")
    el.set(f"{{{_META}}}name", name)
    el.set(f"{{{_META}}}value-type", "string")
    el.text = value
    manifest_ns = _MANIFEST
    man = pkg.xml("META-INF/manifest.xml")
    entry = etree.SubElement(man, f"{{{manifest_ns}}}file-entry")
    entry.set(f"{{{manifest_ns}}}full-path", "meta.xml")
    entry.set(f"{{{manifest_ns}}}media-type", "text/xml")
    return rewrite_zip(data, {"META-INF/manifest.xml": etree.tostring(man, encoding="UTF-8", xml_declaration=True)},
                       [("meta.xml", etree.tostring(root, encoding="UTF-8", xml_declaration=True))])
