"""The identifier layer: the readers' code spans (character styles, monospace fonts, in .docx and
in the .odt LibreOffice saves of it), token shapes on the shared vectors, the names a document
writes as code, and no check or fix rewriting an identifier of a specification written for it."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from docx import Document as DocxDocument

from adapters import read
from adapters.model import Unit
from addin_backend.checks.document import check_document
from addin_backend.checks.style.prose import protected_spans, untouchable
from addin_backend.language.identifiers import code_names, identifier_spans, is_code_line, shape_spans

from .identifier_docs import SPEC_IDENTIFIERS, spec_docx, to_odt

VECTORS = json.loads((Path(__file__).parents[2] / "vectors" / "identifiers.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: c["note"])
def test_token_shapes_follow_the_vectors(case):
    assert [i.text for i in shape_spans(case["text"])] == case["identifiers"]


@pytest.fixture(scope="module")
def spec():
    return read(spec_docx())


def _code(doc, start: str) -> list[str]:
    u = next(u for u in doc.units if u.text.startswith(start))
    return [u.text[a:b] for a, b in u.meta.get("code", [])]


def test_the_docx_reader_records_what_the_document_writes_as_code(spec):
    # "Element" and "Attribute" say nothing by name: their Courier New says code
    assert _code(spec, "A package holds files") == ["<manifest:file-entry>"]
    assert _code(spec, "The <manifest:file-entry> element") == ["<manifest:file-entry>"]
    assert _code(spec, "Every file entry may carry") == ["manifest:initialisation-vector"]
    # "Code Char" says code by name; a run set directly in Courier New by its font
    assert _code(spec, "The file version is written") == ["visualbasic", "DSUM"]
    # a paragraph in a style whose font is Consolas is code whole
    code = next(u for u in spec.units if u.style == "Code")
    assert code.meta["code"] == [[0, len(code.text)]] and is_code_line(code)
    assert not _code(spec, "A package has one manifest file")


def test_a_document_written_in_a_monospace_font_marks_nothing_by_its_font():
    d = DocxDocument()
    d.styles["Normal"].font.name = "Courier New"
    p = d.add_paragraph("Everything here is Courier; ")
    p.add_run("this run too").font.name = "Courier New"
    buf = io.BytesIO()
    d.save(buf)
    doc = read(buf.getvalue())
    assert not any(u.meta.get("code") for u in doc.units)


def test_identifiers_come_from_the_code_spans_the_shapes_and_the_names_written_as_code(spec):
    unit = next(u for u in spec.units if u.text.startswith("The manifest:file-entry element"))
    assert [i.text for i in identifier_spans(unit, spec)] == ["manifest:file-entry"]
    names = code_names(spec)
    assert {"DSUM", "manifest:file-entry", "file-entry", "visualbasic", "manifest:initialisation-vector"} <= names
    assert "type" not in names and "entry" not in names  # no plain word becomes a name
    # a name written as code once is a name where the prose writes it plainly
    doc = spec.copy()
    later = doc.units[-1]
    later.text = "Use DSUM, not visualbasic."
    assert [i.text for i in identifier_spans(later, doc)] == ["DSUM", "visualbasic"]


def test_no_fix_may_touch_an_identifier(spec):
    for u in spec.units:
        for ident in SPEC_IDENTIFIERS:
            at = u.text.find(ident)
            if at >= 0:
                why = untouchable(spec, u.id, at, at + len(ident))
                assert why is not None and ("identifier" in why or "code" in why), (ident, why)
                assert any(a <= at and at + len(ident) <= b for a, b in protected_spans(u.text, u, spec))


def test_checks_report_no_identifier_and_fixes_rewrite_none(spec):
    findings = check_document(spec)
    for f in findings:
        for p in f.places:
            text = spec.unit(p.unit).text
            for ident in SPEC_IDENTIFIERS:
                at = text.find(ident)
                assert at < 0 or not (at < p.end and p.start < at + len(ident)), (f.kind, ident, p)
    kinds = {f.kind for f in findings}
    assert "spelling_variety" not in kinds  # "initialisation" only ever sat in an attribute's name
    assert not [f for f in findings if f.kind == "undefined_acronym" and f.evidence in ("DSUM", "FILEVERSION")]


@pytest.mark.slow
def test_the_odt_twin_records_the_same_code_spans():
    odt = read(to_odt(spec_docx()))
    assert _code(odt, "A package holds files") == ["<manifest:file-entry>"]
    assert _code(odt, "Every file entry may carry") == ["manifest:initialisation-vector"]
    assert "DSUM" in _code(odt, "The file version is written")
    code = next(u for u in odt.units if u.text.startswith("<manifest:file-entry manifest:full-path"))
    assert is_code_line(code)


@pytest.mark.parametrize("text", ["2025-10-07", "1.2.0", "v2.1.1", "42", "10:30", "2025/10/23", "1,000"])
def test_a_value_alone_on_its_line_is_no_code(text):
    # a date, a number or a version on the title page is prose; its digits and separators draw nothing
    assert not is_code_line(Unit("p-1", "paragraph", text, 0, style="Normal"))


@pytest.mark.parametrize("text", ["00 01 02 03 04 05\n06 07 08 09 0a 0b", "1 + 2 = 3", "0x00 0x01 0x02"])
def test_rows_of_values_and_formulas_are_still_code(text):
    assert is_code_line(Unit("p-1", "paragraph", text, 0))


def _every_text() -> list[str]:
    texts = [c["text"] for c in VECTORS] + [u.text for u in read(spec_docx()).units if u.text]
    # each shape's telltale alone and beside another's: a scan that leaves out a shape the text
    # can hold shows here
    marks = ["<a:b>", "<Reason Code>", "see www.example.org.", "mailto:x@y.org", "a@b.example", "text/plain",
             "/etc/hosts", "index.html", "`x`", "f()", '"key": 1', "run -v now", "manifest:file-entry",
             "result.locations[0]", "a[1]", "max_ack_delay", "std::vector", "x=1", "ruleId", "FOLLOWEDBY",
             '"abcdq"', "\u201cabcdq\u201d", "urn:ietf:x", "Data.The end"]
    texts += marks + [f"{a} then {b}" for a in marks for b in marks[::5]]
    return texts


def test_the_scan_by_what_a_text_holds_finds_what_every_shape_finds(monkeypatch):
    """shape_spans tries only the shapes whose characters the text holds (identifiers._NEEDS):
    on every vector, every unit of the spec and each shape's telltale, it finds what the
    alternation of every shape finds."""
    from addin_backend.language import identifiers

    texts = _every_text()
    identifiers._shape_scan.cache_clear()
    gated = [shape_spans(t) for t in texts]
    monkeypatch.setattr(identifiers, "_shapes_for", lambda _t: identifiers._SHAPES)
    identifiers._shape_scan.cache_clear()
    try:
        full = [shape_spans(t) for t in texts]
    finally:
        identifiers._shape_scan.cache_clear()
    assert any(gated) and gated == full


def test_shapes_kept_by_text_are_not_shared_with_the_caller():
    t = "Set max_ack_delay and ruleId."
    first = shape_spans(t)
    first.clear()
    assert [i.text for i in shape_spans(t)] == ["max_ack_delay", "ruleId"]
