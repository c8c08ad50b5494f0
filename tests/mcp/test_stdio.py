"""``ledger mcp`` over stdio, driven by the MCP SDK's own client as Claude Desktop or VS Code drive it.

A full agent session on real corpus documents (.odt and .docx): open -> outline -> find ->
get_context -> propose_operations (a replacement the "agent" writes) -> apply_proposal; the
written copy is opened in real LibreOffice: the redlines carry the author, Accept All gives the
intended text, Reject All the original. A rename through propose_edit brings its propagated
operation. Refusals are tool errors with the REST API's codes, and the server stays up.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
from pathlib import Path

import anyio
import pytest
from mcp_types import ListRootsResult, Root

from addin_backend.mcp.server import PROMPT_NAME, READ_ONLY_TOOLS, TOOL_NAMES, WRITING_TOOLS
from tests.addin_backend.api.bad_inputs import bad_input
from tests.conftest import corpus_file
from tests.libreoffice import probe, require_libreoffice

from .helpers import AUTHOR, Progress, ok, refused, stdio_client


@pytest.fixture
def root(tmp_path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    for name in ("referenceAllInOne.odt", "zen_of_python.docx"):
        shutil.copyfile(corpus_file(name), folder / name)
    return folder


def _run(scenario, *args):
    return anyio.run(scenario, *args)


def _lo_texts(path: Path) -> list[str]:
    (seen,) = probe([path], ("paragraphs",))
    return [p["text"] for p in seen["paragraphs"]]


# --- what the server offers ---------------------------------------------------------------------


def test_the_tools_resources_and_prompt_are_listed_with_schemas_and_annotations(root):
    async def scenario():
        async with stdio_client(root) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            templates = [t.uri_template for t in (await c.list_resource_templates()).resource_templates]
            prompts = [p.name for p in (await c.list_prompts()).prompts]
            return tools, templates, prompts, c.instructions

    tools, templates, prompts, instructions = _run(scenario)
    assert sorted(tools) == sorted(TOOL_NAMES)
    for name, tool in tools.items():
        assert tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object", name
        assert tool.description and tool.title, name
        notes = tool.annotations
        assert notes.open_world_hint is False, name
        if name in READ_ONLY_TOOLS:
            assert notes.read_only_hint is True and notes.destructive_hint is False, name
        else:
            # over stdio a writer replaces files (a copy it wrote, or the input with overwrite=true)
            assert notes.read_only_hint is False and notes.destructive_hint is True, name
    assert tools["apply_proposal"].annotations.idempotent_hint is False
    assert tools["accept_all"].annotations.idempotent_hint is True
    assert set(WRITING_TOOLS) == {"apply_proposal", "accept_all", "reject_all"}
    # the agent writes operations in the REST API's schema
    ops = tools["propose_operations"].input_schema["properties"]["operations"]
    assert ops["type"] == "array" and "replace" in ops["items"]["properties"]["op"]["enum"]
    assert tools["propose_edit"].output_schema["required"] == tools["propose_operations"].output_schema["required"]
    assert "#/$defs/Operation" in json.dumps(tools["propose_operations"].output_schema)
    assert "ledger://documents/{document_id}/graph" in templates
    assert "ledger://documents/{document_id}/graph.graphml" in templates
    assert "ledger://documents/{document_id}/text" in templates
    assert prompts == [PROMPT_NAME]
    assert "get_context" in instructions and "propose_operations" in instructions


# --- a full session on real documents -------------------------------------------------------------

SESSIONS = {
    "referenceAllInOne.odt": ("A reference to Some text", "A reference", "One reference"),
    "zen_of_python.docx": ("Special cases aren't special enough", "Special cases", "Exceptions"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_a_full_agent_session_on_a_corpus_document_opens_in_libreoffice_as_intended(root, name):
    require_libreoffice()
    query, old, new = SESSIONS[name]
    source = root / name
    original = _lo_texts(source)

    async def scenario():
        progress = Progress()
        async with stdio_client(root) as c:
            opened = ok(await c.call_tool("open_document", {"path": name}, progress_callback=progress))
            doc_id = opened["document_id"]
            assert opened["graph"]["complete"] is True and opened["units"] > 0 and opened["tokens"] > 0
            outline = ok(await c.call_tool("outline", {"document_id": doc_id}))
            assert outline["document"] == doc_id
            found = ok(await c.call_tool("find", {"document_id": doc_id, "query": query}))
            unit = found["matches"][0]["id"]
            instruction = f"Replace '{old}' with '{new}'"
            context = ok(await c.call_tool("get_context", {"document_id": doc_id, "instruction": instruction,
                                                           "target": unit}))
            assert context["targets"] == [unit] and context["context"][0]["id"] == unit
            assert all(item["reason"] and item["tokens"] >= 0 for item in context["context"])
            # the agent writes the replacement itself, from the unit's text
            text = ok(await c.call_tool("read_units", {"document_id": doc_id, "ids": [unit]}))["units"][0]["text"]
            at = text.index(old)
            operation = {"op": "replace", "unit": unit, "start": at, "end": at + len(old), "text": new,
                         "before": text, "reason": instruction}
            proposal = ok(await c.call_tool("propose_operations", {
                "document_id": doc_id, "operations": [operation], "instruction": instruction}))
            assert proposal["engine"] == "client" and proposal["propagated"] == []
            assert [(op["id"], op["old"], op["text"], op["source"]) for op in proposal["operations"]] == [
                ("op-1", old, new, "client")]
            assert [f for f in proposal["findings"] if f["severity"] == "error"] == []
            applied = ok(await c.call_tool("apply_proposal", {"document_id": doc_id, "proposal_id": proposal["id"],
                                                              "author": AUTHOR}))
            return opened, text, applied, progress

    opened, text, applied, progress = _run(scenario)
    written = Path(applied["path"])
    stem, ext = os.path.splitext(name)
    assert written == (root / f"{stem}.ledger{ext}").resolve() and written.is_file()
    assert applied["revision"] == 1 and applied["findings"] == []
    assert [op["author"] for op in applied["operations"]] == [AUTHOR]
    assert applied["summary"]["operations"] == 1 and AUTHOR in applied["summary"]["text"]
    assert progress.seen and all(total == 1.0 for _, total, _ in progress.seen)  # the graph job's stages
    assert source.read_bytes() == corpus_file(name).read_bytes()  # the input is untouched
    (seen,) = probe([written], ("redlines", "accepted", "rejected"))
    assert "error" not in seen, seen
    assert seen["redlines"] and {r["author"] for r in seen["redlines"]} == {AUTHOR}
    assert {r["type"] for r in seen["redlines"]} == {"Delete", "Insert"}
    assert seen["accepted"] == [t.replace(text, text.replace(old, new, 1)) if t == text else t for t in original]
    assert seen["accepted"] != original
    assert seen["rejected"] == original


@pytest.mark.slow
def test_a_rename_proposed_by_the_rules_engine_brings_its_propagated_changes(root):
    require_libreoffice()
    from benchmarks.synth import build, write_package

    path = write_package(build("5k", 0), root, "docx")
    original = _lo_texts(path)

    async def scenario():
        async with stdio_client(root) as c:
            doc_id = ok(await c.call_tool("open_document", {"path": path.name}))["document_id"]
            found = ok(await c.call_tool("find", {"document_id": doc_id, "query": "We define net load as"}))
            definer = found["matches"][0]["id"]
            impact = ok(await c.call_tool("impact", {"document_id": doc_id, "unit_id": definer}))
            users = [i["unit"] for i in impact["impacted"] if i["via"][0]["type"] == "DEPENDS"]
            proposal = ok(await c.call_tool("propose_edit", {
                "document_id": doc_id, "instruction": "Rename 'net load' to 'residual load' in this paragraph",
                "target": definer, "author": AUTHOR}))
            applied = ok(await c.call_tool("apply_proposal", {"document_id": doc_id, "proposal_id": proposal["id"],
                                                              "author": AUTHOR}))
            return definer, users, proposal, applied

    definer, users, proposal, applied = _run(scenario)
    ops = {op["id"]: op for op in proposal["operations"]}
    assert [ops[i]["unit"] for i in ops if i not in proposal["propagated"]] == [definer]
    assert proposal["propagated"], proposal
    for pid in proposal["propagated"]:
        op = ops[pid]
        assert op["source"] == "op-1" and op["unit"] in users
        assert op["reason"].startswith("DEPENDS: uses 'net load'") and op["text"].lower() == "residual load"
    assert applied["summary"]["propagated"] == len(proposal["propagated"])
    (seen,) = probe([Path(applied["path"])], ("redlines", "accepted", "rejected"))
    assert {r["author"] for r in seen["redlines"]} == {AUTHOR}
    assert not any("net load" in t.lower() for t in seen["accepted"])
    assert seen["rejected"] == original


# --- refusals ---------------------------------------------------------------------------------------


def test_refusals_are_tool_errors_with_the_rest_codes_and_the_server_stays_up(root, tmp_path):
    (root / "notes.docx").write_bytes(b"Dear reader, this is plain text.\n")
    (root / "locked.docx").write_bytes(bad_input("encrypted_ooxml"))
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.copyfile(root / "referenceAllInOne.odt", outside / "elsewhere.odt")
    (root / "link.odt").symlink_to(outside / "elsewhere.odt")

    async def scenario():
        async with stdio_client(root) as c:
            call = c.call_tool
            errors = {
                "absolute": refused(await call("open_document", {"path": str(outside / "elsewhere.odt")}),
                                    "path_not_allowed"),
                "dotdot": refused(await call("open_document", {"path": "../outside/elsewhere.odt"}),
                                  "path_not_allowed"),
                "symlink": refused(await call("open_document", {"path": "link.odt"}), "path_not_allowed"),
                "missing": refused(await call("open_document", {"path": "nothing.docx"}), "file_not_readable"),
                "text": refused(await call("open_document", {"path": "notes.docx"}), "not_a_document"),
                "encrypted": refused(await call("open_document", {"path": "locked.docx"}), "encrypted"),
                "two_sources": refused(await call("open_document", {"path": "a.docx", "document_id": "x"}),
                                       "invalid_request"),
                "no_document": refused(await call("outline", {"document_id": "0" * 24}), "unknown_document"),
            }
            doc_id = ok(await call("open_document", {"path": "referenceAllInOne.odt"}))["document_id"]
            units = ok(await call("read_units", {"document_id": doc_id}))["units"]
            unit = next(u for u in units if u["text"].startswith("A reference"))
            errors.update({
                "unknown_unit": refused(await call("read_units", {"document_id": doc_id, "ids": ["p-nothing"]}),
                                        "unknown_unit"),
                "unknown_target": refused(await call("get_context", {"document_id": doc_id, "instruction": "x",
                                                                     "target": "p-nothing"}), "unknown_unit"),
                "bad_op": refused(await call("propose_operations", {"document_id": doc_id,
                                                                    "operations": [{"op": "explode"}]}),
                                  "invalid_request"),
                "op_unknown_unit": refused(await call("propose_operations", {
                    "document_id": doc_id, "operations": [{"op": "delete", "unit": "p-nothing"}]}), "unknown_unit"),
                "op_stale": refused(await call("propose_operations", {
                    "document_id": doc_id, "operations": [{"op": "replace", "unit": unit["id"], "start": 0, "end": 1,
                                                           "text": "B", "before": "Not the text any more"}]}),
                    "edit_conflict"),
                "op_span": refused(await call("propose_operations", {
                    "document_id": doc_id, "operations": [{"op": "replace", "unit": unit["id"], "start": 5,
                                                           "end": 500, "text": "B"}]}), "invalid_request"),
                "bad_argument": refused(await call("read_units", {"document_id": doc_id, "limit": 0}),
                                        "invalid_request"),
                "no_proposal": refused(await call("apply_proposal", {"document_id": doc_id, "proposal_id": "f" * 16,
                                                                     "author": AUTHOR}), "unknown_proposal"),
                "output_outside": refused(await call("apply_proposal", {
                    "document_id": doc_id, "proposal_id": "f" * 16, "author": AUTHOR,
                    "output_path": str(outside / "x.odt")}), "path_not_allowed"),
            })
            # never the input, unless told to
            proposal = ok(await call("propose_edit", {"document_id": doc_id,
                                                      "instruction": "Replace 'A reference' with 'One reference'"}))
            errors["input"] = refused(await call("apply_proposal", {
                "document_id": doc_id, "proposal_id": proposal["id"], "author": AUTHOR,
                "output_path": "referenceAllInOne.odt"}), "path_not_allowed")
            # still up, and still answering
            tools = await c.list_tools()
            outline = ok(await call("outline", {"document_id": doc_id}))
            return errors, tools, outline

    errors, tools, outline = _run(scenario)
    assert "outside the allowed roots" in errors["absolute"]["message"]
    assert errors["symlink"]["details"]["path"] == "link.odt"
    assert errors["op_unknown_unit"]["details"] == {"unit": "p-nothing"}
    assert errors["bad_op"]["details"]["field"] == "operations/0/op"
    assert "limit" in errors["bad_argument"]["message"]
    assert "input document" in errors["input"]["message"]
    assert len(tools.tools) == len(TOOL_NAMES) and outline["outline"]
    assert (root / "referenceAllInOne.odt").read_bytes() == corpus_file("referenceAllInOne.odt").read_bytes()


def test_the_client_roots_are_allowed_too(root, tmp_path):
    other = tmp_path / "client-root"
    other.mkdir()
    shutil.copyfile(root / "referenceAllInOne.odt", other / "theirs.odt")

    async def roots(_ctx):
        return ListRootsResult(roots=[Root(uri=other.as_uri(), name="client")])

    async def scenario(with_roots: bool):
        async with stdio_client(root, **({"list_roots_callback": roots} if with_roots else {})) as c:
            return await c.call_tool("open_document", {"path": str(other / "theirs.odt")})

    assert ok(_run(scenario, True))["path"] == str((other / "theirs.odt").resolve())
    refused(_run(scenario, False), "path_not_allowed")


# --- stable ids, uploads, resources, the prompt -------------------------------------------------------


def test_reopening_an_unchanged_file_keeps_its_ids_and_an_upload_works_too(root):
    data = (root / "referenceAllInOne.odt").read_bytes()

    async def scenario():
        async with stdio_client(root) as c:
            first = ok(await c.call_tool("open_document", {"path": "referenceAllInOne.odt"}))
            units = ok(await c.call_tool("read_units", {"document_id": first["document_id"]}))
            again = ok(await c.call_tool("open_document", {"path": str(root / "referenceAllInOne.odt")}))
            uploaded = ok(await c.call_tool("open_document", {"content_base64": base64.b64encode(data).decode(),
                                                              "filename": "upload.odt", "wait_for_graph": False}))
            units2 = ok(await c.call_tool("read_units", {"document_id": uploaded["document_id"]}))
            return first, again, uploaded, units, units2

    first, again, uploaded, units, units2 = _run(scenario)
    assert again["document_id"] == first["document_id"] and again["reused"] is True and first["reused"] is False
    assert uploaded["document_id"] != first["document_id"] and uploaded["path"] is None
    assert [u["id"] for u in units2["units"]] == [u["id"] for u in units["units"]]  # same bytes, same unit ids


def test_the_graph_and_text_views_are_resources_and_the_prompt_tells_the_loop(root):
    async def scenario():
        async with stdio_client(root) as c:
            doc_id = ok(await c.call_tool("open_document", {"path": "referenceAllInOne.odt"}))["document_id"]
            base = f"ledger://documents/{doc_id}"
            graph = (await c.read_resource(base + "/graph")).contents[0]
            graphml = (await c.read_resource(base + "/graph.graphml")).contents[0]
            text = (await c.read_resource(base + "/text")).contents[0]
            listing = (await c.read_resource("ledger://documents")).contents[0]
            prompt = await c.get_prompt(PROMPT_NAME, {"document": "referenceAllInOne.odt",
                                                      "instruction": "Renumber the sections"})
            return doc_id, graph, graphml, text, listing, prompt

    doc_id, graph, graphml, text, listing, prompt = _run(scenario)
    data = json.loads(graph.text)
    assert graph.mime_type == "application/json" and data["complete"] is True
    assert {e["type"] for e in data["edges"]} >= {"CONTAINS", "REFERENCES"}
    assert graphml.mime_type == "application/graphml+xml" and "<graphml" in graphml.text
    assert "A reference to Some text" in text.text
    assert json.loads(listing.text)["documents"][0]["document_id"] == doc_id
    words = prompt.messages[0].content.text
    loop = [words.index(step) for step in ("open_document", "get_context", "propose_operations", "apply_proposal")]
    assert loop == sorted(loop) and "Renumber the sections" in words
