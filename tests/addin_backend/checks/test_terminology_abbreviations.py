"""Undefined abbreviations: flagged only where a reader would need the expansion.

Each rule of :mod:`addin_backend.checks.style.abbreviations` on a realistic sentence, and beside it the
sentence where the same shape holds a real abbreviation that must still be reported.
"""
from __future__ import annotations

import pytest

from adapters.model import Document, Unit
from addin_backend.checks.terminology import acronym_findings


def _doc(*texts: str, kinds: tuple[str, ...] = (), tables: dict[int, list[list[str]]] | None = None,
         styles: dict[int, str] | None = None, lang: str = "en-US") -> Document:
    units = []
    for i, text in enumerate(texts):
        kind = kinds[i] if i < len(kinds) else "paragraph"
        u = Unit(f"u{i}", kind, text, i, style=(styles or {}).get(i))
        if tables and i in tables:
            u.meta["cells"] = tables[i]
        u.meta["lang"] = lang
        units.append(u)
    doc = Document("docx", units=units)
    doc.meta["language"] = lang
    return doc


FILLER = "The endpoint sends the packet again after the timer expires, as described in the next section."


def undefined(doc: Document) -> set[str]:
    return {f.evidence for f in acronym_findings(doc) if f.kind == "undefined_acronym"}


# --- designations -----------------------------------------------------------------------------

def test_a_series_name_with_its_number_is_a_designation():
    doc = _doc("The key words are to be interpreted as described in BCP 14 and RFC 2119.",
               "Curves follow FIPS 186-4; older documents cite RFCs that RFC 8446 obsoletes.", FILLER)
    assert undefined(doc) == set()


def test_a_version_number_does_not_make_a_designation():
    doc = _doc("Single sign-on uses SAML 2.0 assertions between the parties.", FILLER)
    assert undefined(doc) == {"SAML"}


# --- names a document introduces --------------------------------------------------------------

def test_a_registry_table_names_its_entries():
    rows = [["Type Value", "Frame Type Name", "Definition"], ["0x06", "CRYPTO", "Section 19.6"],
            ["0x1e", "HANDSHAKE_DONE", "Section 19.20"]]
    doc = _doc("Frame types", "Data sent in CRYPTO frames is retransmitted until it is acknowledged.",
               kinds=("table", "paragraph"), tables={0: rows})
    assert undefined(doc) == set()


def test_a_table_of_labels_without_values_names_nothing():
    rows = [["First Name", "Last Name", "DOB"], ["", "", ""]]
    doc = _doc("Client", "Write the DOB as shown on the passport.", kinds=("table", "paragraph"), tables={0: rows})
    assert undefined(doc) == {"DOB"}


def test_a_legend_row_explains_its_abbreviation_and_a_description_that_does_not_spell_it_does_not():
    rows = [["Component", "Contents"], ["LVL", "The security level (in bits)"], ["KEM", "The KEM algorithm used"]]
    doc = _doc("Suites", "Each suite fixes the LVL and the KEM of a group.", kinds=("table", "paragraph"),
               tables={0: rows})
    assert undefined(doc) == {"KEM"}


def test_a_parameter_table_drawn_in_a_figure_names_its_constants():
    lines = ["+---------+-------+----------------------+",
             "| Name    | Value | Description          |",
             "| BCOUNT  | 8     | burst count          |",
             "| PGATE   | 4     | poll-adjust gate     |"]
    doc = _doc(*lines, "The client sends a burst of BCOUNT packets; PGATE limits the poll adjustment.", FILLER,
               styles={i: "Source Code" for i in range(4)})
    assert undefined(doc) == set()


def test_a_term_line_of_a_definition_list_names_its_term():
    doc = _doc("ES:", "END_STREAM flag", "The ES transition closes the stream.", FILLER,
               styles={0: "Definition Term"})
    assert undefined(doc) == set()


def test_a_grammar_rule_defines_its_name():
    doc = _doc("DIGIT1 = %x31-39", "A Normalized Path uses the rules DIGIT1 and DIGIT from the grammar.", FILLER,
               styles={0: "Source Code"})
    assert undefined(doc) == set()


# --- names by their context -------------------------------------------------------------------

@pytest.mark.parametrize("sentence,name", [
    ("When the stream ends, the sender sets the FIN bit on the last frame.", "FIN"),
    ("A SETTINGS frame with the ACK flag set acknowledges the peer's settings.", "ACK"),
    ("A CRYPTO frame (type=0x06) carries the handshake.", "CRYPTO"),
    ("The panic threshold PANICT (1000 s) stops the program.", "PANICT"),
    ("The client issues a SIP BYE request to close the session.", "BYE"),
    ("Only safe methods such as GET, HEAD, and OPTIONS are cached.", "GET"),
    ("The labels IGNOR, PANIC, ADJ, and STEP refer to return codes.", "ADJ"),
    ("The key K1 and the application ratchet secrets AR1 and AR0 are deleted.", "AR1"),
    ("The value must not exceed MAXPOLL.", "MAXPOLL"),
    ("Field values containing CR, LF, or NUL characters are invalid.", "NUL"),
    ("The game was developed by TKO Software in 2004.", "TKO"),
])
def test_names_a_reader_reads_as_names(sentence, name):
    assert name not in undefined(_doc(sentence, FILLER))


@pytest.mark.parametrize("sentence,abbreviation", [
    ("Routers may set the ECN field when the queue builds up.", "ECN"),
    ("Hosts that receive ICMP messages validate the quoted packet.", "ICMP"),
    ("The endpoint updates its RTT estimate on each acknowledgment.", "RTT"),
    ("An OCSP request is sent to the responder.", "OCSP"),
    ("Each MLS group uses one cipher suite.", "MLS"),
    ("The path supports an MTU of 1280 bytes.", "MTU"),
    ("The SIP server forwards a SIP request to the callee.", "SIP"),
    ("NAT rebinding changes the client's address.", "NAT"),
])
def test_real_abbreviations_in_the_same_shapes_are_still_reported(sentence, abbreviation):
    assert abbreviation in undefined(_doc(sentence, FILLER))


# --- explanations -----------------------------------------------------------------------------

@pytest.mark.parametrize("sentence,abbreviation", [
    ("Messages are described in augmented Backus-Naur form (ABNF [RFC5234]).", "ABNF"),
    ("Whitespace is written as a single SP (space) between tokens.", "SP"),
    ("It is used for machine-to-machine (M2M) applications.", "M2M"),
    ("Other secure schemes such as Secure FTP (FTPS) may be used.", "FTPS"),
    ("Figure 7 shows the connection IDs (with DCID=Destination Connection ID).", "DCID"),
    ("The title is often abbreviated \"HHGTTG\" by fans.", "HHGTTG"),
    ("The ODCID Length field gives the length of the Original Destination Connection ID field.", "ODCID"),
    ("If (EC)DHE (Diffie-Hellman over finite fields or elliptic curves) is in use, ECDHE keys are fresh.", "ECDHE"),
])
def test_an_explanation_the_reader_sees_needs_no_definition(sentence, abbreviation):
    assert abbreviation not in undefined(_doc(sentence, FILLER))


def test_a_gloss_that_only_cites_is_no_explanation():
    assert "ALPN" in undefined(_doc("ALPN (see [ALPN]) allows clients to offer several protocols.", FILLER))


def test_known_abbreviations_and_their_versions():
    doc = _doc("IANA keeps the registry; the IETF reviews it. Servers speak IPv6 and HTML5.",
               "Origin servers in Austin, TX. answer by 10:00 AM PST.", FILLER)
    assert undefined(doc) == set()


def test_a_version_of_a_defined_abbreviation_is_defined():
    doc = _doc("The Media Resource Control Protocol version 2 (MRCPv2) replaces MRCPv1.", FILLER)
    assert undefined(doc) == set()


def test_the_prefix_of_a_glued_parenthesis_and_a_literal_are_no_uses():
    doc = _doc("If (EC)DHE (Diffie-Hellman over finite fields or elliptic curves) is in use, it is fresh.",
               "The byte string could be written b32'CI2FM6A' or b64'EjRWeA'.", FILLER)
    assert undefined(doc) == set()


def test_hexadecimal_numbers_are_no_abbreviations():
    assert undefined(_doc("Code points range from 0 to D7FF or E000 to 10FFFF.", FILLER)) == set()


# --- spelled out two ways ---------------------------------------------------------------------

def _redefined(doc: Document) -> set[str]:
    return {f.evidence for f in acronym_findings(doc) if f.kind == "acronym_redefined"}


def test_an_expansion_written_with_an_abbreviation_in_it_is_the_same_expansion():
    doc = _doc("CoAP is secured using Datagram Transport Layer Security (DTLS).",
               "Like TLS over TCP, CoAP uses Datagram TLS (DTLS) over UDP.", FILLER)
    assert _redefined(doc) == set()


def test_a_trailing_word_the_letters_do_not_need_is_the_same_expansion():
    doc = _doc("The recipient sends an Acknowledgement (ACK).", "An Acknowledgement message (ACK) carries the ID.",
               FILLER)
    assert _redefined(doc) == set()


def test_two_expansions_that_differ_are_still_reported():
    doc = _doc("The Automatic Speech Recognition (ASR) resource listens.",
               "An Automatic Speech Recognizer (ASR) returns results.",
               "Results use the Natural Language Semantic Markup Language (NLSML).",
               "The Natural Language Semantics Markup Language (NLSML) is XML.", FILLER)
    assert _redefined(doc) == {"ASR", "NLSML"}
