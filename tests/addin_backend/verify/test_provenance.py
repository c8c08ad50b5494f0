"""Whether a reviewed file is the document the operations were written into, and whether the
record it carries is the revision's (:mod:`addin_backend.verify.provenance`), on sentences."""
from __future__ import annotations

from adapters.model import edit_from_json
from addin_backend.verify.provenance import record_matches, unrelated
from tests.addin_backend.edits.docs import make_doc

ORIGINAL = make_doc([
    ("p1", "paragraph", "The client sends a request to the web site.", None),
    ("p2", "paragraph", "The server answers within two seconds.", None),
    ("p3", "paragraph", "A retry waits one second longer each time.", None),
    ("p4", "paragraph", "The web site keeps no cookies.", None),
])


def _reviewed(*texts: str):
    return make_doc([(f"p{i}", "paragraph", t, None) for i, t in enumerate(texts, 1)])


def test_a_review_of_the_same_document_is_related_even_with_its_edits_accepted():
    ops = [edit_from_json({"op": "set_text", "unit": "p2", "text": "The server answers within one second.",
                           "before": "The server answers within two seconds."})]
    reviewed = _reviewed("The client sends a request to the web site.", "The server answers within one second.",
                         "A retry waits one second longer each time.", "The web site keeps no cookies.")
    assert not unrelated(ORIGINAL, reviewed, ops)


def test_a_reviewer_who_typed_in_one_more_paragraph_is_still_related():
    reviewed = _reviewed("The client sends a request to the web site today.", "The server answers within two seconds.",
                         "A retry waits one second longer each time.", "The web site keeps no cookies.")
    assert not unrelated(ORIGINAL, reviewed, [])


def test_another_document_is_unrelated():
    reviewed = _reviewed("Water the roses on Monday.", "Prune the apple tree in March.",
                         "The server answers within two seconds.", "Compost needs air.")
    assert unrelated(ORIGINAL, reviewed, [])


def test_a_rename_touches_every_unit_that_uses_the_old_term():
    original = make_doc([
        ("p1", "paragraph", "The client sends a request to the web site.", None),
        ("p2", "paragraph", "The web site answers within two seconds.", None),
        ("p3", "paragraph", "A retry waits one second longer each time.", None),
        ("p4", "paragraph", "The web site keeps no cookies.", None),
    ])
    ops = [edit_from_json({"op": "rename", "old": "web site", "text": "website"})]
    reviewed = _reviewed("The client sends a request to the website.", "The website answers within two seconds.",
                         "A retry waits one second longer each time.", "The website keeps no cookies.")
    assert not unrelated(original, reviewed, ops)
    assert unrelated(original, reviewed, [])  # without the rename, three of four texts are gone


def test_a_record_matches_only_the_operations_it_was_written_with():
    ops = [{"id": "op-1", "op": "set_text", "unit": "p2", "text": "one second", "author": "Ada"}]
    assert record_matches({"v": 1, "operations": [dict(ops[0], comment="why")]}, ops)
    assert not record_matches({"v": 1, "operations": [dict(ops[0], text="two seconds")]}, ops)
    assert not record_matches({"v": 1, "operations": ops + ops}, ops)
    assert not record_matches(None, ops)
