"""Document/Unit JSON round trip: what the store keeps must rebuild the same model."""
from __future__ import annotations

import json

from adapters.model import Anchor, Bookmark, Comment, Document, Field, Revision, Unit


def _document() -> Document:
    sec = Unit("sec-1", "section", "Introduction", 0, label="Section 1", number="1",
               title="Introduction", level=1, style="Heading1",
               anchor=Anchor("word/document.xml", "0", (("para_ids", (3, 4)), ("style", "H1"))))
    para = Unit(
        "p-1", "paragraph", "See Table 1 for the figures.", 1, parent="sec-1",
        anchor=Anchor("word/document.xml", "1"),
        fields=[Field("ref", " REF _Ref1 \\h ", target="_Ref1", target_unit="tbl-1",
                      result="Table 1", start=4, end=11)],
        bookmarks=[Bookmark("_Ref9", 0, 3)],
        rejected_text="See the table for the figures.",
        comments=["c0"],
        meta={"absent_in": None, "revisions": ["r1"]},
    )
    return Document(
        format="docx",
        units=[sec, para],
        revisions=[Revision("r1", "insertion", "Ann", "2024-01-02T00:00:00Z", "Table 1", "p-1")],
        comments=[Comment("c0", "Bob", None, "check this", "p-1", "figures")],
        warnings=["skipped w:customXml"],
        meta={"title": "Report"},
        path="report.docx",
    )


def test_lossless_round_trip_through_json_text_rebuilds_the_same_document():
    doc = _document()
    again = Document.from_json(json.loads(json.dumps(doc.to_json(lossless=True))))
    assert again == doc
    assert again.unit("sec-1").anchor.get("para_ids") == (3, 4)
    assert hash(again.unit("sec-1").anchor) == hash(doc.unit("sec-1").anchor)
    assert again.unit("p-1").refs == [{"target": "tbl-1", "field": "ref"}]


def test_public_json_is_unchanged_by_default_and_still_readable():
    doc = _document()
    public = doc.to_json()
    assert "anchor" not in public["units"][0] and "meta" not in public
    assert public["units"][1]["bookmarks"] == ["_Ref9"]
    again = Document.from_json(public)
    assert again.unit("p-1").bookmarks == [Bookmark("_Ref9")]
    assert again.unit("p-1").anchor is None
    assert [u.text for u in again.units] == [u.text for u in doc.units]
