"""``ledger check``'s findings on hand-built documents, the synthetic benchmark and the corpus."""
from __future__ import annotations

import json

import pytest

from adapters.model import Field
from addin_backend.checks.document import check_document, numbering_findings
from addin_backend.checks.style.hyphenation import variant_findings
from addin_backend.checks.terminology import acronym_findings, find_acronyms

from ..edits.docs import make_doc


def _kinds(findings):
    return [(f.kind, f.severity, f.unit, f.evidence) for f in findings]


def references_doc():
    doc = make_doc([
        ("s1", "section", "Scope", None, "Section 1", "1", "Heading 1", None, 1),
        ("p1", "paragraph", "See Figure 9 and Section 7; Figure 1 and Table 1 exist.", "s1"),
        ("f1", "figure", "A chart", "s1", "Figure 1", "1"),
        ("c1", "caption", "Figure 1: Chart", "s1", "Figure 1", "1", "Caption"),
        ("c2", "caption", "Figure 2: Flow", "s1", "Figure 2", "2", "Caption"),
        ("c4", "caption", "Figure 4: Gap", "s1", "Figure 4", "4", "Caption"),
        ("t1", "caption", "Table 1: One", "s1", "Table 1", "1", "Caption"),
        ("t2", "caption", "Table 1: Again", "s1", "Table 1", "1", "Caption"),
        ("p2", "paragraph", "As shown in Figure 1.", "s1"),
    ])
    doc.unit("p2").fields.append(Field(kind="ref", code="REF _Ref9 \\h", target="_Ref9", target_unit=None,
                                       result="Figure 1", start=12, end=20))
    return doc


def test_references_and_numbering():
    got = _kinds(check_document(references_doc()))
    assert got == [
        ("missing_target", "error", "p1", "Figure 9"),
        ("broken_reference", "error", "p1", "Section 7"),
        ("broken_field", "error", "p2", "Figure 1"),
        ("numbering_gap", "warning", "c4", "Figure 4"),
        ("numbering_duplicate", "warning", "t2", "Table 1"),
    ]
    findings = check_document(references_doc())
    assert findings[0].message == "'Figure 9' refers to Figure 9, but the document's figures are: 1, 2, 4"
    assert findings[4].related == ["t1"]
    assert findings[3].message == "the figure numbers skip Figure 3"


def test_consecutive_numbers_are_not_a_finding():
    doc = make_doc([
        ("c1", "caption", "Figure 1: A", None, "Figure 1", "1"),
        ("c2", "caption", "Figure 2: B", None, "Figure 2", "2"),
        ("p", "paragraph", "Lemma 1. X holds.", None),
        ("q", "paragraph", "Theorem 2. Y holds by Lemma 1.", None),  # one counter shared by statements
    ])
    assert numbering_findings(doc) == []


def acronyms_doc():
    return make_doc([
        ("t", "title", "SLA AND WAL HANDBOOK", None),
        ("p1", "paragraph", "Every SLA is reviewed yearly and stored as PDF; you MUST keep it.", None),
        ("p2", "paragraph", "A Service Level Agreement (SLA) sets targets. The Write-Ahead Log (WAL) keeps records.", None),
        ("p3", "paragraph", "The WAL and the SLAs rely on the CMDB. ANYONE may read them. See the RFC9110 text.", None),
        ("p4", "paragraph", "A Three Letter Acronym (TLA) is short.", None),
        ("p4b", "paragraph", "A Two Letter Abbreviation (TLA) is shorter.", None),
        ("p5", "paragraph", "Redundant Array of Inexpensive Disks (RAID) protects data; RAID is common.", None),
        ("p6", "paragraph", "We use a Redundant Array of Inexpensive Disks (RAID) here too.", None),
        ("li", "list_item", "KPI: Key Performance Indicator", None),
        ("li2", "list_item", "SLA: Service Level Agreement", None),  # a glossary repeating an expansion is fine
        ("p7", "paragraph", "Each KPI is tracked. ALL data is kept; all of it.", None),
    ])


def test_acronyms():
    got = _kinds(acronym_findings(acronyms_doc()))
    assert got == [
        ("undefined_acronym", "warning", "p3", "CMDB"),
        ("acronym_defined_twice", "info", "p6", "RAID"),
        ("acronym_before_definition", "warning", "p1", "SLA"),
        ("acronym_redefined", "warning", "p4b", "TLA"),
    ]
    info = find_acronyms(acronyms_doc())
    assert info["KPI"].definitions[0][2] == "Key Performance Indicator"
    assert [u for _, u, _, _ in info["SLA"].uses] == ["p1", "p3"]  # the title is shouting, not an acronym list
    assert "ANYONE" not in info and "ALL" not in info and "RFC9110" not in info


def test_variant_spellings():
    doc = make_doc([
        ("p1", "paragraph", "The data set is large. Each dataset is versioned; a data-set is immutable.", None),
        ("p2", "paragraph", "Send an e-mail. Email is preferred; email addresses are checked.", None),
        ("p3", "paragraph", "Set up the server. The setup takes a minute. Log in to the console; the login is audited.", None),
        ("p4", "paragraph", "Go into the room, or walk in to it. It may be late; maybe not.", None),
    ])
    got = [(f.unit, f.evidence, f.suggestion, f.message) for f in variant_findings(doc)]
    assert got == [
        ("p1", "dataset", "data set",
         "one term spelled 3 ways: 'data set' (1), 'data-set' (1), 'dataset' (1); the usual form is 'data set'"),
        ("p2", "e-mail", "email", "one term spelled 2 ways: 'email' (2), 'e-mail' (1); the usual form is 'email'"),
    ]


def test_benchmark_document_broken_references_match_the_truth(tmp_path):
    from adapters import read_path
    from benchmarks.synth import build, write_package

    synth = build("10k", 0)
    path = write_package(synth, tmp_path, "docx")
    findings = check_document(read_path(str(path)))
    broken = sorted(f.evidence for f in findings if f.kind in ("missing_target", "broken_reference", "broken_field"))
    assert broken == sorted(b["evidence"] for b in synth.truth["broken"]) == ["Table 87"]
    # the generator plants nothing else, but writes "one percent" beside "2 percent" (the house rule: digits)
    assert [f.kind for f in findings] == ["missing_target", "number_style"]


def test_corpus_documents(corpus):
    from adapters import read_path

    doc = read_path(str(corpus("invalid_tag_name.docx")))
    got = check_document(doc)
    redefined = [f for f in got if f.kind == "acronym_redefined"]
    assert [f.evidence for f in redefined] == ["COR"]
    assert "'Contracting Officer Representative'" in redefined[0].message
    doc = read_path(str(corpus("Weekly Schedule.docx")))
    variants = [f for f in check_document(doc) if f.kind == "variant_spelling"]
    assert [(f.severity, f.suggestion) for f in variants] == [("warning", "piece wise"), ("info", "pre-class")]
    variants = variants[1:]
    assert variants[0].message == ("one term spelled 2 ways: 'pre-class' (15), 'pre class' (12); the usual form is "
                                   "'pre-class' (a hyphen before a noun may be intended)")
    assert variants[0].severity == "info"  # no closed form "preclass": possibly a compound modifier


def test_check_cli_json_and_text(capsys, tmp_path):
    from addin_backend.cli import main
    from benchmarks.synth import build, write_package

    synth = build("5k", 0)
    path = write_package(synth, tmp_path, "docx")
    assert main(["check", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["counts"] == {"error": 1, "warning": 0, "info": 1}  # info: "fifteen percent" beside "N percent"
    assert [(f["kind"], f["evidence"]) for f in out["findings"]] == [("missing_target", "Table 87"), ("number_style", "fifteen")]
    assert [b["evidence"] for b in synth.truth["broken"]] == ["Table 87"]
    assert main(["check", str(path)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[-1] == "2 finding(s): 1 error(s), 0 warning(s), 1 info"
    assert text[0].split()[:2] == ["error", "missing_target"]


def test_check_cli_errors(capsys, tmp_path):
    from addin_backend.cli import main

    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"not a zip")
    assert main(["check", str(bad), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["code"] == "not_a_document"
    assert main(["check", str(tmp_path / "missing.odt")]) == 2
    assert capsys.readouterr().err.startswith(f"ledger: {tmp_path / 'missing.odt'}: file_not_readable")


@pytest.mark.parametrize("name", ["collection.odt", "example.odt", "basic.docx"])
def test_check_is_total_on_corpus_files(corpus, name):
    from adapters import read_path

    findings = check_document(read_path(str(corpus(name))))
    assert all(f.severity in ("error", "warning", "info") for f in findings)


def test_the_name_of_a_literal_value_is_no_spelling_variant():
    from ..edits.docs import make_doc as _make

    doc = _make([
        ("p1", "paragraph", "Software installed on the operating system (specified through the operating-system value).", None),
        ("p2", "paragraph", "The operating system is named. Each operating system has a kernel.", None),
        ("p3", "paragraph", "An operating-system update and an operating system update differ.", None),
    ])
    got = [f for f in check_document(doc) if f.kind == "variant_spelling"]
    assert [(p.unit, p.text) for f in got for p in f.places] == [("p3", "operating-system")]
