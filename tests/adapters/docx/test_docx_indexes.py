"""A table of contents is a generated index, never body text: by its field, its content control
or its entry styles, whoever wrote the .docx."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from adapters import read

from .docxkit import make_docx, styles_xml

WILD = Path("/work/shared/devset/wild")

_HEADING = ('<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/>'
            '<w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>')
_TOC_STYLES = "".join(f'<w:style w:type="paragraph" w:styleId="TOC{n}"><w:name w:val="toc {n}"/></w:style>' for n in (1, 2))


def _r(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _heading(text: str, mark: str) -> str:
    return (f'<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:bookmarkStart w:id="{mark[-1]}" w:name="{mark}"/>'
            f'{_r(text)}<w:bookmarkEnd w:id="{mark[-1]}"/></w:p>')


def _entry(text: str, mark: str, style: str | None = None, begin: str = "", end: str = "") -> str:
    ppr = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f'<w:p>{ppr}{begin}<w:hyperlink w:anchor="{mark}">{_r(text)}<w:r><w:tab/></w:r>{_r("3")}</w:hyperlink>{end}</w:p>'


_BEGIN = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h </w:instrText></w:r>'
          '<w:r><w:fldChar w:fldCharType="separate"/></w:r>')
_END = '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
_BODY = _heading("Scope", "_Toc1") + '<w:p>' + _r("Text about the scope.") + '</w:p>' + _heading("Terms", "_Toc2")


def _check(doc, n_entries: int = 2) -> None:
    assert [u.text for u in doc.units if u.text.endswith("3")] == []
    assert [u.kind for u in doc.units] == ["section", "paragraph", "section"]
    (toc,) = doc.meta["indexes"]
    heads = [u.id for u in doc.units if u.kind == "section"]
    assert toc["kind"] == "table-of-content"
    assert [(e["text"], e["target_unit"]) for e in toc["entries"]][:n_entries] == [("Scope\t3", heads[0]), ("Terms\t3", heads[1])]


def test_a_toc_field_is_an_index():
    # no TOC style: the field says it (MQTT-SN writes its entries in "Normal")
    toc = _entry("Scope", "_Toc1", begin=_BEGIN) + _entry("Terms", "_Toc2") + "<w:p>" + _END + "</w:p>"
    _check(read(make_docx(toc + _BODY, styles=styles_xml(_HEADING))))


def test_a_field_that_ends_in_the_first_heading_keeps_the_heading():
    toc = _entry("Scope", "_Toc1", begin=_BEGIN) + _entry("Terms", "_Toc2")
    body = _BODY.replace('<w:bookmarkStart w:id="1"', _END + '<w:bookmarkStart w:id="1"', 1)
    _check(read(make_docx(toc + body, styles=styles_xml(_HEADING))))


def test_a_table_of_contents_content_control_is_an_index():
    sdt = ('<w:sdt><w:sdtPr><w:docPartObj><w:docPartGallery w:val="Table of Contents"/><w:docPartUnique/>'
           '</w:docPartObj></w:sdtPr><w:sdtContent>' + _entry("Scope", "_Toc1") + _entry("Terms", "_Toc2")
           + "</w:sdtContent></w:sdt>")
    _check(read(make_docx(sdt + _BODY, styles=styles_xml(_HEADING))))


def test_toc_entry_styles_are_an_index():
    toc = _entry("Scope", "_Toc1", "TOC1") + _entry("Terms", "_Toc2", "TOC2")
    _check(read(make_docx(toc + _BODY, styles=styles_xml(_HEADING, _TOC_STYLES))))


def test_a_table_of_figures_is_an_illustration_index():
    begin = _BEGIN.replace('TOC \\o "1-3" \\h', 'TOC \\h \\z \\c "Figure"')
    toc = _entry("Figure 1: Flow", "_Toc9", begin=begin, end=_END)
    doc = read(make_docx(toc + _BODY, styles=styles_xml(_HEADING)))
    assert [ix["kind"] for ix in doc.meta["indexes"]] == ["illustration-index"]


@pytest.mark.slow
def test_a_toc_that_libreoffice_wrote_is_an_index(tmp_path):
    """LibreOffice's own .docx of the MQTT-SN draft: 346 TOC lines, none of them body text."""
    src = WILD / "mqtt-sn-2.0-wd-2025-10-23.odt"
    if not src.exists():
        pytest.skip("the wild development set is not here")
    from tests.libreoffice import require_libreoffice

    require_libreoffice()
    subprocess.run(["soffice", f"-env:UserInstallation=file://{tmp_path}/profile", "--headless", "--convert-to",
                    "docx:MS Word 2007 XML", "--outdir", str(tmp_path), str(src)], check=True, capture_output=True, timeout=300)
    doc = read((tmp_path / (src.stem + ".docx")).read_bytes())
    (toc,) = doc.meta["indexes"]
    sections = [u for u in doc.units if u.kind == "section" and u.text.strip()]
    assert len(toc["entries"]) == len(sections) == 346
    assert {e["target_unit"] for e in toc["entries"]} == {u.id for u in sections}
    assert not any(u.text.rstrip().endswith("\t14") for u in doc.units)


def test_styles_the_toc_lists_are_headings_at_its_levels():
    """OASIS-style appendices: an "Appendix" paragraph style without an outline level, numbered
    "Appendix A." by its list; the TOC's \\t switch says it is a level-1 heading."""
    from .docxkit import numbering_xml

    styles = styles_xml(_HEADING, '<w:style w:type="paragraph" w:styleId="Appendix"><w:name w:val="Appendix"/>'
                        '<w:pPr><w:numPr><w:numId w:val="7"/></w:numPr></w:pPr></w:style>')
    numbering = numbering_xml({"3": [(0, "upperLetter", "Appendix %1.", 1)]}, {"7": "3"})
    toc = ('<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \\o "1-3" \\h '
           '\\t "Appendix,1" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
           + _r("Scope\t3") + "</w:p><w:p>" + _END + "</w:p>")
    app = '<w:p><w:pPr><w:pStyle w:val="Appendix"/></w:pPr>' + _r("Acknowledgments") + "</w:p>"
    doc = read(make_docx(toc + _BODY + app + "<w:p>" + _r("Thanks to all.") + "</w:p>", styles=styles, numbering=numbering))
    sections = [(u.text, u.number, u.label, u.level) for u in doc.units if u.kind == "section"]
    assert sections[-1] == ("Acknowledgments", "A", "Appendix A", 1)
    assert doc.units[-1].parent == next(u.id for u in doc.units if u.text == "Acknowledgments")
    # without the TOC saying so, the same paragraph is a numbered list item
    doc = read(make_docx(_BODY + app, styles=styles, numbering=numbering))
    assert [(u.kind, u.label) for u in doc.units if u.text == "Acknowledgments"] == [("list_item", "Appendix A.")]
