"""Embedded objects of an ODT package: formulas (MathML parts) as linear text.

A formula is a ``draw:object`` whose ``xlink:href`` names a folder (``./Object 1``) holding a
MathML ``content.xml``. LibreOffice keeps the StarMath source as an ``annotation``; when it is
absent the MathML is written out linearly (``c^2``, ``(a)/(b)``, ``sqrt(x)``).
"""
from __future__ import annotations

from lxml import etree

from ..errors import AdapterError
from ..package import Package
from .odfxml import MATHML, qn

__all__ = ["object_kind", "formula_text", "mathml_text"]

_M = "{" + MATHML + "}"
_OFFICE_CHART = qn("office:chart")
_OFFICE_BODY = qn("office:body")


def _part(pkg: Package, folder: str) -> etree._Element | None:
    name = folder.rstrip("/") + "/content.xml"
    if not pkg.has(name):
        return None
    return pkg.xml(name)


def object_kind(pkg: Package, folder: str) -> str:
    """``formula``, ``chart``, ``object`` (something else) or ``missing``.

    :raise MalformedXmlError: the object's content.xml is not well-formed.
    """
    root = _part(pkg, folder)
    if root is None:
        return "missing"
    if root.tag.startswith(_M):
        return "formula"
    body = root.find(_OFFICE_BODY)
    if body is not None:
        for child in body:
            if child.tag == _OFFICE_CHART:
                return "chart"
            if child.tag == qn("office:formula"):
                return "formula"
    math = root.find(f".//{_M}math")
    return "formula" if math is not None else "object"


def formula_text(pkg: Package, folder: str) -> str:
    """The linear text of an embedded formula: its StarMath annotation, else its MathML."""
    try:
        root = _part(pkg, folder)
    except AdapterError:
        raise
    if root is None:
        return ""
    math = root if root.tag == f"{_M}math" else root.find(f".//{_M}math")
    if math is None:
        return ""
    for ann in math.iter(f"{_M}annotation"):
        enc = (ann.get("encoding") or "").lower()
        if "starmath" in enc and (ann.text or "").strip():
            return " ".join(ann.text.split())
    return mathml_text(math)


def _join(parts: list[str]) -> str:
    return " ".join(p for p in parts if p)


def mathml_text(el: etree._Element) -> str:
    """A linear rendering of presentation MathML.

    >>> from lxml import etree
    >>> m = etree.fromstring('<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>E</mi>'
    ...     '<mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></math>')
    >>> mathml_text(m)
    'E = m c^2'
    """
    tag = el.tag if isinstance(el.tag, str) else ""
    local = tag[len(_M):] if tag.startswith(_M) else tag
    kids = [c for c in el if isinstance(c.tag, str) and c.tag != f"{_M}annotation"
            and c.tag != f"{_M}annotation-xml"]
    if local in ("mi", "mn", "mo", "mtext", "ms"):
        return " ".join((el.text or "").split())
    if local in ("msup", "msub") and len(kids) == 2:
        op = "^" if local == "msup" else "_"
        return f"{_wrap(kids[0])}{op}{_wrap(kids[1])}"
    if local == "msubsup" and len(kids) == 3:
        return f"{_wrap(kids[0])}_{_wrap(kids[1])}^{_wrap(kids[2])}"
    if local == "mfrac" and len(kids) == 2:
        return f"({mathml_text(kids[0])})/({mathml_text(kids[1])})"
    if local == "msqrt":
        return f"sqrt({_join([mathml_text(k) for k in kids])})"
    if local == "mroot" and len(kids) == 2:
        return f"root({mathml_text(kids[1])})({mathml_text(kids[0])})"
    if local == "mfenced":
        return "(" + ", ".join(mathml_text(k) for k in kids) + ")"
    return _join([mathml_text(k) for k in kids])


def _wrap(el: etree._Element) -> str:
    s = mathml_text(el)
    return s if len(s) <= 1 or s.isalnum() else f"{{{s}}}"
