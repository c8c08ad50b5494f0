"""The namespace layer: Clark names, prefixes, and Strict OOXML read as transitional."""
from __future__ import annotations

from lxml import etree

from adapters.docx.oxml import NSMAP, is_strict, load_part, prefixed, qn, to_transitional, xpath
from adapters.package import open_package
from tests.conftest import corpus_file


def test_qn_and_prefixed_round_trip():
    assert qn("w:p") == "{%s}p" % NSMAP["w"]
    assert prefixed(qn("m:oMath")) == "m:oMath"
    assert prefixed("{urn:unknown}x") == "{urn:unknown}x"


def test_xpath_always_passes_the_namespace_map():
    root = etree.fromstring(f'<w:body xmlns:w="{NSMAP["w"]}"><w:p/><w:p/></w:body>'.encode())
    assert len(xpath(root, "w:p")) == 2


def test_strict_parts_are_mapped_to_transitional_names():
    pkg = open_package(corpus_file("strict.docx").read_bytes())
    raw = pkg.read(pkg.main_part)
    assert is_strict(raw)
    assert etree.QName(pkg.xml(pkg.main_part)).namespace == "http://purl.oclc.org/ooxml/wordprocessingml/main"
    root = load_part(pkg, pkg.main_part)
    assert root.tag == qn("w:document")
    assert root.find(qn("w:body")).find(qn("w:p")) is not None
    assert b"purl.oclc.org/ooxml/wordprocessingml" not in to_transitional(raw)
    tabs = open_package(corpus_file("tabs.docx").read_bytes())
    assert load_part(tabs, tabs.main_part) is tabs.xml(tabs.main_part)  # transitional: no second parse
