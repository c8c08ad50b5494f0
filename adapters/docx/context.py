"""The side parts of a .docx (styles, numbering, notes, comments, rels, settings), read once.

:func:`load_context` follows the main part's relationships (never fixed paths: the main part
need not be ``word/document.xml``) and returns one frozen :class:`PackageContext` that every
later stage reads and none changes.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Mapping

from ..errors import CorruptDocumentError, MalformedXmlError
from ..package import Package
from .numbering import EMPTY_NUMBERING, Numbering, parse_numbering
from .oxml import load_part, qn, to_transitional, w_attr
from .styles import EMPTY_STYLES, StyleSheet, parse_font_table, parse_styles

__all__ = ["Rel", "NoteFormat", "Margin", "PackageContext", "load_context", "rels_part_name", "read_rels"]

_REL = qn("rel:Relationship")
_VAL = w_attr("val")


@dataclass(frozen=True)
class Rel:
    """One relationship of the main part: its type's last word (``styles``, ``hyperlink``...)."""

    rid: str
    type: str
    target: str
    external: bool


@dataclass(frozen=True)
class NoteFormat:
    """How notes are numbered (``w:footnotePr``/``w:endnotePr``): format and first number."""

    num_fmt: str
    start: int = 1


@dataclass(frozen=True)
class Margin:
    """A header or footer part and the pages it styles (``w:headerReference``/``w:footerReference``
    of the sections' ``w:sectPr``: ``default``, ``first``, ``even``)."""

    kind: str  # "header" | "footer"
    part: str
    types: tuple[str, ...]


@dataclass(frozen=True)
class PackageContext:
    """Everything the body walk needs besides the main part itself."""

    main_part: str
    #: Relationships by part: the main part's and those of the notes and comments parts.
    rels: Mapping[str, Mapping[str, Rel]]
    styles: StyleSheet
    numbering: Numbering
    #: Parsed parts by name (lxml elements).
    parts: Mapping[str, Any]
    footnotes_part: str | None = None
    endnotes_part: str | None = None
    comments_part: str | None = None
    footnote_format: NoteFormat = NoteFormat("decimal")
    endnote_format: NoteFormat = NoteFormat("lowerRoman")
    #: Rendered note marks by ("footnote"|"endnote", w:id), in citation order of the main part.
    note_marks: Mapping[tuple[str, str], str] = field(default_factory=dict)
    strict: bool = False
    #: ``w:themeFontLang/@w:val`` of the settings: the editing language the file was made in.
    theme_lang: str | None = None
    #: The header and footer parts the sections name, in order of first mention.
    margins: tuple[Margin, ...] = ()

    def root(self, part: str):
        """A parsed part (transitional vocabulary) held by the context."""
        return self.parts[part]

    def hyperlink_target(self, rid: str | None, part: str | None = None) -> str | None:
        """The target of a relationship id of ``part`` (the main part by default)."""
        rels = self.rels.get(part or self.main_part, {})
        rel = rels.get(rid or "")
        return rel.target if rel is not None else None


def rels_part_name(part: str) -> str:
    """``word/document.xml`` -> ``word/_rels/document.xml.rels``."""
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def read_rels(pkg: Package, part: str) -> dict[str, Rel]:
    """The relationships of ``part`` (empty when it has none)."""
    name = rels_part_name(part)
    if not pkg.has(name):
        return {}
    root = pkg.xml(name)
    folder = posixpath.dirname(part)
    out: dict[str, Rel] = {}
    for rel in root.iter(_REL):
        rid = rel.get("Id")
        if not rid:
            continue
        rtype = (rel.get("Type") or "").rstrip("/").rpartition("/")[2]
        target = rel.get("Target") or ""
        external = (rel.get("TargetMode") or "") == "External"
        if not external:
            target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        out[rid] = Rel(rid, rtype, target, external)
    return out


def _note_format(settings, tag: str, default: NoteFormat) -> NoteFormat:
    if settings is None:
        return default
    pr = settings.find(qn(tag))
    if pr is None:
        return default
    fmt_el = pr.find(qn("w:numFmt"))
    start_el = pr.find(qn("w:numStart"))
    fmt = fmt_el.get(_VAL) if fmt_el is not None else default.num_fmt
    try:
        start = int(start_el.get(_VAL)) if start_el is not None else default.start
    except (TypeError, ValueError):
        start = default.start
    return NoteFormat(fmt or default.num_fmt, start)


def _body_note_format(main, tag: str, base: NoteFormat) -> NoteFormat:
    """The body's final ``w:sectPr`` may override the settings' note format."""
    body = main.find(qn("w:body"))
    sect = body.find(qn("w:sectPr")) if body is not None else None
    return _note_format(sect, tag, base) if sect is not None else base


def _note_marks(main, foot: NoteFormat, end: NoteFormat) -> dict[tuple[str, str], str]:
    from .numbering import format_number

    marks: dict[tuple[str, str], str] = {}
    counters = {"footnote": foot.start, "endnote": end.start}
    fmts = {"footnote": foot.num_fmt, "endnote": end.num_fmt}
    ftag, etag = qn("w:footnoteReference"), qn("w:endnoteReference")
    custom = w_attr("customMarkFollows")
    wid = w_attr("id")
    for ref in main.iter(ftag, etag):
        kind = "footnote" if ref.tag == ftag else "endnote"
        nid = ref.get(wid)
        if nid is None or (kind, nid) in marks:
            continue
        if ref.get(custom) in ("1", "true", "on"):
            marks[(kind, nid)] = ""
            continue
        marks[(kind, nid)] = format_number(counters[kind], fmts[kind])
        counters[kind] += 1
    return marks


def load_context(pkg: Package, warnings: list[str]) -> PackageContext:
    """Read the main part and its side parts once.

    :raise CorruptDocumentError: the package names no main document part.
    :raise MalformedXmlError, UnsafeXmlError: a part that is present is not safe, well-formed XML.
    """
    main_part = pkg.main_part
    if not main_part or not pkg.has(main_part):
        raise CorruptDocumentError("the package has no main document part")
    main = load_part(pkg, main_part)
    strict = main is not pkg.xml(main_part)
    if main.find(qn("w:body")) is None:
        raise CorruptDocumentError(f"part {main_part!r} has no w:body: not a WordprocessingML document")
    rels = read_rels(pkg, main_part)
    all_rels: dict[str, Mapping[str, Rel]] = {main_part: MappingProxyType(rels)}
    parts: dict[str, Any] = {main_part: main}
    by_type: dict[str, str] = {}
    for rel in rels.values():
        if rel.external or rel.type not in ("styles", "numbering", "footnotes", "endnotes", "comments", "settings",
                                             "fontTable"):
            continue
        if rel.type in by_type:
            continue
        if not pkg.has(rel.target):
            warnings.append(f"relationship {rel.rid} names a missing part {rel.target!r}; ignored")
            continue
        by_type[rel.type] = rel.target

    styles = EMPTY_STYLES
    if "styles" in by_type:
        name = by_type["styles"]
        data = pkg.read(name)
        fonts = None
        if "fontTable" in by_type:  # which fonts are fixed pitch: what marks code where no style name does
            ft = pkg.read(by_type["fontTable"])
            try:
                fonts = parse_font_table(to_transitional(ft) if strict else ft, by_type["fontTable"])
            except MalformedXmlError as exc:  # the fonts only refine what code looks like
                warnings.append(f"font table ignored: {exc}")
        styles = parse_styles(to_transitional(data) if strict else data, warnings, name, fonts)
    numbering = EMPTY_NUMBERING
    if "numbering" in by_type:
        numbering = parse_numbering(load_part(pkg, by_type["numbering"]))
    for kind in ("footnotes", "endnotes", "comments"):
        if kind in by_type:
            parts[by_type[kind]] = load_part(pkg, by_type[kind])
            all_rels[by_type[kind]] = MappingProxyType(read_rels(pkg, by_type[kind]))
    settings = load_part(pkg, by_type["settings"]) if "settings" in by_type else None
    foot = _body_note_format(main, "w:footnotePr", _note_format(settings, "w:footnotePr", NoteFormat("decimal")))
    end = _body_note_format(main, "w:endnotePr", _note_format(settings, "w:endnotePr", NoteFormat("lowerRoman")))
    margins = _margins(pkg, main, rels, parts, all_rels, warnings, _on(settings, "w:evenAndOddHeaders"))
    return PackageContext(
        main_part=main_part,
        rels=MappingProxyType(all_rels),
        styles=styles,
        numbering=numbering,
        parts=MappingProxyType(parts),
        footnotes_part=by_type.get("footnotes"),
        endnotes_part=by_type.get("endnotes"),
        comments_part=by_type.get("comments"),
        footnote_format=foot,
        endnote_format=end,
        note_marks=MappingProxyType(_note_marks(main, foot, end)),
        strict=strict,
        theme_lang=_theme_lang(settings),
        margins=margins,
    )


def _theme_lang(settings) -> str | None:
    el = settings.find(qn("w:themeFontLang")) if settings is not None else None
    return (el.get(w_attr("val")) or None) if el is not None else None


_HEADER_REF, _FOOTER_REF, _SECT_PR = qn("w:headerReference"), qn("w:footerReference"), qn("w:sectPr")
_R_ID, _TYPE = qn("r:id"), w_attr("type")


def _on(parent, tag: str) -> bool:
    """Whether an on/off property (``w:titlePg``, ``w:evenAndOddHeaders``) is on in ``parent``."""
    el = parent.find(qn(tag)) if parent is not None else None
    return el is not None and (el.get(w_attr("val")) or "true") not in ("0", "false", "off")


def _margins(pkg: Package, main, rels: Mapping[str, Rel], parts: dict[str, Any],
             all_rels: dict[str, Mapping[str, Rel]], warnings: list[str], even_pages: bool = False) -> tuple[Margin, ...]:
    """The header and footer parts the sections show (loaded into ``parts`` with their rels).

    A first-page part counts where its section has a title page (``w:titlePg``), an even-page
    one where the settings separate even and odd pages (``w:evenAndOddHeaders``): elsewhere Word
    and LibreOffice do not show them (a template's leftover "cPhone Design Note" stays unread).

    A part missing from the package is a warning (the section shows no header there), as a
    word processor treats it; a part that is there but malformed is an error naming it.
    """
    found: dict[str, tuple[str, list[str]]] = {}
    for sect in main.iter(_SECT_PR):
        title_page = _on(sect, "w:titlePg")
        for ref in sect:
            if ref.tag not in (_HEADER_REF, _FOOTER_REF):
                continue
            typ = ref.get(_TYPE) or "default"
            if (typ == "first" and not title_page) or (typ == "even" and not even_pages):
                continue
            rel = rels.get(ref.get(_R_ID) or "")
            if rel is None or rel.external:
                continue
            if not pkg.has(rel.target):
                warnings.append(f"relationship {rel.rid} names a missing part {rel.target!r}; ignored")
                continue
            kind = "header" if ref.tag == _HEADER_REF else "footer"
            _kind, types = found.setdefault(rel.target, (kind, []))
            if typ not in types:
                types.append(typ)
    for name in found:
        if name not in parts:
            parts[name] = load_part(pkg, name)
            all_rels[name] = MappingProxyType(read_rels(pkg, name))
    return tuple(Margin(kind, name, tuple(types)) for name, (kind, types) in found.items())
