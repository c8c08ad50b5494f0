"""Every form of a renamed term, one rule per test, on sentences written for them; and the
rename of "connection ID" on RFC 9000, where nothing may be left unrenamed or unreported."""
from __future__ import annotations

import re
import time

import pytest

from adapters.model import Document, Unit
from addin_backend.edits import apply_to_document, expand_rename
from addin_backend.edits.renaming import expansion_findings, initials_fit, term_places
from addin_backend.edits.rules import propose
from addin_backend.edits.terms import TermMatcher, find_term
from addin_backend.verify.after_edit import unreported_forms, verify


def renamed(text: str, old: str, new: str, **kw) -> str:
    out, pos = [], 0
    for start, end, repl in find_term(text, old, new, **kw):
        out.append(text[pos:start] + repl)
        pos = end
    return "".join(out) + text[pos:]


def doc_of(*texts: str, styles: dict[int, str] | None = None, kinds: dict[int, str] | None = None) -> Document:
    styles, kinds = styles or {}, kinds or {}
    return Document("docx", [Unit(f"p{i}", kinds.get(i, "paragraph"), t, i, style=styles.get(i, "Normal"))
                             for i, t in enumerate(texts)])


# --- plurals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, old, new, expected", [
    ("An endpoint issues connection IDs; each connection ID is retired once.", "connection ID", "connection identifier",
     "An endpoint issues connection identifiers; each connection identifier is retired once."),
    ("Both target URIs differ from the target URI of the request.", "target URI", "request target",
     "Both request targets differ from the request target of the request."),
    ("The receiver acknowledges TSNs in order; a TSN is 32 bits.", "TSN", "SSN",
     "The receiver acknowledges SSNs in order; a SSN is 32 bits."),
    ("Players upload MP3s and one MP3 plays.", "MP3", "AAC file", "Players upload AAC files and one AAC file plays."),
    ("Two people and one person signed.", "person", "member", "Two members and one member signed."),
])
def test_plurals_of_the_whole_term_also_after_an_acronym(text, old, new, expected):
    assert renamed(text, old, new) == expected


def test_a_short_acronym_in_capitals_is_no_plural_of_another():
    # "IDS" (an intrusion detection system) is not the plural of "ID"; "us" is not "US"
    assert renamed("The IDS logs each ID.", "ID", "identifier") == "The IDS logs each identifier."
    assert renamed("US users must tell us.", "US", "EU") == "EU users must tell us."


def test_possessives_keep_their_ending():
    assert renamed("The origin server's keys and the connection ID's length.", "origin server", "upstream server") \
        == "The upstream server's keys and the connection ID's length."
    assert renamed("The connection ID\u2019s length; the connection IDs' order.", "connection ID", "connection identifier") \
        == "The connection identifier\u2019s length; the connection identifiers' order."


# --- case ------------------------------------------------------------------------------------


def test_a_sentence_start_is_capitalised_like_a_sentence():
    assert renamed("Connection IDs are chosen freely. So are connection IDs.", "connection ID", "connection identifier") \
        == "Connection identifiers are chosen freely. So are connection identifiers."


@pytest.mark.parametrize("line, expected", [
    ("Issuing Connection IDs", "Issuing Connection Identifiers"),
    ("Figure 7: Use of Connection IDs in a Handshake", "Figure 7: Use of Connection Identifiers in a Handshake"),
    ("Connection ID", "Connection Identifier"),
])
def test_headings_and_captions_in_title_case_get_the_new_term_in_title_case(line, expected):
    assert renamed(line, "connection ID", "connection identifier") == expected


def test_capitals_and_the_terms_own_capitals():
    assert renamed("CONNECTION IDS ARE NEW.", "connection ID", "connection identifier") == "CONNECTION IDENTIFIERS ARE NEW."
    # the acronym inside a term matches only as written; the ordinary word in any case
    assert renamed("connection Id and Connection id", "connection ID", "connection identifier") == \
        "connection Id and Connection id"
    assert renamed("Element IDs are unique; two element IDs.", "element ID", "element identifier") == \
        "Element identifiers are unique; two element identifiers."


def test_a_new_term_with_its_own_capitals_keeps_them():
    assert renamed("Each stream is framed. Streams close.", "stream", "QUIC stream") == \
        "Each QUIC stream is framed. QUIC streams close."


# --- compounds -------------------------------------------------------------------------------


def test_hyphenated_compounds_stay_hyphenated():
    assert renamed("It uses origin-server authentication with the origin server.", "origin server", "upstream server") \
        == "It uses upstream-server authentication with the upstream server."
    assert renamed("a connection-ID-based router", "connection ID", "connection identifier") == \
        "a connection-identifier-based router"


def test_a_closed_compound_is_found_and_reported_but_never_replaced():
    m = TermMatcher("origin server", "upstream server")
    [o] = m.find("The originserver flag is set.")
    assert (o.text, o.closed) == ("originserver", True)
    assert find_term("The originserver flag is set.", "origin server", "upstream server") == []
    doc = doc_of("The originserver flag is set.", "An origin server answers.")
    places = term_places(doc, "origin server", "upstream server")
    assert [(p.occ.text, p.kept is not None) for p in places] == [("originserver", True), ("origin server", False)]


# --- the term inside a longer name ------------------------------------------------------------


NAMES = ("The Destination Connection ID field follows the connection ID length.",
         "A server sets the Destination Connection ID to a value it chooses.",
         "A Source Connection ID may be empty; connection IDs change over time.",
         "Each connection ID is issued once, and connection IDs are retired in order.")


def test_a_name_the_document_uses_as_its_own_is_kept_and_said_in_the_preview():
    doc = doc_of(*NAMES)
    p = propose(doc, 'Rename "connection ID" to "connection identifier" everywhere', author="Ana")
    got = apply_to_document(doc, p.edits)
    assert got.unit("p0").text == "The Destination Connection ID field follows the connection identifier length."
    assert got.unit("p1").text == "A server sets the Destination Connection ID to a value it chooses."
    assert "Destination Connection ID" in p.explanation and "including names" in p.explanation
    findings = verify(doc, got, None, p.edits, semantic=False)
    kept = [f for f in findings if f.kind == "old_term_kept"]
    assert {pl.unit for f in kept for pl in f.places} == {"p0", "p1", "p2"}
    assert any("Destination Connection ID" in f.message for f in kept)
    assert unreported_forms(got, "connection ID", "connection identifier", findings) == []


def test_the_user_chooses_to_rename_inside_names_too():
    doc = doc_of(*NAMES)
    p = propose(doc, 'Rename "connection ID" to "connection identifier" everywhere, including names', author="Ana")
    got = apply_to_document(doc, p.edits)
    assert got.unit("p1").text == "A server sets the Destination Connection Identifier to a value it chooses."
    assert expand_rename(doc, "connection ID", "connection identifier", names="keep") == \
        expand_rename(doc, "connection ID", "connection identifier")  # auto keeps the same names here


def test_a_capitalised_phrase_written_once_is_a_use_when_the_document_capitalises_the_term():
    doc = doc_of("The Purchase Order is signed.", "Each Purchase Order lists its goods.")
    edits = expand_rename(doc, "purchase order", "sales order")
    assert [e.text for e in edits] == ["Sales Order", "Sales Order"]


def test_a_heading_spelled_as_a_name_the_prose_never_writes_in_lower_case_is_kept():
    # "Shipping-Address" names a form field: capitalised and hyphenated in the prose, never
    # "shipping-address"; its section keeps the name, while a heading of the term itself changes
    doc = doc_of("Shipping Address", "The shipping address is where the parcel goes.",
                 "Shipping-Address", "A buyer fills the Shipping-Address field once.",
                 "The Shipping-Address field holds one shipping address.", "Each shipping address is checked.",
                 kinds={0: "heading", 2: "heading"})
    edits = expand_rename(doc, "shipping address", "delivery address")
    assert [(e.unit, e.text) for e in edits] == [("p0", "Delivery Address"), ("p1", "delivery address"),
                                                  ("p4", "delivery address"), ("p5", "delivery address")]
    kept = [p for p in term_places(doc, "shipping address", "delivery address") if p.kept]
    assert [p.unit.id for p in kept] == ["p2", "p3", "p4"]
    assert "never writes it in lower case" in kept[0].kept
    # once the prose writes the spelling in lower case too, the heading is the term
    doc2 = doc_of(*[u.text for u in doc.units], "A shipping-address check runs first.", kinds={0: "heading", 2: "heading"})
    assert ("p2", "Delivery-Address") in [(e.unit, e.text) for e in expand_rename(doc2, "shipping address", "delivery address")]


def test_hyphenated_and_spaced_forms_are_one_rename_and_each_kept_place_is_told_once():
    doc = doc_of("Each field name is short.", "A field-name check runs; field names differ.", "  field-name = token",
                 styles={2: "Source Code"})
    p = propose(doc, 'Rename "field name" to "header name" everywhere', author="Ana")
    got = apply_to_document(doc, p.edits)
    assert got.unit("p1").text == "A header-name check runs; header names differ."
    findings = verify(doc, got, None, p.edits, semantic=False)
    kept = [f for f in findings if f.kind == "old_term_kept"]
    assert [(f.unit, len(f.places)) for f in kept] == [("p2", 1)], [f.message for f in kept]
    assert "renaming 'field name' to 'header name'" in kept[0].message


# --- code and quotations ----------------------------------------------------------------------


def test_code_lines_and_quotations_are_kept_with_why():
    doc = doc_of("Each connection ID is random.", "  Connection ID (0..160),", "a connection ID, as quoted",
                 styles={1: "Source Code", 2: "Quote"})
    kept: list = []
    edits = expand_rename(doc, "connection ID", "connection identifier", kept=kept)
    assert [e.unit for e in edits] == ["p0"]
    assert [(k.unit.id, k.kept.split(":")[0]) for k in kept] == [("p1", "code"), ("p2", "a quotation")]


# --- languages -------------------------------------------------------------------------------


def test_english_plural_rules_only_on_english_units():
    assert TermMatcher("widget", "gadget", english=False).find("two widgets") == []
    assert [o.replacement for o in TermMatcher("widget", "gadget", english=False).find("Widget, WIDGET")] == \
        ["Gadget", "GADGET"]
    german = Unit("de", "paragraph", "Jeder Widget wird geprüft, und alle Widgets werden gezählt, bevor sie gehen.", 1,
                  meta={"lang": "de-DE"})
    doc = Document("docx", [Unit("en", "paragraph", "Each widget and all widgets.", 0, meta={"lang": "en-US"}), german])
    assert [(e.unit, e.old) for e in expand_rename(doc, "widget", "gadget")] == \
        [("en", "widget"), ("en", "widgets"), ("de", "Widget")]


# --- acronyms and their expansions ------------------------------------------------------------


def test_initials():
    assert initials_fit("TSN", "Transmission Sequence Number")
    assert initials_fit("PMTU", "Path Maximum Transmission Unit")
    assert not initials_fit("SSN", "Transmission Sequence Number")


def test_an_acronym_renamed_beside_its_expansion_is_told():
    doc = doc_of("Each chunk carries a Transmission Sequence Number (TSN).", "The TSN wraps around.")
    edits = expand_rename(doc, "TSN", "SSN")
    got = apply_to_document(doc, edits)
    [f] = [f for f in verify(doc, got, None, edits, semantic=False) if f.kind == "expansion_mismatch"]
    assert f.unit == "p0" and f.evidence == "Transmission Sequence Number (SSN)"
    # the expansion renamed as well: it fits, nothing to say
    both = expand_rename(got, "Transmission Sequence Number", "Stream Sequence Number")
    assert expansion_findings(apply_to_document(got, both), "TSN", "SSN") == []


def test_an_expansion_renamed_beside_its_acronym_is_told():
    doc = doc_of("Each chunk carries a transmission sequence number (TSN).")
    edits = expand_rename(doc, "transmission sequence number", "stream sequence number")
    got = apply_to_document(doc, edits)
    [f] = expansion_findings(got, "transmission sequence number", "stream sequence number")
    assert "TSN" in f.message and f.evidence == "stream sequence number (TSN)"
    ok = expand_rename(doc, "transmission sequence number", "transfer sequence number")
    assert expansion_findings(apply_to_document(doc, ok), "transmission sequence number", "transfer sequence number") == []


# --- verification cannot be silent ------------------------------------------------------------


def test_a_form_left_behind_is_a_finding_with_its_place():
    doc = doc_of("Each connection ID is new.", "Connection IDs change.", "The connection-ID table.")
    edits = [e for e in expand_rename(doc, "connection ID", "connection identifier") if e.unit == "p0"]
    got = apply_to_document(doc, edits)
    findings = verify(doc, got, None, edits, semantic=False)
    left = sorted((f.unit, f.evidence) for f in findings if f.kind == "old_term")
    assert left == [("p1", "Connection IDs"), ("p2", "connection-ID")]
    assert unreported_forms(got, "connection ID", "connection identifier", findings) == []
    assert unreported_forms(got, "connection ID", "connection identifier", []) != []


# --- the real document -----------------------------------------------------------------------


def test_rfc9000_rename_leaves_no_connection_id_unrenamed_or_unreported():
    from addin_backend.edits.pipeline import plan_edit
    from addin_backend.graph.build import build_graph
    from adapters import read
    from tests.conftest import DEVSET_DOCS

    path = DEVSET_DOCS / "rfc9000.A.docx"
    if not path.exists():
        pytest.skip(f"the development set is not at {path.parent}")
    doc = read(path.read_bytes())
    G = build_graph(doc, semantic=False)
    t0 = time.perf_counter()
    plan = plan_edit(doc, G, 'Rename "connection ID" to "connection identifier" everywhere', semantic=False)
    seconds = time.perf_counter() - t0
    after = apply_to_document(doc, plan.edits)
    covered: dict[str, list[tuple[int, int]]] = {}
    for f in plan.findings:
        if f.kind in ("old_term", "old_term_kept"):
            for p in f.places or []:
                covered.setdefault(p.unit, []).append((p.start, p.end))
            if f.start is not None:
                covered.setdefault(f.unit or "", []).append((f.start, f.end or f.start))
    # an independent reading of "every form": any case, plural, hyphen or space, not the matcher's own
    form = re.compile(r"(?i)(?<![\w])connection[\s\-\u2010\u2011]?IDs?(?![\w])")
    left = [(u.id, m.group(0)) for u in after.units if u.meta.get("absent_in") != "accepted"
            for m in form.finditer(u.text) if not any(a <= m.start() and m.end() <= b for a, b in covered.get(u.id, ()))
            and not any(f.start < m.end() and m.start() < f.end for f in u.fields)]
    assert left == []
    texts = " ".join(u.text for u in after.units)
    assert "connection identifiers" in texts and "Connection Identifiers" in texts
    assert not re.search(r"(?<!\w)connection IDs(?!\w)", texts)  # every lower-case plural renamed
    assert len(plan.operations) > 200
    assert seconds < 60  # seconds in practice; the speed figure is the benchmark's (docs/benchmarks.md)


def test_a_rename_is_read_back_by_its_singular_form_also_for_acronym_plurals():
    from addin_backend.edits.intents import edit_ids, norm_term, renames
    from addin_backend.edits.operations import validate_edits

    assert norm_term("target URIs") == norm_term("target URI") == "target uri"
    doc = doc_of("Both target URIs differ.", "The target URI is absolute.", "A target URI is given.")
    edits = validate_edits(doc, expand_rename(doc, "target URI", "request target"))
    [r] = renames(doc, edits, edit_ids(edits))
    assert (r.old, r.new, len(r.edits)) == ("target URI", "request target", 3)


def test_the_user_chooses_to_keep_every_capitalised_use_as_a_name():
    doc = doc_of("See the Retire Prior To field; each connection ID is new.", "The connection IDs and the Connection ID field.")
    auto = propose(doc, "Rename 'connection ID' to 'connection identifier' everywhere", author="Ana")
    keep = propose(doc, "Rename 'connection ID' to 'connection identifier' everywhere, not in names", author="Ana")
    every = propose(doc, "Rename 'connection ID' to 'connection identifier' in the whole document including names",
                    author="Ana")
    assert [e.old for e in keep.edits] == ["connection ID", "connection IDs"]
    assert "Connection ID" in [e.old for e in every.edits]
    assert len(auto.edits) <= len(every.edits)


# --- a term given in one number, the new term in another --------------------------------------


@pytest.mark.parametrize("text, old, new, expected", [
    # the battery's case: a plural term renamed to a singular one; each occurrence keeps its number
    ("Each ack-eliciting packet is counted. Ack-eliciting packets are sent.", "ack-eliciting packets",
     "ack-eliciting marker", "Each ack-eliciting marker is counted. Ack-eliciting markers are sent."),
    ("A widget; all widgets.", "widget", "gadgets", "A gadget; all gadgets."),
    ("A widget; all widgets.", "widgets", "gadgets", "A gadget; all gadgets."),
])
def test_the_new_term_takes_the_number_of_each_occurrence(text, old, new, expected):
    assert renamed(text, old, new) == expected


def test_a_number_the_new_term_has_no_form_for_is_found_and_reported_not_replaced():
    # "ISO 27001" has no plural: "widgets" cannot be written in the new term, so it is kept and said
    doc = doc_of("Each widget is audited; all widgets are listed.")
    assert renamed(doc.units[0].text, "widget", "ISO 27001") == "Each ISO 27001 is audited; all widgets are listed."
    places = term_places(doc, "widget", "ISO 27001")
    assert [(p.occ.text, p.occ.unpaired, bool(p.kept)) for p in places] == [("widget", False, False),
                                                                           ("widgets", True, True)]
    assert "no plural" in places[1].kept
    # and the other way round: the singular of a plural term renamed to a word without a singular
    assert [(o.text, o.unpaired) for o in TermMatcher("packets", "v2").find("a packet, packets")] == [
        ("packet", True), ("packets", False)]


def test_a_form_left_behind_is_found_in_its_units_language():
    """verify.after_edit.unreported_forms reads each unit in its language's forms (language/forms.py):
    the French plural 'travaux' of 'travail' is a form left behind, not a different word."""
    from adapters.model import Document, Unit

    after = Document("docx", [Unit("p", "paragraph", "Les travaux du chantier sont suspendus jusqu'à nouvel ordre.", 0,
                                   meta={"lang": "fr-FR"}),
                              Unit("q", "paragraph", "The travails of the site are over.", 1)])
    assert unreported_forms(after, "travail", "ouvrage", []) == [("p", 4, 11, "travaux"), ("q", 4, 12, "travails")]
