"""Issue 24, items 20 and 21: ``ledger mcp`` driven by the SDK's own client over stdio.

The MCP door checks control characters as the REST door does (a NUL is ``invalid_request``, not
an ``adapter_error`` at apply); it reads regular files only (a FIFO under a root is refused at
once instead of parking a thread forever), a NUL in a path is a coded refusal, and an output is
written to a new file renamed into place, so a hard link inside a root cannot carry a write to a
file outside it.
"""
from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest

from .helpers import AUTHOR, ok, refused, stdio_client
from tests.adapters.docx.docxkit import paragraphs_docx as _docx


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path]:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "in.docx").write_bytes(_docx(["The first paragraph is fine.", "The second paragraph is fine too."]))
    (outside / "target.docx").write_bytes(b"a file outside the root, not to be written")
    os.link(outside / "target.docx", root / "link.docx")
    os.mkfifo(root / "pipe.docx")
    return root, outside


async def _proposal(call, doc: str) -> dict:
    unit = ok(await call("read_units", {"document_id": doc}))["units"][0]
    return ok(await call("propose_operations", {"document_id": doc, "operations": [
        {"op": "set_text", "unit": unit["id"], "before": unit["text"], "text": unit["text"].replace("fine", "good")}]}))


def test_item20_item21_a_nul_is_a_coded_refusal_in_a_path_and_in_an_author(folders):
    """A NUL in a path was an uncoded "Error executing tool"; in an author, apply answered
    ``adapter_error`` with the ValueError's text."""
    root, _outside = folders

    async def scenario() -> dict:
        async with stdio_client(root) as c:
            call = c.call_tool
            got = {"path": refused(await call("open_document", {"path": "in\x00.docx"}), "invalid_request")}
            doc = ok(await call("open_document", {"path": "in.docx", "wait_for_graph": False}))["document_id"]
            proposal = await _proposal(call, doc)
            got["author"] = refused(await call("apply_proposal", {
                "document_id": doc, "proposal_id": proposal["id"], "author": "Ada\x00"}), "invalid_request")
            return got

    got = anyio.run(scenario)
    assert "U+0000" in got["path"]["message"] and "U+0000" in got["author"]["message"]


def test_item21_a_fifo_under_a_root_is_refused_at_once(folders):
    """``open_document`` on a FIFO inside the root blocked a thread forever."""
    root, _outside = folders

    async def scenario() -> dict:
        async with stdio_client(root) as c:
            with anyio.fail_after(60):
                return refused(await c.call_tool("open_document", {"path": "pipe.docx"}), "file_not_readable")

    assert "regular file" in anyio.run(scenario)["message"]


def test_item21_a_hard_link_in_a_root_carries_no_write_outside_it(folders):
    """With ``overwrite: true`` a hard link inside the root let a write reach a file outside it."""
    root, outside = folders

    async def scenario() -> dict:
        async with stdio_client(root) as c:
            call = c.call_tool
            doc = ok(await call("open_document", {"path": "in.docx", "wait_for_graph": False}))["document_id"]
            proposal = await _proposal(call, doc)
            return ok(await call("apply_proposal", {"document_id": doc, "proposal_id": proposal["id"], "author": AUTHOR,
                                                    "output_path": "link.docx", "overwrite": True}))

    anyio.run(scenario)
    # the write replaced the link in the root; the file outside is as it was
    assert (outside / "target.docx").read_bytes() == b"a file outside the root, not to be written"
    assert (root / "link.docx").read_bytes()[:2] == b"PK"
    assert os.stat(root / "link.docx").st_ino != os.stat(outside / "target.docx").st_ino
