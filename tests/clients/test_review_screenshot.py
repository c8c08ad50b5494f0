"""What a reviewer sees in LibreOffice: a LEDGER edit rendered to PNG with its comments beside
their anchors (tests/clients/review_screenshot.py: soffice --convert-to pdf, then pdftoppm)."""
from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest

from addin_backend.cli import main
from tests.clients.review_screenshot import pdf_notes, render
from tests.conftest import CORPUS

pytestmark = pytest.mark.slow



@pytest.mark.parametrize("threads", [False, True], ids=["own-comments", "replies"])
def test_the_reviewer_sees_one_comment_per_change_with_its_reason(tmp_path, output_dir, threads):
    src = CORPUS / "pandoc/docx/table_captions_with_field.docx"
    if not src.exists():
        pytest.skip("the corpus is not here")
    if not (shutil.which("soffice") and shutil.which("pdftoppm")):
        pytest.skip("needs soffice and pdftoppm (make test installs poppler-utils)")
    edited = tmp_path / "edited.docx"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["edit", str(src), "--instruction", "Delete Table 1", "--no-semantic", "--author", "Ada Lovelace",
                     "-o", str(edited), "--json"] + (["--comment-threads"] if threads else [])) == 0
    report = json.loads(buf.getvalue())
    png = output_dir / "clients" / f"review-libreoffice-{'threads' if threads else 'docx'}.png"
    notes = render(edited, png)
    assert png.exists() and png.stat().st_size > 10_000
    assert sorted(n.text for n in notes) == sorted(c["text"] for c in report["comments"])
    assert {n.author.split(",")[0] for n in notes} == {"Ada Lovelace"}
    by_text = {n.text: n for n in notes}
    ref = next(c for c in report["comments"] if "cross-reference" in c["text"])
    op = next(c for c in report["comments"] if c.get("edit") == "op-1")
    # own comments sit at their own words ("See Table 2." is below the deleted caption);
    # a reply sits where its operation's comment does
    assert (by_text[ref["text"]].y == by_text[op["text"]].y) is threads


def test_pdf_notes_reads_the_annotations_of_each_page():
    pdf = (b"1 0 obj <</Type /Annot /Subtype /Text /Rect[10 700 10.05 712] /Contents <FEFF00480069> "
           b"/T (Ada)>> endobj\n2 0 obj <</Type/Page/Parent 3 0 R/Annots[ 1 0 R ]>> endobj\n")
    assert [(n.page, n.x, n.y, n.text, n.author) for n in pdf_notes(pdf)] == [(0, 10.0, 712.0, "Hi", "Ada")]
