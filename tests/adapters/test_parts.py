"""The package's XML parts as the writers see them (:mod:`adapters.parts`): which are checked at
read time, and the paragraph count taken while they inflate, before any tree is built."""
from __future__ import annotations

import pytest

from adapters import read
from adapters.errors import TooLargeError
from adapters.package import Limits, open_package
from adapters.parts import count_paragraphs, xml_parts
from tests.adapters.docx.docxkit import make_docx
from tests.adapters.odt.odt_build import h, odt, p
from tests.conftest import corpus_file

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def test_the_xml_parts_are_those_the_package_declares_xml():
    docx = open_package(corpus_file("comments.docx").read_bytes())
    parts = xml_parts(docx)
    assert parts[0] == "[Content_Types].xml"
    assert {"word/people.xml", "docProps/core.xml", "word/_rels/document.xml.rels", "_rels/.rels"} <= set(parts)
    assert all(n in docx.names for n in parts)
    odf = open_package(corpus_file("dormeur.odt").read_bytes())
    assert set(xml_parts(odf)) == {"META-INF/manifest.xml", "content.xml", "styles.xml", "meta.xml", "settings.xml"}
    # LibreOffice's empty Configurations2/accelerator/current.xml is not declared XML: never parsed
    assert "Configurations2/accelerator/current.xml" in odf.names


@pytest.mark.parametrize("make", [
    lambda n: make_docx("".join(f"<w:p><w:r><w:t>{i}</w:t></w:r></w:p>" for i in range(n))),
    # another prefix for the same namespace: counted by name, not by spelling
    lambda n: make_docx("", raw_document=(f'<x:document xmlns:x="{_W}"><x:body>'
                                          + "".join(f"<x:p><x:r><x:t>{i}</x:t></x:r></x:p>" for i in range(n))
                                          + "</x:body></x:document>").encode()),
    lambda n: odt("".join(h(f"H{i}", 1) if i % 5 == 0 else p(f"Paragraph {i}.") for i in range(n))),
], ids=["docx", "docx-prefix", "odt"])
def test_paragraphs_over_the_limit_are_refused_before_the_document_is_read(make):
    data = make(40)
    assert len(read(data, limits=Limits(max_paragraphs=40)).units) >= 30
    with pytest.raises(TooLargeError, match="more than 39 paragraphs"):
        read(data, limits=Limits(max_paragraphs=39))
    pkg = open_package(data)
    body = "content.xml" if pkg.format == "odt" else "word/document.xml"
    assert count_paragraphs(pkg, body, 10) == 11  # stops past the limit
    assert count_paragraphs(pkg, body, 10**6) == 40
    assert body not in pkg._cache  # streamed, not kept
