"""The styles part, read once and resolved along ``w:basedOn``.

A paragraph's heading level, numbering and hidden-ness may come from its style or from any
style that style is based on; :class:`StyleSheet` flattens each chain once so that the body
walk asks one dictionary per paragraph.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from ..monospace import FontFace, code_style_name, fixed_pitch
from ..package import parse_xml
from .oxml import qn, w_attr

__all__ = ["StyleInfo", "ParaStyle", "StyleSheet", "parse_styles", "parse_font_table", "EMPTY_STYLES"]

_HEADING_NAME = re.compile(r"^heading\s*([1-9])$", re.IGNORECASE)
_VAL = w_attr("val")
_MAX_CHAIN = 32


@dataclass(frozen=True)
class StyleInfo:
    """One ``w:style`` as declared (nothing inherited)."""

    style_id: str
    name: str
    type: str
    based_on: str | None = None
    outline_level: int | None = None
    num_id: str | None = None
    ilvl: int | None = None
    vanish: bool | None = None
    is_default: bool = False
    #: ``w:rPr/w:lang/@w:val``: the language of its (Latin-script) text.
    lang: str | None = None
    #: ``w:rPr/w:rFonts/@w:ascii`` (or ``@w:hAnsi``): the font of its Latin text.
    font: str | None = None


@dataclass(frozen=True)
class ParaStyle:
    """A paragraph style with its ``basedOn`` chain resolved.

    ``outline_level`` is 0-based (``w:outlineLvl``; 9 means body text and becomes ``None``),
    taken from the chain or, failing that, from a built-in name such as "heading 2".
    ``role`` is ``"title"``, ``"caption"`` or ``None``.
    """

    style_id: str | None
    name: str | None
    outline_level: int | None = None
    num_id: str | None = None
    ilvl: int | None = None
    vanish: bool = False
    role: str | None = None
    #: The style ids of the ``basedOn`` chain, this style first.
    chain: tuple[str, ...] = ()
    #: The language its runs take (``w:lang`` of the chain), None when the chain sets none.
    lang: str | None = None
    #: Its text is code: a code style's name in the chain, or a fixed-pitch font against a
    #: proportional body font (:mod:`adapters.monospace`).
    code: bool = False


_NO_STYLE = ParaStyle(None, None)


class StyleSheet:
    """Styles by id, with resolved paragraph styles and character-style hiddenness cached."""

    def __init__(self, styles: Mapping[str, StyleInfo], default_para: str | None, default_lang: str | None = None,
                 default_font: str | None = None, fonts: Mapping[str, FontFace] | None = None) -> None:
        self.styles = MappingProxyType(dict(styles))
        self.default_para = default_para
        #: ``w:docDefaults/w:rPrDefault`` language: what text no style tags is in.
        self.default_lang = default_lang
        #: ``w:docDefaults/w:rPrDefault`` font, and the font table's declarations by family.
        self.default_font = default_font
        self.fonts: Mapping[str, FontFace] = MappingProxyType(dict(fonts or {}))
        self._para: dict[str | None, ParaStyle] = {}
        self._char_vanish: dict[str, bool | None] = {}
        self._char_lang: dict[str, str | None] = {}
        self._char_code: dict[str, bool] = {}
        self._font_code: dict[str, bool] = {}
        self._body_fixed: bool | None = None

    def name(self, style_id: str | None) -> str | None:
        """The style's display name (its id when it declares none)."""
        if style_id is None:
            return None
        info = self.styles.get(style_id)
        return (info.name or style_id) if info else style_id

    def _chain(self, style_id: str | None) -> list[StyleInfo]:
        out: list[StyleInfo] = []
        seen: set[str] = set()
        while style_id and style_id not in seen and len(out) < _MAX_CHAIN:
            seen.add(style_id)
            info = self.styles.get(style_id)
            if info is None:
                break
            out.append(info)
            style_id = info.based_on
        return out

    def para(self, style_id: str | None) -> ParaStyle:
        """The resolved paragraph style (``style_id`` None or unknown -> the default style)."""
        hit = self._para.get(style_id)
        if hit is not None:
            return hit
        sid = style_id if style_id in self.styles else self.default_para
        chain = self._chain(sid)
        if not chain:
            res = _NO_STYLE
        else:
            outline = next((s.outline_level for s in chain if s.outline_level is not None), None)
            if outline is None:
                for s in chain:
                    m = _HEADING_NAME.match(s.name or "")
                    if m:
                        outline = int(m.group(1)) - 1
                        break
            if outline is not None and not 0 <= outline <= 8:
                outline = None
            num_holder = next((s for s in chain if s.num_id is not None), None)
            ilvl = next((s.ilvl for s in chain if s.ilvl is not None), None)
            vanish = next((s.vanish for s in chain if s.vanish is not None), False)
            lang = next((s.lang for s in chain if s.lang is not None), None)
            font = next((s.font for s in chain if s.font is not None), None)
            names = [(s.name or "").lower() for s in chain]
            role = None
            if "title" in names:
                role = "title"
            elif "caption" in names or any(n.endswith(" caption") for n in names):
                role = "caption"
            res = ParaStyle(
                style_id=chain[0].style_id,
                name=chain[0].name or chain[0].style_id,
                outline_level=outline,
                num_id=num_holder.num_id if num_holder else None,
                ilvl=ilvl,
                vanish=bool(vanish),
                role=role,
                chain=tuple(s.style_id for s in chain),
                lang=lang,
                code=any(code_style_name(s.name or s.style_id) for s in chain)
                or (font is not None and self.font_code(font)),
            )
        self._para[style_id] = res
        return res

    def char_vanish(self, style_id: str) -> bool | None:
        """Whether a character style (through its chain) hides text; ``None`` when silent."""
        if style_id in self._char_vanish:
            return self._char_vanish[style_id]
        val = next((s.vanish for s in self._chain(style_id) if s.vanish is not None), None)
        self._char_vanish[style_id] = val
        return val

    def char_lang(self, style_id: str) -> str | None:
        """The language a character style (through its chain) gives its runs; ``None`` when silent."""
        try:
            return self._char_lang[style_id]
        except KeyError:
            val = next((s.lang for s in self._chain(style_id) if s.lang is not None), None)
            self._char_lang[style_id] = val
            return val

    def _body_font_fixed(self) -> bool:
        """Whether the body font (the default paragraph style's, else the defaults') is fixed
        pitch: then a monospace font marks nothing."""
        if self._body_fixed is None:
            font = next((s.font for s in self._chain(self.default_para) if s.font is not None), self.default_font)
            self._body_fixed = fixed_pitch(font, dict(self.fonts))
        return self._body_fixed

    def font_code(self, font: str) -> bool:
        """Whether text in ``font`` is code: a fixed-pitch font in a proportional document."""
        try:
            return self._font_code[font]
        except KeyError:
            val = self._font_code[font] = fixed_pitch(font, dict(self.fonts)) and not self._body_font_fixed()
            return val

    def char_code(self, style_id: str) -> bool:
        """Whether a character style marks code: a code style's name in its chain ("Code Char",
        "Verbatim Char"), or the chain's font is fixed pitch ("Element" in Courier New)."""
        try:
            return self._char_code[style_id]
        except KeyError:
            chain = self._chain(style_id)
            font = next((s.font for s in chain if s.font is not None), None)
            val = any(code_style_name(s.name or s.style_id) for s in chain) or (font is not None and self.font_code(font))
            self._char_code[style_id] = val
            return val

    def numbering_style_num(self, style_id: str) -> str | None:
        """The ``w:numId`` a numbering style points at (for ``w:numStyleLink``)."""
        return next((s.num_id for s in self._chain(style_id) if s.num_id is not None), None)


EMPTY_STYLES = StyleSheet({}, None)


def _on(el) -> bool:
    """An ``ST_OnOff`` element: present without ``w:val``, or with a true value."""
    val = el.get(_VAL)
    return val is None or val.lower() in ("1", "true", "on")


def _int(val: str | None) -> int | None:
    try:
        return int(val) if val is not None else None
    except ValueError:
        return None


def parse_font_table(data: bytes, part: str = "word/fontTable.xml") -> dict[str, FontFace]:
    """The font table's declarations (``w:font`` with ``w:pitch``, ``w:family``, ``w:panose1``)
    by family name: what says a font is fixed pitch where its name does not.

    :raise adapters.errors.UnsafeXmlError, adapters.errors.MalformedXmlError:
    """
    root = parse_xml(data, part)
    out: dict[str, FontFace] = {}
    name_attr = qn("w:name")
    for font in root.iterchildren(qn("w:font")):
        name = font.get(name_attr)
        if not name:
            continue
        pitch = _child_val(font, "w:pitch")
        family = _child_val(font, "w:family")
        out[name] = FontFace(name, pitch if pitch in ("fixed", "variable") else ("fixed" if family == "modern" else None),
                             _child_val(font, "w:panose1"), family)
    return out


def parse_styles(data: bytes, warnings: list[str], part: str = "word/styles.xml",
                 fonts: Mapping[str, FontFace] | None = None) -> StyleSheet:
    """Read a styles part's bytes into a StyleSheet.

    Plain lxml through the package's one hardened parser: python-docx's oxml layer gave the
    same view, but importing it costs more than reading a 10K-token document (the reading
    benchmark's budget is half of pandoc's time). Odd values in one style are skipped with a
    warning.

    :raise adapters.errors.UnsafeXmlError, adapters.errors.MalformedXmlError:
    """
    root = parse_xml(data, part)
    if root.tag != qn("w:styles"):
        warnings.append("styles part has an unexpected root element; styles ignored")
        return EMPTY_STYLES
    styles: dict[str, StyleInfo] = {}
    default_para = None
    default_lang = None
    lang_el = root.find(f"{qn('w:docDefaults')}/{qn('w:rPrDefault')}/{qn('w:rPr')}/{qn('w:lang')}")
    if lang_el is not None:
        default_lang = lang_el.get(_VAL) or None
    fonts_el = root.find(f"{qn('w:docDefaults')}/{qn('w:rPrDefault')}/{qn('w:rPr')}/{qn('w:rFonts')}")
    default_font = _font_of(fonts_el)
    type_attr = qn("w:type")
    for st in root.iterchildren(qn("w:style")):
        if st.get(type_attr) == "table":
            continue  # table styles never name a paragraph's or run's properties
        try:
            info = _style_info(st)
        except Exception as exc:  # a value outside the schema in one style
            warnings.append(f"style {st.get(qn('w:styleId'))!r} skipped: {exc}")
            continue
        if info is None:
            continue
        styles[info.style_id] = info
        if info.type == "paragraph" and info.is_default and default_para is None:
            default_para = info.style_id
    return StyleSheet(styles, default_para, default_lang, default_font, fonts)


def _child_val(el, tag: str) -> str | None:
    child = el.find(qn(tag))
    return child.get(_VAL) if child is not None else None


_ASCII, _HANSI = w_attr("ascii"), w_attr("hAnsi")


def _font_of(rfonts) -> str | None:
    """The Latin-text font a ``w:rFonts`` names (``w:ascii``, else ``w:hAnsi``); theme fonts
    (``w:asciiTheme``) name no family here."""
    if rfonts is None:
        return None
    return rfonts.get(_ASCII) or rfonts.get(_HANSI) or None


def _style_info(st) -> StyleInfo | None:
    sid = st.get(qn("w:styleId"))
    if not sid:
        return None
    stype = st.get(qn("w:type")) or "paragraph"
    outline = num_id = ilvl = vanish = None
    ppr = st.find(qn("w:pPr"))
    if ppr is not None:
        ol = ppr.find(qn("w:outlineLvl"))
        if ol is not None:
            outline = _int(ol.get(_VAL))
            if outline is not None and outline >= 9:
                outline = 9  # explicit "body text" stops the chain
        num_pr = ppr.find(qn("w:numPr"))
        if num_pr is not None:
            nid = num_pr.find(qn("w:numId"))
            if nid is not None:
                num_id = nid.get(_VAL)
            lv = num_pr.find(qn("w:ilvl"))
            if lv is not None:
                ilvl = _int(lv.get(_VAL))
    lang = font = None
    rpr = st.find(qn("w:rPr"))
    if rpr is not None:
        v = rpr.find(qn("w:vanish"))
        if v is not None:
            vanish = _on(v)
        lang = _child_val(rpr, "w:lang") or None
        font = _font_of(rpr.find(qn("w:rFonts")))
    return StyleInfo(
        style_id=sid,
        name=_child_val(st, "w:name") or "",
        type=stype,
        based_on=_child_val(st, "w:basedOn"),
        outline_level=outline,
        num_id=num_id,
        ilvl=ilvl,
        vanish=vanish,
        is_default=st.get(qn("w:default")) in ("1", "true", "on"),
        lang=lang,
        font=font,
    )
