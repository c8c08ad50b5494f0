"""Real LibreOffice (UNO): the comments a reviewer sees, and LibreOffice as the reviewer.

One LibreOffice start per test (``tests/uno_review.py``). LibreOffice's no-GUI build aborts
when a view lays out a comment window, so the comments are read from a model loaded without a
view, and the reviewer works in a view on a copy without the comments (the tracked changes
as LEDGER wrote them).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from addin_backend.service.review import review_files
from tests.libreoffice import run_uno_script
from tests.addin_backend.reviewkit import AUTHOR, edit_file as _edit, need as _need
from tests.conftest import CORPUS

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[2] / "uno_review.py"


def _uno(*args: str) -> list[dict]:
    proc = run_uno_script(SCRIPT, *args, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def test_libreoffice_lists_one_comment_per_operation_on_the_changed_text(tmp_path):
    table = tmp_path / "table.docx"
    rep_table = _edit(_need(CORPUS / "pandoc/docx/table_captions_with_field.docx"), "Delete Table 1", table)
    odt = tmp_path / "rename.odt"
    rep_odt = _edit(_need(CORPUS / "odfdo/base_md_text.odt"), 'Rename "paragraph" to "passage" everywhere', odt)
    commented = tmp_path / "commented.docx"
    rep_comm = _edit(_need(CORPUS / "pandoc/docx/comments.docx"), 'Rename "paragraph" to "passage" everywhere',
                     commented)
    others = tmp_path / "others.docx"
    _edit(_need(CORPUS / "pandoc/docx/track_changes_insertion.docx"), 'Rename "text" to "passage" everywhere', others)
    original = _need(CORPUS / "pandoc/docx/comments.docx")
    got = {Path(r["file"]).name: r for r in _uno("comments", str(table), str(odt), str(commented), str(others),
                                                  str(original))}

    for name, rep in (("table.docx", rep_table), ("rename.odt", rep_odt), ("commented.docx", rep_comm)):
        ours = [c for c in got[name]["comments"] if c["initials"] == "LEDGER"]
        per_op = [c for c in rep["comments"] if c.get("edit")]
        assert sorted(c["text"] for c in ours) == sorted(c["text"] for c in rep["comments"]), name
        assert len(per_op) == len(rep["operations"]) + len(rep["propagated"])
        assert {c["author"] for c in ours} == {AUTHOR}
    # anchored on the changed text: the new words (and, in .docx, the deleted ones beside them)
    odt_anchors = [c["anchor"] for c in got["rename.odt"]["comments"]]
    assert odt_anchors == ["passage"] * len(odt_anchors)
    table_by_text = {c["text"]: c for c in got["table.docx"]["comments"]}
    ref = next(c for t, c in table_by_text.items() if "cross-reference" in t)
    # the renumbered cross-reference is rewritten whole (adapters/docx/fieldedit.py): LibreOffice
    # lists the old field deleted and the new one inserted, and the comment spans both; a digit
    # changed inside the field's result was joined into one field "Table 21" and listed by no one
    assert ref["anchor"] == "Table 2Table 1" and ref["paragraph"].startswith("See Table")
    ours_changes = [(r["type"], r["text"]) for r in got["table.docx"]["redlines"] if r["author"] == AUTHOR]
    assert ("Delete", "Table 2") in ours_changes and ("Insert", "Table 1") in ours_changes
    deleted = [c for c in got["table.docx"]["comments"] if c["text"].startswith("Deleted")]
    assert {c["anchor"].split("\n")[0] for c in deleted} == {"Table 1", "Count"}
    finding = next(c for t, c in table_by_text.items() if t.startswith("To check"))
    assert finding["anchor"] == "Table 1" and finding["paragraph"].startswith("See Table 1")
    # existing comments and other authors' changes are as they were
    theirs = [c for c in got["commented.docx"]["comments"] if c["initials"] != "LEDGER"]
    assert [(c["author"], c["initials"], c["text"]) for c in theirs] == [
        (c["author"], c["initials"], c["text"]) for c in got["comments.docx"]["comments"]]
    assert len(theirs) == 5
    assert [(r["author"], r["text"]) for r in got["others.docx"]["redlines"] if r["author"] != AUTHOR] == [
        ("eng-dept", "two exciting ")]


@pytest.mark.parametrize("src,instruction,plan,want", [
    ("docx2python/zen_of_python.docx", 'Rename "better" to "nicer" everywhere',
     [{"para": "Explicit", "decision": "accept"}, {"para": "Simple", "decision": "accept"},
      {"para": "Complex", "decision": "reject"}, {"para": "Flat", "decision": "reject"},
      {"para": "Now is", "decision": "accept"}],
     {"accepted": 3, "rejected": 2, "pending": 3}),
    ("odfdo/base_md_text.odt", 'Rename "paragraph" to "passage" everywhere',
     [{"para": "with a link", "decision": "accept"}, {"para": "second paragraph", "decision": "reject"},
      {"para": "named style", "decision": "reject"}, {"para": "second title", "decision": "accept"}],
     {"accepted": 2, "rejected": 2, "pending": 3}),
])
def test_libreoffice_reviews_and_every_operation_is_classified(tmp_path, src, instruction, plan, want):
    ext = Path(src).suffix
    edited = tmp_path / f"edited{ext}"
    _edit(_need(CORPUS / src), instruction, edited)
    reviewed = tmp_path / f"reviewed{ext}"
    assert _uno("review", str(edited), str(reviewed), json.dumps(plan))[0]["acted"] >= len(plan)
    got = review_files(reviewed.read_bytes(), edited.read_bytes())
    from adapters import read

    from adapters import reject_all

    original = read(reject_all(edited.read_bytes()))
    for o in got["operations"]:
        text = original.unit(o["unit"]).text
        decision = next((p["decision"] for p in plan if p["para"] in text), None)
        assert o["status"] == {"accept": "accepted", "reject": "rejected", None: "pending"}[decision], (o, text)
    assert got["counts"] == want and got["exact"] is True
    assert got["consistent"] is False  # half a rename leaves the old term where it was rejected
