"""Heading numbers typed in the heading's text are the heading's number, in both formats."""
from __future__ import annotations

from pathlib import Path

import pytest

from adapters import read
from adapters.model import Unit
from adapters.typed_numbers import apply_typed_numbers, typed_section

from .docx.docxkit import make_docx, styles_xml
from .odt.odt_build import h, odt, p

WILD = Path("/work/shared/devset/wild")


def _heading_styles() -> str:
    return styles_xml(*(
        f'<w:style w:type="paragraph" w:styleId="Heading{n}"><w:name w:val="heading {n}"/>'
        f'<w:pPr><w:outlineLvl w:val="{n - 1}"/></w:pPr></w:style>' for n in (1, 2, 3)
    ))


def _hp(text: str, level: int) -> str:
    return f'<w:p><w:pPr><w:pStyle w:val="Heading{level}"/></w:pPr><w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


def _sections(doc):
    return [(u.number, u.label, u.title) for u in doc.units if u.kind == "section"]


def test_docx_typed_heading_numbers_are_numbers():
    body = "".join([
        _hp("1 Introduction", 1), "<w:p><w:r><w:t>Text.</w:t></w:r></w:p>",
        _hp("1.1 Terminology", 2), _hp("1.1.1 Keywords", 3), _hp("2 Packets", 1),
        _hp("Appendix A. Acknowledgments", 1), _hp("A.1 People", 2), _hp("Revision History", 1),
    ])
    doc = read(make_docx(body, styles=_heading_styles()))
    assert _sections(doc) == [
        ("1", "Section 1", "Introduction"), ("1.1", "Section 1.1", "Terminology"),
        ("1.1.1", "Section 1.1.1", "Keywords"), ("2", "Section 2", "Packets"),
        ("A", "Appendix A", "Acknowledgments"), ("A.1", "Section A.1", "People"),
        (None, None, "Revision History"),
    ]
    # the text keeps the number as the reader sees it
    assert doc.units[0].text == "1 Introduction"


def test_odt_typed_heading_numbers_are_numbers():
    body = h("1 Introduction", 1) + p("Text.") + h("1.1 Terminology", 2) + h("Appendix B. Statements", 1)
    doc = read(odt(body))
    assert _sections(doc) == [("1", "Section 1", "Introduction"), ("1.1", "Section 1.1", "Terminology"),
                              ("B", "Appendix B", "Statements")]


def test_a_title_that_opens_with_a_number_is_no_numbering():
    # STIX writes its headings unnumbered; "X.509 Certificate Object" and a stray "9.2 Constants"
    # are titles, not the document's numbering
    body = "".join([_hp("Introduction", 1), _hp("X.509 Certificate Object", 2), _hp("Overview", 2),
                    _hp("9.2 Constants", 2), _hp("Patterning", 1)])
    doc = read(make_docx(body, styles=_heading_styles()))
    assert [n for n, _l, _t in _sections(doc)] == [None] * 5


def test_a_number_of_another_depth_or_branch_is_no_heading_number():
    assert typed_section("128 Bits", 3) is None
    units = [Unit("a", "section", "3 Packets", 0, level=1), Unit("b", "section", "4.2 Misplaced", 1, level=2),
             Unit("c", "section", "3.1 Header", 2, level=2)]
    assert apply_typed_numbers(units) == 2
    assert [u.number for u in units] == ["3", None, "3.1"]


@pytest.mark.slow
def test_mqtt_sn_headings_carry_their_typed_numbers():
    path = WILD / "mqtt-sn-2.0-wd-2025-10-23.docx"
    if not path.exists():
        pytest.skip("the wild development set is not here")
    doc = read(path.read_bytes())
    sections = [u for u in doc.units if u.kind == "section"]
    assert len(sections) > 300
    assert all(u.number and u.text.lstrip().startswith(("Appendix " + u.number, u.number)) for u in sections)
    topic_alias = [u for u in sections if u.title == "Topic Alias"]
    assert topic_alias and all(u.label == f"Section {u.number}" for u in topic_alias)
