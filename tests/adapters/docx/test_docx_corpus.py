"""Every real .docx of the corpus reads into well-formed units (or a clear AdapterError), never a traceback."""
from __future__ import annotations

import json

import pytest

from adapters import read
from adapters.docx.context import load_context
from adapters.docx.textmap import unit_segments
from adapters.errors import AdapterError
from adapters.model import REVISION_KINDS, UNIT_KINDS
from adapters.package import open_package
from tests.conftest import CORPUS, corpus_files

DOCX = corpus_files(".docx")


def test_the_corpus_is_there():
    if not CORPUS.is_dir():
        pytest.skip("no corpus")
    assert len(DOCX) >= 120


@pytest.mark.parametrize("path", DOCX, ids=[p.name for p in DOCX])
def test_reads_into_consistent_units(path):
    data = path.read_bytes()
    try:
        doc = read(data, path=str(path))
    except AdapterError as exc:  # a clear, typed error is an acceptable answer
        assert exc.code and exc.message
        return
    json.dumps(doc.to_json())
    ids = [u.id for u in doc.units]
    assert len(set(ids)) == len(ids)
    assert [u.order for u in doc.units] == list(range(len(doc.units)))
    known = set(ids)
    for u in doc.units:
        assert u.kind in UNIT_KINDS
        assert u.parent is None or u.parent in known
        assert u.anchor is not None
        for f in u.fields:
            assert 0 <= f.start <= f.end <= len(u.text)
            assert f.target_unit is None or f.target_unit in known
        for b in u.bookmarks:
            assert 0 <= b.start <= b.end <= len(u.text)
    for r in doc.revisions:
        assert r.kind in REVISION_KINDS and r.unit in known
    outside = [u for u in doc.units if u.kind in ("footnote", "endnote", "header", "footer")]
    assert doc.units[len(doc.units) - len(outside):] == outside  # notes, headers, footers come after the body
    # the text walk rebuilds every unit from its anchor
    ctx = load_context(open_package(data), [])
    for u in doc.units:
        assert "".join(s.text for s in unit_segments(ctx.parts, u.anchor, ctx)) == u.text
