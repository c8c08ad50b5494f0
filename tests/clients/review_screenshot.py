"""What a reviewer sees in LibreOffice, as a PNG: the pages as LibreOffice renders them, with the
comments beside their anchors.

``soffice --headless --convert-to pdf`` (with ``ExportNotes``) renders the pages, tracked changes
shown as LibreOffice shows them, and writes each comment as a PDF text annotation at its anchor;
``pdftoppm`` turns the pages into PNG. Debian's no-GUI LibreOffice cannot draw its comment
margin, so the balloons are drawn here from those annotations (author, text, the anchor's
place), in a margin to the right of the page, as the sidebar would show them.

Usage: python -m tests.clients.review_screenshot DOC OUT.png [--dpi 80] [--crop]
"""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Note", "pdf_notes", "render"]

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
MARGIN = 340


@dataclass
class Note:
    """One comment as the PDF holds it: its page (0-based), anchor point (PDF points) and text."""

    page: int
    x: float
    y: float
    text: str
    author: str = ""


def _pdf_string(raw: bytes) -> str:
    raw = raw.strip()
    if raw.startswith(b"<"):
        data = bytes.fromhex(raw[1:-1].decode("ascii"))
        return data[2:].decode("utf-16-be") if data.startswith(b"\xfe\xff") else data.decode("latin-1")
    inner = raw[1:-1]
    inner = re.sub(rb"\\([()\\])", rb"\1", inner)
    if inner.startswith(b"\xfe\xff"):
        return inner[2:].decode("utf-16-be", "replace")
    return inner.decode("latin-1")


_STRING = rb"(<[0-9A-Fa-f]*>|\((?:\\.|[^\\)])*\))"


def pdf_notes(pdf: bytes) -> list[Note]:
    """The text annotations (comments) of a PDF that LibreOffice wrote, page by page."""
    annots: dict[str, Note] = {}
    for m in re.finditer(rb"(\d+) 0 obj\s*<</Type\s*/Annot\s*/Subtype\s*/Text(.*?)endobj", pdf, re.S):
        body = m.group(2)
        rect = re.search(rb"/Rect\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)", body)
        text = re.search(rb"/Contents\s*" + _STRING, body, re.S)
        author = re.search(rb"/T\s*" + _STRING, body, re.S)
        if rect and text:
            x0, y0, _x1, y1 = (float(v) for v in rect.groups())
            annots[m.group(1).decode()] = Note(-1, x0, max(y0, y1), _pdf_string(text.group(1)),
                                               _pdf_string(author.group(1)) if author else "")
    pages = [p for p in re.finditer(rb"<</Type\s*/Page\b(?!s)(.*?)>>\s*endobj", pdf, re.S)]
    out: list[Note] = []
    for i, p in enumerate(pages):
        refs = re.search(rb"/Annots\s*\[([^\]]*)\]", p.group(1))
        for ref in re.findall(rb"(\d+) 0 R", refs.group(1) if refs else b""):
            note = annots.get(ref.decode())
            if note is not None:
                note.page = i
                out.append(note)
    return out


def _pdf(doc: Path, work: Path) -> Path:
    profile = work / "profile"
    out = work / "pdf"
    flt = 'pdf:writer_pdf_Export:{"ExportNotes":{"type":"boolean","value":"true"}}'
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", flt,
                    "--outdir", str(out), str(doc)], check=True, capture_output=True, timeout=180,
                   env={"PATH": "/usr/bin:/bin", "HOME": str(profile), "LANG": "C.UTF-8"})
    return out / (doc.stem + ".pdf")


def render(doc: Path, out_png: Path, *, dpi: int = 80, pages: int = 1, crop: bool = True,
           title: str | None = None) -> list[Note]:
    """``out_png``: the first ``pages`` pages of ``doc`` with their comments beside them."""
    from PIL import Image, ImageDraw, ImageFont

    with tempfile.TemporaryDirectory(prefix="ledger-shot-") as tmp:
        work = Path(tmp)
        pdf = _pdf(doc.resolve(), work)
        notes = pdf_notes(pdf.read_bytes())
        subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-l", str(pages), str(pdf), str(work / "page")],
                       check=True, capture_output=True, timeout=120)
        images = [Image.open(p).convert("RGB") for p in sorted(work.glob("page-*.png"))][:pages]
    scale = dpi / 72.0
    font = ImageFont.truetype(FONT, 12)
    small = ImageFont.truetype(BOLD, 11)
    head = ImageFont.truetype(BOLD, 13)
    sheets = []
    for i, page in enumerate(images):
        w, h = page.size
        sheet = Image.new("RGB", (w + MARGIN, h), "white")
        sheet.paste(page, (0, 0))
        draw = ImageDraw.Draw(sheet)
        draw.rectangle([w, 0, w + MARGIN, h], fill="#f3f3f3")
        bottom = 0
        last = 10
        for n in sorted((n for n in notes if n.page == i), key=lambda n: (-n.y, n.x)):
            ax, ay = n.x * scale, h - n.y * scale
            lines = textwrap.wrap(n.text, 44) or [""]
            box_h = 22 + 16 * len(lines)
            top = max(ay - 8, last + 8)
            left = w + 12
            draw.line([ax, ay + 12, left, top + 10], fill="#e0a000", width=1)
            draw.rectangle([ax - 2, ay - 2, ax + 2, ay + 14], outline="#e0a000")
            draw.rounded_rectangle([left, top, w + MARGIN - 10, top + box_h], radius=6, fill="#fff8d6",
                                   outline="#e0a000")
            draw.text((left + 8, top + 4), n.author or "Comment", font=small, fill="#6b4e00")
            for k, line in enumerate(lines):
                draw.text((left + 8, top + 20 + 16 * k), line, font=font, fill="#222222")
            last = top + box_h
            bottom = max(bottom, last)
        if crop:
            gray = page.convert("L").point(lambda v: 255 if v < 250 else 0)
            box = gray.getbbox()
            keep = max((box[3] if box else h) + 24, bottom + 16)
            sheet = sheet.crop((0, 0, w + MARGIN, min(h, int(keep))))
        sheets.append(sheet)
    total_h = sum(s.size[1] for s in sheets) + (28 if title else 0)
    canvas = Image.new("RGB", (max(s.size[0] for s in sheets), total_h), "white")
    y = 0
    if title:
        ImageDraw.Draw(canvas).text((10, 6), title, font=head, fill="#222222")
        y = 28
    for s in sheets:
        canvas.paste(s, (0, y))
        y += s.size[1]
    out_png.parent.mkdir(parents=True, exist_ok=True)
    canvas.save(out_png)
    return notes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("doc", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--dpi", type=int, default=80)
    ap.add_argument("--pages", type=int, default=1)
    ap.add_argument("--title")
    args = ap.parse_args(argv)
    if not shutil.which("soffice") or not shutil.which("pdftoppm"):
        raise SystemExit("needs soffice and pdftoppm (poppler-utils)")
    notes = render(args.doc, args.out, dpi=args.dpi, pages=args.pages, title=args.title)
    print(f"{args.out}: {len(notes)} comment(s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
