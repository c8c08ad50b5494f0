"""The parts LEDGER writes back, mutated: ``docProps/custom.xml`` (the review record), the content
types, the relationships, settings, comments and their side parts, core properties; in an .odt
``meta.xml``, the manifest and the styles. Shared by the suite's short deterministic run
(``test_writeback.py``) and atheris's ``writeback`` target (``python -m tests.fuzz.run --targets
writeback --seconds N``).

The pipeline is an apply's: read the upload, write one tracked insertion, embed the review record
(``set_property``), read the record and the written file back. Every outcome must be a result or
an :class:`~adapters.errors.AdapterError` (a clear 4xx); any other exception is a defect (a 500).
"""
from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

from lxml import etree

#: The parts a writer reads and writes back, by format, in the order they are tried.
DOCX_PARTS = ("docProps/custom.xml", "[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels",
              "word/settings.xml", "word/comments.xml", "word/people.xml", "word/commentsExtended.xml",
              "word/commentsIds.xml", "docProps/core.xml")
ODT_PARTS = ("meta.xml", "META-INF/manifest.xml", "styles.xml", "settings.xml")

#: Values a producer (or an attacker) may put where a number, an id or a name belongs.
NASTY = ("\u00b2", "\u2460", "\u0663", "\uff17", "\U0001d7d8", "-1", "0", "", " 7 ", "7.5", "1e9", "0x1F",
         "9" * 30, "2147483648", "NaN", "\u202e", "x" * 5000, "LEDGER operations", "{D5CDD505}", "rId1",
         "../../etc/passwd", "/word/document.xml", "%00", "&amp;", "\t", "true")


def seeds(corpus: Path | None = None) -> list[tuple[str, bytes]]:
    """Real documents to mutate: Word's ``comments.docx`` (comments, people, settings, core
    properties) with a review record already in ``docProps/custom.xml``, and LibreOffice's
    ``dormeur.odt`` with one in ``meta.xml``: the write-back parts as LEDGER meets them."""
    from adapters.properties import set_property
    from addin_backend.verify.record import RECORD

    from .seeds import CORPUS

    root = corpus or CORPUS
    out = []
    for name in ("comments.docx", "dormeur.odt"):
        hits = sorted(root.rglob(name)) if root.is_dir() else []
        if hits:
            out.append((name, set_property(hits[0].read_bytes(), RECORD, '{"version":1,"operations":[]}')))
    return out


def members(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    zf = zipfile.ZipFile(io.BytesIO(data))
    return [(i, zf.read(i)) for i in zf.infolist()]


def repack(items: list[tuple[zipfile.ZipInfo, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for info, body in items:
            out.writestr(info.filename, body, compress_type=info.compress_type)
    return buf.getvalue()


def _mutate_tree(body: bytes, rng: random.Random) -> bytes:
    """One structural change to the part: an attribute or text set to a nasty value, an element
    dropped, doubled, moved to the root, renamed or stripped of its attributes."""
    try:
        root = etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    except etree.XMLSyntaxError:
        return body
    els = [e for e in root.iter() if isinstance(e.tag, str)]
    el = rng.choice(els)
    how = rng.randrange(7)
    if how == 0 and el.attrib:
        el.set(rng.choice(list(el.attrib)), rng.choice(NASTY))
    elif how == 1:
        el.text = rng.choice(NASTY)
    elif how == 2 and el is not root:
        el.getparent().remove(el)
    elif how == 3 and el is not root:
        el.addnext(etree.fromstring(etree.tostring(el)))
    elif how == 4 and el is not root:
        el.getparent().remove(el)
        root.append(el)
    elif how == 5:
        qname = etree.QName(el)
        el.tag = etree.QName(qname.namespace, rng.choice(("property", "Relationship", "Override", "x", "p")))
    else:
        el.attrib.clear()
    return etree.tostring(root, xml_declaration=True, encoding=rng.choice(("UTF-8", "UTF-16")))


def _mutate_bytes(body: bytes, rng: random.Random) -> bytes:
    """A byte-level change: one byte replaced, a slice dropped or doubled, the part cut short."""
    if not body:
        return b"<"
    at = rng.randrange(len(body))
    how = rng.randrange(4)
    if how == 0:
        return body[:at] + bytes([rng.randrange(256)]) + body[at + 1:]
    if how == 1:
        return body[:at] + body[at + rng.randrange(1, 64):]
    if how == 2:
        end = min(len(body), at + rng.randrange(1, 256))
        return body[:end] + body[at:end] + body[end:]
    return body[:at]


def mutate(name: str, data: bytes, rng: random.Random) -> bytes:
    """``data`` with one to three of its write-back parts changed (structurally, mostly)."""
    parts = DOCX_PARTS if name.endswith(".docx") else ODT_PARTS
    items = members(data)
    names = [i.filename for i, _b in items]
    for _ in range(rng.randint(1, 3)):
        k = names.index(rng.choice([p for p in parts if p in names]))
        info, body = items[k]
        for _ in range(rng.randint(1, 3)):
            body = _mutate_tree(body, rng) if rng.random() < 0.8 else _mutate_bytes(body, rng)
        items[k] = (info, body)
    return repack(items)


def write_back(data: bytes) -> str:
    """An apply's use of the package; returns ``"written"`` or the clear error's code.

    :raise Exception: anything but an :class:`~adapters.errors.AdapterError` (a defect).
    """
    from adapters import read, write
    from adapters.errors import AdapterError
    from adapters.model import Replace
    from adapters.properties import get_property, set_property
    from addin_backend.verify.record import RECORD

    try:
        doc = read(data)
        unit = next((u for u in doc.units if u.text.strip() and u.anchor is not None), None)
        out = data
        if unit is not None:
            out = write(data, [Replace(unit.id, text="New words. ", start=0, end=0, author="Fuzz",
                                       date="2026-01-01T00:00:00Z")], document=doc)
        out = set_property(out, RECORD, '{"version":1,"operations":[]}')
        assert get_property(out, RECORD) == '{"version":1,"operations":[]}'
        read(out)
    except AdapterError as exc:
        return exc.code
    return "written"
