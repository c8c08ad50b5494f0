"""The battery of real edits (``make bench-edits``): its judge on cases written for it, and its quick
mode end to end in LibreOffice."""
from __future__ import annotations

import pytest

from benchmarks import edit_bench as eb
from tests.conftest import DEVSET_DOCS


def test_the_judge_lists_every_form_of_an_old_term_itself():
    rx = eb.old_forms("connection ID")
    text = "Connection IDs are chosen; a connection ID, the connection-ID's length, CONNECTION IDS; connection identifiers."
    assert [m.group() for m in rx.finditer(text)] == ["Connection IDs", "connection ID", "connection-ID's", "CONNECTION IDS"]
    rx = eb.old_forms("retry policy", "retry policies")
    assert [m.group() for m in rx.finditer("Retry Policies differ from the retry policy and retry-policy's scope")] == [
        "Retry Policies", "retry policy", "retry-policy's"]


def test_the_judge_sees_a_fix_that_breaks_a_name_a_code_line_or_a_word():
    words = frozenset({"worldwide", "colour", "color"})
    orig = [{"text": "It is used worldwide.", "style": "Normal"},
            {"text": "A multipart/byteranges body.", "style": "Normal"},
            {"text": "x = data-set", "style": "Source Code"},
            {"text": "The colour is set; see https://example.com/data-set.", "style": "Normal"}]
    good = ["It is used worldwide.", "A multipart/byteranges body.", "x = data-set", "The color is set; see https://example.com/data-set."]
    assert eb._fix_damage(orig, good, words) == []
    bad = ["It is used world wide.", "A multipart/byte ranges body.", "x = dataset", "The colour is set; see https://example.com/dataset."]
    got = eb._fix_damage(orig, bad, words)
    assert len(got) == 4
    assert got[0].startswith("dictionary word split") and got[1].startswith("name changed")
    assert got[2].startswith("code line") and got[3].startswith("name changed")


def test_the_judge_finds_citations_of_missing_sections_and_figures():
    paras = [{"text": "Introduction", "label": "1.", "outline": 1}, {"text": "Details", "label": "1.1.", "outline": 2},
             {"text": "Figure 1: A picture"},
             {"text": "See Section 1.1, Section 1.2, Figure 1 and Figure 2; Section 3 of [RFC9000] is elsewhere."}]
    assert eb._refs(paras) == {"Section 1.2", "Figure 2"}


def test_an_added_relationship_is_no_change_of_an_untouched_member(tmp_path):
    import zipfile

    rel = '<Relationship Id="rId1" Type="t/doc" Target="word/document.xml"/>'
    for name, extra in (("a.docx", ""), ("b.docx", '<Relationship Id="rIdL" Type="t/custom" Target="docProps/custom.xml"/>'),
                        ("c.docx", None)):
        with zipfile.ZipFile(tmp_path / name, "w") as z:
            z.writestr("_rels/.rels", f"<Relationships>{rel if extra is not None else ''}{extra or ''}</Relationships>")
            z.writestr("word/media/image1.png", b"png" if name != "c.docx" else b"PNG")
    assert eb._members(str(tmp_path / "a.docx"), str(tmp_path / "b.docx")) == []
    assert eb._members(str(tmp_path / "a.docx"), str(tmp_path / "c.docx")) == ["_rels/.rels", "word/media/image1.png"]


@pytest.mark.slow
def test_quick_battery_passes_in_libreoffice(tmp_path):
    from tests.libreoffice import require_libreoffice

    require_libreoffice()
    devset = DEVSET_DOCS.parent
    if not (DEVSET_DOCS / "rfc9002.A.docx").exists():
        pytest.skip("the development set is missing")
    cases = eb.make_cases(devset, quick=True)
    assert {c.kind for c in cases} >= {"rename_term", "delete_section", "fix"}
    for c in cases:
        eb.run_case(c, tmp_path)
    eb.judge(cases)
    failed = {c.name: c.result.get("checks") for c in cases if not c.result.get("ok")}
    assert not failed
    table = eb.table(cases)
    assert "| rename_term | 1 | 1 | 100% |" in table


def test_renaming_a_plural_term_leaves_no_unreported_singular(tmp_path):
    from adapters import read_path
    from addin_backend.service.edits import edit_file

    path = DEVSET_DOCS / "rfc9002.A.docx"
    if not path.exists():
        pytest.skip("the development set is missing")
    out = tmp_path / "out.docx"
    report = edit_file(str(path), read_path(str(path)), instruction='Rename "ack-eliciting packets" to '
                       '"ack-eliciting marker" everywhere', output=str(out), semantic=False)
    rx = eb.old_forms("ack-eliciting packets")
    units = read_path(str(out)).units
    left = [m.group() for u in units if u.text for m in rx.finditer(u.text)]
    assert left and eb.reported_places(report["findings"]) >= len(left), left  # the code lines, kept and said
    prose = " ".join(u.text for u in units if u.text and "Code" not in (u.style or ""))
    assert "ack-eliciting marker " in prose and "ack-eliciting markers" in prose  # each in its number
