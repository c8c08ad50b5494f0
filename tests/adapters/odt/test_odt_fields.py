"""Reference fields of ODT documents in every ``text:reference-format``: what they point at,
what their result shows, and the result LEDGER writes after a renumbering edit, against the
one LibreOffice computes when it refreshes the fields."""
from __future__ import annotations

import pytest

import adapters
from adapters.model import Delete
from tests.adapters.odt.odt_build import h, item, lst, lvl, odt, outline_style, p
from tests.conftest import corpus_file
from tests.libreoffice import probe

STYLES = (
    '<style:style style:name="Standard" style:family="paragraph"/>'
    '<style:style style:name="Heading_20_1" style:display-name="Heading 1" style:family="paragraph" style:default-outline-level="1"/>'
    '<style:style style:name="Heading_20_2" style:display-name="Heading 2" style:family="paragraph" style:default-outline-level="2"/>'
    '<style:style style:name="Caption" style:family="paragraph"/>'
    '<text:list-style style:name="Appendix">' + lvl(1, "A", ".", prefix="Appendix ", list_format="Appendix %1%.")
    + lvl(2, "1", ".", display=2, list_format="%1%.%2%.") + "</text:list-style>"
    + outline_style(lvl(1, "1", ".", tag="outline-level-style", list_format="%1%."),
                    lvl(2, "1", ".", display=2, tag="outline-level-style", list_format="%1%.%2%."))
)
AUTO = '<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Heading_20_1" style:list-style-name="Appendix"/>'

#: (ref-name, format, result LibreOffice 7.4 shows) for headings; "page" and "direction" too.
HEADING_REFS = [
    ("scope", "number", "2.1"), ("scope", "number-all-superior", "2.1"), ("scope", "number-no-superior", "2.1"),
    ("scope", "chapter", "2.1"), ("scope", "text", "Scope of phase 2"), ("scope", "page", "1"),
    ("scope", "direction", "above"),
    ("appB", "number", "Appendix B"), ("appB", "chapter", "B"), ("appB1", "number", "B.1"),
]
#: (format, result) of sequence references to "Figure 1: A cat" in chapter 3.
FIGURE_REFS = [("category-and-value", "Figure 1"), ("caption", "A cat"), ("value", "1"),
               ("text", "Figure 1: A cat"), ("chapter", "3")]


def _bm(name: str, text: str) -> str:
    return f'<text:bookmark-start text:name="{name}"/>{text}<text:bookmark-end text:name="{name}"/>'


def _ref(tag: str, name: str, fmt: str, shown: str) -> str:
    return f'<text:{tag} text:reference-format="{fmt}" text:ref-name="{name}">{shown}</text:{tag}>'


def _fields_doc() -> bytes:
    """Chapters 1-3 (2.1 bookmarked), a figure caption in chapter 3, Appendices A and B (B.1),
    and a paragraph of references in every format, their results as LibreOffice shows them."""
    refs = [p(f"{name} {fmt}: " + _ref("bookmark-ref", name, fmt, shown)) for name, fmt, shown in HEADING_REFS]
    refs += [p(f"mark {fmt}: " + _ref("reference-ref", "mark", fmt, shown))
             for fmt, shown in (("chapter", "2.1"), ("text", "marked words"))]
    refs += [p(f"figure {fmt}: " + _ref("sequence-ref", "refFigure0", fmt, shown)) for fmt, shown in FIGURE_REFS]
    body = "".join([
        h("Background", 1),
        h("Design", 1),
        h(_bm("scope", "Scope of phase 2"), 2),
        p('Some <text:reference-mark-start text:name="mark"/>marked words<text:reference-mark-end text:name="mark"/>.'),
        h("Results", 1),
        p('Figure <text:sequence text:ref-name="refFigure0" text:name="Figure" text:formula="ooow:Figure+1" '
          'style:num-format="1">1</text:sequence>: A cat', "Caption"),
        lst(item(h("Old material", 1, style="P1")), style="Appendix"),
        lst(item(h(_bm("appB", "Pseudocode"), 1, style="P1")), style="Appendix", contnum=True),
        lst(item(lst(item(h(_bm("appB1", "Constants"), 2, style="P1")))), style="Appendix", contnum=True),
        h("References", 1),
        *refs,
    ])
    return odt(body, AUTO, STYLES)


def _results(doc) -> list[tuple[str, str | None, str]]:
    return [(f.kind, f.shows, f.result) for u in doc.units for f in u.fields if f.is_reference]


def test_references_resolve_in_every_format():
    doc = adapters.read(_fields_doc())
    by_title = {u.title: u.id for u in doc.units if u.kind == "section"}
    caption = next(u.id for u in doc.units if u.text.startswith("Figure 1"))
    marked = next(u.id for u in doc.units if u.text.startswith("Some marked"))
    want = {"scope": by_title["Scope of phase 2"], "appB": by_title["Pseudocode"], "appB1": by_title["Constants"],
            "mark": marked, "refFigure0": caption}
    fields = [f for u in doc.units for f in u.fields if f.is_reference]
    assert len(fields) == len(HEADING_REFS) + 2 + len(FIGURE_REFS)
    assert all(f.target_unit == want[f.target] for f in fields)
    assert [f.shows for f in fields] == [
        "number", "number", "number", "chapter", "text", "page", "direction", "number", "chapter", "number",
        "chapter", "text", "label", "caption", "number", "text", "chapter",
    ]


def _edited() -> tuple[bytes, bytes]:
    """Delete chapter 1 and Appendix A: chapters 2, 3 become 1, 2; Appendix B becomes A."""
    from addin_backend.edits import validate_edits
    from addin_backend.edits.propagate import propagate

    data = _fields_doc()
    doc = adapters.read(data)
    gone = [u for u in doc.units if u.title in ("Background", "Old material")]
    ops = validate_edits(doc, [Delete(unit=u.id, before=u.text) for u in gone])
    prop = propagate(doc, None, ops)
    assert [f.kind for f in prop.findings] == []
    return data, adapters.write(data, ops + prop.edits, document=doc)


def test_renumbered_results_keep_their_fields():
    """A new result is written as the field deleted and a copy inserted: after Accept All the
    document still holds every field, showing the new number; Reject All gives the old one."""
    data, out = _edited()
    accepted = _results(adapters.read(adapters.accept_all(out)))
    assert [r[2] for r in accepted] == [
        "1.1", "1.1", "1.1", "1.1", "Scope of phase 2", "1", "above", "Appendix A", "A", "A.1",
        "1.1", "marked words", "Figure 1", "A cat", "1", "Figure 1: A cat", "2",
    ]
    assert all(kind.endswith("_ref") for kind, _, _ in accepted)
    assert _results(adapters.read(adapters.reject_all(out))) == _results(adapters.read(data))


@pytest.mark.slow
def test_renumbered_results_equal_libreoffice(tmp_path):
    """LibreOffice refreshing the fields of the input shows their results; of the edited file
    (after Accept All) it shows what LEDGER wrote."""
    data, out = _edited()
    src, dst = tmp_path / "fields.odt", tmp_path / "edited.odt"
    src.write_bytes(data)
    dst.write_bytes(out)
    before, after = probe([src, dst], ("refreshed_fields", "accepted_refreshed_fields"))
    for result in (before, after):
        assert "error" not in result, result.get("error")
    assert [(f["cached"], f["shown"]) for f in before["refreshed_fields"]] == \
        [(f["shown"], f["shown"]) for f in before["refreshed_fields"]]
    assert len(after["accepted_refreshed_fields"]) == len(before["refreshed_fields"])
    assert [(f["cached"], f["shown"]) for f in after["accepted_refreshed_fields"]] == \
        [(f["shown"], f["shown"]) for f in after["accepted_refreshed_fields"]]


@pytest.mark.parametrize("name, want", [
    ("referenceAllInOne.odt", [("reference_ref", "text", "Some text"), ("bookmark_ref", "text", "A list item"),
                               ("bookmark_ref", "text", "A header")]),
    ("referenceToChapter.odt", [("bookmark_ref", "text", "A chapter")]),
    ("referenceToText.odt", [("reference_ref", "text", "Some text")]),
    ("referenceToListItem.odt", [("bookmark_ref", "number", "1.")]),
])
def test_corpus_references_resolve(name, want):
    doc = adapters.read_path(str(corpus_file(name)))
    fields = [f for u in doc.units for f in u.fields if f.is_reference]
    assert [(f.kind, f.shows, f.result) for f in fields] == want
    for f in fields:  # each names the unit it shows (a list item's number, else its text)
        target = doc.get(f.target_unit)
        assert target is not None
        assert f.result in target.text if f.shows == "text" else target.meta.get("list_label") == f.result
