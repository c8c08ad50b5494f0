"""Field instructions (``SEQ Figure \\* ARABIC``, ``REF _Ref1 \\h``, ``HYPERLINK \\l "x"``) and SEQ counters.

Word keeps a field's instruction in ``w:instrText`` (complex fields) or ``w:fldSimple/@w:instr``;
the reader shows the cached result and records the instruction parsed here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FieldCode", "parse_instruction", "SeqCounters", "field_kind"]

_TOKEN = re.compile(r'"((?:[^"\\]|\\.)*)"|(\\\S+)|(\S+)')

_KINDS = {
    "SEQ": "seq",
    "REF": "ref",
    "PAGEREF": "pageref",
    "NOTEREF": "noteref",
    "HYPERLINK": "hyperlink",
}


@dataclass(frozen=True)
class FieldCode:
    """A parsed instruction: the field name, its arguments and its switches (``{"\\l": "x"}``)."""

    name: str
    args: tuple[str, ...]
    switches: tuple[tuple[str, str | None], ...]

    def switch(self, sw: str) -> str | None:
        """The argument of a switch (``""`` for a flag), ``None`` when absent."""
        for k, v in self.switches:
            if k.lower() == sw.lower():
                return v if v is not None else ""
        return None

    @property
    def kind(self) -> str:
        return _KINDS.get(self.name, "other")

    @property
    def target(self) -> str | None:
        """What the field points at: a bookmark, a SEQ identifier, a URL or ``\\l`` anchor."""
        if self.name == "HYPERLINK":
            anchor = self.switch("\\l")
            url = self.args[0] if self.args else None
            if url and anchor:
                return f"{url}#{anchor}"
            return anchor or url
        if self.name in _KINDS:
            return self.args[0] if self.args else None
        return None


_ARG_SWITCHES = {"\\l", "\\o", "\\t", "\\m", "\\*", "\\#", "\\@", "\\r", "\\s", "\\d", "\\p", "\\b", "\\f", "\\c"}
_FLAG_ONLY = {"\\h", "\\n", "\\w", "\\x", "\\u"}


def parse_instruction(code: str) -> FieldCode:
    """Split a field instruction into name, arguments and switches.

    >>> fc = parse_instruction(' HYPERLINK \\\\l "_Toc1" \\\\h ')
    >>> fc.kind, fc.target
    ('hyperlink', '_Toc1')
    >>> parse_instruction("SEQ Figure \\\\* ARABIC").target
    'Figure'
    """
    tokens: list[tuple[str, bool]] = []
    for m in _TOKEN.finditer(code):
        if m.group(1) is not None:
            tokens.append((m.group(1).replace('\\"', '"'), False))
        elif m.group(2) is not None:
            tokens.append((m.group(2), True))
        else:
            tokens.append((m.group(3), False))
    if not tokens:
        return FieldCode("", (), ())
    name = tokens[0][0].upper()
    args: list[str] = []
    switches: list[tuple[str, str | None]] = []
    i = 1
    while i < len(tokens):
        tok, is_switch = tokens[i]
        if is_switch:
            sw = tok if len(tok) <= 2 else tok[:2]
            rest = tok[2:] if len(tok) > 2 else ""
            if rest:
                switches.append((sw, rest))
            elif sw.lower() in _ARG_SWITCHES and sw.lower() not in _FLAG_ONLY and i + 1 < len(tokens) and not tokens[i + 1][1]:
                switches.append((sw, tokens[i + 1][0]))
                i += 1
            else:
                switches.append((sw, None))
        else:
            args.append(tok)
        i += 1
    return FieldCode(name, tuple(args), tuple(switches))


def field_kind(code: str) -> str:
    """The normalised kind of an instruction (``seq``, ``ref``, ... or ``other``)."""
    head = code.strip().split(None, 1)
    return _KINDS.get(head[0].upper(), "other") if head else "other"


class SeqCounters:
    """SEQ field numbers, computed as Word would when a field has no cached result."""

    def __init__(self) -> None:
        self._values: dict[str, int] = {}

    def heading(self, level: int) -> None:
        """A heading of ``level`` (1-based) was passed: ``\\s`` sequences at that level restart."""
        for key in list(self._values):
            name, _, s = key.partition("\0")
            if s and int(s) >= level:
                self._values[key] = 0

    def next(self, fc: FieldCode) -> int:
        ident = (fc.args[0] if fc.args else "").lower()
        reset_level = fc.switch("\\s")
        key = ident if not reset_level or not reset_level.isdigit() else f"{ident}\0{reset_level}"
        cur = self._values.get(key, 0)
        reset = fc.switch("\\r")
        if reset is not None and reset.lstrip("-").isdigit():
            cur = int(reset)
        elif fc.switch("\\c") is None:
            cur += 1
        self._values[key] = cur
        return cur
