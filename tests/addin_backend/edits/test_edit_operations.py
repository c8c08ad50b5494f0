"""Edit operations: validation against the document, the neutral-model result, specs, JSON."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.model import EDIT_OPS, EDIT_TYPES, Edit
from addin_backend.edits import (
    EDIT_SCHEMA,
    RESPONSE_SCHEMA,
    apply_to_document,
    edit_from_spec,
    edits_from_json,
    edits_to_json,
    validate_edits,
)
from addin_backend.errors import EditConflictError, InvalidRequestError, UnknownUnitError
from tests.addin_backend.edits.docs import contract  # noqa: F401 - fixture


def E(op, **kw):  # noqa: N802 - reads like the operation it builds
    return EDIT_TYPES[op](author="Ana", **kw)


# --- validation -----------------------------------------------------------------------------


def test_validation_fills_before_date_kind_and_style(contract):
    (rep, ins) = validate_edits(contract, [E("replace", unit="p3", start=24, end=26, text="45"),
                                           E("insert_after", unit="p4", text="Late fees apply.")])
    assert rep.before == "The retention period is 30 days after closure."
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rep.date)
    assert (ins.kind, ins.style, ins.before) == ("paragraph", "Body Text", "Payment is due within 30 days of the invoice.")
    # an insert after a table is a body paragraph in the document's usual paragraph style
    (after_table,) = validate_edits(contract, [E("insert_after", unit="tb1", text="Prices exclude tax.")])
    assert (after_table.kind, after_table.style) == ("paragraph", "Body Text")


def test_before_that_no_longer_matches_is_a_conflict(contract):
    with pytest.raises(EditConflictError) as err:
        validate_edits(contract, [E("replace", unit="p3", start=0, end=3, text="A", before="The retention period is 31 days.")])
    assert err.value.message == "edit 1 (replace): unit p3 has changed since the edit was made"
    assert err.value.details["actual"] == "The retention period is 30 days after closure."
    assert err.value.code == "edit_conflict"


@pytest.mark.parametrize(
    "edit, error, message",
    [
        (E("replace", unit="zz", start=0, end=1, text="x"), UnknownUnitError, "no unit has the id 'zz' (unit)"),
        (E("replace", unit="p3", start=40, end=60, text="x"), InvalidRequestError,
         "edit 1 (replace): span 40..60 runs past the text of unit p3 (46 characters)"),
        (E("replace", unit="p3", start=5, end=2, text="x"), InvalidRequestError,
         "edit 1 (replace): replace edit has an invalid span 5..2"),
        (E("replace", unit="tb1", start=5, end=20, text="x"), InvalidRequestError,
         "edit 1 (replace): a replace stays inside one paragraph (no line breaks)"),
        (E("set_text", unit="tb1", text="one cell"), InvalidRequestError,
         "edit 1 (set_text): set_text must keep the 3 paragraph(s) of unit tb1"),
        (E("move", unit="s2", after="li1"), InvalidRequestError,
         "edit 1 (move): cannot move unit s2 into itself or its descendants"),
        (E("move", unit="s4", after="s2", before_unit="s3"), InvalidRequestError,
         "edit 1 (move): a move gives after or before_unit, not both"),
        (E("move", unit="s4", after="nowhere"), UnknownUnitError, "no unit has the id 'nowhere' (move target)"),
        (E("move", unit="fn1", after="p1"), InvalidRequestError, "edit 1 (move): notes cannot be moved"),
        (E("insert_after", unit="p1", text="x", kind="table"), InvalidRequestError,
         "edit 1 (insert_after): cannot insert a table from text; insertable kinds: "
         "paragraph, list_item, section, caption, equation, title"),
        (E("insert_after", unit="p1", text="x", style="Heading 1"), InvalidRequestError,
         "edit 1 (insert_after): style 'Heading 1' belongs to section units, not to a new paragraph"),
        (E("insert_after", unit="p1", text="  "), InvalidRequestError,
         "edit 1 (insert_after): an inserted unit needs one line of non-empty text"),
    ],
)
def test_invalid_edits_get_clear_errors(contract, edit, error, message):
    with pytest.raises(error) as err:
        validate_edits(contract, [edit])
    assert err.value.message.startswith(message)


def test_edits_that_contradict_each_other(contract):
    cases = [
        ([E("replace", unit="p3", start=4, end=13, text="a"), E("replace", unit="p3", start=10, end=20, text="b")],
         "unit p3 gets overlapping replacements at 4..13 and 10..20"),
        ([E("delete", unit="p1"), E("replace", unit="p1", start=0, end=4, text="That")],
         "an edit (replace) refers to unit p1, which is deleted"),
        ([E("delete", unit="p6"), E("move", unit="p1", after="p6")], "an edit (move) refers to unit p6, which is deleted"),
        ([E("set_text", unit="p1", text="x"), E("replace", unit="p1", start=0, end=4, text="That")],
         "unit p1 gets set_text together with other text edits"),
        ([E("delete", unit="p1"), E("delete", unit="p1")], "unit p1 is deleted twice"),
    ]
    for edits, message in cases:
        with pytest.raises(InvalidRequestError) as err:
            validate_edits(contract, edits)
        assert err.value.message == message


def test_placements_become_concrete(contract):
    move_after_section, new_section, rename = (
        validate_edits(contract, [E("move", unit="s4", after="s2")])[0],
        validate_edits(contract, [E("insert_after", unit="s2", text="Archives", kind="section", style="Heading 1")])[0],
        validate_edits(contract, [E("rename", old="Ledger", text="Journal")]),
    )
    assert move_after_section.after == "c1"  # after Section 2's last unit, not its heading
    assert new_section.unit == "c1" and new_section.before == "Figure 1: The widget pipeline"
    assert [(e.op, e.unit, e.start, e.end, e.text) for e in rename] == [
        ("replace", "p1", 27, 33, "Journal"), ("replace", "p1", 47, 53, "Journal"),
        ("replace", "p7", 0, 6, "Journal"), ("replace", "fn1", 8, 14, "journal"),
    ]


# --- the neutral-model result ---------------------------------------------------------------


def test_apply_edits_text_and_structure(contract):
    edits = [
        E("replace", unit="p3", start=24, end=26, text="45"),
        E("insert_after", unit="p4", text="Late fees apply."),
        E("move", unit="s4", before_unit="s3"),
        E("delete", unit="f1"),
        E("delete", unit="c1"),
    ]
    after = apply_to_document(contract, edits)
    assert contract.unit("p3").text.endswith("30 days after closure.")  # the input is untouched
    ids = [u.id for u in after.units]
    new_id = ids[ids.index("p4") + 1]
    assert re.fullmatch(r"p-[0-9a-f]{10}", new_id)
    assert ids == ["t", "s1", "p1", "p2", "s2", "p3", "p4", new_id, "s21", "li1", "li2",
                   "s4", "p6", "s3", "p5", "tb1", "c2", "f2", "c3", "p8", "sA", "p7", "fn1"]
    inserted = after.unit(new_id)
    assert (inserted.kind, inserted.text, inserted.parent, inserted.style, inserted.meta) == (
        "paragraph", "Late fees apply.", "s2", "Body Text", {"edit": "inserted"})
    assert after.unit("p3").text == "The retention period is 45 days after closure."
    assert after.unit("p3").meta == {"edit": "changed"}
    assert after.unit("s4").meta == {"edit": "moved"} and after.unit("s4").parent is None
    assert after.unit("p6").parent == "s4"
    assert [u.order for u in after.units] == list(range(len(after.units)))


def test_inserts_after_one_unit_keep_their_order(contract):
    after = apply_to_document(contract, [E("insert_after", unit="li1", text="First."), E("insert_after", unit="li1", text="Second.")])
    i = [u.id for u in after.units].index("li1")
    assert [(u.kind, u.text, u.style, u.parent) for u in after.units[i + 1 : i + 4]] == [
        ("list_item", "First.", "List Bullet", "s21"),
        ("list_item", "Second.", "List Bullet", "s21"),
        ("list_item", "Logs are kept for 90 days.", "List Bullet", "s21"),
    ]


def test_a_new_subsection_gets_its_level_and_parent(contract):
    after = apply_to_document(contract, [E("insert_after", unit="c1", text="Archives", kind="section", style="Heading 2")])
    new = after.units[[u.id for u in after.units].index("c1") + 1]
    assert (new.kind, new.title, new.level, new.parent, new.id.startswith("sec-")) == ("section", "Archives", 2, "s2", True)


def test_moved_paragraph_and_deleted_heading_are_reparented(contract):
    after = apply_to_document(contract, [E("move", unit="p3", after="s4"), E("delete", unit="s21")])
    ids = [u.id for u in after.units]
    assert ids[ids.index("p6") + 1] == "p3"
    assert after.unit("p3").parent == "s4"
    assert after.unit("li1").parent == "s2" and after.unit("f1").parent == "s2"


def test_a_moved_section_carries_its_content(contract):
    after = apply_to_document(contract, [E("move", unit="s2", after="s4")])
    assert [u.id for u in after.units] == ["t", "s1", "p1", "p2", "s3", "p5", "tb1", "c2", "f2", "c3", "p8",
                                           "s4", "p6", "s2", "p3", "p4", "s21", "li1", "li2", "f1", "c1",
                                           "sA", "p7", "fn1"]


def test_a_move_next_to_a_unit_an_earlier_move_carried_along_is_refused(contract):
    # the title moves into Section 3, so Section 3 cannot then move before the title
    with pytest.raises(InvalidRequestError) as err:
        apply_to_document(contract, [E("move", unit="t", after="c2"), E("move", unit="s3", before_unit="t")])
    assert err.value.message == (
        "moving s3 next to t: after the earlier edits, t is part of the block being moved"
    )


def test_fields_and_titles_follow_text_changes(contract):
    p8 = contract.unit("p8")
    after = apply_to_document(contract, [
        E("replace", unit="p8", start=0, end=7, text="All details"),
        E("replace", unit="s2", start=0, end=9, text="Storage"),
    ])
    field = after.unit("p8").fields[0]
    assert after.unit("p8").text[field.start : field.end] == "Widget lifecycle" == p8.text[p8.fields[0].start : p8.fields[0].end]
    assert (field.start, field.end) == (19, 35)
    assert after.unit("s2").title == "Storage"


# --- specs and JSON -------------------------------------------------------------------------


def test_spec_replace_locates_the_words_and_trims_to_what_changes(contract):
    e = edit_from_spec(contract, {"op": "replace", "unit": "p3", "old": "is 30 days after", "text": "is 45 days after"},
                       author="Ana", reason="r")
    assert (e.start, e.end, e.old, e.text, e.before, e.source) == (
        24, 26, "30", "45", "The retention period is 30 days after closure.", None)
    curly = edit_from_spec(contract, {"op": "replace", "unit": "p2", "old": "widget's owner", "text": "gadget's owner"},
                           author="Ana")
    # "widget’s" is one word (adapters.words): the change covers it whole and keeps the document's apostrophe
    assert (curly.start, curly.end, curly.old, curly.text) == (57, 65, "widget\u2019s", "gadget\u2019s")
    compound = edit_from_spec(contract, {"op": "replace", "unit": "p3", "old": "30 days", "text": "30-day"}, author="Ana")
    assert (compound.start, compound.end, compound.old, compound.text) == (24, 31, "30 days", "30-day")
    second = edit_from_spec(contract, {"op": "replace", "unit": "p1", "old": "Ledger", "occurrence": 2, "text": "Journal"},
                            author="Ana")
    assert (second.start, second.end) == (47, 53)


@settings(max_examples=300, deadline=None)
@given(*[st.text(alphabet=st.sampled_from("ab 3-.,'\u2019\u201c\"\u0301"), max_size=10)] * 4)
def test_a_trimmed_replace_gives_the_same_text_and_cuts_only_between_words(pre, old, suf, new):
    from adapters import words
    from adapters.text import QUOTES
    from addin_backend.edits.specs import _trim_to_words

    before = pre + old + suf
    start, end, text = _trim_to_words(before, len(pre), len(pre) + len(old), new)
    assert (before[:start] + text + before[end:]).translate(QUOTES) == (pre + new + suf).translate(QUOTES)
    for cut in (start - len(pre), end - len(pre)):
        assert not any(a < cut < b for a, b in words.spans(old))


@pytest.mark.parametrize(
    "spec, message",
    [
        ({"op": "replace", "unit": "p1", "old": "Ledger", "text": "Journal"},
         "'Ledger' occurs 2 times in unit p1; give occurrence (1..2)"),
        ({"op": "replace", "unit": "p1", "old": "Ledger", "occurrence": 3, "text": "J"},
         "occurrence 3 of 'Ledger' does not exist in unit p1 (it occurs 2 times)"),
        ({"op": "replace", "unit": "p3", "old": "31 days", "text": "45 days"}, "'31 days' does not occur in unit p3"),
        ({"op": "replace", "unit": "p3", "text": "45"}, "replace edit needs old (the text to change) or start and end"),
        ({"op": "delete", "unit": "p3", "colour": "red"}, "unknown edit field(s): colour"),
        ({"op": "explode", "unit": "p3"}, "unknown edit op 'explode'"),
        ({"op": "set_text", "unit": "p3", "text": 5}, "set_text edit: text must be a string"),
        (["delete", "p3"], "an edit must be a JSON object, not list"),
    ],
)
def test_bad_specs(contract, spec, message):
    with pytest.raises(InvalidRequestError) as err:
        edit_from_spec(contract, spec, author="Ana")
    assert err.value.message.startswith(message)


def test_json_round_trip(contract):
    edits = validate_edits(contract, [
        E("replace", unit="p3", start=24, end=26, text="45", reason="retention", source="rules"),
        E("insert_after", unit="p4", text="Late fees apply."),
        E("move", unit="s4", before_unit="s3"),
        E("delete", unit="c1"),
        E("set_text", unit="p6", text="Either party may terminate at will."),
        E("replace", unit="p2", start=45, end=53, text="", old=" monthly"),
        E("replace", unit="p7", start=31, end=31, text=" It is kept offline.", old=""),
    ])
    data = json.loads(json.dumps(edits_to_json(edits)))
    assert data[0] == {"op": "replace", "unit": "p3", "text": "45", "start": 24, "end": 26, "author": "Ana",
                       "date": edits[0].date, "reason": "retention",
                       "before": "The retention period is 30 days after closure.", "source": "rules"}
    assert data[5]["text"] == "" and data[6]["old"] == ""  # a deletion keeps its empty text
    assert edits_from_json(data) == edits
    assert edits_from_json({"edits": data}) == edits
    with pytest.raises(InvalidRequestError, match=r"^edit 2: unknown edit field\(s\): colour$"):
        edits_from_json([data[0], {**data[1], "colour": "red"}])
    with pytest.raises(InvalidRequestError, match="edits must be a JSON list"):
        edits_from_json("delete everything")


@pytest.mark.parametrize(
    "data, message",
    [
        # an operation that lacks a field, or that no class spells, exists only as JSON now
        ({"op": "delete"}, "edit 1: delete edit needs unit"),
        ({"op": "frobnicate", "unit": "p1"}, "edit 1: unknown edit op 'frobnicate'"),
        ({"op": "delete", "unit": "p1", "text": "gone"}, "edit 1: a delete edit has no field text"),
        ({"op": "replace", "unit": "p1", "start": "0", "end": 1, "text": "x"}, "edit 1: replace edit: start must be an integer"),
        ({"op": "move", "unit": "p1"}, "edit 1: move edit needs after or before_unit"),
        ({"op": "insert_after", "unit": "p1", "text": "x", "kind": "chart"}, "edit 1: unknown unit kind 'chart'"),
    ],
)
def test_malformed_json_edits_get_clear_errors(data, message):
    with pytest.raises(InvalidRequestError) as err:
        edits_from_json([data])
    assert err.value.message.startswith(message) and err.value.code == "invalid_request"
    assert err.value.details == {"edit": 0}


def test_an_operation_is_one_type_per_op():
    """The JSON ``op`` picks the class; the class's fields are the operation's, and the JSON
    comes back as it went in."""
    data = {"op": "move", "unit": "s4", "before_unit": "s3", "author": "Ana", "id": "op-1"}
    e = edits_from_json([data])[0]
    assert type(e) is EDIT_TYPES["move"] and e.op == "move" and e.to_json() == data
    assert set(EDIT_TYPES) == set(EDIT_OPS)


def test_schema_is_strict_mode_friendly():
    props = EDIT_SCHEMA["properties"]
    assert EDIT_SCHEMA["required"] == list(props) and EDIT_SCHEMA["additionalProperties"] is False
    assert props["op"]["enum"] == list(EDIT_OPS)
    assert all("null" in p["type"] for name, p in props.items() if name != "op")
    assert RESPONSE_SCHEMA["properties"]["edits"]["items"] is EDIT_SCHEMA
    assert json.loads(json.dumps(RESPONSE_SCHEMA)) == RESPONSE_SCHEMA
