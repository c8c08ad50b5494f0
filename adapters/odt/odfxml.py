"""ODF namespaces and element helpers: the only module of the ODT adapter that spells a URI.

The URIs come from odfpy's ``odf.namespaces`` (the one way odfpy is used here: odfpy never
opens a package; every part is parsed by :meth:`adapters.package.Package.xml`). Other modules
name elements as ``qn("text:p")`` and precompute the Clark names they test in hot loops.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from lxml import etree
from odf import namespaces as _ns

__all__ = ["NSMAP", "qn", "prefixed", "name_of", "xpath", "attr", "MATHML", "XML_ID"]

#: prefix -> namespace URI, for every namespace odfpy knows (text, office, style, table, ...).
NSMAP: dict[str, str] = {prefix: uri for uri, prefix in _ns.nsdict.items()}
_PREFIX: dict[str, str] = {uri: prefix for prefix, uri in NSMAP.items()}

#: The MathML namespace of embedded formula objects (``Object 1/content.xml``).
MATHML = _ns.MATHNS


@lru_cache(maxsize=None)
def qn(name: str) -> str:
    """The Clark name of a prefixed name.

    >>> qn("text:p") == "{%s}p" % NSMAP["text"]
    True
    """
    prefix, _, local = name.partition(":")
    return f"{{{NSMAP[prefix]}}}{local}"


#: ``xml:id`` (lists that other lists continue name themselves with it).
XML_ID = qn("xml:id")


@lru_cache(maxsize=4096)
def prefixed(tag: Any) -> str:
    """A Clark name back as ``prefix:local`` for messages (``{...text:1.0}p`` -> ``text:p``).

    >>> prefixed(qn("table:table-row"))
    'table:table-row'
    """
    if not isinstance(tag, str):
        return "#comment"
    if not tag.startswith("{"):
        return tag
    uri, _, local = tag[1:].partition("}")
    return f"{_PREFIX.get(uri, uri)}:{local}"


def name_of(el: etree._Element) -> str:
    """An element's name for messages: ``text:p``, or a foreign element with its own prefix."""
    tag = el.tag
    if isinstance(tag, str) and tag.startswith("{"):
        uri = tag[1:].partition("}")[0]
        if uri not in _PREFIX and el.prefix:
            return f"{el.prefix}:{tag.partition('}')[2]}"
    return prefixed(tag)


def xpath(el: etree._Element, expr: str) -> list[Any]:
    """``el.xpath(expr)`` with the ODF prefixes bound (for cold paths only: anchors, tests)."""
    return el.xpath(expr, namespaces=NSMAP)


def attr(el: etree._Element, name: str, default: str | None = None) -> str | None:
    """An attribute by prefixed name: ``attr(h, "text:outline-level")``."""
    return el.get(qn(name), default)
