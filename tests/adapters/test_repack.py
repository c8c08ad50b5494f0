"""The one zip rewrite both writers use: untouched members raw and in order, replaced and added ones."""
from __future__ import annotations

import io
import zipfile

import pytest

from adapters.errors import CorruptDocumentError
from adapters.repack import _fallback, rewrite_zip
from tests.adapters.docx.writerkit import raw_members
from tests.adapters.odt.writer_cases import assert_same_members
from tests.conftest import corpus_file


def _zip(entries, **kw) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, ctype in entries:
            zf.writestr(zipfile.ZipInfo(name, date_time=(2020, 5, 17, 10, 20, 30)), data, compress_type=ctype)
        zf.comment = kw.get("comment", b"")
    return buf.getvalue()


def test_rewrite_keeps_other_members_raw_and_in_order():
    data = _zip([("mimetype", b"application/x", zipfile.ZIP_STORED), ("a.xml", b"<a>" * 50, zipfile.ZIP_DEFLATED),
                 ("b.xml", b"<b/>", zipfile.ZIP_DEFLATED)], comment=b"hello")
    out = rewrite_zip(data, {"a.xml": b"<changed/>"}, add=[("c.xml", b"<c/>")])
    zf = zipfile.ZipFile(io.BytesIO(out))
    assert zf.testzip() is None
    assert zf.namelist() == ["mimetype", "a.xml", "b.xml", "c.xml"]
    assert zf.read("a.xml") == b"<changed/>" and zf.read("c.xml") == b"<c/>"
    assert zf.getinfo("a.xml").date_time == (2020, 5, 17, 10, 20, 30)
    assert zf.getinfo("mimetype").compress_type == zipfile.ZIP_STORED
    assert zf.comment == b"hello"
    before, after = dict(raw_members(data)), dict(raw_members(out))
    assert before["mimetype"] == after["mimetype"] and before["b.xml"] == after["b.xml"]


def test_rewrite_refuses_unknown_members_and_damaged_archives():
    data = _zip([("a.xml", b"<a/>", zipfile.ZIP_DEFLATED)])
    with pytest.raises(CorruptDocumentError, match="no part"):
        rewrite_zip(data, {"zz.xml": b""})
    with pytest.raises(CorruptDocumentError):
        rewrite_zip(data[:-22], {"a.xml": b""})
    with pytest.raises(CorruptDocumentError, match="no part 'zz.xml'"):
        _fallback(data, {"zz.xml": b""}, ())


def test_repack_keeps_members_and_falls_back_to_zipfile():
    data = corpus_file("md_sample_14_lo.odt").read_bytes()
    infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    assert any(i.flag_bits & 0x8 for i in infos)  # LibreOffice writes data descriptors
    new = b"<x/>"
    for out in (rewrite_zip(data, {"content.xml": new}), _fallback(data, {"content.xml": new}, ())):
        z = zipfile.ZipFile(io.BytesIO(out))
        assert [i.filename for i in z.infolist()] == [i.filename for i in infos]
        assert z.read("content.xml") == new
        src = zipfile.ZipFile(io.BytesIO(data))
        assert all(z.read(i.filename) == src.read(i.filename) for i in infos if i.filename != "content.xml")
        assert z.infolist()[0].compress_type == zipfile.ZIP_STORED
    assert_same_members(data, rewrite_zip(data, {"content.xml": new}))


def test_added_members_follow_data_descriptor_members_untouched():
    data = corpus_file("md_sample_14_lo.odt").read_bytes()
    out = rewrite_zip(data, {}, add=[("extra/é.xml", b"<e/>")])
    before, after = raw_members(data), raw_members(out)
    assert after[: len(before)] == before
    z = zipfile.ZipFile(io.BytesIO(out))
    assert z.testzip() is None
    info = z.infolist()[-1]
    assert (info.filename, info.date_time, info.compress_type) == ("extra/é.xml", (1980, 1, 1, 0, 0, 0), 8)
    assert z.read("extra/é.xml") == b"<e/>"


def test_a_replaced_mimetype_stays_first_and_stored():
    data = corpus_file("md_sample_14_lo.odt").read_bytes()
    out = rewrite_zip(data, {"mimetype": b"application/vnd.oasis.opendocument.text"})
    first = zipfile.ZipFile(io.BytesIO(out)).infolist()[0]
    assert (first.filename, first.compress_type, first.flag_bits & 0x8) == ("mimetype", zipfile.ZIP_STORED, 0)
    assert out[30:38] == b"mimetype" and out[38:77] == b"application/vnd.oasis.opendocument.text"
    assert_same_members(data, out, changed=("mimetype",))


def test_another_compression_method_is_kept_through_zipfile():
    data = _zip([("a.xml", b"<a/>", zipfile.ZIP_DEFLATED), ("b.xml", b"<b/>" * 20, zipfile.ZIP_BZIP2)],
                comment=b"note")
    out = rewrite_zip(data, {"b.xml": b"<new/>"}, add=[("c.xml", b"<c/>")])
    z = zipfile.ZipFile(io.BytesIO(out))
    assert [(i.filename, i.compress_type, i.date_time) for i in z.infolist()] == [
        ("a.xml", zipfile.ZIP_DEFLATED, (2020, 5, 17, 10, 20, 30)),
        ("b.xml", zipfile.ZIP_BZIP2, (2020, 5, 17, 10, 20, 30)),
        ("c.xml", zipfile.ZIP_DEFLATED, (1980, 1, 1, 0, 0, 0)),
    ]
    assert (z.read("a.xml"), z.read("b.xml"), z.read("c.xml"), z.comment) == (b"<a/>", b"<new/>", b"<c/>", b"note")
