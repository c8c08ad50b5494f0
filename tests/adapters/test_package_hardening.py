"""The package door under attack (issue 16): amplification through many compressible members,
duplicate member names, XML comments in relationships, DTDs in UTF-16/UTF-32 parts and past the
first 4 KB, and the caps on units and text. Each test is the reproduction of a defect."""
from __future__ import annotations

import io
import random
import warnings
import zipfile

import pytest

import adapters
from adapters.errors import CorruptDocumentError, TooLargeError, UnsafeXmlError, ZipBombError
from adapters.package import RATIO_FLOOR, Limits, open_package, parse_xml
from tests.conftest import corpus_file

_CT = (b'<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
       b'content-types"><Default Extension="xml" ContentType="application/xml"/></Types>')
_RELS = (b'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
         b'2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
         b'relationships/officeDocument" Target="word/document.xml"/></Relationships>')
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _document_xml(text: str, prolog: str = "") -> str:
    return (f'<?xml version="1.0" encoding="{{enc}}"?>{prolog}<w:document xmlns:w="{_W}"><w:body>'
            f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:body></w:document>")


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate names some tests need
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in members:
                zf.writestr(name, data)
    return buf.getvalue()


def _docx(document: bytes, *extra: tuple[str, bytes]) -> bytes:
    return _zip([("[Content_Types].xml", _CT), ("_rels/.rels", _RELS), ("word/document.xml", document), *extra])


def _encoded(text: str, prolog: str, encoding: str) -> bytes:
    return _document_xml(text, prolog).replace("{enc}", encoding.upper()).encode(encoding)


# --- amplification ------------------------------------------------------------------------


def test_many_compressible_one_mib_members_are_a_bomb():
    """490 members of exactly 1 MiB each, 587 KB packed: each passed the old >1 MiB ratio check."""
    member = b"<a>" + b"x" * ((1 << 20) - 7) + b"</a>"
    bomb = _docx(_encoded("Hello", "", "utf-8"), *[(f"customXml/item{i}.xml", member) for i in range(490)])
    assert len(bomb) < 1 << 20
    with pytest.raises(ZipBombError) as exc:
        open_package(bomb)
    assert exc.value.category == "too_large" and "200x" in exc.value.message


def test_the_package_ratio_counts_members_below_the_per_member_floor():
    member = b"\0" * RATIO_FLOOR  # at the floor: exempt alone, not in the package's total
    bomb = _docx(_encoded("Hello", "", "utf-8"), *[(f"m/{i}.bin", member) for i in range(40)])
    with pytest.raises(ZipBombError, match="as a whole"):
        open_package(bomb, Limits(max_ratio=50))


def test_ratio_and_total_hold_while_inflating_should_a_header_lie():
    hexed = random.Random(0).randbytes(32 << 10).hex().encode()  # inflates about 1.7x
    pkg = open_package(_docx(_encoded("Hello", "", "utf-8"), ("big.xml", b"<a>" + hexed + b"</a>")))
    pkg._limits = Limits(max_ratio=1)  # as if the header had lied about the packed size
    with pytest.raises(ZipBombError, match="1x"):
        pkg.read("big.xml")
    pkg = open_package(_docx(_encoded("Hello", "", "utf-8"), ("a.bin", hexed), ("b.bin", hexed)))
    pkg._limits = Limits(max_total_bytes=len(hexed) * 3 // 2)
    pkg.read("a.bin")
    with pytest.raises(ZipBombError, match="in all"):
        pkg.read("b.bin")


def test_real_documents_stay_far_below_the_ratios():
    for name in ("cross_reference.docx", "renamed_document_xml.docx"):
        assert open_package(corpus_file(name).read_bytes()).format == "docx"


# --- duplicate names and comments ---------------------------------------------------------


def test_duplicate_member_names_are_corrupt():
    """The reader took the last word/document.xml and apply rewrote every copy with it."""
    dup = _docx(_encoded("first", "", "utf-8"), ("word/document.xml", _encoded("second", "", "utf-8")))
    with pytest.raises(CorruptDocumentError) as exc:
        adapters.read(dup)
    assert exc.value.code == "corrupt" and "twice" in exc.value.message


def test_part_names_differing_only_in_case_are_duplicates_in_a_docx():
    dup = _docx(_encoded("first", "", "utf-8"), ("WORD/Document.xml", _encoded("second", "", "utf-8")))
    with pytest.raises(CorruptDocumentError, match="ignore case"):
        open_package(dup)


def test_a_comment_in_the_package_relationships_reads_normally():
    """``_docx_main_part`` called ``.get("Type")`` on the comment node: an HTTP 500."""
    data = corpus_file("cross_reference.docx").read_bytes()
    src = zipfile.ZipFile(io.BytesIO(data))
    members = []
    for info in src.infolist():
        body = src.read(info)
        if info.filename == "_rels/.rels":
            at = body.index(b"<Relationship ")
            body = body[:at] + b"<!-- a comment --><?pi x?>" + body[at:]
        members.append((info.filename, body))
    commented = adapters.read(_zip(members))
    assert [u.text for u in commented.units] == [u.text for u in adapters.read(data).units]


# --- DTDs after decoding ------------------------------------------------------------------

_INTERNAL = '<!DOCTYPE w:document [<!ATTLIST w:document a CDATA "x">]>'


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"])
def test_a_dtd_in_a_utf16_or_utf32_part_is_refused(encoding):
    with pytest.raises(UnsafeXmlError):
        adapters.read(_docx(_encoded("Hello", _INTERNAL, encoding)))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32-le"])
def test_an_entity_reference_in_a_utf16_part_is_refused_not_dropped(encoding):
    """The text after ``&x;`` was silently dropped."""
    doc = _encoded("before &amp; &x; after", '<!DOCTYPE w:document SYSTEM "w.dtd">', encoding)
    with pytest.raises(UnsafeXmlError, match="entity"):
        adapters.read(_docx(doc))


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_a_utf16_or_utf32_part_without_a_dtd_reads_normally(encoding):
    doc = adapters.read(_docx(_encoded("Grüße, 世界", "", encoding)))
    assert [u.text for u in doc.units] == ["Grüße, 世界"]


def test_a_dtd_after_the_first_4kb_is_refused():
    padded = b'<?xml version="1.0"?><!--' + b" " * 5000 + b'--><!DOCTYPE r [<!ATTLIST r a CDATA "x">]><r/>'
    with pytest.raises(UnsafeXmlError):
        parse_xml(padded, "word/document.xml")


def test_an_encoding_nobody_can_decode_is_malformed():
    with pytest.raises(CorruptDocumentError):
        parse_xml(b'<?xml version="1.0" encoding="x-no-such"?><r/>', "content.xml")


# --- caps on what a read document may hold ------------------------------------------------


def test_units_and_text_over_the_caps_are_too_large_naming_the_limit():
    data = corpus_file("cross_reference.docx").read_bytes()
    doc = adapters.read(data)
    with pytest.raises(TooLargeError, match=f"has {len(doc.units)} units; the limit is {len(doc.units) - 1}") as exc:
        adapters.read(data, limits=Limits(max_units=len(doc.units) - 1))
    assert exc.value.code == "too_large" and "LEDGER_MAX_UNITS" in exc.value.message
    with pytest.raises(TooLargeError, match="LEDGER_MAX_TEXT_CHARS"):
        adapters.read(data, limits=Limits(max_text_chars=10))
    assert adapters.read(data, limits=Limits(max_units=0, max_text_chars=0)).units
