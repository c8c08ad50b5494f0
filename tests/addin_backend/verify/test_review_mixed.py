"""A change decided half one way, half the other: its tracked deletion accepted and its insertion
rejected (or the other way round) is neither accepted nor rejected, and the review never calls
such a document, or one with a broken reference, consistent."""
from __future__ import annotations

import io
import re
import zipfile

from addin_backend.service.review import review_files
from tests.addin_backend.reviewkit import edit_file, need
from tests.conftest import CORPUS

ZEN = CORPUS / "docx2python/zen_of_python.docx"
_DEL = re.compile(rb"<w:del\b[^>]*>.*?</w:del>", re.S)
_INS = re.compile(rb"<w:ins\b[^>]*>(.*?)</w:ins>", re.S)


def _decide(data: bytes, k: int, deletion: str, insertion: str) -> bytes:
    """The file with the ``k``-th replacement's deletion and insertion decided as asked (what a
    reviewer does in Manage Changes, one row at a time), every other change left pending."""
    z = zipfile.ZipFile(io.BytesIO(data))
    body = z.read("word/document.xml")
    dels, inss = list(_DEL.finditer(body)), list(_INS.finditer(body))
    d, i = dels[k], inss[k]
    assert d.end() <= i.start(), "a replacement is written as its deletion, then its insertion"
    deleted = re.sub(rb"<w:delText\b([^>]*)>", rb"<w:t\1>", d.group(0)).replace(b"</w:delText>", b"</w:t>")
    keep_del = re.sub(rb"^<w:del\b[^>]*>|</w:del>$", b"", deleted)  # rejected deletion: plain text again
    new_del = b"" if deletion == "accept" else keep_del
    new_ins = i.group(1) if insertion == "accept" else b""
    body = body[:d.start()] + new_del + body[d.end():i.start()] + new_ins + body[i.end():]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as w:
        for info in z.infolist():
            w.writestr(info, body if info.filename == "word/document.xml" else z.read(info.filename))
    return out.getvalue()


def test_a_replacement_decided_half_and_half_is_mixed(tmp_path):
    edited = tmp_path / "edited.docx"
    report = edit_file(need(ZEN), 'Rename "better" to "nicer" everywhere', edited, "--no-comments")
    data = edited.read_bytes()
    ops = [o["id"] for o in report["operations"]]
    assert len(ops) == 8
    # the first change: deletion accepted, insertion rejected ("Beautiful is  than ugly");
    # the second: deletion rejected, insertion accepted (both words stand)
    reviewed = _decide(_decide(data, 1, "reject", "accept"), 0, "accept", "reject")
    got = review_files(reviewed, data)
    status = {o["id"]: o["status"] for o in got["operations"]}
    assert status[ops[0]] == "mixed" and status[ops[1]] == "mixed"
    assert all(status[i] == "pending" for i in ops[2:])
    assert got["counts"] == {"accepted": 0, "rejected": 0, "pending": 6, "mixed": 2}
    assert got["consistent"] is False
    halves = [f for f in got["findings"] if f["kind"] == "half_decided_change"]
    assert len(halves) == 2 and all("“better” → “nicer”" in f["message"] for f in halves)


def test_both_halves_decided_alike_are_not_mixed(tmp_path):
    edited = tmp_path / "edited.docx"
    edit_file(need(ZEN), 'Rename "better" to "nicer" everywhere', edited, "--no-comments")
    data = edited.read_bytes()
    reviewed = _decide(_decide(data, 1, "reject", "reject"), 0, "accept", "accept")
    got = review_files(reviewed, data)
    statuses = [o["status"] for o in got["operations"]]
    assert statuses[:2] == ["accepted", "rejected"] and "mixed" not in got["counts"]


def test_a_broken_reference_is_never_consistent(tmp_path):
    """Accepting every change of an edit that leaves a reference to a deleted table: the edit's own
    error stands, so the document is not called consistent (it was, when only new errors counted)."""
    tables = need(CORPUS / "pandoc/docx/table_captions_with_field.docx")
    edited = tmp_path / "edited.docx"
    report = edit_file(tables, "Delete Table 1", edited, "--no-comments")
    from adapters import accept_all

    # the edit itself says what the deletion breaks ("See Table 1" refers to the deleted table)
    assert [(f["kind"], f["severity"]) for f in report["findings"]] == [("reference_to_deleted", "error")]
    got = review_files(accept_all(edited.read_bytes()), edited.read_bytes())
    assert {o["status"] for o in got["operations"]} == {"accepted"}
    assert got["new_findings"] == []  # nothing the full edit did not have ...
    assert got["consistent"] is False  # ... but the reference is broken all the same
    assert any(f["severity"] == "error" for f in got["findings"])
