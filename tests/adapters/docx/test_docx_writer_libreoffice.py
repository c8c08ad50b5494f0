"""Our tracked changes as a real LibreOffice sees them: the redlines, Accept All and Reject All.

Every case is written by ``adapters.docx.writer.write`` from edits the backend validated, then
one headless LibreOffice (tests/libreoffice.py) lists the redlines and gives the text after
Accept All and after Reject All (body paragraphs, text boxes, notes). For each case:

- the redlines by our author are exactly the intended changes (type, text), in order;
- the redlines of other authors are still there;
- LibreOffice's accept-all text is the intended edited text, its reject-all text the original;
- our own ``accept_all``/``reject_all`` give the text LibreOffice gives (the resolved files
  are opened by the same LibreOffice).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from adapters.docx.writer import accept_all, reject_all
from adapters.model import Document, Edit
from tests.adapters.docx.docxkit import make_docx, numbering_xml, styles_xml
from tests.adapters.docx.writerkit import AUTHOR, ed, write_edits
from tests.conftest import corpus_file
from tests.libreoffice import probe

pytestmark = pytest.mark.slow

_OPS = ("paragraphs", "redlines", "accepted", "rejected", "frames", "accepted_frames", "rejected_frames",
        "notes", "accepted_notes", "rejected_notes", "accepted_paragraphs", "rejected_paragraphs")
_ANN = 'w:author="Ann" w:date="2024-05-01T10:00:00Z"'


def _p(text: str, style: str | None = None, extra: str = "") -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/>{extra}</w:pPr>' if style or extra else ""
    return f'<w:p>{ppr}<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:p>'


_STYLES = styles_xml(
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>',
    '<w:style w:type="paragraph" w:styleId="Remark"><w:name w:val="Remark"/><w:pPr><w:ind w:left="720"/></w:pPr></w:style>',
    '<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/></w:style>',
)
_NUMBERING = numbering_xml({"1": [(0, "decimal", "%1.", 1)]}, {"7": "1"})
_LIST = '<w:numPr><w:ilvl w:val="0"/><w:numId w:val="7"/></w:numPr>'
_SETTINGS = '<w:zoom w:percent="100"/><w:defaultTabStop w:val="720"/>'
_FIELD = (
    '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> REF _Ref9 \\h </w:instrText></w:r>'
    '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Table 4</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
)
_TABLE = (
    '<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>'
    + "".join(
        f'<w:tr><w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>{_p(a)}</w:tc><w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>{_p(b)}</w:tc></w:tr>'
        for a, b in (("Item", "Price"), ("Apples", "3 euros"), ("Pears", "4 euros"))
    )
    + "</w:tbl>"
)
_BODY = (
    _p("Introduction", "Heading1")
    + _p("The quick brown fox jumps over the lazy dog.")
    + '<w:p><w:r><w:t xml:space="preserve">Plain start </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">bold middle</w:t></w:r>'
      '<w:r><w:rPr><w:i/></w:rPr><w:t xml:space="preserve"> italic end.</w:t></w:r></w:p>'
    + f'<w:p><w:r><w:t xml:space="preserve">As shown in </w:t></w:r>{_FIELD}<w:r><w:t xml:space="preserve">, prices rose.</w:t></w:r></w:p>'
    + _p("First item", "ListParagraph", _LIST)
    + _p("Second item", "ListParagraph", _LIST)
    + _p("Third item", "ListParagraph", _LIST)
    + _p("Prices", "Heading1")
    + '<w:p><w:bookmarkStart w:id="0" w:name="_Ref9"/><w:r><w:t>Table 4</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>'
    + _TABLE
    + _p("The committee approved the budget on Monday.")
    + _p("Summary", "Heading1")
    + _p("Closing words.")
)
_BASE_LINES = [
    "Introduction", "The quick brown fox jumps over the lazy dog.", "Plain start bold middle italic end.",
    "As shown in Table 4, prices rose.", "First item", "Second item", "Third item", "Prices", "Table 4",
    "Item", "Price", "Apples", "3 euros", "Pears", "4 euros", "The committee approved the budget on Monday.",
    "Summary", "Closing words.",
]


def _base() -> bytes:
    return make_docx(_BODY, styles=_STYLES, numbering=_NUMBERING, settings=_SETTINGS)


def _unit(doc: Document, text: str, kind: str | None = None):
    return next(u for u in doc.units if text in u.text and (kind is None or u.kind == kind))


def _rep(doc: Document, text: str, old: str, new: str, kind: str | None = None) -> Edit:
    u = _unit(doc, text, kind)
    i = u.text.index(old)
    return ed("replace", u.id, start=i, end=i + len(old), text=new)


@dataclass
class Case:
    data: Callable[[], bytes]
    make: Callable[[Document], list[Edit]]
    ours: list[tuple[str, str]]  # our redlines (type, text) in LibreOffice's order
    accepted: list[str] | None = None  # LO body text after Accept All (None: see the test)
    rejected: list[str] | None = None
    others: list[tuple[str, str, str]] = ()  # (type, author, text) of other authors after our write


def _swap(lines: list[str], **changes: str) -> list[str]:
    return [changes.get(line, line) for line in lines]


CASES: dict[str, Case] = {
    "replace_in_one_run": Case(
        _base, lambda d: [_rep(d, "quick brown", "quick", "slow")],
        [("Delete", "quick"), ("Insert", "slow")],
        _swap(_BASE_LINES, **{"The quick brown fox jumps over the lazy dog.": "The slow brown fox jumps over the lazy dog."}),
        _BASE_LINES,
    ),
    "replace_across_formatted_runs": Case(
        _base, lambda d: [_rep(d, "Plain start", "start bold middle italic", "opening strong centre slanted")],
        [("Delete", "start"), ("Insert", "opening"), ("Delete", "bold"), ("Insert", "strong"),
         ("Delete", "middle"), ("Insert", "centre"), ("Delete", "italic"), ("Insert", "slanted")],
        _swap(_BASE_LINES, **{"Plain start bold middle italic end.": "Plain opening strong centre slanted end."}),
        _BASE_LINES,
    ),
    "words_next_to_a_field": Case(
        _base, lambda d: [ed("set_text", _unit(d, "As shown").id, text="As seen in Table 4, all prices rose.")],
        [("Delete", "shown"), ("Insert", "seen"), ("Insert", "all ")],
        _swap(_BASE_LINES, **{"As shown in Table 4, prices rose.": "As seen in Table 4, all prices rose."}),
        _BASE_LINES,
    ),
    # the field and what its bookmark holds renumbered (Table 4 -> Table 3): LibreOffice imports a
    # REF field as one text field, so its change is the whole old field deleted, a new one inserted
    "renumbered_reference_field": Case(
        _base, lambda d: [_rep(d, "As shown", "4", "3"), ed("set_text", next(u for u in d.units if u.text == "Table 4").id, text="Table 3")],
        [("Delete", "Table 4"), ("Insert", "Table 3"), ("Delete", "4"), ("Insert", "3")],
        _swap(_BASE_LINES, **{"As shown in Table 4, prices rose.": "As shown in Table 3, prices rose.", "Table 4": "Table 3"}),
        _BASE_LINES,
    ),
    "set_text_rewrites_a_sentence": Case(
        _base, lambda d: [ed("set_text", _unit(d, "committee").id, text="The board approved the new budget on Friday.")],
        [("Delete", "committee"), ("Insert", "board"), ("Insert", "new "), ("Delete", "Monday"), ("Insert", "Friday")],
        _swap(_BASE_LINES, **{"The committee approved the budget on Monday.": "The board approved the new budget on Friday."}),
        _BASE_LINES,
    ),
    "insert_paragraphs_with_styles": Case(
        _base,
        lambda d: [ed("insert_after", _unit(d, "quick brown").id, text="A remark in its own style.", style="Remark"),
                   ed("insert_after", _unit(d, "Second item").id, text="Second and a half item"),
                   ed("insert_after", _unit(d, "Closing").id, text="A new last line.")],
        [("Insert", "A remark in its own style.\n"), ("Insert", "Second and a half item\n"), ("Insert", "\nA new last line.")],
        _BASE_LINES[:2] + ["A remark in its own style."] + _BASE_LINES[2:6] + ["Second and a half item"] + _BASE_LINES[6:] + ["A new last line."],
        _BASE_LINES,
    ),
    "delete_paragraphs": Case(
        _base,
        lambda d: [ed("delete", _unit(d, "quick brown").id), ed("delete", _unit(d, "Closing").id),
                   ed("delete", _unit(d, "Third item").id)],
        [("Delete", "The quick brown fox jumps over the lazy dog.\n"), ("Delete", "Third item\n"),
         ("Delete", "\nClosing words."), ("ParagraphFormat", "Closing words.")],
        [line for line in _BASE_LINES if line not in ("The quick brown fox jumps over the lazy dog.", "Third item", "Closing words.")],
        _BASE_LINES,
    ),
    "move_a_section": Case(
        _base, lambda d: [ed("move", _unit(d, "Summary", "section").id, before_unit=_unit(d, "Prices", "section").id)],
        # the source ends the document: its marks shift to the paragraphs above (see blockedit)
        [("Insert", "Summary\nClosing words.\n"), ("Delete", "\n"), ("Delete", "Summary"), ("Delete", "\n"),
         ("Delete", "Closing words.")],
        _BASE_LINES[:7] + _BASE_LINES[16:] + _BASE_LINES[7:16],
        _BASE_LINES,
    ),
    "move_a_table": Case(
        _base, lambda d: [ed("move", _unit(d, "Apples", "table").id, after=_unit(d, "committee").id)],
        [("Delete", c) for c in _BASE_LINES[9:15]] + [("Insert", c) for c in _BASE_LINES[9:15]],
        _BASE_LINES[:9] + _BASE_LINES[15:16] + _BASE_LINES[9:15] + _BASE_LINES[16:],
        _BASE_LINES,
    ),
    "table_cells": Case(
        _base, lambda d: [ed("set_text", _unit(d, "Apples", "table").id, text="Item\nPrice\nApples\n5 euros\nPlums\n4 euros")],
        [("Delete", "3"), ("Insert", "5"), ("Delete", "Pears"), ("Insert", "Plums")],
        _swap(_BASE_LINES, **{"3 euros": "5 euros", "Pears": "Plums"}),
        _BASE_LINES,
    ),
    "list_items": Case(
        _base, lambda d: [_rep(d, "First item", "First", "Opening"), ed("delete", _unit(d, "Second item").id)],
        [("Delete", "First"), ("Insert", "Opening"), ("Delete", "Second item\n")],
        [line for line in _swap(_BASE_LINES, **{"First item": "Opening item"}) if line != "Second item"],
        _BASE_LINES,
    ),
    "headings": Case(
        _base,
        lambda d: [_rep(d, "Introduction", "Introduction", "Overview"),
                   ed("insert_after", next(u.id for u in d.units if u.text == "Table 4"), text="Costs", kind="section", style="heading 1")],
        # before a table: the mark above, and a property change keeps that paragraph's style on reject
        [("Delete", "Introduction"), ("Insert", "Overview"), ("Insert", "\nCosts"), ("ParagraphFormat", "Costs")],
        ["Overview"] + _BASE_LINES[1:9] + ["Costs"] + _BASE_LINES[9:],
        _BASE_LINES,
    ),
    "next_to_another_authors_insertion": Case(
        lambda: corpus_file("track_changes_insertion.docx").read_bytes(),
        lambda d: [ed("set_text", d.units[0].id, text="This is a text with two thrilling additions.")],
        [("Delete", "exciting"), ("Insert", "thrilling"), ("Delete", "insertions"), ("Insert", "additions")],
        ["This is a text with two thrilling additions."],
        ["This is a text with insertions."],
        [("Insert", "eng-dept", "two "), ("Insert", "eng-dept", " ")],
    ),
    "next_to_another_authors_deletion": Case(
        lambda: corpus_file("track_changes_deletion.docx").read_bytes(),
        lambda d: [ed("set_text", d.units[0].id, text="That is a text with a removal.")],
        [("Delete", "This"), ("Insert", "That"), ("Delete", "deletion"), ("Insert", "removal")],
        ["That is a text with a removal."],
        ["This is a text with an excessively modified deletion."],
        [("Delete", "eng-dept", "n excessively modified")],
    ),
    "built_revisions_of_another_author": Case(
        lambda: make_docx(
            '<w:p><w:r><w:t xml:space="preserve">Hello </w:t></w:r>'
            f'<w:ins w:id="1" {_ANN}><w:r><w:t xml:space="preserve">big red </w:t></w:r></w:ins>'
            f'<w:r><w:t xml:space="preserve">world, </w:t></w:r><w:del w:id="2" {_ANN}><w:r><w:delText xml:space="preserve">old </w:delText></w:r></w:del>'
            '<w:r><w:t>friend.</w:t></w:r></w:p>', settings=_SETTINGS),
        lambda d: [ed("set_text", d.units[0].id, text="Hello big blue world, dear friend.")],
        [("Delete", "red"), ("Insert", "blue"), ("Insert", "dear ")],
        ["Hello big blue world, dear friend."],
        ["Hello world, old friend."],
        [("Insert", "Ann", "big "), ("Insert", "Ann", " "), ("Delete", "Ann", "old ")],
    ),
    # the last paragraph mark cannot come or go: the marks shift up, and a tracked property
    # change keeps the styles of the paragraph above (see blockedit.mark_paragraph_groups)
    "delete_the_last_paragraph": Case(
        _base, lambda d: [ed("delete", _unit(d, "Closing").id)],
        [("Delete", "\nClosing words."), ("ParagraphFormat", "Closing words.")],
        _BASE_LINES[:-1],
        _BASE_LINES,
    ),
    "insert_a_last_heading": Case(
        _base, lambda d: [ed("insert_after", _unit(d, "Closing").id, text="Appendix", kind="section", style="heading 1")],
        [("Insert", "\nAppendix"), ("ParagraphFormat", "Appendix")],
        _BASE_LINES + ["Appendix"],
        _BASE_LINES,
    ),
    "footnotes_and_endnotes": Case(
        lambda: corpus_file("notes.docx").read_bytes(),
        lambda d: [_rep(d, "My note", "note", "remark", "footnote"), _rep(d, "endnote at", "end of", "close of", "endnote"),
                   _rep(d, "Test footnote", "Test", "Check")],
        [("Delete", "note"), ("Insert", "remark"), ("Delete", "end"), ("Insert", "close"), ("Delete", "Test"), ("Insert", "Check")],
    ),
    "text_boxes": Case(
        lambda: corpus_file("text_in_shape_format.docx").read_bytes(),
        lambda d: [_rep(d, "Valter", "Valter", "Walter"), ed("delete", _unit(d, "Institute").id)],
        [("Delete", "Valter"), ("Insert", "Walter"), ("Delete", "\nInstitute of Physics, University of Tartu")],
    ),
    "hyperlinks_and_smart_tags": Case(
        lambda: corpus_file("nested_smart_tags.docx").read_bytes(),
        lambda d: [ed("set_text", _unit(d, "I heard").id, text="We heard"), _rep(d, "And it came to pass", "course", "middle")],
        [("Delete", "I"), ("Insert", "We"), ("Delete", "course"), ("Insert", "middle")],
    ),
}


@pytest.fixture(scope="module")
def office(tmp_path_factory):
    folder: Path = tmp_path_factory.mktemp("writer-lo")
    written, files, resolved = {}, [], []
    for name, case in CASES.items():
        w = write_edits(case.data(), case.make)
        written[name] = w
        for suffix, payload in (("out", w.out), ("in", w.data), ("acc", accept_all(w.out)), ("rej", reject_all(w.out))):
            path = folder / f"{name}.{suffix}.docx"
            path.write_bytes(payload)
            (files if suffix == "out" else resolved).append(str(path))
    seen = {Path(r["file"]).name: r for r in probe(files, _OPS)}
    seen.update({Path(r["file"]).name: r for r in probe(resolved, ("paragraphs", "redlines", "rejected", "frames", "notes"))})
    return written, seen


@pytest.mark.parametrize("name", list(CASES))
def test_libreoffice_sees_the_intended_changes(office, name):
    written, seen = office
    case, w = CASES[name], written[name]
    out, before = seen[f"{name}.out.docx"], seen[f"{name}.in.docx"]
    assert "error" not in out, out.get("error")
    mine = [(r["type"], r["text"]) for r in out["redlines"] if r["author"] == AUTHOR]
    assert mine == case.ours
    assert all(r["date"] == "2026-11-30T12:00:00" for r in out["redlines"] if r["author"] == AUTHOR)
    others = [(r["type"], r["author"], r["text"]) for r in out["redlines"] if r["author"] != AUTHOR]
    assert others == list(case.others)
    if case.accepted is not None:
        assert out["accepted"] == case.accepted == w.expected
        assert out["rejected"] == case.rejected == w.original
    # reject-all gives back what LibreOffice shows of the input with its own changes rejected
    assert out["rejected"] == before["rejected"]
    if not before["redlines"]:
        assert out["rejected_frames"] == before["frames"]
        assert out["rejected_notes"] == before["notes"]


@pytest.mark.parametrize("name", list(CASES))
def test_our_accept_and_reject_all_agree_with_libreoffice(office, name):
    _written, seen = office
    out, acc, rej = seen[f"{name}.out.docx"], seen[f"{name}.acc.docx"], seen[f"{name}.rej.docx"]
    assert acc["redlines"] == [] and rej["redlines"] == []
    assert out["accepted"] == [p["text"] for p in acc["paragraphs"]]
    assert out["rejected"] == [p["text"] for p in rej["paragraphs"]]
    assert out["accepted_frames"] == acc["frames"] and out["rejected_frames"] == rej["frames"]
    assert out["accepted_notes"] == acc["notes"] and out["rejected_notes"] == rej["notes"]


def test_notes_text_boxes_and_styles_as_libreoffice_shows_them(office):
    _written, seen = office
    notes = seen["footnotes_and_endnotes.out.docx"]
    assert notes["accepted_notes"] == [" My remark.", " This is an endnote at the close of the document."]
    assert notes["rejected_notes"] == [" My note.", " This is an endnote at the end of the document."]
    assert notes["accepted"][2] == "Check footnote.1 Test endnote.i"
    boxes = seen["text_boxes.out.docx"]
    assert ["Using Microsoft Word 2007/2010\nfor Writing Technical Documents", "Walter Kiisk"] in boxes["accepted_frames"]
    assert ["Using Microsoft Word 2007/2010\nfor Writing Technical Documents", "Valter Kiisk",
            "Institute of Physics, University of Tartu"] in boxes["rejected_frames"]
    styled = {p["text"]: p for p in seen["insert_paragraphs_with_styles.out.docx"]["paragraphs"]}
    assert styled["A remark in its own style."]["style"] == "Remark"
    assert styled["Second and a half item"]["label"] == "3."  # a list item: numbered like its neighbours
    assert styled["Third item"]["label"] == "4."
    for name, accepted in (("delete_the_last_paragraph", [("Summary", "Heading 1")]),
                           ("insert_a_last_heading", [("Summary", "Heading 1"), ("Closing words.", "Standard"), ("Appendix", "Heading 1")])):
        end = seen[f"{name}.out.docx"]
        assert [(p["text"], p["style"]) for p in end["accepted_paragraphs"]][-len(accepted):] == accepted
        assert [(p["text"], p["style"]) for p in end["rejected_paragraphs"]][-2:] == [("Summary", "Heading 1"), ("Closing words.", "Standard")]
        ours = seen[f"{name}.acc.docx"]["paragraphs"]
        assert [(p["text"], p["style"]) for p in ours] == [(p["text"], p["style"]) for p in end["accepted_paragraphs"]]
    heading = {p["text"]: p for p in seen["headings.out.docx"]["paragraphs"]}
    assert heading["Costs"]["outline"] == 1
    smart = seen["hyperlinks_and_smart_tags.out.docx"]
    assert smart["accepted"][1] == "We heard" and smart["rejected"][1] == "I heard"
