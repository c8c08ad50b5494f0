"""The rules engine: instructions in everyday wording -> exact edits on hand-built documents."""
from __future__ import annotations

import re

import pytest

from addin_backend.edits import apply_to_document
from addin_backend.edits.rules import propose, quoted, understood
from addin_backend.errors import InstructionNotUnderstoodError, InvalidRequestError, UnknownUnitError
from tests.addin_backend.edits.docs import contract, contract_doc, make_doc, paper_doc  # noqa: F401 - fixture

KEYS = ("op", "unit", "start", "end", "old", "text", "after", "before_unit", "kind", "style")


def proj(edit) -> tuple:
    return tuple(getattr(edit, k, None) for k in KEYS if getattr(edit, k, None) is not None)


CASES = [
    # renames and replaces: every form, scoped or document-wide, quotes of any kind
    ("Rename \u201cLedger\u201d to \u201cJournal\u201d throughout the document.", {}, [
        ("replace", "p1", 27, 33, "Ledger", "Journal"), ("replace", "p1", 47, 53, "Ledger", "Journal"),
        ("replace", "p7", 0, 6, "Ledger", "Journal"), ("replace", "fn1", 8, 14, "ledger", "journal")]),
    ("rename the term ledger as journal", {}, [
        ("replace", "p1", 27, 33, "Ledger", "Journal"), ("replace", "p1", 47, 53, "Ledger", "Journal"),
        ("replace", "p7", 0, 6, "Ledger", "Journal"), ("replace", "fn1", 8, 14, "ledger", "journal")]),
    ("Please rename 'widget' to 'gadget' in Section 1", {}, [
        ("replace", "p2", 5, 11, "widget", "gadget"), ("replace", "p2", 27, 34, "Widgets", "Gadgets"),
        ("replace", "p2", 57, 63, "widget", "gadget")]),
    ("Replace Supplier with Vendor in Section 3", {}, [("replace", "p5", 4, 12, "Supplier", "Vendor")]),
    ("Use 'Vendor' instead of 'Supplier'", {}, [("replace", "p5", 4, 12, "Supplier", "Vendor")]),
    ("Substitute \u2018Vendor\u2019 for \u2018Supplier\u2019 everywhere", {}, [("replace", "p5", 4, 12, "Supplier", "Vendor")]),
    ("In Section 3, replace 'widget' with 'gadget'", {}, [
        ("replace", "p5", 27, 33, "WIDGET", "GADGET"), ("replace", "tb1", 17, 23, "widget", "gadget"),
        ("replace", "tb1", 35, 42, "widgets", "gadgets"), ("replace", "c2", 9, 15, "Widget", "Gadget"),
        ("replace", "c3", 10, 16, "Widget", "Gadget")]),
    ("Replace all occurrences of 'widget' with 'gadget' in Table 1", {}, [
        ("replace", "tb1", 17, 23, "widget", "gadget"), ("replace", "tb1", 35, 42, "widgets", "gadgets"),
        ("replace", "c2", 9, 15, "Widget", "Gadget")]),
    # values: every way the document states them
    ("Change 30 days to 45 days everywhere", {}, [
        ("replace", "p1", 72, 83, "thirty (30)", "forty-five (45)"), ("replace", "p3", 24, 26, "30", "45"),
        ("replace", "p4", 22, 24, "30", "45"), ("replace", "li1", 21, 23, "30", "45"),
        ("replace", "p5", 41, 43, "30", "45"), ("replace", "p6", 32, 38, "thirty", "forty-five")]),
    ("Change 30 days to 45 days in Section 2", {}, [
        ("replace", "p3", 24, 26, "30", "45"), ("replace", "p4", 22, 24, "30", "45"),
        ("replace", "li1", 21, 23, "30", "45")]),
    ("Change the retention period from 30 days to 45 days", {}, [("replace", "p3", 24, 26, "30", "45")]),
    ("Increase the backup period from 30 days to 60 days.", {}, [("replace", "li1", 21, 23, "30", "60")]),
    ("Change 90 days to six months", {}, [("replace", "li2", 18, 25, "90 days", "6 months")]),
    # headings and captions
    ("Set the title of Section 2 to 'Storage'", {}, [("replace", "s2", 0, 9, "Retention", "Storage")]),
    ("Change the heading of Section 2.1 to \u2018Backups and logs\u2019", {}, [
        ("replace", "s21", 0, 7, "Backups", "Backups and logs")]),
    ("Rename Section 4 to Ending", {}, [("replace", "s4", 0, 11, "Termination", "Ending")]),
    ("Set the caption of Table 1 to Gadget prices", {}, [("replace", "c2", 9, 22, "Widget prices", "Gadget prices")]),
    ("Set the caption of Fig. 2 to 'Gadget lifecycle'", {}, [("replace", "c3", 10, 26, "Widget lifecycle", "Gadget lifecycle")]),
    # deletions: labelled units with what they hold, paragraphs by their words, phrases
    ("Delete Figure 2", {}, [("delete", "f2"), ("delete", "c3")]),
    ("Delete Figure 1", {}, [("delete", "f1"), ("delete", "c1")]),
    ("Remove Section 2.1", {}, [("delete", "s21"), ("delete", "li1"), ("delete", "li2"), ("delete", "f1"), ("delete", "c1")]),
    ("Delete Appendix A", {}, [("delete", "sA"), ("delete", "p7")]),
    ("Delete the paragraph starting with \"Payment is due\"", {}, [("delete", "p4")]),
    ("Delete the paragraph starting with 'The' in Section 3", {}, [("delete", "p5")]),
    ("delete the paragraph containing \u201cLogs are\u201d", {}, [("delete", "li2")]),
    ("Delete the second item of Section 2.1", {}, [("delete", "li2")]),
    ("Delete the last paragraph of Section 3", {}, [("delete", "p8")]),
    ("Delete this paragraph", {"target": "p4"}, [("delete", "p4")]),
    ("Remove 'monthly' from Section 1", {}, [("replace", "p2", 45, 53, " monthly", "")]),
    # moves
    ("Move Section 4 before Section 3", {}, [("move", "s4", "s3")]),
    ("Move Figure 2 after Figure 1", {}, [("move", "f2", "c1")]),
    ("Move Section 2.1 after Section 3", {}, [("move", "s21", "p8")]),
    ("Move the paragraph starting with 'Payment' to the end of Section 3", {}, [("move", "p4", "p8")]),
    ("Move this section above Section 2", {"target": "p6"}, [("move", "s4", "s2")]),
    ("Move the last paragraph of Section 3 after Section 3", {}, [("move", "p8", "c3")]),
    # inserts: kind and style follow what they are inserted beside
    ("Insert after Section 2.1: Archives are kept for one year.", {}, [
        ("insert_after", "c1", "Archives are kept for one year.", "paragraph", "Body Text")]),
    ("Insert before Section 3: Retention ends on termination.", {}, [
        ("insert_after", "c1", "Retention ends on termination.", "paragraph", "Body Text")]),
    ("Add a paragraph after the paragraph starting with 'Payment': Late fees apply.", {}, [
        ("insert_after", "p4", "Late fees apply.", "paragraph", "Body Text")]),
    ("Add an item after the first item of Section 2.1: Audit trails are kept for 60 days.", {}, [
        ("insert_after", "li1", "Audit trails are kept for 60 days.", "list_item", "List Bullet")]),
    ("Add a section after Section 4: Governing law", {}, [("insert_after", "p6", "Governing law", "section", "Heading 1")]),
    ("Add a subsection after Section 2.1 - Archives", {}, [("insert_after", "c1", "Archives", "section", "Heading 3")]),
    ("Add a paragraph at the start of Section 4: This section covers termination.", {}, [
        ("insert_after", "s4", "This section covers termination.", "paragraph", "Body Text")]),
    ("Insert after Table 1: Prices exclude tax.", {}, [("insert_after", "c2", "Prices exclude tax.", "paragraph", "Body Text")]),
    ("Add two lines after Section 4", {}, None),  # not a grammar line: checked below
    ("Append to the paragraph starting with 'Either party': Notice must be written.", {}, [
        ("replace", "p6", 51, 51, "", " Notice must be written.")]),
    ("Add the sentence 'Late fees apply.' to the end of the paragraph starting with 'Payment'", {}, [
        ("replace", "p4", 45, 45, "", " Late fees apply.")]),
    # whole-unit rewrites and the selection
    ("Replace the text of the paragraph starting with 'Either party' with: Either party may terminate at will.", {}, [
        ("set_text", "p6", "Either party may terminate at will.")]),
    ("Replace the selection with 'sixty (60) days'", {"target": "p6", "selection": "thirty days"}, [
        ("replace", "p6", 32, 43, "thirty days", "sixty (60) days")]),
    ("Delete the selected text", {"target": "p2", "selection": "monthly"}, [("replace", "p2", 45, 53, " monthly", "")]),
]


@pytest.mark.parametrize("instruction, kw, expected", [c for c in CASES if c[2] is not None], ids=lambda v: v if isinstance(v, str) else "")
def test_instruction_gives_exact_edits(instruction, kw, expected):
    doc = contract_doc()
    p = propose(doc, instruction, author="Ana", **kw)
    assert [proj(e) for e in p.edits] == expected
    assert p.engine == "rules" and p.instruction == instruction
    for e in p.edits:
        assert (e.author, e.source, e.reason) == ("Ana", "rules", instruction)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", e.date)
        assert e.before == doc.unit(e.unit).text
    apply_to_document(doc, p.edits)  # every proposal applies cleanly


@pytest.mark.parametrize(
    "instruction, expected",
    [
        ("Delete Theorem 2", [("delete", "thm")]),
        ("Move Lemma 1 after Theorem 2", [("move", "lem", "thm")]),
        ("Insert after Eq. (3): where c is the total.", [("insert_after", "eq3", "where c is the total.", "paragraph", "Body Text")]),
        ("Delete Equation 3", [("delete", "eq3")]),
        ("Rename 'ledger' to 'journal'", [("replace", "thm", 17, 23, "ledger", "journal")]),
    ],
)
def test_statements_and_equations_resolve_by_label(instruction, expected):
    assert [proj(e) for e in propose(paper_doc(), instruction, author="Ana").edits] == expected


def test_explanations_and_targets(contract):
    p = propose(contract, "Change the retention period from 30 days to 45 days", author="Ana")
    assert p.explanation == (
        "Change the retention period from 30 days to 45 days throughout the document: 1 statement(s) in "
        "the paragraph in Section 2 'The retention period is 30 days after cl\u2026'."
    )
    assert p.targets == ["p3"]
    assert p.warnings[0].startswith("'30 days' also appears in the paragraph in Section 1 ")
    assert p.warnings[0].endswith("which is not about the retention period; left unchanged")
    d = propose(contract, "Delete Figure 2", author="Ana")
    assert (d.explanation, d.targets) == ("Delete Figure 2 with its caption.", ["f2"])
    m = propose(contract, "Move Section 4 before Section 3", author="Ana")
    assert (m.explanation, m.targets) == ("Move Section 4 before Section 3.", ["s4", "s3"])
    r = propose(contract, "Rename 'widget' to 'gadget'", author="Ana")
    assert r.explanation.startswith("Rename 'widget' to 'gadget' throughout the document: 11 occurrence(s) in 8 unit(s)")
    none = propose(contract, "Rename 'Zork' to 'Blip'", author="Ana")
    assert (none.edits, none.explanation) == ([], "'Zork' does not occur throughout the document; nothing to rename.")


def test_proposals_apply_to_the_expected_document(contract):
    moved = apply_to_document(contract, propose(contract, "Move Section 4 before Section 3", author="A").edits)
    assert [u.label for u in moved.units if u.kind == "section"] == [
        "Section 1", "Section 2", "Section 2.1", "Section 4", "Section 3", "Appendix A"]
    changed = apply_to_document(contract, propose(contract, "Change 30 days to 45 days", author="A").edits)
    assert changed.unit("p1").text == "This Agreement governs the Ledger service. The Ledger keeps records for forty-five (45) days."
    assert changed.unit("p6").text == "Either party may terminate with forty-five days notice."
    inserted = apply_to_document(contract, propose(contract, "Insert after Section 2.1: Archives last a year.", author="A").edits)
    new = inserted.units[[u.id for u in inserted.units].index("c1") + 1]
    assert (new.text, new.parent, new.kind) == ("Archives last a year.", "s21", "paragraph")


def test_an_instruction_it_cannot_parse_lists_what_it_understands(contract):
    with pytest.raises(InstructionNotUnderstoodError) as err:
        propose(contract, "Make the tone friendlier", author="Ana")
    msg = err.value.message
    assert msg.startswith("the rules engine cannot parse 'Make the tone friendlier'. It understands:\n")
    for line in ("  - rename a term: Rename 'widget' to 'gadget' everywhere",
                 "  - change a value: Change the retention period from 30 days to 45 days",
                 "  - delete a unit: Delete Figure 2  /  Delete the paragraph starting with 'In summary'",
                 "  - move a unit: Move Section 4 before Section 3  /  Move Figure 3 after Figure 1",
                 "  - insert a unit: Insert after Section 2.1: <text>  /  Add a paragraph before Table 1: <text>"):
        assert line in msg
    assert "Units are named by label (Section 2.1, Figure 2, Table 1, Theorem 2, Appendix A, Equation (3))" in msg
    assert err.value.code == "instruction_not_understood"
    assert err.value.details["understood"] == understood()
    assert {a["action"] for a in understood()} >= {"rename a term", "replace a term", "change a value", "delete a unit",
                                                   "move a unit", "insert a unit", "retitle a section or caption"}
    for unparsed in ("", "   ", "Add two lines after Section 4", "Delete", "Move Section 2"):
        with pytest.raises(InstructionNotUnderstoodError):
            propose(contract, unparsed, author="Ana")


@pytest.mark.parametrize(
    "instruction, kw, error, message",
    [
        ("Delete Figure 9", {}, UnknownUnitError,
         "nothing in the document is labelled 'Figure 9'; the document has Figure 1, Figure 2"),
        ("Move Section 7 before Section 1", {}, UnknownUnitError,
         "nothing in the document is labelled 'Section 7'; the document has Section 1, Section 2, Section 2.1, Section 3, Section 4"),
        ("Delete Table 4", {}, UnknownUnitError, "nothing in the document is labelled 'Table 4'; the document has Table 1"),
        ("Delete the paragraph starting with 'The'", {}, InvalidRequestError,
         "2 paragraphs start with 'The' (p3: 'The retention period is 30 days after closure.'; "
         "p5: 'The Supplier delivers each WIDGET within 30 days.'); quote more of the text or add 'in Section N'"),
        ("Delete the paragraph starting with 'Nobody'", {}, UnknownUnitError, "no paragraph starts with 'Nobody'"),
        ("Delete this paragraph", {}, InvalidRequestError,
         "'this paragraph' needs the unit at the cursor (target), and none was given"),
        ("Replace the selection with 'x'", {"target": "p1"}, InvalidRequestError,
         "this instruction acts on the selection; select some text first"),
        ("Insert before the paragraph starting with 'Widget Service': Draft", {}, InvalidRequestError,
         "cannot insert before the first unit of the document"),
        ("Delete the fifth paragraph of Section 1", {}, UnknownUnitError,
         "Section 1 has 2 paragraph(s); there is no 'the fifth paragraph of Section 1'"),
        ("Move Section 2 after Section 2.1", {}, InvalidRequestError,
         "cannot move Section 2 relative to itself or its own content"),
        ("Add a sentence after Table 1: Prices are net.", {}, InvalidRequestError,
         "a sentence goes into a paragraph, and Table 1 is a table"),
    ],
)
def test_failures_say_what_is_wrong(contract, instruction, kw, error, message):
    with pytest.raises(error) as err:
        propose(contract, instruction, author="Ana", **kw)
    assert err.value.message == message


def _rfc_doc():
    return make_doc([
        ("s1", "section", "Connection IDs", None, "Section 1", "1", "Heading 1"),
        ("p1", "paragraph", "Each connection ID is retired once; the user's connection ID is new.", "s1"),
        ("p2", "paragraph", "An endpoint may issue connection IDs. It strictly must not reuse them.", "s1"),
    ])


@pytest.mark.parametrize("curly, straight", [
    ("Rename \u201cconnection ID\u201d to \u201cconnection identifier\u201d everywhere",
     "Rename \"connection ID\" to \"connection identifier\" everywhere"),
    ("Replace \u201cconnection ID\u201d with \u2018connection identifier\u2019 in Section 1",
     "Replace 'connection ID' with 'connection identifier' in Section 1"),
    ("Remove the word \u201cstrictly\u201d from Section 1", "Remove the word \"strictly\" from Section 1"),
    ("Add the sentence \u201cIDs are opaque.\u201d to the end of the paragraph starting with \u201cAn endpoint\u201d",
     "Add the sentence 'IDs are opaque.' to the end of the paragraph starting with 'An endpoint'"),
])
def test_curly_double_quotes_read_as_straight_ones(curly, straight):
    """“…” is one of the quote pairs (rules.QUOTED): an instruction typed with them gives the edits
    and the explanation the same instruction with straight quotes gives."""
    doc = _rfc_doc()
    p, q = propose(doc, curly, author="Ana"), propose(doc, straight, author="Ana")
    assert p.edits and [proj(e) for e in p.edits] == [proj(e) for e in q.edits]
    assert (p.explanation, p.targets) == (q.explanation, q.targets)


def test_the_curly_rename_renames_every_form():
    p = propose(_rfc_doc(), "Rename \u201cconnection ID\u201d to \u201cconnection identifier\u201d everywhere", author="Ana")
    assert [proj(e) for e in p.edits] == [
        ("replace", "s1", 0, 14, "Connection IDs", "Connection Identifiers"),
        ("replace", "p1", 5, 18, "connection ID", "connection identifier"),
        ("replace", "p1", 47, 60, "connection ID", "connection identifier"),
        ("replace", "p2", 22, 36, "connection IDs", "connection identifiers"),
    ]


@pytest.mark.parametrize("text, expected", [
    ("Rename \u201cconnection ID\u201d to \u201cconnection identifier\u201d", ["connection ID", "connection identifier"]),
    ("Don't rename 'widget' in the user's guide", ["widget"]),
    ("Replace \"user's key\" with \u2018client key\u2019 in the users\u2019 section", ["user's key", "client key"]),
    ("Don't touch the user's notes", []),
])
def test_quoted_strings_open_at_quotes_not_apostrophes(text, expected):
    assert quoted(text) == expected


def test_deleting_a_section_leaves_its_notes_to_their_references():
    # benchmarks.specgen's "Delete Section 3.2" planned deletions of the section's footnotes, which
    # the writers refuse ("delete its reference instead"): the citing paragraphs' deletion takes them
    doc = make_doc([
        ("s1", "section", "Scope", None, "Section 1", "1", "Heading 1", None, 1),
        ("p1", "paragraph", "The scope is small.1", "s1"),
        ("fn1", "footnote", "A note on the scope.", "s1"),
        ("s2", "section", "Terms", None, "Section 2", "2", "Heading 1", None, 1),
        ("p2", "paragraph", "Terms follow.", "s2"),
    ])
    p = propose(doc, "Delete Section 1", author="T")
    assert [e.unit for e in p.edits] == ["s1", "p1"]


def _dated_doc():
    return make_doc([
        ("t", "title", "Widget Protocol Version 2.0", None, None, None, "Title"),
        ("d", "paragraph", "2025-10-07", None, None, None, "Normal"),  # the title page's date, alone
        ("s1", "section", "Introduction", None, "Section 1", "1", "Heading 1", None, 1),
        ("p1", "paragraph", "This draft of 2025-10-07 replaces the one of 2025-09-25.", "s1", None, None, "Normal"),
    ])


@pytest.mark.parametrize("instruction", [
    "Change 2025-10-07 to 2025-10-23 throughout the document",
    # "the date X" names the value X: the noun says what it is, the value is what the document states
    "Change the date 2025-10-07 to 2025-10-23 throughout the document",
    "Update the date 2025-10-07 to the date 2025-10-23",
])
def test_a_date_alone_on_its_line_is_changed_with_the_others(instruction):
    p = propose(_dated_doc(), instruction, author="T")
    assert [(e.unit, e.old, e.text) for e in p.edits] == [("d", "2025-10-07", "2025-10-23"),
                                                          ("p1", "2025-10-07", "2025-10-23")]


def test_a_noun_before_a_value_is_its_subject_and_a_quoted_phrase_is_taken_whole(contract):
    named = propose(contract, "Change the retention period 30 days to 45 days", author="T")
    plain = propose(contract, "Change the retention period from 30 days to 45 days", author="T")
    assert [proj(e) for e in named.edits] == [proj(e) for e in plain.edits] == [("replace", "p3", 24, 26, "30", "45")]
    quoted_whole = propose(_dated_doc(), "Change 'the date 2025-10-07' to '2025-10-23'", author="T")
    assert quoted_whole.edits == []


def test_an_instruction_compiles_the_grammar_up_to_its_own_rule():
    """The rules are tried in order: a rename compiles the patterns before its rule and its own,
    not the fourteen (compiling them all was 0.16 s of every edit's start)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    probe = ("from addin_backend.edits import rules\n"
             "before = sum('pattern' in r.__dict__ for r in rules.GRAMMAR)\n"
             "rules.searched_terms('Rename \"gateway\" to \"relay\" everywhere')\n"
             "at = next(i for i, r in enumerate(rules.GRAMMAR) if r.action == 'rename a term')\n"
             "print(before, [i for i, r in enumerate(rules.GRAMMAR) if 'pattern' in r.__dict__] == list(range(at + 1)),"
             " at + 1 < len(rules.GRAMMAR))\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["0", "True", "True"]
