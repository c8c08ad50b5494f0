"""The strict door: sniffing, bounded unzipping and the one hardened XML parser.

Every byte a reader sees comes through :func:`open_package`. It refuses what is not a
word-processing package, what is encrypted, damaged or too large, and decompression bombs,
before any XML is parsed. Members are read into memory only; their names are never used as
file-system paths. :meth:`Package.xml` parses with entities, DTDs and the network off.
"""
from __future__ import annotations

import codecs
import io
import re
import zipfile
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator

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

__all__ = ["Limits", "Package", "open_package", "check_size", "sniff_format", "parse_xml", "DOCX", "ODT"]

if TYPE_CHECKING:  # the model imports nothing from here; only its type is named
    from .model import Document

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
    max_total_bytes: int = 256 * 1024 * 1024
    #: A package that inflates beyond this ratio as a whole, or a member over
    #: :data:`RATIO_FLOOR` bytes that does, is a bomb (real documents stay under 20x).
    max_ratio: int = 200
    #: Units (paragraphs, headings, cells, ...) and characters of text a read document may have,
    #: checked by :func:`adapters.read` (0: no limit).
    max_units: int = 50_000
    max_text_chars: int = 4_000_000
    #: Paragraph elements the package's XML parts may hold, counted while they stream, before
    #: any tree is built (:func:`adapters.parts.check_paragraphs`; 0: no limit). Apart from
    #: ``max_units``: empty paragraphs and a table's cells are paragraphs but not units.
    max_paragraphs: int = 250_000


DEFAULT_LIMITS = Limits()
#: Members this small are exempt from the per-member ratio (a small, very regular part may
#: inflate a few hundred times), not from the package's ratio and totals, which bound many of them.
RATIO_FLOOR = 64 * 1024

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
#: Byte-order marks and the first bytes of ``<?xml`` in encodings that are not ASCII-compatible
#: (XML 1.0, appendix F), longest first.
_SIGNATURES = (
    (b"\x00\x00\xfe\xff", "utf-32-be"), (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\x00<", "utf-32-be"), (b"<\x00\x00\x00", "utf-32-le"),
    (b"\xfe\xff", "utf-16-be"), (b"\xff\xfe", "utf-16-le"),
    (b"\x00<\x00?", "utf-16-be"), (b"<\x00?\x00", "utf-16-le"),
    (b"\x4c\x6f\xa7\x94", "cp037"),  # EBCDIC
)
_DECLARED = re.compile(rb"^(?:\xef\xbb\xbf)?<\?xml[^>]*?\sencoding\s*=\s*[\"']([A-Za-z0-9._:-]{1,40})[\"']")
_PLAIN = ("utf-8", "ascii")


def _guarded_bytes(data: bytes, part: str) -> bytes:
    """The bytes the DTD guard reads: the part itself when it is UTF-8 (or ASCII), else its
    text decoded and written as UTF-8, so that a ``<!DOCTYPE`` in UTF-16, UTF-32, EBCDIC or
    UTF-7 is seen as the parser will see it.

    >>> _guarded_bytes('<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE r>'.encode("utf-16"), "p")[-12:]
    b'<!DOCTYPE r>'

    :raise MalformedXmlError: an encoding that cannot be decoded.
    """
    encoding = next((name for sig, name in _SIGNATURES if data.startswith(sig)), None)
    if encoding is None:
        m = _DECLARED.match(data[:256])
        encoding = m.group(1).decode("ascii") if m else "utf-8"
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise MalformedXmlError(part, f"unknown encoding {encoding!r}") from None
    if name in _PLAIN:
        return data
    try:
        text = data.decode(name)
    except UnicodeDecodeError as exc:
        raise MalformedXmlError(part, f"not valid {name}: {exc.reason}") from None
    return text.lstrip("\ufeff").encode("utf-8", "surrogatepass")


def parse_xml(data: bytes, part: str = "<xml>") -> etree._Element:
    """Parse one XML part with the hardened parser.

    A DOCTYPE that only names an external DTD is read with the DTD neither loaded nor
    resolved; an internal subset, an entity declaration, or a reference to an entity that
    only such a DTD could define is refused. The guard reads the whole part after decoding
    it (:func:`_guarded_bytes`), and the parsed tree is checked again: a DOCTYPE the guard
    did not see is refused too.

    >>> parse_xml(b'<!DOCTYPE math:math PUBLIC "-//OpenOffice.org//DTD Modified W3C MathML 1.01//EN" '
    ...           b'"math.dtd"><math:math xmlns:math="http://www.w3.org/1998/Math/MathML"/>').tag
    '{http://www.w3.org/1998/Math/MathML}math'

    :raise UnsafeXmlError: the part declares a DTD subset or entities, or nests too deeply.
    :raise MalformedXmlError: the part is not well-formed.
    """
    guarded = _guarded_bytes(data, part)
    at = guarded.find(b"<!DOCTYPE")
    if at >= 0 and not _EXTERNAL_DOCTYPE.match(guarded, at):
        raise UnsafeXmlError(part, "DTDs and entity declarations are not allowed")
    if b"<!ENTITY" in guarded:
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
    if root.getroottree().docinfo.doctype:
        if at < 0:  # the parser read a DOCTYPE the guard could not see
            raise UnsafeXmlError(part, "DTDs and entity declarations are not allowed")
        if next(root.iter(etree.Entity), None) is not None:
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
        self._inflated = 0  # bytes inflated so far, against ``max_total_bytes``
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
        out = io.BytesIO()
        for chunk in self.stream(name):
            out.write(chunk)
        data = out.getvalue()
        self._inflated += len(data)
        self._cache[name] = data
        return data

    def stream(self, name: str, chunk_bytes: int = 1 << 20) -> Iterator[bytes]:
        """A member's bytes in chunks as they inflate, under the same limits as :meth:`read`,
        neither kept nor counted against the package's total (a reader that streams a part,
        to count what is in it before it is parsed, holds one chunk at a time).

        :raise CorruptDocumentError: the member is missing or damaged.
        :raise ZipBombError: it inflates past the limits.
        """
        if name in self._cache:
            yield self._cache[name]
            return
        info = self._names.get(name)
        if info is None:
            raise CorruptDocumentError(f"the package has no part {name!r}")
        # The headers' sizes were checked already; these hold should a header lie.
        lim = self._limits
        limit = min(lim.max_member_bytes, lim.max_total_bytes - self._inflated)
        ratio_cap = max(RATIO_FLOOR, lim.max_ratio * max(info.compress_size, 1))
        seen = 0
        try:
            with self._zf.open(info) as fh:
                while True:
                    chunk = fh.read(chunk_bytes)
                    if not chunk:
                        break
                    seen += len(chunk)
                    if seen > limit:
                        raise ZipBombError(f"part {name!r} inflates beyond {limit} bytes "
                                           f"(limits: {lim.max_member_bytes} per part, {lim.max_total_bytes} in all)")
                    if seen > ratio_cap:
                        raise ZipBombError(f"part {name!r} inflates more than {lim.max_ratio}x")
                    yield chunk
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, ValueError) as exc:
            raise CorruptDocumentError(f"part {name!r} cannot be unpacked: {exc}") from None

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
    """Refuse by the central directory alone: member count, encrypted members, duplicate
    names, each member's size and ratio, the package's total and ratio.

    Duplicate names are ``corrupt``: readers would see one copy and writers rewrite another.
    """
    infos = zf.infolist()
    if len(infos) > limits.max_members:
        raise ZipBombError(f"the package has {len(infos)} members (limit {limits.max_members})")
    total = packed = 0
    seen: set[str] = set()
    for info in infos:
        if info.flag_bits & 0x1:
            raise EncryptedDocumentError(f"zip member {info.filename!r} is encrypted")
        if info.filename in seen:
            raise CorruptDocumentError(f"the package holds the part {info.filename!r} twice")
        seen.add(info.filename)
        total += info.file_size
        packed += info.compress_size
        if info.file_size > limits.max_member_bytes:
            raise ZipBombError(f"part {info.filename!r} declares {info.file_size} bytes unpacked "
                               f"(limit {limits.max_member_bytes})")
        if info.file_size > RATIO_FLOOR and info.file_size > limits.max_ratio * max(info.compress_size, 1):
            raise ZipBombError(
                f"part {info.filename!r} inflates {info.file_size // max(info.compress_size, 1)}x "
                f"(limit {limits.max_ratio}x)"
            )
    if total > limits.max_total_bytes:
        raise ZipBombError(f"the package unpacks to {total} bytes (limit {limits.max_total_bytes})")
    if total > (1 << 20) and total > limits.max_ratio * max(packed, 1):
        raise ZipBombError(f"the package inflates {total // max(packed, 1)}x as a whole (limit {limits.max_ratio}x)")


def _opc_duplicates(names: list[str]) -> str | None:
    """A part name that occurs twice once case is ignored, as OPC compares part names
    (ECMA-376 part 2, 6.2.2.3); ``None`` when all differ.

    >>> _opc_duplicates(["word/document.xml", "Word/Document.xml"])
    'Word/Document.xml'
    """
    seen: set[str] = set()
    for name in names:
        key = name.casefold()
        if key in seen:
            return name
        seen.add(key)
    return None


def _docx_main_part(pkg: Package) -> str | None:
    """The main document part named by the package relationships (it need not be word/document.xml)."""
    if not pkg.has("_rels/.rels"):
        return "word/document.xml" if pkg.has("word/document.xml") else None
    rels = pkg.xml("_rels/.rels")
    for rel in rels.iterchildren(etree.Element):  # comments and processing instructions are no relationships
        rtype = rel.get("Type", "")
        if rtype.endswith("/officeDocument"):
            target = rel.get("Target", "").lstrip("/")
            return target if pkg.has(target) else None
    return None


def check_size(doc: "Document", limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse a read document with more units or text than ``limits`` allow (0: no limit):
    every later step (graph, checks, the stored model) grows with them.

    :raise TooLargeError: naming the count and the limit.
    """
    if limits.max_units and len(doc.units) > limits.max_units:
        raise TooLargeError(f"the document has {len(doc.units):,} units; the limit is {limits.max_units:,} "
                            "(max_units, LEDGER_MAX_UNITS)")
    if limits.max_text_chars:
        chars = sum(len(u.text) + len(u.rejected_text or "") for u in doc.units)
        if chars > limits.max_text_chars:
            raise TooLargeError(f"the document has {chars:,} characters of text; the limit is "
                                f"{limits.max_text_chars:,} (max_text_chars, LEDGER_MAX_TEXT_CHARS)")


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
        twice = _opc_duplicates(zf.namelist())
        if twice is not None:
            raise CorruptDocumentError(f"the package holds the part {twice!r} twice (part names ignore case)")
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
