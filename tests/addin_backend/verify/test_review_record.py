"""Issue 24, item 18: in an ODT, a forged review record placed outside ``office:meta`` survived
apply, and ``ledger review --against`` then used it. Only a record where the format keeps it
counts now; a stray copy is reported, and dropped when LEDGER writes the record."""
from __future__ import annotations

import io
import json
import zipfile

import pytest

from adapters.properties import get_property, misplaced_properties
from addin_backend.errors import InvalidRequestError
from addin_backend.service.review import review_files
from addin_backend.verify.review import RECORD, embed_record, read_record
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
    assert read_record(written)["operations"][0]["id"] == "op-1"
