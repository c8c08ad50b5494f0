"""Paragraphs deleted up to a table that is deleted too: the mark before the table cannot merge
forward, so the writer keeps the last deleted paragraph's mark and deletes the marks above it
(Word joins the text above into that mark). The output's accepted view, read directly, has no
empty line where the deleted paragraphs were; LibreOffice's Accept All agrees."""
from __future__ import annotations

import pytest

from adapters import read
from tests.adapters.docx.docxkit import make_docx, styles_xml
from tests.adapters.docx.writerkit import ed, write_edits
from tests.libreoffice import probe


def _p(text: str, style: str | None = None) -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f'<w:p>{ppr}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


_TABLE = (
    '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>'
    + "".join(f'<w:tr><w:tc>{_p(a)}</w:tc><w:tc>{_p(b)}</w:tc></w:tr>' for a, b in (("Time", "Event"), ("t=0", "sent")))
    + "</w:tbl>"
)
_STYLES = styles_xml('<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/>'
                     '<w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>')
_DOC = make_docx(
    _p("Probe Timeout", "Heading2") + _p("Probe packets MUST NOT be blocked.")
    + _p("Persistent Congestion", "Heading2") + _p("Consider the following sequence of events:") + _TABLE
    + _p("Pacing", "Heading2") + _p("A sender SHOULD pace sending."),
    styles=_STYLES,
)
_DOOMED = ("Persistent Congestion", "Consider the following sequence of events:", "Time")


def _written():
    return write_edits(_DOC, lambda doc: [ed("delete", u.id) for u in doc.units if u.text.startswith(_DOOMED)])


def test_the_output_reads_as_the_edited_text():
    w = _written()
    assert w.expected == ["Probe Timeout", "Probe packets MUST NOT be blocked.", "Pacing", "A sender SHOULD pace sending."]
    assert read(w.out).lines() == w.expected  # the writer's own read-back check sees it so
    assert read(w.out).lines("rejected") == w.original


@pytest.mark.slow
def test_libreoffice_accepts_to_the_edited_text(tmp_path):
    w = _written()
    path = tmp_path / "deleted-before-table.docx"
    path.write_bytes(w.out)
    (got,) = probe([path], ("accepted", "rejected"))
    assert [t for t in got["accepted"] if t] == w.expected
    assert [t for t in got["rejected"] if t] == w.original
