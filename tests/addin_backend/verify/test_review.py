"""The review round trip: LEDGER writes, a reviewer accepts some changes, rejects others, leaves
the rest, and the review says which was which for every operation, and what that breaks."""
from __future__ import annotations

import io
import json
import zipfile

from adapters import read
from addin_backend.cli import main
from addin_backend.verify.record import read_record
from addin_backend.service.review import review_files
from tests.addin_backend.reviewkit import AUTHOR, edit_file as _edit, need as _need, word_review
from tests.conftest import CORPUS, DEVSET_DOCS

TABLES = CORPUS / "pandoc/docx/table_captions_with_field.docx"
ZEN = CORPUS / "docx2python/zen_of_python.docx"


def _truth(report: dict, decide) -> dict[str, str]:
    """Operation id -> what the reviewer did with it (the decision on its comment's text)."""
    texts = {c["edit"]: c["text"] for c in report["comments"] if c.get("edit")}
    return {op_id: {"accept": "accepted", "reject": "rejected", None: "pending"}[decide(text)]
            for op_id, text in texts.items()}


def _revision_ids(data: bytes) -> set[str]:
    import re

    body = zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode()
    return set(re.findall(r'<w:(?:ins|del) w:id="(\d+)"', body))


def test_word_review_of_a_table_deletion_every_operation_classified(tmp_path):
    edited = tmp_path / "edited.docx"
    report = _edit(_need(TABLES), "Delete Table 1", edited)
    assert "Delete Table 1" not in json.dumps(read_record(edited.read_bytes()))  # a digest only (issue 28)

    def decide(text: str):
        if text.startswith("Deleted"):
            return "accept"
        if "cross-reference" in text:
            return "reject"  # the reviewer keeps "See Table 2" as it was
        return None  # the caption number is left for later

    reviewed = word_review(edited.read_bytes(), AUTHOR, decide)
    assert not _revision_ids(reviewed) & _revision_ids(edited.read_bytes())  # Word renumbered them all
    got = review_files(reviewed, edited.read_bytes())
    assert got["instruction"] == "Delete Table 1"  # read back from the comments, checked against the digest
    truth = _truth(report, decide)
    assert {o["id"]: o["status"] for o in got["operations"]} == truth
    assert sorted(truth.values()) == ["accepted", "accepted", "pending", "rejected"]
    assert got["exact"] is True
    assert all(o["reason"] for o in got["operations"])
    # the rejected renumbering leaves "See Table 2" on a field whose target is now Table 1
    assert got["consistent"] is False
    assert [(f["kind"], f["unit"]) for f in got["new_findings"]] == [("stale_field", "p-116cbffbf7")]


def test_word_review_of_a_rename_accept_reject_leave(tmp_path):
    edited = tmp_path / "edited.docx"
    report = _edit(_need(ZEN), 'Rename "better" to "nicer" everywhere', edited)
    ops = [c["edit"] for c in report["comments"] if c.get("edit")]
    assert len(ops) == 8
    plan = dict(zip(ops, ["accept", "accept", "reject", None, "reject", "accept", None, "reject"]))
    by_text: dict[str, list[str]] = {}
    for c in report["comments"]:
        by_text.setdefault(c["text"], []).append(c["edit"])
    # every comment says the same: the reviewer decides in document order, as Word walks them
    order = iter(plan[i] for i in ops)
    reviewed = word_review(edited.read_bytes(), AUTHOR, lambda _text: next(order))
    got = review_files(reviewed, edited.read_bytes())
    status = {o["id"]: o["status"] for o in got["operations"]}
    want = {i: {"accept": "accepted", "reject": "rejected", None: "pending"}[d] for i, d in plan.items()}
    assert status == want
    assert got["exact"] is True and got["counts"] == {"accepted": 3, "rejected": 3, "pending": 2}
    # half a rename: the old term is left where the reviewer rejected it
    assert got["consistent"] is False
    assert {f["unit"] for f in got["new_findings"] if f["kind"] == "old_term"} == {
        o["unit"] for o in got["operations"] if o["status"] == "rejected"}


def test_the_command_line_prints_json(tmp_path, capsys):
    edited = tmp_path / "edited.docx"
    _edit(_need(TABLES), "Delete Table 1", edited)
    capsys.readouterr()
    assert main(["review", str(edited), "--against", str(edited), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [o["status"] for o in out["operations"]] == ["pending"] * 4
    assert set(out["operations"][0]) >= {"id", "unit", "status", "reason"} and "findings" in out
    assert main(["review", str(edited), "--against", str(_need(TABLES))]) == 3  # no record: invalid_request


def test_the_review_route(tmp_path):
    from tests.addin_backend.api.editing import module_app, upload

    app = module_app(tmp_path / "data")
    try:
        client = app.test_client()
        doc_id = upload(client, _need(TABLES))["id"]
        prop = client.post(f"/api/v1/documents/{doc_id}/proposals", json={"instruction": "Delete Table 1"}).json
        assert all(op.get("comment") for op in prop["operations"])
        applied = client.post(f"/api/v1/documents/{doc_id}/apply",
                              json={"proposal_id": prop["id"], "author": AUTHOR}).json
        assert len(applied["comments"]) == 5
        edited = client.get(f"/api/v1/documents/{doc_id}/revisions/{applied['revision']}/file").data
        assert len(read(edited).comments) == 5
        reviewed = word_review(edited, AUTHOR, lambda t: "accept" if t.startswith("Deleted") else "reject")
        r = client.post(f"/api/v1/documents/{doc_id}/revisions/{applied['revision']}/review", data=reviewed,
                        content_type="application/octet-stream")
        assert r.status_code == 200, r.json
        assert [o["status"] for o in r.json["operations"]] == ["accepted", "accepted", "rejected", "rejected"]
        assert r.json["exact"] is True
        bare = client.post(f"/api/v1/documents/{doc_id}/apply",
                           json={"proposal_id": prop["id"], "author": AUTHOR, "comments": False}).json
        plain = client.get(f"/api/v1/documents/{doc_id}/revisions/{bare['revision']}/file").data
        assert read(plain).comments == [] and bare["comments"] == []
        assert client.post(f"/api/v1/documents/{doc_id}/revisions/99/review", data=reviewed,
                           content_type="application/octet-stream").status_code == 404
        # a raw body needs a document media type, as an upload does (no cross-origin post without a preflight)
        assert client.post(f"/api/v1/documents/{doc_id}/revisions/{applied['revision']}/review", data=reviewed,
                           content_type="text/plain").status_code == 415
    finally:
        app.extensions["ledger.jobs"].shutdown()
        app.extensions["ledger.store"].close()


def test_word_review_of_a_section_deletion_in_a_standard(tmp_path):
    """31 operations on an RFC: the deleted section's paragraphs, its table and a renumbered
    reference; the reviewer accepts a third, rejects a third and leaves a third (by comment, so
    that equal comments get equal decisions). Where two decisions meet at a paragraph mark
    LEDGER moved up (a deleted block before a table), Word merges paragraphs and no set of
    operations reads exactly as the result: each is then judged by its words."""
    src = DEVSET_DOCS / "rfc9002.A.docx"
    edited = tmp_path / "edited.docx"
    report = _edit(_need(src), "Delete Section 7.6", edited)
    choices = ["accept", "reject", None]
    decide = lambda text: choices[sum(map(ord, text)) % 3]  # noqa: E731 - the same text, the same choice
    reviewed = word_review(edited.read_bytes(), AUTHOR, decide)
    got = review_files(reviewed, edited.read_bytes())
    truth = _truth(report, decide)
    assert len(truth) == 31 and set(truth.values()) == {"accepted", "rejected", "pending"}
    assert {o["id"]: o["status"] for o in got["operations"]} == truth
