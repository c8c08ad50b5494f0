"""Headers and footers follow the front matter they repeat (a date, a stage line), as the
MQTT-SN editors did; other dates stay. Real .docx/.odt files, judged by LibreOffice."""
from __future__ import annotations

import io
import zipfile

import pytest

from adapters import read, write
from adapters.model import Replace, SetText
from addin_backend.edits.operations import validate_edits
from addin_backend.edits.propagate import propagate
from addin_backend.language.dates import find_dates, write_like

from ..edits.test_propagate_listings import WILD  # one place for the wild set's folder
from tests.adapters.odt.odt_build import h, odt, p

STAGE = "Committee Specification Draft 01"


def _docx(title_date: str = "09 October 2025", footer: str = f"spec-wd\t{STAGE}\t09 Oct. 2025") -> bytes:
    import docx

    d = docx.Document()
    d.add_paragraph("Widget Protocol Version 2.0", style="Title")
    d.add_paragraph(STAGE)
    d.add_paragraph(title_date)
    d.add_heading("Introduction", 1)
    d.add_paragraph("Revision WD-07 was published on 09 October 2025.")
    d.sections[0].footer.paragraphs[0].text = footer
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def _odt(footer_date: str = "2025-10-09") -> bytes:
    data = odt(p("Widget Protocol Version 2.0") + p(STAGE) + p("09 October 2025") + h("Introduction", 1)
               + p("Revision WD-07 was published on 09 October 2025."))
    master = ('<office:master-styles><style:master-page style:name="Standard"><style:footer><text:p>spec-wd<text:tab/>'
              f'{STAGE}<text:tab/>{footer_date}</text:p></style:footer></style:master-page></office:master-styles>')
    zin = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            raw = zin.read(info.filename)
            if info.filename == "styles.xml":
                raw = raw.replace(b"</office:document-styles>", master.encode() + b"</office:document-styles>")
            zout.writestr(info, raw)
    return out.getvalue()


def _set(doc, old: str, new: str) -> SetText:
    u = next(u for u in doc.units if u.text == old)
    return SetText(unit=u.id, text=new, before=old)


def _footer_edits(doc, prop):
    return [(e.old, e.text) for e in prop.edits if doc.unit(e.unit).kind == "footer"]


def test_dates_in_their_own_shapes_and_languages():
    assert [d.value for d in find_dates("am 9. Oktober 2025 und le 9 octobre 2025")] == [(2025, 10, 9)] * 2
    (d,) = find_dates("Stand: 9. Oktober 2025")
    assert write_like((2025, 10, 23), d) == "23. Oktober 2025"
    assert write_like((2025, 11, 3), find_dates("October 9, 2025")[0]) == "November 3, 2025"


def test_the_title_page_date_is_restated_in_the_footer_in_its_format():
    doc = read(_docx())
    prop = propagate(doc, None, [_set(doc, "09 October 2025", "19 October 2025")])
    assert _footer_edits(doc, prop) == [("09 Oct. 2025", "19 Oct. 2025")]
    # the body's revision record keeps its date: history, not the document's date
    assert all(doc.unit(e.unit).kind == "footer" for e in prop.edits)
    assert "document's date" in prop.edits[0].reason


def test_a_stale_footer_date_is_the_documents_date_all_the_same():
    doc = read(_docx(footer=f"spec-wd\t{STAGE}\t01 May 2025"))
    prop = propagate(doc, None, [_set(doc, "09 October 2025", "19 October 2025")])
    assert _footer_edits(doc, prop) == [("01 May 2025", "19 October 2025")]
    assert "it read 01 May 2025" in prop.edits[0].reason


def test_a_front_matter_line_the_footer_repeats_is_restated():
    doc = read(_docx())
    prop = propagate(doc, None, [_set(doc, STAGE, "Committee Specification Draft 02")])
    assert _footer_edits(doc, prop) == [(STAGE, "Committee Specification Draft 02")]


def test_a_date_changed_in_the_body_stays_out_of_the_footer():
    doc = read(_docx())
    old = "Revision WD-07 was published on 09 October 2025."
    prop = propagate(doc, None, [_set(doc, old, old.replace("09", "10"))])
    assert _footer_edits(doc, prop) == []


def test_odt_footer_follows_the_title_page_date_and_is_written_tracked():
    data = _odt()
    doc = read(data)
    edit = _set(doc, "09 October 2025", "19 October 2025")
    prop = propagate(doc, None, [edit])
    assert _footer_edits(doc, prop) == [("2025-10-09", "2025-10-19")]
    out = write(data, validate_edits(doc, [edit] + prop.edits), document=doc)
    (footer,) = [u for u in read(out).units if u.kind == "footer"]
    assert footer.text.endswith("2025-10-19") and footer.rejected_text.endswith("2025-10-09")


@pytest.mark.slow
def test_the_replayed_date_change_gives_the_editors_footer():
    """The MQTT-SN editors' 10-07 -> 10-23 date change replayed: accepted, the footer is the
    editors' own, rejected the old one (LibreOffice's view of such a footer change: tests/adapters/
    test_margins.py; of the whole replay: ``make bench-wild``)."""
    older, newer = WILD / "mqtt-sn-2.0-wd-2025-10-07.docx", WILD / "mqtt-sn-2.0-wd-2025-10-23.docx"
    if not older.exists():
        pytest.skip("the wild development set is not here")
    from adapters import accept_all, reject_all

    data = older.read_bytes()
    doc = read(data)
    edit = _set(doc, "09 October 2025", "19 October 2025")
    prop = propagate(doc, None, [edit])
    out = write(data, validate_edits(doc, [edit] + prop.edits), document=doc)

    def footers(d):
        return [u.text for u in read(d).units if u.kind == "footer"]

    assert footers(accept_all(out)) == footers(newer.read_bytes())
    assert footers(reject_all(out)) == footers(data)


def test_a_date_changed_everywhere_already_is_not_restated_twice():
    doc = read(_docx(footer=f"spec-wd\t{STAGE}\t09 October 2025"))
    title = next(u for u in doc.units if u.text == "09 October 2025")
    footer = next(u for u in doc.units if u.kind == "footer")
    at = footer.text.index("09 October")
    edits = [Replace(unit=title.id, start=0, end=2, text="19", old="09"),
             Replace(unit=footer.id, start=at, end=at + 2, text="19", old="09")]
    prop = propagate(doc, None, edits)
    assert prop.edits == [] and not [f for f in prop.findings if f.kind == "propagation_skipped"]


def test_a_date_field_in_the_footer_updates_itself():
    import docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    d = docx.Document()
    d.add_paragraph("09 October 2025")
    d.add_heading("Introduction", 1)
    para = d.sections[0].footer.paragraphs[0]
    para._p.append(parse_xml(f'<w:fldSimple {nsdecls("w")} w:instr=" SAVEDATE \\@ &quot;dd MMMM yyyy&quot; ">'
                             '<w:r><w:t>09 October 2025</w:t></w:r></w:fldSimple>'))
    out = io.BytesIO()
    d.save(out)
    doc = read(out.getvalue())
    assert [f.code.split()[0] for u in doc.units if u.kind == "footer" for f in u.fields] == ["SAVEDATE"]
    prop = propagate(doc, None, [_set(doc, "09 October 2025", "19 October 2025")])
    assert _footer_edits(doc, prop) == []
