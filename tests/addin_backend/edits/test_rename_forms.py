"""Renames reach every form of a term — plural, possessive, case — in every unit, and nothing else."""
from __future__ import annotations

import pytest

from addin_backend.edits import apply_to_document, expand_rename
from addin_backend.edits.terms import find_term
from addin_backend.errors import InvalidRequestError, UnknownUnitError
from tests.addin_backend.edits.docs import contract  # noqa: F401 - fixture


def renamed(text: str, old: str, new: str) -> str:
    out, pos = [], 0
    for start, end, repl in find_term(text, old, new):
        out.append(text[pos:start] + repl)
        pos = end
    return "".join(out) + text[pos:]


@pytest.mark.parametrize(
    "text, old, new, expected",
    [
        ("A widget, two widgets, the widget's lid, the widgets' lids.", "widget", "gadget",
         "A gadget, two gadgets, the gadget's lid, the gadgets' lids."),
        ("The widget\u2019s owner; Widgets sell; WIDGET RECALL.", "widget", "gadget",
         "The gadget\u2019s owner; Gadgets sell; GADGET RECALL."),
        ("Widgetry, subwidget, widget2, widget_id and widget-based tools.", "widget", "gadget",
         "Widgetry, subwidget, widget2, widget_id and gadget-based tools."),
        ("The Ledger and the ledger and the LEDGER.", "Ledger", "Journal",
         "The Journal and the journal and the JOURNAL."),
        ("Each policy; all policies; Policies apply.", "policy", "rule", "Each rule; all rules; Rules apply."),
        ("A Purchase Order, two purchase  orders, purchase order terms.", "purchase order", "sales order",
         "A Sales Order, two sales orders, sales order terms."),
        ("US users must tell us.", "US", "EU", "EU users must tell us."),
        ("Use the widget. Widgets too.", "widget", "GraphQL", "Use the GraphQL. GraphQLs too."),
        ("Two classes, one class.", "class", "group", "Two groups, one group."),
        ("The widgets and a widget.", "widgets", "gadgets", "The gadgets and a gadget."),
        ("Call the widget team.", "widget", "Gadget", "Call the Gadget team."),
    ],
)
def test_term_forms(text, old, new, expected):
    assert renamed(text, old, new) == expected


def test_rename_reaches_captions_table_cells_titles_and_notes(contract):
    edits = expand_rename(contract, "widget", "gadget", author="Ana", reason="rename per legal")
    assert [(e.unit, e.start, e.end, e.old, e.text) for e in edits] == [
        ("t", 0, 6, "Widget", "Gadget"),
        ("p2", 5, 11, "widget", "gadget"),
        ("p2", 27, 34, "Widgets", "Gadgets"),
        ("p2", 57, 63, "widget", "gadget"),
        ("c1", 14, 20, "widget", "gadget"),
        ("p5", 27, 33, "WIDGET", "GADGET"),
        ("tb1", 17, 23, "widget", "gadget"),
        ("tb1", 35, 42, "widgets", "gadgets"),
        ("c2", 9, 15, "Widget", "Gadget"),
        ("c3", 10, 16, "Widget", "Gadget"),
        ("fn1", 26, 33, "widgets", "gadgets"),
    ]
    assert all(e.op == "replace" and e.author == "Ana" and e.reason == "rename per legal" for e in edits)
    assert all(e.before == contract.unit(e.unit).text for e in edits)
    assert edits[0].date.endswith("Z") and len(edits[0].date) == 20

    after = apply_to_document(contract, edits)
    assert after.unit("p2").text == (
        "Each gadget is registered. Gadgets are billed monthly; a gadget\u2019s owner pays. Widgetry is not covered."
    )
    assert after.unit("tb1").text == "Item\tPrice\nBasic gadget\t10\nPremium gadgets\t20"
    assert after.unit("c1").text == "Figure 1: The gadget pipeline"
    # the cross-reference field shows the caption's text and is regenerated, not edited
    assert after.unit("p8").text == "Details are in Widget lifecycle above."


def test_rename_in_a_scope_stays_inside_it(contract):
    edits = expand_rename(contract, "widget", "gadget", scope="s3")
    assert [e.unit for e in edits] == ["p5", "tb1", "tb1", "c2", "c3"]
    with pytest.raises(UnknownUnitError):
        expand_rename(contract, "widget", "gadget", scope="nope")


def test_rename_to_the_same_words_changes_nothing(contract):
    assert expand_rename(contract, "Ledger", "Ledger") == []
    with pytest.raises(InvalidRequestError):
        expand_rename(contract, "  ", "x")
