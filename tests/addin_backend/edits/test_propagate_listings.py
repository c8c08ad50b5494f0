"""Identifiers listed elsewhere: the row of a conformance table follows its statement, a row whose
statement is gone and a new statement no row lists are reported; real documents, real readers."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from adapters import read
from adapters.model import Delete, InsertAfter, SetText
from addin_backend.edits.propagate import propagate
from addin_backend.graph import build_graph
from addin_backend.graph.edges import REFERENCES, edges_of_type
from addin_backend.graph.listings import listed_identifiers, statement_sentence

WILD = Path("/work/shared/devset/wild")

S1 = "A Client MUST send a CONNECT packet first [REQ-1.1-1]."
S2 = "The Server MUST answer with a CONNACK packet [REQ-1.1-2]. It MAY close the connection."
S3 = "A Client MUST NOT send a second CONNECT packet [REQ-1.1-3]."
CITED = "See [RFC2119] for the keywords; [RFC2119] defines MUST."


def _docx(statements=(S1, S2, S3), rows=None) -> bytes:
    """A specification: statements carrying identifiers, and an appendix table listing them."""
    import docx

    d = docx.Document()
    d.add_heading("1 Connecting", 1)
    for s in statements:
        d.add_paragraph(s)
    d.add_paragraph(CITED)
    d.add_heading("Appendix A. Normative statements", 1)
    rows = rows if rows is not None else [
        ("[REQ-1.1-1]", "A Client MUST send a CONNECT packet first."),
        ("[REQ-1.1-2]", "The Server MUST answer with a CONNACK packet."),
        ("[REQ-1.1-3]", "A Client MUST NOT send a second CONNECT packet."),
    ]
    t = d.add_table(rows=1 + len(rows), cols=2)
    t.rows[0].cells[0].text, t.rows[0].cells[1].text = "Statement number", "Statement"
    for r, (a, b) in enumerate(rows, 1):
        t.rows[r].cells[0].text, t.rows[r].cells[1].text = a, b
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def _unit(doc, text):
    return next(u for u in doc.units if u.text == text)


def _table(doc):
    return next(u for u in doc.units if u.kind == "table")


def test_statements_and_the_table_that_lists_them():
    doc = read(_docx())
    listed = listed_identifiers(doc)
    assert sorted(listed) == ["[REQ-1.1-1]", "[REQ-1.1-2]", "[REQ-1.1-3]"]  # [RFC2119] is in no table
    assert statement_sentence(S2, "[REQ-1.1-2]") == "The Server MUST answer with a CONNACK packet."
    G = build_graph(doc, stages=("contains", "references"))
    lists = [(u, v, d["evidence"]) for u, v, d in edges_of_type(G, REFERENCES) if d.get("origin") == "listing"]
    assert sorted(e for _, _, e in lists) == ["lists [REQ-1.1-1]", "lists [REQ-1.1-2]", "lists [REQ-1.1-3]"]
    assert {u for u, _, _ in lists} == {_table(doc).id} and {v for _, v, _ in lists} == {_unit(doc, s).id for s in (S1, S2, S3)}


def test_a_rewritten_statement_restates_its_row():
    doc = read(_docx())
    new = "The Server MUST answer with a CONNACK packet within 10 seconds [REQ-1.1-2]. It MAY close the connection."
    p = propagate(doc, None, [SetText(unit=_unit(doc, S2).id, text=new, before=S2)])
    (e,) = p.edits
    assert e.unit == _table(doc).id and e.old == "The Server MUST answer with a CONNACK packet."
    assert e.text == "The Server MUST answer with a CONNACK packet within 10 seconds."
    assert e.reason.startswith("REFERENCES (listing)") and "[REQ-1.1-2]" in e.reason
    assert not p.findings


def test_an_identifier_given_to_another_statement_takes_its_row_along():
    doc = read(_docx())
    # the editors renumber: S3 becomes [REQ-1.1-2]'s statement, S2 loses its identifier
    edits = [SetText(unit=_unit(doc, S2).id, text="The Server answers with a CONNACK packet.", before=S2),
             SetText(unit=_unit(doc, S3).id, text=S3.replace("-3]", "-2]"), before=S3)]
    p = propagate(doc, None, edits)
    assert [(e.old, e.text) for e in p.edits] == [
        ("The Server MUST answer with a CONNACK packet.", "A Client MUST NOT send a second CONNECT packet.")]
    assert [(f.kind, f.evidence) for f in p.findings] == [("listed_statement_removed", "[REQ-1.1-3]")]


def test_a_deleted_statement_and_an_unlisted_one_are_reported_not_guessed():
    doc = read(_docx())
    new = "A Server MUST keep one Session per Client [REQ-1.1-4]."
    p = propagate(doc, None, [Delete(unit=_unit(doc, S3).id), InsertAfter(unit=_unit(doc, S2).id, text=new)])
    assert p.edits == []
    kinds = {(f.kind, f.unit, f.evidence) for f in p.findings}
    table = _table(doc).id
    assert ("listed_statement_removed", table, "[REQ-1.1-3]") in kinds
    assert ("statement_not_listed", table, "[REQ-1.1-3]") in kinds  # the row it would follow


def test_a_citation_repeated_in_the_text_is_no_statement_identifier():
    rows = [("[RFC2119]", "Key words"), ("[REQ-1.1-1]", "A Client MUST send a CONNECT packet first.")]
    doc = read(_docx(rows=rows))
    p = propagate(doc, None, [SetText(unit=_unit(doc, CITED).id, text="See [RFC2119] for the keywords.", before=CITED)])
    assert p.edits == [] and p.findings == []


def test_a_row_that_never_repeated_its_statement_is_left_alone():
    rows = [("[REQ-1.1-1]", "Connect first"), ("[REQ-1.1-2]", "Acknowledge"), ("[REQ-1.1-3]", "No second connect")]
    doc = read(_docx(rows=rows))
    new = S2.replace("a CONNACK packet", "a CONNACK packet at once")
    p = propagate(doc, None, [SetText(unit=_unit(doc, S2).id, text=new, before=S2)])
    assert p.edits == [] and p.findings == []


@pytest.mark.slow
def test_mqtt_sn_editors_change_of_section_3_17_restates_the_conformance_table():
    """The MQTT-SN editors' 10-07 -> 10-23 rewrite of 3.17 replayed: the conformance table's rows
    [MQTT-SN-3.17-2] and [MQTT-SN-3.17-3] follow their new statements, as the editors' own did;
    [MQTT-SN-3.17-4] and [-5], new, are reported with the row they follow."""
    older, newer = WILD / "mqtt-sn-2.0-wd-2025-10-07.docx", WILD / "mqtt-sn-2.0-wd-2025-10-23.docx"
    if not older.exists():
        pytest.skip("the wild development set is not here")
    from benchmarks.wild.replay import replay_operations
    from adapters.model import edit_from_json

    a, b = read(older.read_bytes()), read(newer.read_bytes())
    ops = [edit_from_json({**op, "id": f"op-{i}"}) for i, op in enumerate(replay_operations(a, b).operations)]
    p = propagate(a, None, ops)
    table = [u for u in b.units if u.kind == "table" and u.text.startswith("Normative Statement Number")][0]
    want = {row[0]: row[1] for row in table.meta["cells"]}
    rows = {e.text for e in p.edits if a.unit(e.unit).kind == "table"}
    assert rows == {want["[MQTT-SN-3.17-2]"].strip(), want["[MQTT-SN-3.17-3]"].strip()}
    missing = sorted(f.message.split()[0] for f in p.findings if f.kind == "statement_not_listed")
    assert missing == ["[MQTT-SN-3.17-4]", "[MQTT-SN-3.17-5]"]
