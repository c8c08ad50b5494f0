"""The real-document benchmark on the development set: what the real-documents issue must show.

Every variant of the five published standards (typed references and reference fields, .docx and
.odt, LibreOffice round trips): REFERENCES recall >= 0.99 and precision >= 0.98, table cells
included; every heading's number as LibreOffice renders it; DEPENDS recall >= 0.85 overall and
>= 0.80 per kind; false links on at most 15% of the negatives; the share of a document's DEPENDS
edges its most linked unit takes (a hub) reported, not bounded: bounding it made the registry thin
links until it held (issue 31), a figure true by construction. With embeddings, on one
standard: no RELATED edge joins two bibliography entries or two code lines.
"""
from __future__ import annotations

import pytest

from benchmarks.real_bench import TARGETS, VARIANTS, default_devset, depends_table, run

DEVSET = default_devset()


@pytest.fixture(scope="module")
def result():
    if not (DEVSET / "depends.json").exists():
        pytest.skip(f"the development set is not at {DEVSET}")
    return run(DEVSET, quiet=True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_references_and_headings_on_every_variant(result, variant):
    s = result["summary"][variant]
    refs = s["references"]
    assert refs["recall"] >= TARGETS["references_recall"], refs
    assert refs["precision"] >= TARGETS["references_precision"], refs
    assert s["table"]["recall"] >= TARGETS["references_recall"], s["table"]
    assert s["headings"]["right"] == s["headings"]["all"], [f["headings"]["wrong"] for f in result["files"]
                                                            if f["variant"] == variant]


@pytest.mark.parametrize("variant", VARIANTS)
def test_depends_recall_false_links_and_concentration(result, variant):
    d = result["summary"][variant]["depends"]
    assert d["recall"] >= TARGETS["depends_recall"], d
    for kind in ("anaphora", "definition", "acronym"):
        assert d["by_kind"][kind]["recall"] >= TARGETS["depends_kind_recall"], (kind, d["by_kind"])
    assert d["false_links"] <= TARGETS["false_links"] * d["negatives"], d
    for f in result["files"]:
        if f["variant"] == variant:  # the hub figure is measured: its unit's edges over the document's
            x = f["depends"]
            assert x["top_target_share"] == round(x["top_target_edges"] / x["edges"], 4) and x["top_target"], x


def test_every_file_aligns_with_the_truth(result):
    for f in result["files"]:
        assert f["aligned"] >= 0.99 * f["paragraphs"], (f["doc"], f["variant"], f["aligned"], f["paragraphs"])


@pytest.mark.models
def test_related_never_joins_bibliography_entries_or_code_lines():
    if not (DEVSET / "depends.json").exists():
        pytest.skip(f"the development set is not at {DEVSET}")
    out = run(DEVSET, ["rfc9002"], ("A.docx",), related=True, quiet=True)
    rel = out["files"][0]["related"]
    assert rel["bibliography_pairs"] == 0 and rel["code_pairs"] == 0, rel


INDEPENDENT = DEVSET / "independent"
#: The transfer issue's targets on the second annotator's set (A.docx): each kind >= 0.85, false
#: links on at most 10% of the negatives. Its mechanisms were written reading that set's misses:
#: this guards the figure; the one that decides is on sets kept apart.
INDEPENDENT_TARGETS = {"kind_recall": 0.85, "false_links": 0.10}


def test_second_annotators_set_is_scored_without_reference_truth():
    if not (INDEPENDENT / "depends.json").exists():
        pytest.skip(f"the second annotator's set is not at {INDEPENDENT}")
    out = run(INDEPENDENT, None, ("A.docx",), quiet=True)
    assert {f["doc"] for f in out["files"]} == {"rfc9001", "rfc9110", "rfc9111", "rfc9112"}
    assert all("references" not in f and "headings" not in f for f in out["files"])
    d = out["summary"]["A.docx"]["depends"]
    for kind in ("anaphora", "definition", "acronym"):
        assert d["by_kind"][kind]["recall"] >= INDEPENDENT_TARGETS["kind_recall"], (kind, d["by_kind"])
    assert d["false_links"] <= INDEPENDENT_TARGETS["false_links"] * d["negatives"], d
    assert out["summary"]["A.docx"]["top_target_share"] == max(f["depends"]["top_target_share"] for f in out["files"])
    table = depends_table([("independent", out)])
    assert any(row.startswith("| independent: rfc9110 |") for row in table)


# --- the ablation of issue 31: switching a rule off, producers apart ------------------------------


def _widget_document(tmp_path):
    """A quoted definition read by the ``subject`` rule, used in another section, and a pronoun
    resolved against the previous paragraph: two DEPENDS edges from two different rules."""
    import adapters

    return adapters.read_path(str(_widget_path(tmp_path)))


def _widget_path(tmp_path):
    import docx

    d = docx.Document()
    d.add_heading("Widgets", 1)
    d.add_paragraph('A "widget frame" is a frame that carries the widgets of a sender.')
    d.add_paragraph("The sender sends its widgets in order, one after another, over the connection.")
    d.add_paragraph("It does so to keep the receiver simple.")
    d.add_heading("Receiving", 1)
    d.add_paragraph("A receiver reads every widget frame before it answers.")
    path = tmp_path / "widgets.docx"
    d.save(str(path))
    return path


def _depends_origins(doc, off: set[str]) -> set[str]:
    from addin_backend.graph import build_graph, depends
    from addin_backend.graph.edges import DEPENDS, edges_of_type

    G = build_graph(doc, semantic=False, switched_off=off)  # a build parameter, no module state
    assert not depends.SWITCHED_OFF and G.graph.get("switched_off", []) == sorted(off)
    return {d["origin"] for _, _, d in edges_of_type(G, DEPENDS)}


def test_switching_a_rule_off_removes_its_edges_and_no_others(tmp_path):
    doc = _widget_document(tmp_path)
    assert _depends_origins(doc, set()) == {"definition", "anaphora"}
    assert _depends_origins(doc, {"anaphora:pronoun"}) == {"definition"}
    assert _depends_origins(doc, {"definition:subject"}) == {"anaphora"}
    # a rule that reads nothing here changes nothing, and nothing stays switched off after
    assert _depends_origins(doc, {"anaphora:connective", "definition:means"}) == {"definition", "anaphora"}
    assert _depends_origins(doc, set()) == {"definition", "anaphora"}


def test_a_rule_is_named_by_its_detector():
    from benchmarks.real_bench import _switched

    assert _switched(["anaphora:np", " definition:paren-subject", ""]) == {"anaphora:np", "definition:paren-subject"}
    with pytest.raises(SystemExit, match="anaphora:KIND or definition:HOW"):
        _switched(["np"])
    with pytest.raises(SystemExit, match="no such definition rule"):
        _switched(["definition:table"])  # removed (issue 31): the ids come from the rule registry


def _file(doc: str, kinds: dict[str, tuple[int, int]], false: int, negatives: int) -> dict:
    return {"doc": doc, "variant": "A.docx", "depends": {
        "by_kind": {k: {"hits": h, "cases": c} for k, (h, c) in kinds.items()},
        "false_links": false, "negatives": negatives}}


def test_producers_a_set_is_one_a_wild_document_its_own():
    from benchmarks.real_bench import ablation_table, producer_rows, producer_table

    devset = {"files": [_file("rfc1", {"anaphora": (3, 4)}, 0, 2), _file("rfc2", {"anaphora": (1, 2), "acronym": (1, 1)}, 1, 3)]}
    wild = {"files": [_file("mqtt", {"definition": (2, 4)}, 1, 5), _file("stix", {"anaphora": (0, 1)}, 1, 1)]}
    rows = producer_rows([("devset", devset, False), ("wild", wild, True)])
    assert list(rows) == ["devset", "wild: mqtt", "wild: stix"]
    assert rows["devset"]["docs"] == 2 and rows["devset"]["kinds"] == {"acronym": (1, 1), "anaphora": (4, 6)}
    assert (rows["devset"]["false"], rows["devset"]["negatives"]) == (1, 5)
    table = producer_table(rows)
    assert "| devset | 2 | 0.667 (4/6) | - | 1.000 (1/1) | 0.714 (5/7) | 1 / 5 |" in table
    # switched off, a rule that loses a hit on mqtt and adds a false link on the devset helps
    # both; one that it no longer makes on stix was its own
    off = producer_rows([("devset", {"files": [_file("rfc1", {"anaphora": (3, 4)}, 1, 2), devset["files"][1]]}, False),
                         ("wild", {"files": [_file("mqtt", {"definition": (1, 4)}, 1, 5),
                                             _file("stix", {"anaphora": (0, 1)}, 0, 1)]}, True)])
    line = ablation_table({"(none)": rows, "definition:x": off}, {"definition:x": 7})[-1]
    assert line == ("| definition:x | 7 | +0 hits, +1 false | -1 hits, +0 false | +0 hits, -1 false | "
                    "devset, wild: mqtt | wild: stix |")


# --- leave one producer out (issue 31) -----------------------------------------------------------


def _widget_cases() -> list[dict]:
    """The widget document annotated as the sets are (python-docx paragraph indices): the
    definition's use in "Receiving" and the pronoun "It"."""
    return [
        {"kind": "definition", "para_index": 5, "antecedent_para_index": 1, "anaphor": "widget frame",
         "text": "A receiver reads every widget frame before it answers.", "antecedent_text": "A widget frame is"},
        {"kind": "anaphora", "para_index": 3, "antecedent_para_index": 2, "anaphor": "It",
         "text": "It does so to keep the receiver simple.", "antecedent_text": "The sender sends its widgets"},
    ]


def test_a_rule_written_on_a_producer_is_switched_off_when_that_producer_is_scored(tmp_path):
    import adapters
    from addin_backend.graph import build_graph
    from addin_backend.graph.definition_rules import RULES
    from addin_backend.graph.anaphora import RESOLVERS
    from benchmarks.real_bench import (ANAPHORA_ORIGINS, RESOLVER_ORIGINS, align, left_out, score_left_out,
                                       truth_paragraphs)

    # the origins the protocol reads: 'subject' (dbe08f8) and 'pronoun' (430c118) were written on
    # the devset, 'condition' on the independent set's HTTP standards (12cfc38)
    assert next(r for r in RULES if r.id == "subject").producers == ("devset",)
    assert ANAPHORA_ORIGINS["pronoun"][0] == ("devset",)
    assert {"definition:subject", "anaphora:pronoun"} <= set(left_out("devset"))
    assert "definition:condition" in left_out("independent") and "definition:condition" not in left_out("devset")
    assert not {"definition:subject", "anaphora:pronoun"} & set(left_out("independent"))
    assert left_out("wild: stix-v2.1.1-csd01") == []  # no switchable rule was written on it
    # the section-subject resolver (6ad3757) and the capitalised-name rule were written reading
    # MQTT-SN's misses, and exist
    assert left_out("wild: mqtt-sn-2.0-wd-2025-10-23") == ["definition:capitalised", "resolver:section-subject"]
    assert set(RESOLVER_ORIGINS) <= {name for name, _ in RESOLVERS}
    assert "definition:acronym" not in left_out("devset")  # Schwartz-Hearst: written on no set
    path = _widget_path(tmp_path)
    doc = adapters.read_path(str(path))
    G = build_graph(doc, semantic=False)
    al = align(doc.units, truth_paragraphs(path))

    def hits(producer: str) -> tuple[dict, dict, list[str]]:
        normal, out, off = score_left_out(doc, G, producer, _widget_cases(), [], al)
        return ({k: v["hits"] for k, v in normal["by_kind"].items()}, {k: v["hits"] for k, v in out["by_kind"].items()}, off)

    every = {"anaphora": 1, "definition": 1}
    assert hits("wild: stix-v2.1.1-csd01") == (every, every, [])
    normal, out, off = hits("devset")
    assert normal == every and out == {"anaphora": 0, "definition": 0}, (out, off)
    normal, out, off = hits("independent")  # its own rules off, the devset's two on
    assert normal == every and out == every and "definition:condition" in off, (out, off)


def test_lopo_table_names_what_each_producer_left_out_and_what_falls_short():
    from benchmarks.real_bench import lopo_table, producer_rows

    normal = producer_rows([("devset", {"files": [_file("rfc1", {"anaphora": (9, 10), "acronym": (4, 4)}, 0, 10)]}, False),
                            ("wild", {"files": [_file("stix", {"definition": (6, 7)}, 1, 10)]}, True)])
    left = producer_rows([("devset", {"files": [_file("rfc1", {"anaphora": (5, 10), "acronym": (4, 4)}, 2, 10)]}, False),
                          ("wild", {"files": [_file("stix", {"definition": (6, 7)}, 1, 10)]}, True)])
    table = lopo_table({"normal": normal, "left_out": left,
                        "switched_off": {"devset": ["anaphora:np"], "wild: stix": []}})
    assert table[2] == ("| devset | 1 | 0.900 (9/10) → 0.500 (5/10) | - → - | 1.000 (4/4) → 1.000 (4/4) | "
                        "0.929 (13/14) → 0.643 (9/14) | 0 / 10 → 2 / 10 | anaphora 0.500, false links 2/10 |")
    assert table[3].endswith("| 1 / 10 → 1 / 10 | none |")
    assert "- devset: 1 rules switched off: anaphora:np" in table and "- wild: stix: 0 rules switched off: none" in table


def test_a_resolver_is_left_out_for_the_block_only():
    from addin_backend.graph import anaphora
    from benchmarks.real_bench import _without_resolvers

    before = anaphora.RESOLVERS
    with _without_resolvers(["section-subject"]):
        assert [n for n, _ in anaphora.RESOLVERS] == [n for n, _ in before if n != "section-subject"]
    assert anaphora.RESOLVERS is before
    with pytest.raises(SystemExit, match="RESOLVER_ORIGINS"):
        with _without_resolvers(["no-such-resolver"]):
            pass
    assert anaphora.RESOLVERS is before


def test_lopo_command_on_a_small_annotated_set(tmp_path, capsys):
    """``--lopo`` end to end on a one-document set named "devset": the devset's own rules off,
    both annotated cases are lost, and the rules are named."""
    import json
    import shutil

    from benchmarks.real_bench import main

    devset = tmp_path / "devset"
    devset.mkdir()
    shutil.copy(_widget_path(tmp_path), devset / "widgets.A.docx")
    cases = [{**c, "doc": "widgets"} for c in _widget_cases()]
    (devset / "depends.json").write_text(json.dumps({"cases": cases, "negatives": []}))
    out = tmp_path / "lopo.json"
    assert main(["--lopo", "--devset", str(devset), "--no-independent", "--quiet", "--json", str(out)]) == 0
    md = capsys.readouterr().out
    assert "| devset | 1 | 1.000 (1/1) → 0.000 (0/1) | 1.000 (1/1) → 0.000 (0/1) |" in md, md
    got = json.loads(out.read_text())
    assert {"anaphora:pronoun", "definition:subject"} <= set(got["switched_off"]["devset"])


def test_every_round_of_wild_annotations_is_scored_by_default(tmp_path, monkeypatch):
    """The first blind annotation and each later round in a folder of its own (``sarif/``) are
    all default wild sets, each named in the tables; a folder without ``depends.json`` is none."""
    from benchmarks import real_bench

    root = tmp_path / "annotations"
    for folder in (root, root / "sarif", root / "zz-notes"):
        folder.mkdir(parents=True, exist_ok=True)
    (root / "depends.json").write_text("{}")
    (root / "sarif" / "depends.json").write_text("{}")
    monkeypatch.setattr(real_bench, "WILD_ANNOTATIONS", root)
    sets = real_bench.wild_annotations()
    assert sets == [root, root / "sarif"]
    assert [real_bench._wild_name(f) for f in sets] == ["wild", "wild-sarif"]
