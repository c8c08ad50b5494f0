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
    assert terms("In this document, the term epoch refers to a group of commits flushed together.") == ["epoch"]
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


def test_a_term_most_paragraphs_use_is_a_topic_and_links_once_per_section():
    """A term every paragraph uses (RTT, defined once at the start) is the document's topic: it
    links once per section; the local acronyms, used in one section each, link from every use."""
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
    assert definition_registry(units)["RTT"][0][2].topic


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


def test_the_kept_registry_follows_the_content_not_the_length():
    a = _doc("The Service Level Agreement (SLA) applies.", "The SLA is public.")
    b = _doc("The Service Level Agreement (SLA) applies.", "The SLA is private.")
    assert definition_registry(a.units) is not definition_registry(b.units)
    assert definition_registry(a.units) is definition_registry(_doc("The Service Level Agreement (SLA) applies.",
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


# --- how standards introduce terms (held-out HTTP specifications) ------------------------------


def test_a_quoted_subject_with_a_complement_defines_the_term():
    assert terms('The "authority-form" of request-target is only used for CONNECT requests.') == ["authority-form"]
    assert terms('The "cache key" is the information a cache uses to choose a response.') == ["cache key"]
    # a pointer to the definition elsewhere defines nothing
    assert terms('The "cache key" is defined in Section 2 of [CACHING].') == []
    assert terms("freshness_lifetime is defined in Section 4.2.1; current_age is defined in Section 4.2.3.") == []


def test_a_state_defined_by_its_condition():
    assert terms('A cache is "disconnected" when it cannot contact the origin server.') == ["disconnected"]
    assert terms('Request methods are considered "safe" if their defined semantics are essentially read-only.') == [
        "safe"]
    # a particular subject gives a value, not a term
    assert terms('The goodness measure is "confidence" if present; otherwise, it is a measure.') == []
    assert terms('The legal values in the response are "existing" if the server prefers to share.') == []


def test_a_common_adjective_defined_as_a_state_is_used_as_a_predicate():
    doc = _doc('A stream is considered "idle" if it has not yet been created.',
               "An endpoint restarts its idle timer when a packet is received.",
               "A sender MAY close a stream that is idle.")
    assert usages(doc) == [("u2", "u0", "idle")]


def test_a_gloss_in_apposition_and_a_defined_verb_with_its_forms():
    assert terms('HTTP/1.1 defaults to the use of "persistent connections", allowing multiple requests and '
                 'responses to be carried over a single connection.') == ["persistent connections"]
    text = ('A client that supports persistent connections MAY "pipeline" its requests (i.e., send multiple '
            'requests without waiting for each response).')
    assert [(d.term, d.how) for d in find_definitions(text)] == [("pipeline", "verb")]
    doc = _doc(text, "An intermediary that receives pipelined requests MAY pipeline those requests.",
               "Idempotent methods are significant to pipelining.")
    assert usages(doc) == [("u1", "u0", "pipelined"), ("u2", "u0", "pipelining")]


def test_a_quote_in_an_example_mentions_a_term_the_later_definition_introduces():
    doc = _doc('A response is complete unless an error was indicated (e.g., an "incomplete close" in TLS would '
               'leave the response incomplete, as described in Section 9.8).',
               'An implementation might generate an "incomplete close" by sending a closure alert.',
               "A client detecting an incomplete close SHOULD recover gracefully.")
    assert terms(doc.units[0].text) == []
    assert usages(doc) == [("u2", "u1", "incomplete close")]


def test_defined_as_a_quoted_phrase_names_the_phrase_not_the_subject():
    assert terms('Heuristics can only be used on responses whose status codes are defined as '
                 '"heuristically cacheable" (e.g., 200).') == ["heuristically cacheable"]


def test_a_grammar_name_in_parentheses_is_defined_where_the_code_uses_it():
    doc = _doc("Field values could be extended over multiple lines by preceding each extra line with at least one "
               "space or horizontal tab (obs-fold).", "  obs-fold     = OWS CRLF RWS",
               "A server that receives an obs-fold in a request message MUST reject it.",
               styles={1: "Source Code"})
    assert ("u2", "u0", "obs-fold") in usages(doc)
    # the same shape in English prose, with no code naming it, defines nothing
    english = _doc("The bytes are sent in network byte (big-endian) order.", "Receivers decode big-endian values.")
    assert usages(english) == []


def test_the_singular_of_a_one_word_plural_term_modifying_a_noun_is_no_use():
    doc = _doc('Header field lines (collectively referred to as the "headers") follow the start-line.',
               "A client MUST send a Host header field in every request.",
               "A recipient parses the headers before the content.")
    assert usages(doc) == [("u2", "u0", "headers")]


def test_a_defining_sentence_links_from_every_exact_use_in_a_short_document():
    """A quoted subject definition ('A "shared cache" is a cache that ...') is a statement: its
    exact uses all link however many, and a rare term defined beside it ("private cache") is
    not thinned for the frequent one."""
    units = [Unit("d", "paragraph", 'A "shared cache" is a cache that stores responses for reuse by more than one '
                                    'user. A "private cache", in contrast, is dedicated to a single user.', 0)]
    for s, long in enumerate(_LOCAL[:8]):
        short = long.split("(")[1].rstrip(")")
        units.append(Unit(f"s{s}", "section", f"Part {s}", 0, level=1))
        units.append(Unit(f"p{s}0", "paragraph", f"This part introduces the {long} gauge.", 0, parent=f"s{s}"))
        units.append(Unit(f"p{s}a", "paragraph", f"A shared cache MUST NOT store response {s}.", 0, parent=f"s{s}"))
        units.append(Unit(f"p{s}b", "paragraph", f"Then the shared cache forwards request {s}.", 0, parent=f"s{s}"))
        for p in range(1, 6):
            units.append(Unit(f"p{s}{p}", "paragraph", f"Step {p} reads the {short} gauge.", 0, parent=f"s{s}"))
    units.append(Unit("z", "paragraph", "Because private caches serve one user, they can be used to track it.", 0))
    for i, u in enumerate(units):
        u.order = i
    got = {(u, v) for u, v, _ in edges(Document("docx", units))}
    assert len(got) >= 50  # enough links for a hub to be thinned
    assert {(f"p{s}{x}", "d") for s in range(8) for x in "ab"} | {("z", "d")} <= got


def test_the_registry_of_equal_content_is_built_once():
    a = _doc("The Service Level Agreement (SLA) applies.", "The SLA is public.")
    b = _doc("The Service Level Agreement (SLA) applies.", "The SLA is public.")
    reg = definition_registry(a.units)
    assert definition_registry(b.units) is reg  # an incremental update reads the old document's again
    assert [(x.source, x.definer) for x in find_usages(b, reg)] == [("u1", "u0")]
    b.units[1].text = "The SLA is private; the SLA binds."
    fresh = definition_registry(b.units)
    assert fresh is not reg and [(x.source, x.used) for x in find_usages(b, fresh)] == [("u1", "SLA")]


# --- coinages, appositions, naming phrases, glossary words --------------------------------------


def test_a_phrase_quoted_where_the_document_first_mentions_it_is_coined_there():
    doc = _doc(
        "Major types 0 and 1 carry integers.",
        'Protocols using tags 2 and 3 extend the data model with "bignums" representing arbitrarily sized integers.',
        "A decoder that does not understand tag 2 passes a bignum to the application as a byte string.",
        'A CBOR encoding satisfies the "shortest form" rules when the argument is encoded in the fewest bytes.',
        'The server sends the label "quic key" to derive the key.',  # a quoted value: no term
        "The key derived from quic key is used once.",
    )
    got = usages(doc)
    assert ("u2", "u1", "bignum") in got
    assert not any(d == "u4" for _, d, _ in got)


def test_a_phrase_used_before_its_quote_is_coined_only_where_quoted_once():
    doc = _doc(
        "The encoder writes each head first.",  # "head" before the quote, and a common word: no coinage
        'The first byte is the "head" of the item.',
        "A decoder reads the head.",
        "For example, the value is marked with tag 2 to show it is a positive bignum.",  # mentioned in passing
        'Tags 2 and 3 extend the data model with "bignums" representing arbitrarily sized integers.',
        "Bignums are not equal to integers.",
    )
    got = usages(doc)
    assert ("u5", "u4", "Bignums") in got
    assert not any(d == "u1" for _, d, _ in got)


def test_quotes_in_code_tables_reference_entries_and_series_coin_nothing():
    doc = _doc(
        'The definitions of "URI-reference", "absolute-URI", "authority", and "port" are adopted from [URI].',
        '[HTTP]\tFielding, R., "HTTP Semantics", STD 97, RFC 9110, June 2022.',
        "The authority and port of the URI-reference follow.",
        "HTTP Semantics are given in [HTTP].",
        styles={1: "Bibliography Entry"},
    )
    assert usages(doc) == []


@pytest.mark.parametrize("text, expected", [
    ("QUIC is only able to convey an alert level of \"fatal\".", []),  # a value of something
    ('A CBOR encoding satisfies the "core deterministic encoding requirements" if it satisfies these restrictions:',
     [("core deterministic encoding requirements", "condition")]),
    ("The initial byte and any additional bytes consumed to construct the argument are collectively referred to as "
     "the head of the data item.", [("head", "naming")]),
    ("The serialized field block is then divided into one or more octet sequences, called field block fragments.",
     [("field block fragments", "named")]),
    ("The method is called by the client.", []),
    ("The label \"quic iv\" is used to derive the Initialization Vector (IV); see Section 5.3.", [("IV", "acronym")]),
    ("Each party MUST comply with Part (II) of the annex.", []),  # a Roman numeral
    ("the additional information's value describes how to load it", []),  # an apostrophe opens no quote
])
def test_appositions_naming_phrases_conditions_and_spelled_numerals(text, expected):
    assert [(d.term, d.how) for d in find_definitions(text)] == expected


def test_a_common_word_in_a_terminology_list_is_used_in_lower_case_and_a_capitalised_name_is_no_use():
    doc = _doc(
        "Terminology",
        "Depth:", "The number of ancestors of a node within a value.",
        "Stream:", "An ordered sequence of bytes.",
        "A query with N segments produces nodes at depth N or greater.",
        "STREAM frames carry data; each stream is ordered.",
        kinds={0: "section"}, parents={i: "u0" for i in range(1, 7)},
        styles={1: "Definition Term", 3: "Definition Term"},
    )
    got = usages(doc)
    assert ("u5", "u1", "depth") in got and ("u6", "u3", "stream") in got
    assert ("u6", "u3", "STREAM") not in got


def test_a_greek_symbol_introduced_by_a_statement_links_from_every_use():
    """A letter such as φ says nothing of itself: its uses all link to the statement that introduced
    it, even where it is used so often that it is the document's topic."""
    units = [Unit("d", "paragraph", "The request rate arriving at a gateway, denoted φ, is sampled every second.", 0)]
    for s in range(5):
        units.append(Unit(f"s{s}", "section", f"Part {s}", 0, level=1))
        for p in range(12):
            units.append(Unit(f"p{s}{p}", "paragraph", f"Doubling φ shifts operating point {s}.{p} noticeably.", 0,
                              parent=f"s{s}"))
    for i, u in enumerate(units):
        u.order = i
    got = edges(Document("docx", units))
    assert len(got) == 60 and {v for _, v, _ in got} == {"d"}
