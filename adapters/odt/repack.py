"""Write a zip package again with some members replaced and every other member copied raw.

A writer patches the original package (STYLE.md habit 7): members it does not change keep
their exact compressed bytes, local header, data descriptor and central-directory record
(only the offset is updated), in the original order; ``mimetype`` therefore stays first and
STORED. A replaced member keeps its name, method, time stamp and attributes. Archives this
copier does not handle (ZIP64, multi-disk) are rebuilt with :mod:`zipfile` instead, which
still keeps every member's uncompressed bytes, order and compression method. Nothing here
knows ODF or OOXML.
"""
from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import Mapping

from ..errors import CorruptDocumentError

__all__ = ["repack"]

_EOCD = b"PK\x05\x06"
_CEN = b"PK\x01\x02"
_LOC = b"PK\x03\x04"
_DESC = b"PK\x07\x08"
_CEN_FMT = "<4sHHHHHHIIIHHHHHII"  # 46 bytes
_LOC_FMT = "<4sHHHHHIIIHH"  # 30 bytes


class _Unsupported(Exception):
    pass


def _eocd(data: bytes) -> tuple[int, int, int, bytes]:
    """(entries, central directory size, offset, comment) of the end record."""
    at = data.rfind(_EOCD, max(0, len(data) - 65557))
    if at < 0:
        raise _Unsupported("no end of central directory")
    (_, disk, cd_disk, n_disk, n, size, offset, clen) = struct.unpack("<4sHHHHIIH", data[at : at + 22])
    if disk or cd_disk or n_disk != n or n == 0xFFFF or offset == 0xFFFFFFFF or size == 0xFFFFFFFF:
        raise _Unsupported("multi-disk or ZIP64 archive")
    return n, size, offset, data[at + 22 : at + 22 + clen]


def _deflate(raw: bytes) -> bytes:
    comp = zlib.compressobj(6, zlib.DEFLATED, -15)
    return comp.compress(raw) + comp.flush()


def _raw_repack(data: bytes, replace: Mapping[str, bytes]) -> bytes:
    n, size, offset, comment = _eocd(data)
    out = io.BytesIO()
    central = io.BytesIO()
    pos = offset
    seen: set[str] = set()
    for _ in range(n):
        fields = list(struct.unpack(_CEN_FMT, data[pos : pos + 46]))
        if fields[0] != _CEN:
            raise _Unsupported("bad central directory record")
        (_, made_by, need, flags, method, mtime, mdate, crc, csize, usize, nlen, xlen, clen,
         disk, iattr, eattr, loc) = fields
        name_raw = data[pos + 46 : pos + 46 + nlen]
        rec_end = pos + 46 + nlen + xlen + clen
        record = data[pos:rec_end]
        pos = rec_end
        name = name_raw.decode("utf-8" if flags & 0x800 else "cp437")
        seen.add(name)
        lhead = struct.unpack(_LOC_FMT, data[loc : loc + 30])
        if lhead[0] != _LOC:
            raise _Unsupported(f"bad local header for {name}")
        data_start = loc + 30 + lhead[9] + lhead[10]
        new_offset = out.tell()
        if name in replace:
            raw = replace[name]
            body = raw if method == 0 else _deflate(raw)
            if method not in (0, 8):
                raise _Unsupported(f"compression method {method}")
            new_crc = zlib.crc32(raw) & 0xFFFFFFFF
            new_flags = flags & ~0x8 & ~0x1
            out.write(struct.pack(_LOC_FMT, _LOC, max(need, 20) if method == 8 else need, new_flags, method,
                                  mtime, mdate, new_crc, len(body), len(raw), nlen, 0))
            out.write(name_raw)
            out.write(body)
            central.write(struct.pack(_CEN_FMT, _CEN, made_by, max(need, 20) if method == 8 else need, new_flags,
                                      method, mtime, mdate, new_crc, len(body), len(raw), nlen, 0, clen, disk,
                                      iattr, eattr, new_offset))
            central.write(name_raw)
            central.write(record[46 + nlen + xlen :])
            continue
        end = data_start + csize
        if flags & 0x8:  # a data descriptor follows the data: optional signature, crc, sizes
            end += 16 if data[end : end + 4] == _DESC else 12
        out.write(data[loc:end])
        central.write(record[:42] + struct.pack("<I", new_offset) + record[46:])
    missing = set(replace) - seen
    if missing:
        raise CorruptDocumentError(f"the package has no part {sorted(missing)[0]!r} to replace")
    cd_offset = out.tell()
    cd = central.getvalue()
    out.write(cd)
    out.write(struct.pack("<4sHHHHIIH", _EOCD, 0, 0, n, n, len(cd), cd_offset, len(comment)))
    out.write(comment)
    return out.getvalue()


def _zipfile_repack(data: bytes, replace: Mapping[str, bytes]) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as dst:
        for info in src.infolist():
            raw = replace[info.filename] if info.filename in replace else src.read(info.filename)
            new = zipfile.ZipInfo(info.filename, info.date_time)
            new.compress_type = info.compress_type
            new.external_attr = info.external_attr
            new.create_system = info.create_system
            new.comment = info.comment
            dst.writestr(new, raw)
    return buf.getvalue()


def repack(data: bytes, replace: Mapping[str, bytes]) -> bytes:
    """The package ``data`` with the members named in ``replace`` given new contents.

    :raise CorruptDocumentError: a member to replace is not in the package.
    """
    try:
        return _raw_repack(data, replace)
    except (_Unsupported, struct.error):
        return _zipfile_repack(data, replace)
