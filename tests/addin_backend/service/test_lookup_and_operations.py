"""The service functions ``ledger mcp`` added: find and paged reads of a long document, and a
client's own operations planned (validated, propagated, verified) as an engine's are."""
from __future__ import annotations

import pytest

from addin_backend.errors import EditConflictError, InvalidRequestError, UnknownUnitError
from addin_backend.service import graphs, lookup
from addin_backend.service.edits import plan_operations
from tests.addin_backend.edits.docs import make_doc


def _doc():
    return make_doc([
        ("s1", "section", "Definitions", None, "Section 1", "1", "Heading 1", None, 1),
        ("d1", "paragraph", '"Service Credit" means a refund of fees for missed targets.', "s1"),
        ("s2", "section", "Credits", None, "Section 2", "2", "Heading 1", None, 1),
        ("p1", "paragraph", "A Service Credit is paid monthly, as Section 1 says.", "s2"),
        ("p2", "paragraph", "Fees exclude any Service Credit.", "s2"),
    ])


def test_find_names_units_by_label_then_term_then_text():
    doc = _doc()
    G = graphs.build(doc, "no_related")
    by_label = lookup.find(doc, G, "Section 2")
    assert [(m["id"], m["how"]) for m in by_label["matches"]] == [("s2", "label")]
    by_term = lookup.find(doc, G, "the Service Credit rules")  # the term the query uses
    assert by_term["matches"][0]["id"] == "d1" and by_term["matches"][0]["how"] == "term"
    by_text = lookup.find(doc, G, "paid   monthly")
    (hit,) = by_text["matches"]
    assert (hit["id"], hit["how"]) == ("p1", "text") and doc.unit("p1").text[hit["start"]:hit["end"]] == "paid monthly"
    assert lookup.find(doc, G, "Service Credit", limit=1)["total"] == 3  # every match counted, one shown
    with pytest.raises(InvalidRequestError):
        lookup.find(doc, G, "   ")


def test_read_units_pages_by_units_and_tokens():
    doc = _doc()
    first = lookup.read_units(doc, limit=2)
    assert [u["id"] for u in first["units"]] == ["s1", "d1"] and first["next_offset"] == 2
    rest = lookup.read_units(doc, offset=first["next_offset"], limit=200)
    assert [u["id"] for u in rest["units"]] == ["s2", "p1", "p2"] and rest["next_offset"] is None
    tight = lookup.read_units(doc, max_tokens=1)
    assert len(tight["units"]) == 1 and tight["next_offset"] == 1  # never an empty page
    assert [u["id"] for u in lookup.read_units(doc, ids=["p2", "s1"])["units"]] == ["p2", "s1"]
    with pytest.raises(UnknownUnitError):
        lookup.read_units(doc, ids=["nope"])
    with pytest.raises(InvalidRequestError):
        lookup.read_units(doc, limit=lookup.MAX_PAGE_UNITS + 1)


def test_a_clients_replacement_of_a_definition_is_propagated_to_its_users():
    doc = _doc()
    G = graphs.build(doc, "no_related")
    text = doc.unit("d1").text
    at = text.index("Service Credit")
    plan = plan_operations(doc, G, [{"op": "replace", "unit": "d1", "start": at, "end": at + 14,
                                     "text": "Fee Credit", "before": text, "id": "mine"}],
                           instruction="use 'Fee Credit'", author="Ada", semantic=False)
    assert plan.engine == "client" and [e.id for e in plan.operations] == ["mine"]
    assert plan.operations[0].source == "client" and plan.operations[0].author == "Ada"
    assert {e.unit for e in plan.propagated} == {"p1", "p2"}
    assert all(e.source == "mine" and e.reason.startswith("DEPENDS:") for e in plan.propagated)
    assert plan.targets == ["d1"] and plan.context is not None


def test_a_clients_operations_are_refused_as_an_engines_are():
    doc = _doc()
    G = graphs.build(doc, "fast")
    with pytest.raises(UnknownUnitError):
        plan_operations(doc, G, [{"op": "delete", "unit": "nope"}], semantic=False)
    with pytest.raises(EditConflictError):
        plan_operations(doc, G, [{"op": "replace", "unit": "p1", "start": 0, "end": 1, "text": "B",
                                  "before": "stale"}], semantic=False)
    with pytest.raises(InvalidRequestError, match="prop-N"):
        plan_operations(doc, G, [{"op": "delete", "unit": "p1", "id": "prop-1"}], semantic=False)
    with pytest.raises(InvalidRequestError, match="repeated"):
        plan_operations(doc, G, [{"op": "delete", "unit": "p1", "id": "a"}, {"op": "delete", "unit": "p2", "id": "a"}],
                        semantic=False)
    with pytest.raises(InvalidRequestError):
        plan_operations(doc, G, [], semantic=False)
