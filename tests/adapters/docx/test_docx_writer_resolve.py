"""Accept-all and reject-all of a .docx: the reader's two views made permanent, nothing else touched."""
from __future__ import annotations

import pytest

from adapters import read
from adapters.docx.oxml import qn
from adapters.docx.resolve import resolve_tree
from adapters.docx.writer import accept_all, reject_all
from adapters.errors import AdapterError
from tests.adapters.docx.docxkit import make_docx
from tests.adapters.docx.writerkit import part_xml, untouched_members_identical
from tests.conftest import corpus_file, corpus_files

_A = 'w:author="Ann" w:date="2024-05-01T10:00:00Z"'
_REVISION_TAGS = {qn("w:" + t) for t in ("ins", "del", "moveFrom", "moveTo", "rPrChange", "pPrChange", "moveFromRangeStart", "moveToRangeStart")}


def _no_revisions(data: bytes, part: str = "word/document.xml") -> bool:
    return not any(el.tag in _REVISION_TAGS for el in part_xml(data, part).iter())


@pytest.mark.parametrize("name", [
    "track_changes_insertion.docx", "track_changes_deletion.docx", "track_changes_move.docx",
    "paragraph_insertion_deletion.docx", "track_changes_scrubbed_metadata.docx",
])
def test_corpus_revisions_resolve_to_the_readers_views(name):
    data = corpus_file(name).read_bytes()
    doc = read(data)
    acc, rej = accept_all(data), reject_all(data)
    assert read(acc).lines() == doc.lines("accepted")
    assert read(rej).lines() == doc.lines("rejected")
    assert read(acc).revisions == [] and read(rej).revisions == []
    assert _no_revisions(acc) and _no_revisions(rej)
    untouched_members_identical(data, acc, {"word/document.xml"})


def test_every_corpus_document_resolves_without_error_and_keeps_its_text():
    checked = 0
    for path in corpus_files(".docx"):
        data = path.read_bytes()
        doc = read(data)
        assert read(accept_all(data)).lines() == doc.lines("accepted"), path.name
        assert read(reject_all(data)).lines() == doc.lines("rejected"), path.name
        checked += 1
    assert checked >= 120


def test_a_document_without_revisions_comes_back_as_the_same_bytes():
    data = make_docx('<w:p><w:r><w:t>Plain.</w:t></w:r></w:p>')
    assert accept_all(data) == data and reject_all(data) == data


def test_formatting_changes_are_dropped_on_accept_and_restored_on_reject():
    body = (f'<w:p><w:pPr><w:jc w:val="center"/><w:pPrChange w:id="1" {_A}><w:pPr><w:jc w:val="left"/></w:pPr></w:pPrChange></w:pPr>'
            f'<w:r><w:rPr><w:b/><w:rPrChange w:id="2" {_A}><w:rPr><w:i/></w:rPr></w:rPrChange></w:rPr><w:t>Styled</w:t></w:r></w:p>')
    data = make_docx(body)
    acc, rej = part_xml(accept_all(data), "word/document.xml"), part_xml(reject_all(data), "word/document.xml")
    jc, b, i = qn("w:jc"), qn("w:b"), qn("w:i")
    assert acc.find(f".//{jc}").get(qn("w:val")) == "center" and acc.find(f".//{b}") is not None
    assert acc.find(f".//{qn('w:rPrChange')}") is None and acc.find(f".//{qn('w:pPrChange')}") is None
    assert rej.find(f".//{jc}").get(qn("w:val")) == "left"
    assert rej.find(f".//{b}") is None and rej.find(f".//{i}") is not None


def test_inserted_and_deleted_rows_come_and_go():
    def row(text, mark=""):
        return f'<w:tr>{f"<w:trPr>{mark}</w:trPr>" if mark else ""}<w:tc><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:tc></w:tr>'

    table = ('<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="100"/></w:tblGrid>'
             + row("kept") + row("new", f'<w:ins w:id="1" {_A}/>') + row("old", f'<w:del w:id="2" {_A}/>') + '</w:tbl>')
    data = make_docx(table + '<w:p/>')
    assert read(accept_all(data)).lines() == ["kept", "new", ""]
    assert read(reject_all(data)).lines() == ["kept", "old", ""]
    gone = ('<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="100"/></w:tblGrid>' + row("old", f'<w:del w:id="2" {_A}/>') + '</w:tbl>')
    assert part_xml(accept_all(make_docx(gone + '<w:p/>')), "word/document.xml").find(f".//{qn('w:tbl')}") is None


def test_a_deleted_paragraph_mark_merges_into_the_next_paragraph_which_keeps_its_properties():
    body = (f'<w:p><w:pPr><w:jc w:val="right"/><w:rPr><w:del w:id="1" {_A}/></w:rPr></w:pPr><w:r><w:t xml:space="preserve">First </w:t></w:r></w:p>'
            '<w:bookmarkStart w:id="5" w:name="b"/><w:p><w:pPr><w:jc w:val="center"/></w:pPr><w:r><w:t>second</w:t></w:r></w:p>')
    root = part_xml(accept_all(make_docx(body)), "word/document.xml")
    (p,) = root.iter(qn("w:p"))
    assert "".join(t.text for t in p.iter(qn("w:t"))) == "First second"
    assert p.find(f".//{qn('w:jc')}").get(qn("w:val")) == "center"
    assert p.find(qn("w:bookmarkStart")) is not None  # markers between the two move along


def test_nested_deletion_in_an_insertion_resolves_both_ways():
    body = (f'<w:p><w:r><w:t xml:space="preserve">a </w:t></w:r><w:ins w:id="1" {_A}><w:r><w:t xml:space="preserve">b </w:t></w:r>'
            f'<w:del w:id="2" w:author="Bo"><w:r><w:delText xml:space="preserve">c </w:delText></w:r></w:del></w:ins><w:r><w:t>d</w:t></w:r></w:p>')
    data = make_docx(body)
    assert read(accept_all(data)).lines() == ["a b d"]
    assert read(reject_all(data)).lines() == ["a d"]


def test_resolve_tree_reports_merged_paragraphs():
    from lxml import etree

    from adapters.docx.oxml import NSMAP

    w = NSMAP["w"]
    root = etree.fromstring(
        f'<w:body xmlns:w="{w}"><w:p><w:pPr><w:rPr><w:ins w:id="1" w:author="A"/></w:rPr></w:pPr><w:r><w:t>x</w:t></w:r></w:p>'
        f'<w:p><w:r><w:t>y</w:t></w:r></w:p></w:body>'.encode()
    )
    first, second = list(root)
    merged = resolve_tree(root, accept=False)
    assert merged == {first: second} and len(root) == 1
    assert "".join(t.text for t in root.iter(qn("w:t"))) == "xy"


def test_resolving_something_that_is_not_a_docx_is_a_clear_error():
    with pytest.raises(AdapterError):
        accept_all(b"%PDF-1.4")
    with pytest.raises(AdapterError, match="not a .docx"):
        reject_all(corpus_file("lorem.odt").read_bytes())
