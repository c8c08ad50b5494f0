"""Definitions given by structure: definition lists, glossary tables, terminology sections."""
from __future__ import annotations

import copy

import pytest

from adapters.model import Document, Unit
from addin_backend.graph import DEPENDS, build_graph, update_graph
from addin_backend.graph.definitions import definition_registry, find_usages
from addin_backend.graph.glossary import is_terminology_heading, term_of_line


def U(uid, text, kind="paragraph", style=None, parent=None, **kw):
    return Unit(uid, kind, text, 0, style=style, parent=parent, **kw)


def doc_of(*units):
    for i, u in enumerate(units):
        u.order = i
    return Document("docx", list(units))


def defined(doc):
    return sorted((uid, d.term, d.how) for lst in definition_registry(doc.units).values() for _, uid, d in lst
                  if d.how in ("list", "entry", "table"))


def uses(doc):
    return [(x.source, x.definer, x.used) for x in find_usages(doc, definition_registry(doc.units))]


def test_a_definition_term_style_and_a_colon_line_before_a_paragraph_are_terms():
    doc = doc_of(
        U("h", "Conventions and Definitions", "section"),
        U("t1", "Ack-eliciting packets:", style="Definition Term", parent="h"),
        U("d1", "Packets that contain ack-eliciting frames elicit an ACK from the receiver.", style="Definition",
          parent="h"),
        U("t2", "sent_packets[kPacketNumberSpace]:", parent="h"),
        U("d2", "An association of packet numbers in a packet number space to information about them.", parent="h"),
        U("p", "A sender SHOULD restart its timer every time an ack-eliciting packet is sent; the sent_packets "
               "for that space are checked."),
    )
    assert defined(doc) == [("t1", "Ack-eliciting packets", "list"), ("t2", "sent_packets", "list")]
    assert uses(doc) == [("p", "t1", "ack-eliciting packet"), ("p", "t2", "sent_packets")]


@pytest.mark.parametrize("line", ["For example:", "Note:", "The following fields are defined:", "Where:"])
def test_lead_ins_and_labels_ending_in_a_colon_are_not_terms(line):
    assert term_of_line(line) is None
    doc = doc_of(U("a", line), U("b", "A paragraph that follows the line and explains something at length."))
    assert defined(doc) == []


def test_a_colon_line_before_a_list_or_code_is_a_lead_in():
    doc = doc_of(U("a", "Retransmission rules:"), U("b", "Retransmit lost packets only.", "list_item"))
    assert defined(doc) == []


def test_a_lower_case_common_word_listed_outside_a_terminology_section_is_a_local_field():
    doc = doc_of(U("s", "Record Layer", "section"),
                 U("a", "type:", style="Definition Term", parent="s"), U("b", "The content type.", parent="s"),
                 U("c", "legacy_record_version:", style="Definition Term", parent="s"),
                 U("d", "Set to 0x0303.", parent="s"))
    assert defined(doc) == [("c", "legacy_record_version", "list")]


def test_inline_entries_in_a_terminology_section_in_any_language():
    doc = doc_of(
        U("h", "Begriffe und Abkürzungen", "section"),
        U("e1", "Auftragnehmer: die Partei, die die Leistung erbringt.", "list_item", parent="h"),
        U("h2", "Conventions and Terminology", "section"),
        U("e2", "client: The endpoint initiating the TLS connection.", parent="h2"),
        U("p", "The client sends its offer to the Auftragnehmer."),
    )
    assert defined(doc) == [("e1", "Auftragnehmer", "entry"), ("e2", "client", "entry")]
    assert sorted(u[:2] for u in uses(doc)) == [("p", "e1"), ("p", "e2")]


def test_a_term_on_its_own_line_in_a_terminology_section_defines_it():
    """ISO-style entries: the entry number, the term alone on its line, then its definition (a
    document written without term styles). Later uses, and uses by other entries, depend on it."""
    doc = doc_of(
        U("s", "3 Termes et définitions", "section"),
        U("n", "3.1", parent="s"),
        U("t1", "jeton d'accès", parent="s"),
        U("d1", "donnée qu'un client présente pour accéder à une ressource protégée", parent="s"),
        U("t2", "ressource protégée", parent="s"),
        U("d2", "ressource qu'un serveur ne sert que sur présentation d'un jeton d'accès", parent="s"),
        U("x", "4 Exigences", "section"),
        U("p", "Le client envoie le jeton d'accès avec chaque demande de ressource protégée.", parent="x"),
    )
    assert defined(doc) == [("t1", "jeton d'accès", "list"), ("t2", "ressource protégée", "list")]
    assert sorted(u[:2] for u in uses(doc)) == [("d2", "t1"), ("p", "t1"), ("p", "t2")]


def test_an_entry_whose_term_ends_with_a_full_stop():
    """"Fingerprint. A persistent string value ...": a full stop before the definition's first
    sentence separates an entry as a colon does (a word processor's glossary with bold terms);
    the terminology section's own prose ("This note uses these terms. They ...") is no entry."""
    doc = doc_of(
        U("h", "Definitions", "section"),
        U("n", "This note uses these terms. They are used throughout.", parent="h"),
        U("e1", "Candidate Fingerprint. A fingerprint that will be considered when matching results.", parent="h"),
        U("e2", "Side-car (or Global) Suppression. A suppression kept in a separate store.", parent="h"),
        U("h2", "Problem Statement", "section"),
        U("p", "Each candidate fingerprint is compared; side-car suppressions survive renames.", parent="h2"),
    )
    assert defined(doc) == [("e1", "Candidate Fingerprint", "entry"), ("e2", "Side-car Suppression", "entry")]
    assert sorted(u[:2] for u in uses(doc)) == [("p", "e1"), ("p", "e2")]


def test_a_topic_heading_below_a_terminology_section_is_not_a_term():
    doc = doc_of(U("h", "Terminology", "section"), U("s", "Presentation Language", "section", parent="h"),
                 U("p", "This document uses the presentation language of RFC 8446.", parent="s"))
    assert defined(doc) == []


def test_terminology_headings():
    assert is_terminology_heading("Terms, definitions and abbreviated terms")
    assert is_terminology_heading("Définitions") and is_terminology_heading("Definiciones")
    assert not is_terminology_heading("Defining a New Header Field")


@pytest.mark.parametrize("heading", ["Termini e definizioni", "Simboli e abbreviazioni", "Symbols and notation",
                                     "Verwendete Abkürzungen", "Términos y definiciones", "List of abbreviations"])
def test_terminology_headings_in_the_languages_documents_come_in(heading):
    assert is_terminology_heading(heading)


@pytest.mark.models
def test_incremental_updates_agree_with_a_rebuild_when_a_topic_gains_an_earlier_user():
    """Which unit of a section links a topic term is decided in the registry: an edit that adds
    an earlier user reaches the old first user too."""
    units = [U("t", "Secure Transfer Protocol", "title"),
             U("d", "This document specifies the Secure Transfer Protocol (STP).")]
    for s in range(3):
        units.append(U(f"s{s}", f"Part {s}", "section", level=1))
        for p in range(3):
            units.append(U(f"p{s}{p}", f"Step {p} of part {s} sends an STP message.", parent=f"s{s}"))
    old = doc_of(*units)
    G = build_graph(old, semantic=False)
    assert G.has_edge("p10", "d", key=DEPENDS) and not G.has_edge("p11", "d", key=DEPENDS)
    new_units = copy.deepcopy(old.units)
    new_units.insert(7, U("x", "An STP peer listens on port 9.", parent="s1"))  # before p10
    new = doc_of(*new_units)
    update_graph(G, old, new)
    assert G.has_edge("x", "d", key=DEPENDS) and not G.has_edge("p10", "d", key=DEPENDS)
    full = build_graph(new, semantic=False)
    got = sorted((u, v) for u, v, k in G.edges(keys=True) if k == DEPENDS)
    assert got == sorted((u, v) for u, v, k in full.edges(keys=True) if k == DEPENDS)


def test_a_list_of_abbreviations_restating_the_prose_reads_its_definition():
    doc = doc_of(
        U("p", "Inference runs on a Graphics Processing Unit (GPU) in every region."),
        U("s", "Abbreviations", "section"),
        U("g", "GPU: Graphics Processing Unit.", "list_item", parent="s"),
        U("q", "Each GPU is drained before an upgrade."),
    )
    assert sorted(uses(doc)) == [("g", "p", "GPU"), ("q", "g", "GPU")]  # later uses: the nearest definition


def test_a_symbols_term_line_is_a_term_though_the_lexicon_lists_v_as_versus():
    assert term_of_line("v:") == "v" and term_of_line("For example:") is None
