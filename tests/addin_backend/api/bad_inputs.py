"""Every class of bad upload, with the HTTP status and error code the service must answer.

Each body carries :data:`MARKER`, so tests can check that no part of an upload reaches a log.
"""
from __future__ import annotations

import functools
import io
import zipfile

from tests.conftest import corpus_file

__all__ = ["MARKER", "BAD_INPUTS", "bad_input", "docx_with_rels"]

#: Text that must never appear in a log.
MARKER = "ZEBRA-7741 confidential clause"

_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504
_CONTENT_TYPES = b'<?xml version="1.0"?><Types xmlns="urn:x"/>'


def _zip(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def docx_with_rels(rels: bytes) -> bytes:
    """A docx-shaped package whose package relationships part is ``rels``: the door parses it."""
    return _zip({"[Content_Types].xml": _CONTENT_TYPES, "_rels/.rels": rels,
                 "word/document.xml": f"<w:document><w:body>{MARKER}</w:body></w:document>".encode()})


def _truncated_docx() -> bytes:
    data = corpus_file("cross_reference.docx").read_bytes()
    return data[: len(data) // 2]


def _encrypted_odt() -> bytes:
    manifest = (b'<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                b'<manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/>'
                b"</manifest:file-entry></manifest:manifest>")
    return _zip({"mimetype": b"application/vnd.oasis.opendocument.text",
                 "META-INF/manifest.xml": manifest, "content.xml": MARKER.encode()}, zipfile.ZIP_STORED)


_LAUGHS = (b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "' + MARKER.encode() + b'">'
           b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
           b"<Relationships>&c;</Relationships>")
_XXE = b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><Relationships>&x;</Relationships>'

_BUILDERS = {
    "empty": lambda: b"",
    "plain_text": lambda: f"Dear reader,\n{MARKER}\n".encode(),
    "pdf": lambda: b"%PDF-1.7\n" + MARKER.encode(),
    "legacy_doc": lambda: _OLE + "WordDocument".encode("utf-16-le") + MARKER.encode(),
    "spreadsheet": lambda: _zip({"[Content_Types].xml": _CONTENT_TYPES, "xl/workbook.xml": MARKER.encode()}),
    "encrypted_ooxml": lambda: _OLE + "EncryptedPackage".encode("utf-16-le") + MARKER.encode(),
    "encrypted_odt": _encrypted_odt,
    "truncated_docx": _truncated_docx,
    "zip_bomb": lambda: _zip({"[Content_Types].xml": _CONTENT_TYPES, "word/document.xml": b"\0" * (64 << 20)}),
    "entity_expansion": lambda: docx_with_rels(_LAUGHS),
    "external_entity": lambda: docx_with_rels(_XXE),
    "deep_nesting": lambda: docx_with_rels(b"<a>" * 5000 + MARKER.encode() + b"</a>" * 5000),
    "malformed_xml": lambda: docx_with_rels(b"<Relationships><Relationship " + MARKER.encode()),
}

#: name -> (HTTP status, error code).
BAD_INPUTS: dict[str, tuple[int, str]] = {
    "empty": (415, "not_a_document"),
    "plain_text": (415, "not_a_document"),
    "pdf": (415, "not_a_document"),
    "legacy_doc": (415, "unsupported_format"),
    "spreadsheet": (415, "unsupported_format"),
    "encrypted_ooxml": (422, "encrypted"),
    "encrypted_odt": (422, "encrypted"),
    "truncated_docx": (422, "corrupt"),
    "zip_bomb": (413, "zip_bomb"),
    "entity_expansion": (422, "unsafe_xml"),
    "external_entity": (422, "unsafe_xml"),
    "deep_nesting": (422, "unsafe_xml"),
    "malformed_xml": (422, "malformed_xml"),
}


@functools.lru_cache(maxsize=None)
def bad_input(name: str) -> bytes:
    """The body of one bad input (built once per session)."""
    return _BUILDERS[name]()
