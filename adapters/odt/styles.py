"""Paragraph, text and list styles of an ODT package, read once from content.xml and styles.xml.

A :class:`StyleSheet` answers what the converter needs from styles: a paragraph's visible style
name, its default outline level and list style (inherited through ``style:parent-style-name``),
whether a style hides its text (``text:display="none"``), and the level definitions of every
list style and of the outline style (``text:outline-style``) that numbering renders.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from ..monospace import FontFace, code_style_name, fixed_pitch
from .odfxml import qn

__all__ = ["Style", "LevelStyle", "ListStyle", "StyleSheet", "language_tag", "read_styles"]

_STYLE = qn("style:style")
_LIST_STYLE = qn("text:list-style")
_OUTLINE_STYLE = qn("text:outline-style")
_AUTO = qn("office:automatic-styles")
_STYLES = qn("office:styles")
_TEXT_PROPS = qn("style:text-properties")
_LVL_NUMBER = qn("text:list-level-style-number")
_LVL_BULLET = qn("text:list-level-style-bullet")
_LVL_IMAGE = qn("text:list-level-style-image")
_LVL_OUTLINE = qn("text:outline-level-style")

_A_NAME = qn("style:name")
_A_DISPLAY = qn("style:display-name")
_A_FAMILY = qn("style:family")
_A_PARENT = qn("style:parent-style-name")
_A_LIST = qn("style:list-style-name")
_A_OUTLINE = qn("style:default-outline-level")
_A_DISPLAY_NONE = qn("text:display")
_A_LEVEL = qn("text:level")
_A_FORMAT = qn("style:num-format")
_A_PREFIX = qn("style:num-prefix")
_A_SUFFIX = qn("style:num-suffix")
_A_DISPLAY_LEVELS = qn("text:display-levels")
_A_START = qn("text:start-value")
_A_BULLET = qn("text:bullet-char")
_A_LETTER_SYNC = qn("style:num-letter-sync")
_A_LIST_FORMAT = qn("loext:num-list-format")
_A_CONSECUTIVE = qn("text:consecutive-numbering")
_A_LANGUAGE = qn("fo:language")
_A_COUNTRY = qn("fo:country")
_DEFAULT_STYLE = qn("style:default-style")
_FONT_DECLS = qn("office:font-face-decls")
_FONT_FACE = qn("style:font-face")
_A_FONT_NAME = qn("style:font-name")
_A_FO_FAMILY = qn("fo:font-family")
_A_SVG_FAMILY = qn("svg:font-family")
_A_PITCH = qn("style:font-pitch")
_A_GENERIC = qn("style:font-family-generic")


@dataclass(frozen=True)
class Style:
    """One ``style:style`` (paragraph or text family)."""

    name: str
    family: str
    display_name: str
    parent: str | None = None
    list_style: str | None = None
    outline_level: int | None = None
    hidden: bool | None = None
    automatic: bool = False
    #: The language tag its text properties set (``fo:language`` + ``fo:country``: "de-DE";
    #: "zxx" for no language), None when it sets none.
    language: str | None = None
    #: The font its text properties name (``style:font-name``, a font face, or ``fo:font-family``).
    font: str | None = None


@dataclass(frozen=True)
class LevelStyle:
    """One level of a list style: ``text:list-level-style-number|bullet|image``."""

    level: int
    kind: str = "number"  # number | bullet | image
    num_format: str = ""
    prefix: str = ""
    suffix: str = ""
    display_levels: int = 1
    start_value: int = 1
    bullet: str = ""
    letter_sync: bool = False
    #: LibreOffice's ``loext:num-list-format`` ("%1%.%2%."), when written.
    list_format: str | None = None

    @property
    def numbered(self) -> bool:
        return self.kind == "number" and self.num_format != ""


@dataclass(frozen=True)
class ListStyle:
    """A ``text:list-style`` or the ``text:outline-style``: its levels by number (1-based)."""

    name: str
    levels: dict[int, LevelStyle] = field(default_factory=dict)
    consecutive: bool = False

    def level(self, n: int) -> LevelStyle:
        """The definition of level ``n``; a level the style does not define shows no number."""
        lvl = self.levels.get(n)
        return lvl if lvl is not None else LevelStyle(level=n, num_format="")


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _level(el: etree._Element) -> LevelStyle:
    tag = el.tag
    kind = "bullet" if tag == _LVL_BULLET else "image" if tag == _LVL_IMAGE else "number"
    return LevelStyle(
        level=_int(el.get(_A_LEVEL), 1),
        kind=kind,
        num_format=el.get(_A_FORMAT, "") if kind == "number" else "",
        prefix=el.get(_A_PREFIX, ""),
        suffix=el.get(_A_SUFFIX, ""),
        display_levels=max(1, _int(el.get(_A_DISPLAY_LEVELS), 1)),
        start_value=_int(el.get(_A_START), 1),
        bullet=el.get(_A_BULLET, "") if kind == "bullet" else "",
        letter_sync=el.get(_A_LETTER_SYNC) == "true",
        list_format=el.get(_A_LIST_FORMAT),
    )


def _list_style(el: etree._Element, name: str) -> ListStyle:
    levels: dict[int, LevelStyle] = {}
    for child in el:
        if child.tag in (_LVL_NUMBER, _LVL_BULLET, _LVL_IMAGE, _LVL_OUTLINE):
            lvl = _level(child)
            levels[lvl.level] = lvl
    return ListStyle(name=name, levels=levels, consecutive=el.get(_A_CONSECUTIVE) == "true")


def language_tag(props: etree._Element) -> str | None:
    """The tag of ``style:text-properties``: ``fo:language`` with ``fo:country`` ("de-DE").

    ``style:language-asian``/``-complex`` are for text in other scripts; Latin text takes
    ``fo:language``. "zxx" (or "none") is kept: it says the text has no language.

    >>> language_tag(etree.Element(_TEXT_PROPS, {_A_LANGUAGE: "es", _A_COUNTRY: "AR"}))
    'es-AR'
    >>> language_tag(etree.Element(_TEXT_PROPS, {_A_LANGUAGE: "zxx", _A_COUNTRY: "none"}))
    'zxx'
    """
    lang = props.get(_A_LANGUAGE)
    if not lang:
        return None
    if lang.lower() == "none":
        return "zxx"
    country = props.get(_A_COUNTRY)
    return f"{lang}-{country}" if country and country.lower() != "none" and lang != "zxx" else lang


def _style(el: etree._Element, automatic: bool) -> Style:
    name = el.get(_A_NAME, "")
    hidden = None
    language = None
    font = None
    for child in el:
        if child.tag == _TEXT_PROPS:
            value = child.get(_A_DISPLAY_NONE)
            if value is not None:
                hidden = value == "none"
            language = language_tag(child)
            font = child.get(_A_FONT_NAME) or child.get(_A_FO_FAMILY)
    outline = el.get(_A_OUTLINE)
    return Style(
        name=name,
        family=el.get(_A_FAMILY, ""),
        display_name=el.get(_A_DISPLAY) or name,
        parent=el.get(_A_PARENT),
        list_style=el.get(_A_LIST),
        outline_level=None if outline is None else _int(outline, 0),
        hidden=hidden,
        automatic=automatic,
        language=language,
        font=font,
    )


class StyleSheet:
    """Styles by (family, name); automatic styles of content.xml shadow common ones.

    Elements are indexed when the parts are read and parsed into :class:`Style` and
    :class:`ListStyle` only when first asked for: a converted document carries thousands of
    automatic styles that no paragraph of interest uses.
    """

    def __init__(self) -> None:
        self._elements: dict[tuple[str, str, bool], etree._Element] = {}
        self._list_elements: dict[str, etree._Element] = {}
        self._styles: dict[tuple[str, str, bool], Style | None] = {}
        self._lists: dict[str, ListStyle | None] = {}
        self.outline: ListStyle = ListStyle(name="Outline")
        self._cache: dict[tuple[str, str, str], object] = {}
        self._outline_styles: dict[str, int] | None = None
        self._spans: dict[str, tuple[bool, str | None]] = {}
        #: ``style:default-style`` elements by family.
        self._defaults: dict[str, etree._Element] = {}
        #: ``style:font-face`` declarations by ``style:name`` (also by family name).
        self.fonts: dict[str, FontFace] = {}
        self._code: dict[tuple[str, str], bool] = {}
        self._body_fixed: bool | None = None

    def _style(self, family: str, name: str, automatic: bool) -> Style | None:
        key = (family, name, automatic)
        try:
            return self._styles[key]
        except KeyError:
            el = self._elements.get(key)
            style = self._styles[key] = _style(el, automatic) if el is not None else None
            return style

    def get(self, family: str, name: str | None) -> Style | None:
        """The style a ``text:style-name`` names: the automatic one first, else the common one."""
        if not name:
            return None
        return self._style(family, name, True) or self._style(family, name, False)

    def _parent(self, family: str, style: Style) -> Style | None:
        # the parent of any style is a common style
        return self._style(family, style.parent, False) if style.parent else None

    def _lookup(self, family: str, name: str | None, attr: str) -> object:
        """The first non-None value of ``attr`` up the parent chain (cached)."""
        if not name:
            return None
        key = (family, name, attr)
        if key in self._cache:
            return self._cache[key]
        value = None
        seen: set[str] = set()
        style = self.get(family, name)
        while style is not None and style.name not in seen:
            seen.add(style.name)
            value = getattr(style, attr)
            if value is not None:
                break
            style = self._parent(family, style)
        self._cache[key] = value
        return value

    def display_name(self, family: str, name: str | None) -> str | None:
        """The name a user sees: an automatic style (``P3``) shows its common parent's name."""
        style = self.get(family, name)
        while style is not None and style.automatic and style.parent:
            style = self._parent(family, style)
        if style is None:
            return name
        return style.display_name

    def find(self, family: str, display: str) -> str | None:
        """The name of the common style a user sees as ``display`` (or that is named so).

        >>> el = etree.Element(_STYLE, {_A_NAME: "Heading_20_1", _A_DISPLAY: "Heading 1", _A_FAMILY: "paragraph"})
        >>> sheet = StyleSheet()
        >>> sheet._elements[("paragraph", "Heading_20_1", False)] = el
        >>> sheet.find("paragraph", "Heading 1")
        'Heading_20_1'
        """
        fallback = None
        for fam, name, automatic in self._elements:
            if fam != family or automatic:
                continue
            style = self._style(fam, name, False)
            if style is None:
                continue
            if style.display_name == display:
                return name
            if name == display:
                fallback = name
        return fallback

    def outline_level(self, para_style: str | None) -> int | None:
        level = self._lookup("paragraph", para_style, "outline_level")
        return level if isinstance(level, int) and level > 0 else None

    def list_style_of(self, para_style: str | None) -> str | None:
        value = self._lookup("paragraph", para_style, "list_style")
        return value if isinstance(value, str) and value else None  # "" switches a parent's list style off

    def sets_list_style(self, para_style: str | None) -> bool:
        """Whether the paragraph's automatic style sets ``style:list-style-name`` (even to "").

        LibreOffice applies such a list style to the paragraph itself, which takes a heading
        outside a list out of the outline numbering (it is neither numbered nor counted);
        a list style set on a common style does not.
        """
        style = self.get("paragraph", para_style)
        return style is not None and style.automatic and style.list_style is not None

    def outline_assigned(self, para_style: str | None) -> int | None:
        """The outline level whose numbering a paragraph in this style takes from the style.

        Of the common styles with a ``style:default-outline-level``, LibreOffice assigns the
        first of each level (in the order they are read) to that level of the outline style;
        only that style (an automatic style through its parent) numbers a ``text:p`` with the
        outline. Styles derived from it do not inherit the assignment.
        """
        style = self.get("paragraph", para_style)
        if style is not None and style.automatic:
            style = self._parent("paragraph", style)
        if style is None:
            return None
        if self._outline_styles is None:
            chosen: dict[str, int] = {}
            taken: set[int] = set()
            for (family, name, automatic), el in self._elements.items():
                if family != "paragraph" or automatic:
                    continue
                level = _int(el.get(_A_OUTLINE), 0)
                if level > 0 and level not in taken:
                    taken.add(level)
                    chosen[name] = level
            self._outline_styles = chosen
        return self._outline_styles.get(style.name)

    def default_language(self) -> str | None:
        """The language the default paragraph style gives (the document's default), if any."""
        key = ("paragraph", "", "#default-language")
        if key not in self._cache:
            el = self._defaults.get("paragraph")
            props = el.find(_TEXT_PROPS) if el is not None else None
            self._cache[key] = language_tag(props) if props is not None else None
        tag = self._cache[key]
        return tag if isinstance(tag, str) else None

    def language(self, family: str, name: str | None) -> str | None:
        """The language a style gives its text, through its parents; a paragraph style falls
        back on the default style. A text style that sets none returns None (the text keeps
        its paragraph's)."""
        value = self._lookup(family, name, "language")
        if value is None and family == "paragraph":
            return self.default_language()
        return value if isinstance(value, str) else None

    def span(self, name: str) -> tuple[bool, str | None]:
        """``(hidden, language)`` of a character style: one cached look-up per span."""
        try:
            return self._spans[name]
        except KeyError:
            got = self._spans[name] = (self.hidden("text", name), self.language("text", name))
            return got

    def _fixed(self, font: str) -> bool:
        face = self.fonts.get(font)
        return face.fixed() if face is not None else fixed_pitch(font)

    def _body_font_fixed(self) -> bool:
        """Whether the body font (the default or "Standard" paragraph style's) is fixed pitch:
        then a monospace font marks nothing."""
        if self._body_fixed is None:
            font = self._lookup("paragraph", self.find("paragraph", "Standard") or "Standard", "font")
            if font is None:
                el = self._defaults.get("paragraph")
                props = el.find(_TEXT_PROPS) if el is not None else None
                font = (props.get(_A_FONT_NAME) or props.get(_A_FO_FAMILY)) if props is not None else None
            self._body_fixed = isinstance(font, str) and self._fixed(font)
        return self._body_fixed

    def code(self, family: str, name: str | None) -> bool:
        """Whether a text or paragraph style marks code: a code style's name up its parents
        ("Source Text", "Preformatted Text"), or a fixed-pitch font against a proportional body
        font (:mod:`adapters.monospace`)."""
        if not name:
            return False
        key = (family, name)
        try:
            return self._code[key]
        except KeyError:
            pass
        named = False
        style = self.get(family, name)
        seen: set[str] = set()
        while style is not None and style.name not in seen:
            seen.add(style.name)
            if not style.automatic and code_style_name(style.display_name):
                named = True
                break
            style = self._parent(family, style)
        font = self._lookup(family, name, "font")
        val = named or (isinstance(font, str) and self._fixed(font) and not self._body_font_fixed())
        self._code[key] = val
        return val

    def hidden(self, family: str, name: str | None) -> bool:
        return bool(self._lookup(family, name, "hidden"))

    def is_title(self, para_style: str | None) -> bool:
        """Whether the paragraph uses (or inherits from) the ``Title`` style."""
        key = ("paragraph", para_style or "", "#title")
        if key in self._cache:
            return bool(self._cache[key])
        found = False
        style = self.get("paragraph", para_style)
        seen: set[str] = set()
        while style is not None and style.name not in seen:
            seen.add(style.name)
            if not style.automatic and style.display_name == "Title":
                found = True
                break
            style = self._parent("paragraph", style)
        self._cache[key] = found
        return found

    def list_style(self, name: str | None) -> ListStyle | None:
        """A ``text:list-style`` by name (automatic ones shadow common ones)."""
        if not name:
            return None
        try:
            return self._lists[name]
        except KeyError:
            el = self._list_elements.get(name)
            ls = self._lists[name] = _list_style(el, name) if el is not None else None
            return ls


def _read_container(sheet: StyleSheet, container: etree._Element | None, automatic: bool) -> None:
    if container is None:
        return
    elements = sheet._elements
    for el in container:
        tag = el.tag
        if tag == _STYLE:
            elements[(el.get(_A_FAMILY, ""), el.get(_A_NAME, ""), automatic)] = el
        elif tag == _LIST_STYLE:
            name = el.get(_A_NAME, "")
            if automatic or name not in sheet._list_elements:
                sheet._list_elements[name] = el
        elif tag == _OUTLINE_STYLE:
            sheet.outline = _list_style(el, el.get(_A_NAME, "Outline"))
        elif tag == _DEFAULT_STYLE and not automatic:
            sheet._defaults.setdefault(el.get(_A_FAMILY, ""), el)


def _read_fonts(sheet: StyleSheet, decls: etree._Element | None) -> None:
    """``office:font-face-decls``: each face's family, pitch and generic family, by its name."""
    if decls is None:
        return
    for el in decls.iterchildren(_FONT_FACE):
        name = el.get(_A_NAME)
        if not name:
            continue
        family = (el.get(_A_SVG_FAMILY) or name).strip().strip("'\"")
        pitch = el.get(_A_PITCH)
        face = FontFace(family, pitch if pitch in ("fixed", "variable") else None, None, el.get(_A_GENERIC))
        sheet.fonts.setdefault(name, face)
        sheet.fonts.setdefault(family, face)


def read_styles(content: etree._Element, styles: etree._Element | None) -> StyleSheet:
    """The style sheet of a package from the roots of content.xml and styles.xml."""
    sheet = StyleSheet()
    _read_fonts(sheet, content.find(_FONT_DECLS))
    if styles is not None:
        _read_fonts(sheet, styles.find(_FONT_DECLS))
        _read_container(sheet, styles.find(_STYLES), False)
    # content.xml may carry office:styles too (flat layouts); common first, then automatic
    _read_container(sheet, content.find(_STYLES), False)
    _read_container(sheet, content.find(_AUTO), True)
    return sheet
