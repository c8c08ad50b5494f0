"""The ``operations`` way of the LLM engine: the schema and budget it asks with, and the repair of
answers as small local models write them (the shapes seen from Qwen2.5-Coder 0.5B/1.5B on CPU)."""
from __future__ import annotations

import json

import pytest

from addin_backend.edits import ContextItem, select_engine
from addin_backend.edits.llm import LLMConfig, LLMEngine, llm_configured
from addin_backend.edits.llm_operations import (
    MAX_OPERATIONS,
    EXAMPLES,
    build_messages,
    describe,
    operations_schema,
    output_budget,
    parse_operations,
    repair,
)
from addin_backend.edits.operations import apply_to_document, validate_edits
from addin_backend.errors import EngineUnavailableError, InstructionNotUnderstoodError
from addin_backend.retrieval.tokens import count_tokens
from tests.addin_backend.edits.chat_server import ChatServer, Step, completion
from tests.addin_backend.edits.docs import make_doc

RENAME = "Rename the Controller to the Coordinator everywhere"


def plant():
    """Five paragraphs under two headings; 'Controller' in three of them, twice in one."""
    return make_doc([
        ("h1", "section", "1 Control Loop", None, "Section 1", "1", "Heading 1", "Control Loop", 1),
        ("a", "paragraph", "The Controller reads the sensors every second.", "h1"),
        ("b", "paragraph", "When the Controller fails, the Controller restarts within 5 seconds.", "h1"),
        ("c", "paragraph", "Pumps are serviced twice a year.", "h1"),
        ("h2", "section", "2 Alarms", None, "Section 2", "2", "Heading 1", "Alarms", 1),
        ("d", "paragraph", "Alarms go to the operator on duty.", "h2"),
        ("e", "paragraph", "The operator may reset the Controller's alarms.", "h2"),
    ])


def keys_for(doc, ids=("h1", "a", "b", "c", "h2", "d", "e")):
    return {f"U{i + 1}": uid for i, uid in enumerate(ids)}


def op(kind, unit=None, old=None, new=None):
    return {"op": kind, "unit": unit, "old": old, "new": new}


def fix(doc, ops, instruction=RENAME):
    return repair(doc, ops, instruction, keys_for(doc), author="Ana", date="2026-12-02T00:00:00Z", reason=instruction)


def result_text(doc, edits):
    after = apply_to_document(doc, validate_edits(doc, edits))
    return {u.id: u.text for u in after.units}


def test_an_edit_for_every_paragraph_keeps_only_those_that_apply_and_becomes_one_rename():
    doc = plant()
    # what the 0.5B model answered: a replace for each unit it saw, whether the word is there or not
    ops = [op("replace", f"U{i}", "Controller", "Coordinator") for i in range(2, 8)]
    r = fix(doc, ops)
    assert [n for n in r.notes if "dropped" in n] == [
        "operation 3 dropped: 'Controller' does not occur in U4",
        "operation 4 dropped: 'Controller' does not occur in U5 (Section 2)",
        "operation 5 dropped: 'Controller' does not occur in U6",
    ]
    assert [(e.op, e.old, e.text, e.unit) for e in r.edits] == [("rename", "Controller", "Coordinator", None)]
    text = result_text(doc, r.edits)
    assert text["b"] == "When the Coordinator fails, the Coordinator restarts within 5 seconds."
    assert text["e"] == "The operator may reset the Coordinator's alarms."  # a unit the model kept was not even needed


def test_a_word_twice_in_one_unit_is_every_occurrence_only_when_the_instruction_says_everywhere():
    doc = plant()
    one = [op("replace", "U3", "the Controller", "the Coordinator")]
    r = fix(doc, one)
    assert result_text(doc, r.edits)["b"] == "When the Coordinator fails, the Coordinator restarts within 5 seconds."
    local = "In the failure sentence, call the Controller the Coordinator"
    r = fix(doc, one, local)
    assert r.edits == []
    assert r.notes == ["operation 1 dropped: 'the Controller' occurs 2 times in U3 and the instruction does not say which"]


def test_unknown_units_repeats_and_no_ops_are_dropped_with_a_reason_each():
    doc = plant()
    ops = [
        op("replace", "U9", "Controller", "Coordinator"),  # a key not shown
        op("replace", "p-7f3a", "Controller", "Coordinator"),  # an invented id
        op("rewrite", "U4", None, "Pumps are serviced twice a year."),  # unchanged text
        op("replace", "U2", "sensors", "sensors"),
        op("delete", "U4"),
        op("delete", "U4"),
        op("launch", "U4"),
    ]
    r = fix(doc, ops, "Remove the paragraph about pumps")
    assert r.notes == [
        "operation 1 dropped: U9 is not a unit of the context",
        "operation 2 dropped: p-7f3a is not a unit of the context",
        "operation 3 dropped: the rewrite of U4 changes nothing",
        "operation 4 dropped: the replace in U2 changes nothing",
        "operation 6 dropped: it repeats an earlier operation",
        "operation 7 dropped: unknown operation 'launch'",
    ]
    assert [(e.op, e.unit) for e in r.edits] == [("delete", "c")]


def test_keys_are_read_as_models_write_them():
    doc = plant()
    r = fix(doc, [op("delete", "[u4]"), op("retitle", "5", None, "Alarm Handling")], "Delete the pumps paragraph and retitle Section 2")
    assert [(e.op, e.unit) for e in r.edits] == [("delete", "c"), ("replace", "h2")]
    assert result_text(doc, r.edits)["h2"] == "2 Alarm Handling"


def test_delete_of_a_heading_takes_its_section_and_retitle_needs_a_heading():
    doc = plant()
    r = fix(doc, [op("delete", "U5"), op("retitle", "U2", None, "Sensors")], "Delete Section 2")
    assert [e.unit for e in r.edits] == ["h2", "d", "e"]
    assert r.notes == ["operation 2 dropped: U2 is a paragraph, not a heading or caption"]


def test_overlapping_operations_keep_the_first():
    doc = plant()
    r = fix(doc, [op("rewrite", "U2", None, "The Controller polls the sensors."),
                  op("replace", "U2", "every second", "every minute")], "Make the polling slower")
    assert [e.op for e in r.edits] == ["set_text"]
    assert len(r.notes) == 1 and r.notes[0].startswith("operation 2 dropped:")


def test_a_rename_of_a_term_the_document_lacks_is_dropped():
    doc = plant()
    r = fix(doc, [op("rename", None, "Regulator", "Coordinator"), op("rename", None, "Controller", "controller")])
    assert r.edits == []
    assert r.notes == ["operation 1 dropped: 'Regulator' does not occur in the document",
                       "operation 2 dropped: a rename needs a term and a different new term"]


def test_parse_operations_shapes():
    assert parse_operations({"operations": [op("delete", "U1")]}) == [op("delete", "U1")]
    assert parse_operations([op("delete", "U1")]) == [op("delete", "U1")]
    assert parse_operations(op("delete", "U1")) == [op("delete", "U1")]
    with pytest.raises(ValueError):
        parse_operations({"edits": []})
    with pytest.raises(ValueError):
        parse_operations({"operations": ["delete U1"]})


def test_the_prompt_shows_short_keys_and_the_budget_fits_the_operation():
    doc = plant()
    items = [ContextItem(doc.unit("b"), "TARGET: the unit to edit"), ContextItem(doc.unit("h1"), "CONTAINS: section")]
    messages, keys = build_messages(doc, RENAME, items, target="b")
    assert keys == {"U1": "b", "U2": "h1"}
    user = messages[-1]["content"]
    # the worked examples come first, the same every time (a prompt cache keeps them)
    assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * len(EXAMPLES) + ["user"]
    assert messages[:-1] == build_messages(plant(), "Delete it", [], target=None)[0][:-1]
    assert "[U1] paragraph: When the Controller fails" in user
    assert "[U2] Section 1 heading: 1 Control Loop" in user
    assert "The cursor is in U1." in user and user.endswith(f"Instruction: {RENAME}")
    budget = output_budget(items, count_tokens, 2048)
    assert 40 * MAX_OPERATIONS < budget < 40 * MAX_OPERATIONS + 2 * count_tokens(doc.unit("b").text)
    assert output_budget(items, count_tokens, 100) == 100
    schema = operations_schema()
    assert schema["properties"]["operations"]["maxItems"] == MAX_OPERATIONS


# --- through the engine and a loopback OpenAI-compatible server ---------------------------------


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def local_env(srv):
    return {"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": srv.endpoint.replace("/models", "/v1")}


def test_openai_provider_needs_no_key_and_asks_for_operations():
    env = {"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": "http://127.0.0.1:8080/v1"}
    cfg = LLMConfig.from_env(env)
    assert (cfg.provider, cfg.schema, cfg.key) == ("openai", "operations", "none")
    assert llm_configured(env) and not llm_configured({**env, "LEDGER_LLM_PROVIDER": "azure"})
    assert LLMConfig.from_env({**env, "LEDGER_LLM_SCHEMA": "edits"}).schema == "edits"
    assert LLMConfig.from_env({**env, "LEDGER_LLM_MAX_TOKENS": "300"}).max_tokens == 300
    azure = LLMConfig.from_env({"LEDGER_LLM_ENDPOINT": "https://x.services.ai.azure.com/models", "LEDGER_LLM_KEY": "k"})
    assert (azure.provider, azure.schema) == ("azure", "edits")
    with pytest.raises(EngineUnavailableError, match="set LEDGER_LLM_KEY"):
        LLMConfig.from_env({**env, "LEDGER_LLM_PROVIDER": "azure"})
    with pytest.raises(EngineUnavailableError, match="LEDGER_LLM_PROVIDER must be one of azure, openai"):
        LLMConfig.from_env({**env, "LEDGER_LLM_PROVIDER": "bedrock"})
    with pytest.raises(EngineUnavailableError, match="LEDGER_LLM_SCHEMA must be one of"):
        LLMConfig.from_env({**env, "LEDGER_LLM_SCHEMA": "free"})


def test_the_engine_sends_the_operations_schema_a_small_budget_and_stops(server):
    doc = plant()
    reply = json.dumps({"operations": [op("replace", "U2", "Controller", "Coordinator"),
                                       op("replace", "U3", "Controller", "Coordinator"),
                                       op("replace", "U4", "Controller", "Coordinator")]})
    server.script = [Step(body=completion(reply, prompt_tokens=210, completion_tokens=61))]
    engine = select_engine("llm", env=local_env(server))
    items = [ContextItem(doc.unit(u), "TARGET: the unit to edit" if u == "a" else "RELATED: near") for u in keys_for(doc).values()]
    p = engine.propose(doc, RENAME, items, author="Ana")
    assert {e.old for e in p.edits} == {"Controller"} and {e.unit for e in p.edits} == {"a", "b", "e"}
    assert len(p.edits) == 4  # the rename reached the possessive in U7, which the model left out
    assert p.explanation == "Rename 'Controller' to 'Coordinator'."
    assert p.warnings[0] == "operation 3 dropped: 'Controller' does not occur in U4"
    assert p.usage.completion_tokens == 61
    (req,) = server.requests
    assert req.path == "/v1/chat/completions"
    assert req.headers["api-key"] == "none"
    body = req.body
    assert body["response_format"]["json_schema"]["schema"] == operations_schema()
    assert body["stop"] == ["\n\n\n", "\n```\n"]
    assert body["max_tokens"] == output_budget(items, count_tokens, 2048) < 400


def test_a_fenced_answer_cut_off_at_the_limit_keeps_its_complete_operations(server):
    doc = plant()
    # the 54-paragraph case: a fenced answer enumerating units until the token limit cut it
    cut = "```json\n{\"operations\": [\n  " + ",\n  ".join(
        json.dumps(op("replace", f"U{i}", "Controller", "Coordinator")) for i in range(1, 4)) + ',\n  {"op": "repl'
    server.script = [Step(body=completion(cut))]
    items = [doc.unit(u) for u in ("a", "c", "b")]
    p = select_engine("llm", env=local_env(server)).propose(doc, RENAME, items, author="Ana")
    assert len(server.requests) == 1
    assert [e.unit for e in p.edits] == ["a", "b", "b", "e"]  # one rename: the term everywhere
    assert p.warnings[:2] == [
        "the answer was cut off at its token limit; the 3 complete operation(s) before the cut were read",
        "operation 2 dropped: 'Controller' does not occur in U2",
    ]


def test_an_answer_with_no_complete_operation_is_sent_back_once(server):
    doc = plant()
    good = json.dumps({"operations": [op("rename", None, "Controller", "Coordinator")]})
    server.script = [Step(body=completion('{"operations": [{"op": "rename", "unit": null, "old": "Contr')),
                     Step(body=completion(good))]
    p = select_engine("llm", env=local_env(server)).propose(doc, RENAME, [doc.unit("a")], author="Ana")
    assert [e.unit for e in p.edits] == ["a", "b", "b", "e"]
    assert server.requests[1].body["messages"][-1]["content"].startswith("Your answer could not be used: the reply is not valid JSON")


def test_a_rename_of_a_heading_by_its_label_is_a_retitle_and_labels_are_not_terms():
    doc = plant()
    # what the 0.5B model answered for "make the heading of Section 2 say 'Alarm Handling'"
    r = fix(doc, [op("rename", "U5", "Section 2", "Alarm Handling")], "Make the heading of Section 2 say 'Alarm Handling'")
    assert [(e.op, e.unit) for e in r.edits] == [("replace", "h2")]
    assert result_text(doc, r.edits)["h2"] == "2 Alarm Handling"
    assert r.notes == ["operation 1, a rename of the heading U5, is a retitle"]
    # the same without the key, the heading named as the prompt showed it
    r = fix(doc, [op("rename", None, "section Section 2", "Alarm Handling")], "Make the heading of Section 2 say 'Alarm Handling'")
    assert [(e.op, e.unit) for e in r.edits] == [("replace", "h2")]
    for label in ("Section 2", "Section 7"):  # in the context or not: a label is never renamed
        r = fix(doc, [op("rename", None, label, "Section 3")], f"Make {label} the third section")
        assert r.edits == [] and r.notes == [f"operation 1 dropped: '{label}' is a label, not a term (LEDGER renumbers labels itself)"]


def test_a_refusal_and_an_answer_with_nothing_usable_are_clear_refusals(server):
    doc = plant()
    server.script = [
        Step(body=completion(json.dumps({"operations": [op("refuse", None, None, "no operation adds a new section")]}))),
        Step(body=completion(json.dumps({"operations": [op("replace", "U1", "Regulator", "Coordinator")]}))),
    ]
    engine = select_engine("llm", env=local_env(server))
    with pytest.raises(InstructionNotUnderstoodError) as err:
        engine.propose(doc, "Add a section on maintenance", [doc.unit("a")], author="Ana")
    assert err.value.message == ("The LLM engine could not do this instruction: the model declined: "
                                 "no operation adds a new section.")
    assert err.value.details["reason"] == "model_refused"
    with pytest.raises(InstructionNotUnderstoodError) as err:
        engine.propose(doc, RENAME, [doc.unit("a")], author="Ana")
    assert "none of the model's operations could be used (operation 1 dropped: 'Regulator' does not occur in U1)" \
        in err.value.message
    assert err.value.details["reason"] == "no_usable_operation"


def test_the_edits_way_still_works_against_an_openai_compatible_server(server):
    doc = plant()
    reply = json.dumps({"explanation": "x", "edits": [{"op": "delete", "unit": "c"}]})
    server.script = [Step(body=completion(reply))]
    p = LLMEngine.from_env({**local_env(server), "LEDGER_LLM_SCHEMA": "edits"}).propose(
        doc, "Drop the pumps paragraph", [doc.unit("c")], author="Ana")
    assert [(e.op, e.unit) for e in p.edits] == [("delete", "c")]
    assert server.requests[0].body["response_format"]["json_schema"]["name"] == "ledger_edits"


def test_the_heading_the_instruction_names_wins_over_a_miscopied_key():
    doc = plant()
    # what the 0.5B model answered for "Section 2 is obsolete": the key of the heading before it
    r = fix(doc, [op("delete", "U1")], "Section 2 is obsolete; remove it from the document")
    assert sorted(e.unit for e in r.edits) == ["d", "e", "h2"]
    assert r.notes == ["operation 1 named U1 (Section 1); the instruction names Section 2, which was used"]
    assert describe(r.edits, doc) == "Delete Section 2 with the 2 unit(s) it contains."
    # the new title as both terms of a rename of the heading: a retitle
    r = fix(doc, [op("rename", "U5", "Alarm Handling", "Alarm Handling")], "Give Section 2 the heading 'Alarm Handling'")
    assert result_text(doc, r.edits)["h2"] == "2 Alarm Handling"
    # a paragraph the model named is kept: only a heading's key is taken for a miscopy
    r = fix(doc, [op("delete", "U6")], "Section 2 says too much: remove its first paragraph")
    assert [e.unit for e in r.edits] == ["d"] and r.notes == []
    # two headings cited: which one is meant is not guessed
    r = fix(doc, [op("delete", "U1")], "Merge Section 2 into Section 1")
    assert sorted(e.unit for e in r.edits) == ["a", "b", "c", "h1"]


def test_a_term_the_model_spelt_as_code_is_the_instruction_s_term():
    doc = plant()
    r = fix(doc, [op("rename", None, "the_controller", "Coordinator")], "Say 'Coordinator' for 'the Controller' everywhere")
    assert [(e.op, e.old) for e in r.edits] == [("rename", "the Controller")]
    assert r.notes == ["operation 1: 'the_controller' is the instruction's 'the Controller' spelt as code"]
    # not quoted by the instruction: nothing to read it as
    r = fix(doc, [op("rename", None, "the_controller", "Coordinator")], RENAME)
    assert r.edits == [] and r.notes == ["operation 1 dropped: 'the_controller' does not occur in the document"]


def test_the_instruction_s_terms_win_where_the_code_spelling_names_something_else():
    # the model wrote both terms as code; "pump_service" also occurs, as an identifier: renaming
    # it would rename the identifier, and the user asked for the phrase
    doc = make_doc([
        ("a", "paragraph", "Each pump service is logged; a pump service takes an hour.", None),
        ("b", "paragraph", "The scheduler calls pump_service() once a week.", None),
    ])
    instruction = "Use 'pump maintenance' instead of 'pump service' everywhere"
    r = repair(doc, [op("rename", None, "pump_service", "pump_maintenance")], instruction, {"U1": "a", "U2": "b"},
               author="Ana", date="2026-12-02T00:00:00Z", reason=instruction)
    assert [(e.op, e.old, e.text) for e in r.edits] == [("rename", "pump service", "pump maintenance")]
    assert r.notes == ["operation 1: 'pump_service' is the instruction's 'pump service' spelt as code",
                       "operation 1: 'pump_maintenance' is the instruction's 'pump maintenance' spelt as code"]


def test_the_context_is_cut_to_the_model_s_window_and_the_proposal_says_so(server):
    doc = plant()
    items = [ContextItem(doc.unit(u), "TARGET: the unit to edit" if u == "b" else "CONTAINS") for u in
             ("b", "a", "c", "d", "e", "h1", "h2")]
    fits = __import__("addin_backend.edits.llm_operations", fromlist=["fit_context"]).fit_context
    assert fits(doc, RENAME, items, count_tokens, None, 300) == items
    assert fits(doc, RENAME, items, count_tokens, 1024, 5000) == items[:1]  # at least one
    messages, _ = build_messages(doc, RENAME, [])
    fixed = sum(count_tokens(m["content"]) + 8 for m in messages)
    window = int((fixed + 25) * 1.3) + 300  # room for about one unit
    assert fits(doc, RENAME, items, count_tokens, window, 300) == items[:1]
    server.script = [Step(body=completion(json.dumps({"operations": [op("rename", None, "Controller", "Coordinator")]})))]
    window = window - 300 + output_budget(items, count_tokens, None)  # the engine's answer budget
    env = local_env(server) | {"LEDGER_LLM_CONTEXT": str(window)}
    p = select_engine("llm", env=env).propose(doc, RENAME, items, author="Ana")
    shown = server.requests[0].body["messages"][-1]["content"]
    assert "[U1]" in shown and "[U3]" not in shown
    assert p.warnings[0].startswith("the model saw ") and p.warnings[0].endswith(f"its window is {window} tokens")
    with pytest.raises(EngineUnavailableError, match="LEDGER_LLM_CONTEXT must be at least 256"):
        LLMConfig.from_env(local_env(server) | {"LEDGER_LLM_CONTEXT": "100"})


def test_a_rename_of_a_term_the_document_writes_only_in_another_languages_forms_is_kept():
    # a French document writes only the plural 'travaux' of 'travail': the term occurs (in the
    # unit's language forms, language/forms.py), so the model's rename is not dropped
    doc = make_doc([
        ("a", "paragraph", "Les travaux du chantier sont suspendus jusqu'à nouvel ordre par la direction.", None),
    ])
    doc.units[0].meta["lang"] = "fr-FR"
    instruction = "Remplacer 'travail' par 'ouvrage' partout"
    r = repair(doc, [op("rename", None, "travail", "ouvrage")], instruction, {"U1": "a"},
               author="Ana", date="2026-12-02T00:00:00Z", reason=instruction)
    assert [(e.op, e.old, e.text) for e in r.edits] == [("rename", "travail", "ouvrage")]
