"""The DOCX reader on real corpus files: units, kinds, labels, parents, fields, notes, comments."""
from __future__ import annotations

import pytest

from adapters import read, read_path
from adapters.errors import AnchorError, CorruptDocumentError, MalformedXmlError, UnsafeXmlError
from tests.adapters.docx.docxkit import make_docx, read_body, styles_xml
from tests.conftest import CORPUS, corpus_file


def _read(name: str, folder: str | None = None):
    path = corpus_file(name)
    if folder is not None:  # the same file name exists in several corpus folders
        path = CORPUS / folder / name
    return read_path(str(path))


def _texts(doc, kind=None):
    return [u.text for u in doc.units if kind is None or u.kind == kind]


# --- structure ------------------------------------------------------------------------------


def test_headings_open_sections_and_paragraphs_hang_under_them():
    doc = _read("links.docx")
    first, second = [u for u in doc.units if u.kind == "section"]
    assert (first.title, first.level, first.style) == ("An internal link and an external link", 2, "heading 2")
    assert second.title == "A section for testing link targets"
    under_first = [u.text for u in doc.children(first.id) if u.text]
    assert under_first[0] == "An external link to a popular website."
    assert all(u.parent in (first.id, second.id) for u in doc.units if u.kind == "paragraph")


def test_outline_level_directly_on_the_paragraph_and_through_based_on():
    styles = styles_xml(
        '<w:style w:type="paragraph" w:styleId="Chapter"><w:name w:val="Chapter"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>',
        '<w:style w:type="paragraph" w:styleId="Sub"><w:name w:val="Sub"/><w:basedOn w:val="Chapter"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>',
        '<w:style w:type="paragraph" w:styleId="SubSub"><w:name w:val="SubSub"/><w:basedOn w:val="Sub"/></w:style>',
        '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>',
    )
    body = (
        '<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr><w:r><w:t>The Book</w:t></w:r></w:p>'
        '<w:p><w:pPr><w:pStyle w:val="Chapter"/></w:pPr><w:r><w:t>One</w:t></w:r></w:p>'
        '<w:p><w:pPr><w:pStyle w:val="SubSub"/></w:pPr><w:r><w:t>One.A</w:t></w:r></w:p>'
        '<w:p><w:pPr><w:outlineLvl w:val="2"/></w:pPr><w:r><w:t>Direct</w:t></w:r></w:p>'
        '<w:p><w:pPr><w:pStyle w:val="Chapter"/><w:outlineLvl w:val="9"/></w:pPr><w:r><w:t>Body text level</w:t></w:r></w:p>'
    )
    doc = read_body(body, styles=styles)
    got = [(u.kind, u.text, u.level) for u in doc.units]
    assert got == [
        ("title", "The Book", None),
        ("section", "One", 1),
        ("section", "One.A", 2),
        ("section", "Direct", 3),
        ("paragraph", "Body text level", None),
    ]
    one, one_a, direct, body_text = doc.units[1:]
    assert (one.parent, one_a.parent, direct.parent, body_text.parent) == (None, one.id, one_a.id, direct.id)
    assert doc.units[0].title == "The Book" and one.style == "Chapter"


def test_title_style_is_a_title_unit():
    doc = _read("metadata.docx")
    assert doc.units[0].kind == "title" and doc.units[0].title == "This Is the Title"


def test_tables_give_one_unit_with_cells_in_row_order():
    doc = _read("merged_cells.docx")
    table = doc.units[0]
    assert table.kind == "table"
    # vertically merged continuation cells show no text; spans pad the grid
    assert table.text.split("\n") == ["0-0", "0-12", "0-3", "12-0", "1-1", "1-2", "1-3", "2-1", "2-2", "2-3", "3-0", "34-123", "4-0"]
    assert table.meta["cells"] == [
        ["0-0", "0-12", "", "0-3"],
        ["12-0", "1-1", "1-2", "1-3"],
        ["", "2-1", "2-2", "2-3"],
        ["3-0", "34-123", "", ""],
        ["4-0", "", "", ""],
    ]


def test_grid_before_pads_the_cell_grid_and_content_controls_unwrap_in_cells():
    doc = _read("table_gridbefore.docx")
    rows = doc.units[0].meta["cells"]
    assert rows[0][:2] == ["", "Bits"]
    assert any(r[0] == "" and "TEXT" in r for r in rows)
    doc = _read("sdt_elements.docx")
    assert doc.units[0].text.split("\n") == ["col1Header", "col2Header", "col3Header", "col1 content", "Body copy", "col3 content"]


def test_nested_tables_are_part_of_the_outer_table_text():
    inner = '<w:tbl><w:tr><w:tc><w:p><w:r><w:t>in1</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>in2</w:t></w:r></w:p></w:tc></w:tr></w:tbl>'
    body = (
        "<w:tbl><w:tr>"
        f'<w:tc><w:p><w:r><w:t>left</w:t></w:r></w:p>{inner}<w:p/></w:tc>'
        '<w:tc><w:sdt><w:sdtContent><w:p><w:r><w:t>right</w:t></w:r></w:p></w:sdtContent></w:sdt></w:tc>'
        "</w:tr></w:tbl>"
    )
    doc = read_body(body)
    assert [u.kind for u in doc.units] == ["table"]
    assert doc.units[0].text == "left\nin1\nin2\n\nright"
    assert doc.units[0].meta["cells"] == [["left\nin1\nin2\n", "right"]]


def test_figures_carry_their_alt_text():
    assert [(u.kind, u.text) for u in _read("pic_alt_text.docx").units] == [("figure", "Alt description")]
    doc = _read("image_vml.docx")
    assert [u.kind for u in doc.units] == ["section", "paragraph", "figure"]
    assert doc.units[2].parent == doc.units[0].id


def test_caption_with_seq_field_labels_itself_and_its_table():
    doc = _read("table_captions_with_field.docx")
    caps = [u for u in doc.units if u.kind == "caption"]
    tables = [u for u in doc.units if u.kind == "table"]
    assert [(c.label, c.number) for c in caps] == [("Table 1", "1"), ("Table 2", "2")]
    # Table 1's caption stands above it, Table 2's below it
    assert [(t.label, t.meta["caption"]) for t in tables] == [("Table 1", caps[0].id), ("Table 2", caps[1].id)]
    assert [c.parent for c in caps] == [t.id for t in tables]
    refs = [u for u in doc.units if u.text.startswith("See Table")]
    assert [u.refs for u in refs] == [[{"target": caps[0].id, "field": "ref"}], [{"target": caps[1].id, "field": "ref"}]]
    f = refs[0].fields[0]
    assert (f.kind, f.code, f.result, refs[0].text[f.start : f.end]) == ("ref", "REF _Ref71265628 \\h", "Table 1", "Table 1")


def test_caption_without_field_takes_its_label_from_the_text():
    doc = _read("table_captions_no_field.docx")
    cap = next(u for u in doc.units if u.kind == "caption")
    table = next(u for u in doc.units if u.kind == "table")
    assert (cap.label, cap.number, cap.parent) == ("Table 5.1", "5.1", table.id)
    assert (table.label, table.meta["caption"]) == ("Table 5.1", cap.id)


def test_caption_inside_a_text_box_labels_the_picture_beside_it():
    doc = _read("image_with_textbox_caption.docx")
    fig, cap = doc.units
    assert (fig.kind, cap.kind) == ("figure", "caption")
    assert cap.meta["container"] == "textbox" and cap.anchor.path == "0/t0/0"
    assert (cap.label, cap.number) == ("Abbildung 1", "1")  # SEQ Abbildung: the document's word
    assert cap.text.startswith("1 Daniel Schliebner: Cantor'sches Diagonalverfahren.")
    assert (fig.label, fig.meta["caption"], cap.parent) == ("Abbildung 1", cap.id, fig.id)


def test_text_boxes_follow_their_anchoring_paragraph():
    doc = _read("text_in_shape_format.docx")
    assert [(u.text, u.meta.get("container")) for u in doc.units[:5]] == [
        ("", None),
        ("Last update: May 1, 2017", "textbox"),
        ("Using Microsoft Word 2007/2010\u2028for Writing Technical Documents", "textbox"),
        ("Valter Kiisk", "textbox"),
        ("Institute of Physics, University of Tartu", "textbox"),
    ]
    # a picture inside a text box is one figure, not also one for the shape around it
    doc = _read("textbox_image.docx")
    assert [(u.kind, u.anchor.path) for u in doc.units if u.kind == "figure"] == [("figure", "2/t0/0/d0")]


def test_equations_render_linear_text():
    doc = _read("equations.docx")
    eqs = [u for u in doc.units if u.kind == "equation"]
    assert [u.text for u in eqs] == ["\u222b_0^1 x", "\\int_{0}^{1}x", "\\int_{0}<{1}x<5"]
    assert all(u.label is None for u in eqs)


def test_numbered_equation_and_inline_math():
    frac = "<m:f><m:num><m:r><m:t>a+b</m:t></m:r></m:num><m:den><m:r><m:t>2</m:t></m:r></m:den></m:f>"
    sup = "<m:sSup><m:e><m:r><m:t>x</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup>"
    body = (
        f"<w:p><m:oMathPara><m:oMath><m:r><m:t>y=</m:t></m:r>{frac}</m:oMath></m:oMathPara>"
        "<w:r><w:tab/><w:t>(2)</w:t></w:r></w:p>"
        f"<w:p><w:r><w:t xml:space=\"preserve\">We know </w:t></w:r><m:oMath>{sup}</m:oMath><w:r><w:t xml:space=\"preserve\"> grows.</w:t></w:r></w:p>"
    )
    doc = read_body(body)
    eq, para = doc.units
    assert (eq.kind, eq.text, eq.number, eq.label) == ("equation", "y=(a+b)/2\t(2)", "2", "Equation (2)")
    assert (para.kind, para.text) == ("paragraph", "We know x^2 grows.")


def test_numbered_statements_get_their_label():
    body = '<w:p><w:r><w:t>Theorem 2. Every ledger balances.</w:t></w:r></w:p><w:p><w:r><w:t>Theorem proving is hard.</w:t></w:r></w:p>'
    doc = read_body(body)
    assert [(u.label, u.number) for u in doc.units] == [("Theorem 2", "2"), (None, None)]


# --- notes, comments, fields ------------------------------------------------------------------


def test_footnotes_and_endnotes_follow_the_body_in_citation_order():
    doc = _read("notes.docx")
    para = next(u for u in doc.units if u.text.startswith("Test footnote"))
    assert para.text == "Test footnote.1 Test endnote.i"
    fn, en = doc.units[-2:]
    assert (fn.kind, fn.label, fn.number, fn.text, fn.parent) == ("footnote", "Footnote 1", "1", " My note.", para.id)
    assert (en.kind, en.label, en.number, en.parent) == ("endnote", "Endnote i", "i", para.id)
    assert en.text == " This is an endnote at the end of the document."
    assert [u.order for u in doc.units] == list(range(len(doc.units)))
    notes = [(f.kind, f.target, f.target_unit, para.text[f.start : f.end]) for f in para.fields]
    assert notes == [("note", "1", fn.id, "1"), ("note", "1", en.id, "i")]
    assert [u.text for u in doc.body()] == ["A footnote", "", "Test footnote.1 Test endnote.i"]


def test_content_controls_and_fields_inside_a_footnote():
    doc = _read("sdt_in_footnote.docx")
    fn = doc.units[-1]
    assert fn.kind == "footnote" and fn.parent == doc.units[0].id
    assert fn.text.startswith(" \tVgl. Bitzios u. a.: Dissonance in the food traceability regulatory environment")
    assert fn.fields[0].code.startswith("ADDIN CitaviPlaceholder")
    link = _read("link_in_notes.docx").units[-1]
    assert link.fields[0].target == "http://wikipedia.org/"  # resolved through the footnotes part's rels


def test_comments_are_kept_with_their_anchor_text():
    doc = _read("comments.docx", "pandoc/docx")
    got = [(c.id, c.author, c.text, c.anchor_text) for c in doc.comments]
    assert got[:2] == [
        ("0", "Jesse Rosenthal", "I left a comment.", "some text to have a comment "),
        ("1", "Jesse Rosenthal", "A comment across paragraphs.", "a new paragraph.\nAnd so"),
    ]
    assert doc.comments[2].text == "This one has multiple paragraphs.\n\nSee?"
    by_text = {u.text: u for u in doc.units}
    assert by_text["This is a new paragraph."].comments == ["1"]
    assert by_text["And so is this."].comments == ["1"]
    assert doc.comments[1].unit == by_text["This is a new paragraph."].id


def test_cross_reference_and_pageref_point_at_the_heading_units():
    doc = _read("cross_reference.docx")
    title = doc.units[0]
    para = doc.units[-1]
    assert para.text == "Cross-reference: TITLE" and para.refs == [{"target": title.id, "field": "ref"}]
    assert [b.name for b in title.bookmarks] == ["_Ref214226214"]
    doc = _read("pageref.docx")
    heads = [u for u in doc.units if u.kind == "section"]
    # the table of contents is a generated index, no body text (adapters.docx.indexes)
    assert not any(u.text.endswith("\t2") for u in doc.units)
    (toc,) = doc.meta["indexes"]
    assert toc["kind"] == "table-of-content"
    assert [(e["text"], e["target_unit"]) for e in toc["entries"]] == [("Title\t2", heads[0].id), ("Title2\t2", heads[1].id)]


def test_hyperlinks_external_with_anchor_and_internal():
    doc = _read("links.docx")
    links = {u.text: u.fields[0] for u in doc.units if u.fields}
    assert links["An external link to a popular website."].target == "http://google.com"
    assert links["An external link to a website with an anchor."].target == "http://pandoc.org/README.html#synopsis"
    internal = links["An internal link to a section header."]
    assert doc.unit(internal.target_unit).title == "A section for testing link targets"
    assert doc.unit(links["An internal link to a bookmark."].target_unit).bookmarks[0].name == "my_bookmark"


def test_complex_field_instruction_split_over_runs_shows_its_result():
    doc = _read("nested_instrText.docx")
    para = doc.units[0]
    created = next(f for f in para.fields if f.code.startswith("CREATEDATE"))
    assert created.result == "1/16/18 8:40:00 AM"
    assert para.text[created.start : created.end] == created.result
    assert "CREATEDATE" not in para.text and "HYPERLINK" not in para.text


def test_nested_fields_and_simple_fields():
    body = (
        "<w:p><w:r><w:t xml:space=\"preserve\">See </w:t></w:r>"
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> IF </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> SEQ Figure \\c </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
        '<w:r><w:instrText xml:space="preserve"> &gt; 2 "many" "few" </w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>many</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>'
        '<w:r><w:t xml:space="preserve"> figures, </w:t></w:r>'
        '<w:fldSimple w:instr=" REF target \\h "><w:r><w:t>the target</w:t></w:r></w:fldSimple>'
        '<w:bookmarkStart w:id="0" w:name="target"/><w:r><w:t xml:space="preserve"> here</w:t></w:r><w:bookmarkEnd w:id="0"/></w:p>'
    )
    doc = read_body(body)
    para = doc.units[0]
    assert para.text == "See many figures, the target here"
    outer, simple = para.fields
    assert (outer.kind, outer.code, outer.result) == ("other", 'IF 3 > 2 "many" "few"', "many")
    assert (simple.kind, simple.target, simple.target_unit, simple.result) == ("ref", "target", para.id, "the target")
    assert (para.bookmarks[0].name, para.text[para.bookmarks[0].start : para.bookmarks[0].end]) == ("target", " here")


def test_bookmarks_spanning_paragraphs_are_on_every_unit_they_cover():
    body = (
        '<w:p><w:r><w:t xml:space="preserve">one </w:t></w:r><w:bookmarkStart w:id="5" w:name="span"/><w:r><w:t>two</w:t></w:r></w:p>'
        '<w:p><w:r><w:t>three</w:t></w:r></w:p>'
        '<w:p><w:r><w:t>four</w:t></w:r><w:bookmarkEnd w:id="5"/><w:r><w:t xml:space="preserve"> five</w:t></w:r></w:p>'
    )
    doc = read_body(body)
    assert [[(b.name, b.start, b.end) for b in u.bookmarks] for u in doc.units] == [
        [("span", 4, 7)],
        [("span", 0, 5)],
        [("span", 0, 4)],
    ]


def test_content_controls_smart_tags_and_custom_xml_unwrap():
    assert _texts(_read("nested_sdt.docx")) == ["Test Paragraph1", "", "Test Paragraph2", "", "Test Paragraph3"]
    doc = _read("nested_smart_tags.docx")
    assert doc.units[1].text == "I heard"
    body = (
        '<w:customXml w:element="x"><w:p><w:smartTag w:element="place"><w:smartTagPr/><w:r><w:t>Paris</w:t></w:r>'
        '</w:smartTag><w:sdt><w:sdtPr/><w:sdtContent><w:r><w:t xml:space="preserve"> in spring</w:t></w:r></w:sdtContent></w:sdt></w:p></w:customXml>'
    )
    assert _texts(read_body(body)) == ["Paris in spring"]


# --- text conventions ------------------------------------------------------------------------


def test_breaks_tabs_symbols_and_hidden_text():
    assert _read("soft_line_breaks.docx").units[0].text.startswith("Line1\u2028Line2\u2028Line3\nLine4")
    assert _texts(_read("tabs.docx")) == ["Some text separated\tby a tab.", "\tTab-indented text."]
    sym = _read("symbols.docx").units[0].text
    assert sym.startswith("\uf068\u2260\uf0f0\u221e") and sym.endswith("\u2211\uf04a\uf04b\uf084\uf0e6\uf0dd")
    styles = styles_xml('<w:style w:type="character" w:styleId="Secret"><w:name w:val="Secret"/><w:rPr><w:vanish/></w:rPr></w:style>')
    body = (
        '<w:p><w:r><w:t xml:space="preserve">shown </w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden </w:t></w:r>'
        '<w:r><w:rPr><w:rStyle w:val="Secret"/></w:rPr><w:t>styled-hidden </w:t></w:r>'
        '<w:r><w:rPr><w:rStyle w:val="Secret"/><w:vanish w:val="0"/></w:rPr><w:t xml:space="preserve">unhidden </w:t></w:r>'
        '<w:r><w:t>end</w:t><w:br w:type="page"/><w:t>.</w:t><w:noBreakHyphen/><w:softHyphen/><w:cr/></w:r></w:p>'
    )
    assert _texts(read_body(body, styles=styles)) == ["shown unhidden end.\u2011\u00ad\u2028"]


def test_whitespace_at_the_edges_of_unpreserved_text_is_ignored():
    assert _texts(_read("normalize.docx"))[0].startswith("These are different fonts.")
    body = '<w:p><w:r><w:t>  a  b  </w:t></w:r><w:r><w:t xml:space="preserve">  c  </w:t></w:r></w:p>'
    assert _texts(read_body(body)) == ["a  b  c  "]


def test_drop_cap_joins_the_paragraph_it_starts():
    doc = _read("drop_cap.docx")
    assert "Drop cap." in _texts(doc) and "D" not in _texts(doc)


# --- packages ---------------------------------------------------------------------------------


def test_strict_ooxml_reads_like_transitional():
    doc = _read("strict.docx")
    assert [(u.kind, u.label, u.text) for u in doc.units[:4]] == [
        ("list_item", "\u2022", "Bullet1"),
        ("list_item", "\u2022", "Bullet2"),
        ("list_item", "1.", "Number1"),
        ("list_item", "2.", "Number2"),
    ]
    assert doc.units[4].meta["cells"] == [["Cellaa", "Cellab"], ["Cellba", "Cellbb"]]
    assert doc.meta["strict"] is True


@pytest.mark.parametrize(
    "name,first",
    [
        ("renamed_document_xml.docx", "This is a link to my website."),
        ("alternate_document_path.docx", "Test"),
        ("test-docx2python-conversion-google_docs.docx", "Pop-up lomo waistcoat"),
        ("created-in-pages-paragraphs-only.docx", None),
        ("ns0-reference.docx", None),
    ],
)
def test_main_part_from_relationships_and_other_producers(name, first):
    doc = _read(name)
    assert doc.units and all(u.anchor.part == doc.meta["main_part"] for u in doc.body())
    if first:
        assert doc.units[0].text.startswith(first)


def test_pages_export_lists():
    doc = _read("created-in-pages-bulleted-lists.docx")
    assert [(u.label, u.text) for u in doc.units if u.kind == "list_item"][:5] == [
        ("1.", "Why did the chicken cross the road?"),
        ("A.", "Just because"),
        ("B.", "Don't know"),
        ("C.", "To get to the other side"),
        ("2.", "What's the meaning of life, universe and everything?"),
    ]


def test_unknown_elements_are_skipped_with_one_warning_per_tag():
    body = '<w:p><w:r><w:t>a</w:t><w:futureThing/><w:futureThing/></w:r><w:futureBlock/><w:r><w:t>b</w:t></w:r></w:p><w:futureBlock/>'
    doc = read_body(body)
    assert _texts(doc) == ["ab"]
    assert doc.warnings == ["skipped unknown element <w:futureBlock> (2x)", "skipped unknown element <w:futureThing> (2x)"]


def test_ids_derive_from_content_and_occurrence():
    data = corpus_file("track_changes_move.docx").read_bytes()
    a, b = read(data), read(data)
    assert [u.id for u in a.units] == [u.id for u in b.units]
    ids = [u.id for u in a.units]
    assert len(set(ids)) == len(ids)
    empty = [u.id for u in a.units if u.text == ""]
    assert empty[1] == empty[0] + "-1"
    # an edit elsewhere leaves the other units' ids alone
    one = read_body('<w:p><w:r><w:t>alpha</w:t></w:r></w:p><w:p><w:r><w:t>beta</w:t></w:r></w:p>')
    two = read_body('<w:p><w:r><w:t>alpha!</w:t></w:r></w:p><w:p><w:r><w:t>beta</w:t></w:r></w:p>')
    assert one.units[1].id == two.units[1].id and one.units[0].id != two.units[0].id


def test_broken_parts_are_clear_errors_naming_the_part():
    with pytest.raises(MalformedXmlError) as exc:
        read(make_docx("", raw_document=b"<w:document><w:body><w:p></w:body>"))
    assert exc.value.part == "word/document.xml"
    with pytest.raises(MalformedXmlError) as exc:
        read(make_docx("<w:p/>", styles="<w:style><unclosed>"))
    assert exc.value.part == "word/styles.xml"
    with pytest.raises(UnsafeXmlError):
        read(make_docx("", raw_document=b'<!DOCTYPE x [<!ENTITY a "b">]><w:document/>'))
    with pytest.raises(CorruptDocumentError, match="no w:body"):
        read(make_docx("", raw_document=b"<root/>"))


def test_anchor_error_for_a_path_that_no_longer_resolves():
    from adapters.docx.textmap import resolve_anchor
    from adapters.model import Anchor
    from adapters.package import open_package
    from adapters.docx.context import load_context

    ctx = load_context(open_package(corpus_file("tabs.docx").read_bytes()), [])
    with pytest.raises(AnchorError):
        resolve_anchor(ctx.parts, Anchor("word/document.xml", "9"))


def test_noteref_points_at_the_note_its_bookmark_wraps():
    body = (
        '<w:p><w:r><w:t>Claim</w:t></w:r><w:bookmarkStart w:id="3" w:name="_Ref9"/>'
        '<w:r><w:footnoteReference w:id="2"/></w:r><w:bookmarkEnd w:id="3"/></w:p>'
        '<w:p><w:r><w:t xml:space="preserve">As note </w:t></w:r><w:r><w:fldChar w:fldCharType="begin"/></w:r>'
        '<w:r><w:instrText xml:space="preserve"> NOTEREF _Ref9 \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
        '<w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:r><w:t xml:space="preserve"> says.</w:t></w:r></w:p>'
    )
    footnotes = '<w:footnote w:id="2"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Source.</w:t></w:r></w:p></w:footnote>'
    doc = read_body(body, footnotes=footnotes)
    claim, says, note = doc.units
    assert (claim.text, says.text, note.kind, note.text) == ("Claim1", "As note 1 says.", "footnote", " Source.")
    assert says.refs == [{"target": note.id, "field": "noteref"}]
    assert claim.fields[0].kind == "note" and claim.fields[0].target_unit == note.id
