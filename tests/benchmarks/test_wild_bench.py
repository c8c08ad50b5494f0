"""The wild battery's own parts (``make bench-wild``) on small documents with a known answer: the
link extractor of both formats, the judged-sample matcher, the replay's diff of two snapshots, the
seeds and the identifier judge. The battery itself runs in ``make bench-wild``, not here."""
from __future__ import annotations

import json
from pathlib import Path

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from adapters import read_path
from benchmarks.wild.checks import judged_sample, match_judged
from benchmarks.wild.identifiers import changed_identifiers
from benchmarks.wild.links import extract
from benchmarks.wild.replay import replay_operations
from benchmarks.wild.seed import missing_bookmark, wrong_target

W = nsdecls("w")


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _field(code: str, result: str) -> str:
    return (f'<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> {code} </w:instrText></w:r>'
            f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{_run(result)}<w:r><w:fldChar w:fldCharType="end"/></w:r>')


def _docx_with_links(path: Path) -> Path:
    """Two headings with bookmarks (one inside its paragraph, one between paragraphs), a REF
    field, two hyperlinks (one to a bookmark nothing carries), a TOC whose entry links by
    PAGEREF, and a table cell holding a w:fldSimple REF."""
    d = docx.Document()
    body = d.element.body
    sect = body[-1]
    pageref, ref = _field("PAGEREF _Ref1 \\h", "1"), _field("REF _Ref1 \\r \\h", "1")
    xml = [
        f'<w:p {W}><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:bookmarkStart w:id="1" w:name="_Ref1"/>{_run("Scope")}'
        f'<w:bookmarkEnd w:id="1"/></w:p>',
        # a table of contents: its entry is no body text; the field ends in the next paragraph
        f'<w:p {W}><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> TOC \\o "1-3" \\h </w:instrText></w:r>'
        f'<w:r><w:fldChar w:fldCharType="separate"/></w:r>{_run("Scope ")}{pageref}</w:p>',
        f'<w:p {W}><w:r><w:fldChar w:fldCharType="end"/></w:r>{_run("See ")}{ref}{_run(".")}</w:p>',
        f'<w:p {W}>{_run("Read ")}<w:hyperlink w:anchor="_Ref1">{_run("Scope")}</w:hyperlink>{_run(" and ")}'
        f'<w:hyperlink w:anchor="_Gone">{_run("Nowhere")}</w:hyperlink></w:p>',
        f'<w:bookmarkStart {W} w:id="2" w:name="_Ref2"/>',
        f'<w:p {W}><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>{_run("Details")}<w:bookmarkEnd w:id="2"/></w:p>',
        f'<w:tbl {W}><w:tblGrid><w:gridCol w:w="2000"/></w:tblGrid><w:tr><w:tc><w:p>'
        f'<w:fldSimple w:instr=" REF _Ref2 \\h ">{_run("Details")}</w:fldSimple></w:p></w:tc></w:tr></w:tbl>',
    ]
    for x in xml:
        sect.addprevious(parse_xml(x))
    d.save(str(path))
    return path


def test_the_docx_links_name_their_bookmarks_and_the_paragraph_holding_each(tmp_path):
    links = extract(_docx_with_links(tmp_path / "links.docx"))
    paras = links.paragraphs
    got = [(ln.kind, ln.name, paras[ln.source].where, paras[ln.source].text, paras[t].text if t is not None else None)
           for ln in links.links for t in [links.target(ln)]]
    assert got == [
        ("PAGEREF", "_Ref1", "toc", "Scope 1", "Scope"),
        ("REF", "_Ref1", "body", "See 1.", "Scope"),
        ("hyperlink", "_Ref1", "body", "Read Scope and Nowhere", "Scope"),
        ("hyperlink", "_Gone", "body", "Read Scope and Nowhere", None),
        # a bookmark between paragraphs belongs to the next one; a table cell is a table's paragraph
        ("REF", "_Ref2", "table", "Details", "Details"),
    ]
    assert [ln.text for ln in links.links] == ["1", "1", "Scope", "Nowhere", "Details"]
    assert [b.name for b in links.broken()] == ["_Gone"]
    assert [p.table for p in paras if p.where == "table"] == [0]


def test_the_odt_links_name_bookmarks_sequences_and_notes(tmp_path):
    from odf.opendocument import OpenDocumentText
    from odf.text import H, A, Bookmark, BookmarkRef, Note, NoteBody, NoteCitation, NoteRef, P, Sequence, SequenceRef

    doc = OpenDocumentText()
    h = H(outlinelevel=1)
    h.addElement(Bookmark(name="intro"))
    h.addText("Introduction")
    doc.text.addElement(h)
    cap = P()
    cap.addText("Figure ")
    seq = Sequence(name="Figure", refname="refFigure0", formula="ooow:Figure+1")
    seq.addText("1")
    cap.addElement(seq)
    cap.addText(": Flow")
    doc.text.addElement(cap)
    p = P()
    p.addText("As in ")
    ref = BookmarkRef(referenceformat="text", refname="intro")
    ref.addText("Introduction")
    p.addElement(ref)
    p.addText(" and ")
    sref = SequenceRef(referenceformat="category-and-value", refname="refFigure0")
    sref.addText("Figure 1")
    p.addElement(sref)
    link = A(href="#intro")
    link.addText("here")
    p.addElement(link)
    gone = A(href="#nothing")
    gone.addText("there")
    p.addElement(gone)
    note = Note(id="ftn1", noteclass="footnote")
    note.addElement(NoteCitation(text="1"))
    nb = NoteBody()
    nb.addElement(P(text="A note."))
    note.addElement(nb)
    p.addElement(note)
    nref = NoteRef(noteclass="footnote", referenceformat="text", refname="ftn1")
    nref.addText("1")
    p.addElement(nref)
    doc.text.addElement(p)
    path = tmp_path / "links.odt"
    doc.save(str(path))

    links = extract(path)
    paras = links.paragraphs
    got = [(ln.kind, ln.space, paras[t].text if t is not None else None) for ln in links.links for t in [links.target(ln)]]
    assert got == [("bookmark-ref", "bookmark", "Introduction"), ("sequence-ref", "sequence", "Figure 1: Flow"),
                   ("a", "bookmark", "Introduction"), ("a", "bookmark", None),
                   ("note-ref", "note", "As in Introduction and Figure 1herethere1")]
    assert [p.where for p in paras] == ["body", "body", "body", "note"]  # the note's paragraph is its own, apart
    assert [b.name for b in links.broken()] == ["nothing"]


def test_judged_samples_match_todays_findings_by_code_unit_and_evidence(tmp_path):
    sample = {"document": "spec.docx", "seed": 5, "findings_total": 4, "verdicts": [
        {"code": "undefined_acronym", "unit": "p-1", "evidence": "MID", "message": "", "verdict": "false", "reason": "a function"},
        {"code": "undefined_acronym", "unit": "p-2", "evidence": "CFB", "message": "", "verdict": "true", "reason": ""},
        {"code": "broken_reference", "unit": "p-3", "evidence": "Section 9", "message": "", "verdict": "debatable", "reason": ""}]}
    (tmp_path / "baseline").mkdir()
    (tmp_path / "baseline" / "spec.json").write_text(json.dumps(sample))
    today = [{"code": "undefined_acronym", "unit": "p-1", "evidence": "MID"},  # still reported: a false alarm
             {"code": "undefined_acronym", "unit": "p-2", "evidence": "CFB"},  # still reported: true
             {"code": "undefined_acronym", "unit": "p-9", "evidence": "MID"},  # another unit: unjudged
             {"code": "dash_style", "unit": "p-1", "evidence": "MID"}]  # another code: unjudged
    found = judged_sample("spec.docx", tmp_path)
    assert found is not None and found["baseline"] is True  # no final sample: the baseline's
    r = match_judged(found, today)
    assert (r["judged"], r["current"], r["false"], r["true"], r["debatable"], r["unjudged"]) == (3, 2, 1, 1, 0, 2)
    assert r["false_share"] == 0.5
    (tmp_path / "spec.json").write_text(json.dumps({**sample, "verdicts": sample["verdicts"][1:]}))
    final = judged_sample("spec.docx", tmp_path)
    assert final is not None and final["baseline"] is False and len(final["verdicts"]) == 2
    assert judged_sample("other.docx", tmp_path) is None


def _snapshot(path: Path, date: str, statements: list[str], row: str, revision: str) -> Path:
    d = docx.Document()
    d.add_heading("1 Introduction", level=1)
    d.add_paragraph(f"Working draft of {date}.")
    for s in statements:
        d.add_paragraph(s)
    t = d.add_table(rows=1, cols=2)
    t.cell(0, 0).text, t.cell(0, 1).text = row.split("|")
    r = d.add_table(rows=1, cols=2)
    r.cell(0, 0).text, r.cell(0, 1).text = revision, "Changes made"
    d.save(str(path))
    return path


def test_the_replay_writes_the_editors_body_changes_and_expects_the_table_they_made_necessary(tmp_path):
    a = read_path(str(_snapshot(tmp_path / "a.docx", "08 August 2025",
                                ["The Server MUST close it [X-1].", "Keep this as it is."], "[X-1]|The Server MUST close it", "WD-01")))
    b = read_path(str(_snapshot(tmp_path / "b.docx", "09 October 2025",
                                ["Keep this as it is.", "The Client MUST open it [X-2]."], "[X-2]|The Client MUST open it", "WD-02")))
    rp = replay_operations(a, b)
    by_text = {u.id: u.text for u in a.units}
    got = [(o["op"], by_text[o["unit"]], o.get("text")) for o in rp.operations]
    assert got == [("set_text", "Working draft of 08 August 2025.", "Working draft of 09 October 2025."),
                   ("delete", "The Server MUST close it [X-1].", None),
                   ("insert_after", "Keep this as it is.", "The Client MUST open it [X-2].")]
    # the statement table shares the changed statement ids: a consequence; the revision row does not
    assert [by_text[t["old"]].split("\n")[0] for t in rp.tables] == ["[X-1]"]
    assert set(rp.tables[0]["shared"]) >= {"[X-1]", "[X-2]"}
    assert len(rp.left_out) == 1 and "on its own" in rp.left_out[0]


def test_seeded_links_point_nowhere_or_elsewhere_and_nothing_else_changes(tmp_path):
    import zipfile

    src = _docx_with_links(tmp_path / "links.docx")
    links = extract(src)
    seed = missing_bookmark(src, tmp_path, links)
    assert seed is not None and seed.paragraphs in (["See 1."], ["Read Scope and Nowhere"])
    after = extract(seed.path)
    assert len(after.broken()) == len(links.broken()) + 1
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(seed.path) as b:
        assert [n for n in a.namelist() if a.read(n) != b.read(n)] == ["word/document.xml"]
    moved = wrong_target(src, tmp_path, links)
    assert moved is not None
    retargeted = extract(moved.path)
    assert len(retargeted.broken()) == len(links.broken())
    changed = [(x.name, y.name) for x, y in zip(links.links, retargeted.links) if x.name != y.name]
    assert len(changed) == 1 and changed[0][0] == "_Ref1"


def test_the_identifier_judge_sees_an_element_name_renamed_with_the_prose():
    before = [{"text": "Each file entry is a <manifest:file-entry> element; see manifestFile."},
              {"text": "The file entry lists a file."}]
    good = [{"text": "Each package entry is a <manifest:file-entry> element; see manifestFile."},
            {"text": "The package entry lists a file."}]
    bad = [{"text": "Each package entry is a <manifest:package-entry> element; see manifestFile."},
           {"text": "The package entry lists a file."}]
    assert changed_identifiers(before, [], good) == []
    assert [c.split(" ")[0] for c in changed_identifiers(before, [], bad)] == ["<manifest:file-entry>"]
    # text LibreOffice shows in a code style is an identifier whatever its shape ("file entry" here)
    assert changed_identifiers([{"text": "Set the file entry flag."}], [[0, 8, 18]],
                               [{"text": "Set the package entry flag."}]) == ["file (Set the file entry flag.)"]
