"""House-style rules on realistic sentences, the style sheet and its errors, and fixes as tracked
changes (``ledger check --fix``), checked in real LibreOffice."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from addin_backend.checks.document import check_document
from addin_backend.checks.style import StyleSheetError, parse_style, style_findings
from addin_backend.checks.style.sheet import load_style

from ...edits.docs import make_doc
from tests.conftest import DEVSET_DOCS


def _kinds(findings, kind):
    return [f for f in findings if f.kind == kind]


# --- rules on realistic sentences ---------------------------------------------------------------

def test_capitalised_phrase_mid_sentence_with_defined_terms_excepted():
    doc = make_doc([
        ("p1", "paragraph", "The message body is sent after the headers. A client reads the message body once.", None),
        ("p2", "paragraph", "Servers MUST NOT compress the Message Body twice; a message body is opaque to them.", None),
        ("p3", "paragraph", '"Service Credit" means the credit owed for downtime. Each service credit is capped, '
                            "and the Service Credit is paid monthly.", None),
    ])
    got = _kinds(check_document(doc), "phrase_capitalisation")
    assert [(f.unit, f.evidence, f.places[0].replacement) for f in got] == [("p2", "Message Body", "message body")]


def test_us_uk_spelling_follows_the_tag_or_the_sheet():
    rows = [("p1", "paragraph", "The colour of each node is set at start-up, and the behavior of the cache "
                                "is analysed later; we organize the results by centre.", None)]
    doc = make_doc(rows)
    doc.meta["language"] = "en-US"
    us = {(f.evidence, f.suggestion) for f in _kinds(check_document(doc), "spelling_variety")}
    assert us == {("colour", "color"), ("analysed", "analyzed"), ("centre", "center")}
    uk = {(f.evidence, f.suggestion) for f in _kinds(check_document(doc, style=parse_style('[spelling]\nvariety = "en-GB"\n')),
                                                        "spelling_variety")}
    assert uk == {("behavior", "behaviour"), ("organize", "organise")}


def test_numbers_lists_quotes_and_dashes():
    doc = make_doc([
        ("p1", "paragraph", "The client retries five times and waits 10 ms; after three retries it gives up.", None),
        ("p2", "paragraph", "A server may make 3 retries before it closes the connection, about 10 percent of cases.", None),
        ("p3", "paragraph", "Most links lose 2% of packets, and 1% are reordered; the timer is 25ms long.", None),
        ("l1", "list_item", "Send the request.", None),
        ("l2", "list_item", "Wait for the answer.", None),
        ("l3", "list_item", "close the connection", None),
        ("p4", "paragraph", "The \u201cfast\u201d path is used - when the cache is warm - and the \"slow\" one otherwise.", None),
        ("p5", "paragraph", "Both \u201cmodes\u201d are described below \u2014 see the \u201ctable\u201d for details.", None),
    ])
    found = check_document(doc)
    by_kind = {f.kind: f for f in found}
    assert [(p.text, p.replacement) for p in by_kind["number_style"].places] == [("3", "three")]
    assert [p.replacement for p in by_kind["percent_style"].places] == ["%"]
    assert [(p.text, p.replacement) for p in by_kind["unit_spacing"].places] == [("", " ")]
    assert {(p.unit, p.replacement) for f in _kinds(found, "list_punctuation") for p in f.places} == {("l3", ".")}
    assert [(p.unit, p.replacement) for p in by_kind["list_capitalisation"].places] == [("l3", "C")]
    assert sorted(p.replacement for p in by_kind["quote_style"].places) == ["\u201c", "\u201d"]
    assert [p.text for p in _kinds(found, "dash_style")[0].places] == [" - ", " - "]


def test_captions_and_heading_case():
    rows = [("c1", "caption", "Figure 1: Message flow", None), ("c2", "caption", "Figure 2: Key schedule", None),
            ("c3", "caption", "Fig. 3. Record layer", None)]
    rows += [(f"h{i}", "section", t, None, None, None, "Heading 2", None, 2) for i, t in enumerate(
        ["Sending Probe Packets", "Handling Retry Packets", "Closing the Connection", "Estimating the round trip"])]
    rows += [("p", "paragraph", "A probe packet is sent when the round trip time is unknown; closing and handling "
                                "retry packets take time, as does sending them.", None)]
    found = check_document(make_doc(rows))
    caps = _kinds(found, "caption_style")
    assert {(p.text, p.replacement) for f in caps for p in f.places} == {("Fig.", "Figure"), (". ", ": ")}
    (heads,) = _kinds(found, "heading_case")
    assert [(p.unit, p.replacement) for p in heads.places] == [("h3", "Round"), ("h3", "Trip")]


def test_abbreviations_mixed_case_unused_and_case():
    doc = make_doc([
        ("p1", "paragraph", "Quality of Service (QoS) is measured per path. The QoS of each path is logged.", None),
        ("p2", "paragraph", "A Service Level Objective (SLO) is set yearly, and IP security (IPsec) is required.", None),
        ("p3", "paragraph", "The QOS report lists every path; IPsec tunnels are audited.", None),
    ])
    found = check_document(doc)
    assert [(f.evidence, f.places[0].replacement) for f in _kinds(found, "acronym_unused")] == [
        ("SLO", "Service Level Objective")]
    assert [(p.text, p.replacement) for f in _kinds(found, "acronym_case") for p in f.places] == [("QOS", "QoS")]


def test_undefined_mixed_case_abbreviation():
    doc = make_doc([("p1", "paragraph", "The QoS of the link is checked; QoS drops are logged, and QoS is reported.", None)])
    assert [f.evidence for f in _kinds(check_document(doc), "undefined_acronym")] == ["QoS"]
    assert not _kinds(check_document(doc, style=parse_style('[abbreviations]\nknown = ["QoS"]\n')), "undefined_acronym")


# --- the style sheet ---------------------------------------------------------------------------

def test_style_sheet_rules_name_their_sheet_and_key():
    sheet = parse_style('[terms]\n"web site" = "website"\n\n[banned]\n"utilize" = "Write \'use\'."\n'
                        '[exceptions]\nkinds = ["quote_style"]\n', "house.toml")
    doc = make_doc([("p1", "paragraph", "Our Web site lists the tools; we utilize them and utilized more last year.", None)])
    found = style_findings(doc, sheet)
    term = _kinds(found, "style_term")[0]
    assert term.rule == 'house.toml terms."web site"' and term.places[0].replacement == "Website"
    banned = _kinds(found, "banned_term")[0]
    assert banned.rule == "house.toml banned.utilize" and [p.text for p in banned.places] == ["utilize", "utilized"]
    assert "Write 'use'." in banned.message


@pytest.mark.parametrize("text,line,words", [
    ('[terms]\n"web site" = "website"\n[spelling\nvariety = "en-US"\n', 3, "malformed TOML"),
    ('[terms]\n"a" = "b"\n[spelling]\nvarietty = "en-US"\n', 4, "unknown key 'varietty' in [spelling]"),
    ('[colours]\nred = "blue"\n', 1, "unknown table [colours]"),
    ('[spelling]\nvariety = "en-XX"\n', 2, "spelling.variety must be one of"),
    ('[numbers]\nunit_space = "yes"\n', 2, "numbers.unit_space must be true or false"),
    ('[exceptions]\nkinds = ["no_such_kind"]\n', 2, "unknown finding kind 'no_such_kind'"),
    ('[banned]\n"x" = { message = "m", colour = "red" }\n', 2, "unknown key 'colour' in banned term"),
])
def test_style_sheet_errors_name_the_line(text, line, words):
    with pytest.raises(StyleSheetError) as err:
        parse_style(text, "house.toml")
    assert err.value.message.startswith(f"house.toml, line {line}: "), err.value.message
    assert words in err.value.message
    assert err.value.code == "invalid_style" and err.value.details["line"] == line


def test_style_sheet_errors_on_the_command_line(tmp_path, capsys, corpus):
    from addin_backend.cli import main

    bad = tmp_path / "house.toml"
    bad.write_text('[terms]\n"a" = "b"\n[spelling]\nvarietty = "en-US"\n')
    assert main(["check", str(corpus("lorem.odt")), "--style", str(bad)]) == 3
    assert "invalid_style: house.toml, line 4: unknown key 'varietty' in [spelling]" in capsys.readouterr().err
    with pytest.raises(StyleSheetError, match="cannot read"):
        load_style(str(tmp_path / "missing.toml"))


# --- fixes ---------------------------------------------------------------------------------------

def _defined_doc():
    return make_doc([
        ("s1", "section", "Definitions", None, "Section 1", "1", "Heading 1", None, 1),
        ("d1", "paragraph", '"Data-set" means the records a customer uploads, with their metadata.', "s1"),
        ("p1", "paragraph", "Each data-set is encrypted at rest. A data-set is kept for a year.", "s1"),
        ("p2", "paragraph", "The provider deletes every data-set on request.", "s1"),
    ])


def test_fixing_a_defined_term_renames_its_definition_too():
    from addin_backend.service.fixes import plan_fixes, select_findings

    doc = _defined_doc()
    sheet = parse_style('[terms]\n"data-set" = "dataset"\n', "house.toml")
    chosen = select_findings(check_document(doc, style=sheet), "style_term")
    plan, skipped = plan_fixes(doc, None, chosen, author="Editor")
    assert not skipped
    changed = {(e.unit, e.before[e.start:e.end], e.text) for e in plan.edits}
    assert ("d1", "Data-set", "Dataset") in changed  # the definition itself
    assert {u for u, _, _ in changed} == {"d1", "p1", "p2"}
    assert all(e.reason.startswith("check style_term") or e.reason.startswith(("rename", "DEPENDS")) for e in plan.edits)
    assert all(e.author == "Editor" for e in plan.edits)


def test_a_variant_fix_writes_the_defined_form():
    doc = make_doc([
        ("d1", "paragraph", '"Data set" means the records a customer uploads.', None),
        ("p1", "paragraph", "Each dataset is encrypted; the dataset is kept and every dataset is logged.", None),
        ("p2", "paragraph", "A data set is deleted on request.", None),
    ])
    (f,) = _kinds(check_document(doc), "variant_spelling")
    assert f.suggestion == "data set" and {p.replacement for p in f.places} == {"data set"}
    assert "(the defined term)" in f.message


def test_abbreviation_fixes_keep_the_number_and_are_no_rename_to_verify():
    from addin_backend.edits import apply_to_document
    from addin_backend.service.fixes import plan_fixes, select_findings
    from addin_backend.verify.after_edit import verify

    doc = make_doc([
        ("p1", "paragraph", "Clients send URIs to servers before anything else.", None),
        ("p2", "paragraph", "A Uniform Resource Identifier (URI) names one resource.", None),
        ("p3", "paragraph", "Uniform Resource Identifiers (URIs) are used throughout, and each URI is parsed.", None),
        ("p4", "paragraph", "Later, a Uniform Resource Identifier (URI) is compared with another.", None),
    ])
    chosen = select_findings(check_document(doc), "acronym_defined_twice,acronym_before_definition")
    plan, skipped = plan_fixes(doc, None, chosen, author="Editor")
    after = apply_to_document(doc, plan.edits)
    assert after.unit("p1").text == "Clients send Uniform Resource Identifiers (URIs) to servers before anything else."
    assert after.unit("p3").text.startswith("URIs are used throughout")  # not "URI are used"
    assert after.unit("p4").text == "Later, a URI is compared with another."
    # dropping a second definition renames nothing: no "old term left" for the one that stays
    assert not [f for f in verify(doc, after, None, plan.edits, semantic=False) if f.kind.startswith("old_term")]


def test_fix_cli_writes_tracked_changes(tmp_path, capsys, corpus):
    from adapters import read_path
    from addin_backend.cli import main

    src = corpus("collection.odt")
    out = tmp_path / "fixed.odt"
    assert main(["check", str(src), "--fix", "all"]) == 3  # -o is required
    assert "--fix writes a file" in capsys.readouterr().err
    assert main(["check", str(src), "--fix", "variant_spelling,spelling_variety", "--author", "Style Desk",
                 "-o", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["fixed"] and report["operations"]
    assert all(op["author"] == "Style Desk" and op["reason"].startswith("check ") for op in report["operations"])
    assert not [f for f in report["findings"] if f["kind"] == "write_mismatch"]
    after = read_path(str(out))
    left = {(f.kind, f.evidence) for f in check_document(after)}
    assert not {(f["kind"], f["evidence"]) for f in report["fixed"]} & left


@pytest.mark.slow
def test_fix_all_in_libreoffice(tmp_path, corpus):
    """--fix all on a real standard (docx) and a real article (odt), opened in LibreOffice: the
    redlines are the author's, Accept All gives the fixed text, Reject All the input."""
    from adapters import read_path
    from addin_backend.edits.operations import apply_to_document
    from addin_backend.service.fixes import fix_file
    from tests.libreoffice import probe, require_libreoffice

    require_libreoffice()
    sources = [DEVSET_DOCS / "rfc9002.A.docx", corpus("collection.odt")]
    sources = [s for s in sources if s.exists()]
    outs, expected = [], []
    for src in sources:
        doc = read_path(str(src))
        out = tmp_path / f"fixed{src.suffix}"
        report = fix_file(str(src), doc, kinds="all", output=str(out), author="Style Desk")
        assert report["operations"], src
        assert not [f for f in report["findings"] if f["kind"] == "write_mismatch"], report["findings"]
        from adapters.model import edit_from_json

        edits = [edit_from_json(op) for op in report["operations"] + report["propagated"]]
        after = apply_to_document(doc, edits)
        changed = {e.unit for e in edits}
        expected.append(({u.text for u in after.units if u.id in changed and u.kind == "paragraph"},
                         {u.text for u in doc.units if u.id in changed and u.kind == "paragraph"},
                         {(f["kind"], f["evidence"]) for f in report["fixed"]}))
        outs.append(out)
    got = probe(outs, ("redlines", "accepted", "rejected"))
    for (fixed, original, kinds), res, out in zip(expected, got, outs):
        assert "error" not in res, res
        assert res["redlines"] and {r["author"] for r in res["redlines"]} == {"Style Desk"}
        accepted, rejected = set(res["accepted"]), set(res["rejected"])
        assert fixed <= accepted, sorted(fixed - accepted)[:3]
        assert original <= rejected, sorted(original - rejected)[:3]
        assert not (original - fixed) & accepted  # the fixed variants are gone once accepted
        left = {(f.kind, f.evidence) for f in check_document(read_path(str(out)))}
        assert not kinds & left, kinds & left
