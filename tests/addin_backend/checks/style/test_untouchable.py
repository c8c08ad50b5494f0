"""What no check reports and no fix rewrites (names, literals, code, dictionary words), and the two
consistency checks of issue 21: a phrase capitalised two ways, and numbers written as digits and
as words for one kind of quantity, on sentences written for the purpose and seeded into a real
standard."""
from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from addin_backend.checks.document import check_document
from addin_backend.checks.style import parse_style, style_findings
from addin_backend.checks.style.prose import protected_spans, untouchable
from addin_backend.language.wordlists import dictionary_word

from ...edits.docs import make_doc
from tests.conftest import DEVSET_DOCS


def _places(findings, kind=None):
    return [(f.kind, p.unit, p.text, p.replacement) for f in findings if kind in (None, f.kind) for p in f.places]


# --- names, literals and code --------------------------------------------------------------------

def test_a_media_type_is_never_split_into_words():
    doc = make_doc([
        ("p1", "paragraph", "A server sends the byte ranges in order. The byte ranges may overlap.", None),
        ("p2", "paragraph", "Several byte ranges are sent as one multipart/byteranges body.", None),
        ("p3", "paragraph", 'The "multipart/byteranges" media type is registered below; byte ranges are counted.', None),
        ("s1", "section", "Media Type multipart/byteranges", None, "Section 1", "1", "Heading 1", None, 1),
    ])
    touched = [t for _k, _u, t, r in _places(check_document(doc)) if r is not None]
    assert not any("byteranges" in t for t in touched)


def test_a_dictionary_word_is_not_split_where_a_name_writes_it_open():
    doc = make_doc([
        ("p1", "paragraph", "HTTP is the transfer protocol of the World Wide Web and is used worldwide.", None),
        ("p2", "paragraph", "Caches across the World Wide Web serve pages; the World Wide Web grew fast.", None),
    ])
    assert dictionary_word("worldwide") and not dictionary_word("world wide")
    assert not [x for x in _places(check_document(doc), "variant_spelling") if x[2] == "worldwide"]


def test_a_compound_before_an_adjective_keeps_its_hyphen():
    doc = make_doc([
        ("p1", "paragraph", "Each authentication scheme defines its parameters. The authentication scheme is named.", None),
        ("p2", "paragraph", "The authentication scheme may change; an authentication scheme is chosen by the server.", None),
        ("p3", "paragraph", "The contents of the authentication-scheme specific parameters may be exposed.", None),
    ])
    assert not [x for x in _places(check_document(doc)) if x[2] == "authentication-scheme"]


def test_heading_case_leaves_a_uri_scheme_in_lower_case():
    rows = [("s%d" % i, "section", t, None, f"Section 1.{i}", f"1.{i}", "Heading 2", None, 2)
            for i, t in enumerate(["Deprecation of Userinfo in http(s) URIs", "Normalization and Comparison Rules",
                                   "Fragment Identifiers in References", "Request Methods and Their Semantics"])]
    rows.append(("p1", "paragraph", "The request methods and their semantics are listed; the comparison rules follow.", None))
    doc = make_doc(rows)
    assert not [x for x in _places(check_document(doc)) if x[2].lower() == "http"]


def test_places_inside_uris_backticks_file_names_and_quotations_are_not_fixed():
    text = ('The data-set is at https://example.com/data-set/, in `data-set` and data-set.json; as the guide '
            'says, "every data-set is kept for a year".')
    spans = [text[a:b] for a, b in protected_spans(text)]
    assert spans == ["https://example.com/data-set/", "`data-set`", "data-set.json", "every data-set is kept for a year"]
    doc = make_doc([
        ("p1", "paragraph", text, None),
        ("p2", "paragraph", "Each dataset is encrypted. A dataset is deleted on request; every dataset is logged.", None),
    ])
    fixed = [(s, e) for f in check_document(doc) for p in f.places if p.unit == "p1" and p.replacement is not None
             for s, e in [(p.start, p.end)]]
    assert fixed == [(4, 12)]  # only the first, plain "data-set"
    assert untouchable(doc, "p1", text.index("example"), text.index("example") + 7) is not None


def test_a_code_line_is_never_fixed():
    doc = make_doc([("c1", "paragraph", "status-line = HTTP-version SP status-code SP [ reason-phrase ]", None,
                     None, None, "Source Code")])
    assert untouchable(doc, "c1", 0, 6) == "a code or grammar line"


def test_grammar_rule_names_are_not_abbreviations():
    doc = make_doc([
        ("p1", "paragraph", "The Hypertext Transfer Protocol (HTTP) is specified here. The core rules are "
                            "included by reference: ALPHA (letters), CR (carriage return), DQUOTE (double quote), "
                            "SP (space), and VCHAR (any visible character).", None),
        ("c1", "paragraph", "status-line = HTTP-version SP status-code SP [ reason-phrase ]", None, None, None, "Source Code"),
        ("c2", "paragraph", "quoted-string = DQUOTE *( qdtext ) DQUOTE", None, None, None, "Source Code"),
        ("p2", "paragraph", "The first line is the status-line: the version, a space (SP), and the status code. "
                            "The Hypertext Transfer Protocol (HTTP) is stateless.", None),
    ])
    found = check_document(doc)
    terms = {f.evidence for f in found if f.kind.startswith("acronym") or f.kind == "undefined_acronym"}
    assert not terms & {"SP", "DQUOTE", "ALPHA", "VCHAR", "CR"}
    assert "HTTP" in terms  # a real abbreviation spelled out twice is still reported


def test_english_rules_run_on_english_units_only():
    doc = make_doc([
        ("p1", "paragraph", "The sender retries five times. A receiver retries 5 times.", None),
        ("p2", "paragraph", "Der Sender wiederholt five times. Der Empfänger wiederholt 5 times und die Message Body "
                            "wird gesendet, die message body und die message body.", None),
    ])
    doc.units[0].meta["lang"] = "en"
    doc.units[1].meta["lang"] = "de"
    found = style_findings(doc)
    assert {p.unit for f in found for p in f.places} <= {"p1"}


# --- a phrase capitalised two ways ---------------------------------------------------------------

def _capitals_doc(extra: str):
    return make_doc([
        ("s6", "section", "Message Body", None, "Section 6", "6", "Heading 1", None, 1),
        ("p1", "paragraph", "The message body carries the content. A recipient reads the message body once.", "s6"),
        ("p2", "paragraph", "If the message body is empty, the length is zero; the message body is optional.", "s6"),
        ("p3", "paragraph", extra, "s6"),
    ])


def test_a_phrase_capitalised_beside_its_lower_case_form_is_found_even_where_a_heading_capitalises_it():
    got = _places(check_document(_capitals_doc("A response has a header section and an optional Message Body.")),
                  "phrase_capitalisation")
    assert got == [("phrase_capitalisation", "p3", "Message Body", "message body")]


@pytest.mark.parametrize("sentence", [
    "See the Message Body section for the framing rules.",  # cites the heading
    "Section 6 (Message Body) defines the framing rules.",
    "Message Body framing is defined by the length fields.",  # opens the sentence
])
def test_a_cited_heading_or_a_sentence_start_is_not_reported(sentence):
    assert not _places(check_document(_capitals_doc(sentence)), "phrase_capitalisation")


def test_a_phrase_written_once_as_a_fields_name_is_that_name_everywhere():
    doc = make_doc([
        ("p1", "paragraph", "Each packet carries a retry count; the retry count starts at zero.", None),
        ("p2", "paragraph", "A sender raises the retry count on loss and resets the retry count later.", None),
        ("p3", "paragraph", "A sender fills the Retry Count field. A receiver copies the value of the Retry Count.", None),
    ])
    assert not _places(check_document(doc), "phrase_capitalisation")


# --- numbers as digits and as words --------------------------------------------------------------

def _numbers(*sentences, sheet=None):
    doc = make_doc([(f"p{i}", "paragraph", s, None) for i, s in enumerate(sentences)])
    return _places(style_findings(doc, sheet), "number_style")


def test_five_times_beside_5_times_follows_the_house_rule():
    got = _numbers("The sender retries the request five times before it gives up.",
                   "A receiver that sees the same packet 5 times drops it.")
    assert got == [("number_style", "p1", "5", "five")]


def test_ten_and_above_in_digits_units_always_in_digits():
    got = _numbers("The client makes twelve retries at most, and 3 retries are usual.",
                   "A server makes 12 retries and then waits five seconds; when it is busy it waits 10 seconds.")
    assert sorted((u, t, r) for _k, u, t, r in got) == [("p0", "3", "three"), ("p0", "twelve", "12"), ("p1", "five", "5")]


def test_the_style_sheet_changes_the_house_rules():
    sheet = parse_style("[numbers]\nspell_out_below = 100\nunit_numerals = false\n", "house.toml")
    got = _numbers("The client makes twelve retries at most.", "A server makes 12 retries and waits 5 seconds, "
                   "or ten seconds when it is busy.", sheet=sheet)
    assert sorted((u, t, r) for _k, u, t, r in got) == [("p1", "12", "twelve"), ("p1", "5", "five")]
    assert sheet.to_json()["numbers"]["unit_numerals"] is False


def test_labels_and_sentence_starts_are_not_counts():
    assert not _numbers("Five retries are allowed. See step 5 retries below.", "Version 3 times out.")


# --- seeded into a real standard -----------------------------------------------------------------

def _standard(name: str):
    path = Path(DEVSET_DOCS) / name
    if not path.exists():
        pytest.skip(f"{path} is missing")
    from adapters import read_path

    return read_path(str(path))


def _seed(doc, pattern: str, new: str) -> tuple[str, int]:
    from addin_backend.checks.style.prose import prose

    for u in prose(doc).sentences():
        m = re.search(pattern, u.text)
        if m and u.kind == "paragraph" and m.start() > 0 and u.text[:m.start()].rstrip()[-1:] not in ".:;":
            u.text = u.text[:m.start()] + new + u.text[m.end():]
            return u.id, m.start()
    raise AssertionError(f"no place to seed {pattern!r}")


@pytest.fixture(scope="module")
def rfc9002():
    return _standard("rfc9002.A.docx")


@pytest.fixture(scope="module")
def rfc9000():
    return _standard("rfc9000.A.docx")


def test_seeded_capitalised_phrase_is_found_in_a_standard(rfc9002):
    doc = copy.deepcopy(rfc9002)
    uid, at = _seed(doc, r"(?<= )congestion window(?![\w-])", "Congestion Window")
    got = [(u, t, r) for _k, u, t, r in _places(style_findings(doc), "phrase_capitalisation")]
    assert (uid, "Congestion Window", "congestion window") in got


def test_seeded_number_in_digits_is_found_in_a_standard(rfc9000):
    doc = copy.deepcopy(rfc9000)
    assert not _places(style_findings(doc), "number_style")
    uid, at = _seed(doc, r"(?<= )(?:two|three|four) times\b", "5 times")
    got = [(u, t, r) for _k, u, t, r in _places(style_findings(doc), "number_style")]
    assert got == [(uid, "5", "five")]
