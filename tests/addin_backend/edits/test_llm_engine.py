"""The LLM engine against a real chat-completions server on loopback (the request the Azure AI Inference SDK sent)."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from addin_backend.edits import ContextItem, select_engine
from addin_backend.edits.engines import AutoEngine, RulesEngine
from addin_backend.edits.llm import LLMConfig, LLMEngine, llm_configured
from addin_backend.edits.operations import RESPONSE_SCHEMA
from addin_backend.errors import EngineUnavailableError, InstructionNotUnderstoodError
from tests.addin_backend.edits.chat_server import ChatServer, Step, completion
from tests.addin_backend.edits.docs import contract  # noqa: F401 - fixture

ROOT = Path(__file__).resolve().parents[3]

GOOD = json.dumps({
    "explanation": "Extend the retention period to 45 days.",
    "edits": [
        {"op": "replace", "unit": "p3", "old": "30 days", "occurrence": None, "text": "45 days", "after": None,
         "before_unit": None, "kind": None, "style": None, "reason": "the retention period changes"},
        {"op": "insert_after", "unit": "p3", "old": None, "occurrence": None,
         "text": "Longer retention applies from 2027.", "after": None, "before_unit": None,
         "kind": "paragraph", "style": None, "reason": "state when it applies"},
    ],
})


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def engine_for(srv: ChatServer, sleeps: list[float] | None = None, **over) -> LLMEngine:
    cfg = dict(endpoint=srv.endpoint, key="sekret-key", model="gpt-test", api_version="2024-08-01-preview",
               timeout=5.0, max_retries=2, backoff=0.01)
    cfg.update(over)
    record = sleeps if sleeps is not None else []
    return LLMEngine(LLMConfig(**cfg), sleep=lambda s: (record.append(s), time.sleep(s)))


def context_of(doc):
    return [
        ContextItem(doc.unit("p3"), "target of the edit"),
        ContextItem(doc.unit("s2"), "CONTAINS: section of the target"),
        ContextItem(doc.unit("li1"), "RELATED: also states a retention time"),
    ]


def test_good_reply_gives_validated_edits_and_token_usage(server, contract):
    server.script = [Step(body=completion(GOOD, prompt_tokens=321, completion_tokens=45, model="gpt-test-2025"))]
    p = engine_for(server).propose(contract, "Make the retention period 45 days", context_of(contract), author="Ana")

    assert [(e.op, e.unit, getattr(e, "start", None), getattr(e, "end", None), getattr(e, "old", None), e.text)
            for e in p.edits] == [
        ("replace", "p3", 24, 26, "30", "45"),
        ("insert_after", "p3", None, None, None, "Longer retention applies from 2027."),
    ]
    assert p.edits[1].kind == "paragraph" and p.edits[1].style == "Body Text"
    assert {e.author for e in p.edits} == {"Ana"} and {e.source for e in p.edits} == {"llm"}
    assert p.edits[0].before == contract.unit("p3").text
    assert p.edits[0].reason == "the retention period changes"
    assert p.explanation == "Extend the retention period to 45 days."
    assert p.engine == "llm" and p.targets == ["p3"]
    assert p.usage.to_json() == {"prompt_tokens": 321, "completion_tokens": 45, "total_tokens": 366,
                                 "requests": 1, "model": "gpt-test-2025"}

    (req,) = server.requests
    assert req.path == "/models/chat/completions"
    assert req.query == {"api-version": ["2024-08-01-preview"]}
    assert req.headers["api-key"] == "sekret-key"
    assert req.headers["authorization"] == "Bearer sekret-key"
    assert req.headers["content-type"] == "application/json"
    assert req.body["model"] == "gpt-test"
    assert req.body["temperature"] == 0
    fmt = req.body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "ledger_edits" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"] == json.loads(json.dumps(RESPONSE_SCHEMA))
    system, user = req.body["messages"]
    assert system["role"] == "system" and "insert_after" in system["content"]
    assert user["role"] == "user"
    assert user["content"].startswith("Instruction: Make the retention period 45 days")
    for line in ("### p3 | paragraph | style Body Text | why: target of the edit",
                 "The retention period is 30 days after closure.",
                 "### s2 | section | Section 2 | style Heading 1 | why: CONTAINS: section of the target",
                 "### li1 | list_item | style List Bullet | why: RELATED: also states a retention time",
                 "Backups are kept for 30 days."):
        assert line in user["content"]
    assert "Payment is due" not in user["content"]  # only the context is sent


def test_fenced_reply_is_unwrapped(server, contract):
    fenced = "```json\n" + json.dumps({"explanation": "x", "edits": [{"op": "delete", "unit": "p4"}]}) + "\n```"
    server.script = [Step(body=completion(fenced))]
    p = engine_for(server).propose(contract, "Drop the payment paragraph", context_of(contract), author="Ana")
    assert [(e.op, e.unit, e.before) for e in p.edits] == [("delete", "p4", "Payment is due within 30 days of the invoice.")]
    assert len(server.requests) == 1


def test_malformed_json_is_sent_back_once_then_the_good_reply_is_used(server, contract):
    bad = '{"explanation": "oops", "edits": [{"op": "replace", "unit": "p3",'
    server.script = [Step(body=completion(bad, prompt_tokens=300, completion_tokens=10)),
                     Step(body=completion(GOOD, prompt_tokens=340, completion_tokens=40))]
    p = engine_for(server).propose(contract, "Make the retention period 45 days", context_of(contract), author="Ana")
    assert [e.text for e in p.edits] == ["45", "Longer retention applies from 2027."]
    assert p.usage.prompt_tokens == 640 and p.usage.completion_tokens == 50 and p.usage.requests == 2
    second = server.requests[1].body["messages"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "user"]
    assert second[2]["content"] == bad
    assert second[3]["content"].startswith("Your answer could not be used: the reply is not valid JSON")


def test_an_operation_that_does_not_fit_the_document_is_fed_back(server, contract):
    wrong = json.dumps({"explanation": "x", "edits": [{"op": "replace", "unit": "p3", "old": "31 days", "text": "45 days"}]})
    server.script = [Step(body=completion(wrong)), Step(body=completion(GOOD))]
    p = engine_for(server).propose(contract, "Make the retention period 45 days", context_of(contract), author="Ana")
    assert len(p.edits) == 2
    feedback = server.requests[1].body["messages"][3]["content"]
    assert "operation 1: '31 days' does not occur in unit p3" in feedback


def test_two_malformed_replies_are_refused(server, contract):
    server.script = [Step(body=completion("Sure! I will change it.")), Step(body=completion("[1, 2"))]
    with pytest.raises(EngineUnavailableError) as err:
        engine_for(server).propose(contract, "Make it 45 days", context_of(contract), author="Ana")
    assert "could not be used twice in a row" in err.value.message
    assert err.value.details["reason"] == "invalid_output"
    assert err.value.details["reply"] == "[1, 2"
    assert len(server.requests) == 2


def test_429_waits_for_retry_after_then_succeeds(server, contract):
    limited = {"error": {"code": "429", "message": "Rate limit is exceeded."}}
    server.script = [Step(429, limited, {"Retry-After": "1"}), Step(body=completion(GOOD))]
    sleeps: list[float] = []
    p = engine_for(server, sleeps).propose(contract, "Make it 45 days", context_of(contract), author="Ana")
    assert len(p.edits) == 2
    assert sleeps == [1.0]
    first, second = server.requests
    assert second.at - first.at >= 0.95
    assert p.usage.requests == 2


def test_retry_after_ms_is_honoured(server, contract):
    server.script = [Step(503, {"error": "busy"}, {"retry-after-ms": "50"}), Step(body=completion(GOOD))]
    sleeps: list[float] = []
    engine_for(server, sleeps).propose(contract, "Make it 45 days", context_of(contract), author="Ana")
    assert sleeps == [0.05]


def test_500s_until_the_retries_are_spent(server, contract):
    server.script = [Step(500, {"error": "boom"}) for _ in range(5)]
    sleeps: list[float] = []
    with pytest.raises(EngineUnavailableError) as err:
        engine_for(server, sleeps, max_retries=2, backoff=0.02).propose(
            contract, "Make it 45 days", context_of(contract), author="Ana")
    assert err.value.message == "the LLM endpoint HTTP 500; gave up after 3 attempt(s)"
    assert len(server.requests) == 3
    assert len(sleeps) == 2
    assert 0.02 <= sleeps[0] <= 0.022 and 0.04 <= sleeps[1] <= 0.044  # exponential, 10% jitter


def test_a_slow_reply_hits_the_timeout(server, contract):
    server.script = [Step(body=completion(GOOD), delay=5), Step(body=completion(GOOD), delay=5)]
    started = time.monotonic()
    with pytest.raises(EngineUnavailableError) as err:
        engine_for(server, timeout=0.4, max_retries=1).propose(contract, "x", context_of(contract), author="Ana")
    assert err.value.message == "the LLM endpoint timed out; gave up after 2 attempt(s)"
    assert len(server.requests) == 2
    assert time.monotonic() - started < 4


def test_a_refused_key_is_not_retried(server, contract):
    server.script = [Step(401, {"error": {"code": "401", "message": "Access denied due to invalid subscription key."}})]
    with pytest.raises(EngineUnavailableError, match=r"refused the key \(HTTP 401\)"):
        engine_for(server).propose(contract, "x", context_of(contract), author="Ana")
    assert len(server.requests) == 1


def test_a_model_without_json_schema_is_asked_for_json_object(server, contract):
    unsupported = {"error": {"code": "BadRequest", "message": "response_format json_schema is not supported by this model"}}
    server.script = [Step(400, unsupported), Step(body=completion(GOOD))]
    p = engine_for(server).propose(contract, "Make it 45 days", context_of(contract), author="Ana")
    assert len(p.edits) == 2
    assert server.requests[0].body["response_format"]["type"] == "json_schema"
    assert server.requests[1].body["response_format"] == {"type": "json_object"}


def test_context_may_be_units_or_pairs_and_defaults_to_named_units(server, contract):
    reply = json.dumps({"explanation": "x", "edits": [{"op": "delete", "unit": "li2"}]})
    server.script = [Step(body=completion(reply)), Step(body=completion(reply))]
    engine = engine_for(server)
    engine.propose(contract, "Drop the logs item", [contract.unit("li2"), (contract.unit("s21"), "parent")], author="A")
    first = server.requests[0].body["messages"][1]["content"]
    assert "### li2 | list_item | style List Bullet\nLogs are kept for 90 days." in first
    assert "### s21 | section | Section 2.1 | style Heading 2 | why: parent" in first
    engine.propose(contract, "Tidy up Section 2.1 please", None, author="A")
    second = server.requests[1].body["messages"][1]["content"]
    assert "### s21 | section | Section 2.1 | style Heading 2 | why: named in the instruction (Section 2.1)" in second
    assert "### li2 | list_item | style List Bullet | why: content of Section 2.1" in second
    assert "Payment is due" not in second


def test_config_from_environment():
    env = {"LEDGER_LLM_ENDPOINT": "https://x.services.ai.azure.com/models", "LEDGER_LLM_KEY": "k",
           "LEDGER_LLM_MODEL": "gpt-4o-mini", "LEDGER_LLM_API_VERSION": "2024-05-01-preview",
           "LEDGER_LLM_TIMEOUT": "12.5", "LEDGER_LLM_MAX_RETRIES": "3", "LEDGER_LLM_RESPONSE_FORMAT": "json_object"}
    cfg = LLMConfig.from_env(env)
    assert (cfg.endpoint, cfg.key, cfg.model, cfg.api_version, cfg.timeout, cfg.max_retries, cfg.response_format) == (
        "https://x.services.ai.azure.com/models", "k", "gpt-4o-mini", "2024-05-01-preview", 12.5, 3, "json_object")
    assert llm_configured(env) and not llm_configured({"LEDGER_LLM_KEY": "k"})
    with pytest.raises(EngineUnavailableError, match="set LEDGER_LLM_ENDPOINT and LEDGER_LLM_KEY"):
        LLMConfig.from_env({})
    with pytest.raises(EngineUnavailableError, match="misconfigured"):
        LLMConfig.from_env({**env, "LEDGER_LLM_TIMEOUT": "soon"})
    with pytest.raises(EngineUnavailableError, match="LEDGER_LLM_RESPONSE_FORMAT must be one of"):
        LLMConfig.from_env({**env, "LEDGER_LLM_RESPONSE_FORMAT": "yaml"})


def test_select_engine_names(contract):
    assert isinstance(select_engine("rules"), RulesEngine)
    with pytest.raises(EngineUnavailableError, match="not configured"):
        select_engine("llm", env={})
    auto = select_engine("auto", env={})
    assert isinstance(auto, AutoEngine) and auto.llm is None
    with pytest.raises(InstructionNotUnderstoodError, match="It understands"):
        auto.propose(contract, "Make the tone friendlier", author="A")


def test_auto_goes_to_the_llm_only_when_the_rules_cannot_parse(server, contract):
    env = {"LEDGER_LLM_ENDPOINT": server.endpoint, "LEDGER_LLM_KEY": "k", "LEDGER_LLM_MODEL": "gpt-test"}
    auto = select_engine("auto", env=env)
    reply = json.dumps({"explanation": "Friendlier.", "edits": [
        {"op": "set_text", "unit": "p6", "text": "Either party may end this agreement with thirty days notice."}]})
    server.script = [Step(body=completion(reply))]
    p = auto.propose(contract, "Make the termination clause friendlier", [contract.unit("p6")], author="A")
    assert p.engine == "llm" and p.edits[0].op == "set_text"
    assert p.warnings[0] == "the rules engine could not parse the instruction; the LLM engine answered"
    q = auto.propose(contract, "Delete Figure 1", author="A")
    assert q.engine == "rules" and [e.unit for e in q.edits] == ["f1", "c1"]
    assert len(server.requests) == 1


def test_the_rules_path_never_imports_the_azure_sdk():
    code = (
        "import sys\n"
        "from tests.addin_backend.edits.docs import contract_doc\n"
        "from addin_backend.edits import select_engine, rules, validate_edits\n"
        "doc = contract_doc()\n"
        "rules.propose(doc, 'Rename widget to gadget', author='A')\n"
        "select_engine('auto', env={}).propose(doc, 'Delete Figure 1', author='A')\n"
        "print(sorted(m for m in sys.modules if m.startswith('azure')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
