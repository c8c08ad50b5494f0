"""One vocabulary (adapters/vocabulary.py) for every layer and the task pane."""
from __future__ import annotations

from adapters import model, vocabulary
from addin_backend import findings
from addin_backend.api import schemas
from addin_backend.edits import engines
from addin_backend.graph import edges
from addin_backend import pane_vocabulary, retrieval


def test_the_pane_file_is_what_the_vocabulary_writes():
    assert pane_vocabulary.PATH.read_text(encoding="utf-8") == pane_vocabulary.js_module(), (
        "static/js/vocabulary.js is stale: run python -m addin_backend.pane_vocabulary")


def test_every_layer_uses_the_one_spelling():
    assert model.UNIT_KINDS is vocabulary.UNIT_KINDS and model.VIEWS is vocabulary.VIEWS
    assert edges.EDGE_TYPES is vocabulary.EDGE_TYPES is schemas.EDGE_TYPES
    assert (edges.CONTAINS, edges.REFERENCES, edges.DEPENDS, edges.RELATED) == vocabulary.EDGE_TYPES
    assert retrieval.STRATEGIES is vocabulary.STRATEGIES is schemas.STRATEGIES
    assert engines.ENGINE_NAMES is vocabulary.ENGINES is schemas.ENGINES
    assert findings.SEVERITIES is vocabulary.SEVERITIES
    assert set(model.EDIT_TYPES) == set(model.EDIT_OPS) == set(pane_vocabulary.values()["EDIT_OPS"])


def test_the_kind_groups_are_kinds():
    groups = (vocabulary.NOTE_KINDS, vocabulary.HEADING_KINDS, vocabulary.TEXT_KINDS, vocabulary.FLOAT_KINDS,
              vocabulary.DISPLAY_KINDS, vocabulary.INSERTABLE_KINDS)
    assert all(set(g) <= set(vocabulary.UNIT_KINDS) for g in groups)
    assert list(vocabulary.KIND_NAMES) == list(vocabulary.UNIT_KINDS)
    assert not set(vocabulary.INSERTABLE_KINDS) & {"figure", "table", "footnote", "endnote"}
