"""The ODT reader: package -> context -> parsed body -> neutral Document.

``read_package(pkg)`` runs the three stages of STYLE.md habit 4: the package was opened and
checked by :func:`adapters.package.open_package`; :func:`adapters.odt.context.load_context`
reads the side data once (styles, outline and list styles, the tracked-changes table, meta)
into one frozen :class:`~adapters.odt.context.OdtContext`; :func:`adapters.odt.parse.parse`
walks ``office:text`` into dataclasses that mirror ODF; :func:`adapters.odt.convert.to_units`
makes the units.
"""
from __future__ import annotations

from ..model import Document
from ..package import Package
from .context import OdtContext, load_context, open_changes
from .convert import to_units
from .parse import parse

__all__ = ["OdtContext", "load_context", "read_package", "open_changes"]


def read_package(pkg: Package) -> Document:
    """Read an opened ODT package into the neutral model.

    :raise AdapterError: (a subclass) for a package that cannot be read.
    """
    ctx = load_context(pkg)
    body = parse(ctx)
    return to_units(body, ctx)
