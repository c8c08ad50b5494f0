"""REFERENCES the way real documents write them: registry tables citing sections by bare
numbers, a standard citing itself by its own designation, label words in German, French and
Spanish, and statute citations that are parts of other texts."""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

import pytest

import adapters
from adapters.model import Document, Unit
from addin_backend.graph import FAST_STAGES, build_graph
from addin_backend.graph.edges import REFERENCES, edges_of_type
from addin_backend.graph.mentions import build_label_index, find_citations, find_mentions, resolve_unit

DEVSET = Path(__file__).resolve().parents[3].parent / "shared" / "devset" / "rfc"


def _devset(name: str) -> Path:
    path = DEVSET / name
    if not path.exists():
        pytest.skip(f"the development set is not at {DEVSET}")
    return path


def spans(text: str) -> list[tuple[str, str, list[str]]]:
    return [(m.text, m.family, [i.number for i in m.items]) for m in find_mentions(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("siehe Abschnitt 3 und Kapitel 2, Abb. 3 und Tabelle 2 sowie Anhang A",
         [("Abschnitt 3", "section", ["3"]), ("Kapitel 2", "section", ["2"]), ("Abb. 3", "figure", ["3"]),
          ("Tabelle 2", "table", ["2"]), ("Anhang A", "section", ["A"])]),
        ("véase la sección 2, el artículo 5, la figura 3, la tabla 2 y el anexo A",
         [("sección 2", "section", ["2"]), ("artículo 5", "section", ["5"]), ("figura 3", "figure", ["3"]),
          ("tabla 2", "table", ["2"]), ("anexo A", "section", ["A"])]),
        ("voir la section 2, l'article 5, la figure 3, le tableau 2 et l'annexe A",
         [("section 2", "section", ["2"]), ("article 5", "section", ["5"]), ("figure 3", "figure", ["3"]),
          ("tableau 2", "table", ["2"]), ("annexe A", "section", ["A"])]),
        ("die Abschnitte 2 bis 4 und die Tabellen 1 und 3", [("Abschnitte 2 bis 4", "section", ["2", "3", "4"]),
                                                            ("Tabellen 1 und 3", "table", ["1", "3"])]),
        ("las secciones 2 a 4 y los cuadros 1 y 2", [("secciones 2 a 4", "section", ["2", "3", "4"]),
                                                     ("cuadros 1 y 2", "table", ["1", "2"])]),
    ],
)
def test_label_words_in_german_french_spanish(text, expected):
    assert spans(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Der Anspruch folgt aus § 823 Abs. 1 BGB.",
        "Strafbar nach § 202a StGB; vgl. Art. 5 Abs. 3 GG.",
        "Conforme al artículo 5 de la Ley 39/2015, de 1 de octubre.",
        "En application de l'article 1240 du Code civil.",
        "Die Pflicht ergibt sich aus § 3 des Telemediengesetzes.",
        "Processing is lawful under Article 6 GDPR.",
    ],
)
def test_statute_citations_are_parts_of_other_texts(text):
    assert find_mentions(text) == ()
    assert find_citations(text)


def _doc(*units: Unit) -> Document:
    return Document("docx", list(units))


def test_a_bare_section_sign_is_a_statute_unless_the_document_numbers_its_parts_with_it():
    law = _doc(Unit("s1", "section", "Ziel", 0, label="Section 1", number="1"),
               Unit("p1", "paragraph", "Das Ausspähen von Daten ist nach § 202 strafbar.", 1, parent="s1"))
    resolved, broken = resolve_unit(law.units[1], build_label_index(law.units))
    assert resolved == [] and broken == []
    contract = _doc(Unit("s1", "section", "§ 1 Gegenstand", 0, label="Section 1", number="1"),
                    Unit("p1", "paragraph", "Es gilt § 12.", 1, parent="s1"))
    resolved, broken = resolve_unit(contract.units[1], build_label_index(contract.units))
    assert [b.label for b in broken] == ["Section 12"]


def test_a_standard_citing_itself_by_designation_is_an_internal_reference():
    units = [Unit("t", "title", "Media Resource Control Protocol Version 2", 0),
             Unit("st", "paragraph", "RFC 6787 / draft-ietf-speechsc-mrcpv2-28", 1, style="Subtitle"),
             Unit("s4", "section", "Basics", 2, label="Section 4", number="4"),
             Unit("s42", "section", "Connecting", 3, label="Section 4.2", number="4.2", parent="s4"),
             Unit("p", "paragraph", "See Section 4.2 of RFC 6787; compare Section 3 of RFC 3261.", 4, parent="s42")]
    resolved, broken = resolve_unit(units[-1], build_label_index(units))
    assert [(r.target, r.mention.text) for r in resolved] == [("s42", "Section 4.2")]
    assert broken == []


def _bare_table_cells(path: Path) -> bytes:
    """The document with every "Section N" typed in a table cell reduced to the bare number, as
    registries commonly print their Reference column."""
    src = zipfile.ZipFile(path)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "word/document.xml":
                xml = data.decode("utf-8")
                xml = re.sub(r"<w:tbl>.*?</w:tbl>",
                             lambda m: re.sub(r"<w:t>Section (\d+(?:\.\d+)*)</w:t>", r"<w:t>\1</w:t>", m.group(0)),
                             xml, flags=re.S)
                data = xml.encode("utf-8")
            dst.writestr(info, data)
    return out.getvalue()


def test_reference_columns_cite_sections_by_bare_numbers():
    import json

    path = _devset("rfc9000.A.docx")
    truth = json.loads((DEVSET / "rfc9000.truth.json").read_text())
    doc = adapters.read(_bare_table_cells(path))
    tables = {u.label: u for u in doc.units if u.kind == "table"}
    assert tables["Table 3"].meta["cells"][1][2] == "19.1"  # the cells really are bare now
    G = build_graph(doc, stages=FAST_STAGES)
    by_number = {u.number: u.id for u in doc.units if u.kind == "section"}
    got = {(u, v) for u, v, d in edges_of_type(G, REFERENCES) if doc.unit(u).kind == "table"}
    want = {(tables[f"Table {c['table_number']}"].id, by_number[r["target_number"]])
            for c in truth["table_cell_refs"] for r in c["refs"]}
    assert got == want
    # columns that are not references ("Length", "Range": 1, 2, 0-63) cite nothing
    assert not any(u == tables["Table 4"].id for u, _ in got)


def test_renumbering_reaches_bare_numbers_in_reference_columns():
    from addin_backend.edits.pipeline import plan_edit

    doc = adapters.read(_bare_table_cells(_devset("rfc9000.A.docx")))
    G = build_graph(doc, stages=FAST_STAGES)
    plan = plan_edit(doc, G, "Delete Section 19.1", semantic=False)
    table3 = next(u for u in doc.units if u.kind == "table" and u.label == "Table 3")
    changed = {doc.unit(e.unit).text[e.start:e.end]: e.text for e in plan.propagated if e.unit == table3.id}
    assert changed.get("19.2") == "19.1" and changed.get("19.20") == "19.19"
    assert any(f.kind == "reference_to_deleted" and f.unit == table3.id for f in plan.findings)


@pytest.mark.parametrize(
    "text",
    [
        "Benutzerkonten, die in den Debian-Richtlinien, Kapitel 9.2.2 beschrieben sind.",
        "Die Beschreibung ist unter Abschnitt 11.4 der Debian-Policy erhältlich.",
        "Elle est documentée dans la Charte Debian, chapitre 9.2.2.",
        "La Charte Debian, dans son chapitre 9.2.2, fait une distinction.",
        "Como indica la Guía Debian, sección 4, el paquete se instala.",
    ],
)
def test_named_works_in_other_languages_are_other_documents(text):
    assert find_mentions(text) == ()


def test_a_section_number_is_no_finding_where_the_document_numbers_no_section():
    units = [Unit("s1", "section", "BESCHREIBUNG", 0),
             Unit("p1", "paragraph", "Zeigt die Handbuchseite für das Makropaket man aus Abschnitt 7 an.", 1, parent="s1"),
             Unit("p2", "paragraph", "Siehe Tabelle 4.", 2, parent="s1")]
    index = build_label_index(units)
    assert resolve_unit(units[1], index) == ([], [])
    assert [b.label for b in resolve_unit(units[2], index)[1]] == ["Tabelle 4"]  # a table it lacks is still one, named in its word


def test_labels_joined_before_a_citation_belong_to_the_cited_work():
    text = "The format is described in Section 5 and Appendix C of [RFC8618]; see also Section 4."
    assert [m.text for m in find_mentions(text)] == ["Section 4"]
    assert [(m.text, m.external) for m in find_citations(text)] == [("Section 5", "RFC8618"), ("Appendix C", "RFC8618")]


@pytest.mark.parametrize(
    "text, internal",
    [
        ("Figure 5: Example 1-RTT Handshake", ["Figure 5"]),  # '1-RTT' is a word, not Example 1
        ("For brevity, [HX.Y] is to be taken to refer to Section X.Y of RFC 2616.", []),  # a placeholder
        ("as described in Section 2.4.1 of the Speech Grammar Markup Format", []),
        ('Defined in Section 5.8 ("Retry Packet Integrity") of [QUIC-TLS].', []),
        ("Table 2-1 and Section IV; then Appendix A.", ["Table 2-1", "Section IV", "Appendix A"]),
    ],
)
def test_numbers_that_are_words_placeholders_or_parts_of_named_formats(text, internal):
    assert [m.text for m in find_mentions(text)] == internal


def test_a_caption_title_naming_an_example_is_no_broken_reference():
    units = [Unit("s1", "section", "Examples", 0, label="Section 1", number="1"),
             Unit("c1", "caption", "Figure 31: Verification Results Example 1", 1, label="Figure 31", parent="s1")]
    assert resolve_unit(units[1], build_label_index(units)) == ([], [])
