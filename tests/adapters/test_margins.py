"""Page headers and footers are units in both formats, and edits of them are tracked changes
that Word's and LibreOffice's Accept All / Reject All resolve (judged by LibreOffice itself)."""
from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from adapters import accept_all, read, reject_all, write
from adapters.model import make_edit

from .odt.odt_build import h, odt, p

DATE, NEW = "09 October 2025", "23 October 2025"
FOOTER = f"spec-wd\tDraft 01\t{DATE}"


def _docx(second_section: bool = True) -> bytes:
    """A Word document (python-docx's template) with a header and a footer; its second section
    shows them by inheritance (its w:sectPr names none)."""
    import docx

    d = docx.Document()
    d.add_heading("Introduction", 1)
    d.add_paragraph(f"This draft is dated {DATE}.")
    s0 = d.sections[0]
    s0.footer.paragraphs[0].text = FOOTER
    s0.header.paragraphs[0].text = "Working Draft"
    if second_section:
        d.add_section()
        d.add_paragraph("An appendix page.")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def _odt() -> bytes:
    """An ODT whose default page style has a header and a two-line footer with a page number."""
    data = odt(h("Introduction", 1) + p(f"This draft is dated {DATE}."))
    master = ('<office:master-styles><style:master-page style:name="Standard"><style:header><text:p>Working Draft</text:p>'
              '</style:header><style:footer><text:p>spec-wd<text:tab/>Draft 01<text:tab/>' + DATE + '</text:p>'
              '<text:p>Page <text:page-number text:select-page="current">1</text:page-number></text:p></style:footer>'
              '</style:master-page></office:master-styles>')
    zin = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            raw = zin.read(info.filename)
            if info.filename == "styles.xml":
                raw = raw.replace(b"</office:document-styles>", master.encode() + b"</office:document-styles>")
            zout.writestr(info, raw)
    return out.getvalue()


def _margins(doc):
    return [(u.kind, u.text, u.label) for u in doc.units if u.kind in ("header", "footer")]


def _date_edits(doc):
    edits = []
    for u in doc.units:
        if u.kind == "footer" and DATE in u.text:
            i = u.text.index(DATE)
            edits.append(make_edit("replace", unit=u.id, start=i, end=i + len(DATE), text=NEW, before=u.text, author="LEDGER"))
    return edits


def _sect_prs(data: bytes) -> list[str]:
    xml = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode()
    return re.findall(r"<w:sectPr[ >].*?</w:sectPr>", xml, re.S)


def test_docx_headers_and_footers_are_units_outside_the_body():
    doc = read(_docx())
    assert _margins(doc) == [("footer", FOOTER, "Footer"), ("header", "Working Draft", "Header")]
    footer = next(u for u in doc.units if u.kind == "footer")
    assert footer.anchor.part == "word/footer1.xml" and footer.meta["pages"] == ["default"]
    assert footer.parent is None and footer.id.startswith("ftr-")
    assert all(u.kind not in ("header", "footer") for u in doc.body())
    assert FOOTER not in doc.lines()


def test_odt_headers_and_footers_are_units_with_their_fields():
    doc = read(_odt())
    footer_text = f"{FOOTER}\nPage 1"
    assert _margins(doc) == [("header", "Working Draft", "Header"), ("footer", footer_text, "Footer")]
    footer = next(u for u in doc.units if u.kind == "footer")
    assert (footer.anchor.part, footer.anchor.path) == ("styles.xml", "/0/1")
    assert [(f.code, f.result) for f in footer.fields] == [("text:page-number", "1")]
    assert all(u.kind not in ("header", "footer") for u in doc.body())


def test_docx_footer_edit_is_a_tracked_change_every_section_names():
    data = _docx()
    doc = read(data)
    out = write(data, _date_edits(doc), document=doc)
    xml = zipfile.ZipFile(io.BytesIO(out)).read("word/footer1.xml").decode()
    assert "<w:del " in xml and "<w:ins " in xml
    assert [u.text for u in read(accept_all(out)).units if u.kind == "footer"] == [FOOTER.replace(DATE, NEW)]
    assert [u.text for u in read(reject_all(out)).units if u.kind == "footer"] == [FOOTER]
    # the second section showed the footer by inheritance: now it names it (the same part)
    before, after = _sect_prs(data), _sect_prs(out)
    assert "footerReference" not in before[1] and after[1].count("footerReference") == 1
    rid = re.search(r'footerReference w:type="default" r:id="(\w+)"', before[0]).group(1)
    assert f'r:id="{rid}"' in after[1] and "headerReference" not in after[1]  # the header was not edited


def test_docx_a_footer_edit_leaves_the_main_part_alone_when_no_section_inherits():
    data = _docx(second_section=False)
    doc = read(data)
    out = write(data, _date_edits(doc), document=doc)
    main = lambda d: zipfile.ZipFile(io.BytesIO(d)).read("word/document.xml")  # noqa: E731
    assert main(out) == main(data)


def test_odt_footer_edit_is_tracked_in_the_footer_s_own_change_table():
    data = _odt()
    doc = read(data)
    out = write(data, _date_edits(doc), document=doc)
    styles = zipfile.ZipFile(io.BytesIO(out)).read("styles.xml").decode()
    footer = styles[styles.index("<style:footer>"):]
    assert footer.index("<text:tracked-changes>") < footer.index("<text:p")
    assert zipfile.ZipFile(io.BytesIO(out)).read("content.xml") == zipfile.ZipFile(io.BytesIO(data)).read("content.xml")
    (footer_unit,) = [u for u in read(out).units if u.kind == "footer"]
    assert footer_unit.text.startswith(FOOTER.replace(DATE, NEW)) and footer_unit.rejected_text.startswith(FOOTER)
    assert [u.text for u in read(accept_all(out)).units if u.kind == "footer"] == [f"{FOOTER.replace(DATE, NEW)}\nPage 1"]
    assert [u.text for u in read(reject_all(out)).units if u.kind == "footer"] == [f"{FOOTER}\nPage 1"]


def test_a_header_takes_text_changes_only():
    from adapters.errors import AnchorError

    data = _odt()
    doc = read(data)
    header = next(u for u in doc.units if u.kind == "header")
    with pytest.raises(AnchorError, match="text changes only"):
        write(data, [make_edit("delete", unit=header.id)], document=doc)


def _lo_margins(tmp_path: Path, files: dict[str, bytes]) -> dict[str, dict]:
    from tests.libreoffice import run_uno_script

    paths = []
    for name, data in files.items():
        path = tmp_path / name
        path.write_bytes(data)
        paths.append(str(path))
    proc = run_uno_script(Path(__file__).resolve().parent.parent / "uno_margins.py", *paths, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {Path(r["file"]).name: r for r in map(json.loads, proc.stdout.splitlines())}


def _footer_texts(view: dict) -> set[str]:
    return {text.split("\n")[0] for style in view.values() for prop, text in style.items() if prop.startswith("Footer")}


@pytest.mark.slow
def test_libreoffice_shows_and_resolves_the_footer_changes(tmp_path):
    files = {}
    for name, data in (("two-sections.docx", _docx()), ("footer.odt", _odt())):
        doc = read(data)
        files[name] = write(data, _date_edits(doc), document=doc)
    got = _lo_margins(tmp_path, files)
    for name, result in got.items():
        assert "error" not in result, result
        changes = [(r["type"], r["text"]) for r in result["redlines"]]
        assert changes and set(changes) == {("Delete", DATE[:2]), ("Insert", NEW[:2])}, name  # the changed word
        assert all(r["where"].endswith("FooterText") for r in result["redlines"]), name
        # every page style that shows the footer (the docx's second section too) resolves it
        assert _footer_texts(result["accepted"]) == {FOOTER.replace(DATE, NEW)}, name
        assert _footer_texts(result["rejected"]) == {FOOTER}, name
    assert len(got["two-sections.docx"]["redlines"]) == 4  # the footer in both sections' page styles


def test_docx_first_and_even_page_parts_count_where_the_document_shows_them():
    import docx

    d = docx.Document()
    d.add_paragraph("Body.")
    s = d.sections[0]
    s.footer.paragraphs[0].text = "Page footer"
    s.even_page_footer.paragraphs[0].text = "Even footer"
    s.first_page_footer.paragraphs[0].text = "Title page footer"
    for first, even in ((False, False), (True, False), (True, True)):
        s.different_first_page_header_footer = first
        d.settings.odd_and_even_pages_header_footer = even
        out = io.BytesIO()
        d.save(out)
        labels = sorted(u.label for u in read(out.getvalue()).units if u.kind == "footer")
        assert labels == sorted(["Footer"] + (["First-page footer"] if first else []) + (["Even-page footer"] if even else []))
