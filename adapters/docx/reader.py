"""The DOCX reader: a bounded :class:`~adapters.package.Package` -> neutral :class:`Document`.

Three stages, as pandoc's reader: the package is opened by ``adapters.package`` (the only
reader of the zip), :func:`~adapters.docx.parse.parse` mirrors WordprocessingML in
dataclasses, and :func:`~adapters.docx.convert.to_units` makes units. Side parts are read
once into a frozen :class:`~adapters.docx.context.PackageContext`.
"""
from __future__ import annotations

from ..model import Document
from ..package import Package
from .context import load_context
from .convert import to_units
from .parse import parse

__all__ = ["read_package"]


def read_package(pkg: Package) -> Document:
    """Read an opened .docx package.

    :raise adapters.errors.AdapterError: a missing main part, unsafe or malformed XML in a
        part the document needs (the error names the part).
    """
    warnings: list[str] = []
    ctx = load_context(pkg, warnings)
    body = parse(ctx, warnings)
    return to_units(body)
