"""Instructions never corrupt (issue 28, item 7).

``Replace the text of the paragraph starting with 'If the Server is not enrolled to the Client'
with: …`` was split at the quoted " to " and wrote "the Client' with: If the Client…" into the
specification, with no error. Now quoted text is taken whole (every quote style), the grammar
reads only around it, an instruction that reads two ways on the document is refused with the
readings, the instruction's own words never land in the document, and what is written follows
the document's quotation marks.
"""
from __future__ import annotations

import pytest

from addin_backend.edits import rules
from addin_backend.errors import AmbiguousInstructionError, InstructionNotUnderstoodError

from .docs import make_doc

ENROLLED = "If the Server is not enrolled to the Client, the Client rejects every message."


def spec(straight: bool = False):
    q = ('"', '"', "'", "'", "'") if straight else ("\u201c", "\u201d", "\u2019", "\u2018", "\u2019")
    return make_doc([
        ("s1", "section", "Enrolment", None, "Section 1", "1", "Heading 1", None, 1),
        ("p1", "paragraph", ENROLLED, "s1", None, None, "Body Text"),
        ("p2", "paragraph", f"The client to server stream is encrypted; the {q[0]}Client{q[1]} keeps its key.", "s1"),
        ("p3", "paragraph", f"A client sends a request with care. The client{q[2]}s key is used everywhere.", "s1"),
        ("p4", "paragraph", f"Sign with care, and keep the old value: the {q[3]}old{q[4]} value stays.", "s1"),
        ("s2", "section", "Messages", None, "Section 2", "2", "Heading 1", None, 1),
        ("p5", "paragraph", "Das Protokoll verwendet strictly geordnete Nachrichten.", "s2"),
    ])


def propose(doc, instruction: str):
    return rules.propose(doc, instruction, author="T")


def written(p) -> list[str]:
    return [e.text for e in p.edits if e.op in ("replace", "set_text", "insert_after")]


@pytest.mark.parametrize("quotes", [("'", "'"), ('"', '"'), ("\u2018", "\u2019"), ("\u201c", "\u201d"),
                                    ("\u00ab ", " \u00bb"), ("\u201e", "\u201c"), ("\u00bb", "\u00ab")])
def test_a_quoted_reference_is_taken_whole_in_every_quote_style(quotes):
    a, b = quotes
    p = propose(spec(), f"Replace the text of the paragraph starting with {a}If the Server is not enrolled to the "
                        f"Client{b} with: The Server enrols first.")
    assert [(e.op, e.unit, e.text) for e in p.edits] == [("set_text", "p1", "The Server enrols first.")]


def test_the_issue_instruction_writes_nothing_of_its_own():
    p = propose(spec(), "Replace the text of the paragraph starting with 'If the Server is not enrolled to the "
                        "Client' with: If the Client is not enrolled to the Server, the Server rejects every message.")
    assert written(p) == ["If the Client is not enrolled to the Server, the Server rejects every message."]
    assert not any("with:" in t or "'" in t for t in written(p))


@pytest.mark.parametrize("instruction, old, new", [
    ("Replace 'sign with care' with 'sign carefully'", "Sign with care", "Sign carefully"),
    ("Replace \"the \u2018old\u2019 value\" with \"the 'new' value\"", "the \u2018old\u2019 value", "the \u2018new\u2019 value"),
    ("Rename \u201cclient to server\u201d to \u2018client-to-server\u2019 everywhere", "client to server",
     "client-to-server"),
    ("Replace 'used everywhere' with 'used widely'", "used everywhere", "used widely"),
    ("Replace \"client\u2019s key\" with \"client\u2019s secret\"", "client\u2019s key", "client\u2019s secret"),
    ("Replace 'client's key' with 'client's secret'", "client\u2019s key", "client\u2019s secret"),
])
def test_quoted_terms_keep_their_seam_words_colons_and_apostrophes(instruction, old, new):
    p = propose(spec(), instruction)
    assert p.edits, p.explanation
    for e in p.edits:
        assert e.old.lower() == old.lower() and e.text.lower() == new.lower(), (e.old, e.text)


def test_scope_words_never_land_in_the_document():
    p = propose(spec(), "Rename client to peer everywhere")
    assert p.edits and all(e.text.lower() in ("peer", "peers") for e in p.edits)
    p = propose(spec(), "Replace request with query throughout the document.")
    assert written(p) == ["query"]


def test_an_instruction_read_two_ways_is_refused_with_the_readings():
    doc = spec()
    with pytest.raises(AmbiguousInstructionError) as err:
        propose(doc, "Rename client to server to peer")
    readings = err.value.details["readings"]
    assert len(readings) == 2
    said = [r["instruction"] for r in readings]
    assert said == ['Rename "client" to "server to peer"', 'Rename "client to server" to "peer"']
    assert "2 ways" in err.value.message and all(r["operations"] > 0 for r in readings)
    # each reading, sent back as the error quotes it, is understood as that reading
    first = propose(doc, said[0])
    assert {e.text.lower() for e in first.edits} <= {"server to peer", "server to peers"}
    second = propose(doc, said[1])
    assert [(e.unit, e.old, e.text) for e in second.edits] == [("p2", "client to server", "peer")]


def test_a_reading_the_document_does_not_allow_drops_out():
    # "…enrolled" alone would also start p1, but its new text would carry the instruction's own
    # "with:"; the other reading is the one left, and the proposal says what it chose
    p = propose(spec(), "Replace the text of the paragraph starting with If the Server is not enrolled to the "
                        "Client' with: Hello.")
    assert [(e.op, e.unit, e.text) for e in p.edits] == [("set_text", "p1", "Hello.")]
    assert any("can also be read" in w for w in p.warnings)


def test_the_only_reading_that_would_write_its_own_frame_is_refused():
    with pytest.raises(InstructionNotUnderstoodError, match="instruction's own words"):
        propose(spec(), "Rewrite the paragraph starting with If the Server as: Rewrite the paragraph starting with "
                        "If the Server as: the Server enrols.")


def test_colons_inside_an_inserted_text_stay_text():
    p = propose(spec(), "Insert after Section 1: Note: the client: always retries.")
    assert written(p) == ["Note: the client: always retries."]


@pytest.mark.parametrize("instruction", ["L\u00f6sche \u201estrictly\u201c", "Supprime \u00ab strictly \u00bb",
                                         "Elimina \u00abstrictly\u00bb", "Entferne 'strictly' aus Abschnitt 2"])
def test_instructions_in_other_languages_take_their_quotes_whole(instruction):
    if "aus Abschnitt" in instruction:
        with pytest.raises(InstructionNotUnderstoodError):  # the scope words are English: not read, not guessed
            propose(spec(), instruction)
        return
    p = propose(spec(), instruction)
    assert [(e.unit, e.old) for e in p.edits] == [("p5", "strictly ")]


def test_a_german_delete_by_label_still_reads():
    p = propose(spec(), "L\u00f6sche Abschnitt 2")
    assert {e.unit for e in p.edits} == {"s2", "p5"}


def test_written_text_follows_the_documents_quotation_marks():
    curly = propose(spec(), "Insert after Section 1: The \"Client\" isn't ready.")
    assert written(curly) == ["The \u201cClient\u201d isn\u2019t ready."]
    straight = propose(spec(straight=True), "Insert after Section 1: The \u201cClient\u201d isn\u2019t ready.")
    assert written(straight) == ["The \"Client\" isn't ready."]
    renamed = propose(spec(), "Replace 'request' with \"client's request\"")
    assert written(renamed) == ["client\u2019s request"]


def test_the_llm_engines_text_follows_the_documents_quotation_marks_too():
    import json

    from addin_backend.edits import ContextItem, select_engine
    from tests.addin_backend.edits.chat_server import ChatServer, Step, completion

    doc = make_doc([
        ("h1", "section", "1 Control Loop", None, "Section 1", "1", "Heading 1", "Control Loop", 1),
        ("a", "paragraph", "The \u201cController\u201d reads the sensors every second.", "h1"),
        ("b", "paragraph", "The operator\u2019s console shows the \u201cAlarm\u201d state.", "h1"),
    ])
    reply = json.dumps({"operations": [{"op": "replace", "unit": "U2", "old": "reads the sensors",
                                        "new": "reads the \"raw\" sensors' values"}]})
    with ChatServer() as server:
        server.script = [Step(body=completion(reply))]
        env = {"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": server.endpoint.replace("/models", "/v1")}
        engine = select_engine("llm", env=env)
        p = engine.propose(doc, "Say that the sensors are raw", [ContextItem(doc.unit(u), "TARGET") for u in
                                                                  ("h1", "a", "b")], author="Ana")
    assert engine.name == "llm" and engine.config.provider == "openai"  # the wrapped engine's settings still show
    assert written(p) and all("\u201craw\u201d" in t and "sensors\u2019 values" in t for t in written(p)), written(p)
