"""A moved section with empty lines (as code blocks have them), as LibreOffice sees it.

Found by the edit battery (rfc9420, "Move Section 12.1 after Section 12.2"): LibreOffice keeps an
empty paragraph whose only change is a ``w:moveFrom``/``w:moveTo`` mark through both Accept All
and Reject All, so every empty line of the moved text was shown twice. The writer marks such a
paragraph as deleted at the source and inserted at the destination (adapters/docx/moves.py).
"""
from __future__ import annotations

import pytest

from tests.adapters.docx.docxkit import make_docx, styles_xml
from tests.adapters.docx.writerkit import ed, write_edits
from tests.libreoffice import probe, require_libreoffice

pytestmark = pytest.mark.slow

_STYLES = styles_xml(
    '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>',
    '<w:style w:type="paragraph" w:styleId="SourceCode"><w:name w:val="Source Code"/></w:style>',
)


def _p(text: str, style: str | None = None) -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    run = f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>' if text else ""
    return f"<w:p>{ppr}{run}</w:p>"


_LINES = ["Proposals", "Each proposal is checked.", "struct {", "", "} Proposal;", "",
          "Commit", "A commit applies the proposals.", "Closing", "The end."]
_STYLE = {0: "Heading2", 2: "SourceCode", 3: "SourceCode", 4: "SourceCode", 5: "SourceCode", 6: "Heading2", 8: "Heading2"}


def test_a_moved_section_keeps_no_empty_line_twice(tmp_path):
    require_libreoffice()
    data = make_docx("".join(_p(t, _STYLE.get(i)) for i, t in enumerate(_LINES)), styles=_STYLES)

    def move(doc):
        first = next(u for u in doc.units if u.kind == "section" and u.text == "Proposals")
        closing = next(u for u in doc.units if u.kind == "section" and u.text == "Closing")
        return [ed("move", first.id, before_unit=closing.id)]  # after the next section

    w = write_edits(data, move)
    (tmp_path / "out.docx").write_bytes(w.out)
    got = probe([tmp_path / "out.docx"], ops=("accepted", "rejected"))[0]
    assert "error" not in got, got.get("error")
    assert got["rejected"] == _LINES
    assert got["accepted"] == _LINES[6:8] + _LINES[:6] + _LINES[8:]
