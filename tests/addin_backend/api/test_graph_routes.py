"""The graph and impact routes over HTTP (in process), on real uploads and hand-built models."""
from __future__ import annotations

import io

import networkx as nx
import pytest

from addin_backend.graph import FAST_STAGES, build_graph
from tests.addin_backend.api.editing import (  # noqa: F401  (app, client, report: fixtures)
    app, client, report, running_job, upload,
)
from tests.addin_backend.edits.propagate_docs import report_doc
from tests.conftest import corpus_file


UNKNOWN = "0123456789abcdef01234567"


@pytest.fixture(scope="module")
def refs(client):
    """referenceAllInOne.odt: a paragraph with three reference fields, uploaded, graph complete."""
    body = upload(client, corpus_file("referenceAllInOne.odt"))
    units = {u["text"]: u["id"] for u in client.get(f"/api/v1/documents/{body['id']}/units").json["units"]}
    return body["id"], units


def test_the_graph_as_json_after_the_job(client, refs):
    doc_id, units = refs
    g = client.get(f"/api/v1/documents/{doc_id}/graph")
    assert g.status_code == 200 and g.mimetype == "application/json"
    body = g.json
    assert body["document"] == doc_id and body["complete"] is True
    assert body["stages"] == ["contains", "references", "depends"]  # RELATED is off in these tests
    assert {n["id"] for n in body["nodes"]} == set(units.values()) | {"document"}
    ref = units["A reference to Some text, A list item and A header."]
    cited = sorted((e["target"], e["evidence"]) for e in body["edges"] if e["type"] == "REFERENCES")
    assert all(e["source"] == ref for e in body["edges"] if e["type"] == "REFERENCES")
    assert cited == sorted([(units["Some text."], "Some text"), (units["A list item"], "A list item"),
                            (units["A header"], "A header")])
    assert body["stats"]["edges_by_type"]["REFERENCES"] == 3 and body["broken_references"] == []


def test_graph_types_filter_and_other_formats(client, refs):
    doc_id, units = refs
    only = client.get(f"/api/v1/documents/{doc_id}/graph?types=REFERENCES").json
    assert {e["type"] for e in only["edges"]} == {"REFERENCES"} and len(only["edges"]) == 3
    assert len(only["nodes"]) == len(units) + 1  # every node stays
    contains = client.get(f"/api/v1/documents/{doc_id}/graph?types=CONTAINS,REFERENCES").json
    assert {e["type"] for e in contains["edges"]} == {"CONTAINS", "REFERENCES"}
    gml = client.get(f"/api/v1/documents/{doc_id}/graph?format=graphml&types=REFERENCES")
    assert gml.status_code == 200 and gml.mimetype == "application/graphml+xml"
    back = nx.read_graphml(io.BytesIO(gml.data))
    assert back.number_of_edges() == 3 and back.number_of_nodes() == len(units) + 1
    png = client.get(f"/api/v1/documents/{doc_id}/graph?format=png")
    assert png.status_code == 200 and png.mimetype == "image/png" and png.data[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("query", ["format=svg", "types=CITES", "types=REFERENCES,", "types="])
def test_graph_bad_query_is_400(client, refs, query):
    r = client.get(f"/api/v1/documents/{refs[0]}/graph?{query}")
    assert r.status_code == 400 and r.json["error"]["code"] == "invalid_request"


def test_graph_of_an_unknown_document_is_404(client):
    for r in (client.get(f"/api/v1/documents/{UNKNOWN}/graph"),
              client.post(f"/api/v1/documents/{UNKNOWN}/impact", json={"unit": "p-1"})):
        assert r.status_code == 404 and r.json["error"]["code"] == "unknown_document"


def test_graph_not_ready_names_the_job_then_the_early_graph_answers(app, client):
    doc = report_doc()
    doc_id = running_job(app, doc)
    r = client.get(f"/api/v1/documents/{doc_id}/graph")
    assert r.status_code == 409 and r.json["error"]["code"] == "graph_not_ready"
    details = r.json["error"]["details"]
    assert details["job"] == f"{doc_id}-graph" and details["status"] == "running" and details["stage"] == "references"
    assert details["links"] == {"job": f"/api/v1/jobs/{doc_id}-graph", "events": f"/api/v1/jobs/{doc_id}-graph/events"}
    assert client.post(f"/api/v1/documents/{doc_id}/impact", json={"unit": "f2"}).json["error"]["code"] == "graph_not_ready"

    early = running_job(app, doc, graph=build_graph(doc, stages=FAST_STAGES))
    g = client.get(f"/api/v1/documents/{early}/graph").json
    assert g["complete"] is False and g["stages"] == ["contains", "references"]
    assert not [e for e in g["edges"] if e["type"] == "DEPENDS"]
    imp = client.post(f"/api/v1/documents/{early}/impact", json={"unit": "f2"}).json
    assert imp["complete"] is False and [i["unit"] for i in imp["impacted"] if i["distance"] == 1] == ["p1", "p2", "p3"]


def test_a_job_that_ended_without_a_graph_gets_the_fast_one(app, client):
    from tests.addin_backend.api.conftest import seed

    doc_id = seed(app, doc=report_doc())  # its job is done without a graph (no builder)
    g = client.get(f"/api/v1/documents/{doc_id}/graph").json
    assert g["complete"] is False and g["stages"] == list(FAST_STAGES)
    # p4's reference field points at the caption c3; a reference into a caption cites its figure
    assert ("p4", "f3") in {(e["source"], e["target"]) for e in g["edges"] if e["type"] == "REFERENCES"}


def test_impact_of_a_figure_lists_its_citers_with_evidence(client, report):
    r = client.post(f"/api/v1/documents/{report}/impact", json={"unit": "f2"})
    assert r.status_code == 200, r.json
    body = r.json
    assert body["target"] == {"unit": "f2", "label": "Figure 2", "kind": "figure", "start": None, "end": None,
                              "units": ["f2"], "how": "id"}
    assert body["complete"] is True and body["depth"] == 2 and body["types"] == ["REFERENCES", "DEPENDS"]
    first = [(i["unit"], i["via"][0]["type"], i["via"][0]["evidence"]) for i in body["impacted"] if i["distance"] == 1]
    assert first == [("p1", "REFERENCES", "Figures 2-3"), ("p2", "REFERENCES", "Figure 2"),
                     ("p3", "REFERENCES", "Figures 1-3")]
    for item in body["impacted"]:
        assert len(item["via"]) == item["distance"] and item["via"][0]["from"] == "f2"
        assert item["via"][-1]["to"] == item["unit"]
    assert body["references"] == [] and body["broken_references"] == []


def test_impact_of_a_selection_narrows_what_it_references(client, refs):
    doc_id, units = refs
    ref = units["A reference to Some text, A list item and A header."]
    text = "A reference to Some text, A list item and A header."
    at = text.index("A list item")
    whole = client.post(f"/api/v1/documents/{doc_id}/impact", json={"unit": ref}).json
    assert sorted(r["unit"] for r in whole["references"]) == sorted(
        [units["Some text."], units["A list item"], units["A header"]])
    sel = {"text": "A list item", "unit": ref, "start": at, "end": at + len("A list item")}
    narrow = client.post(f"/api/v1/documents/{doc_id}/impact", json={"selection": sel}).json
    assert [(r["unit"], r["type"], r["evidence"], r["from"]) for r in narrow["references"]] == [
        (units["A list item"], "REFERENCES", "A list item", ref)]
    assert (narrow["target"]["start"], narrow["target"]["end"], narrow["target"]["how"]) == (at, at + 11, "selection")
    # offsets that no longer cover the text: it is looked up in the unit instead
    moved = client.post(f"/api/v1/documents/{doc_id}/impact", json={"selection": {**sel, "start": 0, "end": 3}}).json
    assert (moved["target"]["start"], moved["target"]["end"]) == (at, at + 11)
    # without a unit the selected text is found in the document
    found = client.post(f"/api/v1/documents/{doc_id}/impact", json={"selection": {"text": "Some text."}}).json
    assert found["target"]["unit"] == units["Some text."]
    assert [(i["unit"], i["distance"]) for i in found["impacted"]] == [(ref, 1)]


def test_impact_follows_dependents_of_dependents_up_to_depth(client, report):
    deep = client.post(f"/api/v1/documents/{report}/impact", json={"unit": "p5", "depth": 3}).json
    shallow = client.post(f"/api/v1/documents/{report}/impact", json={"unit": "p5", "depth": 1}).json
    assert {i["unit"] for i in shallow["impacted"]} == {i["unit"] for i in deep["impacted"] if i["distance"] == 1}
    assert "p6" in {i["unit"] for i in shallow["impacted"]}  # "by Theorem 1"
    assert all(i["distance"] <= 1 for i in shallow["impacted"])
    contains = client.post(f"/api/v1/documents/{report}/impact",
                           json={"unit": "p5", "depth": 1, "types": ["CONTAINS"]}).json
    assert [(i["unit"], i["via"][0]["type"]) for i in contains["impacted"]] == [("s3", "CONTAINS")]


@pytest.mark.parametrize("body, status, code", [
    ({}, 400, "invalid_request"),
    ({"unit": "f2", "selection": {"text": "x"}}, 400, "invalid_request"),
    ({"unit": "f2", "colour": "red"}, 400, "invalid_request"),
    ({"unit": "f2", "depth": 0}, 400, "invalid_request"),
    ({"unit": "f2", "types": ["CITES"]}, 400, "invalid_request"),
    ({"selection": {"text": "x", "unit": "f2", "start": 5}}, 400, "invalid_request"),
    ({"selection": {"text": "x", "unit": "p1", "start": 2, "end": 900}}, 400, "invalid_request"),
    ({"unit": "p-nope"}, 404, "unknown_unit"),
    ({"selection": {"text": "x", "unit": "p-nope"}}, 404, "unknown_unit"),
    ({"selection": {"text": "words that are in no unit of this report at all"}}, 404, "unknown_unit"),
])
def test_impact_errors(client, report, body, status, code):
    r = client.post(f"/api/v1/documents/{report}/impact", json=body)
    assert (r.status_code, r.json["error"]["code"]) == (status, code), r.json
    assert r.json["error"]["message"]


def test_impact_needs_a_json_body(client, report):
    r = client.post(f"/api/v1/documents/{report}/impact", data="unit=f2", content_type="text/plain")
    assert r.status_code == 400 and "JSON" in r.json["error"]["message"]
