"""The DOCX writer's comments: one per note, on what its edit changed, in valid comment parts."""
from __future__ import annotations

import io
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from adapters import read
from adapters.docx.oxml import NSMAP
from adapters.docx.writer import write
from adapters.model import Delete, Note, Replace
from tests.conftest import CORPUS

TABLES = CORPUS / "pandoc/docx/table_captions_with_field.docx"
COMMENTED = CORPUS / "pandoc/docx/comments.docx"
W = NSMAP["w"]
W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
AUTHOR, DATE = "Ada Lovelace", "2026-12-01T09:00:00Z"


def _need(path: Path) -> bytes:
    if not path.exists():
        pytest.skip(f"corpus file {path} is not here")
    return path.read_bytes()


def _xml(data: bytes, name: str):
    return etree.fromstring(zipfile.ZipFile(io.BytesIO(data)).read(name))


def _table_deletion(data: bytes):
    doc = read(data)
    cap1, tbl1, cap2, ref2 = (doc.unit(i) for i in ("cap-9c6b4d1050", "tbl-6ca656db9f", "cap-39d0967859", "p-116cbffbf7"))
    kw = {"author": AUTHOR, "date": DATE}
    edits = [Delete(cap1.id, before=cap1.text, id="op-1", **kw),
             Delete(tbl1.id, before=tbl1.text, id="op-2", **kw),
             Replace(cap2.id, text="1", start=6, end=7, before=cap2.text, id="prop-1", source="op-1", **kw),
             Replace(ref2.id, text="1", start=10, end=11, before=ref2.text, id="prop-2", source="op-1", **kw)]
    notes = [Note("c-op-1", "Deleted Table 1 (instruction: Delete Table 1)", AUTHOR, date=DATE, edit="op-1"),
             Note("c-op-2", "Deleted Table 1 (instruction: Delete Table 1)", AUTHOR, date=DATE, edit="op-2"),
             Note("c-prop-1", "Table 2 → Table 1: Table 1 was deleted (caption number)", AUTHOR, date=DATE, edit="prop-1"),
             Note("c-prop-2", "Table 2 → Table 1: Table 1 was deleted (cross-reference)", AUTHOR, date=DATE, edit="prop-2"),
             Note("c-finding-1", "To check: 'Table 1' points at a deleted table", AUTHOR, date=DATE,
                  unit="p-a093ee3743", start=4, evidence="Table 1")]
    return doc, edits, notes


def test_one_comment_per_note_around_what_its_edit_changed():
    data = _need(TABLES)
    doc, edits, notes = _table_deletion(data)
    out = write(data, edits, document=doc, notes=notes)
    comments = _xml(out, "word/comments.xml").findall(f"{{{W}}}comment")
    assert [c.get(f"{{{W}}}author") for c in comments] == [AUTHOR] * 5
    assert {c.get(f"{{{W}}}initials") for c in comments} == {"LEDGER"}
    assert ["".join(c.itertext()) for c in comments] == [n.text for n in notes]
    body = _xml(out, "word/document.xml")
    for c in comments:
        cid = c.get(f"{{{W}}}id")
        starts = [e for e in body.iter(f"{{{W}}}commentRangeStart") if e.get(f"{{{W}}}id") == cid]
        ends = [e for e in body.iter(f"{{{W}}}commentRangeEnd") if e.get(f"{{{W}}}id") == cid]
        refs = [e for e in body.iter(f"{{{W}}}commentReference") if e.get(f"{{{W}}}id") == cid]
        assert len(starts) == len(ends) == len(refs) == 1
    # the renumbered reference: the range wraps the whole field, not part of its result
    back = read(out)
    on_ref = next(c for c in back.comments if c.text == notes[3].text)
    assert on_ref.anchor_text == "Table 1"  # the field's whole result, not just the changed digit
    # text and both views are those of the edits without comments
    plain = read(write(data, edits, document=doc))
    assert back.lines("accepted") == plain.lines("accepted")
    assert back.lines("rejected") == plain.lines("rejected") == doc.lines("accepted")


def test_markers_stay_outside_a_field_result():
    data = _need(TABLES)
    doc, edits, notes = _table_deletion(data)
    out = write(data, edits, document=doc, notes=notes)
    body = _xml(out, "word/document.xml")
    for p in body.iter(f"{{{W}}}p"):
        depth = 0
        for el in p.iter(f"{{{W}}}fldChar", f"{{{W}}}commentRangeStart", f"{{{W}}}commentRangeEnd"):
            kind = el.get(f"{{{W}}}fldCharType")
            if kind == "begin":
                depth += 1
            elif kind == "end":
                depth -= 1
            elif kind is None:
                assert depth == 0, "a comment marker inside a field would vanish when Word updates it"


def test_parts_relationship_content_type_and_thread():
    data = _need(TABLES)
    doc, edits, notes = _table_deletion(data)
    notes.append(Note("c-reply", "A reply", AUTHOR, date=DATE, edit="op-1", parent="c-op-1"))
    out = write(data, edits, document=doc, notes=notes)
    z = zipfile.ZipFile(io.BytesIO(out))
    rels = z.read("word/_rels/document.xml.rels").decode()
    ct = z.read("[Content_Types].xml").decode()
    for name, rtype in (("comments.xml", "/comments"), ("commentsExtended.xml", "commentsExtended"),
                        ("commentsIds.xml", "commentsIds")):
        assert f'Target="{name}"' in rels and rtype in rels
        assert f'PartName="/word/{name}"' in ct
    ex = _xml(out, "word/commentsExtended.xml").findall(f"{{{W15}}}commentEx")
    assert len(ex) == 6
    parents = [e.get(f"{{{W15}}}paraIdParent") for e in ex]
    assert parents[:5] == [None] * 5 and parents[5] == ex[0].get(f"{{{W15}}}paraId")


def test_existing_comments_stay_as_they_are():
    data = _need(COMMENTED)
    doc = read(data)
    target = next(u for u in doc.units if "new paragraph" in u.text)
    e = Replace(target.id, text="fresh", start=target.text.index("new"), end=target.text.index("new") + 3,
             before=target.text, id="op-1", author=AUTHOR, date=DATE)
    out = write(data, [e], document=doc, notes=[Note("c-op-1", "'new' → 'fresh' (instruction: x)", AUTHOR, edit="op-1")])
    before = _xml(data, "word/comments.xml").findall(f"{{{W}}}comment")
    after = _xml(out, "word/comments.xml").findall(f"{{{W}}}comment")
    assert [etree.tostring(c) for c in after[: len(before)]] == [etree.tostring(c) for c in before]
    assert len(after) == len(before) + 1
    assert [(c.author, c.text) for c in read(out).comments][: len(doc.comments)] == [(c.author, c.text) for c in doc.comments]


def test_comment_parts_validate():
    """ooxml-integrity (anchors, ids, relationships) and the Office schemas (openxml-audit) find
    nothing in the comment parts, and nothing the input did not already have."""
    integrity = shutil.which("ooxml-integrity") or str(Path(__file__).parents[3] / ".venv/bin/ooxml-integrity")
    audit = shutil.which("openxml-audit") or str(Path(__file__).parents[3] / ".venv/bin/openxml-audit")
    if not (Path(integrity).exists() and Path(audit).exists()):
        pytest.skip("ooxml-integrity / openxml-audit are not installed (pip install '.[test]')")
    data = _need(TABLES)
    doc, edits, notes = _table_deletion(data)
    notes.append(Note("c-reply", "A reply", AUTHOR, date=DATE, edit="op-1", parent="c-op-1"))
    out = write(data, edits, document=doc, notes=notes)
    tmp = Path(__import__("tempfile").mkdtemp())
    (tmp / "in.docx").write_bytes(data)
    (tmp / "out.docx").write_bytes(out)
    checked = subprocess.run([integrity, "check", str(tmp / "out.docx"), "--against", str(tmp / "in.docx")],
                             capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout
    assert " 0 error(s), 0 warning(s)" in checked.stdout

    def violations(path: Path) -> list[str]:
        run = subprocess.run([audit, str(path), "--output", "json"], capture_output=True, text=True, timeout=300)
        import json

        report = json.loads(run.stdout)
        errors = [e for item in (report if isinstance(report, list) else [report]) for e in item.get("errors", [])]
        return sorted(f"{e.get('part_uri')}|{e.get('path')}|{e.get('description')}" for e in errors)

    new = set(violations(tmp / "out.docx")) - set(violations(tmp / "in.docx"))
    assert not new, new
    assert not [v for v in violations(tmp / "out.docx") if "comment" in v.lower()]


# --- comments stay in the main part ---------------------------------------------------------------

_SEP = ('<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>')


def _noted_footnote_edit() -> tuple[bytes, bytes]:
    from tests.adapters.docx.docxkit import make_docx

    body = ('<w:p><w:r><w:t xml:space="preserve">Body text</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
            '<w:footnoteReference w:id="1"/></w:r><w:r><w:t xml:space="preserve"> goes on.</w:t></w:r></w:p>')
    notes = _SEP + '<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> See the colour chart.</w:t></w:r></w:p></w:footnote>'
    data = make_docx(body, footnotes=notes)
    doc = read(data)
    note = next(u for u in doc.units if u.kind == "footnote")
    at = note.text.index("colour")
    e = Replace(note.id, text="color", start=at, end=at + 6, before=note.text, id="op-1", author=AUTHOR, date=DATE)
    finding = Note("c-f", "To check: spelling", AUTHOR, date=DATE, unit=note.id, evidence="chart")
    return data, write(data, [e], document=doc, notes=[Note("c-op-1", "'colour' → 'color'", AUTHOR, edit="op-1"), finding])


def test_a_comment_on_a_note_is_anchored_on_the_notes_reference_in_the_body():
    # LibreOffice refuses to open a file with comment markers in word/footnotes.xml
    _data, out = _noted_footnote_edit()
    notes = _xml(out, "word/footnotes.xml")
    assert not list(notes.iter(f"{{{W}}}commentRangeStart", f"{{{W}}}commentReference"))
    assert notes.find(f".//{{{W}}}del") is not None  # the edit itself stays in the note
    body = _xml(out, "word/document.xml")
    p = body.find(f".//{{{W}}}p")
    tags = [etree.QName(c).localname for c in p]
    assert tags == ["r", "commentRangeStart", "commentRangeStart", "r", "commentRangeEnd", "r", "commentRangeEnd", "r", "r"]
    assert p[3].find(f"{{{W}}}footnoteReference") is not None
    assert len(_xml(out, "word/comments.xml").findall(f"{{{W}}}comment")) == 2


def test_a_comment_on_a_header_goes_on_the_first_paragraph_of_the_section_that_shows_it():
    from adapters.docx.comments_xml import body_anchor

    main = etree.fromstring(
        f'<w:document xmlns:w="{W}" xmlns:r="{NSMAP["r"]}"><w:body>'
        '<w:p><w:r><w:t>One</w:t></w:r></w:p><w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rId7"/></w:sectPr></w:pPr></w:p>'
        '<w:p><w:bookmarkStart w:id="1" w:name="x"/><w:r><w:t>Two</w:t></w:r></w:p>'
        '<w:sectPr><w:headerReference w:type="default" r:id="rId8"/></w:sectPr></w:body></w:document>')
    header = etree.fromstring(f'<w:hdr xmlns:w="{W}"><w:p><w:r><w:t>Head</w:t></w:r></w:p></w:hdr>')
    ps = main.findall(f".//{{{W}}}p")
    assert body_anchor(main, header[0][0], ["rId7"]) == (ps[0][0], ps[0])
    assert body_anchor(main, header[0][0], ["rId8"]) == (ps[2][0], ps[2])
    assert body_anchor(main, header[0][0], ["rId9"]) is None


@pytest.mark.slow
def test_libreoffice_opens_a_file_with_a_comment_on_a_note_edit(tmp_path):
    from tests.libreoffice import probe

    _data, out = _noted_footnote_edit()
    (tmp_path / "out.docx").write_bytes(out)
    got = probe([tmp_path / "out.docx"], ("paragraphs", "notes"))[0]
    assert "error" not in got, got
    assert [p["text"] for p in got["paragraphs"]] == ["Body text1 goes on."]
    assert got["notes"] == [" See the colourcolor chart."]
