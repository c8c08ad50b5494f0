"""The review record a written file carries (:mod:`addin_backend.verify.record`).

Issue 24, item 18: in an ODT, a forged review record placed outside ``office:meta`` survived
apply, and ``ledger review --against`` then used it. Only a record where the format keeps it
counts now; a stray copy is reported, and dropped when LEDGER writes the record.

Issue 28, item 10: the record carried every operation whole, old text included (54 KB for a
rename, 824 KB for an insert), so a document accepted and sent out still held the deleted text.
It holds ids, places, line lengths and keyed digests now; the review reads the texts back from
the written file's tracked changes, and files written with the old record are still reviewed."""
from __future__ import annotations

import io
import json
import zipfile

import pytest

from adapters.properties import get_property, misplaced_properties
from addin_backend.errors import InvalidRequestError
from addin_backend.service.review import review_files
from addin_backend.verify.record import RECORD, embed_record, read_record
from tests.conftest import corpus_file

_META_NS = "urn:oasis:names:tc:opendocument:xmlns:meta:1.0"
FORGED = json.dumps({"v": 1, "instruction": "forged", "operations": [
    {"id": "op-forged", "op": "delete", "unit": "p-nothing", "author": "Mallory"}]})


def _with_stray_record(data: bytes, value: str) -> bytes:
    """``data`` (an .odt) with a ``meta:user-defined`` record as a child of the root, before
    ``office:meta`` (outside it, where the format keeps no property)."""
    src = zipfile.ZipFile(io.BytesIO(data))
    meta = src.read("meta.xml").decode("utf-8")
    stray = (f'<meta:user-defined xmlns:meta="{_META_NS}" meta:name="{RECORD}" meta:value-type="string">'
             f'{value.replace("&", "&amp;").replace("<", "&lt;")}</meta:user-defined>')
    meta = meta.replace("<office:meta>", stray + "<office:meta>", 1)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            z.writestr(info, meta.encode("utf-8") if info.filename == "meta.xml" else src.read(info.filename))
    return out.getvalue()


def test_item18_a_record_outside_office_meta_is_ignored_and_dropped_on_write():
    from adapters import read

    forged = _with_stray_record(corpus_file("lorem.odt").read_bytes(), FORGED)
    assert misplaced_properties(forged, RECORD) == 1
    assert get_property(forged, RECORD) is None and read_record(forged) is None  # before: the forged record
    # review --against a file whose only record is the stray one: refused, saying why
    with pytest.raises(InvalidRequestError, match="outside office:meta"):
        review_files(forged, forged)
    # writing the record (what apply does) keeps one copy, in office:meta, and drops the stray one
    doc = read(forged)
    unit = doc.units[0]
    from adapters.model import edit_from_json

    op = edit_from_json({"op": "set_text", "unit": unit.id, "text": unit.text + " More.", "before": unit.text,
                         "id": "op-1", "author": "Ada"})
    written = embed_record(forged, [op])
    assert misplaced_properties(written, RECORD) == 0
    assert read_record(written)["operations"][0]["i"] == "op-1"


# --- issue 28, item 10: no document text in the record ----------------------------------------------

ZEN = "zen_of_python.docx"


def _edited(tmp_path, instruction: str, *extra: str, name: str = ZEN) -> tuple[bytes, dict]:
    from tests.addin_backend.reviewkit import edit_file

    out = tmp_path / f"edited-{abs(hash((instruction, extra)))}{corpus_file(name).suffix}"
    report = edit_file(corpus_file(name), instruction, out, *extra)
    return out.read_bytes(), report


def _every_part(data: bytes) -> str:
    z = zipfile.ZipFile(io.BytesIO(data))
    return "\n".join(z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith((".xml", ".rels")))


def test_the_record_holds_no_text_of_the_document(tmp_path):
    data, report = _edited(tmp_path, "Replace 'better' with 'preferable' everywhere")
    raw = get_property(data, RECORD)
    rec = json.loads(raw)
    assert rec["v"] == 2 and len(rec["operations"]) == len(report["operations"]) + len(report["propagated"]) >= 2
    for word in ("better", "preferable", "Replace", "everywhere", "Beautiful", "ugly"):
        assert word not in raw, word
    # every key is one the format documents (docs/review.md): no text field slipped in
    assert set(rec) <= {"v", "salt", "author", "date", "instruction", "operations"}
    assert {k for op in rec["operations"] for k in op} <= {"i", "o", "u", "s", "e", "a", "b", "k", "y", "f", "l", "h", "c"}


def test_a_document_accepted_after_review_keeps_no_deleted_text(tmp_path):
    from adapters import accept_all, read

    doc = read(corpus_file(ZEN).read_bytes())
    gone = max((u for u in doc.units if u.kind == "paragraph"), key=lambda u: len(u.text))
    data, _ = _edited(tmp_path, f"Delete the paragraph starting with '{gone.text[:30]}'", "--no-comments")
    assert gone.text[:40] in _every_part(data)  # in the tracked deletion
    sent = accept_all(data)
    assert gone.text[:40] not in _every_part(sent) and get_property(sent, RECORD) is not None


def _v1(data: bytes) -> bytes:
    """``data`` with its record written as files before issue 28 wrote it: every operation whole."""
    from adapters import read, reject_all
    from adapters.properties import set_property
    from addin_backend.verify.record import record_edits

    rec = read_record(data)
    got = record_edits(rec, read(reject_all(data)), read(data))
    ops = []
    for e in got.edits:
        item = e.to_json()
        if got.comments.get(e.id or ""):
            item["comment"] = got.comments[e.id or ""]
        ops.append(item)
    return set_property(data, RECORD, json.dumps({"v": 1, "instruction": got.instruction, "operations": ops}))


@pytest.mark.parametrize("name", [ZEN, "lorem.odt"])
def test_the_review_reads_the_texts_back_and_old_records_still_review(tmp_path, name):
    from adapters import accept_all, reject_all

    instruction = "Replace 'better' with 'preferable' everywhere" if name == ZEN else "Replace 'dolor' with 'pain' everywhere"
    data, report = _edited(tmp_path, instruction, name=name)
    written = {op["id"]: op for op in report["operations"] + report["propagated"]}
    got = review_files(reject_all(data), data)
    assert got["counts"] == {"accepted": 0, "rejected": len(written), "pending": 0}
    assert got["instruction"] == instruction and all(o["reason"] for o in got["operations"])
    assert sorted(o["id"] for o in got["operations"]) == sorted(written)
    old = _v1(data)
    assert json.loads(get_property(old, RECORD))["v"] == 1
    for reviewed, status in ((accept_all(data), "accepted"), (reject_all(data), "rejected"), (data, "pending")):
        now, before = review_files(reviewed, data), review_files(reviewed, old)
        assert {o["status"] for o in now["operations"]} == {status}
        assert [(o["id"], o["status"], o["reason"]) for o in now["operations"]] == \
            [(o["id"], o["status"], o["reason"]) for o in before["operations"]]


def test_a_record_that_does_not_match_the_file_is_not_trusted(tmp_path):
    from adapters import reject_all
    from adapters.properties import set_property

    data, _ = _edited(tmp_path, "Replace 'better' with 'preferable' everywhere")
    rec = read_record(data)
    rec["operations"][0]["h"] = "0" * 16  # a forged or damaged operation
    one = set_property(data, RECORD, json.dumps(rec))
    got = review_files(reject_all(one), one)
    assert rec["operations"][0]["i"] not in {o["id"] for o in got["operations"]}
    assert got["findings"][0]["kind"] == "review_record_ignored" and rec["operations"][0]["i"] in got["findings"][0]["message"]
    for op in rec["operations"]:
        op["l"] = [n + 1 for n in op.get("l", [0])]  # every text of the wrong length: nothing reads back
    none = set_property(data, RECORD, json.dumps(rec))
    with pytest.raises(InvalidRequestError, match="read back"):
        review_files(reject_all(none), none)


def test_the_record_grows_with_the_operations_not_with_their_text(tmp_path):
    import docx

    from addin_backend.service.edits import edit

    from adapters import read

    d = docx.Document()
    d.add_paragraph(" ".join(f"the widget {i} is here." for i in range(300)))
    d.add_paragraph("Another widget.")
    buf = io.BytesIO()
    d.save(buf)
    source = buf.getvalue()
    doc = read(source)
    from addin_backend.service import graphs

    done = edit(doc, source, graphs.build(doc, graphs.scope_for(False)), instruction="Rename 'widget' to 'gadget'",
                semantic=False)
    assert done.written is not None
    raw = get_property(done.written.data, RECORD)
    count = len(done.written.operations)
    assert count == 301 and len(raw) < 200 + 140 * count  # was 301 copies of a 7,000-character paragraph


def test_a_record_of_tens_of_thousands_of_operations_is_stored_deflated_and_read_back():
    from adapters.model import Delete
    from adapters.properties import set_property
    from addin_backend.verify.record import PLAIN_MAX, record_json

    ops = [Delete(unit=f"p-{i:010x}", id=f"op-{i + 1}", author="A", date="2026-12-01T00:00:00Z", source="rules")
           for i in range(30_000)]
    raw = record_json(ops, instruction="Delete everything")
    assert PLAIN_MAX // 3 < len(raw) < PLAIN_MAX  # deflated: the plain JSON is some 2.6 MB
    data = set_property(corpus_file(ZEN).read_bytes(), RECORD, raw)
    rec = read_record(data)
    assert [op["i"] for op in rec["operations"]] == [e.id for e in ops] and "z" not in rec
    import base64
    import zlib

    from addin_backend.verify.record import INFLATED_MAX, _inflate

    bomb = base64.b64encode(zlib.compress(b"[" + b" " * INFLATED_MAX + b"]", 1)).decode()
    assert _inflate(bomb) is None  # past INFLATED_MAX: no record (a zip of it is refused earlier, as a bomb)
