"""Imports point down: adapters never import the backend; graph code never touches XML."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
XML_LIBS = {"lxml", "docx", "odf", "xml"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def test_adapters_never_import_the_backend():
    offenders = [p for p in (ROOT / "adapters").rglob("*.py") if "addin_backend" in _imports(p)]
    assert offenders == []


def test_backend_outside_adapters_never_parses_xml():
    offenders = []
    for p in (ROOT / "addin_backend").rglob("*.py"):
        if _imports(p) & XML_LIBS:
            offenders.append(p)
    assert offenders == []


def test_namespace_uris_stay_in_the_adapters_xml_modules():
    allowed = {"oxml.py", "odfxml.py"}
    offenders = []
    for p in list((ROOT / "adapters").rglob("*.py")) + list((ROOT / "addin_backend").rglob("*.py")):
        if p.name in allowed:
            continue
        text = p.read_text(encoding="utf-8")
        if "schemas.openxmlformats.org/wordprocessingml" in text or "urn:oasis:names:tc:opendocument:xmlns" in text:
            offenders.append(p)
    assert offenders == []
