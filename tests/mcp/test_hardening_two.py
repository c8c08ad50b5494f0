"""Issue 24, items 20 and 21: ``ledger mcp`` driven by the SDK's own client over stdio.

The MCP door checks control characters as the REST door does (a NUL is ``invalid_request``, not
an ``adapter_error`` at apply); it reads regular files only (a FIFO under a root is refused at
once instead of parking a thread forever), a NUL in a path is a coded refusal, and an output is
written to a new file renamed into place, so a hard link inside a root cannot carry a write to a
file outside it.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

import anyio
import pytest

from .helpers import AUTHOR, ok, refused, stdio_client


def _docx(paragraphs: list[str]) -> bytes:
    import docx

    d = docx.Document()
    for p in paragraphs:
        d.add_paragraph(p)
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


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


def test_item20_item21_nul_fifo_and_hard_link(folders):
    root, outside = folders

    async def scenario() -> dict:
        with anyio.fail_after(120):  # a FIFO used to block the call forever
            async with stdio_client(root) as c:
                call = c.call_tool
                got = {
                    "nul_path": refused(await call("open_document", {"path": "in\x00.docx"}), "invalid_request"),
                    "fifo": refused(await call("open_document", {"path": "pipe.docx"}), "file_not_readable"),
                }
                doc = ok(await call("open_document", {"path": "in.docx", "wait_for_graph": False}))["document_id"]
                unit = ok(await call("read_units", {"document_id": doc}))["units"][0]
                proposal = ok(await call("propose_operations", {"document_id": doc, "operations": [
                    {"op": "set_text", "unit": unit["id"], "before": unit["text"],
                     "text": unit["text"].replace("fine", "good")}]}))
                got["nul_author"] = refused(await call("apply_proposal", {
                    "document_id": doc, "proposal_id": proposal["id"], "author": "Ada\x00"}), "invalid_request")
                got["applied"] = ok(await call("apply_proposal", {
                    "document_id": doc, "proposal_id": proposal["id"], "author": AUTHOR, "output_path": "link.docx",
                    "overwrite": True}))
                return got

    got = anyio.run(scenario)
    assert "NUL" in got["nul_path"]["message"] or "U+0000" in got["nul_path"]["message"]
    assert "regular file" in got["fifo"]["message"]
    assert "U+0000" in got["nul_author"]["message"]
    # the write replaced the link in the root; the file outside is as it was
    assert (outside / "target.docx").read_bytes() == b"a file outside the root, not to be written"
    assert (root / "link.docx").read_bytes()[:2] == b"PK"
    assert os.stat(root / "link.docx").st_ino != os.stat(outside / "target.docx").st_ino
