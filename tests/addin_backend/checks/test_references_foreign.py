"""Broken references an editor trusts: another work's part is never this document's, and a
chapter-numbered document's "figures 4-1 and 4-2" are two figures (issue 28)."""
from __future__ import annotations

from pathlib import Path

import pytest

from addin_backend.checks.document import check_document
from addin_backend.graph.label_index import build_label_index

from ..edits.docs import make_doc

WILD = Path("/work/shared/devset/wild")


def _broken(doc):
    return [(f.kind, f.unit, f.evidence) for f in check_document(doc)
            if f.kind in ("broken_reference", "missing_target")]


def _numbered(*rows):
    head = [("s1", "section", "Scope", None, "Section 1", "1", "Heading 1", None, 1),
            ("s2", "section", "Terms", None, "Section 2", "2", "Heading 1", None, 1)]
    return make_doc(head + list(rows))


def test_a_section_of_a_cited_work_is_not_this_documents():
    doc = _numbered(
        ("p1", "paragraph", "The value MUST conform to [RFC3986], more specifically section 1.1.3 of it.", "s1"),
        ("p2", "paragraph", "Tags follow RFC 5646; see section 2.2.4 for the subtags.", "s1"),
        ("p3", "paragraph", "See section 9 for the details.", "s1"),  # this document's: reported
        ("p4", "paragraph", "Keys are hashed as in section 7.", "s1"),  # reported too
        ("sR", "section", "Normative References", None, "Section 3", "3", "Heading 1", None, 1),
        ("r1", "paragraph", "[RFC3986] Berners-Lee, T., \"Uniform Resource Identifier (URI): Generic Syntax\", "
                            "STD 66, RFC 3986, January 2005.", "sR"),
    )
    assert _broken(doc) == [("broken_reference", "p3", "section 9"), ("broken_reference", "p4", "section 7")]


def test_a_paragraphs_sentence_is_no_theorem():
    """German contracts cite a sentence of a paragraph: "Absatz 1 Satz 2", "§ 1 Abs. 2 Satz 1".
    "Satz" is also German's word for a theorem; after a part's number it is that part's sentence,
    not a theorem the document lacks. A theorem cited alone still is one."""
    doc = make_doc([
        ("s1", "section", "§ 1 Gegenstand", None, "§ 1", "1", "Heading 1", None, 1),
        ("p1", "paragraph", "(1) Der Auftragnehmer erbringt die Leistung. (2) Die Vergütung ist nach Absatz 1 "
                            "Satz 2 fällig.", "s1"),
        ("s2", "section", "§ 2 Haftung", None, "§ 2", "2", "Heading 1", None, 1),
        ("p2", "paragraph", "Die Haftung richtet sich nach § 1 Abs. 2 Satz 1 und nach Abschnitt 1 Satz 2.", "s2"),
        ("p3", "paragraph", "Wie Satz 3 zeigt, ist die Summe endlich.", "s2"),
    ])
    assert _broken(doc) == [("broken_reference", "p3", "Satz 3")]


def _contract(tmp_path, name, paragraphs):
    """A contract as Word writes it: typed headings ("Articolo 1 – Oggetto"), read by the reader."""
    docx = pytest.importorskip("docx")
    import adapters

    document = docx.Document()
    for style, text in paragraphs:
        document.add_paragraph(text, style=style)
    path = tmp_path / name
    document.save(path)
    return adapters.read_path(str(path))


@pytest.mark.parametrize("name, paragraphs, missing", [
    ("contrat.docx", [
        ("Heading 1", "Article 1 \u2013 Objet"),
        ("Normal", "Le contrat r\u00e9git la prestation d\u00e9crite \u00e0 l'annexe A, conform\u00e9ment \u00e0 l'article "
                   "L. 121-1 du Code de la consommation, \u00e0 l'article 1240 du Code civil et \u00e0 l'article 6, "
                   "paragraphe 1, point b), du r\u00e8glement (UE) 2016/679."),
        ("Heading 1", "Article 2 \u2013 Dur\u00e9e"),
        ("Normal", "Les articles 1 et 2 s'appliquent, ainsi que l'article 7."),
        ("Heading 1", "Annexe A \u2013 Prestation"),
        ("Normal", "Voir l'article R. 4127-1 du code de la sant\u00e9 publique et l'article 2."),
    ], "article 7"),
    ("contrato-es.docx", [
        ("Heading 1", "Art\u00edculo 1. Objeto"),
        ("Normal", "El contrato regula el Servicio del Anexo A, conforme al art\u00edculo 6.1.b) del RGPD, al "
                   "art\u00edculo 5 de la Ley Org\u00e1nica 3/2018 y al apartado 4.2 de la norma ISO 27001."),
        ("Heading 1", "Art\u00edculo 2. Duraci\u00f3n"),
        ("Normal", "Se aplican los art\u00edculos 1 y 2 y el art\u00edculo 8."),
        ("Heading 1", "Anexo A. Servicio"),
        ("Normal", "V\u00e9ase el art\u00edculo 2."),
    ], "art\u00edculo 8"),
    ("vertrag.docx", [
        ("Heading 1", "\u00a7 1 Gegenstand"),
        ("Normal", "(1) Der Vertrag regelt die Leistung nach Anlage A. (2) Es gelten \u00a7\u00a7 305 ff. BGB, \u00a7 823 "
                   "Abs. 1 Satz 2 BGB und Art. 6 Abs. 1 lit. b DSGVO."),
        ("Heading 1", "\u00a7 2 Haftung"),
        ("Normal", "Die Haftung richtet sich nach \u00a7 1 Abs. 2 und \u00a7 2; Abschnitt 4.2 der ISO 27001 bleibt "
                   "unber\u00fchrt. Es gilt \u00a7 6."),
        ("Heading 1", "Anlage A Leistung"),
        ("Normal", "Siehe \u00a7 2."),
    ], "\u00a7 6"),
    ("contratto.docx", [
        ("Heading 1", "Articolo 1 \u2013 Oggetto"),
        ("Normal", "Il contratto disciplina il Servizio descritto nell'Allegato A, ai sensi dell'articolo 1341 "
                   "del Codice civile e del Decreto legislativo 196/2003, in particolare il suo articolo 13, comma 2."),
        ("Heading 1", "Articolo 2 \u2013 Obblighi"),
        ("Normal", "Il Fornitore rispetta l'articolo 1, comma 1, e il paragrafo 2.1 della norma ISO 27001. "
                   "Si vedano gli articoli 1 e 2 e l'articolo 9."),
        ("Heading 1", "Allegato A \u2013 Servizio"),
        ("Normal", "Il Servizio comprende il backup (vedi articolo 2)."),
    ], "articolo 9"),
    ("contrato.docx", [
        ("Heading 1", "Artigo 1 \u2013 Objeto"),
        ("Normal", "O contrato rege o Servi\u00e7o descrito no Anexo A, nos termos do artigo 5.\u00ba da Lei "
                   "n.\u00ba 58/2019 e do Regulamento (UE) 2016/679, em especial o seu artigo 32.\u00ba"),
        ("Heading 1", "Artigo 2 \u2013 Obriga\u00e7\u00f5es"),
        ("Normal", "O Prestador cumpre o artigo 1.\u00ba, n.\u00ba 2, e a sec\u00e7\u00e3o 3 da norma ISO 27001. "
                   "Ver os artigos 1 e 2 e o artigo 7."),
        ("Heading 1", "Anexo A \u2013 Servi\u00e7o"),
        ("Normal", "Ver artigo 2."),
    ], "artigo 7"),
    ("overeenkomst.docx", [
        ("Heading 1", "Artikel 1 Onderwerp"),
        ("Normal", "Deze overeenkomst regelt de Dienst uit Bijlage A, op grond van artikel 6:248 van het Burgerlijk "
                   "Wetboek."),
        ("Heading 1", "Artikel 2 Verplichtingen"),
        ("Normal", "De Leverancier volgt artikel 1, lid 2, en paragraaf 4.2 van ISO 27001. Zie de artikelen 1 en 2 "
                   "en artikel 8."),
        ("Heading 1", "Bijlage A Dienst"),
        ("Normal", "Zie artikel 2."),
    ], "artikel 8"),
])
def test_contracts_cite_their_own_articles_in_six_languages(tmp_path, name, paragraphs, missing):
    """The label grammar reads "articolo", "artigo", "bijlage" as it reads "Article" and "Anhang":
    the headings get their labels, the articles cited link to them, and an article the contract
    lacks is reported. A statute's or a standard's part ("articolo 1341 del Codice civile",
    "article L. 121-1 du Code de la consommation", "art\u00edculo 6.1.b) del RGPD", "\u00a7\u00a7 305 ff.
    BGB", "sec\u00e7\u00e3o 3 da norma ISO 27001", "paragraaf 4.2 van ISO 27001", "il suo articolo 13"
    after a decree) is that work's, not a missing part of the contract, and the law's abbreviation
    (BGB, DSGVO, RGPD) needs no expansion."""
    from addin_backend.graph.build import build_graph

    doc = _contract(tmp_path, name, paragraphs)
    sections = [u for u in doc.units if u.kind == "section"]
    assert [u.label.split()[1] for u in sections] == ["1", "2", "A"]
    graph = build_graph(doc, semantic=False)
    cited = {(a, b) for a, b, d in graph.edges(data=True) if d.get("type") == "REFERENCES"}
    body = [u.id for u in doc.units if u.kind == "paragraph"]
    assert (body[0], sections[2].id) in cited  # the annex
    assert {(body[1], sections[0].id), (body[1], sections[1].id), (body[2], sections[1].id)} <= cited
    assert [(kind, evidence) for kind, _, evidence in _broken(doc)] == [("broken_reference", missing)]
    assert [f.evidence for f in check_document(doc) if f.kind == "undefined_acronym"] == []


def test_a_cited_tag_only_counts_when_the_document_lists_it():
    # "[MQTT-SN-1.2-3]" is a statement id, not a listed work: the section stays this document's
    doc = _numbered(("p1", "paragraph", "A Server MUST reject it [MQTT-SN-1.2-3], as section 8 says.", "s1"))
    assert _broken(doc) == [("broken_reference", "p1", "section 8")]


def test_a_label_inside_a_spelled_out_name_is_a_name():
    doc = _numbered(
        ("p1", "paragraph", "SHA-1 Specifies the SHA-1 (secure-hash algorithm 1) hash function.", "s1"),
        ("p2", "paragraph", "US Secure Hash Algorithm 1 (SHA1) is deprecated.", "s1"),
        ("p3", "paragraph", "The keys are derived by Algorithm 1.", "s1"),  # a missing algorithm: reported
    )
    assert _broken(doc) == [("broken_reference", "p3", "Algorithm 1")]


def test_a_bibliography_entry_cites_another_works_parts():
    doc = _numbered(
        ("sR", "section", "References", None, "Section 3", "3", "Heading 1", None, 1),
        ("r1", "paragraph", "[Davis] M. Davis, \"UNICODE NORMALIZATION FORMS\", Unicode Standard Annex 15, "
                            "February 2016.", "sR"),
    )
    assert _broken(doc) == []


def test_a_document_that_numbers_no_sections_cites_none_by_number():
    # 2 stray typed numbers among 30 headings number nothing: "section 7" is the published numbering's
    rows = [(f"s{i}", "section", f"Topic {i}", None, None, None, "Heading 2", None, 2) for i in range(28)]
    rows += [("x1", "section", "9.2 Constants", None, None, None, "Heading 2", None, 2),
             ("x2", "section", "11.3 Custom Objects", None, None, None, "Heading 2", None, 2),
             ("p1", "paragraph", "Added a new extension mechanism in section 7.", "s1")]
    doc = make_doc(rows)
    assert not build_label_index(doc.units).numbered_sections
    assert _broken(doc) == []
    rows += [(f"n{i}", "section", f"{i} Numbered {i}", None, None, None, "Heading 1", None, 1) for i in range(1, 6)]
    assert build_label_index(make_doc(rows).units).numbered_sections  # 7 of 35 headings: numbered


def test_chapter_numbered_figures_in_a_plural_mention():
    doc = _numbered(
        ("c1", "paragraph", "Figure 4-1 \u2013 Connect procedure", "s2"),
        ("c2", "paragraph", "Figure 4-2 \u2013 Connect with authentication", "s2"),
        ("c3", "paragraph", "Figure 2-1 \uff0dStructure of a packet", "s2"),
        ("p1", "paragraph", "The procedure is illustrated in figures 4-1 and 4-2.", "s1"),
        ("p2", "paragraph", "It MUST contain one of the indexes in table 3-39.", "s1"),
    )
    got = [f for f in check_document(doc) if f.kind in ("broken_reference", "missing_target")]
    assert [(f.unit, f.evidence) for f in got] == [("p2", "table 3-39")]
    assert "Table 3-39" in got[0].message and "Table 3," not in got[0].message


@pytest.mark.skipif(not WILD.is_dir(), reason="the wild set is not here")
def test_wild_documents_keep_only_real_broken_references():
    from adapters import read_path

    stix = read_path(str(WILD / "stix-v2.1.1-csd01.docx"))
    assert _broken(stix) == []  # bibliography titles, cited RFC sections, the revision history's numbering
    mqtt = read_path(str(WILD / "mqtt-sn-2.0-wd-2025-10-23.docx"))
    got = _broken(mqtt)
    assert {e for _k, _u, e in got} == {"table 3-39"}  # the protection schemes are Figure 3-29 now


def test_a_section_followed_by_a_cited_works_tag_is_that_works():
    from addin_backend.graph.mentions import find_citations, find_mentions

    text = "The size is computed as in §15.5 [CSS2]; subtags follow §2.2.4 (Region Subtag) of [RFC5646]. See §3."
    assert [m.text for m in find_mentions(text)] == ["§3"]
    assert [(m.text, m.external) for m in find_citations("Fields are in Section 4 [RFC9110].")] == [("Section 4", "RFC9110")]
    # a statement id after a sentence of this document is no citation of another work
    assert [m.text for m in find_mentions("as defined in section 4.2 [MQTT-SN-4.2-1].")] == ["section 4.2"]
    doc = _numbered(("p1", "paragraph", "Fonts are sized as in §15.5 [CSS2] and §2.2.4 (Region Subtag) of [RFC5646].", "s1"))
    assert _broken(doc) == []
