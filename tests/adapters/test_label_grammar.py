"""One grammar of labels (adapters.label_grammar): the readers print labels with it, and the
graph and the edit engines read them with it, in one key space ``(family, number)``."""
from __future__ import annotations

import pytest

from adapters.label_grammar import (
    FAMILIES,
    WORDS,
    canonical_label,
    heading_number,
    label_word,
    parse_label,
    parse_typed_label,
    word_name,
)
from adapters.labels import caption_label, section_label, section_number_and_label, seq_label
from adapters.typed_numbers import typed_section


@pytest.mark.parametrize("word", sorted({w.name for w in WORDS}))
def test_every_word_prints_and_parses_back_to_its_key(word):
    entry = next(w for w in WORDS if w.name == word)
    label = canonical_label(entry.family, "3.2", word)
    assert label.split()[0] == word  # printed in the document's word, not translated
    assert parse_label(label) == (entry.family, "3.2") == parse_typed_label(label)


def test_one_key_space_lower_case_families():
    assert all(f == f.lower() for f in FAMILIES)
    keys = {parse_typed_label(t) for t in ("Sect. 5.2.3", "Clause 5.2.3", "§ 5.2.3", "section 5.2.3",
                                           "Abschnitt 5.2.3", "Secci\u00f3n 5.2.3", "Chapitre 5.2.3")}
    assert keys == {("section", "5.2.3")}
    assert {parse_typed_label(t) for t in ("Annex B", "Appendix B", "appendix b", "Anhang B", "Anexo B", "Annexe B")} == {("section", "B")}
    assert parse_label("Section 2.1") == parse_typed_label("sect. 2.1") == ("section", "2.1")


def test_labels_print_in_the_word_the_document_used():
    assert canonical_label("figure", "3", "Abb.") == "Abbildung 3"  # a German document's label
    assert canonical_label("figure", "3") == "Figure 3"  # no word known: English
    assert canonical_label("table", "2", "tableaux") == "Tableau 2"
    assert canonical_label("equation", "4", "Ecuaciones") == "Ecuaci\u00f3n (4)"
    assert canonical_label("section", "7", "Clause") == "Clause 7"
    assert canonical_label("section", "B", "Annex") == "Annex B" and canonical_label("section", "B") == "Appendix B"
    assert word_name("Sects.") == "Section" and label_word("Abb. 3") == "Abb."


def test_readers_label_captions_and_headings_in_the_document_s_word():
    # LibreOffice's figure sequence is "Illustration" in every language; the caption shows the word
    assert seq_label("Illustration", "1", "Abbildung 1: Aufbau") == "Abbildung 1"
    assert seq_label("Table", "2", "Tabla 2. Resultados") == "Tabla 2"
    assert seq_label("Table", "2", "Figure 2: not the table's word") == "Table 2"
    assert seq_label("Illustration", "1", "Illustrazione 1: Architettura") == "Illustrazione 1"
    assert seq_label("Table", "1", "Tabella 1 \u2013 Valori") == "Tabella 1"
    assert seq_label("Illustration", "2", "Afbeelding 2. Opbouw") == "Afbeelding 2"
    assert caption_label("Abb. 3: Aufbau") == ("Abbildung 3", "3")
    assert section_label("B", "Annex B.") == "Annex B"  # a Word list label with its word
    assert section_number_and_label("Anhang A") == ("A", "Anhang A")  # was "Section Anhang A"
    # a heading typed with the word's abbreviation or an unaccented form is labelled in that word
    assert typed_section("Art. 1 \u2013 Oggetto", 1) == ("1", "Article 1", "Oggetto")
    assert typed_section("Sec\u00e7\u00e3o 2 \u00c2mbito", 1) == ("2", "Se\u00e7\u00e3o 2", "\u00c2mbito")
    # the graph's keys stay those of the English labels
    assert parse_label("Abbildung 3") == parse_label("Figure 3") == ("figure", "3")


def test_a_heading_s_typed_number_is_read_one_way():
    cases = {"A.1 Scope": "A.1", "Section 3 Terms": "3", "Annex B Scope": "B", "2.1. Grants": "2.1",
             "Kapitel 4 Einleitung": "4", "\u00a7 5 Haftung": "5", "A Guide to Keys": None, "2021 Results": None,
             # Italian, Portuguese and Dutch headings, and a word typed without its accent
             "Articolo 10 Durata": "10", "Sec\u00e7\u00e3o 2 \u00c2mbito": "2", "Artigo 3 Objeto": "3",
             "Hoofdstuk 4 Doel": "4", "Bijlage B Lijst": "B", "Articulo 3 Objeto": "3", "Art. 1 \u2013 Oggetto": "1",
             # a plural word opens a list, not a heading's number
             "Parties 2 and 3 Obligations": None}
    for text, number in cases.items():
        got = heading_number(text)
        assert (got[0] if got else None) == number, text
