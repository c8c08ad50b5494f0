"""The public walk: segments rebuild every unit's text and point back into the XML."""
from __future__ import annotations

import pytest

import adapters
from adapters.errors import AnchorError
from adapters.model import Anchor
from adapters.odt.anchors import follow
from adapters.odt.margins import margin_context
from adapters.odt.odfxml import prefixed, qn
from adapters.odt.reader import load_context
from adapters.odt.textmap import paragraph_segments, paragraph_text, resolve_anchor
from adapters.package import open_package
from tests.adapters.odt.odt_build import odt, p
from tests.conftest import corpus_file
from tests.libreoffice import probe

P = qn("text:p")
SPACES = p(
    '  lead  <text:span text:style-name="T1">  x</text:span>y\n z<text:s text:c="3"/>w<text:tab/>t'
    "<text:line-break/>  u <text:s/> v"
)
SPACES_TEXT = "lead xy z   w\tt\n u   v"


def _open(data: bytes):
    pkg = open_package(data)
    return pkg, load_context(pkg), pkg.xml("content.xml")


def _check_units(data: bytes) -> int:
    """Every unit's paragraphs (found from its anchor) give back its text through the walk."""
    doc = adapters.read(data)
    pkg, ctx, root = _open(data)
    checked = 0
    styles = pkg.xml("styles.xml") if pkg.has("styles.xml") else None
    for u in doc.units:
        if u.anchor.part == "styles.xml":  # a header or footer: its own change table (adapters.odt.margins)
            el = follow(styles, u.anchor)
            mctx = margin_context(ctx, styles, el)
            assert "\n".join(paragraph_text(p, mctx) for p in resolve_anchor(styles, u.anchor)) == u.text
            checked += 1
            continue
        paras = resolve_anchor(root, u.anchor)
        if u.kind in ("figure", "equation"):
            assert paras == []
            continue
        if u.meta.get("absent_in") == "accepted":
            continue
        assert "\n".join(paragraph_text(el, ctx) for el in paras) == u.text, (u.kind, u.text[:50])
        for el in paras:
            for seg in paragraph_segments(el, ctx):
                if seg.slot in ("text", "tail"):
                    raw = getattr(seg.node, seg.slot)[seg.start : seg.end]
                    assert raw == seg.text or (seg.text == " " and raw.isspace()), (raw, seg.text)
        checked += 1
    return checked


@pytest.mark.parametrize(
    "name",
    ["collection.odt", "md_fixed.odt", "tracked_changes.odt", "trackedChanges.odt", "referenceAllInOne.odt",
     "note.odt", "dormeur_notes.odt", "imageWithCaption.odt", "tableWithSpans.odt", "lpod_styles.odt", "table.odt"],
)
def test_segments_rebuild_every_unit(name):
    assert _check_units(corpus_file(name).read_bytes()) > 0


def test_white_space_follows_odf_rules():
    data = odt(SPACES)
    assert adapters.read(data).units[0].text == SPACES_TEXT
    _, ctx, root = _open(data)
    (para,) = root.iter(P)
    segs = paragraph_segments(para, ctx)
    assert "".join(s.text for s in segs) == SPACES_TEXT
    # the collapsed runs point at their raw white space; text:s, tab and line-break at themselves
    assert [(s.text, s.slot) for s in segs if s.slot == "self"] == [("   ", "self"), ("\t", "self"), ("\n", "self"), (" ", "self")]
    assert [prefixed(s.node.tag) for s in segs if s.slot == "self"] == ["text:s", "text:tab", "text:line-break", "text:s"]
    # "  lead  ": leading spaces dropped, the double space after "lead" is one collapsed segment
    assert [(s.text, s.slot, s.start, s.end) for s in segs[:2]] == [("lead", "text", 2, 6), (" ", "text", 6, 8)]


@pytest.mark.slow
def test_white_space_equals_libreoffice(tmp_path):
    path = tmp_path / "spaces.odt"
    path.write_bytes(odt(SPACES))
    (result,) = probe([path], ("paragraphs",))
    assert [par["text"] for par in result["paragraphs"]] == [SPACES_TEXT]


def test_segments_know_fields_notes_and_changes():
    pkg, ctx, root = _open(corpus_file("imageWithCaption.odt").read_bytes())
    (cap,) = [el for el in root.iter(P) if "Image caption" in paragraph_text(el, ctx)]
    fields = [(s.text, prefixed(s.field.tag)) for s in paragraph_segments(cap, ctx) if s.field is not None]
    assert fields == [("1", "text:sequence")]
    pkg, ctx, root = _open(corpus_file("note.odt").read_bytes())
    (body,) = [el for el in root.iter(P) if el.getparent().tag.endswith("}text")]
    marks = [(s.text, prefixed(s.field.tag)) for s in paragraph_segments(body, ctx) if s.field is not None]
    assert marks == [("1", "text:note"), ("i", "text:note")]
    pkg, ctx, root = _open(corpus_file("trackedChanges.odt").read_bytes())
    (para,) = [el for el in root.iter(P) if el.getparent().tag.endswith("}text")]
    accepted = paragraph_segments(para, ctx)
    assert [(s.text, s.change_kind) for s in accepted if s.change] == [("and inserted ", "insertion")]
    rejected = paragraph_segments(para, ctx, "rejected")
    assert "".join(s.text for s in rejected) == "Some text with deleted text."
    (deleted,) = [s for s in rejected if s.change_kind == "deletion"]
    assert deleted.text == "deleted" and prefixed(deleted.node.getparent().tag) == "text:deletion"
    with pytest.raises(ValueError):
        paragraph_segments(para, ctx, "both")


def test_resolve_anchor_gives_table_cells_in_text_order_and_refuses_stale_anchors():
    data = corpus_file("tableWithSpans.odt").read_bytes()
    (table,) = adapters.read(data).units
    _, ctx, root = _open(data)
    cells = resolve_anchor(root, table.anchor)
    assert [paragraph_text(el, ctx) for el in cells] == table.text.split("\n")
    with pytest.raises(AnchorError):
        resolve_anchor(root, Anchor("content.xml", table.anchor.path, (("tag", "text:p"),)))
    with pytest.raises(AnchorError):
        resolve_anchor(root, Anchor("content.xml", "/99"))
    with pytest.raises(AnchorError):
        resolve_anchor(root, Anchor("content.xml", "/x"))


def test_notes_resolve_to_their_body_paragraphs():
    data = corpus_file("dormeur_notes.odt").read_bytes()
    doc = adapters.read(data)
    _, ctx, root = _open(data)
    notes = [u for u in doc.units if u.kind in ("footnote", "endnote")]
    assert [[paragraph_text(el, ctx) for el in resolve_anchor(root, u.anchor)] for u in notes] == [
        ["Note dormeur"], ["Note next remote link"], ["End note"]
    ]
