"""A tiny deterministic PNG encoder for the benchmark's figure images (no imaging library)."""
from __future__ import annotations

import random
import struct
import zlib

__all__ = ["bar_chart_png"]


def _chunk(tag: bytes, data: bytes) -> bytes:
    body = tag + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def bar_chart_png(seed: int, width: int = 96, height: int = 64) -> bytes:
    """A small RGB PNG of a bar chart whose bar heights derive from ``seed``.

    Same seed, same bytes: the generated packages are reproducible byte-for-byte.

    >>> bar_chart_png(3)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    >>> bar_chart_png(3) == bar_chart_png(3) != bar_chart_png(4)
    True
    """
    rng = random.Random(seed)
    bars = [rng.randint(height // 5, height - 6) for _ in range(6)]
    colour = (rng.randint(30, 120), rng.randint(80, 160), rng.randint(150, 230))
    bar_w = (width - 8) // len(bars)
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")  # filter type 0 per scanline
        for x in range(width):
            i = (x - 4) // bar_w
            inside = 0 <= i < len(bars) and (x - 4) % bar_w < bar_w - 3 and height - 3 - y < bars[i]
            axis = x == 3 or y == height - 3
            row += bytes(colour) if inside else (b"\x40\x40\x40" if axis else b"\xff\xff\xff")
        rows.append(bytes(row))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"".join(
        [b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"IDAT", zlib.compress(b"".join(rows), 9)), _chunk(b"IEND", b"")]
    )
