"""Helpers of the client tests: planned-route gate, node/Playwright and document choices."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import requests

__all__ = ["JS_DIR", "ROOT", "docx_readable", "has_route", "require_node", "require_route"]

ROOT = Path(__file__).resolve().parents[2]
JS_DIR = ROOT / "tests" / "js"


def _key(method: str, path: str) -> str:
    return f"{method.upper()} {re.sub(r'{[^}]*}', '{}', path)}"


def has_route(base_url: str, method: str, path: str, verify: str | bool = True) -> bool:
    """Whether the running backend lists ``method path`` in /api/v1/openapi.json (path
    parameter names do not matter: ``{id}`` equals ``{document_id}``)."""
    spec = requests.get(f"{base_url}/api/v1/openapi.json", verify=verify, timeout=10).json()
    offered = {_key(m, p) for p, ops in spec.get("paths", {}).items() for m in ops}
    return _key(method, path) in offered


def require_route(server, method: str, path: str) -> None:
    """Fail when the backend does not offer a route of ROUTES.md that the client relies on."""
    if not has_route(server.url, method, path, server.verify):
        pytest.fail(f"the backend does not offer {method} {path} (not in /api/v1/openapi.json)")


def require_node() -> None:
    """Skip where the JavaScript side cannot run (`make test` installs node, its packages and chromium)."""
    if not shutil.which("node"):
        pytest.skip("node is not installed (make system-deps installs nodejs)")
    if not (JS_DIR / "node_modules" / "playwright-core").is_dir():
        pytest.skip("tests/js/node_modules is missing: run `make node-deps`")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("chromium is not installed (make system-deps installs it)")


def docx_readable() -> bool:
    """Whether this checkout has the DOCX reader (adapters/docx), i.e. the backend reads .docx."""
    return (ROOT / "adapters" / "docx" / "reader.py").exists()
