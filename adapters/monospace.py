"""What a document's own formatting says is code: a code style's name, a fixed-pitch font.

An editor marks identifiers (element and attribute names, options, property names, program
keywords) by a character style ("Element", "Code Char", "Verbatim Char", LibreOffice's
"Source Text") or by a monospace font set on the run or its style. Both readers ask these two
questions while they walk runs and spans, and record the character spans in ``Unit.meta["code"]``;
the backend's identifier layer (``addin_backend.language.identifiers``) reads them.

The font's pitch comes from its family's name where that is a known monospace family, else
from what the document declares (DOCX ``w:font/w:pitch``, its PANOSE proportion digit, ODF
``style:font-face/@style:font-pitch``).
A font is code only against the document's body font: in a document written wholly in Courier,
the font says nothing.
"""
from __future__ import annotations

import re

__all__ = ["CODE_STYLE", "code_style_name", "FontFace", "fixed_pitch"]

#: Style names of code, literal and preformatted text, paragraph or character styles, in the
#: names Word, LibreOffice, pandoc and editors give them ("HTML Preformatted", "Source Code",
#: "Verbatim Char", "Code Char", "HTML Typewriter", "Source Text", "Plain Text", "Listing").
CODE_STYLE = re.compile(
    r"(?<![a-z])(?i:code|source)|(?<=[a-z])(?:Code|Source)"  # "Code Char", "SourceCode", not "Barcode"
    r"|(?i:preformat|verbatim|listing|artwork|monospace|plain\s*text|html\s*pre|courier|typewriter|keyboard)"
)

#: Font families whose name says fixed pitch (used where the document declares no pitch).
_MONO_NAME = re.compile(
    r"(?i)mono\b|mono(?:space|type)|courier|consol|menlo|monaco|typewriter|fixedsys|lucida\s*console"
    r"|inconsolata|source\s*code|code\s*pro|fira\s*code|jetbrains|cascadia|\bocr[- ]?[ab]\b|letter\s*gothic"
    r"|\bcode\b|ubuntu\s*mono|\bhack\b|terminal"
)


def code_style_name(name: str | None) -> bool:
    """Whether a style's name says code (:data:`CODE_STYLE`).

    >>> [code_style_name(n) for n in ("Code Char", "Verbatim Char", "HTML Preformatted", "Resource List", "Heading 1")]
    [True, True, True, False, False]
    """
    return bool(name) and bool(CODE_STYLE.search(name or ""))


class FontFace:
    """A font as a document declares it: its family and, where declared, its pitch and PANOSE."""

    __slots__ = ("name", "pitch", "panose", "generic")

    def __init__(self, name: str, pitch: str | None = None, panose: str | None = None,
                 generic: str | None = None) -> None:
        self.name, self.pitch, self.panose, self.generic = name, pitch, panose, generic

    def fixed(self) -> bool:
        """Fixed pitch: a family known by its name to be monospace, else as declared
        (``fixed``/``variable``), else the PANOSE proportion digit (9: monospaced, for a Latin
        text face). The name comes first because converters copy pitches wrongly: LibreOffice
        declares the "Courier New" of a Word file ``style:font-pitch="variable"``."""
        if _MONO_NAME.search(self.name):
            return True
        if self.pitch in ("fixed", "variable"):
            return self.pitch == "fixed"
        p = (self.panose or "").strip()
        return len(p) == 20 and p[:2] == "02" and p[6:8] == "09"


def fixed_pitch(family: str | None, faces: "dict[str, FontFace] | None" = None) -> bool:
    """Whether the font ``family`` is fixed pitch, by its declaration in ``faces`` (the
    document's font table) or its name.

    >>> [fixed_pitch(f) for f in ("Courier New", "Consolas", "Liberation Mono", "Arial", "Calibri", None)]
    [True, True, True, False, False, False]
    >>> fixed_pitch("Corp Sans", {"Corp Sans": FontFace("Corp Sans", pitch="fixed")})
    True
    """
    if not family:
        return False
    name = family.strip().strip("'\"")
    face = faces.get(name) if faces else None
    return face.fixed() if face is not None else FontFace(name).fixed()
