"""The edit pipeline (plan_edit / apply_plan) and the ``ledger context`` / ``ledger edit`` /
``ledger accept`` / ``ledger reject`` commands."""
from __future__ import annotations

import json

import pytest

from adapters.model import edit_from_json
from addin_backend.edits import apply_to_document
from addin_backend.edits.pipeline import apply_plan, merge_findings, plan_edit
from addin_backend.errors import InstructionNotUnderstoodError
from addin_backend.findings import Finding
from addin_backend.graph import build_graph
from addin_backend.graph.build import FAST_STAGES

from .edits.docs import contract  # noqa: F401  (fixture)
from .edits.propagate_docs import report_doc


@pytest.fixture(scope="module")
def synth_docx(tmp_path_factory):
    from benchmarks.synth import build, write_package

    return write_package(build("10k", 0), tmp_path_factory.mktemp("synth"), "docx")


def test_plan_a_deletion_on_a_hand_built_document():
    doc = report_doc()
    plan = plan_edit(doc, build_graph(doc, stages=FAST_STAGES), "Delete Figure 2", author="Ana", semantic=False)
    assert [(e.op, e.unit, e.id, e.author) for e in plan.operations] == [
        ("delete", "f2", "op-1", "Ana"), ("delete", "c2", "op-2", "Ana")]
    assert sorted((e.unit, e.old, e.text) for e in plan.propagated) == [
        ("c3", "3", "2"), ("p1", "2-3", "2"), ("p1", "3", "2"), ("p1", "Figures", "Figure"),
        ("p2", "3", "2"), ("p3", "3", "2"), ("p4", "3", "2")]
    assert {e.source for e in plan.propagated} == {"op-1"}
    assert [(f.kind, f.unit) for f in plan.findings] == [
        ("reference_to_deleted", "p1"), ("reference_to_deleted", "p2"), ("reference_to_deleted", "p3")]
    assert plan.targets == ["f2"]
    assert plan.renumbered == {"Figure 3": "Figure 2"}
    assert 0 < plan.tokens()["context"] <= 1500
    data = plan.to_json()
    assert set(data) == {"instruction", "engine", "explanation", "targets", "operations", "propagated",
                         "renumbered", "findings", "tokens", "context"}
    assert data["context"][0] == {"id": "f2", "edge": "TARGET", "hops": 0, "tokens": data["context"][0]["tokens"],
                                  "reason": "the unit to edit"}
    json.dumps(data)


def test_plan_a_rename_updates_a_field_showing_the_renamed_caption(contract):
    plan = plan_edit(contract, build_graph(contract, stages=FAST_STAGES), "Rename 'widget' to 'gadget' everywhere",
                     author="Ana", semantic=False)
    assert len(plan.operations) == 11
    # expand_rename leaves field results alone; propagation updates the cached result of the
    # reference field that shows the renamed caption
    assert [(e.unit, e.old, e.text, e.reason) for e in plan.propagated] == [
        ("p8", "Widget", "Gadget", "REFERENCES (field): the cached result shows the renamed Figure 2")]
    assert [f for f in plan.findings if f.kind == "old_term"] == []
    assert plan.context is not None and plan.targets[0] == "t"


def test_plan_a_value_change_lists_other_statements(contract):
    plan = plan_edit(contract, build_graph(contract, stages=FAST_STAGES),
                     "Change the retention period from 30 days to 45 days", author="Ana", semantic=False)
    assert [(f.kind, f.unit) for f in plan.findings] == [
        ("same_value", "p1"), ("same_value", "p4"), ("same_value", "li1"), ("same_value", "p5"), ("same_value", "p6")]


def test_an_instruction_the_rules_do_not_understand(contract):
    with pytest.raises(InstructionNotUnderstoodError):
        plan_edit(contract, build_graph(contract, stages=FAST_STAGES), "Make it sound friendlier", author="Ana",
                  semantic=False)


def test_plan_a_section_move_on_the_benchmark_is_verified_clean(synth_docx):
    from adapters import read_path

    doc = read_path(str(synth_docx))
    G = build_graph(doc, stages=FAST_STAGES)
    plan = plan_edit(doc, G, "Move Section 4 before Section 2", author="Ana", semantic=False)
    assert [e.op for e in plan.operations] == ["move"]
    assert len(plan.propagated) >= 20
    assert plan.findings == []
    after = apply_to_document(doc, plan.edits)
    # the section moved holds Figure 1 of the original; every figure mention still names its figure
    assert plan.renumbered["Section 4"] == "Section 2"
    G_after = build_graph(after, stages=FAST_STAGES)
    assert [b["label"] for b in G_after.graph["broken_references"]] == ["Table 87"]


def test_merge_findings_drops_what_verification_repeats():
    a = Finding("reference_to_deleted", "error", "p1", "from propagation", "Figure 2", ["f2"], 0, 8)
    b = Finding("reference_to_deleted", "error", "p1", "from verification", "Figure 2", ["f2"], 0, 8)
    c = Finding("stale_field", "warning", "p1", "other", "Figure 3", ["c3"])
    assert merge_findings([a], [b, c]) == [a, c]


# --- writing ---------------------------------------------------------------------------------


def test_apply_plan_reads_back_as_planned(synth_docx):
    from adapters import read, read_path

    doc = read_path(str(synth_docx))
    plan = plan_edit(doc, build_graph(doc, stages=FAST_STAGES), "Delete Figure 1", author="Ana", semantic=False)
    applied = apply_plan(synth_docx.read_bytes(), doc, plan.edits)
    assert applied.findings == []
    assert read(applied.data).lines("accepted") == apply_to_document(doc, plan.edits).lines()


def test_edit_accept_reject_commands(synth_docx, tmp_path, capsys):
    from adapters import read_path
    from addin_backend.cli import main

    out = tmp_path / "edited.docx"
    rc = main(["edit", str(synth_docx), "--instruction", "Delete Figure 1", "--author", "Ana", "-o", str(out),
               "--no-semantic", "--json"])
    assert rc == 0
    report = json.loads(capsys.readouterr().out)
    assert report["output"] == str(out) and len(report["propagated"]) > 0
    assert main(["accept", str(out), "-o", str(tmp_path / "accepted.docx")]) == 0
    assert main(["reject", str(out), "-o", str(tmp_path / "rejected.docx")]) == 0
    original = read_path(str(synth_docx))
    assert read_path(str(tmp_path / "rejected.docx")).lines() == original.lines()
    expected = apply_to_document(original, [edit_from_json(e) for e in report["operations"] + report["propagated"]])
    assert read_path(str(tmp_path / "accepted.docx")).lines() == expected.lines()


# --- ledger context --------------------------------------------------------------------------


def test_context_command_json(synth_docx, capsys):
    from addin_backend.cli import main

    rc = main(["context", str(synth_docx), "--find", "Equation (1) also holds for the smaller sites",
               "--no-semantic", "--budget", "600", "--json"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert {"targets", "context", "tokens", "document_tokens", "dropped"} <= set(out)
    first = out["context"][0]
    assert first["edge"] == "TARGET" and first["priority"] is None and first["id"] == out["targets"][0]
    assert {"id", "edge", "hops", "priority", "tokens", "reason"} <= set(first)
    assert "text" not in first
    assert any(c["edge"] == "REFERENCES" and c["label"] == "Equation (1)" for c in out["context"])
    assert out["tokens"] <= 600 < out["document_tokens"]


def test_context_command_errors(synth_docx, capsys):
    from addin_backend.cli import main

    assert main(["context", str(synth_docx), "--target", "p-nope", "--json", "--no-semantic"]) == 3
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "unknown_unit"
    assert main(["context", str(synth_docx), "--target", "p-nope", "--weights", "SIDEWAYS=3"]) == 3
    assert "invalid_request: --weights: unknown weight 'sideways'" in capsys.readouterr().err


def test_edit_command_reports_instruction_errors(synth_docx, tmp_path, capsys):
    from addin_backend.cli import main

    rc = main(["edit", str(synth_docx), "--instruction", "Make it sound friendlier", "-o", str(tmp_path / "x.docx"),
               "--no-semantic", "--json"])
    assert rc == 3
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "instruction_not_understood"
    assert not (tmp_path / "x.docx").exists()


def test_plan_with_the_llm_engine_sends_the_retrieved_context_and_reports_usage():
    from addin_backend.edits import LLMConfig, LLMEngine

    from .edits.chat_server import ChatServer, Step, completion

    doc = report_doc()
    reply = json.dumps({"explanation": "Remove Figure 2.", "edits": [
        {"op": "delete", "unit": "f2", "reason": "the user asked"}, {"op": "delete", "unit": "c2", "reason": "its caption"}]})
    with ChatServer() as srv:
        srv.script = [Step(body=completion(reply, prompt_tokens=410, completion_tokens=30))]
        engine = LLMEngine(LLMConfig(endpoint=srv.endpoint, key="k", model="gpt-test", api_version="2024-08-01-preview",
                                     timeout=5.0, max_retries=0, backoff=0.01))
        plan = plan_edit(doc, build_graph(doc, stages=FAST_STAGES), "Drop Figure 2, it is outdated", engine=engine,
                         author="Ana", semantic=False)
        (req,) = srv.requests
    user = req.body["messages"][1]["content"]
    assert "### f2 | figure | Figure 2" in user  # the target, found by its label
    assert "### p2 | paragraph" in user  # a unit that cites it (REFERENCES)
    assert [(e.op, e.unit) for e in plan.operations] == [("delete", "f2"), ("delete", "c2")]
    assert len(plan.propagated) == 7 and plan.engine == "llm"
    assert plan.tokens()["llm"] == {"prompt_tokens": 410, "completion_tokens": 30, "total_tokens": 440,
                                    "requests": 1, "model": "gpt-test"}
    assert plan.tokens()["context"] == plan.context.tokens > 0
