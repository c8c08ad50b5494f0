"""Rendered numbers of headings and list items, as LibreOffice shows them.

ODF stores no numbers: a heading's number comes from the ``text:outline-style`` and the
headings before it, a list item's label from its list style and the items before it in the
same list (continued lists included). :class:`Counters` keeps the per-level counters of one
list; :func:`render_label` formats a label from them the way LibreOffice's ``MakeNumString``
does (``loext:num-list-format`` when present, else prefix + levels joined by "." + suffix).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ..labels import repeated_letters, roman
from .odfxml import qn
from .styles import LevelStyle, ListStyle, StyleSheet

if TYPE_CHECKING:  # pragma: no cover
    from .body import ListRef, Paragraph

__all__ = ["format_number", "render_label", "render_parts", "Counters", "Label", "Numbering", "MAX_LEVEL"]

MAX_LEVEL = 10
_H = qn("text:h")

def _letters(n: int, sync: bool) -> str:
    """1 -> a, 26 -> z, 27 -> aa, 28 -> ab (or 28 -> bb when letters are synchronised)."""
    if sync:
        return repeated_letters(n)
    out = ""
    n -= 1
    while True:
        out = chr(ord("a") + n % 26) + out
        n = n // 26 - 1
        if n < 0:
            return out


def format_number(n: int, num_format: str, letter_sync: bool = False) -> str:
    """One level's number in an ODF ``style:num-format``.

    >>> [format_number(4, f) for f in ("1", "a", "A", "i", "I", "")]
    ['4', 'd', 'D', 'iv', 'IV', '']
    >>> format_number(28, "a"), format_number(28, "a", letter_sync=True)
    ('ab', 'bb')
    """
    if not num_format:
        return ""
    if n <= 0 and num_format != "1":
        return "0"
    first = num_format[0]
    if first == "1":
        return str(n)
    if first in "aA":
        s = _letters(n, letter_sync)
        return s.upper() if first == "A" else s
    if first in "iI":
        s = roman(n)
        return s.upper() if first == "I" else s
    return str(n)


def render_label(style: ListStyle, level: int, numbers: list[int]) -> str:
    """The label of an item at ``level`` (1-based) given the counters of levels 1..level.

    >>> from adapters.odt.styles import ListStyle, LevelStyle
    >>> st = ListStyle("L", {1: LevelStyle(1, num_format="A", suffix="."),
    ...                      2: LevelStyle(2, num_format="1", suffix=".", display_levels=2)})
    >>> render_label(st, 2, [2, 3])
    'B.3.'
    """
    return render_parts(style, level, numbers)[0]


def render_parts(style: ListStyle, level: int, numbers: list[int]) -> tuple[str, list[str]]:
    """The label and the numbers it shows, level by level (what a reference cites: "B", "3").

    >>> from adapters.odt.styles import ListStyle, LevelStyle
    >>> st = ListStyle("L", {1: LevelStyle(1, num_format="A", list_format="Appendix %1%."),
    ...                      2: LevelStyle(2, num_format="1", list_format="%1%.%2%.")})
    >>> render_parts(st, 1, [2]), render_parts(st, 2, [2, 3])
    (('Appendix B.', ['B']), ('B.3.', ['B', '3']))
    """
    own = style.level(level)
    if own.kind != "number":
        return "", []  # bullets and images: LibreOffice's ListLabelString is empty
    if own.list_format is not None:
        return _render_list_format(style, level, numbers, own.list_format)
    first = level
    if own.num_format and own.display_levels > 1:
        first = max(1, level - own.display_levels + 1)
    text = ""
    shown: list[str] = []
    for i in range(first, level + 1):
        lvl = own if i == level else style.level(i)
        if not lvl.num_format or lvl.kind != "number":
            continue
        n = numbers[i - 1] if i - 1 < len(numbers) else 0
        rep = format_number(n, lvl.num_format, lvl.letter_sync) if n else "0"
        shown.append(rep)
        text += rep
        if i != level and text:
            text += "."
    return own.prefix + text + own.suffix, shown


def _render_list_format(style: ListStyle, level: int, numbers: list[int], fmt: str) -> tuple[str, list[str]]:
    shown: list[str] = []
    for i in range(1, level + 1):
        token = f"%{i}%"
        pos = fmt.find(token)
        if pos < 0:
            continue
        lvl: LevelStyle = style.level(i)
        if not lvl.num_format or lvl.kind != "number":
            # a level without numbers drops its token and what follows up to the next token
            nxt = fmt.find("%", pos + len(token))
            fmt = fmt[:pos] + fmt[nxt:] if nxt >= 0 else fmt[:pos] + fmt[pos + len(token):]
            continue
        n = numbers[i - 1] if i - 1 < len(numbers) else 0
        rep = format_number(n, lvl.num_format, lvl.letter_sync) if n else "0"
        shown.append(rep)
        fmt = fmt[:pos] + rep + fmt[pos + len(token):]
    return fmt, shown


class Counters:
    """The per-level counters of one list (or of the outline).

    An item at level L counts on from the last item at L, or starts at the level's start value
    when L was reset by an item at a shallower level; upper levels never seen count as started
    (LibreOffice's phantom items).

    >>> from adapters.odt.styles import ListStyle, LevelStyle
    >>> c = Counters()
    >>> st = ListStyle("L", {1: LevelStyle(1, num_format="1", start_value=4)})
    >>> c.advance(st, 1), c.advance(st, 1), c.advance(st, 1, restart=1)
    ([4], [5], [1])
    """

    __slots__ = ("numbers", "started")

    def __init__(self) -> None:
        self.numbers = [0] * (MAX_LEVEL + 1)
        self.started = [False] * (MAX_LEVEL + 1)

    def advance(self, style: ListStyle, level: int, restart: int | None = None) -> list[int]:
        """Count one item at ``level``; ``restart`` sets its number (``text:start-value``)."""
        level = max(1, min(level, MAX_LEVEL))
        for i in range(1, level):
            if not self.started[i]:
                self.numbers[i] = style.level(i).start_value
                self.started[i] = True
        if restart is not None:
            self.numbers[level] = restart
        elif self.started[level]:
            self.numbers[level] += 1
        else:
            self.numbers[level] = style.level(level).start_value
        self.started[level] = True
        for i in range(level + 1, MAX_LEVEL + 1):
            self.started[i] = False
        return self.numbers[1 : level + 1]


_NO_STYLE = ListStyle(name="")


class Numbering:
    """Heading and list counters of one document, advanced paragraph by paragraph in order.

    Lists follow LibreOffice's import: a ``text:list`` starts a new list unless it names the
    list it continues (``text:continue-list`` = an ``xml:id``) or asks to continue the last
    list when that has the same style (``text:continue-numbering="true"``). Nested lists
    count in their outermost list. Headings count in the outline.
    """

    def __init__(self, styles: StyleSheet) -> None:
        self.styles = styles
        self.outline = Counters()
        self.lists: dict[Any, Counters] = {}
        self.by_xml_id: dict[str, Counters] = {}
        self.last: tuple[Counters, str | None] | None = None

    def _counters(self, ref: "ListRef") -> Counters:
        top = ref.top
        c = self.lists.get(top)
        if c is not None:
            return c
        style_name = top.effective_style()
        if top.continue_list and top.continue_list in self.by_xml_id:
            c = self.by_xml_id[top.continue_list]
        elif top.continue_numbering and self.last is not None and self.last[1] == style_name:
            c = self.last[0]
        else:
            c = Counters()
        self.lists[top] = c
        if top.xml_id:
            self.by_xml_id[top.xml_id] = c
        self.last = (c, style_name)
        return c

    def label(self, p: "Paragraph") -> "Label":
        """Count one paragraph: its rendered label, the number it is cited by, its list style.

        The rules are LibreOffice's (checked against its ``ListLabelString``):

        * In a ``text:list``, the list's style numbers the paragraph (a nested list without a
          style takes its enclosing list's; a top-level list without one numbers nothing).
          List headers, later paragraphs of an item and ``text:is-list-header`` headings
          show no number and are not counted; ``text:start-value`` of the item, or
          ``text:restart-numbering`` of a heading, restarts the count.
        * A ``text:h`` outside lists is numbered by the outline style at its
          ``text:outline-level``, unless it is a list header, its style is undefined, or its
          automatic style sets a list style (``style:list-style-name``, even ""): then it is
          outside the outline, neither numbered nor counted. ``text:restart-numbering``
          restarts the count (see :func:`_restart_value`; ``text:start-value`` alone
          changes nothing).
        * A ``text:p`` outside lists takes the outline numbering only from the style assigned
          to an outline level (see :meth:`StyleSheet.outline_assigned`).
        """
        styles = self.styles
        pos = p.listpos
        if pos is not None:
            name = pos.list.effective_style()
            style = styles.list_style(name)
            counters = self._counters(pos.list)
            meta: dict[str, Any] = {"list_level": pos.level}
            if pos.header:
                meta["list_header"] = True
            if pos.header or not pos.first_in_item or (p.heading and p.is_list_header):
                return Label(None, None, name, meta)
            restart = pos.start_value
            if p.restart and p.element.tag == _H:
                restart = _restart_value(p.start_value, style or _NO_STYLE, pos.level)
            nums = counters.advance(style or _NO_STYLE, pos.level, restart)
            if style is None:
                return Label(None, None, name, meta)
            lvl = style.level(pos.level)
            if lvl.kind == "bullet":
                meta["bullet"] = lvl.bullet
            return _numbered(style, pos.level, nums, name, meta)
        if not p.heading or styles.sets_list_style(p.style):
            # A paragraph outside text:list is not numbered by its style's list style:
            # LibreOffice applies a style's list style only to paragraphs in a list.
            return Label(None, None, None, {})
        style = styles.outline
        if p.element.tag == _H:
            if p.is_list_header or (p.style and styles.get("paragraph", p.style) is None):
                return Label(None, None, None, {})  # LibreOffice numbers no heading of an undefined style
            # text:outline-level, else level 1 (parse resolved it)
            level = p.outline_level or 1
            restart = _restart_value(p.start_value, style, level) if p.restart else None
        else:
            assigned = styles.outline_assigned(p.style)
            if assigned is None:
                return Label(None, None, None, {})
            level, restart = assigned, None
        nums = self.outline.advance(style, level, restart)
        return _numbered(style, level, nums, None, {})


class Label(NamedTuple):
    """What :meth:`Numbering.label` says of one paragraph."""

    #: The rendered label ("4.2.", "Appendix A.", "a)"), None when it shows none.
    label: str | None
    #: The numbers it shows joined by "." ("4.2", "A", "B.1"): what a reference cites.
    number: str | None
    #: The list style that numbers it (None for the outline and for no list).
    list_style: str | None
    meta: dict[str, Any]


def _restart_value(start: int | None, style: ListStyle, level: int) -> int:
    """Where ``text:restart-numbering`` restarts, as LibreOffice reads it: at
    ``text:start-value``; at the level's own start for a negative one (-1: "no value");
    at 0 when the attribute is absent.

    >>> st = ListStyle("L", {1: LevelStyle(1, num_format="1", start_value=3)})
    >>> _restart_value(5, st, 1), _restart_value(-1, st, 1), _restart_value(None, st, 1)
    (5, 3, 0)
    """
    if start is None:
        return 0
    return start if start >= 0 else style.level(level).start_value


def _numbered(style: ListStyle, level: int, nums: list[int], name: str | None, meta: dict[str, Any]) -> Label:
    text, shown = render_parts(style, level, nums)
    return Label(text or None, ".".join(shown) or None if text else None, name, meta)
