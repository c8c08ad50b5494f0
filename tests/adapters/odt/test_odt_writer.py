"""The ODT writer read back by our own reader: views, revisions, package bytes, XML shape.

Every case of ``writer_cases`` is checked for: accepted view == the backend's
``apply_to_document`` (the intended edited text), rejected view == the input's own rejected
view, our ``accept_all``/``reject_all`` giving the same, the tracked changes listed being
exactly the intended ones, and every zip member but content.xml stored byte for byte. The
LibreOffice side of the same cases is in ``test_odt_writer_lo.py``.
"""
from __future__ import annotations

from collections import Counter

import pytest
from lxml import etree

import adapters
from adapters.errors import AnchorError, UnsupportedFormatError
from adapters.model import Delete, Move, Rename, Replace, SetText
from adapters.odt.odfxml import XML_ID, qn, xpath
from adapters.odt.resolve import accept_all, reject_all
from adapters.odt.writer import write
from addin_backend.edits.operations import apply_to_document, validate_edits
from tests.adapters.odt.odt_build import odt, p
from tests.adapters.odt.writer_cases import (
    CASES,
    assert_same_members,
    cases,
    nonblank,
    revision_list,
    same_redlines,
    unit,
)
from tests.conftest import corpus_file

NAMES = [c.name for c in CASES]


@pytest.fixture(scope="module")
def written():
    return {c.name: c for c in cases()}


def _content(data: bytes) -> etree._Element:
    import io
    import zipfile

    return etree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read("content.xml"))


@pytest.mark.parametrize("name", NAMES)
def test_views_of_the_output(written, name):
    c = written[name]
    out = adapters.read(c.out)
    intended = c.accepted or apply_to_document(c.doc, c.edits).lines()
    assert nonblank(out.lines("accepted")) == nonblank(intended)
    assert nonblank(out.lines("rejected")) == nonblank(c.doc.lines("rejected"))
    assert nonblank(adapters.read(accept_all(c.out)).lines()) == nonblank(intended)
    assert nonblank(adapters.read(reject_all(c.out)).lines()) == nonblank(c.doc.lines("rejected"))


@pytest.mark.parametrize("name", NAMES)
def test_the_intended_changes_and_no_others(written, name):
    c = written[name]
    got = revision_list(adapters.read(c.out))
    assert same_redlines(got, c.revisions or c.redlines, ordered=False), got


@pytest.mark.parametrize("name", NAMES)
def test_untouched_members_are_byte_identical(written, name):
    c = written[name]
    assert_same_members(c.data, c.out)


def test_existing_revisions_and_comments_are_kept(written):
    c = written["other_authors_revisions"]
    out = adapters.read(c.out)
    ids = {r.id for r in out.revisions}
    assert {"c1", "c2"} <= ids
    assert {(r.author, r.text) for r in out.revisions if r.id in ("c1", "c2")} == {("Bo", "alpha "), ("Cy", "very ")}
    c = written["comments_stay"]
    before = [(x.id, x.author, x.text) for x in c.doc.comments]
    assert before == [("c1", "Dee", "Check this."), ("c2", "Eve", "Remove?")]
    assert [(x.id, x.author, x.text) for x in adapters.read(c.out).comments] == before


def test_regions_have_both_ids_author_and_date(written):
    for c in written.values():
        root = _content(c.out)
        tracked = xpath(root, "//office:text/*[1]")[0]
        assert tracked.tag == qn("text:tracked-changes") or xpath(root, "//office:text/*[1]")[0].tag == qn("office:forms")
        regions = xpath(root, "//text:changed-region")
        ids = [r.get(qn("text:id")) for r in regions]
        assert ids == [r.get(XML_ID) for r in regions]
        assert len(set(ids)) == len(ids)
        all_ids = [el.get(XML_ID) for el in root.iter() if isinstance(el.tag, str) and el.get(XML_ID)]
        assert len(set(all_ids)) == len(all_ids), c.name
        for r in regions:
            if r.get(XML_ID).startswith("ledger-"):
                info = xpath(r, "*[1]/office:change-info")[0]
                who = (xpath(info, "dc:creator/text()")[0], xpath(info, "dc:date/text()")[0])
                # ours, or the second half of Bo's insertion that an edit split (his author and date)
                assert who in {("Ann", "2026-03-04T05:06:07"), ("Bo", "2026-03-04T05:06:07"), ("Bo", "2024-05-01T10:00:00")}


def test_a_word_in_one_span_keeps_its_span_on_both_sides(written):
    root = _content(written["replace_in_one_run"].out)
    deleted = xpath(root, "//text:deletion/text:p/text:span")
    assert [(s.get(qn("text:style-name")), s.text) for s in deleted] == [("T1", "moustache")]
    start = xpath(root, "//text:change-start")[0]
    assert start.getparent().tag == qn("text:span") and start.getparent().get(qn("text:style-name")) == "T1"
    assert "".join(start.getparent().itertext()) == "barbe"
    para = xpath(root, "//office:text/text:p")[0]
    assert [c.tag for c in para] == [qn("text:span"), qn("text:span")]


def test_words_across_spans_keep_each_span(written):
    root = _content(written["replace_across_runs"].out)
    regions = xpath(root, "//text:deletion/text:p")
    assert [[(s.get(qn("text:style-name")), s.text) for s in r] for r in regions] == [[("T1", "italic")], [("T3", "bold")]]


def test_a_compound_cut_by_a_span_changes_whole_and_keeps_each_piece_s_span(written):
    root = _content(written["whole_words_across_a_span"].out)
    regions = xpath(root, "//text:deletion/text:p")
    assert ["".join(r.itertext()) for r in regions] == ["30-day", "don't", "3.5"]
    assert [(s.get(qn("text:style-name")), s.text, s.tail) for s in regions[0]] == [("T1", "30", "-day")]
    inserted = xpath(root, "//text:change-start")[0].getnext()
    assert (inserted.get(qn("text:style-name")), inserted.text) == ("T1", "60-day")  # the first piece's span


def test_fields_are_left_whole(written):
    c = written["word_next_to_a_field"]
    before, after = _content(c.data), _content(c.out)
    for tag in ("text:reference-ref", "text:reference-mark-start", "text:reference-mark-end", "text:line-break", "text:bookmark"):
        assert [etree.tostring(e, with_tail=False) for e in xpath(after, f"//office:text//{tag}")] == [
            etree.tostring(e, with_tail=False) for e in xpath(before, f"//office:text//{tag}")
        ], tag
    assert not xpath(after, "//text:tracked-changes//text:reference-ref")


def test_an_edit_that_cuts_into_a_field_is_refused():
    data = corpus_file("referenceToText.odt").read_bytes()
    doc = adapters.read(data)
    u = unit(doc, "A reference to")
    at = u.text.index("to Some")
    edit = Replace(unit=u.id, start=at, end=at + len("to Some"), text="to no", before=u.text)
    with pytest.raises(AnchorError, match="cuts into a field"):
        write(data, [edit], document=doc)


def test_paragraph_insertion_and_deletion_follow_libreoffice(written):
    root = _content(written["insert_delete_move_paragraphs"].out)
    paras = xpath(root, "//office:text/text:p")
    first = next(x for x in paras if "".join(x.itertext()).startswith("The first"))
    new = first.getnext()
    assert first[-1].tag == qn("text:change-start") and new[-1].tag == qn("text:change-end")
    assert first[-1].get(qn("text:change-id")) == new[-1].get(qn("text:change-id"))
    # the deleted paragraph is in the table with an empty copy of the next one, marker there
    (region,) = [r for r in xpath(root, "//text:changed-region") if xpath(r, "text:deletion/office:change-info/dc:creator[.='Bo']")]
    content = [x for x in region[0] if x.tag != qn("office:change-info")]
    assert [(prefixed_tag(x), "".join(x.itertext())) for x in content] == [
        ("text:p", "The second paragraph follows it."),
        ("text:list", ""),
    ]
    alpha = next(x for x in xpath(root, "//office:text//text:p") if "".join(x.itertext()) == "Alpha item")
    assert alpha[0].tag == qn("text:change") and alpha[0].get(qn("text:change-id")) == region.get(qn("text:id"))


def prefixed_tag(el) -> str:
    from adapters.odt.odfxml import prefixed

    return prefixed(el.tag)


def test_deleting_another_authors_inserted_text_is_stacked(written):
    root = _content(written["other_authors_revisions"].out)
    stacked = [r for r in xpath(root, "//text:changed-region") if len(r) == 2]
    assert len(stacked) == 1
    (r,) = stacked
    assert [prefixed_tag(x) for x in r] == ["text:deletion", "text:insertion"]
    assert xpath(r, "text:deletion/office:change-info/dc:creator/text()") == ["Ann"]
    assert xpath(r, "text:insertion/office:change-info/dc:creator/text()") == ["Bo"]
    assert "".join(xpath(r, "text:deletion/text:p")[0].itertext()) == "beta"


def test_white_space_around_edits_survives():
    body = p("One<text:s/> two  three\t four<text:s text:c=\"2\"/>five") + p("  Lead and trail  ")
    data = odt(body)
    doc = adapters.read(data)
    assert [u.text for u in doc.units] == ["One  two three four  five", "Lead and trail "]
    a, b = doc.units
    edits = validate_edits(doc, [
        SetText(unit=a.id, text="One  2  three four  five!"),
        Replace(unit=b.id, start=0, end=4, text=" Front"),
        Replace(unit=b.id, start=9, end=15, text="back  "),
    ])
    out = write(data, edits, document=doc)
    again = adapters.read(out)
    assert again.lines() == ["One  2  three four  five!", " Front and back  "]
    assert again.lines("rejected") == doc.lines()
    assert adapters.read(reject_all(out)).lines() == doc.lines()
    assert adapters.read(accept_all(out)).lines() == again.lines()


def test_several_edits_in_one_paragraph_and_set_text_on_a_table():
    data = corpus_file("tableWithCaption.odt").read_bytes()
    doc = adapters.read(data)
    table = unit(doc, "Table header", "table")
    new = table.text.replace("Table header", "Head").replace("More content", "More stuff")
    edits = validate_edits(doc, [SetText(unit=table.id, text=new)])
    out = write(data, edits, document=doc)
    again = adapters.read(out)
    assert unit(again, "Head", "table").text == new
    assert Counter(revision_list(again)) == Counter(
        [("Delete", "LEDGER", "Table header"), ("Insert", "LEDGER", "Head"), ("Delete", "LEDGER", "content"), ("Insert", "LEDGER", "stuff")]
    )


def test_clear_errors():
    data = corpus_file("paragraph.odt").read_bytes()
    doc = adapters.read(data)
    u = doc.units[0]
    with pytest.raises(AnchorError, match="no unit"):
        write(data, [Delete(unit="p-nothere")], document=doc)
    with pytest.raises(AnchorError, match="expand renames"):
        write(data, [Rename(old="paragraph", text="para")], document=doc)
    other = adapters.read(corpus_file("bold.odt").read_bytes())
    with pytest.raises(AnchorError):
        write(data, [Replace(unit=other.units[0].id, start=0, end=4, text="x")], document=other)
    with pytest.raises(UnsupportedFormatError):
        write(corpus_file("basic.docx").read_bytes(), [])
    edit = Replace(unit=u.id, start=0, end=4, text="That", before=u.text)
    assert write(data, [edit], document=doc) != data  # the same edit works: nothing was left half-done
    assert adapters.read(data).units[0].text == u.text


def test_no_edits_and_no_changes():
    data = corpus_file("paragraph.odt").read_bytes()
    out = write(data, [])
    assert adapters.read(out).lines() == adapters.read(data).lines()
    assert_same_members(data, out)
    assert accept_all(data) == data and reject_all(data) == data


@pytest.mark.parametrize("name", ["trackedChanges.odt", "tracked_changes.odt"])
def test_accept_all_and_reject_all_on_corpus_revisions(name):
    data = corpus_file(name).read_bytes()
    doc = adapters.read(data)
    accepted, rejected = accept_all(data), reject_all(data)
    assert adapters.read(accepted).lines() == doc.lines("accepted")
    assert adapters.read(rejected).lines() == doc.lines("rejected")
    assert not adapters.read(accepted).revisions and not adapters.read(rejected).revisions
    assert_same_members(data, accepted)
    assert_same_members(data, rejected)


def test_rename_on_a_document_with_revisions():
    from addin_backend.edits.operations import expand_rename

    data = corpus_file("tracked_changes.odt").read_bytes()
    doc = adapters.read(data)
    edits = validate_edits(doc, expand_rename(doc, "amigos", "amis"))
    out = write(data, edits, document=doc)
    again = adapters.read(out)
    assert again.lines() == ["Bonjour  los bonitos amis  ça va ?"]
    assert again.lines("rejected") == doc.lines("rejected") == ["Bonjour les amis, ça va ?"]
    kept = {(r.id, r.author, r.text) for r in doc.revisions if r.text != "los bonitos amigos "}
    assert kept <= {(r.id, r.author, r.text) for r in again.revisions}


def test_top_level_dispatch(written):
    c = written["replace_in_one_run"]
    assert adapters.write(c.data, c.edits, document=c.doc) == c.out
    assert adapters.accept_all(c.out) == accept_all(c.out)
    assert adapters.reject_all(c.out) == reject_all(c.out)


def test_figures_are_not_moved_alone_and_tables_with_changes_not_deleted(written):
    # a figure is deleted (the delete_pictures case), never moved out of its paragraph
    c = written["delete_pictures"]
    with pytest.raises(AnchorError, match="cannot be moved"):
        write(c.data, [Move(unit=unit(c.doc, "A picture", "figure").id, after=unit(c.doc, "Last").id)], document=c.doc)
    # a table whose cells hold a change is refused whole (its cells are not emptied piece by piece)
    data = written["table_cells"].out
    doc = adapters.read(data)
    with pytest.raises(AnchorError, match="holds another tracked change"):
        write(data, [Delete(unit=next(u for u in doc.units if u.kind == "table").id)], document=doc)


def test_a_deleted_picture_and_a_deleted_changed_paragraph_stay_in_the_rejected_view(written):
    root = _content(written["delete_pictures"].out)
    regions = xpath(root, "//text:tracked-changes/text:changed-region")
    # each picture lies in its deletion: the one beside text alone, the other with its paragraph
    assert [len(xpath(r, ".//draw:frame")) for r in regions] == [1, 1]
    assert xpath(root, "//office:text/text:p[1]/text:change") and not xpath(root, "//office:text/text:p//draw:frame")
    # Martin's deletion is kept as his; the paragraph that held it is emptied around it
    root = _content(written["delete_a_paragraph_that_holds_changes"].out)
    creators = [x.text for x in xpath(root, "//text:changed-region//dc:creator")]
    assert "Martin Linnemann" in creators and creators.count("Ann") >= 3


def test_the_only_paragraph_of_a_text_box_is_not_moved_out():
    data = corpus_file("chair.odt").read_bytes()
    doc = adapters.read(data)
    caption = unit(doc, "Figure 1", "caption")
    with pytest.raises(AnchorError, match="all the text of its cell, note or text box"):
        write(data, [Move(unit=caption.id, before_unit=unit(doc, "A chair").id)], document=doc)
