"""Real defects an editor misses: links to missing bookmarks, link text and typed numbers naming
another part, gaps in typed numbered series (issue 28), on realistic sentences and on copies of
the wild specifications with the defects seeded (``wild_seeds.py``)."""
from __future__ import annotations

from pathlib import Path

import pytest

from adapters.model import Field
from addin_backend.checks.document import check_document
from addin_backend.checks.links import link_findings
from addin_backend.checks.series import series_findings

from ..edits.docs import make_doc

WILD = Path("/work/shared/devset/wild")


def _spec():
    """Typed heading numbers (as MQTT-SN writes them), typed captions, links."""
    return make_doc([
        ("s3", "section", "3 Control Packets", None, "Section 3", "3", "Heading 1", "Control Packets", 1),
        ("s31", "section", "3.1 CONNECT – Connection Request", "s3", "Section 3.1", "3.1", "Heading 2",
         "CONNECT – Connection Request", 2),
        ("c1", "paragraph", "Figure 3-1 \u2013 CONNECT Packet", "s31"),
        ("s313", "section", "3.1.3 Will Flags", "s31", "Section 3.1.3", "3.1.3", "Heading 3", "Will Flags", 3),
        ("p1", "paragraph", "Position: bit 2 of the Connect Flags byte. Labelled Auth in Figure 3-2.", "s313"),
        ("p1b", "paragraph", "Position: bit 3 of the Connect Flags byte. Labelled Will in Figure 3-1.", "s313"),
        ("s32", "section", "3.2 CONNACK – Connect Acknowledgement", "s3", "Section 3.2", "3.2", "Heading 2",
         "CONNACK – Connect Acknowledgement", 2),
        ("c2", "paragraph", "Figure 3-2 \u2013 CONNACK Packet", "s32"),
        ("p2", "paragraph", "If the Client sets the flag, see 3.1.3 Will Flags.", "s32"),
        ("p3", "paragraph", "The response is described in 3.1 CONNECT – Connection Request.", "s32"),
        ("p4", "paragraph", "See 3.2 CONNECT – Connection Request for the flags.", "s32"),
        ("p5", "paragraph", "Refer to 3.4.3 Will Flags and to 3.9 Handling errors.", "s32"),
        ("p6", "paragraph", "Refer to Appendix I for the list.", "s32"),
        ("sI", "section", "Appendix I Tables", None, "Appendix I", "I", "Heading 1", "Tables", 1),
        ("sJ", "section", "Appendix J Lists", None, "Appendix J", "J", "Heading 1", "Lists", 1),
    ])


def _link(doc, uid, text, target, target_unit):
    u = doc.unit(uid)
    start = u.text.index(text)
    u.fields.append(Field(kind="hyperlink", code=f'HYPERLINK \\l "{target}"', target=target, target_unit=target_unit,
                          result=text, start=start, end=start + len(text)))


def test_a_link_to_a_bookmark_the_document_does_not_hold():
    doc = _spec()
    _link(doc, "p5", "3.9 Handling errors", "_heading=h.gone", None)
    _link(doc, "p2", "3.1.3 Will Flags", "_Ref313", "s313")  # a working link: nothing
    got = [f for f in link_findings(doc) if f.kind == "broken_link"]
    assert [(f.unit, f.evidence) for f in got] == [("p5", "3.9 Handling errors")]
    assert "#_heading=h.gone" in got[0].message


def test_link_text_naming_another_section_than_it_goes_to():
    doc = _spec()
    _link(doc, "p5", "3.4.3 Will Flags", "_Ref313", "s313")  # its title is the target's: the number is stale
    _link(doc, "p6", "Appendix I", "_RefJ", "sJ")  # the text names I, the link goes to J: which is right is open
    got = {f.unit: f for f in link_findings(doc) if f.kind == "stale_reference" and "link" in f.message}
    assert set(got) == {"p5", "p6"}
    assert [(p.text, p.replacement) for p in got["p5"].places] == [("3.4.3", "3.1.3")]
    assert [(p.text, p.replacement) for p in got["p6"].places] == [("I", None)]
    assert "Appendix J" in got["p6"].message


def test_a_typed_figure_number_naming_another_sections_figure():
    doc = _spec()
    got = [f for f in link_findings(doc) if f.kind == "stale_reference" and f.unit in ("p1", "p1b")]
    # p1 sits in 3.1 (CONNECT), whose figure is 3-1; Figure 3-2 is CONNACK's, in 3.2; p1b is right
    assert [(f.unit, [(p.text, p.replacement) for p in f.places]) for f in got] == [("p1", [("3-2", "3-1")])]


def test_a_typed_section_number_followed_by_another_sections_title():
    doc = _spec()
    got = [(f.unit, [(p.text, p.replacement) for p in f.places]) for f in link_findings(doc)
           if f.kind == "stale_reference" and f.unit in ("p2", "p3", "p4")]
    # the document cites "number title" (p2, p3 are right: as many as the wrong ones), so p4's 3.2 is stale
    assert got == [("p4", [("3.2", "3.1")])]
    p5 = [f for f in link_findings(doc) if f.unit == "p5"]
    assert [(p.text, p.replacement) for f in p5 for p in f.places] == [("3.4.3", "3.1.3")]


def test_typed_numbers_are_only_judged_where_the_document_cites_by_title():
    doc = make_doc([
        ("s1", "section", "Transport Parameters", None, "Section 1", "1", "Heading 1", None, 1),
        ("s2", "section", "Frames", None, "Section 2", "2", "Heading 1", None, 1),
        ("p1", "paragraph", "Defaults are in Section 2. Transport Parameters have a default value of 0.", "s2"),
        ("p2", "paragraph", "The encoding is in Section 2 Transport Parameters registered by IANA.", "s2"),
    ])
    assert [f for f in link_findings(doc) if f.kind == "stale_reference"] == []


def test_gaps_in_typed_headings_captions_and_statements():
    rows = [("s6", "section", "6 Conformance", None, "Section 6", "6", "Heading 1", "Conformance", 1)]
    for n in (1, 2, 4):
        rows.append((f"h{n}", "section", f"6.{n} Target {n}", "s6", f"Section 6.{n}", f"6.{n}", "Heading 2", f"Target {n}", 2))
    for n in (1, 2, 3, 5, 6, 7):
        rows.append((f"cc{n}", "paragraph", f"Conformance Clause {n}: An implementation conforms if it does X{n}.", "h1"))
    for n in (1, 2, 4):
        rows.append((f"f{n}", "paragraph", f"Figure 6-{n} \u2013 Flow {n}", "h2"))
    # statement ids written after sentences are identifiers, not a series: -1, -3 is no gap
    rows += [("m1", "paragraph", "The Server MUST reply [MQTT-SN-6.1-1].", "h4"),
             ("m3", "paragraph", "The Client MUST retry [MQTT-SN-6.1-3].", "h4")]
    got = sorted((f.unit, f.message) for f in series_findings(make_doc(rows)))
    assert got == [
        ("cc5", "the series 'Conformance Clause 1, 2, ...' skips Conformance Clause 4"),
        ("f4", "the figure numbers of chapter 6 skip Figure 6-3"),
        ("h4", "the sections under 6 skip 6.3"),
    ]


def test_a_series_that_does_not_start_at_one_or_runs_out_of_order_is_none():
    rows = [("s1", "section", "Steps", None, "Section 1", "1", "Heading 1", None, 1)]
    rows += [(f"p{n}", "paragraph", f"Step {n}: do {n}.", "s1") for n in (3, 4, 6)]
    rows += [(f"q{n}", "paragraph", f"Rule {n}: do {n}.", "s1") for n in (1, 3, 2)]
    assert series_findings(make_doc(rows)) == []


@pytest.mark.slow
@pytest.mark.skipif(not WILD.is_dir(), reason="the wild set is not here")
@pytest.mark.parametrize("name", ["mqtt-sn-2.0-wd-2025-10-23.docx", "mqtt-sn-2.0-wd-2025-10-23.odt"])
def test_recall_of_seeded_defects_on_the_wild_specification(name):
    from adapters import read

    from .wild_seeds import recall, seed

    data, expect = seed((WILD / name).read_bytes())
    doc = read(data)
    got = recall(doc, check_document(doc), expect)
    print(name, got)
    assert all(n >= 3 for _found, n in got.values()), got  # the seeding found its places
    assert got == {k: (n, n) for k, (_f, n) in got.items()}


@pytest.mark.skipif(not WILD.is_dir(), reason="the wild set is not here")
def test_the_real_defects_of_the_mqtt_sn_draft():
    from adapters import read_path

    doc = read_path(str(WILD / "mqtt-sn-2.0-wd-2025-10-23.docx"))
    got = link_findings(doc)
    broken = {f.evidence for f in got if f.kind == "broken_link"}
    assert broken == {"Chapter", "[NSAB]"}  # links pasted from the Google Docs draft
    stale = [f for f in got if f.kind == "stale_reference"]
    typed = {(doc.unit(f.unit).text[:40], f.places[0].replacement) for f in stale if "passage" in f.message}
    assert ("Position: bit 0 of the CONNACK Flags. La", "3-3") in typed  # "Figure 3-6" is REGACK's
    assert ("Position: bit 4 of the SUBSCRIBE Flags. ", "3-17") in typed  # "Figure 3-19" is UNSUBSCRIBE's
    linked = {f.evidence: [p.replacement for p in f.places] for f in stale if "link" in f.message}
    assert linked["C.3 Server Congestion"] == ["C.2"] and linked["3.18 Forwarder Encapsulation"] == ["3.19"]
