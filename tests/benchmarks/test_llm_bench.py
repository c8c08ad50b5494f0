"""``make bench-llm``'s cases and validators, against scripted answers on loopback (no model):
the validators must tell a consistent result from an inconsistent one."""
from __future__ import annotations

import json

import pytest

from adapters import read
from addin_backend.edits.llm import LLMEngine
from addin_backend.graph import build_graph
from benchmarks.llm_bench import ARMS, make_cases, score_case, table
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
