"""The ODT reader on real documents: units, labels, captions, notes, fields, comments, errors."""
from __future__ import annotations

import io
import zipfile

import pytest

import adapters
from adapters.errors import AdapterError, CorruptDocumentError, MalformedXmlError
from adapters.model import UNIT_KINDS, make_unit_id
from tests.adapters.odt.odt_build import MATH_OBJECT, item, lst, lvl, odt, p
from tests.conftest import corpus_file, corpus_files

ODT_FILES = corpus_files(".odt")


def read(name: str):
    return adapters.read_path(str(corpus_file(name)))


def kinds(doc) -> list[tuple[str, str]]:
    return [(u.kind, u.text) for u in doc.units]


@pytest.mark.parametrize("path", ODT_FILES, ids=[f"{p.parent.name}/{p.name}" for p in ODT_FILES])
def test_every_corpus_odt_reads_into_units(path):
    """Units or a clear AdapterError, never a traceback; ids unique; orders dense; anchors set."""
    try:
        doc = adapters.read_path(str(path))
    except AdapterError as exc:  # pragma: no cover - no corpus file is refused today
        pytest.fail(f"{path.name} refused: {exc.to_dict()}")
    assert doc.format == "odt"
    assert doc.units, path.name
    assert len({u.id for u in doc.units}) == len(doc.units)
    assert [u.order for u in doc.units] == list(range(len(doc.units)))
    ids = {u.id for u in doc.units}
    for u in doc.units:
        assert u.kind in UNIT_KINDS
        # the body in content.xml, page headers and footers in styles.xml's master pages
        assert u.anchor is not None and u.anchor.part == ("styles.xml" if u.kind in ("header", "footer") else "content.xml")
        assert u.parent is None or u.parent in ids
    assert all(isinstance(w, str) for w in doc.warnings)


def test_corpus_has_no_unknown_elements():
    """The corpus uses only elements the reader knows: no warnings anywhere."""
    noisy = {p.name: adapters.read_path(str(p)).warnings for p in ODT_FILES}
    assert {k: v for k, v in noisy.items() if v} == {}


def test_headings_are_sections_and_parents_follow_them():
    doc = read("headers.odt")
    assert kinds(doc) == [
        ("section", "A header (Lv 1)"),
        ("paragraph", "A paragraph"),
        ("section", "Another header (Lv 2)"),
        ("paragraph", "Another paragraph"),
        ("section", "Back to Level 1"),
    ]
    h1, p1, h2, p2, h3 = doc.units
    assert (h1.level, h2.level, h3.level) == (1, 2, 1)
    assert (h1.title, h1.parent, p1.parent, h2.parent, p2.parent, h3.parent) == (
        "A header (Lv 1)", None, h1.id, h1.id, h2.id, None
    )
    assert h1.style == "Heading 1" and h1.number is None and h1.label is None


def test_sections_and_soft_page_breaks_do_not_cut_the_text():
    doc = read("base_text.odt")
    assert [u.meta.get("section") for u in doc.units][:2] == ["Section1", "Section1"]
    assert doc.units[-1].meta["section"] == "Section2"
    doc = read("doc_with_toc.odt")  # a soft page break inside the second Lorem paragraph
    lorem = [u for u in doc.units if u.kind == "paragraph"]
    assert len(lorem) == 3 and all(u.text.endswith("Curabitur eu amet. ") for u in lorem)


def test_table_of_contents_is_listed_not_made_into_units():
    doc = read("doc_with_toc.odt")
    assert [u.text for u in doc.units if u.kind == "section"] == ["Lorem 1", "Lorem 1A", "Lorem 1B", "Lorem 1C"]
    assert not any("\t" in u.text for u in doc.units)
    (toc,) = doc.meta["indexes"]
    assert toc["kind"] == "table-of-content" and toc["name"] == "Table of Contents1"
    entries = [(e["text"], doc.unit(e["target_unit"]).text if e["target_unit"] else None) for e in toc["entries"]]
    assert entries == [
        ("Table of Contents", None),
        ("1. Lorem 1\t1", "Lorem 1"),
        ("1.1. Lorem 1A\t1", "Lorem 1A"),
        ("1.2. Lorem 1B\t1", "Lorem 1B"),
        ("1.3. Lorem 1C\t2", "Lorem 1C"),
    ]


def test_lists_give_list_items_with_rendered_labels():
    doc = read("orderedListHeader.odt")
    items = [(u.text, u.number, u.level) for u in doc.units if u.kind == "list_item"]
    assert items[:6] == [
        ("A list item (list-header)", None, 1),
        ("A second", "1.", 1),
        ("A third", "2.", 1),
        ("New level! (list-header)", None, 2),
        ("And another! (list-header)", None, 3),
        ("It's great up here!", "1.", 3),
    ]
    assert doc.units[0].meta["list_header"] is True
    doc = read("list.odt")  # bullets carry their character, not a number
    bullets = [u for u in doc.units if u.kind == "list_item" and u.meta.get("bullet")]
    assert [u.text for u in bullets] == ["une liste accentuée", "un sous-élément"]
    assert [u.level for u in bullets] == [1, 2] and all(u.number is None for u in bullets)
    doc = read("listBlocks.odt")  # line breaks stay inside the item, as "\n"
    assert doc.units[1].text == "This is a numbered block.\nIt contains several paragraphs of text.\nLike this."
    assert doc.units[1].number == "1."


def test_tables_join_cells_row_by_row_and_keep_the_grid():
    doc = read("tableWithSpans.odt")
    (t,) = doc.units
    assert t.kind == "table"
    assert t.text.split("\n")[:4] == ["H1 Rowspan 2", "H1-2", "H1-3", "H2-2/3"]
    assert t.meta["cells"][:2] == [["H1 Rowspan 2", "H1-2", "H1-3"], ["", "H2-2/3", ""]]
    assert t.meta["header_rows"] == 2 and t.meta["rows"] == 7 and t.meta["columns"] == 3
    assert [0, 0, 2, 1] in t.meta["spans"] and [5, 1, 2, 2] in t.meta["spans"]
    doc = read("simpleTableWithMultipleHeaderRows.odt")
    assert doc.units[0].meta["header_rows"] == 2


def test_a_note_in_a_table_cell_belongs_to_the_table():
    doc = adapters.read_path(str(corpus_file("table.odt")))  # odfdo's table.odt sorts first
    note = [u for u in doc.units if u.kind == "footnote"]
    assert [u.text for u in note] == ["Note in a cell"]
    table = doc.unit(note[0].parent)
    assert table.kind == "table" and "Note in a cell" not in table.text


def test_captions_label_their_figure_or_table():
    doc = read("imageWithCaption.odt")
    fig, cap = doc.units
    assert (fig.kind, cap.kind, cap.text) == ("figure", "caption", "Abbildung 1: Image caption")
    # the label is printed in the word the caption shows (sequence "Illustration"), its key is ("figure", "1")
    assert (cap.label, cap.number, fig.label, fig.number) == ("Abbildung 1", "1", "Abbildung 1", "1")
    assert cap.parent == fig.id and fig.meta["caption"] == cap.text
    assert fig.meta["image"] == "Pictures/10000000000000FA000000FAD6A15225.jpg"
    for name, caption, label in (("tableWithCaption.odt", "Tabelle 1: Table caption", "Tabelle 1"),
                                 ("simpleTableWithCaption.odt", "Table 1: Some caption for a table", "Table 1")):
        table, cap = read(name).units
        assert (table.kind, cap.kind, cap.text, cap.label) == ("table", "caption", caption, label)
        assert table.label == label and cap.parent == table.id and table.meta["caption"] == caption
    doc = read("planes.odt")  # alt text is a figure's text; only the captioned one gets a label
    figs = [(u.text, u.label) for u in doc.units if u.kind == "figure"]
    assert figs == [
        ("Spitfire, general view: Green spitfire in a hall, view from left front.", None),
        ("Spitfire, detail", None),
        ("", "Illustration 1"),
    ]
    assert doc.units[-1].text == "Illustration 1: Thunderbolt" and doc.units[-1].parent == doc.units[-2].id


def test_text_box_paragraphs_become_units():
    doc = read("collection.odt")
    cap = next(u for u in doc.units if u.text.startswith("Douglas Adams, the English writer"))
    assert cap.kind == "paragraph" and cap.meta["text_box"] is True
    i = doc.units.index(cap)
    assert doc.units[i - 1].kind == "figure"  # the picture at the paragraph's start comes first


def test_formula_object_is_an_equation_with_its_starmath_text():
    doc = read("formula.odt")
    assert kinds(doc) == [("equation", "E = m cdot c^2")]
    assert doc.units[0].meta["object"] == "Object 1"


#: The document type declaration OpenOffice.org 3 writes at the top of every formula object.
OOO3_MATH_DOCTYPE = b'<!DOCTYPE math:math PUBLIC "-//OpenOffice.org//DTD Modified W3C MathML 1.01//EN" "math.dtd">'


def _as_ooo3_formula(mathml: bytes) -> bytes:
    """A MathML part as OpenOffice.org 3 writes it: the DOCTYPE, then ``math:``-prefixed elements."""
    import re

    body = mathml.split(b"?>", 1)[1] if mathml.startswith(b"<?xml") else mathml
    body = re.sub(rb"<(/?)(?!math:)([A-Za-z])", rb"<\1math:\2", body)
    body = body.replace(b'xmlns="http://www.w3.org/1998/Math/MathML"', b'xmlns:math="http://www.w3.org/1998/Math/MathML"')
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + OOO3_MATH_DOCTYPE + b"\n" + body


def test_formula_object_with_an_external_dtd_is_read_without_it():
    """The formula object of an OpenOffice.org 3 file names math.dtd: read, never loaded."""
    src = corpus_file("formula.odt").read_bytes()
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(src)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "Object 1/content.xml":
                data = _as_ooo3_formula(data)
                assert data.count(b"<!DOCTYPE") == 1 and b"<math:annotation" in data
            zout.writestr(info, data)
    doc = adapters.read(out.getvalue())
    assert kinds(doc) == [("equation", "E = m cdot c^2")]
    assert doc.units[0].meta["object"] == "Object 1"


def test_numbered_equation_and_numbered_statement():
    frame = ('<draw:frame draw:name="F1" text:anchor-type="as-char"><draw:object xlink:href="./Object 1" '
             'xlink:type="simple"/></draw:frame>')
    body = (p(f"{frame}<text:tab/>(3)") + p("Theorem 2. Every ledger balances.")
            + p("Theorem proving is hard.") + p("Title of it all", "Title"))
    styles = '<style:style style:name="Title" style:family="paragraph"/><style:style style:name="Standard" style:family="paragraph"/>'
    doc = adapters.read(odt(body, styles=styles, objects={"Object 1": MATH_OBJECT}))
    eq, thm, plain, title = doc.units
    assert (eq.kind, eq.text, eq.number, eq.label) == ("equation", "a + b^2", "3", "Equation (3)")
    assert (thm.label, thm.number) == ("Theorem 2", "2") and plain.label is None
    assert (title.kind, title.title, title.parent) == ("title", "Title of it all", None)


def test_footnotes_and_endnotes_follow_the_body_in_citation_order():
    doc = read("note.odt")
    body, fn, en = doc.units
    assert body.text == "Un paragraphe1 d'apparencei banale."  # citation marks stay, note text does not
    assert (fn.kind, fn.label, fn.text, fn.parent) == ("footnote", "Footnote 1", "C'est-à-dire l'élément «\xa0text:p\xa0».", body.id)
    assert (en.kind, en.label, en.text, en.parent) == ("endnote", "Endnote i", "Les apparences sont trompeuses !", body.id)
    doc = read("collection.odt")
    notes = [u for u in doc.units if u.kind == "footnote"]
    assert [u.number for u in notes] == [str(i) for i in range(1, 50)]
    assert min(u.order for u in notes) > max(u.order for u in doc.body())
    assert all(n.text not in doc.unit(n.parent).text for n in notes if n.text)
    assert list(doc.body())[-1].kind != "footnote" and doc.lines() == [x for u in doc.body() for x in u.text.split("\n")]


def test_reference_fields_point_at_the_units_that_hold_their_targets():
    doc = read("referenceAllInOne.odt")
    item_, anchor, header, ref = doc.units
    assert [(f.kind, f.target_unit, f.result, ref.text[f.start:f.end]) for f in ref.fields] == [
        ("reference_ref", anchor.id, "Some text", "Some text"),
        ("bookmark_ref", item_.id, "A list item", "A list item"),
        ("bookmark_ref", header.id, "A header", "A header"),
    ]
    assert ref.refs == [{"target": anchor.id, "field": "reference_ref"}, {"target": item_.id, "field": "bookmark_ref"},
                        {"target": header.id, "field": "bookmark_ref"}]
    assert [b.name for b in anchor.bookmarks] == ["an anchor"] and (anchor.bookmarks[0].start, anchor.bookmarks[0].end) == (0, 9)
    doc = read("referenceToListItem.odt")
    (f,) = doc.units[2].fields
    assert (f.kind, f.result, f.target_unit, f.code) == (
        "bookmark_ref", "1.", doc.units[0].id,
        'text:bookmark-ref text:ref-name="__RefNumPara__23_1114267526" text:reference-format="number"',
    )
    doc = read("bookmark.odt")
    (u,) = doc.units
    assert [(b.name, b.start, b.end) for b in u.bookmarks] == [("Repère de texte", 6, 6), ("Nouvelle référence", 9, 14)]
    assert [(f.kind, f.target, f.target_unit) for f in u.fields] == [("bookmark_ref", "Repère de texte", u.id)]


def test_sequences_and_other_fields_show_their_results():
    doc = read("chair.odt")
    cap = next(u for u in doc.units if u.kind == "caption")
    (seq,) = cap.fields
    assert (seq.kind, seq.target, seq.target_unit, seq.result) == ("sequence", "refFigure0", cap.id, "1")
    doc = adapters.read_path(str(corpus_file("variable.odt")))  # odfdo's
    assert [u.text for u in doc.units][:3] == ["Today is 12/08/09 15:17:27.", "This document is named Intitulé.",
                                              "This is page 1 out of 1."]
    assert [(f.code, f.result) for f in doc.units[6].fields] == [('text:user-field-get text:name="Champêtre"', "VRAI")]


def test_comments_are_kept_apart_from_the_text():
    doc = read("note.odt")
    (c,) = doc.comments
    assert (c.author, c.date, c.text, c.unit) == ("Auteur inconnu", "2009-08-03T12:09:45", "Sauf qu'il est commenté !", doc.units[0].id)
    assert "commenté" not in doc.units[0].text and doc.units[0].comments == [c.id]
    doc = read("dormeur_notes.odt")
    (c,) = doc.comments
    assert (c.text, c.anchor_text) == ("Second comment", "Arthur Rimbaud")


def test_white_space_tabs_and_hidden_text():
    assert read("tab.odt").units[0].text == "Three tabs between A and B will be converted to one Space: A\t\t\tB."
    doc = read("md_fixed.odt")
    assert doc.units[0].text == "         odfdo Test Case3" and doc.units[0].title == "odfdo Test Case3"
    assert "in it\n tabs\tin same place\n      spaces" in [u.text for u in doc.units]
    (u,) = read("hiddenTextByStyle.odt").units  # hidden by its style: kept, and said to be hidden
    assert (u.text, u.meta["hidden"]) == ("Hidden text", True)
    (u,) = read("hiddenTextByVariable.odt").units  # a hidden-text field shows nothing
    assert u.text == ""


def test_unit_ids_are_stable_and_survive_an_edit_elsewhere():
    data = corpus_file("collection.odt").read_bytes()
    first, second = adapters.read(data), adapters.read(data)
    assert [u.id for u in first.units] == [u.id for u in second.units]
    assert first.units[2].id == make_unit_id(first.units[2].kind, first.units[2].text)
    # change one paragraph's text: every other unit keeps its id
    content = zipfile.ZipFile(io.BytesIO(data)).read("content.xml")
    k = next(i for i, u in enumerate(first.units) if i > 3 and u.kind == "paragraph" and content.count(u.text[:30].encode()) == 1)
    edited = _replace_in_content(data, first.units[k].text[:30].encode(), b"Something else entirely, a new opening")
    third = adapters.read(edited)
    assert len(third.units) == len(first.units)
    changed = [a.id for a, b in zip(first.units, third.units) if a.id != b.id]
    assert changed == [first.units[k].id]


def _replace_in_content(data: bytes, old: bytes, new: bytes) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            blob = src.read(info.filename)
            if info.filename == "content.xml":
                assert old in blob
                blob = blob.replace(old, new, 1)
            dst.writestr(info, blob)
    return out.getvalue()


def test_unknown_elements_are_skipped_with_a_warning():
    body = p("before") + "<foo:widget><text:p>inside a foreign block</text:p></foo:widget>" + p("after <foo:em>kept</foo:em>")
    doc = adapters.read(odt(body))
    assert [u.text for u in doc.units] == ["before", "after kept"]
    assert doc.warnings == [
        "skipped unknown element foo:widget in office:text",
        "unknown inline element foo:em: its text is kept",
    ]


def test_broken_packages_get_clear_errors():
    data = odt(p("x"))
    with pytest.raises(MalformedXmlError) as err:
        adapters.read(_replace_in_content(data, b"</office:text>", b"</office:txt>"))
    assert err.value.part == "content.xml"
    no_text = _replace_in_content(data, b"<office:text>", b"<office:spreadsheet>")
    no_text = _replace_in_content(no_text, b"</office:text>", b"</office:spreadsheet>")
    with pytest.raises(CorruptDocumentError, match="office:text"):
        adapters.read(no_text)


def test_an_empty_document_still_has_a_unit():
    (u,) = read("horizontalRule.odt").units
    assert (u.kind, u.text) == ("paragraph", "")


def test_list_paragraphs_in_a_built_document():
    styles = '<text:list-style style:name="L1">' + lvl(1, "1", ")") + "</text:list-style>"
    doc = adapters.read(odt(lst(item(p("first")), item(p("second"), p("more of second")), style="L1"), styles=styles))
    assert [(u.text, u.number, u.label) for u in doc.units] == [
        ("first", "1)", "1)"), ("second", "2)", "2)"), ("more of second", None, None)
    ]


NESTED = (
    '<table:table table:name="Outer"><table:table-column table:number-columns-repeated="2"/>'
    "<table:table-row><table:table-cell>" + p("a1") + "</table:table-cell><table:table-cell>"
    '<table:table table:name="Inner"><table:table-row><table:table-cell>' + p("x") + "</table:table-cell>"
    "<table:table-cell>" + p("y") + "</table:table-cell></table:table-row></table:table>" + p("b1 after")
    + "</table:table-cell></table:table-row></table:table>"
)


def test_nested_tables_stay_inside_their_cell():
    (t,) = adapters.read(odt(NESTED)).units
    assert t.text == "a1\nx\ny\nb1 after"
    assert t.meta["cells"] == [["a1", "x\ny\nb1 after"]] and t.meta["name"] == "Outer"


def test_references_to_notes_sequences_and_headings_built():
    seq = '<text:sequence text:ref-name="refTable0" text:name="Table" text:formula="ooow:Table+1" style:num-format="1">1</text:sequence>'
    body = (
        '<text:h text:style-name="Heading_20_1" text:outline-level="1">Results</text:h>'
        + p('Text<text:note text:id="ftn7" text:note-class="footnote"><text:note-citation>1</text:note-citation>'
            "<text:note-body>" + p("The note.") + "</text:note-body></text:note> here.")
        + p(f"Table {seq}: Numbers")
        + p('See note <text:note-ref text:note-class="footnote" text:reference-format="text" text:ref-name="ftn7">1</text:note-ref>, '
            'table <text:sequence-ref text:reference-format="value" text:ref-name="refTable0">1</text:sequence-ref> and '
            '<text:a xlink:type="simple" xlink:href="#Results|outline">the results</text:a>.')
        + '<text:numbered-paragraph text:list-id="n1" text:level="1"><text:number>1.</text:number>'
        + p("numbered alone") + "</text:numbered-paragraph>"
        + p('<text:bookmark-start text:name="span"/>From here<office:annotation office:name="c1"><dc:creator>Bo</dc:creator>'
            "<text:p>across</text:p></office:annotation>") + p('to there<office:annotation-end office:name="c1"/>'
                                                                '<text:bookmark-end text:name="span"/>.')
    )
    doc = adapters.read(odt(body))
    assert not doc.warnings
    units = {u.text: u for u in doc.units}
    heading, caption, note = units["Results"], units["Table 1: Numbers"], units["The note."]
    refs = units["See note 1, table 1 and the results."]
    assert [(f.kind, f.target_unit) for f in refs.fields] == [
        ("note_ref", note.id), ("sequence_ref", caption.id), ("hyperlink", heading.id)
    ]
    assert (caption.kind, caption.label, note.kind, note.parent) == ("caption", "Table 1", "footnote", units["Text1 here."].id)
    assert units["numbered alone"].kind == "list_item"
    start = units["From here"]
    assert [(b.name, b.start, b.end) for b in start.bookmarks] == [("span", 0, 9)]
    (c,) = doc.comments
    assert (c.id, c.author, c.text, c.unit, c.anchor_text) == ("c1", "Bo", "across", start.id, "\nto there")


@pytest.mark.slow
def test_corpus_text_equals_libreoffice():
    """Body text, paragraph by paragraph, is what LibreOffice shows for every corpus file.

    Left out on each side: LibreOffice lists index bodies (tables of contents) that we keep in
    ``meta["indexes"]``; we have units for text-box paragraphs and alt texts that its body
    enumeration does not reach. Blank lines are dropped on both sides (blank paragraphs are
    no units). Files with tracked changes are compared view by view in test_odt_changes.py
    (LibreOffice's paragraphs show deleted and inserted text together).
    """
    from tests.adapters.odt.test_odt_numbering import LO_CANNOT_LOAD
    from tests.libreoffice import probe

    files = [f for f in ODT_FILES if f.name not in LO_CANNOT_LOAD and not adapters.read_path(str(f)).revisions]
    assert len(files) == len(ODT_FILES) - 5
    results = probe(files, ("paragraphs",))
    for path, result in zip(files, results):
        assert "error" not in result, (path.name, result["error"])
        doc = adapters.read_path(str(path))
        index_lines = [e["text"] for ix in doc.meta.get("indexes", []) for e in ix["entries"]]
        theirs = [line for par in result["paragraphs"] for line in par["text"].split("\n") if line.strip()]
        for line in index_lines:
            theirs.remove(line)
        body = [u for u in doc.body() if u.kind not in ("figure", "equation") and not u.meta.get("text_box")]
        ours = [line for line in doc.lines("accepted", body) if line.strip()]
        assert ours == theirs, path.name
