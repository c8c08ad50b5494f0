"""The strict door: every class of bad input gets its own clear error before any reader runs."""
from __future__ import annotations

import io
import zipfile

import pytest

from adapters.errors import (
    CorruptDocumentError,
    EncryptedDocumentError,
    MalformedXmlError,
    NotADocumentError,
    TooLargeError,
    UnsafeXmlError,
    UnsupportedFormatError,
    ZipBombError,
)
from adapters.package import Limits, open_package, parse_xml
from tests.conftest import corpus_file


def _zip(members: dict[str, bytes], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_empty_and_plain_text_are_not_documents():
    with pytest.raises(NotADocumentError):
        open_package(b"")
    with pytest.raises(NotADocumentError) as exc:
        open_package(b"Dear reader,\nthis is plain text.\n")
    assert exc.value.code == "not_a_document"


def test_pdf_is_named_as_such():
    with pytest.raises(NotADocumentError, match="PDF"):
        open_package(b"%PDF-1.7\n...")


def test_legacy_doc_is_unsupported_and_encrypted_ooxml_is_encrypted():
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 504
    with pytest.raises(UnsupportedFormatError):
        open_package(ole + b"WordDocument".decode().encode("utf-16-le"))
    with pytest.raises(EncryptedDocumentError) as exc:
        open_package(ole + "EncryptedPackage".encode("utf-16-le"))
    assert exc.value.code == "encrypted"


def test_truncated_real_docx_is_corrupt():
    data = corpus_file("cross_reference.docx").read_bytes()
    with pytest.raises(CorruptDocumentError) as exc:
        open_package(data[: len(data) // 2])
    assert exc.value.code == "corrupt"


def test_input_over_the_limit_is_too_large():
    data = corpus_file("cross_reference.docx").read_bytes()
    with pytest.raises(TooLargeError) as exc:
        open_package(data, Limits(max_input_bytes=len(data) - 1))
    assert exc.value.code == "too_large"


def test_high_ratio_member_is_a_zip_bomb():
    bomb = _zip({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"\0" * (64 << 20)})
    assert len(bomb) < 1 << 20
    with pytest.raises(ZipBombError) as exc:
        open_package(bomb)
    assert exc.value.category == "too_large"


def test_lying_header_sizes_are_caught_while_inflating():
    data = _zip({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<a/>" + b" " * (4 << 20)})
    pkg = open_package(data, Limits(max_member_bytes=8 << 20, max_ratio=10**9))
    pkg._limits = Limits(max_member_bytes=1 << 20)  # as if the header had lied
    with pytest.raises(ZipBombError):
        pkg.read("word/document.xml")


def test_too_many_members_is_a_zip_bomb():
    with pytest.raises(ZipBombError):
        open_package(_zip({f"m{i}": b"" for i in range(20)}), Limits(max_members=10))


def test_spreadsheet_and_other_odf_are_unsupported():
    with pytest.raises(UnsupportedFormatError, match="spreadsheet"):
        open_package(_zip({"[Content_Types].xml": b"<Types/>", "xl/workbook.xml": b"<w/>"}))
    ods = _zip({"mimetype": b"application/vnd.oasis.opendocument.spreadsheet", "content.xml": b"<x/>"},
               zipfile.ZIP_STORED)
    with pytest.raises(UnsupportedFormatError):
        open_package(ods)


def test_odf_manifest_encryption_is_encrypted():
    manifest = (b'<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
                b'<manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/>'
                b"</manifest:file-entry></manifest:manifest>")
    odt = _zip({"mimetype": b"application/vnd.oasis.opendocument.text", "META-INF/manifest.xml": manifest,
                "content.xml": b"garbage"})
    with pytest.raises(EncryptedDocumentError):
        open_package(odt)


def test_entity_expansion_is_refused_not_expanded():
    billion = (b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
               b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>')
    with pytest.raises(UnsafeXmlError) as exc:
        parse_xml(billion, "word/document.xml")
    assert "word/document.xml" in exc.value.message


def test_external_entity_is_refused():
    xxe = b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>'
    with pytest.raises(UnsafeXmlError):
        parse_xml(xxe, "content.xml")


OOO3_MATH = (b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE math:math PUBLIC "-//OpenOffice.org//DTD Modified W3C '
             b'MathML 1.01//EN" "math.dtd">\n<math:math xmlns:math="http://www.w3.org/1998/Math/MathML">'
             b"<math:mi>E</math:mi></math:math>")


@pytest.mark.parametrize("doctype", [
    b'<!DOCTYPE math:math PUBLIC "-//OpenOffice.org//DTD Modified W3C MathML 1.01//EN" "math.dtd">',
    b"<!DOCTYPE r SYSTEM 'r.dtd'>",
    b"<!DOCTYPE r>",
])
def test_a_doctype_naming_only_an_external_dtd_is_read_without_loading_it(doctype):
    root = parse_xml(OOO3_MATH if b"math" in doctype else b'<?xml version="1.0"?>' + doctype + b"<r>text</r>", "content.xml")
    assert "".join(root.itertext()) in ("E", "text")
    assert root.getroottree().docinfo.externalDTD is None  # never loaded


@pytest.mark.parametrize("xml", [
    b'<?xml version="1.0"?><!DOCTYPE r SYSTEM "r.dtd" [<!ATTLIST r a CDATA "x">]><r/>',  # an internal subset
    b'<?xml version="1.0"?><!DOCTYPE r [ ]><r/>',
    b'<?xml version="1.0"?><!DOCTYPE r SYSTEM "r.dtd"><r>&x;</r>',  # an entity only the DTD defines
])
def test_internal_subsets_and_entities_of_an_external_dtd_are_refused(xml):
    with pytest.raises(UnsafeXmlError):
        parse_xml(xml, "content.xml")


def test_deep_nesting_is_refused():
    deep = b"<a>" * 5000 + b"</a>" * 5000
    with pytest.raises(UnsafeXmlError, match="deeply"):
        parse_xml(deep, "content.xml")


def test_malformed_xml_names_the_part():
    with pytest.raises(MalformedXmlError) as exc:
        parse_xml(b"<w:document><w:body>", "word/document.xml")
    assert exc.value.part == "word/document.xml"
    assert exc.value.category == "corrupt"


def test_renamed_main_part_is_found_through_relationships():
    pkg = open_package(corpus_file("renamed_document_xml.docx").read_bytes())
    assert pkg.format == "docx"
    assert pkg.main_part and pkg.has(pkg.main_part)
