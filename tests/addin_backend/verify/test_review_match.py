"""Deciding each operation where it acts (``verify/review_match.py``), on documents written here."""
from __future__ import annotations

from adapters.model import Delete, Document, InsertAfter, Move, Replace, SetText, Unit
from addin_backend.edits.operations import apply_to_document
from addin_backend.verify.review_match import layout, match_view


def _doc() -> Document:
    texts = ["Introduction", "Each connection ID is chosen by an endpoint; a connection ID is opaque.",
             "Packets carry the connection ID.", "Endpoints retire old identifiers.", "Security",
             "An attacker cannot link a new connection ID to an old one.", "The end."]
    kinds = ["section", "paragraph", "paragraph", "paragraph", "section", "paragraph", "paragraph"]
    units = [Unit(f"u{i}", k, t, i, parent=None if k == "section" else ("u0" if i < 4 else "u4"))
             for i, (k, t) in enumerate(zip(kinds, texts))]
    return Document("docx", units)


def _rename(doc: Document) -> list[Replace]:
    out = []
    for u in doc.units:
        at = u.text.find("connection ID")
        while at >= 0:
            out.append(Replace(u.id, at, at + len("connection ID"), "connection identifier", before=u.text,
                               id=f"op-{len(out) + 1}"))
            at = u.text.find("connection ID", at + 1)
    return out


def _view(doc: Document, ops, applied: set[str]) -> list[str]:
    return apply_to_document(doc, [e for e in ops if e.id in applied]).lines("accepted", None)


def test_each_of_two_changes_in_one_paragraph_is_read_off_its_own_words():
    doc = _doc()
    ops = _rename(doc)
    assert [e.unit for e in ops] == ["u1", "u1", "u2", "u5"]
    plan = layout(doc, ops)
    for applied in ({"op-2"}, {"op-1", "op-3"}, set(), {"op-1", "op-2", "op-3", "op-4"}, {"op-4"}):
        got = match_view(plan, _view(doc, ops, applied))
        assert got.applied == applied and got.exact


def test_deleted_inserted_and_moved_units_are_decided_by_the_lines_present():
    doc = _doc()
    ops = [Delete("u3", id="d"), InsertAfter("u2", "A new paragraph about migration.", id="i"),
           Move("u6", after="u1", id="m"), SetText("u5", "An attacker cannot link identifiers.", id="s")]
    plan = layout(doc, ops)
    every = {"d", "i", "m", "s"}
    for k in range(16):
        applied = {x for n, x in enumerate(sorted(every)) if k >> n & 1}
        got = match_view(plan, _view(doc, ops, applied))
        assert got.applied == applied and got.exact, applied


def test_a_reviewer_who_also_typed_gets_the_closest_reading_not_an_exact_one():
    doc = _doc()
    ops = _rename(doc)
    lines = _view(doc, ops, {"op-1", "op-4"})
    lines[2] = lines[2].replace("Packets carry", "Every packet carries")  # typed by the reviewer
    lines[3] = lines[3] + " Really."  # typed in a paragraph no operation touched
    got = match_view(layout(doc, ops), lines)
    assert got.applied == {"op-1", "op-4"} and not got.exact


def test_two_paragraphs_merged_at_a_decision_are_judged_by_their_words():
    doc = _doc()
    ops = [Delete("u2", id="d2"), Delete("u3", id="d3")]
    # the reviewer accepted the deletion of u3 but its paragraph mark joined u2 (rejected) to u4
    lines = doc.lines("accepted", None)
    merged = lines[:2] + [lines[2] + lines[4]] + lines[5:]
    merged = [x for x in merged if x != lines[3]]
    got = match_view(layout(doc, ops), merged)
    assert got.applied == {"d3"} and not got.exact


def test_an_operation_that_changes_nothing_visible_counts_as_applied():
    doc = _doc()
    ops = [Replace("u1", 0, 4, "Each", before=doc.get("u1").text, id="same"), *_rename(doc)[:1]]
    got = match_view(layout(doc, ops), doc.lines("accepted", None))
    assert got.applied == {"same"} and got.exact


def _typed_everywhere(paragraphs: int) -> tuple[Document, list[Replace]]:
    texts = [" ".join(f"The widget {i}.{k} sends a frame to the widget server." for k in range(2))
             for i in range(paragraphs)]
    doc = Document("docx", [Unit(f"p{i}", "paragraph", t, i) for i, t in enumerate(texts)])
    ops = []
    for u in doc.units:
        at = u.text.find("widget")
        while at >= 0:
            ops.append(Replace(u.id, at, at + 6, "gadget", before=u.text, id=f"op-{len(ops) + 1}"))
            at = u.text.find("widget", at + 1)
    return doc, ops


def test_a_word_typed_in_every_paragraph_is_decided_paragraph_by_paragraph(monkeypatch):
    # a reviewer typed in every paragraph (Track Changes off): no untouched unit to cut the view
    # at; each paragraph still shows plainly in its own line, so each is decided alone and no
    # alignment spans more than a paragraph's neighbourhood (it spanned the whole view, per try)
    from addin_backend.verify import review_match

    doc, ops = _typed_everywhere(120)
    plan = layout(doc, ops)
    applied = {e.id for k, e in enumerate(ops) if k * 7 % 3}
    view = [line + " typed" for line in _view(doc, ops, applied)]
    view.insert(40, "A paragraph the reviewer added.")
    widest = [0]
    real = review_match._matched

    def measured(a, b):
        widest[0] = max(widest[0], len(a), len(b))
        return real(a, b)

    monkeypatch.setattr(review_match, "_matched", measured)
    got = match_view(plan, view)
    assert got.applied == applied and not got.exact
    assert 0 < widest[0] <= 3 * 25  # a paragraph is 22 words; the whole view is 2,600


def test_paragraphs_a_reviewer_merged_stay_decided_together():
    doc, ops = _typed_everywhere(12)
    # the paragraph mark between p5 and p6 removed: one line holds both, both fully renamed
    applied = {e.id for e in ops}
    view = _view(doc, ops, applied)
    view[5:7] = [view[5] + view[6]]
    view = [line + " typed" for line in view]
    got = match_view(layout(doc, ops), view)
    assert got.applied == applied and not got.exact
