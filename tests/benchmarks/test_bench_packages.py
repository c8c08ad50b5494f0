"""The written packages: real WordprocessingML and ODF, with the fields, bookmarks and numbering promised."""
from __future__ import annotations

import re
from pathlib import Path

import docx
from docx.oxml.ns import qn
from odf.namespaces import DRAWNS, MATHNS, SVGNS, TABLENS, TEXTNS, XLINKNS

from adapters.package import open_package

from tests.benchmarks.bench_fixtures import synth_5k, synth_5k_files  # noqa: F401  (fixtures)


def _q(ns: str, name: str) -> str:
    return f"{{{ns}}}{name}"


def test_docx_is_a_valid_package_that_python_docx_reads(synth_5k_files, synth_5k):
    data = Path(synth_5k_files["docx"]).read_bytes()
    assert open_package(data).format == "docx"
    document = docx.Document(str(synth_5k_files["docx"]))
    paragraphs = [p.text for p in document.paragraphs]
    truth = synth_5k.truth
    assert paragraphs[0] == truth["title"]
    body = [u["text"] for u in truth["units"] if u["kind"] in ("paragraph", "section", "caption", "list_item")]
    assert body == [t for t in paragraphs if t in set(body)]
    assert len(document.tables) == sum(u["kind"] == "table" for u in truth["units"])


def test_docx_numbering_fields_bookmarks_and_math(synth_5k_files, synth_5k):
    document = docx.Document(str(synth_5k_files["docx"]))
    body = document.element.body
    numbering = document.part.numbering_part.element
    lvl_texts = {lvl.find(qn("w:lvlText")).get(qn("w:val")) for lvl in numbering.iter(qn("w:lvl"))}
    assert {"%1", "%1.%2", "%1.%2.%3", "Appendix %1", "%1."} <= lvl_texts
    h1 = document.styles["Heading 1"].element.pPr.find(qn("w:numPr"))
    assert h1 is not None and h1.find(qn("w:ilvl")).get(qn("w:val")) == "0"
    instr = [" ".join(t.text.split()) for t in body.iter(qn("w:instrText"))]
    truth = synth_5k.truth
    n_fig = sum(u["kind"] == "figure" for u in truth["units"])
    assert instr.count("SEQ Figure \\* ARABIC") == n_fig
    assert instr.count("SEQ Equation \\* ARABIC") == sum(u["kind"] == "equation" for u in truth["units"])
    refs = [c.split()[1] for c in instr if c.startswith("REF ")]
    fields = [e for e in truth["edges"] if e.get("how") == "field"]
    assert sorted(refs) == sorted(e["name"] for e in fields)
    marks = {b.get(qn("w:name")) for b in body.iter(qn("w:bookmarkStart"))}
    assert set(refs) <= marks and all(re.fullmatch(r"_Ref\d{9}", m) for m in marks)
    assert any(" REF " in f" {c} " and c.endswith("\\r \\h") for c in instr)  # heading numbers
    assert len(list(body.iter(qn("m:oMathPara")))) == sum(u["kind"] == "equation" for u in truth["units"])
    alts = [d.get("descr") for d in body.iter(qn("wp:docPr"))]
    assert alts == [u["text"] for u in truth["units"] if u["kind"] == "figure"]


def test_odt_sequences_references_outline_and_objects(synth_5k_files, synth_5k):
    pkg = open_package(Path(synth_5k_files["odt"]).read_bytes())
    assert pkg.format == "odt"
    content = pkg.xml("content.xml")
    truth = synth_5k.truth
    seqs = list(content.iter(_q(TEXTNS, "sequence")))
    names = {s.get(_q(TEXTNS, "ref-name")) for s in seqs}
    n_fig = sum(u["kind"] == "figure" for u in truth["units"])
    assert [s.text for s in seqs if s.get(_q(TEXTNS, "name")) == "Figure"] == [str(i) for i in range(1, n_fig + 1)]
    seq_refs = [r.get(_q(TEXTNS, "ref-name")) for r in content.iter(_q(TEXTNS, "sequence-ref"))]
    bm_refs = [r.get(_q(TEXTNS, "ref-name")) for r in content.iter(_q(TEXTNS, "bookmark-ref"))]
    starts = {b.get(_q(TEXTNS, "name")) for b in content.iter(_q(TEXTNS, "bookmark-start"))}
    assert seq_refs and set(seq_refs) <= names and bm_refs and set(bm_refs) <= starts
    assert len(seq_refs) + len(bm_refs) == sum(e.get("how") == "field" for e in truth["edges"])
    headings = [h for h in content.iter(_q(TEXTNS, "h"))]
    assert len(headings) == sum(u["kind"] == "section" for u in truth["units"])
    styles = pkg.xml("styles.xml")
    assert [lvl.get(_q(TEXTNS, "level")) for lvl in styles.iter(_q(TEXTNS, "outline-level-style"))][:3] == ["1", "2", "3"]
    objects = [o.get(_q(XLINKNS, "href")) for o in content.iter(_q(DRAWNS, "object"))]
    assert len(objects) == sum(u["kind"] == "equation" for u in truth["units"])
    first = pkg.xml(objects[0].lstrip("./") + "/content.xml")
    eq = next(u for u in truth["units"] if u["kind"] == "equation")
    assert "".join(t.text for t in first.iter() if t.tag in {_q(MATHNS, "mi"), _q(MATHNS, "mo"), _q(MATHNS, "mn")}) \
        == eq["text"].split("\t")[0]
    alts = [d.text for d in content.iter(_q(SVGNS, "desc"))]
    assert alts == [u["text"] for u in truth["units"] if u["kind"] == "figure"]
    assert len(list(content.iter(_q(TABLENS, "table")))) == sum(u["kind"] == "table" for u in truth["units"])
