"""Undefined abbreviations an editor would not spell out, as the wild specifications write them
(issue 28), each beside a sentence where the same shape holds an abbreviation that must still be
reported."""
from __future__ import annotations

from adapters.model import Document, Unit
from addin_backend.checks.terminology import acronym_findings

FILLER = "The endpoint sends the packet again after the timer expires, as described in the next section."


def _doc(*texts: str, parents: dict[int, str] | None = None, kinds: dict[int, str] | None = None) -> Document:
    units = []
    for i, text in enumerate(texts):
        u = Unit(f"u{i}", (kinds or {}).get(i, "paragraph"), text, i, parent=(parents or {}).get(i),
                 title=text if (kinds or {}).get(i) == "section" else None)
        u.meta["lang"] = "en-US"
        units.append(u)
    doc = Document("docx", units=units)
    doc.meta["language"] = "en-US"
    return doc


def undefined(doc: Document) -> set[str]:
    return {f.evidence for f in acronym_findings(doc) if f.kind == "undefined_acronym"}


def test_code_points_sigils_and_quoted_literals_are_no_abbreviations():
    doc = _doc("The data MUST NOT include code points between U+D800 and U+DFFF, nor 0xFEFF.",
               "$SYS/ has been widely adopted as a prefix for server topics.",
               'The mailboxes that are "BCC:" recipients of the message.',
               "The gateway keeps a DFFF table for its clients.", FILLER)
    assert undefined(doc) == {"DFFF"}


def test_a_zero_padded_serial_is_an_id():
    doc = _doc("This version became CSD02, then CS03 after the vote; see EN05 for fingerprints.",
               "The CSD is reviewed by the committee.", FILLER)
    assert undefined(doc) == {"CSD"}


def test_words_run_together_in_capitals_are_a_keyword():
    # the identifier layer (language/identifiers.py) knows them; the check reports no identifier
    from addin_backend.checks.document import check_document

    doc = _doc("A pattern ([a] FOLLOWEDBY [b]) matches in order; a ISSUBSET b and a ISSUPERSET b compare sets.",
               "Plants run SCADA and the proxy runs OSCORE.", FILLER)
    assert {f.evidence for f in check_document(doc) if f.kind == "undefined_acronym"} == {"SCADA", "OSCORE"}


def test_a_name_the_sentence_gives_a_figures_part():
    doc = _doc("Position: bit 4 of the Connect Flags byte. Labelled DAM in Figure 3-1.",
               "Position: bit 2 of the Session Flags. Labelled Server KA in Figure 3-6.",
               "The DAM bit is set by the client.", FILLER)
    assert undefined(doc) == set()
    assert undefined(_doc("The DAM bit is set by the client.", FILLER)) == set()  # a bit's name, as before
    assert undefined(_doc("DAM is reset when its timer fires.", FILLER)) == {"DAM"}


def test_a_name_with_the_citation_of_the_work_that_defines_it():
    doc = _doc("The approach is informed by the OSCORE [RFC 8613] standard and CBOR Initial Algorithms [RFC 9053].",
               "Use an external system such as LDAP [RFC4511] or the SASL mechanisms.",
               "This syntax is inspired by JSONPath [Goessner 2007].",
               "[Goessner 2007] Goessner, S., \"JSONPath - XPath for JSON\", 2007, http://goessner.net/articles/JsonPath/.",
               FILLER)
    assert undefined(doc) == {"SASL"}


def test_an_abbreviation_spelled_out_by_a_cited_works_title():
    doc = _doc("The identifier is a UUIDv5 in the UUID format; CIDR blocks are written as usual.",
               "References", "[RFC4122] Leach, P., Mealling, M., and R. Salz, \"A Universally Unique IDentifier (UUID) "
               "URN Namespace\", RFC 4122, DOI 10.17487/RFC4122, July 2005.", FILLER,
               parents={2: "u1"}, kinds={1: "section"})
    assert undefined(doc) == {"CIDR"}


def test_numbered_members_of_a_family_of_names():
    doc = _doc("The broken MD2 hash function is used; MD5 is no better.", "SHA1 is weak; use SHA-256.", FILLER)
    assert undefined(doc) == {"SHA1"}  # SHA1 alone: SHA-256 is a designation, no family member


def test_a_name_in_capitals_and_an_affiliation():
    doc = _doc("The code point U+2A6D4 (which represents a CJK IDEOGRAPH EXTENSION B character) is encoded so.",
               "Davide Lenzarini (davide.lenzarini@u-blox.com), u-blox AG", "The CJK fonts are large.", FILLER)
    assert undefined(doc) == {"CJK"}


def test_a_part_of_a_constants_name_names_its_value():
    doc = _doc("AF_IPX Specifies the IPX (Novell Internet Protocol) address family. AF_IRDA Specifies IRDA sockets.",
               "Some nodes speak IPXE too.", FILLER)
    assert undefined(doc) == {"IPXE"}


def test_the_title_page_uses_an_abbreviation_before_the_text_spells_it_out():
    doc = _doc("STIX Version 2.1.1", "Technical Committee: OASIS Cyber Threat Intelligence (CTI) TC", "Introduction",
               "Structured Threat Information Expression (STIX) is a language. The TC reviews it.",
               "STIX is used here.", kinds={2: "section"}, parents={3: "u2", 4: "u2"})
    early = {f.evidence for f in acronym_findings(doc) if f.kind == "acronym_before_definition"}
    assert early == set()
    doc = _doc("Introduction", "STIX is used before.", "Structured Threat Information Expression (STIX) is a language.",
               kinds={0: "section"}, parents={1: "u0", 2: "u0"})
    assert {f.evidence for f in acronym_findings(doc) if f.kind == "acronym_before_definition"} == {"STIX"}


def test_a_glob_of_constants_is_no_definition():
    doc = _doc("Introduction", "Specifies the address family (AF_*) of the socket.",
               "A SLA applies.", "A Service Level Agreement (SLA) binds it.",
               kinds={0: "section"}, parents={1: "u0", 2: "u0", 3: "u0"})
    got = {(f.kind, f.evidence) for f in acronym_findings(doc)}
    assert not any(e == "AF_*" for _k, e in got)
    assert ("acronym_before_definition", "SLA") in got


def test_a_name_written_in_capitals_that_the_text_writes_as_a_name():
    doc = _doc("Network scanning tools (e.g., Nmap) are examples of tools.",
               "Tools used to enumerate network information, e.g., NMAP.",
               "Tools used to access machines remotely, such as VNC.", FILLER)
    assert undefined(doc) == {"VNC"}


def test_a_glossary_line_with_an_owners_name_before_the_expansion():
    doc = _doc("Introduction", "IEP - FIRST (Forum of Incident Response and Security Teams) Information Exchange Policy",
               "The Information Exchange Policy (IEP) applies.", "IEP markings are used.",
               kinds={0: "section"}, parents={1: "u0", 2: "u0", 3: "u0"})
    assert "acronym_before_definition" not in {f.kind for f in acronym_findings(doc)}


def test_a_constants_name_spells_the_abbreviation_out():
    doc = _doc("The key MUST be fully expanded; e.g., HKEY_LOCAL_MACHINE must be used instead of HKLM.",
               "The HKCU hive is per user.", FILLER)
    assert undefined(doc) == {"HKCU"}
