"""Draw the add-in's icons (16/32/64/80/128 px PNGs in static/assets/) with Pillow.

The PNGs are committed; run this only to change the design:
``python manifest/make_icons.py [--out static/assets]``.
"""
from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["SIZES", "draw_icon", "main"]

#: Sizes the manifest names (16/32/80 on the ribbon, 64 high-resolution, 128 for the .oxt).
SIZES = (16, 32, 64, 80, 128)

_BLUE = (15, 108, 189, 255)      # Fluent "communication blue"
_DARK = (17, 94, 163, 255)
_WHITE = (255, 255, 255, 255)
_PALE = (199, 224, 244, 255)


def draw_icon(size: int):
    """A blue rounded tile with a white ledger page: an 'L' and two ruled lines."""
    from PIL import Image, ImageDraw

    big = 512
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((16, 16, big - 16, big - 16), radius=104, fill=_BLUE)
    d.rounded_rectangle((16, 300, big - 16, big - 16), radius=104, fill=_DARK)
    d.rectangle((16, 300, big - 16, 380), fill=_BLUE)
    # The page.
    d.rounded_rectangle((120, 96, 392, 416), radius=28, fill=_WHITE)
    # The "L".
    d.rectangle((168, 140, 216, 360), fill=_BLUE)
    d.rectangle((168, 316, 300, 360), fill=_BLUE)
    # Ruled lines (the dependency links).
    d.rectangle((244, 150, 348, 172), fill=_PALE)
    d.rectangle((244, 206, 348, 228), fill=_PALE)
    d.rectangle((244, 262, 320, 284), fill=_PALE)
    return img.resize((size, size), Image.LANCZOS)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "static" / "assets"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        draw_icon(size).save(out / f"icon-{size}.png", optimize=True)
        print(out / f"icon-{size}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
