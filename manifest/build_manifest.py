"""Write the Word add-in manifest (manifest/manifest.xml) from its template for one public URL.

``python manifest/build_manifest.py [--url URL] [--out PATH]``; the URL defaults to
``LEDGER_PUBLIC_URL`` and then to https://localhost:8750. Every URL in the manifest (task pane,
icons, function file, app domain) derives from it, so a deployment sets one variable.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit
from xml.sax.saxutils import quoteattr

__all__ = ["DEFAULT_URL", "TEMPLATE", "public_url", "render_manifest", "project_version", "main"]

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "manifest.template.xml"
DEFAULT_URL = "https://localhost:8750"
_VERSION = re.compile(r'^version\s*=\s*"([0-9][0-9.]*)"', re.M)


def public_url(url: str) -> str:
    """The URL without a trailing slash; ``ValueError`` unless it is an absolute https URL.

    Office loads add-ins over HTTPS only (Word on the web refuses anything else).

    >>> public_url("https://ledger.example.org/")
    'https://ledger.example.org'
    >>> public_url("http://ledger.example.org")
    Traceback (most recent call last):
    ...
    ValueError: LEDGER_PUBLIC_URL must be an https:// URL with a host, not 'http://ledger.example.org'
    """
    parts = urlsplit(url.strip())
    if parts.scheme != "https" or not parts.hostname or parts.query or parts.fragment:
        raise ValueError(f"LEDGER_PUBLIC_URL must be an https:// URL with a host, not {url!r}")
    return url.strip().rstrip("/")


def project_version(pyproject: Path = HERE.parent / "pyproject.toml") -> str:
    """The project's version as the manifest spells it (four numbers: ``0.1.0`` -> ``0.1.0.0``)."""
    m = _VERSION.search(pyproject.read_text(encoding="utf-8"))
    parts = (m.group(1) if m else "0.1.0").split(".")[:4]
    return ".".join(parts + ["0"] * (4 - len(parts)))


def render_manifest(url: str, template: str | None = None, version: str | None = None) -> str:
    """The manifest text for ``url`` (checked by :func:`public_url`, XML-escaped)."""
    text = TEMPLATE.read_text(encoding="utf-8") if template is None else template
    # The URL sits in attributes and in element text; quoteattr escapes for both (minus the quotes).
    safe = quoteattr(public_url(url))[1:-1]
    return text.replace("${PUBLIC_URL}", safe).replace("${VERSION}", version or project_version())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--url", default=os.environ.get("LEDGER_PUBLIC_URL") or DEFAULT_URL)
    ap.add_argument("--out", default=str(HERE / "manifest.xml"))
    args = ap.parse_args(argv)
    try:
        text = render_manifest(args.url)
    except ValueError as exc:
        print(f"build_manifest: {exc}", file=sys.stderr)
        return 2
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out} for {public_url(args.url)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
