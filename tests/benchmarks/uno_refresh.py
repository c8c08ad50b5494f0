"""Run under Debian's python3 (UNO): paragraphs of documents after LibreOffice refreshes every field.

Usage: python3 uno_refresh.py PROFILE_DIR FILE...   (one JSON object per file on stdout)

Reuses ``tests/uno_probe.py``. Refreshing makes LibreOffice recompute caption numbers and
cross-references from their bookmarks and sequence names, so the texts it reports prove that
every reference field resolves to the unit the generator meant (not just the cached result).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import uno_probe  # noqa: E402


def main(argv: list[str]) -> None:
    proc, _ctx, desktop = uno_probe.start_office(argv[1])
    try:
        for path in argv[2:]:
            result: dict = {"file": path}
            try:
                doc = uno_probe.load(desktop, path)
                result["cached"] = uno_probe.paragraphs(doc)
                doc.getTextFields().refresh()
                result["refreshed"] = [p["text"] for p in uno_probe.paragraphs(doc)]
                doc.close(True)
            except Exception as exc:  # report and go on
                result["error"] = f"{type(exc).__name__}: {exc}"
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
    finally:
        uno_probe.stop_office(proc, desktop)


if __name__ == "__main__":
    main(sys.argv)
