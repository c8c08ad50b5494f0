"""Definitions as standards write them (quoted terms, naming phrases, definitional sentences,
symbols, acronyms) and which later uses link to them."""
from __future__ import annotations

import pytest

from adapters.model import Document, Unit
from addin_backend.graph import DEPENDS, build_graph
from addin_backend.graph.definitions import (
    definition_registry,
    find_definitions,
    find_usages,
    is_common_word,
    registry_key,
    usage_pattern,
)


def terms(text):
    return [d.term for d in find_definitions(text)]


def _doc(*texts, kinds=None, styles=None, parents=None, meta=None, lang=None):
    units = [
        Unit(f"u{i}", (kinds or {}).get(i, "paragraph"), t, i, style=(styles or {}).get(i),
             parent=(parents or {}).get(i), meta=dict((meta or {}).get(i, {})))
        for i, t in enumerate(texts)
    ]
    doc = Document("docx", units)
    if lang:
        doc.meta["language"] = lang
    return doc


def usages(doc):
    reg = definition_registry(doc.units)
    return [(u.source, u.definer, u.used) for u in find_usages(doc, reg)]


def edges(doc):
    G = build_graph(doc, stages=("contains", "references", "depends"))
    return sorted((u, v, d["evidence"].split(" -> ")[0]) for u, v, k, d in G.edges(keys=True, data=True)
                  if k == DEPENDS and d.get("origin") != "anaphora")


# --- quoted terms ------------------------------------------------------------------------------


def test_quoted_terms_after_a_copula_name_the_classes_they_define():
    text = ('PATH_CHALLENGE, PATH_RESPONSE, NEW_CONNECTION_ID, and PADDING frames are "probing frames", and all '
            'other frames are "non-probing frames". A packet containing only probing frames is a "probing packet".')
    assert terms(text) == ["probing frames", "non-probing frames", "probing packet"]


def test_a_naming_verb_introduces_any_quoted_term_and_its_alternative():
    assert terms('Each sender has their own sender ratchet, and each step along the ratchet is called a "generation".') == [
        "generation"]
    assert terms('An additional sparse data type, called "enum" or "enumerated", is available.') == ["enum", "enumerated"]


def test_a_quoted_subject_or_an_indefinite_article_introduces_a_term():
    assert terms('A "shared cache" is a cache that stores responses to be reused by more than one user.') == [
        "shared cache"]
    assert terms('For handshake and application messages, a sequence of keys is derived via a "sender ratchet".') == [
        "sender ratchet"]
    assert terms('A set of "session keys" (the various secrets derived from the master secret) is output.') == [
        "session keys"]


@pytest.mark.parametrize("text", [
    'The client sends a "key_share" extension with its offer.',  # the quote names a value of something
    'Closing the connection by sending a "close_notify" is more appropriate.',  # an identifier in use
    'The stream enters a "closed" or "half-closed" state.',  # values of a state
    'If the value is "true", the recorder waits.',  # a literal
    '"true" means that the recorder waits for speech.',
    'The transition moves to a "testing" state.',
])
def test_quoted_values_and_names_in_use_are_not_terms(text):
    assert terms(text) == []


def test_contract_definitions_in_german_french_and_spanish():
    assert terms("Die Firma Beta GmbH (im Folgenden \u201eAuftragnehmer\u201c) erbringt die Leistungen.") == [
        "Auftragnehmer"]
    assert terms("La société Alpha, ci-après dénommée \u00ab le Prestataire \u00bb, s'engage.") == ["Prestataire"]
    assert terms("La empresa Gamma, en adelante, \u00abel Contratista\u00bb, se obliga.") == ["Contratista"]


# --- naming phrases and definitional sentences -------------------------------------------------


def test_unquoted_naming_phrases_end_at_the_clause():
    assert terms("Both DPLPMTUD and PMTUD send datagrams that are larger than the current maximum datagram size, "
                 "referred to as PMTU probes.") == ["PMTU probes"]
    assert terms("This limit on the size of responses is known as the anti-amplification limit.") == [
        "anti-amplification limit"]


def test_definitional_sentences_genus_relation_measure_and_process():
    assert terms("A limited on-path attacker is an off-path attacker that has offered improved routing of packets.") == [
        "limited on-path attacker"]
    assert terms("The copath of a node is the node's sibling concatenated with the list of siblings.") == ["copath"]
    assert terms("The filtered direct path of a leaf node L is the node's direct path, with nodes removed.") == [
        "filtered direct path"]
    assert terms("The final size is the amount of flow control credit that is consumed by a stream.") == ["final size"]
    assert terms("Speaker identification is the process of associating an unknown speaker with a member.") == [
        "speaker identification"]


def test_a_common_word_is_a_term_only_when_quoted_capitalised_or_explicitly_defined():
    assert is_common_word("values") and not is_common_word("copath")
    assert terms("Values are defined to be unsigned integers in network byte order.") == []
    assert terms("The resolution of a node is an ordered list of non-blank nodes.") == []  # "resolution"
    assert terms("We define an epoch as a group of commits flushed together.") == ["epoch"]
    assert terms('In general, symmetric values are referred to as "keys" or "secrets".') == ["keys", "secrets"]


# --- symbols -----------------------------------------------------------------------------------


def test_symbols_in_apposition_parentheses_and_as_subjects():
    assert terms("The RTT sample, latest_rtt, is generated as the time elapsed since the packet was sent.") == [
        "latest_rtt"]
    assert terms("The RECOMMENDED value of the timer granularity (kGranularity) is 1 millisecond.") == ["kGranularity"]
    assert terms("The Hash function is the cipher suite hash algorithm. Hash.length is its output length in bytes.") == [
        "Hash.length"]
    assert terms("The value KDF.Nh is the size of an output from KDF.Extract, in bytes.") == ["KDF.Nh"]
    assert "pk(X)" in terms("In this table, pk(X) represents the current public key of node X.")
    assert terms("See the example (e.g. below) and Hash(context) for details.") == []


def test_a_function_symbol_is_used_with_any_argument():
    doc = _doc("In this table, pk(X) represents the current public key of node X.",
               "A recipient at node A would decrypt E(pk(A), path_secret) to obtain the secret.")
    assert usages(doc) == [("u1", "u0", "pk(")]


# --- acronyms ----------------------------------------------------------------------------------


def test_acronym_expansions_with_a_pointer_or_a_quoted_long_form():
    assert terms("QUIC uses a probe timeout (PTO; see Section 6.2), with a timer based on TCP.") == ["PTO"]
    assert terms('MLS uses the "Generate Random Extensions And Sustain Extensibility" (GREASE) approach.') == ["GREASE"]


def test_an_acronym_links_to_its_first_expansion_not_a_later_repeat():
    doc = _doc("QUIC uses a probe timeout (PTO) to recover from tail loss.",
               "A Probe Timeout (PTO) triggers the sending of one or two probe datagrams.",
               "The sender arms its PTO timer after every ack-eliciting packet.")
    assert usages(doc) == [("u2", "u0", "PTO")]


# --- uses --------------------------------------------------------------------------------------


def test_plural_and_possessive_forms_for_english_and_exact_forms_otherwise():
    pat = usage_pattern("Ack-eliciting packets", "term", False)
    assert pat.search("when it receives an ack-eliciting packet") and pat.search("ack-eliciting packets' order")
    assert usage_pattern("policy", "term", True).search("the policies") is not None
    en = _doc('The protocol defines a "key schedule" for each epoch.', "Both key schedules are fixed.")
    assert usages(en) == [("u1", "u0", "key schedules")]
    de = _doc('Das Protokoll (im Folgenden \u201eVerfahren\u201c) ist fest.', "Beide Verfahrens sind fest.",
              "Das Verfahren ist fest.", lang="de")
    assert usages(de) == [("u2", "u0", "Verfahren")]


def test_a_use_written_as_a_definition_writes_it_refers_to_that_definition():
    doc = _doc("The final size is the amount of flow control credit that is consumed by a stream.",
               "Final Size:", "A variable-length integer indicating the final size of the stream.",
               "An endpoint MUST NOT send data beyond the final size.",
               "The Final Size field of a RESET_STREAM frame is checked.",
               styles={1: "Definition Term", 2: "Definition"})
    assert usages(doc) == [("u2", "u0", "final size"), ("u3", "u0", "final size"), ("u4", "u1", "Final Size")]


def test_a_unit_that_defines_a_term_does_not_use_an_earlier_definition_of_it():
    doc = _doc("Stream ID:", "A variable-length integer that identifies the stream.",
               "Stream ID:", "The stream ID of the stream being reset.",
               styles={0: "Definition Term", 2: "Definition Term"})
    assert usages(doc) == [("u3", "u2", "stream ID")]


# --- topics and concentration --------------------------------------------------------------------


def _sections(title, n_sections, per_section, define, use):
    units = [Unit("t", "title", title, 0)]
    order = 1
    units.append(Unit("d", "paragraph", define, order))
    for s in range(n_sections):
        order += 1
        sid = f"s{s}"
        units.append(Unit(sid, "section", f"Part {s}", order, level=1))
        for p in range(per_section):
            order += 1
            units.append(Unit(f"p{s}_{p}", "paragraph", use.format(s=s, p=p), order, parent=sid))
    return Document("docx", units)


def test_a_term_in_the_title_links_once_per_section_from_its_first_user():
    doc = _sections("Secure Transfer Protocol", 3, 3,
                    "This document specifies the Secure Transfer Protocol (STP).",
                    "In part {s}, STP step {p} is described.")
    assert [(u, v) for u, v, _ in edges(doc)] == [("p0_0", "d"), ("p1_0", "d"), ("p2_0", "d")]
    assert definition_registry(doc.units)["STP"][0][2].topic


_LOCAL = ["Alpha Beta (AB)", "Cold Door (CDR)", "Even Fox (EF)", "Great Hill (GH)", "Iron Jar (IJ)",
          "Kind Lamp (KL)", "Mild Night (MN)", "Open Pier (OP)", "Quick River (QR)", "Stone Tower (ST)",
          "Usual Vase (UV)", "Wide Yard (WY)"]


def test_no_definer_takes_more_than_a_tenth_of_the_links():
    """A term every paragraph uses (RTT, defined once at the start) would take most links: as a
    topic it links once per section, and no definer then holds more than 10% of them."""
    units = [Unit("g", "paragraph", "Every step measures the Round-Trip Time (RTT).", 0)]
    for s, long in enumerate(_LOCAL):
        units.append(Unit(f"s{s}", "section", f"Part {s}", 0, level=1))
        units.append(Unit(f"p{s}0", "paragraph", f"This part introduces the {long} gauge.", 0, parent=f"s{s}"))
        short = long.split("(")[1].rstrip(")")
        for p in range(1, 10):
            units.append(Unit(f"p{s}{p}", "paragraph", f"Step {p} reads the {short} gauge and the RTT.", 0,
                              parent=f"s{s}"))
    for i, u in enumerate(units):
        u.order = i
    got = edges(Document("docx", units))
    into = {}
    for _, v, _ in got:
        into[v] = into.get(v, 0) + 1
    assert into["g"] == 12 and into["p00"] == 9
    assert max(into.values()) <= 0.10 * len(got)


def test_exact_uses_of_a_quoted_defined_term_all_link():
    units = [Unit("c", "paragraph", 'This lease (the "Agreement") is made by Acme Corp. (the "Landlord").', 0)]
    for s in range(6):
        units.append(Unit(f"s{s}", "section", f"Article {s}", 0, level=1))
        for p in range(10):
            units.append(Unit(f"p{s}{p}", "paragraph", f"Under this Agreement the Landlord keeps item {s}.{p}.", 0,
                              parent=f"s{s}"))
    for i, u in enumerate(units):
        u.order = i
    got = edges(Document("docx", units))
    assert len(got) == 60 and {v for _, v, _ in got} == {"c"}


def test_registry_key_follows_the_content_not_the_length():
    a = _doc("The Service Level Agreement (SLA) applies.", "The SLA is public.")
    b = _doc("The Service Level Agreement (SLA) applies.", "The SLA is private.")
    assert registry_key(a.units) != registry_key(b.units)
    assert registry_key(a.units) == registry_key(_doc("The Service Level Agreement (SLA) applies.",
                                                      "The SLA is public.").units)


def test_the_longest_defined_term_wins_where_terms_nest():
    doc = _doc("Stream Data:", "The bytes of the stream.", "Maximum Stream Data:", "The most bytes a peer may send.",
               "The Maximum Stream Data field limits the Stream Data sent.",
               styles={0: "Definition Term", 2: "Definition Term"})
    assert usages(doc) == [("u4", "u0", "Stream Data"), ("u4", "u2", "Maximum Stream Data")]


def test_an_acronym_inside_a_longer_defined_name_is_still_used():
    doc = _doc("Endpoints test for Explicit Congestion Notification (ECN) support.", "ECN Counts:",
               "The three ECN counts of an ACK frame.", "Enough packets are sent for received ECN counts to be clear.",
               styles={1: "Definition Term"})
    assert usages(doc) == [("u1", "u0", "ECN"), ("u2", "u0", "ECN"), ("u2", "u1", "ECN counts"),
                           ("u3", "u0", "ECN"), ("u3", "u1", "ECN counts")]
