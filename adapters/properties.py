"""One custom document property, read and written in place: where a file keeps what LEDGER wrote.

A review compares the file that comes back with the file LEDGER wrote; the list of operations
(ids, units, reasons) travels inside that file as a custom property, so that ``ledger review
REVIEWED --against EDITED`` needs nothing else. DOCX keeps it in ``docProps/custom.xml``
(``op:property`` with a ``vt:lpwstr``; the part, its relationship from the package and its
content type are added when missing), ODT in ``meta.xml`` (``meta:user-defined``). Word and
LibreOffice show both under File > Properties > Custom and keep them on save. Every other
member is copied byte for byte.
"""
from __future__ import annotations

from lxml import etree

from .odt.odfxml import qn as odf_qn
from .package import DOCX, ODT, open_package
from .repack import rewrite_zip

__all__ = ["get_property", "set_property"]

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
_DECL = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'


def _tostring(root) -> bytes:
    return _DECL + etree.tostring(root, encoding="UTF-8")


def get_property(data: bytes, name: str) -> str | None:
    """The value of custom property ``name`` of a .docx or .odt (None when it has none)."""
    pkg = open_package(data)
    if pkg.format == DOCX:
        if not pkg.has(_CUSTOM):
            return None
        for prop in pkg.xml(_CUSTOM).iter(f"{{{_OP}}}property"):
            if prop.get("name") == name:
                return "".join(prop.itertext())
        return None
    if pkg.format == ODT and pkg.has("meta.xml"):
        for el in pkg.xml("meta.xml").iter(f"{{{_META}}}user-defined"):
            if el.get(f"{{{_META}}}name") == name:
                return el.text or ""
    return None


def set_property(data: bytes, name: str, value: str) -> bytes:
    """The package with custom property ``name`` set to ``value`` (a string)."""
    pkg = open_package(data)
    if pkg.format == DOCX:
        return _set_docx(pkg, data, name, value)
    if pkg.format == ODT:
        return _set_odt(pkg, data, name, value)
    return data  # pragma: no cover - open_package knows two formats


def _set_docx(pkg, data: bytes, name: str, value: str) -> bytes:
    changed: dict[str, bytes] = {}
    add: list[tuple[str, bytes]] = []
    if pkg.has(_CUSTOM):
        root = etree.fromstring(pkg.read(_CUSTOM))
    else:
        root = etree.Element(f"{{{_OP}}}Properties", nsmap={None: _OP, "vt": _VT})
        rels = etree.fromstring(pkg.read("_rels/.rels"))
        taken = {r.get("Id") for r in rels}
        rid = next(f"rIdLedger{i}" for i in range(1, len(taken) + 2) if f"rIdLedger{i}" not in taken)
        etree.SubElement(rels, f"{{{_REL}}}Relationship", Id=rid, Type=_REL_TYPE, Target=_CUSTOM)
        changed["_rels/.rels"] = _tostring(rels)
        ct = etree.fromstring(pkg.read("[Content_Types].xml"))
        etree.SubElement(ct, f"{{{etree.QName(ct).namespace}}}Override", PartName="/" + _CUSTOM, ContentType=_CT)
        changed["[Content_Types].xml"] = _tostring(ct)
    props = list(root.iter(f"{{{_OP}}}property"))
    prop = next((p for p in props if p.get("name") == name), None)
    if prop is None:
        pids = [int(p.get("pid")) for p in props if (p.get("pid") or "").isdigit()]
        prop = etree.SubElement(root, f"{{{_OP}}}property", fmtid=_FMTID, pid=str(max(pids + [1]) + 1), name=name)
    for ch in list(prop):
        prop.remove(ch)
    etree.SubElement(prop, f"{{{_VT}}}lpwstr").text = value
    if pkg.has(_CUSTOM):
        changed[_CUSTOM] = _tostring(root)
    else:
        add.append((_CUSTOM, _tostring(root)))
    return rewrite_zip(data, changed, add)


def _set_odt(pkg, data: bytes, name: str, value: str) -> bytes:
    if pkg.has("meta.xml"):
        root = etree.fromstring(pkg.read("meta.xml"))
        meta = root.find(f"{{{_OFFICE}}}meta")
        if meta is None:
            meta = etree.SubElement(root, f"{{{_OFFICE}}}meta")
        for el in meta.findall(f"{{{_META}}}user-defined"):
            if el.get(f"{{{_META}}}name") == name:
                meta.remove(el)
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
    man = etree.fromstring(pkg.read("META-INF/manifest.xml"))
    entry = etree.SubElement(man, f"{{{manifest_ns}}}file-entry")
    entry.set(f"{{{manifest_ns}}}full-path", "meta.xml")
    entry.set(f"{{{manifest_ns}}}media-type", "text/xml")
    return rewrite_zip(data, {"META-INF/manifest.xml": etree.tostring(man, encoding="UTF-8", xml_declaration=True)},
                       [("meta.xml", etree.tostring(root, encoding="UTF-8", xml_declaration=True))])
