"""Definitions (contract, paper and acronym styles) and the later units that use them."""
from __future__ import annotations

import pytest

from adapters.model import Document, Unit
from addin_backend.graph.definitions import definition_registry, find_definitions, find_usages


def defs(text):
    return [(d.term, d.kind, d.span) for d in find_definitions(text)]


def test_contract_definitions():
    text = ('This Agreement (the "Agreement") is made by Acme Corp. (the "Supplier") and Beta LLC '
            '(each a "Party" and together the "Parties").')
    assert defs(text) == [
        ("Agreement", "term", '(the "Agreement")'),
        ("Supplier", "term", '(the "Supplier")'),
        ("Party", "term", '(each a "Party" and together the "Parties")'),
        ("Parties", "term", '(each a "Party" and together the "Parties")'),
    ]
    assert defs('"Confidential Information" means any non-public information.') == [
        ("Confidential Information", "term", '"Confidential Information" means')]
    assert defs("\u201cAffiliate\u201d shall mean any entity controlling a Party.") == [
        ("Affiliate", "term", "\u201cAffiliate\u201d shall mean")]
    assert defs('This lease, hereinafter referred to as the "Lease", starts today.') == [
        ("Lease", "term", 'hereinafter referred to as the "Lease"')]


def test_paper_definitions_and_notation():
    assert defs("Formally, the loss function L is defined as the sum of squared errors.") == [
        ("loss function", "term", "the loss function L is defined as"),
        ("L", "notation", "the loss function L is defined as"),
    ]
    assert defs("The number of units, denoted n, grows linearly.") == [
        ("n", "notation", "The number of units, denoted n")]


def test_schwartz_hearst_acronyms():
    assert defs("The Service Level Agreement (SLA) applies.") == [
        ("SLA", "acronym", "Service Level Agreement (SLA)")]
    assert defs("We fine-tune Large Language Models (LLMs) here.") == [
        ("LLM", "acronym", "Large Language Models (LLMs)")]
    assert defs('Under the Data Processing Agreement ("DPA") the parties agree.') == [
        ("DPA", "acronym", 'Data Processing Agreement ("DPA")')]
    assert defs("We use TLS (Transport Layer Security) on every hop.") == [
        ("TLS", "acronym", "TLS (Transport Layer Security)")]


@pytest.mark.parametrize("text", [
    "See (ii) and (IV) and (2020).",
    "as in (Smith et al.)",
    "It is a method (MX) that works.",  # the letters do not spell the long form
    "This is what it means.",
])
def test_no_definition(text):
    assert find_definitions(text) == ()


def _doc(*texts, kinds=None):
    units = [Unit(f"u{i}", (kinds or {}).get(i, "paragraph"), t, i) for i, t in enumerate(texts)]
    return Document("docx", units)


def usages(doc):
    reg = definition_registry(doc.units)
    return [(u.source, u.definer, u.used) for u in find_usages(doc, reg)]


def test_later_units_depend_on_the_nearest_earlier_definition():
    doc = _doc(
        "Uses of SLA before its definition do not count.",
        "The Service Level Agreement (SLA) sets targets.",
        "The SLA is reviewed yearly; SLAs are public.",
        '"SLA" means the signed targets sheet.',
        "Each SLA is signed by both parties.",
    )
    assert usages(doc) == [("u2", "u1", "SLA"), ("u4", "u3", "SLA")]


def test_capitalised_terms_inside_longer_names_are_not_uses():
    doc = _doc('This contract (the "Agreement") binds.', "The Service Level Agreement applies.",
               "This Agreement ends in May.", "The agreement of the parties is needed.")
    assert usages(doc) == [("u2", "u0", "Agreement")]


def test_a_name_ends_at_its_line_and_a_word_in_capitals_after_a_term_keeps_the_use():
    """A table cell ends a name, its line or its tab ("Agreement" over "Terms" in the next cell is the term);
    a word in capitals after the term makes it a modifier, still a use ("the Agreement MAC"),
    as a modal ends the name ("Agreement MUST"); a capitalised word on the same line continues it."""
    doc = _doc('This contract (the "Agreement") binds.', "Agreement\nTerms", "The Agreement MAC is kept.",
               "The Agreement MUST be signed.", "The Agreement Terms apply.", "Tier\tGold\tAgreement\tTerms")
    assert usages(doc) == [("u1", "u0", "Agreement"), ("u2", "u0", "Agreement"), ("u3", "u0", "Agreement"),
                           ("u5", "u0", "Agreement")]


def test_lowercase_terms_match_any_case_and_plurals_and_headings_are_not_users():
    doc = _doc("The token budget is defined as the largest context.", "Token budgets", "Token budgets vary.",
               kinds={1: "section"})
    assert usages(doc) == [("u2", "u0", "Token budgets")]


def test_single_letter_notation_needs_math_around_it():
    doc = _doc("The budget, denoted k, is fixed.", "We keep k small.", "The cost grows as O(k) when k > 2.")
    assert usages(doc) == [("u2", "u0", "k")]


def test_written_and_denoted_need_a_symbol_after_them():
    assert defs("Operational guidance is written for the on-duty engineer and favours concrete steps.") == []
    assert defs("The novel, originally written as a radio comedy, was broadcast in 1978.") == []
    assert defs("The round-trip time, written as RTT, bounds the timeout.") == [
        ("RTT", "notation", "The round-trip time, written as RTT")]
    assert defs("The arrival rate, denoted by the symbol \u03bb, is measured hourly.") == [
        ("\u03bb", "notation", "The arrival rate, denoted by the symbol \u03bb")]


def test_a_greek_symbol_is_used_in_prose_without_math_around_it():
    doc = _doc("The measured monthly availability, denoted \u03b1, is computed from one-minute probes.",
               "Doubling \u03b1 shifts the operating point noticeably.",
               "A conservative estimate of \u03b1 is enough for capacity planning.")
    assert usages(doc) == [("u1", "u0", "\u03b1"), ("u2", "u0", "\u03b1")]


# --- definitions that transfer: parenthesised subjects, named rules, words named, symbols --------


@pytest.mark.parametrize("text, expected", [
    ("The outer frame (outer_frm) is a structure that wraps every record.",
     {("outer_frm", "notation"), ("outer frame", "term")}),
    ("Cache poisoning (a.k.a. store injection) is a common attack on shared caches.",
     {("Cache poisoning", "term"), ("store injection", "term")}),
    ("The retry-after rule specifies a number of whole seconds.", {("retry-after", "notation")}),
    ('The verb "emit" is used instead of "send" where only the creator is meant.', {("emit", "term")}),
    ('In this context, "sealed" specifically means that the record was signed.', {("sealed", "term")}),
    ('The "scope" for a given token is the set of hosts it may reach.', {("scope", "term")}),
    ("The input block, B, for the cipher is the record body.", {("B", "notation")}),
    ("Greenwich values are given in Coordinated Universal Time (UTC).", {("UTC", "acronym")}),
])
def test_definitions_that_transfer(text, expected):
    assert {(d.term, d.kind) for d in find_definitions(text)} == expected


@pytest.mark.parametrize("text", [
    "Transport Layer Security (TLS) is a protocol for secure channels.",  # an acronym's expansion only
    "The server (see Section 3) is a program that answers.",
    "The server, A, is here.",  # "A" is a word
    "In the example, X, Y and Z are nodes.",  # a list of letters, no apposition
    "The retry-after value of 3 is small.",  # "value" is a noun, "of" no verb
    "Records are given in Universal Time (UT).",
])
def test_no_transferred_definition(text):
    assert {d.how for d in find_definitions(text)} <= {"acronym"}
    assert all(d.how != "paren-subject" for d in find_definitions(text))


def test_a_phrase_defined_with_a_parenthesis_is_used_later_without_it():
    doc = _doc("The outer frame (outer_frm) is a structure that wraps every record.",
               "A receiver drops an outer frame that is too short.")
    assert ("u1", "u0", "outer frame") in usages(doc)


def test_a_capital_letter_symbol_is_used_in_prose_but_not_a_label_or_a_word():
    doc = _doc("The input block, B, for the cipher is the record body.",
               "The output, C, replaces B on the wire.",
               "Appendix B lists the vectors.", "A record is short.")
    got = usages(doc)
    assert ("u1", "u0", "B") in got and not any(s in ("u2", "u3") for s, _, _ in got)


def test_a_one_letter_term_of_a_list_of_symbols_is_used_in_formulas():
    doc = _doc("The bound depends on two values:", "n:", "The number of records sent.",
               "By setting n = 4, the bound is reached.")
    assert ("u3", "u1", "n") in usages(doc)


@pytest.mark.parametrize("text", ["The element holds tags. These Tags (TT) are optional.",
                                  "Each EBML Element (These tags) is one."])
def test_a_pointing_phrase_is_no_acronyms_expansion(text):
    assert find_definitions(text) == ()


def test_a_terms_uses_are_the_term_forms_engines_forms():
    """One engine for every term's forms (language.forms): irregular plurals and singulars of a
    word; a capitalised name only in its own stem's forms ("Application Data" is no "Datum")."""
    from addin_backend.graph.definitions import usage_pattern

    assert usage_pattern("analysis", "term", False).search("two analyses differ")
    assert usage_pattern("Topic Alias", "term", True).search("Topic Aliases are kept")
    assert usage_pattern("session IDs", "term", True).search("a session ID")
    assert not usage_pattern("news", "term", False).search("a new frame")
    assert not usage_pattern("Datum", "term", True).search("Application Data messages")


def test_a_phrase_in_a_concession_is_not_defined():
    assert find_definitions("Although Content-Type is defined as a singleton field, it is repeated.") == ()
    assert [d.term for d in find_definitions("The dependency graph is defined as a multigraph.")] == ["dependency graph"]


def test_an_expansion_in_running_text_is_read_after_one_only_in_a_table():
    """An acronym first expanded in a table's cell (an overview of objects, a property's
    description) is introduced to the reader by the first paragraph that expands it: uses after
    that paragraph read it, uses before it the table."""
    doc = _doc(
        "Object\nSTIX Domain Objects (SDO)\nSTIX Relationship Objects (SRO)",
        "An SDO before the prose expansion.",
        "STIX defines a set of STIX Domain Objects (SDOs): Attack Pattern, Campaign.",
        "A new SDO may be defined by an extension.",
        "The STIX Domain Objects (SDOs) are listed again here.",
        "Every SDO carries an id.",
        kinds={0: "table"},
    )
    assert usages(doc) == [("u1", "u0", "SDO"), ("u3", "u2", "SDO"), ("u5", "u2", "SDO")]


def _after_glossary(entries, prose):
    """A "Glossary" section holding the lines ``entries`` (ids g0, g1, ...), then the paragraphs
    ``prose`` outside it (p0, p1, ...)."""
    units = [Unit("s", "section", "Glossary", 0, title="Glossary")]
    units += [Unit(f"g{i}", "paragraph", t, len(units) + i, parent="s") for i, t in enumerate(entries)]
    units += [Unit(f"p{i}", "paragraph", t, len(units) + i) for i, t in enumerate(prose)]
    return Document("docx", units)


def test_a_glossary_line_with_a_dash_is_an_entry_and_a_name_in_capitals_is_a_name():
    """"TLP - Traffic Light Protocol" in a terminology section defines TLP (not the whole line);
    a term in capitals is used beside other capitalised words ("the MTI JSON serialization")."""
    doc = _after_glossary(["TLP - Traffic Light Protocol", "MTI - Mandatory To Implement"],
                          ["Two marking types: TLP, to capture TLP markings, and Statement.",
                           "The JSON MTI serialization is a string."])
    assert usages(doc) == [("p0", "g0", "TLP"), ("p1", "g1", "MTI")]


def test_a_capitalised_name_is_defined_under_its_own_heading_only():
    doc = Document("docx", [
        Unit("s", "section", "3.1.4 Sleep Duration", 0, title="Sleep Duration"),
        Unit("d", "paragraph", "The Sleep Duration is a four-byte integer time interval measured in seconds.", 1, parent="s"),
        Unit("t", "section", "Preamble", 2, title="Preamble"),
        Unit("e", "paragraph", "The General Public License is a free, copyleft license.", 3, parent="t"),
        Unit("u", "paragraph", "A Client sends a Sleep Duration under the General Public License.", 4),
    ])
    assert usages(doc) == [("u", "d", "Sleep Duration")]


def test_a_lower_case_expansion_spells_a_roman_numeral_acronym():
    assert [(d.term, d.kind) for d in find_definitions("The twelve byte initialization vector (IV) is derived.")] == [
        ("IV", "acronym")]
    assert find_definitions("Apply the rule in item v (IV) first.") == ()
    assert find_definitions("The rules of (iv) apply.") == ()


def test_a_unit_defining_a_term_does_not_depend_on_another_definition_of_it():
    """"A "STIX 2.1 Producer" is any software ..." defines its own term (a version number inside
    the quoted name); a paragraph naming "the Session State" itself does not lean on the
    glossary's "Session State:"."""
    doc = _after_glossary(["Producer - Any entity that distributes STIX content.",
                           "Session State - the state kept per client."],
                          ['A "STIX 2.1 Producer" is any software that can create STIX 2.1 content.',
                           "Clients keep state; this is referred to as the Session State.",
                           "A STIX 2.1 Producer MAY support markings."])
    assert usages(doc) == [("p2", "p0", "STIX 2.1 Producer")]
