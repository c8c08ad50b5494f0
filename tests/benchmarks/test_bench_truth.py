"""align() maps a reader's units onto truth keys; score_edges() scores predicted edges through it."""
from __future__ import annotations

import copy

import networkx as nx
import pytest

from adapters.model import Document, IdMaker, Unit
from benchmarks.truth import align, load, normalise, score_edges

from tests.benchmarks.bench_fixtures import synth_10k  # noqa: F401  (fixtures)


def as_read(truth: dict, drop=(), rename=None, extra_after=(), edit=None) -> Document:
    """A Document as a reader would make it from the truth, with controlled differences."""
    ids, units = IdMaker(), []
    for t in truth["units"]:
        if t["key"] in drop:
            continue
        kind, text = (rename or {}).get(t["key"], t["kind"]), t["text"]
        if edit and t["key"] in edit:
            text = edit[t["key"]]
        units.append(Unit(id=ids(kind, text), kind=kind, text=text, order=len(units), label=t["label"],
                          number=t["number"]))
        if t["key"] in extra_after:
            units.append(Unit(id=ids("paragraph", f"stray {t['key']}"), kind="paragraph",
                              text=f"A stray paragraph the truth does not know ({t['key']}).", order=len(units)))
    return Document(format="docx", units=units)


@pytest.fixture(scope="module")
def truth(synth_10k):
    return synth_10k.truth


def test_an_exact_reading_aligns_every_unit(truth):
    doc = as_read(truth)
    mapping = align(doc, truth)
    assert len(mapping) == len(truth["units"]) and not mapping.missing and not mapping.extra
    assert not mapping.approximate
    assert [mapping[t["key"]] for t in truth["units"]] == [u.id for u in doc.units]


def test_a_few_missing_extra_and_differently_read_units(truth):
    keys = [t["key"] for t in truth["units"]]
    paras = [k for k in keys if k.startswith("p-")]
    eq = next(k for k in keys if k.startswith("eq-"))
    fig = next(k for k in keys if k.startswith("fig-"))
    units = {t["key"]: t for t in truth["units"]}
    drop = {paras[3], paras[40], "cap-tbl-1"}
    edit = {
        paras[10]: "  " + units[paras[10]]["text"].replace(". ", ".\n   ") + "\t",  # whitespace only
        eq: f"({units[eq]['number']})",  # a reader that does not open the formula
        fig: "",  # a reader that ignores alt text
        paras[20]: units[paras[20]]["text"][:-1] + "!",  # nearly the same text
    }
    doc = as_read(truth, drop=drop, extra_after={paras[5], paras[60]}, edit=edit, rename={"title": "paragraph"})
    mapping = align(doc, truth)
    by_id = {u.id: u for u in doc.units}
    assert sorted(mapping.missing) == sorted(drop)
    assert len(mapping.extra) == 2 and all(by_id[i].text.startswith("A stray") for i in mapping.extra)
    for key in keys:
        if key in drop:
            continue
        unit = by_id[mapping[key]]
        assert normalise(unit.text) == normalise(edit.get(key, units[key]["text"]))
    assert {eq, fig, paras[20], "title"} <= set(mapping.approximate)
    assert "aligned" in mapping.summary()


def _mapped_edges(truth, mapping, types=None):
    return [(mapping[e["source"]], mapping[e["target"]], e["type"]) for e in truth["edges"]
            if (types is None or e["type"] in types) and e["source"] in mapping and e["target"] in mapping]


def test_perfect_prediction_scores_one_for_every_type(truth):
    mapping = align(as_read(truth), truth)
    report = score_edges(_mapped_edges(truth, mapping), truth, mapping)
    assert set(report) == {"CONTAINS", "REFERENCES", "DEPENDS", "RELATED"}
    for typ, r in report.items():
        n = sum(e["type"] == typ for e in truth["edges"])
        assert (r["precision"], r["recall"], r["tp"], r["fp"], r["fn"]) == (1.0, 1.0, n, 0, 0), typ


def test_misses_and_spurious_edges_are_counted_and_shown(truth):
    mapping = align(as_read(truth), truth)
    refs = [e for e in truth["edges"] if e["type"] == "REFERENCES"]
    dropped = refs[:5]
    predicted = [dict(source=mapping[e["source"]], target=mapping[e["target"]], type=e["type"])
                 for e in truth["edges"] if e not in dropped]
    keys = list(mapping)
    predicted += [{"source": mapping[keys[1]], "target": mapping[keys[2]], "type": "REFERENCES"},
                  {"source": mapping[keys[3]], "target": mapping[keys[9]], "type": "depends"}]
    related = [e for e in truth["edges"] if e["type"] == "RELATED"]
    predicted += [{"source": mapping[e["target"]], "target": mapping[e["source"]], "type": "RELATED"} for e in related]
    report = score_edges(predicted, truth, mapping, examples=3)
    r = report["REFERENCES"]
    assert (r["tp"], r["fn"], r["fp"]) == (len(refs) - 5, 5, 1)
    assert r["recall"] == pytest.approx((len(refs) - 5) / len(refs))
    assert r["precision"] == pytest.approx((len(refs) - 5) / (len(refs) - 4))
    assert r["misses"] == [{k: e[k] for k in ("source", "target", "evidence", "how")} for e in dropped[:3]]
    assert r["spurious"] == [{"source": keys[1], "target": keys[2]}]
    assert sum(h["fn"] for h in r["by_how"].values()) == 5
    assert report["DEPENDS"]["fp"] == 1 and report["RELATED"]["precision"] == 1.0


def test_unaligned_units_are_left_out_on_both_sides(truth):
    drop = {"sec-2"}
    doc = as_read(truth, drop=drop)
    mapping = align(doc, truth)
    contains = [e for e in truth["edges"] if e["type"] == "CONTAINS"]
    predicted = _mapped_edges(truth, mapping) + [("no-such-unit", doc.units[0].id, "CONTAINS")]
    r = score_edges(predicted, truth, mapping)["CONTAINS"]
    touching = sum("sec-2" in (e["source"], e["target"]) for e in contains)
    assert r["unaligned"] == touching and r["ignored"] == 1 and r["recall"] == 1.0


def test_a_networkx_multigraph_is_accepted(truth, tmp_path):
    mapping = align(as_read(truth), truth)
    g = nx.MultiDiGraph()
    for s, t, typ in _mapped_edges(truth, mapping, {"DEPENDS", "REFERENCES"}):
        g.add_edge(s, t, key=typ)
    report = score_edges(g, truth, mapping)
    assert report["DEPENDS"]["recall"] == report["REFERENCES"]["recall"] == 1.0
    assert report["CONTAINS"]["recall"] == 0.0 and report["CONTAINS"]["precision"] == 1.0
    path = tmp_path / "t.truth.json"
    import json

    path.write_text(json.dumps(truth), encoding="utf-8")
    assert load(path) == copy.deepcopy(truth)
