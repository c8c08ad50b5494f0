"""Rewrite a zip package with a few members replaced or added, copying every other member raw.

Writers patch the original package (STYLE.md habit 7). A member they do not change keeps its
whole local record byte for byte — header, compressed bytes and any data descriptor — and its
central-directory record (only the offset is updated), in the original order; so an ODF
``mimetype`` stays first and STORED. A replaced member keeps its name, compression method,
time stamp, attributes, extra fields and comment. Added members go at the end, deflated, with
a fixed time stamp. Archives the raw copier does not handle (ZIP64, multi-disk, a replaced
member compressed with another method than STORED or DEFLATED) are rebuilt with
:mod:`zipfile` instead, which still keeps every member's uncompressed bytes, order,
compression method, time stamp and attributes. Nothing here knows ODF or OOXML.
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import Mapping, Sequence

from .errors import CorruptDocumentError

__all__ = ["rewrite_zip"]

_LOCAL = struct.Struct("<IHHHHHIIIHH")  # sig need flags method time date crc csize usize nlen xlen
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")  # sig made need flags method time date crc csize usize
#                                                 nlen xlen clen disk iattr eattr offset
_EOCD = struct.Struct("<IHHHHIIH")
_SIG_LOCAL, _SIG_CENTRAL, _SIG_EOCD = 0x04034B50, 0x02014B50, 0x06054B50
_MAGIC_LOCAL, _MAGIC_EOCD = struct.pack("<I", _SIG_LOCAL), struct.pack("<I", _SIG_EOCD)
_ENCRYPTED, _DATA_DESCRIPTOR, _UTF8 = 0x1, 0x8, 0x800
_STORED, _DEFLATED = 0, 8
_DOS_EPOCH = (1 << 5) | 1  # the DOS date 1980-01-01: added members get a deterministic time stamp


class _Unsupported(Exception):
    """The raw copier cannot rewrite this archive; :mod:`zipfile` rebuilds it."""


def _deflate(data: bytes) -> bytes:
    comp = zlib.compressobj(6, zlib.DEFLATED, -15)
    return comp.compress(data) + comp.flush()


def _need(need: int, method: int) -> int:
    """The "version needed to extract": DEFLATE needs 2.0."""
    return max(need, 20) if method == _DEFLATED else need


def _directory(data: bytes) -> tuple[list[tuple[bytes, tuple]], int, bytes]:
    """The raw central-directory records (bytes, fields), the directory's offset and the comment."""
    start = max(0, len(data) - (_EOCD.size + 0xFFFF))
    eocd = data.rfind(_MAGIC_EOCD, start)
    if eocd < 0:
        raise CorruptDocumentError("the zip package has no end-of-central-directory record")
    _sig, disk, cd_disk, n_here, n_total, cd_size, cd_offset, clen = _EOCD.unpack_from(data, eocd)
    if disk or cd_disk or n_here != n_total or n_total == 0xFFFF or 0xFFFFFFFF in (cd_size, cd_offset):
        raise _Unsupported("multi-disk or ZIP64 archive")
    comment = data[eocd + _EOCD.size : eocd + _EOCD.size + clen]
    records = []
    pos = cd_offset
    for _ in range(n_total):
        fields = _CENTRAL.unpack_from(data, pos)
        if fields[0] != _SIG_CENTRAL:
            raise CorruptDocumentError("the zip central directory is damaged")
        size = _CENTRAL.size + fields[10] + fields[11] + fields[12]
        records.append((data[pos : pos + size], fields))
        pos += size
    return records, cd_offset, comment


def _name(raw: bytes, f: tuple) -> str:
    return raw[_CENTRAL.size : _CENTRAL.size + f[10]].decode("utf-8" if f[3] & _UTF8 else "cp437")


def _check_names(names: Sequence[str], replace: Mapping[str, bytes]) -> None:
    missing = sorted(set(replace) - set(names))
    if missing:
        raise CorruptDocumentError(f"the package has no part {missing[0]!r}")


def _replaced(data: bytes, raw: bytes, f: tuple, payload: bytes, offset: int) -> tuple[bytes, bytes]:
    """The new local record and central record of a member whose contents become ``payload``."""
    method, local_at = f[4], f[16]
    if method not in (_STORED, _DEFLATED):
        raise _Unsupported(f"compression method {method}")
    local = _LOCAL.unpack_from(data, local_at)
    body = payload if method == _STORED else _deflate(payload)
    crc = zlib.crc32(payload) & 0xFFFFFFFF
    flags = f[3] & ~(_DATA_DESCRIPTOR | _ENCRYPTED)
    name_at = local_at + _LOCAL.size
    local_name = data[name_at : name_at + local[9]]
    local_extra = data[name_at + local[9] : name_at + local[9] + local[10]]
    head = _LOCAL.pack(_SIG_LOCAL, _need(local[1], method), flags, method, local[4], local[5], crc, len(body),
                       len(payload), len(local_name), len(local_extra))
    central = _CENTRAL.pack(_SIG_CENTRAL, f[1], _need(f[2], method), flags, method, f[5], f[6], crc, len(body),
                            len(payload), *f[10:16], offset)
    return head + local_name + local_extra + body, central + raw[_CENTRAL.size :]


def _added(name: str, payload: bytes, offset: int) -> tuple[bytes, bytes]:
    """The local record and central record of a new deflated member."""
    name_bytes = name.encode("utf-8")
    flags = 0 if name.isascii() else _UTF8
    body = _deflate(payload)
    crc = zlib.crc32(payload) & 0xFFFFFFFF
    sizes = (crc, len(body), len(payload), len(name_bytes))
    local = _LOCAL.pack(_SIG_LOCAL, 20, flags, _DEFLATED, 0, _DOS_EPOCH, *sizes, 0)
    central = _CENTRAL.pack(_SIG_CENTRAL, 20, 20, flags, _DEFLATED, 0, _DOS_EPOCH, *sizes, 0, 0, 0, 0, 0, offset)
    return local + name_bytes + body, central + name_bytes


def _raw_rewrite(data: bytes, replace: Mapping[str, bytes], add: Sequence[tuple[str, bytes]]) -> bytes:
    records, cd_offset, comment = _directory(data)
    _check_names([_name(raw, f) for raw, f in records], replace)
    # An untouched member's record runs from its local header to the next one (or to the
    # central directory): that span holds the header, the data and any data descriptor.
    offsets = sorted({f[16] for _raw, f in records} | {cd_offset})
    span_end = dict(zip(offsets, offsets[1:]))
    out = io.BytesIO()
    central: list[bytes] = []
    for raw, f in records:
        name = _name(raw, f)
        if data[f[16] : f[16] + 4] != _MAGIC_LOCAL:
            raise CorruptDocumentError(f"the local header of {name!r} is damaged")
        new_offset = out.tell()
        if name in replace:
            record, central_record = _replaced(data, raw, f, replace[name], new_offset)
        else:
            record, central_record = data[f[16] : span_end[f[16]]], raw[:42] + struct.pack("<I", new_offset) + raw[46:]
        out.write(record)
        central.append(central_record)
    for name, payload in add:
        record, central_record = _added(name, payload, out.tell())
        out.write(record)
        central.append(central_record)
    cd_start = out.tell()
    for rec in central:
        out.write(rec)
    cd_size = out.tell() - cd_start
    n = len(central)
    out.write(_EOCD.pack(_SIG_EOCD, 0, 0, n, n, cd_size, cd_start, len(comment)) + comment)
    return out.getvalue()


def _fallback(data: bytes, replace: Mapping[str, bytes], add: Sequence[tuple[str, bytes]]) -> bytes:
    """The same rewrite through :mod:`zipfile`: members are re-compressed, bytes and order kept."""
    src = zipfile.ZipFile(io.BytesIO(data))
    _check_names(src.namelist(), replace)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as dst:
        dst.comment = src.comment
        for info in src.infolist():
            payload = replace[info.filename] if info.filename in replace else src.read(info.filename)
            new = zipfile.ZipInfo(info.filename, info.date_time)
            new.compress_type = info.compress_type
            new.external_attr = info.external_attr
            new.create_system = info.create_system
            new.comment = info.comment
            dst.writestr(new, payload)
        for name, payload in add:
            dst.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), payload, compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def rewrite_zip(data: bytes, replace: Mapping[str, bytes], add: Sequence[tuple[str, bytes]] = ()) -> bytes:
    """The package ``data`` with the members named in ``replace`` given new contents.

    ``add`` appends new members (name, bytes) after the existing ones. Every other member is
    copied byte for byte (local record with any data descriptor, central record), in order;
    the archive comment is kept.

    :raise CorruptDocumentError: the zip structure cannot be read, or a name in ``replace``
        is not a member.

    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    ...     z.writestr("a.xml", "<a/>"); z.writestr("b.xml", "<b/>")
    >>> new = rewrite_zip(buf.getvalue(), {"b.xml": b"<c/>"}, add=[("c.xml", b"<d/>")])
    >>> z = zipfile.ZipFile(io.BytesIO(new))
    >>> z.namelist(), z.read("b.xml")
    (['a.xml', 'b.xml', 'c.xml'], b'<c/>')
    """
    try:
        return _raw_rewrite(data, replace, add)
    except _Unsupported:
        pass
    except struct.error as exc:
        raise CorruptDocumentError(f"the zip package cannot be rewritten: {exc}") from None
    try:
        return _fallback(data, replace, add)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as exc:
        raise CorruptDocumentError(f"the zip package cannot be rewritten: {exc}") from None
