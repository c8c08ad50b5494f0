"""``make bench-llm``'s cases and validators, against scripted answers on loopback (no model):
the validators must tell a consistent result from an inconsistent one."""
from __future__ import annotations

import io
import json

import pytest

from adapters import read
from adapters.model import SetText
from addin_backend.edits.llm import LLMEngine
from addin_backend.graph import build_graph
from benchmarks.llm_bench import (ARMS, TEXT_CAP, BenchCase, _capped, compact_operations, make_cases, rescore,
                                  score_case, table)
from tests.addin_backend.edits.chat_server import ChatServer, Step, completion
from tests.conftest import DEVSET_DOCS

DOC = DEVSET_DOCS / "rfc9002.A.docx"


@pytest.fixture(scope="module")
def rfc():
    if not DOC.exists():
        pytest.skip(f"the development set is not at {DOC.parent}")
    doc = read(DOC.read_bytes())
    return doc, build_graph(doc, semantic=False)


def reply(*ops):
    return completion(json.dumps({"operations": [dict(zip(("op", "unit", "old", "new"), o)) for o in ops]}))


def test_the_cases_cover_each_category_per_document(rfc):
    doc, _ = rfc
    cases = make_cases({"rfc9002": doc})
    assert [c.category for c in cases] == ["rename", "retitle", "delete"] * 2
    assert all(c.target and doc.get(c.target) for c in cases if c.category != "rename")
    assert cases[0].instruction == "Use 'probe deadline' instead of 'probe timeout' everywhere in the document"


def test_the_validators_score_a_good_and_a_bad_answer(rfc):
    doc, G = rfc
    rename, retitle, delete = make_cases({"rfc9002": doc})[:3]
    with ChatServer() as srv:
        engine = LLMEngine.from_env({"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": srv.endpoint})
        srv.script = [
            Step(body=reply(("rename", None, rename.old, rename.new))),
            # a replace in one unit only: the other statements of the term stay
            Step(body=reply(("replace", "U1", "probe timeout", "probe deadline"), ("replace", "U1", "PTO", "PTO"))),
            Step(body=reply(("delete", "U1", None, None))),  # the target comes first in the BM25 context
            Step(body=reply(("refuse", None, None, "cannot"))),
        ]
        good = score_case(doc, G, rename, "ledger", engine, 600, 900)
        once = next(u for u in doc.units if u.text.count("probe timeout") == 1)
        here = rename.__class__(**{**vars(rename), "instruction": "Use 'probe deadline' here", "selection": None,
                                   "target": once.id})
        local = score_case(doc, G, here, "window", engine, 600, 900)
        deleted = score_case(doc, G, delete, "bm25", engine, 600, 900)
        refused = score_case(doc, G, retitle, "bm25", engine, 600, 900)
    assert (good.answered, good.units, good.terms, good.consistent) == (True, True, True, True)
    assert good.prompt_tokens == 100 and good.context_tokens > 0
    assert (local.answered, local.units, local.terms, local.consistent) == (True, False, False, False)
    assert deleted.answered and deleted.units and deleted.refs and deleted.consistent
    assert (refused.answered, refused.consistent) == (False, False) and refused.error.startswith("instruction_not_understood")
    md = table([good, local, deleted, refused])
    assert md.count("\n") == 1 + len(ARMS)
    assert "| ledger | 1 | 100% | 100% | 100% | 1/1 | 100% |" in md


def test_forms_kept_on_purpose_are_consistent_and_forms_left_are_not():
    """On rfc9000, "connection ID" inside names of its own ("Destination Connection ID") is kept
    with its reason: the rename is consistent; a rename of a narrower term leaves forms of the
    old one, reported or not, and is not."""
    path = DEVSET_DOCS / "rfc9000.A.docx"
    if not path.exists():
        pytest.skip("rfc9000 is not in the development set")
    doc = read(path.read_bytes())
    G = build_graph(doc, semantic=False)
    case = next(c for c in make_cases({"rfc9000": doc}) if c.category == "rename")
    assert case.old == "connection ID"
    with ChatServer() as srv:
        engine = LLMEngine.from_env({"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": srv.endpoint})
        srv.script = [Step(body=reply(("rename", None, case.old, case.new))),
                      Step(body=reply(("rename", None, "source connection ID", "source connection identifier")))]
        whole = score_case(doc, G, case, "ledger", engine, 600, 900)
        one = score_case(doc, G, case, "ledger", engine, 600, 900)
    assert (whole.units, whole.terms, whole.consistent) == (True, True, True)
    assert (one.answered, one.units, one.terms, one.consistent) == (True, False, False, False)


def test_the_window_leaves_room_for_the_fixed_prompt_and_the_answer():
    from addin_backend.edits import llm_operations as ops
    from addin_backend.retrieval.tokens import count_tokens
    from benchmarks.llm_bench import window_for

    fixed = sum(count_tokens(m["content"]) for m in ops.build_messages(read(DOC.read_bytes()), "x", [])[0])
    for context in (2048, 4096, 8192):
        assert window_for(context) + fixed + ops.output_budget([], count_tokens, None) < context
    assert window_for(8192) - window_for(4096) > 3000


def test_references_are_judged_with_the_numbers_the_fields_will_show():
    """Deleting Section 9.2 of rfc9000 (headings numbered automatically) makes the old 9.3 the new
    9.2: mentions renumbered by propagation are valid, not broken references to a lost 9.2."""
    path = DEVSET_DOCS / "rfc9000.A.docx"
    if not path.exists():
        pytest.skip("rfc9000 is not in the development set")
    doc = read(path.read_bytes())
    G = build_graph(doc, semantic=False)
    section = next(u for u in doc.units if u.label == "Section 9.2")
    case = make_cases({"rfc9000": doc})[0].__class__("d", "rfc9000", "delete", "Section 9.2 is obsolete; remove it",
                                                     target=section.id)
    with ChatServer() as srv:
        engine = LLMEngine.from_env({"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": srv.endpoint})
        srv.script = [Step(body=reply(("delete", "U1", None, None)))]
        s = score_case(doc, G, case, "ledger", engine, 600, 900)
    assert (s.answered, s.units, s.refs, s.consistent) == (True, True, True, True)


def test_a_record_keeps_the_operations_and_why_a_case_failed(rfc):
    """``--json`` keeps what the engine proposed (a rename as one ``rename``, not its hundreds of
    replaces; no unit text) and which units and forms a partial rename missed; a refusal keeps
    its type and the model's reply."""
    doc, G = rfc
    rename, retitle, _ = make_cases({"rfc9002": doc})[:3]
    once = next(u for u in doc.units if u.text.count("probe timeout") == 1)
    here = BenchCase("local", "rfc9002", "rename", "Use 'probe deadline' here", target=once.id,
                     old=rename.old, new=rename.new)
    with ChatServer() as srv:
        engine = LLMEngine.from_env({"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": srv.endpoint})
        srv.script = [Step(body=reply(("rename", None, rename.old, rename.new))),
                      Step(body=reply(("replace", "U1", "probe timeout", "probe deadline"))),
                      Step(body=reply(("refuse", None, None, "cannot")))]
        good = score_case(doc, G, rename, "ledger", engine, 600, 900).to_json()
        local = score_case(doc, G, here, "window", engine, 600, 900).to_json()
        refused = score_case(doc, G, retitle, "bm25", engine, 600, 900).to_json()
    assert good["operations"] == [{"op": "rename", "text": "probe deadline", "old": "probe timeout", "source": "llm"}]
    assert (good["consistent"], good["units_missing"], good["forms_left"], good["refs_broken"]) == (True, [], [], [])
    assert (good["doc"], good["instruction"], good["arm"]) == ("rfc9002", rename.instruction, "ledger")
    at = once.text.index("probe timeout")  # the engine keeps the span to the words that change
    assert local["operations"] == [{"op": "replace", "unit": once.id, "text": "deadline", "start": at + 6,
                                    "end": at + 13, "old": "timeout", "source": "llm"}]
    others = [u.id for u in doc.units if u.id != once.id and "probe timeout" in u.text.lower()]
    assert local["consistent"] is False and local["units_missing"][:3] == others[:3]
    assert len(local["units_missing"]) == min(len(others), 20) + (len(others) > 20)
    assert local["forms_left"] and all(": 'probe timeout" in f.lower() for f in local["forms_left"][:20])
    assert (refused["operations"], refused["error_type"]) == (None, "InstructionNotUnderstoodError")
    assert "refuse" in refused["reply"] and refused["consistent"] is False
    assert all(len(v) <= TEXT_CAP for r in (good, local, refused) for v in r.values() if isinstance(v, str))
    assert len(json.dumps([good, local, refused])) < 8000


def test_long_text_is_cut_and_long_lists_say_how_many_more(rfc):
    doc, _ = rfc
    unit = max(doc.units, key=lambda u: len(u.text))
    assert len(unit.text) > TEXT_CAP
    ops, cut = compact_operations(doc, [SetText(unit=unit.id, text=unit.text + " more", before=unit.text)], "x")
    assert cut == 1 and len(ops[0]["text"]) == TEXT_CAP and "before" not in ops[0]
    assert _capped([str(i) for i in range(25)]) == [str(i) for i in range(20)] + ["… 5 more"]


def test_rescore_judges_the_stored_operations_again(rfc):
    """A record read back from JSON scores as it did, without the model; an edited record (the
    rename narrowed to one unit) is judged again, not copied."""
    doc, G = rfc
    rename, _, delete = make_cases({"rfc9002": doc})[:3]
    with ChatServer() as srv:
        engine = LLMEngine.from_env({"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": srv.endpoint})
        srv.script = [Step(body=reply(("rename", None, rename.old, rename.new))),
                      Step(body=reply(("delete", "U1", None, None))),
                      Step(body=reply(("refuse", None, None, "cannot")))]
        scores = [score_case(doc, G, rename, "ledger", engine, 600, 900),
                  score_case(doc, G, delete, "bm25", engine, 600, 900),
                  score_case(doc, G, delete, "window", engine, 600, 900)]
    for s in scores:
        s.path = str(DOC)
    records = json.loads(json.dumps([s.to_json() for s in scores]))
    again = rescore(records, log=io.StringIO())
    judged = ("answered", "units", "refs", "terms", "consistent", "units_missing", "forms_left", "refs_broken", "error")
    assert [[getattr(s, k) for k in judged] for s in again] == [[r[k] for k in judged] for r in records]
    assert table(again) == table(scores)
    once = next(u for u in doc.units if u.text.count("probe timeout") == 1)
    at = once.text.index("probe timeout")
    records[0]["operations"] = [{"op": "replace", "unit": once.id, "start": at, "end": at + 13,
                                 "text": "probe deadline"}]
    log = io.StringIO()
    narrowed = rescore(records[:1], log=log)[0]
    assert (narrowed.answered, narrowed.units, narrowed.terms, narrowed.consistent) == (True, False, False, False)
    assert narrowed.forms_left and "consistent True -> False" in log.getvalue()
