"""Build the LibreOffice extension (static/ledger.oxt) from manifest/libreoffice/.

``python manifest/build_oxt.py [--out static/ledger.oxt]``. The .oxt is a zip of the sources
(META-INF/manifest.xml first) with the project version in description.xml and the add-in's
icon; the backend serves it from /static/ledger.oxt for download.
"""
from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from build_manifest import project_version  # noqa: E402

__all__ = ["SOURCES", "REQUIRED", "build_oxt", "main"]

SOURCES = HERE / "libreoffice"
ICON = HERE.parent / "static" / "assets" / "icon-64.png"
#: Entries every build must hold (checked before the zip is written).
REQUIRED = ("META-INF/manifest.xml", "description.xml", "Addons.xcu", "ledger.components", "ledger_bridge.py",
            "pythonpath/ledger_client.py", "pythonpath/ledger_compare.py", "pythonpath/ledger_doc.py",
            "pythonpath/ledger_mirror.py", "pythonpath/ledger_panel.py", "pythonpath/ledger_portions.py",
            "pythonpath/ledger_read_pages.py", "pythonpath/ledger_toolkit.py", "pythonpath/ledger_views.py",
            "pythonpath/ledger_write_pages.py", "pythonpath/ledger_writer.py")
# A fixed timestamp keeps the build reproducible.
_STAMP = (2026, 1, 1, 0, 0, 0)


def _entries(src: Path) -> list[tuple[str, bytes]]:
    out = []
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src).as_posix()
        if path.is_dir() or "__pycache__" in rel or rel.endswith((".pyc", "~")):
            continue
        data = path.read_bytes()
        if rel == "description.xml":
            data = data.replace(b"${VERSION}", project_version().rsplit(".0", 1)[0].encode())
        out.append((rel, data))
    return out


def build_oxt(out: Path, src: Path = SOURCES) -> list[str]:
    """Write the extension to ``out``; returns its entry names. ``ValueError`` when a required
    source is missing."""
    entries = _entries(src)
    if ICON.exists():
        entries.append(("icons/ledger.png", ICON.read_bytes()))
    names = [n for n, _ in entries]
    missing = [r for r in REQUIRED if r not in names]
    if missing:
        raise ValueError(f"the extension sources lack {', '.join(missing)}")
    entries.sort(key=lambda e: (e[0] != "META-INF/manifest.xml", e[0]))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, _STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    tmp.replace(out)
    return [n for n, _ in entries]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", default=str(HERE.parent / "static" / "ledger.oxt"))
    args = ap.parse_args(argv)
    names = build_oxt(Path(args.out))
    print(f"wrote {args.out} ({len(names)} entries)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
