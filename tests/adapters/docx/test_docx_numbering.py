"""Rendered list and heading numbers: Word's counters over numbering.xml, on real and inline packages."""
from __future__ import annotations

import pytest

from adapters import read_path
from adapters.docx.numbering import format_number
from tests.adapters.docx.docxkit import numbering_xml, read_body, styles_xml
from tests.conftest import corpus_file


def _p(text: str, num: str | None = None, ilvl: int | None = None, style: str | None = None) -> str:
    ppr = ""
    if style:
        ppr += f'<w:pStyle w:val="{style}"/>'
    if num is not None or ilvl is not None:
        ppr += "<w:numPr>"
        if ilvl is not None:
            ppr += f'<w:ilvl w:val="{ilvl}"/>'
        if num is not None:
            ppr += f'<w:numId w:val="{num}"/>'
        ppr += "</w:numPr>"
    return f"<w:p><w:pPr>{ppr}</w:pPr><w:r><w:t>{text}</w:t></w:r></w:p>"


def _labels(doc) -> list[str | None]:
    return [u.meta.get("list_label") for u in doc.units]


THREE_LEVELS = {"1": [(0, "decimal", "%1.", 1), (1, "lowerLetter", "%2)", 1), (2, "lowerRoman", "(%3)", 1)]}


@pytest.mark.parametrize(
    "fmt,values,expected",
    [
        ("decimal", (1, 10), ["1", "10"]),
        ("lowerLetter", (1, 26, 27), ["a", "z", "aa"]),
        ("upperLetter", (3, 28), ["C", "BB"]),
        ("lowerRoman", (4, 9, 14, 1990), ["iv", "ix", "xiv", "mcmxc"]),
        ("upperRoman", (49,), ["XLIX"]),
        ("decimalZero", (7, 12), ["07", "12"]),
        ("ordinal", (1, 2, 3, 11, 22), ["1st", "2nd", "3rd", "11th", "22nd"]),
        ("cardinalText", (21,), ["Twenty-one"]),
        ("ordinalText", (12, 20), ["Twelfth", "Twentieth"]),
        ("none", (5,), [""]),
        ("bullet", (5,), [""]),
    ],
)
def test_number_formats(fmt, values, expected):
    assert [format_number(v, fmt) for v in values] == expected


def test_levels_count_and_deeper_levels_restart():
    body = "".join(
        [_p("a", "1", 0), _p("b", "1", 1), _p("c", "1", 1), _p("d", "1", 2), _p("e", "1", 0), _p("f", "1", 1), _p("g", "1", 2)]
    )
    doc = read_body(body, numbering=numbering_xml(THREE_LEVELS, {"1": "1"}))
    assert _labels(doc) == ["1.", "a)", "b)", "(i)", "2.", "a)", "(i)"]
    assert [u.kind for u in doc.units] == ["list_item"] * 7
    assert [u.level for u in doc.units] == [1, 2, 2, 3, 1, 2, 3]
    assert doc.units[1].label == "a)" and doc.units[1].number == "a)"


def test_nums_sharing_an_abstract_definition_continue_one_counter_until_a_start_override():
    override = '<w:num w:numId="3"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>'
    body = _p("a", "1", 0) + _p("b", "1", 0) + _p("c", "2", 0) + _p("d", "3", 0) + _p("e", "3", 0) + _p("f", "2", 0)
    doc = read_body(body, numbering=numbering_xml(THREE_LEVELS, {"1": "1", "2": "1"}, override))
    # numId 2 continues numId 1 (same w:abstractNum); numId 3 restarts at its startOverride
    assert _labels(doc) == ["1.", "2.", "3.", "1.", "2.", "3."]


def test_start_values_lvl_restart_zero_and_is_lgl():
    levels = (
        '<w:abstractNum w:abstractNumId="7">'
        '<w:lvl w:ilvl="0"><w:start w:val="4"/><w:numFmt w:val="upperRoman"/><w:lvlText w:val="Part %1"/></w:lvl>'
        '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlRestart w:val="0"/><w:lvlText w:val="%2."/></w:lvl>'
        '<w:lvl w:ilvl="2"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:isLgl/><w:lvlText w:val="%1.%2.%3"/></w:lvl>'
        "</w:abstractNum>"
        '<w:num w:numId="9"><w:abstractNumId w:val="7"/></w:num>'
    )
    body = _p("a", "9", 0) + _p("b", "9", 1) + _p("c", "9", 2) + _p("d", "9", 0) + _p("e", "9", 1) + _p("f", "9", 2)
    doc = read_body(body, numbering=levels)
    # level 1 never restarts (lvlRestart 0); isLgl shows every level's number in decimal
    assert _labels(doc) == ["Part IV", "1.", "4.1.1", "Part V", "2.", "5.2.1"]


def test_lvl_override_replaces_a_level_definition():
    extra = (
        '<w:num w:numId="5"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0">'
        '<w:lvl w:ilvl="0"><w:start w:val="3"/><w:numFmt w:val="upperLetter"/><w:lvlText w:val="%1:"/></w:lvl>'
        "</w:lvlOverride></w:num>"
    )
    doc = read_body(_p("x", "5", 0) + _p("y", "5", 0), numbering=numbering_xml(THREE_LEVELS, {}, extra))
    assert _labels(doc) == ["C:", "D:"]


def test_symbol_font_bullets_and_numbering_switched_off():
    bullets = {"2": [(0, "bullet", "\uf0b7", 1)]}
    body = _p("dot", "4", 0) + _p("off", "0", 0) + _p("plain")
    doc = read_body(body, numbering=numbering_xml(bullets, {"4": "2"}))
    assert [(u.kind, u.label) for u in doc.units] == [("list_item", "\u2022"), ("paragraph", None), ("paragraph", None)]


def test_heading_numbers_come_through_the_style_chain_and_level_pstyle():
    styles = styles_xml(
        '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>'
        '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="0"/></w:pPr></w:style>',
        '<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/>'
        '<w:pPr><w:numPr><w:numId w:val="1"/></w:numPr><w:outlineLvl w:val="1"/></w:pPr></w:style>',
        # a custom heading: no numPr, no outlineLvl of its own, based on Heading2
        '<w:style w:type="paragraph" w:styleId="MyHead"><w:name w:val="My Head"/><w:basedOn w:val="Heading2"/></w:style>',
    )
    numbering = (
        '<w:abstractNum w:abstractNumId="0">'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading1"/><w:lvlText w:val="%1"/></w:lvl>'
        '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading2"/><w:lvlText w:val="%1.%2"/></w:lvl>'
        "</w:abstractNum>"
        '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
    )
    body = _p("Intro", style="Heading1") + _p("Scope", style="Heading2") + _p("Text") + _p("Custom", style="MyHead") + _p("Next", style="Heading1")
    doc = read_body(body, styles=styles, numbering=numbering)
    heads = [(u.kind, u.title, u.number, u.label, u.level) for u in doc.units if u.kind == "section"]
    assert heads == [
        ("section", "Intro", "1", "Section 1", 1),
        ("section", "Scope", "1.1", "Section 1.1", 2),
        ("section", "Custom", "1.2", "Section 1.2", 2),
        ("section", "Next", "2", "Section 2", 1),
    ]
    by_title = {u.text: u for u in doc.units}
    assert by_title["Scope"].parent == by_title["Intro"].id
    assert by_title["Text"].parent == by_title["Scope"].id
    assert by_title["Custom"].parent == by_title["Intro"].id


def test_corpus_example_numbering_shows_the_expected_labels():
    doc = read_path(str(corpus_file("example_numbering.docx")))
    items = [u for u in doc.units if u.kind == "list_item"]
    # the file says what each item should show ("expect II", ...)
    assert [u.label for u in items] == ["II.", "C.", "D.", "4.", "e.", "f.", "6)", "f)", "(viii)", "(ix)"]
    for u in items:
        assert u.text == "expect " + u.label.strip(".()")


def test_corpus_enumerated_headings_nest_and_number():
    doc = read_path(str(corpus_file("enumerated_headings.docx")))
    secs = [(u.title, u.label, u.level) for u in doc.units if u.kind == "section"]
    assert secs == [("H1", "Section 1", 1), ("H2", "Section 1.1", 2), ("H3", "Section 1.1.1", 3)]
    text = next(u for u in doc.units if u.text == "And some text")
    assert doc.unit(text.parent).title == "H3"
    assert doc.unit(doc.unit(text.parent).parent).title == "H2"


def test_corpus_lists_restart_and_sublists():
    doc = read_path(str(corpus_file("lists.docx")))
    assert [(u.text, u.label) for u in doc.units if u.kind == "list_item"][:4] == [
        ("one", "1."),
        ("two", "2."),
        ("a", "a."),
        ("b", "b."),
    ]
    doc = read_path(str(corpus_file("example.docx")))
    table = next(u for u in doc.units if u.kind == "table")
    assert table.text.startswith("expect I\nexpect A\nexpect B")


@pytest.mark.parametrize("variant", ["A.docx", "B.docx", "A.lo.docx", "B.lo.docx"])
def test_devset_heading_numbers_equal_the_rendered_ones(variant):
    """Every heading of the five standards, as Word wrote them and as LibreOffice wrote them
    back: the label Word and LibreOffice show ("4.2.", "Appendix A.", none for "Abstract")
    and the number references cite ("4.2", "A", "B.1")."""
    from tests.adapters.devset_headings import NAMES, heading_mismatches

    for name in NAMES:
        count, bad = heading_mismatches(name, variant)
        assert count > 50 and bad == [], (name, bad[:5])
