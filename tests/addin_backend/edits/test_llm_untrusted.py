"""Issue 33, item 8: the model is untrusted. Against real HTTP servers on loopback that misbehave
as a model server may: a redirect to another host, an answer of 150 MB, a server that never
answers or trickles its answer, answers nested deep or holding lone surrogates, and written text
with bidirectional controls. Each is refused with a clear ``EngineUnavailableError`` (a 503 on the
doors, never a 500) within the call's one deadline, and the key stays on the configured host.
"""
from __future__ import annotations

import json
import time

import pytest

from addin_backend.budget import budget
from addin_backend.edits.llm import LLMConfig, LLMEngine
from addin_backend.errors import EngineUnavailableError
from tests.addin_backend.edits.chat_server import ChatServer, Step, completion
from tests.addin_backend.edits.docs import contract  # noqa: F401 - fixture
from tests.addin_backend.edits.test_llm_engine import GOOD, context_of


@pytest.fixture
def server():
    with ChatServer() as srv:
        yield srv


def engine_for(srv: ChatServer, **over) -> LLMEngine:
    cfg = dict(endpoint=srv.endpoint, key="sekret-key", model="gpt-test", timeout=5.0, max_retries=2, backoff=0.01)
    cfg.update(over)
    return LLMEngine(LLMConfig(**cfg))


def _propose(srv: ChatServer, doc, **over):
    return engine_for(srv, **over).propose(doc, "Make it 45 days", context_of(doc), author="Ana")


def test_a_redirect_to_another_host_is_not_followed_and_the_key_stays(server, contract):
    with ChatServer() as elsewhere:
        server.script = [Step(307, {}, {"Location": elsewhere.endpoint.replace("127.0.0.1", "localhost")
                                         + "/chat/completions"})]
        with pytest.raises(EngineUnavailableError, match=r"HTTP 307 \(a redirect\); LEDGER follows none"):
            _propose(server, contract)
        assert len(server.requests) == 1 and elsewhere.requests == []


def test_an_answer_of_150_mb_is_read_only_to_its_cap(server, contract):
    # announced: refused from its Content-Length, before the body
    server.script = [Step(size=150 << 20)]
    with pytest.raises(EngineUnavailableError, match="announces 157,286,400 bytes"):
        _propose(server, contract, max_answer_mb=1.0)
    # not announced (the body ends when the server closes): read to the cap, then dropped
    server.sent = 0
    server.script = [Step(size=150 << 20, headers={"Content-Length": ""})]
    started = time.monotonic()
    with pytest.raises(EngineUnavailableError, match=r"over 1,048,576 bytes") as err:
        _propose(server, contract, max_answer_mb=1.0)
    assert err.value.details["reason"] == "invalid_output"
    time.sleep(0.2)
    assert server.sent < 16 << 20, server.sent  # the server could not push the rest: nobody read it
    assert time.monotonic() - started < 10


def test_a_model_that_never_answers_is_cut_at_the_calls_deadline(server, contract):
    server.script = [Step(hang=True) for _ in range(5)]
    started = time.monotonic()
    with pytest.raises(EngineUnavailableError, match="did not answer in time|deadline"):
        _propose(server, contract, timeout=60.0, max_retries=4, deadline=1.5)
    took = time.monotonic() - started
    assert took < 5, took  # was 60 s x 5 attempts
    assert len(server.requests) == 1


def test_a_model_that_trickles_is_cut_at_the_deadline(server, contract):
    # a byte every 0.1 s: each read gets a byte long before the idle timeout, so only the one
    # deadline over the call can stop it (the body would take about 60 s)
    server.script = [Step(body=completion(GOOD), trickle=0.1)]
    started = time.monotonic()
    with pytest.raises(EngineUnavailableError, match="did not answer in time|deadline"):
        _propose(server, contract, timeout=2.0, max_retries=0, deadline=2.0)
    took = time.monotonic() - started
    assert 1.5 < took < 6, took
    assert 5 < server.sent < 200


def test_the_request_budget_bounds_the_model_call(server, contract):
    server.script = [Step(hang=True)]
    started = time.monotonic()
    with budget(1.0, "the request"), pytest.raises(EngineUnavailableError):
        _propose(server, contract, timeout=60.0, deadline=120.0)
    assert time.monotonic() - started < 4


def test_retries_stop_when_the_deadline_leaves_no_time(server, contract):
    server.script = [Step(503, {"error": "busy"}, {"Retry-After": "30"}) for _ in range(3)]
    started = time.monotonic()
    with pytest.raises(EngineUnavailableError, match="leaves no time for another"):
        _propose(server, contract, deadline=5.0, max_backoff=60.0)
    assert time.monotonic() - started < 3 and len(server.requests) == 1


@pytest.mark.parametrize("body", [
    b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",  # deep nesting of the answer itself
    b'{"choices": [{"message": {"content": "\\ud800"}}]}',      # a lone surrogate in the answer's text
    b"\xff\xfe not UTF-8",
    b"[]",
])
def test_an_answer_that_is_no_chat_completion_is_refused_not_a_500(server, contract, body):
    server.script = [Step(raw=body)]
    with pytest.raises(EngineUnavailableError, match="cannot be used|not a chat completion|no text") as err:
        _propose(server, contract)
    assert err.value.code == "engine_unavailable"


def test_content_nested_deep_or_with_a_lone_surrogate_is_sent_back_then_used(server, contract):
    deep = "[" * 50_000 + "]" * 50_000
    surrogate = '{"explanation": "x", "edits": [{"op": "set_text", "unit": "p3", "text": "\\ud800"}]}'
    server.script = [Step(body=completion(deep)), Step(body=completion(GOOD))]
    p = _propose(server, contract)
    assert len(p.edits) == 2
    assert "nests deeper than 64 levels" in server.requests[1].body["messages"][-1]["content"]
    server.script = [Step(body=completion(surrogate)), Step(body=completion(surrogate))]
    with pytest.raises(EngineUnavailableError, match="lone surrogate"):
        _propose(server, contract)
    json.dumps(server.requests[-1].body)  # what was sent back is text


def test_a_right_to_left_override_in_written_text_is_sent_back_then_refused(server, contract):
    evil = json.dumps({"explanation": "x", "edits": [
        {"op": "replace", "unit": "p3", "old": "30 days", "occurrence": None, "text": "45 \u202edays",
         "after": None, "before_unit": None, "kind": None, "style": None, "reason": "r"}]})
    server.script = [Step(body=completion(evil)), Step(body=completion(evil))]
    with pytest.raises(EngineUnavailableError, match="U\\+202E") as err:
        _propose(server, contract)
    assert err.value.details["reason"] == "invalid_output"
    assert "U+202E" in server.requests[1].body["messages"][-1]["content"]


def test_the_environments_proxy_is_used_as_the_sdk_used_it(server, contract, monkeypatch):
    for var in ("NO_PROXY", "no_proxy", "HTTPS_PROXY", "https_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HTTP_PROXY", server.endpoint.rsplit("/", 1)[0])
    server.script = [Step(body=completion(GOOD))]
    p = engine_for(server, endpoint="http://model.invalid/models").propose(
        contract, "Make it 45 days", context_of(contract), author="Ana")
    assert len(p.edits) == 2 and server.requests[0].path == "/models/chat/completions"
    assert server.requests[0].headers["host"] == "model.invalid"


def test_a_request_waiting_for_the_model_holds_no_analysis(server, contract):
    # a proposal is work someone waits for (foreground.serving: the analysis of every document in
    # the process holds meanwhile), but not while the model answers: its wait frees the cores
    # (the all-attacks run: a 45 s model held every graph's semantic stage up to 120 s)
    import threading

    from addin_backend import foreground

    server.script = [Step(503, {"error": "busy"}, {"Retry-After": "0"}), Step(body=completion(GOOD), delay=0.6)]
    seen: list[int] = []
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.01):
            seen.append(foreground.busy())

    watcher = threading.Thread(target=watch)
    with foreground.serving():
        watcher.start()
        try:
            _propose(server, contract)
            assert foreground.busy() == 1  # the request's own work holds again once the answer is in
        finally:
            done.set()
            watcher.join()
    assert foreground.busy() == 0 and len(server.requests) == 2
    assert seen.count(0) >= 20, seen  # the 0.6 s the model took: nothing held
