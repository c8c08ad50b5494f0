"""The public text walk: a unit's anchor finds its paragraphs again and their segments rebuild its text."""
from __future__ import annotations

import pytest

from adapters import read
from adapters.docx.context import load_context
from adapters.docx.oxml import qn
from adapters.docx.textmap import paragraph_segments, resolve_anchor, unit_segments
from adapters.package import open_package
from tests.adapters.docx.docxkit import make_docx
from tests.conftest import corpus_file

FILES = [
    "track_changes_move.docx",
    "track_changes_insertion.docx",
    "track_changes_deletion.docx",
    "track_changes_scrubbed_metadata.docx",
    "paragraph_insertion_deletion.docx",
    "table_captions_with_field.docx",
    "image_with_textbox_caption.docx",
    "notes.docx",
    "sdt_in_footnote.docx",
    "nested_instrText.docx",
    "pageref.docx",
    "merged_cells.docx",
    "strict.docx",
    "equations.docx",
    "drop_cap.docx",
    "libreoffice_conversion.docx",
    "text_in_shape_format.docx",
    "normalize.docx",
    "240-DOP-1013A Lay Down Tubulars.docx",
]

_SOURCE_TAGS = {qn("w:t"), qn("w:delText")}


def _load(data: bytes):
    doc = read(data)
    ctx = load_context(open_package(data), [])
    return doc, ctx


@pytest.mark.parametrize("name", FILES)
def test_segments_of_the_resolved_paragraphs_rebuild_every_unit(name):
    doc, ctx = _load(corpus_file(name).read_bytes())
    assert doc.units
    for unit in doc.units:
        for view in ("accepted", "rejected"):
            segs = unit_segments(ctx.parts, unit.anchor, ctx, view)
            assert "".join(s.text for s in segs) == unit.view(view), (unit.id, view)
            for s in segs:
                if s.el is not None and s.el.tag in _SOURCE_TAGS:
                    # each piece points at the exact characters of its w:t / w:delText
                    assert s.el.text[s.offset : s.offset + len(s.text)] == s.text
        paras = resolve_anchor(ctx.parts, unit.anchor)
        if unit.kind not in ("figure",):
            assert paras and all(p.tag == qn("w:p") for p in paras)


def test_paragraph_segments_name_views_fields_and_revisions():
    data = corpus_file("track_changes_scrubbed_metadata.docx").read_bytes()
    doc, ctx = _load(data)
    (p,) = resolve_anchor(ctx.parts, doc.units[0].anchor)
    acc = paragraph_segments(p, ctx, "accepted")
    rej = paragraph_segments(p, ctx, "rejected")
    assert "".join(s.text for s in acc) == "Here is a test document."
    assert "".join(s.text for s in rej) == "Here is a dummy document."
    inserted = [s for s in acc if s.revision is not None]
    deleted = [s for s in rej if s.revision is not None]
    assert [(s.text, s.revision.tag, s.kind) for s in inserted] == [("test", qn("w:ins"), "text")]
    assert [(s.text, s.revision.tag, s.kind) for s in deleted] == [("dummy", qn("w:del"), "deleted")]

    doc, ctx = _load(corpus_file("table_captions_with_field.docx").read_bytes())
    see = doc.units[0]
    segs = unit_segments(ctx.parts, see.anchor, ctx)
    in_field = "".join(s.text for s in segs if s.in_field)
    assert in_field == "Table 1"
    f = see.fields[0]
    assert see.text[f.start : f.end] == in_field


def test_anchor_paths_for_tables_merges_text_boxes_notes_and_figures():
    doc, ctx = _load(corpus_file("paragraph_insertion_deletion.docx").read_bytes())
    assert doc.units[0].anchor.path == "0-2"
    assert len(resolve_anchor(ctx.parts, doc.units[0].anchor)) == 3
    doc, ctx = _load(corpus_file("merged_cells.docx").read_bytes())
    table = doc.units[0]
    assert len(resolve_anchor(ctx.parts, table.anchor)) == len(table.text.split("\n"))
    doc, ctx = _load(corpus_file("notes.docx").read_bytes())
    fn = doc.units[-2]
    assert (fn.anchor.part, fn.anchor.path) == ("word/footnotes.xml", "#1")
    doc, ctx = _load(corpus_file("image_with_textbox_caption.docx").read_bytes())
    fig, cap = doc.units
    assert (fig.anchor.path, cap.anchor.path) == ("0/d0", "0/t0/0")
    (holder,) = resolve_anchor(ctx.parts, fig.anchor)
    assert holder.tag == qn("w:p")


def test_fields_left_open_by_an_earlier_paragraph_travel_in_the_anchor():
    body = (
        '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>INCLUDETEXT "chapter.docx"</w:instrText></w:r>'
        '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Intro</w:t></w:r></w:p>'
        '<w:p><w:r><w:t>Methods</w:t></w:r></w:p>'
        '<w:p><w:r><w:t>Results</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>'
    )
    data = make_docx(body)
    doc, ctx = _load(data)
    assert [u.text for u in doc.units] == ["Intro", "Methods", "Results"]
    assert doc.units[1].anchor.get("open_fields") == ("result",)
    assert [f.code for f in doc.units[1].fields] == ['INCLUDETEXT "chapter.docx"']
    for unit in doc.units:
        segs = unit_segments(ctx.parts, unit.anchor, ctx)
        assert "".join(s.text for s in segs) == unit.text
        assert all(s.in_field for s in segs)
