"""Rewrite a zip package with a few members replaced, copying every other member's bytes as they are.

Writers patch the original package: a member they did not change keeps its local header, its
compressed bytes and its central-directory record (only the offset is updated), in the same
order. Changed members keep their name, method, time stamp and extra field; added members go
at the end. Zip64 archives (never produced by word processors at our size limits) fall back to
re-compressing through :mod:`zipfile`, which still keeps every uncompressed byte and the order.
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import Mapping, Sequence

from .errors import CorruptDocumentError

__all__ = ["rewrite_zip"]

_LOCAL = struct.Struct("<IHHHHHIIIHH")  # sig ver flags method time date crc csize usize nlen xlen
_CENTRAL = struct.Struct("<IHHHHHHIIIHHHHHII")  # ... nlen xlen clen disk iattr eattr offset
_EOCD = struct.Struct("<IHHHHIIH")
_SIG_LOCAL, _SIG_CENTRAL, _SIG_EOCD = 0x04034B50, 0x02014B50, 0x06054B50
_DATA_DESCRIPTOR = 0x08
_UTF8 = 0x800


def _deflate(data: bytes) -> bytes:
    comp = zlib.compressobj(6, zlib.DEFLATED, -15)
    return comp.compress(data) + comp.flush()


def _find_eocd(data: bytes) -> int:
    start = max(0, len(data) - (_EOCD.size + 0xFFFF))
    pos = data.rfind(struct.pack("<I", _SIG_EOCD), start)
    if pos < 0:
        raise CorruptDocumentError("the zip package has no end-of-central-directory record")
    return pos


def _central_records(data: bytes, eocd: int) -> tuple[list[tuple[bytes, tuple]], int, bytes] | None:
    """The raw central-directory records (bytes, fields), the directory's offset and the comment."""
    _sig, disk, cd_disk, n_here, n_total, cd_size, cd_offset, clen = _EOCD.unpack_from(data, eocd)
    if 0xFFFF in (n_here, n_total) or 0xFFFFFFFF in (cd_size, cd_offset) or disk or cd_disk:
        return None  # zip64 or multi-disk: leave it to zipfile
    comment = data[eocd + _EOCD.size : eocd + _EOCD.size + clen]
    out = []
    pos = cd_offset
    for _ in range(n_total):
        fields = _CENTRAL.unpack_from(data, pos)
        if fields[0] != _SIG_CENTRAL:
            raise CorruptDocumentError("the zip central directory is damaged")
        size = _CENTRAL.size + fields[10] + fields[11] + fields[12]
        out.append((data[pos : pos + size], fields))
        pos += size
    return out, cd_offset, comment


def _name(raw: bytes, f: tuple) -> str:
    return raw[_CENTRAL.size : _CENTRAL.size + f[10]].decode("utf-8" if f[3] & _UTF8 else "cp437")


def _fallback(data: bytes, replace: Mapping[str, bytes], add: Sequence[tuple[str, bytes]]) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as out:
        for info in src.infolist():
            out.writestr(info, replace.get(info.filename, src.read(info.filename)), compress_type=info.compress_type)
        for name, payload in add:
            out.writestr(name, payload, compress_type=zipfile.ZIP_DEFLATED)
    return buf.getvalue()


def rewrite_zip(data: bytes, replace: Mapping[str, bytes], add: Sequence[tuple[str, bytes]] = ()) -> bytes:
    """The package ``data`` with the members named in ``replace`` given new contents.

    ``add`` appends new members (name, bytes). Every other member is copied byte for byte
    (local header, compressed data, central record); the archive comment is kept.

    :raise CorruptDocumentError: the zip structure cannot be read, or a name in ``replace``
        is not a member.

    >>> buf = io.BytesIO()
    >>> with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    ...     z.writestr("a.xml", "<a/>"); z.writestr("b.xml", "<b/>")
    >>> new = rewrite_zip(buf.getvalue(), {"b.xml": b"<c/>"})
    >>> zipfile.ZipFile(io.BytesIO(new)).read("b.xml")
    b'<c/>'
    """
    try:
        eocd = _find_eocd(data)
        parsed = _central_records(data, eocd)
    except struct.error as exc:
        raise CorruptDocumentError(f"the zip package cannot be rewritten: {exc}") from None
    if parsed is None:
        return _fallback(data, replace, add)
    records, cd_offset, comment = parsed
    names = {_name(raw, f) for raw, f in records}
    missing = [n for n in replace if n not in names]
    if missing:
        raise CorruptDocumentError(f"the package has no part {missing[0]!r}")
    offsets = sorted(f[16] for _raw, f in records) + [cd_offset]
    span_end = {off: offsets[i + 1] for i, off in enumerate(offsets[:-1])}

    out = io.BytesIO()
    central: list[bytes] = []
    for raw, f in records:
        name = _name(raw, f)
        new_offset = out.tell()
        if name not in replace:
            out.write(data[f[16] : span_end[f[16]]])
            central.append(raw[:42] + struct.pack("<I", new_offset) + raw[46:])
            continue
        payload = replace[name]
        local = _LOCAL.unpack_from(data, f[16])
        if local[0] != _SIG_LOCAL:
            raise CorruptDocumentError(f"the local header of {name!r} is damaged")
        method = 0 if f[4] == 0 else 8
        body = payload if method == 0 else _deflate(payload)
        crc = zlib.crc32(payload) & 0xFFFFFFFF
        flags = f[3] & ~_DATA_DESCRIPTOR
        lname_end = f[16] + _LOCAL.size + local[9]
        local_name, local_extra = data[f[16] + _LOCAL.size : lname_end], data[lname_end : lname_end + local[10]]
        out.write(
            _LOCAL.pack(_SIG_LOCAL, local[1], flags, method, local[4], local[5], crc, len(body), len(payload),
                        len(local_name), len(local_extra))
        )
        out.write(local_name + local_extra + body)
        head = _CENTRAL.pack(*f[:3], flags, method, f[5], f[6], crc, len(body), len(payload), *f[10:16], new_offset)
        central.append(head + raw[_CENTRAL.size :])
    for name, payload in add:
        name_bytes = name.encode("utf-8")
        body = _deflate(payload)
        crc = zlib.crc32(payload) & 0xFFFFFFFF
        new_offset = out.tell()
        time_, date_ = 0, (1 << 5) | 1  # 1980-01-01 00:00, deterministic
        out.write(_LOCAL.pack(_SIG_LOCAL, 20, 0, 8, time_, date_, crc, len(body), len(payload), len(name_bytes), 0))
        out.write(name_bytes + body)
        central.append(
            _CENTRAL.pack(_SIG_CENTRAL, 20, 20, 0, 8, time_, date_, crc, len(body), len(payload), len(name_bytes),
                          0, 0, 0, 0, 0, new_offset) + name_bytes
        )
    cd_start = out.tell()
    for rec in central:
        out.write(rec)
    cd_size = out.tell() - cd_start
    n = len(central)
    out.write(_EOCD.pack(_SIG_EOCD, 0, 0, n, n, cd_size, cd_start, len(comment)) + comment)
    return out.getvalue()
