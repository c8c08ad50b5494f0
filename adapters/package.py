"""The strict door: sniffing, bounded unzipping and the one hardened XML parser.

Every byte a reader sees comes through :func:`open_package`. It refuses what is not a
word-processing package, what is encrypted, damaged or too large, and decompression bombs,
before any XML is parsed. Members are read into memory only; their names are never used as
file-system paths. :meth:`Package.xml` parses with entities, DTDs and the network off.
"""
from __future__ import annotations

import io
import re
import zipfile
import zlib
from dataclasses import dataclass
from typing import Iterator

from lxml import etree

from .errors import (
    CorruptDocumentError,
    EncryptedDocumentError,
    MalformedXmlError,
    NotADocumentError,
    TooLargeError,
    UnsafeXmlError,
    UnsupportedFormatError,
    ZipBombError,
)

__all__ = ["Limits", "Package", "open_package", "sniff_format", "parse_xml", "DOCX", "ODT"]

DOCX = "docx"
ODT = "odt"

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_ODT_MIME = "application/vnd.oasis.opendocument.text"
_ODT_MIMES_OTHER = "application/vnd.oasis.opendocument."


@dataclass(frozen=True)
class Limits:
    """Bounds on what we agree to unpack. The defaults suit documents of a few hundred pages."""

    max_input_bytes: int = 64 * 1024 * 1024
    max_members: int = 5000
    max_member_bytes: int = 256 * 1024 * 1024
    max_total_bytes: int = 512 * 1024 * 1024
    #: A member that inflates beyond this ratio (and beyond 1 MiB) is a bomb.
    max_ratio: int = 200


DEFAULT_LIMITS = Limits()

# One hardened parser: no entity resolution, no DTD loading, no network, default depth limit
# (libxml2 refuses nesting beyond 256 levels without XML_PARSE_HUGE).
_PARSER = etree.XMLParser(
    resolve_entities=False,
    no_network=True,
    load_dtd=False,
    dtd_validation=False,
    huge_tree=False,
    remove_comments=False,
)


_QUOTED = rb"(?:\"[^\"]*\"|'[^']*')"
#: A document type declaration that only names an external DTD (no internal subset), as
#: OpenOffice.org 3 writes in its formula objects:
#: ``<!DOCTYPE math:math PUBLIC "-//OpenOffice.org//DTD Modified W3C MathML 1.01//EN" "math.dtd">``.
_EXTERNAL_DOCTYPE = re.compile(
    rb"<!DOCTYPE\s+[^\s\[>]+(?:\s+(?:SYSTEM\s+" + _QUOTED + rb"|PUBLIC\s+" + _QUOTED + rb"(?:\s+" + _QUOTED + rb")?))?\s*>"
)


def parse_xml(data: bytes, part: str = "<xml>") -> etree._Element:
    """Parse one XML part with the hardened parser.

    A DOCTYPE that only names an external DTD is read with the DTD neither loaded nor
    resolved; an internal subset, an entity declaration, or a reference to an entity that
    only such a DTD could define is refused.

    >>> parse_xml(b'<!DOCTYPE math:math PUBLIC "-//OpenOffice.org//DTD Modified W3C MathML 1.01//EN" '
    ...           b'"math.dtd"><math:math xmlns:math="http://www.w3.org/1998/Math/MathML"/>').tag
    '{http://www.w3.org/1998/Math/MathML}math'

    :raise UnsafeXmlError: the part declares a DTD subset or entities, or nests too deeply.
    :raise MalformedXmlError: the part is not well-formed.
    """
    head = data[:4096]
    at = head.find(b"<!DOCTYPE")
    if at >= 0 and not _EXTERNAL_DOCTYPE.match(head, at):
        raise UnsafeXmlError(part, "DTDs and entity declarations are not allowed")
    if b"<!ENTITY" in data:
        raise UnsafeXmlError(part, "DTDs and entity declarations are not allowed")
    try:
        root = etree.fromstring(data, parser=_PARSER)
    except etree.XMLSyntaxError as exc:
        msg = str(exc)
        if "depth" in msg.lower() or "nesting" in msg.lower():
            raise UnsafeXmlError(part, "elements nest too deeply") from None
        if "entity" in msg.lower() and "amplification" in msg.lower():
            raise UnsafeXmlError(part, "entity amplification") from None
        raise MalformedXmlError(part, msg) from None
    if root is None:
        raise MalformedXmlError(part, "empty document")
    if at >= 0 and next(root.iter(etree.Entity), None) is not None:
        # an entity only the (unloaded) external DTD defines: its text is unknown
        raise UnsafeXmlError(part, "entity references to an external DTD are not resolved")
    return root


class Package:
    """A read-only, bounded view of a zip package: members by name, read into memory once."""

    def __init__(self, data: bytes, fmt: str, zf: zipfile.ZipFile, limits: Limits) -> None:
        self.data = data
        self.format = fmt
        self._zf = zf
        self._limits = limits
        self._cache: dict[str, bytes] = {}
        self._xml: dict[str, etree._Element] = {}
        self._names = {i.filename: i for i in zf.infolist()}
        #: For DOCX, the main document part named by the package relationships.
        self.main_part: str | None = None

    @property
    def names(self) -> list[str]:
        return list(self._names)

    def has(self, name: str) -> bool:
        return name in self._names

    def read(self, name: str) -> bytes:
        """A member's bytes, inflated under the size limits.

        :raise CorruptDocumentError: the member is missing or damaged.
        """
        if name in self._cache:
            return self._cache[name]
        info = self._names.get(name)
        if info is None:
            raise CorruptDocumentError(f"the package has no part {name!r}")
        limit = self._limits.max_member_bytes
        out = io.BytesIO()
        try:
            with self._zf.open(info) as fh:
                while True:
                    chunk = fh.read(1 << 20)
                    if not chunk:
                        break
                    out.write(chunk)
                    if out.tell() > limit:
                        raise ZipBombError(f"part {name!r} inflates beyond {limit} bytes")
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError) as exc:
            raise CorruptDocumentError(f"part {name!r} cannot be unpacked: {exc}") from None
        data = out.getvalue()
        self._cache[name] = data
        return data

    def xml(self, name: str) -> etree._Element:
        """A member parsed with the hardened parser (cached)."""
        root = self._xml.get(name)
        if root is None:
            root = parse_xml(self.read(name), name)
            self._xml[name] = root
        return root

    def xml_or_none(self, name: str) -> etree._Element | None:
        return self.xml(name) if self.has(name) else None

    def items(self) -> Iterator[tuple[zipfile.ZipInfo, bytes]]:
        """Every member with its raw bytes, in archive order (for writers that copy the rest)."""
        for info in self._zf.infolist():
            yield info, self.read(info.filename)


def sniff_format(data: bytes) -> str:
    """``docx`` or ``odt`` from the bytes alone, or a clear error.

    :raise NotADocumentError, EncryptedDocumentError, UnsupportedFormatError, CorruptDocumentError:
    """
    if not data:
        raise NotADocumentError("the input is empty")
    if data.startswith(_OLE_MAGIC):
        # Office wraps encrypted OOXML in an OLE compound file with an EncryptedPackage stream.
        if "EncryptedPackage".encode("utf-16-le") in data or b"EncryptionInfo" in data or (
            "EncryptionInfo".encode("utf-16-le") in data
        ):
            raise EncryptedDocumentError("the document is password-protected (encrypted OOXML)")
        raise UnsupportedFormatError(
            "this is a legacy binary Office file (.doc); save it as .docx or .odt"
        )
    if not data.startswith(_ZIP_MAGIC):
        if data.lstrip()[:5] in (b"<?xml", b"<offi") and b"opendocument" in data[:4096]:
            raise UnsupportedFormatError("flat XML OpenDocument (.fodt) is not supported; save as .odt")
        if data.startswith(b"%PDF"):
            raise NotADocumentError("this is a PDF, not a .docx or .odt document")
        raise NotADocumentError("not a .docx or .odt document (no zip package signature)")
    return ""  # decided once the central directory is read


def _open_zip(data: bytes) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise CorruptDocumentError(f"the zip package is damaged or truncated: {exc}") from None
    except (ValueError, OSError, EOFError, NotImplementedError) as exc:
        raise CorruptDocumentError(f"the zip package cannot be read: {exc}") from None


def _check_bounds(zf: zipfile.ZipFile, limits: Limits) -> None:
    infos = zf.infolist()
    if len(infos) > limits.max_members:
        raise ZipBombError(f"the package has {len(infos)} members (limit {limits.max_members})")
    total = 0
    for info in infos:
        if info.flag_bits & 0x1:
            raise EncryptedDocumentError(f"zip member {info.filename!r} is encrypted")
        total += info.file_size
        if info.file_size > limits.max_member_bytes:
            raise ZipBombError(f"part {info.filename!r} declares {info.file_size} bytes unpacked")
        if info.file_size > (1 << 20) and info.file_size > limits.max_ratio * max(
            info.compress_size, 1
        ):
            raise ZipBombError(
                f"part {info.filename!r} inflates {info.file_size // max(info.compress_size, 1)}x"
            )
    if total > limits.max_total_bytes:
        raise ZipBombError(f"the package unpacks to {total} bytes (limit {limits.max_total_bytes})")


def _docx_main_part(pkg: Package) -> str | None:
    """The main document part named by the package relationships (it need not be word/document.xml)."""
    if not pkg.has("_rels/.rels"):
        return "word/document.xml" if pkg.has("word/document.xml") else None
    rels = pkg.xml("_rels/.rels")
    for rel in rels:
        rtype = rel.get("Type", "")
        if rtype.endswith("/officeDocument"):
            target = rel.get("Target", "").lstrip("/")
            return target if pkg.has(target) else None
    return None


def open_package(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Package:
    """Open bytes as a bounded package and decide its format.

    :raise TooLargeError: the input is over ``limits.max_input_bytes``.
    :raise ZipBombError: member counts, sizes or ratios over the limits.
    :raise EncryptedDocumentError, NotADocumentError, UnsupportedFormatError, CorruptDocumentError:
    """
    if len(data) > limits.max_input_bytes:
        raise TooLargeError(
            f"the document is {len(data)} bytes; the limit is {limits.max_input_bytes} bytes"
        )
    sniff_format(data)
    zf = _open_zip(data)
    _check_bounds(zf, limits)
    names = set(zf.namelist())
    if "mimetype" in names or "META-INF/manifest.xml" in names:
        pkg = Package(data, ODT, zf, limits)
        mime = pkg.read("mimetype").decode("ascii", "replace").strip() if pkg.has("mimetype") else ""
        if mime and mime != _ODT_MIME and not mime.startswith(_ODT_MIME + "-"):
            if mime.startswith(_ODT_MIMES_OTHER):
                raise UnsupportedFormatError(f"OpenDocument type {mime!r} is not a text document")
            raise UnsupportedFormatError(f"unknown package type {mime!r}")
        if pkg.has("META-INF/manifest.xml"):
            if b"encryption-data" in pkg.read("META-INF/manifest.xml"):
                raise EncryptedDocumentError("the document is password-protected (ODF encryption)")
        if not pkg.has("content.xml"):
            raise CorruptDocumentError("the package has no part 'content.xml'")
        return pkg
    if "[Content_Types].xml" in names:
        pkg = Package(data, DOCX, zf, limits)
        main = _docx_main_part(pkg)
        if main is None:
            if any(n.startswith("xl/") for n in names):
                raise UnsupportedFormatError("this is a spreadsheet (.xlsx), not a text document")
            if any(n.startswith("ppt/") for n in names):
                raise UnsupportedFormatError("this is a presentation (.pptx), not a text document")
            raise CorruptDocumentError("the package has no main document part")
        pkg.main_part = main
        return pkg
    raise NotADocumentError("a zip archive, but not a .docx or .odt document")
