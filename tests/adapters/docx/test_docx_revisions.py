"""Existing tracked changes: accepted text, rejected text, paragraph marks, the revision list."""
from __future__ import annotations

import shutil
import subprocess

from adapters import read_path
from tests.adapters.docx.docxkit import read_body
from tests.conftest import corpus_file

_A = 'w:author="Ann" w:date="2024-05-01T10:00:00Z"'


def _read(name: str):
    return read_path(str(corpus_file(name)))


def test_insertion_and_deletion_files():
    doc = _read("track_changes_insertion.docx")
    assert doc.lines("accepted") == ["This is a text with two exciting insertions."]
    assert doc.lines("rejected") == ["This is a text with insertions."]
    assert [(r.id, r.kind, r.author, r.date, r.text) for r in doc.revisions] == [
        ("0", "insertion", "eng-dept", "2014-06-25T10:40:00Z", "two exciting ")
    ]
    assert doc.revisions[0].unit == doc.units[0].id
    doc = _read("track_changes_deletion.docx")
    assert doc.lines("accepted") == ["This is a text with a deletion."]
    assert doc.lines("rejected") == ["This is a text with an excessively modified deletion."]
    assert [(r.kind, r.text) for r in doc.revisions] == [("deletion", "n excessively modified")]


def test_move_from_and_move_to():
    doc = _read("track_changes_move.docx")
    moved = "Here is the text to be moved."
    assert doc.lines("accepted") == ["Here is some text.", "", moved, "", "Here is some more text.", "", "", "", ""]
    assert doc.lines("rejected") == ["Here is some text.", "", "", "", "Here is some more text.", "", moved, "", ""]
    assert sorted((r.kind, r.text) for r in doc.revisions) == [("move_from", moved), ("move_to", moved)]
    assert all(r.date == "2016-04-16T08:20:00Z" for r in doc.revisions)


def test_paragraph_marks_inserted_and_deleted_merge_paragraphs_per_view():
    doc = _read("paragraph_insertion_deletion.docx")
    assert doc.lines("accepted") == ["This is a", " splitParagraph."]
    assert doc.lines("rejected") == ["This is a split", "Paragraph."]
    (unit,) = doc.units
    assert unit.anchor.path == "0-2"
    assert [r.kind for r in doc.revisions] == ["paragraph_insertion", "paragraph_deletion"]
    assert {r.author for r in doc.revisions} == {"Seeley, Jason"}


def test_scrubbed_metadata_matches_pandoc_accept_and_reject():
    path = corpus_file("track_changes_scrubbed_metadata.docx")
    doc = read_path(str(path))
    assert doc.lines("accepted") == ["Here is a test document."]
    assert doc.lines("rejected") == ["Here is a dummy document."]
    assert [(r.kind, r.text, r.author, r.date) for r in doc.revisions] == [
        ("deletion", "dummy", "Author", None),
        ("insertion", "test", "Author", None),
    ]
    if shutil.which("pandoc"):  # a second, independent reader of the same file
        for mode, expected in (("accept", doc.lines("accepted")), ("reject", doc.lines("rejected"))):
            out = subprocess.run(
                ["pandoc", f"--track-changes={mode}", "-t", "plain", "--wrap=none", str(path)],
                capture_output=True, text=True, check=True,
            ).stdout
            assert [line for line in out.splitlines() if line] == expected


def test_whole_paragraphs_inserted_and_deleted_exist_in_one_view_only():
    body = (
        '<w:p><w:r><w:t>kept</w:t></w:r></w:p>'
        f'<w:p><w:pPr><w:rPr><w:ins w:id="1" {_A}/></w:rPr></w:pPr><w:ins w:id="2" {_A}><w:r><w:t>new paragraph</w:t></w:r></w:ins></w:p>'
        f'<w:p><w:pPr><w:rPr><w:del w:id="3" {_A}/></w:rPr></w:pPr><w:del w:id="4" {_A}><w:r><w:delText>old paragraph</w:delText></w:r></w:del></w:p>'
        '<w:p><w:r><w:t>end</w:t></w:r></w:p>'
    )
    doc = read_body(body)
    assert [(u.text, u.rejected_text, u.meta.get("absent_in")) for u in doc.units] == [
        ("kept", None, None),
        ("new paragraph", "", "rejected"),
        ("", "old paragraph", "accepted"),
        ("end", None, None),
    ]
    assert doc.lines("accepted") == ["kept", "new paragraph", "end"]
    assert doc.lines("rejected") == ["kept", "old paragraph", "end"]
    assert [(r.id, r.kind) for r in doc.revisions] == [
        ("2", "insertion"),
        ("1", "paragraph_insertion"),
        ("4", "deletion"),
        ("3", "paragraph_deletion"),
    ]
    assert doc.revisions[0].unit == doc.units[1].id and doc.revisions[0].date == "2024-05-01T10:00:00Z"


def test_format_changes_nested_changes_and_deleted_fields():
    body = (
        f'<w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="9" {_A}><w:pPr/></w:pPrChange></w:pPr>'
        f'<w:r><w:rPr><w:b/><w:rPrChange w:id="8" {_A}><w:rPr/></w:rPrChange></w:rPr><w:t>bold</w:t></w:r>'
        f'<w:ins w:id="7" {_A}><w:del w:id="6" w:author="Bob"><w:r><w:delText>typo</w:delText></w:r></w:del></w:ins>'
        f'<w:del w:id="5" {_A}><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:delInstrText> PAGE </w:delInstrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:delText>4</w:delText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:del>'
        '</w:p>'
    )
    (u,) = read_body(body).units
    # text inserted by Ann then deleted by Bob exists in neither view
    assert (u.text, u.rejected_text) == ("bold", "bold4")
    doc = read_body(body)
    kinds = sorted(r.kind for r in doc.revisions)
    assert kinds == ["deletion", "deletion", "format_change", "insertion", "paragraph_format_change"]
    fmt = next(r for r in doc.revisions if r.kind == "format_change")
    assert (fmt.id, fmt.text) == ("8", "bold")


def test_tracked_changes_inside_tables_rows_and_notes():
    row = '<w:tr>{pr}<w:tc><w:p><w:r><w:t>{a}</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>{b}</w:t></w:r></w:p></w:tc></w:tr>'
    body = (
        "<w:tbl>"
        + row.format(pr="", a="h1", b="h2")
        + row.format(pr=f'<w:trPr><w:ins w:id="1" {_A}/></w:trPr>', a="new1", b="new2")
        + row.format(pr=f'<w:trPr><w:del w:id="2" {_A}/></w:trPr>', a="old1", b="old2")
        + f'<w:tr><w:tc><w:p><w:r><w:t xml:space="preserve">cell </w:t></w:r><w:ins w:id="3" {_A}><w:r><w:t>added</w:t></w:r></w:ins></w:p></w:tc>'
        + '<w:tc><w:p/></w:tc></w:tr></w:tbl>'
        + '<w:p><w:r><w:t>See note</w:t></w:r><w:r><w:footnoteReference w:id="2"/></w:r></w:p>'
    )
    footnotes = (
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        f'<w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> A </w:t></w:r>'
        f'<w:del w:id="4" {_A}><w:r><w:delText>wrong</w:delText></w:r></w:del><w:ins w:id="5" {_A}><w:r><w:t>right</w:t></w:r></w:ins>'
        "<w:r><w:t xml:space=\"preserve\"> note.</w:t></w:r></w:p></w:footnote>"
    )
    doc = read_body(body, footnotes=footnotes)
    table, para, note = doc.units
    assert table.text == "h1\nh2\nnew1\nnew2\ncell added\n"
    assert table.rejected_text == "h1\nh2\nold1\nold2\ncell \n"
    assert table.meta["cells"] == [["h1", "h2"], ["new1", "new2"], ["cell added", ""]]
    assert (para.text, note.text, note.rejected_text) == ("See note1", " A right note.", " A wrong note.")
    by_unit = [(r.kind, r.unit) for r in doc.revisions]
    assert ("insertion", note.id) in by_unit and ("deletion", note.id) in by_unit
    assert sum(1 for k, u in by_unit if u == table.id) == 3
