"""The mention finder: minimal spans, families, ranges and lists, external citations, standards."""
from __future__ import annotations

import pytest

from adapters.model import Unit
from addin_backend.graph.mentions import (
    build_label_index,
    canonical_label,
    find_citations,
    find_mentions,
    parse_label,
    resolve_unit,
)


def spans(text):
    return [(m.text, m.family, [i.number for i in m.items]) for m in find_mentions(text)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("as shown in Figure 3 above", [("Figure 3", "figure", ["3"])]),
        ("see Fig. 3(b) for the panel", [("Fig. 3", "figure", ["3"])]),
        ("Section 2.1 and §2.1 and Sec. 2", [("Section 2.1", "section", ["2.1"]), ("§2.1", "section", ["2.1"]),
                                             ("Sec. 2", "section", ["2"])]),
        ("Chapter 3 and Appendix A", [("Chapter 3", "section", ["3"]), ("Appendix A", "section", ["A"])]),
        ("Equation (1), Eq. 1 and Eq. (2)", [("Equation (1)", "equation", ["1"]), ("Eq. 1", "equation", ["1"]),
                                            ("Eq. (2)", "equation", ["2"])]),
        ("Theorem 2 uses Lemma 3.1", [("Theorem 2", "theorem", ["2"]), ("Lemma 3.1", "lemma", ["3.1"])]),
        ("Definition 4, Proposition 5, Corollary 1 and Algorithm 2",
         [("Definition 4", "definition", ["4"]), ("Proposition 5", "proposition", ["5"]),
          ("Corollary 1", "corollary", ["1"]), ("Algorithm 2", "algorithm", ["2"])]),
        ("Annex B, Clause 5.2, Article 7", [("Annex B", "section", ["B"]), ("Clause 5.2", "section", ["5.2"]),
                                           ("Article 7", "section", ["7"])]),
        ("Table B.1 and Figure A.2", [("Table B.1", "table", ["B.1"]), ("Figure A.2", "figure", ["A.2"])]),
        ("in section 4 of this document", [("section 4", "section", ["4"])]),
        ("per paragraph 3.2.1 and paras. 4.1-4.2; paragraph 2 is prose",
         [("paragraph 3.2.1", "section", ["3.2.1"]), ("paras. 4.1-4.2", "section", ["4.1", "4.2"])]),
        ("see Annex C of this document (see 5.3); Table 2-1", [("Annex C", "section", ["C"]),
                                                               ("5.3", "section", ["5.3"]),
                                                               ("Table 2-1", "table", ["2-1"])]),
    ],
)
def test_mentions_have_minimal_spans(text, expected):
    assert spans(text) == expected


def test_ranges_expand_and_mark_implied_numbers():
    (m,) = find_mentions("Sections 2-4 apply.")
    assert m.text == "Sections 2-4"
    assert [(i.number, i.explicit) for i in m.items] == [("2", True), ("3", False), ("4", True)]
    (m,) = find_mentions("Tables 2.1\u20132.3 list them")
    assert [i.number for i in m.items] == ["2.1", "2.2", "2.3"]
    (m,) = find_mentions("Eqs. (1)-(3) hold")
    assert m.text == "Eqs. (1)-(3)" and [i.number for i in m.items] == ["1", "2", "3"]


@pytest.mark.parametrize("text, numbers", [
    ("I valori sono riportati nelle tabelle 1 e 2 e nelle figure 3 e 4 del documento.", [["1", "2"], ["3", "4"]]),
    ("Vedi le tabelle 1 e 2.", [["1", "2"]]),  # too short to tell its language: the article tells
    ("Die Werte stehen in der Tabelle 1 und in der Abbildung 2.", [["1"], ["2"]]),  # German: one table
    ("See Figure 1 and 2 for the values.", [["1"]]),  # English: one figure
])
def test_a_form_plural_in_one_language_only_lists_in_that_language(text, numbers):
    assert [[i.number for i in m.items] for m in find_mentions(text)] == numbers


def test_letter_ranges_expand():
    (m,) = find_mentions("Annexes A to C apply.")
    assert [(i.number, i.explicit) for i in m.items] == [("A", True), ("B", False), ("C", True)]
    (m,) = find_mentions("see Appendices B-D")
    assert [i.number for i in m.items] == ["B", "C", "D"]


@pytest.mark.parametrize("text", ["see 4.2 GHz", "as described in 4.2 seconds", "defined in 12.5 % of cases",
                                  "given in 2.5 km"])
def test_a_measurement_after_a_cue_is_no_clause_reference(text):
    assert find_mentions(text) == ()


@pytest.mark.parametrize("text, internal", [
    ("nach § 823 Abs. 1 Satz 2 BGB haftet, wer; Satz 4 gilt entsprechend", ["Satz 4"]),
    ("conforme al artículo 5 de la Ley 39/2015 y la Sección 3", ["Sección 3"]),
    ("selon l'article 1240 du Code civil et l'article 3", ["article 3"]),
    ("nach § 823 des Bürgerlichen Gesetzbuches und § 4", ["§ 4"]),
    ("op grond van artikel 6:248 van het Burgerlijk Wetboek en artikel 32 van Verordening (EU) 2016/679; "
     "zie artikel 3 van deze overeenkomst", ["artikel 3"]),
    # the law's abbreviation with full stops, and an ordinal after the number
    ("ai sensi dell'articolo 13 del D.P.R. 445/2000 e dell'articolo 2", ["articolo 2"]),
    ("conforme a l'article 1240 C. civ. et a l'article 4", ["article 4"]),
    ("nos termos do artigo 5.\u00ba da Lei n.\u00ba 58/2019 e do artigo 3.\u00ba", ["artigo 3"]),
    ("siehe § 3, d.h. die Regel", ["§ 3"]),  # a lower-case abbreviation names no law
    # a French code numbers its articles after the letter of its part
    ("conformément à l'article L. 121-1 du Code de la consommation et à l'article 4", ["article 4"]),
    ("selon l'article R. 4127-1 du code de la santé publique", []),
    # the cited part's sub-parts before the law's name, and a code abbreviated in lower case
    ("under Article 6(1)(b) GDPR and Article 4", ["Article 4"]),
    ("según el artículo 6.1.b) del RGPD y el artículo 3", ["artículo 3"]),
    ("ai sensi dell'articolo 2043 c.c. e dell'articolo 3", ["articolo 3"]),
    # finer locators separated by commas, as EU acts are cited
    ("selon l'article 6, paragraphe 1, point b), du règlement (UE) 2016/679 et l'article 3", ["article 3"]),
    ("Article 6, paragraph 1, point (b), of Regulation (EU) 2016/679 and Article 2", ["Article 2"]),
    ("see Article 5, paragraph 3.2.1 and Article 6", ["Article 5", "paragraph 3.2.1", "Article 6"]),
])
def test_a_statutes_finer_locators_belong_to_its_citation(text, internal):
    """The locators after a statute's number, up to the law's name, are that law's parts; a
    later one with the same word is this document's again."""
    assert [m.text for m in find_mentions(text)] == internal


@pytest.mark.parametrize("text, law", [
    ("gemäß §§ 305 ff. BGB", "BGB"), ("Art. 6 Abs. 1 lit. b DSGVO", "DSGVO"), ("Article 6(1)(b) GDPR", "GDPR"),
    ("artículo 6.1.b) del RGPD", "RGPD"),
])
def test_a_statute_citation_names_its_law(text, law):
    """The law's name is the citation's work (what the acronym check takes for a designation): a
    locator's letter ("lit. b") is not the start of it."""
    assert [m.external for m in find_citations(text)] == [law]


@pytest.mark.parametrize("text, number", [
    ("as laid down in 4.2 above", "4.2"), ("in accordance with 5.3 of this part", "5.3"),
    ("pursuant to 6.2, the operator", "6.2"), ("as required by 7.1, the seller", "7.1"),
    ("as calculated in 3.4, the rate", "3.4"),
])
def test_the_cues_of_a_bare_clause_number(text, number):
    assert [i.number for m in find_mentions(text) for i in m.items] == [number]


@pytest.mark.parametrize("text", ["Section 3 of the Operator Manual applies",
                                  "Annex B of the Data Protection Directive applies",
                                  "Table 2 of the vendor datasheet applies"])
def test_a_part_of_a_named_work_is_no_mention_of_this_document(text):
    assert find_mentions(text) == ()


@pytest.mark.parametrize("text, internal", [
    ("the Regulation (EU) 2016/679, in particular its Article 32", []),
    ("le règlement (UE) 2016/679, notamment son article 32, paragraphe 1", []),
    ("die Verordnung (EU) 2016/679, insbesondere ihr Artikel 32", []),
    ("la Ley 39/2015, en particular su artículo 5", []),
    ("il Decreto legislativo 196/2003, in particolare il suo articolo 13", []),  # a word before the number
    ("[QUIC-TLS] and its Section 5.8", []),
    ("Regulation (EU) 2016/679, see Art. 5 and its Article 32", []),  # "Art." ends no sentence
    ("RFC 9110 and our Section 3 apply", ["Section 3"]),  # the writer's own
    ("This document and its Section 3 apply", ["Section 3"]),  # no other work named
    ("RFC 9110 is cited. Its Section 3 is ours.", ["Section 3"]),  # another sentence
])
def test_a_possessives_part_belongs_to_the_work_its_sentence_named(text, internal):
    assert [m.text for m in find_mentions(text)] == internal


def test_lists_follow_plural_words_only():
    assert spans("Figures 1 and 3 show") == [("Figures 1 and 3", "figure", ["1", "3"])]
    assert spans("Figures 1, 2, and 5") == [("Figures 1, 2, and 5", "figure", ["1", "2", "5"])]
    assert spans("Table 1, 2019 data") == [("Table 1", "table", ["1"])]
    # a dotted number after a singular clause word lists another clause, resolved only if it exists
    (m,) = find_mentions("Requirements are given in Clause 5 and 7.2.")
    assert m.text == "Clause 5 and 7.2" and [(i.number, i.explicit) for i in m.items] == [("5", True), ("7.2", False)]


def test_number_spans_point_at_the_numbers():
    text = "See Figures 1 and 3."
    (m,) = find_mentions(text)
    assert [text[i.start : i.end] for i in m.items] == ["1", "3"]


@pytest.mark.parametrize(
    "text",
    [
        "[RFC9110]",
        "Section 3 of [RFC9110]",
        "(Smith et al., 2020, Table 2)",
        "RFC 9110, Section 3 defines it",
        "[RFC9110], Section 4.1",
        "see [5, Sec. 2]",
        "Figure 2 in [12]",
        "Clause 4.1 of ISO 9001:2015",
        "ISO/IEC 27001 Annex A",
        "Section 2 of the HTTP specification",
        "Figure 2 of Smith et al. (2020)",
        "Table 3 of Ref. [4]",
        "IEC 61508-3:2010, Table A.1",
        "EN ISO 13849-1:2015 Table K.1",
        "([HTTP], Section 9.3)",
        "Sections 4.3.1 and 4.3.2 of [HTTP]",
        "see 5.2 of ISO 27001",
        "Smith and Jones (2019) Figure 3",
        # a short description of another document closed by its citation key
        "Table 2 of the vendor datasheet [VND-114] gives the rated limits.",
        "Figure 4 of the Intel 64 Architectures Software Developer Manual shows the layout.",
        "Clause 6 of the supplier's quality handbook",
        # a numbered document named just before
        "See VA Handbook 6500.6, Appendix C, paragraph 3.a.",
        "Regulation (EU) 2016/679, Article 17 gives the right to erasure.",
        "as the Data Protection Act 2018, Section 7 requires",
        # another work named with an acronym (this document is "this License")
        "without being bound by section 3 of the GNU GPL.",
        "the requirements of the GNU Affero General Public License, section 13, concerning",
    ],
)
def test_external_citations_are_not_mentions(text):
    assert find_mentions(text) == ()


def test_a_bracketed_citation_after_an_internal_label_does_not_make_it_external():
    assert spans("Table 2 in Section 4 [12] lists the limits.") == [("Table 2", "table", ["2"]),
                                                                     ("Section 4", "section", ["4"])]
    assert spans("See Table 3 of this report [3].") == [("Table 3", "table", ["3"])]


def test_bare_clause_numbers_need_a_cue_and_no_unit():
    assert spans("see 5.2.1 for details") == [("5.2.1", "section", ["5.2.1"])]
    assert spans("as specified in 4.3 and 4.4.") == [("4.3 and 4.4", "section", ["4.3", "4.4"])]
    assert spans("It took 5.2 seconds and rose to 4.1") == []
    assert spans("see 5 for details") == []
    assert all(m.bare for m in find_mentions("see 5.2.1"))


def test_words_that_are_not_labels():
    assert spans("for example 2 units; the claim 2 fails; Part 2; Step 3") == []
    assert spans("state of the art. 3 new ideas") == []


def test_labels_parse_into_family_and_number():
    assert parse_label("Section 2.1") == ("section", "2.1")
    assert parse_label("Equation (12)") == ("equation", "12")
    assert parse_label("Annex C") == ("section", "C")
    assert parse_label("Table B.1") == ("table", "B.1")
    assert canonical_label("section", "9", "Articles") == "Article 9"
    assert canonical_label("figure", "7", "Fig.") == "Figure 7"


def _units():
    return [
        Unit("s2", "section", "Method", 0, label="Section 2", number="2"),
        Unit("s3", "section", "Annex B (normative) Layout", 1),
        Unit("s4", "section", "5.2.1 Keys", 2),
        Unit("f1", "figure", "", 3, label="Figure 2-1"),
        Unit("c1", "caption", "Figure 2-1: A figure numbered by chapter", 4, label="Figure 2-1", parent="f1"),
        Unit("t1", "table", "a | b", 5, label="Table 3"),
        Unit("t2", "table", "c | d", 6, label="Table 4"),
    ]


def test_index_reads_labels_numbers_and_headings():
    idx = build_label_index(_units())
    assert idx.resolve("section", "2") == "s2"
    assert idx.resolve("section", "B") == "s3"  # from the heading text "Annex B (normative) ..."
    assert idx.resolve("section", "5.2.1") == "s4"  # from the heading text "5.2.1 Keys"
    assert idx.resolve("figure", "2-1") == "f1"  # the figure wins over its caption


def test_resolution_and_broken_references():
    idx = build_label_index(_units())
    u = Unit("p", "paragraph", "Figure 2-1 and Tables 3-4 and Table 9; see 5.2.1 and Annex B. Sections 7-9 too.", 9)
    resolved, broken = resolve_unit(u, idx)
    assert [(r.target, r.mention.text) for r in resolved] == [
        ("f1", "Figure 2-1"),
        ("t1", "Tables 3-4"),
        ("t2", "Tables 3-4"),
        ("s4", "5.2.1"),
        ("s3", "Annex B"),
    ]
    # explicit numbers that resolve to nothing are broken; numbers a range only implies are not
    assert [(b.mention, b.label) for b in broken] == [("Table 9", "Table 9"), ("Sections 7-9", "Section 7"),
                                                      ("Sections 7-9", "Section 9")]


def test_a_caption_does_not_reference_its_own_label():
    idx = build_label_index(_units())
    cap = _units()[4]
    assert resolve_unit(cap, idx) == ([], [])


def test_bare_numbers_that_resolve_to_nothing_are_not_findings():
    idx = build_label_index(_units())
    u = Unit("p", "paragraph", "See 9.9.9 for details.", 9)
    assert resolve_unit(u, idx) == ([], [])


def test_a_lower_case_number_word_before_a_label_is_not_a_document():
    assert spans("polynomials of order 3, Table 2 shows the fit") == [("Table 2", "table", ["2"])]


def test_a_label_opening_a_line_as_a_run_in_heading_is_not_a_citation():
    idx = build_label_index(_units())
    form = Unit("t", "table", "ELDER ABUSE FORENSIC CENTER REFERRAL\nSection 1 \u2013 Consultation Information\n"
                "Section 4 \u2013 Alleged Abuser Information\nFirst Name", 9)
    assert resolve_unit(form, idx) == ([], [])
    # a citation at the start of a line is still one
    cite = Unit("p", "paragraph", "Section 2 explains the method.\nSection 8 is missing.", 10)
    resolved, broken = resolve_unit(cite, idx)
    assert [r.target for r in resolved] == ["s2"] and [b.label for b in broken] == ["Section 8"]


def test_weak_mentions_resolve_but_are_not_broken_references():
    idx = build_label_index(_units())
    schedule = Unit("t", "table", "In-Class: Exponential Functions (4.1), Basic Exponential Equations (4.4)", 9)
    assert resolve_unit(schedule, idx) == ([], [])
    assert [r.target for r in resolve_unit(Unit("p", "paragraph", "Tables 3 lists it.", 9), idx)[0]] == ["t1"]
    # a note citing a book's chapter: notes hold bibliographic citations
    note = Unit("fn", "footnote", "Gaiman, Neil: Don't Panic, Chapter 14. Titan Books 1987", 1)
    assert resolve_unit(note, idx) == ([], [])
    body = Unit("p", "paragraph", "The details are in Chapter 14.", 2)
    assert [b.label for b in resolve_unit(body, idx)[1]] == ["Chapter 14"]


@pytest.mark.parametrize("text", [
    "the provisions of 44 U.S.C. chapters 21, 29, 31, and 33",
    "NARA regulations at 36 CFR Chapter XII Subchapter B",
    # one citation going on past a finer locator
    "See VA Handbook 6500.6, Appendix C, paragraph 9, Appendix D.",
])
def test_legal_codes_and_citation_chains_are_external(text):
    assert find_mentions(text) == ()


def test_standards_cite_clauses_by_number_alone():
    # deep numbers after a preposition, ISO term references in parentheses, more cue phrases
    assert spans("The manufacturer shall apply the process in 4.2.1 and 4.2.2 to the medical device (3.11).") == [
        ("4.2.1 and 4.2.2", "section", ["4.2.1", "4.2.2"]), ("3.11", "section", ["3.11"])]
    assert spans("The requirements of 5.2 apply; a design conforming to 7.3 is optional.") == [
        ("5.2", "section", ["5.2"]), ("7.3", "section", ["7.3"])]
    assert all(m.bare for m in find_mentions("as laid down in 6.1 (see also A.2)"))
    assert spans("The method of 5.1 applies; the procedure in 4.2 is repeated.") == [
        ("5.1", "section", ["5.1"]), ("4.2", "section", ["4.2"])]
    # decimals are not clause numbers without a cue
    assert spans("A safety factor of 1.5 applies to loads in 2.5 s; TLS 1.3 and Python 3.11.2 are used.") == []


def test_iso_formulas_are_equations():
    assert spans("The value is given by Formula (3) and Formulae (4) and (5).") == [
        ("Formula (3)", "equation", ["3"]), ("Formulae (4) and (5)", "equation", ["4", "5"])]
