"""The documents service: upload keeps the bytes and the model, views over a stored document."""
from __future__ import annotations

import pytest

from adapters import read
from adapters.errors import NotADocumentError
from adapters.model import Document, Unit
from addin_backend.store import documents
from addin_backend.errors import InvalidRequestError, UnknownDocumentError, UnknownUnitError
from tests.conftest import corpus_file


def _doc() -> Document:
    return Document("odt", units=[
        Unit("title-1", "title", "A Report", 0),
        Unit("sec-1", "section", "Introduction", 1, label="Section 1", number="1", title="Introduction", level=1),
        Unit("p-1", "paragraph", "Text.", 2, parent="sec-1"),
        # A reader may parent a subsection to a unit that is not a section: the outline looks through it.
        Unit("sec-1-1", "section", "Scope", 3, label="Section 1.1", number="1.1", title="Scope", level=2, parent="p-1"),
        Unit("li-1", "list_item", "one", 4, parent="sec-1-1"),
        Unit("sec-2", "section", "Method", 5, label="Section 2", number="2", title="Method", level=1),
    ])


def test_outline_is_the_tree_of_titles_and_sections():
    tree = documents.outline(_doc())
    assert [(n["id"], n["title"]) for n in tree] == [("title-1", "A Report"), ("sec-1", "Introduction"), ("sec-2", "Method")]
    sub = tree[1]["children"]
    assert [(n["label"], n["number"], n["level"], n["children"]) for n in sub] == [("Section 1.1", "1.1", 2, [])]


def test_units_page_by_kind_offset_and_limit():
    doc = _doc()
    page = documents.list_units(doc, kind="section", offset=1, limit=1)
    assert page["total"] == 3 and page["offset"] == 1
    assert [u["id"] for u in page["units"]] == ["sec-1-1"]
    assert [u["id"] for u in documents.list_units(doc)["units"]] == [u.id for u in doc.units]
    with pytest.raises(InvalidRequestError):
        documents.list_units(doc, kind="chapter")
    assert documents.get_unit(doc, "li-1")["text"] == "one"
    with pytest.raises(UnknownUnitError):
        documents.get_unit(doc, "li-9")


def test_a_refused_upload_stores_nothing(store):
    with pytest.raises(NotADocumentError):
        documents.upload(store, b"just some text", filename="notes.txt")
    assert store.incr("probe", 60) == 1  # the store works; it simply holds no document


def test_unknown_documents_are_clear_errors(store):
    for call in (documents.get_meta, documents.load, documents.original, documents.delete):
        with pytest.raises(UnknownDocumentError) as exc:
            call(store, "0123abcd")
        assert exc.value.code == "unknown_document"


@pytest.mark.parametrize("name", ["cross_reference.docx", "lorem.odt"])
def test_upload_keeps_the_bytes_as_they_came_and_the_model_round_trips(store, name):
    data = corpus_file(name).read_bytes()
    meta, doc = documents.upload(store, data, filename=f"C:\\docs\\{name}")
    assert meta["filename"] == name and meta["size"] == len(data) and meta["format"] == name.rsplit(".", 1)[1]
    assert meta["units"] == len(read(data).units) == len(doc.units)
    stored, again = documents.original(store, meta["id"])
    assert stored == data and again == meta
    loaded = documents.load(store, meta["id"])
    assert [u.to_json() for u in loaded.units] == [u.to_json() for u in doc.units]
    assert [u.anchor for u in loaded.units] == [u.anchor for u in doc.units]
    documents.delete(store, meta["id"])
    with pytest.raises(UnknownDocumentError):
        documents.load(store, meta["id"])
