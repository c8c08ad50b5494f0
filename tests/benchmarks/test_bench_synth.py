"""The generator: deterministic, on size, and its ground truth agrees with its own text."""
from __future__ import annotations

import collections
import itertools
import re

import pytest

from adapters.model import UNIT_KINDS
from benchmarks.synth import build, doc_name, parse_size

from tests.benchmarks.bench_fixtures import synth_5k, synth_10k  # noqa: F401  (fixtures)


def _units(truth):
    return {u["key"]: u for u in truth["units"]}


def test_same_size_and_seed_give_the_same_document(synth_5k):
    again = build("5k", seed=0)
    assert again.truth == synth_5k.truth
    other = build("5k", seed=1)
    assert other.truth["units"] != synth_5k.truth["units"]
    assert other.name == "synth-5k-s1" == doc_name("5k", 1)


@pytest.mark.parametrize("size", ["5k", "10k", "25k"])
def test_documents_are_about_the_size_asked_for(size):
    truth = build(size).truth
    assert abs(truth["tokens"] - parse_size(size)) <= 0.05 * parse_size(size)


@pytest.mark.slow
@pytest.mark.parametrize("size", ["50k", "100k"])
def test_large_documents_are_about_the_size_asked_for(size):
    truth = build(size).truth
    assert abs(truth["tokens"] - parse_size(size)) <= 0.05 * parse_size(size)


def test_the_truth_has_the_documented_schema(synth_10k):
    t = synth_10k.truth
    assert set(t) >= {"name", "seed", "tokens", "format_independent", "units", "edges", "broken", "clusters"}
    assert t["name"] == "synth-10k" and t["seed"] == 0 and t["format_independent"] is True
    for u in t["units"]:
        assert set(u) >= {"key", "kind", "label", "number", "text", "parent"} and u["kind"] in UNIT_KINDS
    keys = _units(t)
    assert len(keys) == len(t["units"])
    for e in t["edges"]:
        assert e["source"] in keys and e["target"] in keys and e["source"] != e["target"]
        assert (e["type"], e["how"]) in {("CONTAINS", "structure"), ("REFERENCES", "field"), ("REFERENCES", "text"),
                                         ("DEPENDS", "definition"), ("DEPENDS", "acronym"), ("DEPENDS", "anaphora"),
                                         ("RELATED", "topic")}


def test_structure_numbers_labels_and_parents(synth_10k):
    t = synth_10k.truth
    units = _units(t)
    sections = [u for u in t["units"] if u["kind"] == "section"]
    assert sections[0]["text"] == "Scope and Overview" and sections[0]["label"] == "Section 1"
    for s in sections:
        if s["key"].startswith("app-"):
            assert s["label"] == f"Appendix {s['number']}" and re.fullmatch(r"[A-Z]", s["number"])
        else:
            assert s["label"] == f"Section {s['number']}" and s["level"] == s["number"].count(".") + 1
            if s["level"] > 1:
                assert units[s["parent"]]["number"] == s["number"].rsplit(".", 1)[0]
    for kind, word in (("figure", "Figure"), ("table", "Table")):
        items = [u for u in t["units"] if u["kind"] == kind]
        assert [u["number"] for u in items] == [str(i) for i in range(1, len(items) + 1)]
        for u in items:
            cap = units[f"cap-{u['key']}"]
            assert cap["label"] == u["label"] == f"{word} {u['number']}"
            assert cap["text"].startswith(f"{word} {u['number']}: ")
    eqs = [u for u in t["units"] if u["kind"] == "equation"]
    assert eqs and all(u["text"].endswith(f"\t({u['number']})") and u["label"] == f"Equation ({u['number']})" for u in eqs)
    table = next(u for u in t["units"] if u["kind"] == "table")
    assert len(table["text"].split("\n")) == 20  # header + 4 rows, 4 columns
    contains = {(e["source"], e["target"]) for e in t["edges"] if e["type"] == "CONTAINS"}
    assert contains == {(u["parent"], u["key"]) for u in t["units"] if u["parent"]}


def test_every_kind_of_explicit_reference_is_present(synth_10k):
    refs = [e for e in synth_10k.truth["edges"] if e["type"] == "REFERENCES"]
    forms = {re.sub(r"\d+", "N", e["evidence"]) for e in refs}
    for form in ("Section N", "Section N.N", "§N.N", "Figure N", "Fig. N", "Table N", "Equation (N)", "Eq. N",
                 "Appendix A", "Figures N and N", "Theorem N"):
        assert form in forms, form
    assert {"Sections N-N", "Sections N\u2013N"} & forms
    assert {e["how"] for e in refs} == {"field", "text"}
    text = " ".join(u["text"] for u in synth_10k.truth["units"])
    assert re.search(r"Fig\. \d+\(b\)", text)


def test_references_point_at_the_unit_their_evidence_names(synth_10k):
    units = _units(synth_10k.truth)
    for e in synth_10k.truth["edges"]:
        if e["type"] != "REFERENCES":
            continue
        assert e["evidence"] in units[e["source"]]["text"]
        target = units[e["target"]]
        if e["evidence"].startswith(("Sections ", "Figures ")):
            lo, hi = map(int, re.findall(r"\d+", e["evidence"]))
            assert int(target["number"]) in ((lo, hi) if "and" in e["evidence"] else range(lo, hi + 1))
        else:
            assert re.search(rf"(?<![\d.]){re.escape(target['number'])}(?![\d.])", e["evidence"]), e
        if e["how"] == "field":
            assert e["name"].startswith("_Ref")


def test_distractors_and_broken_references_are_recorded_and_unresolvable(synth_10k):
    t = synth_10k.truth
    units = _units(t)
    labels = {u["label"] for u in t["units"] if u["label"]}
    assert t["broken"] and all(b["evidence"] in units[b["source"]]["text"] for b in t["broken"])
    assert not {b["evidence"] for b in t["broken"]} & labels
    evidence = {d["evidence"] for d in t["distractors"]}
    assert {"Section 3 of [RFC9110]", "(Smith et al., 2020)"} <= evidence
    cited = {(e["source"]) for e in t["edges"] if e["type"] == "REFERENCES" and e["evidence"] == "Section 3"}
    assert not cited & {d["source"] for d in t["distractors"]}


def test_definitions_and_acronyms_make_every_later_user_depend_on_them(synth_10k):
    t = synth_10k.truth
    order = {u["key"]: i for i, u in enumerate(t["units"])}
    units = _units(t)
    deps = [e for e in t["edges"] if e["type"] == "DEPENDS" and e["how"] in ("definition", "acronym")]
    text = " ".join(u["text"] for u in t["units"])
    for cue in ("We define ", " is defined as ", ", denoted ", "(hereinafter the ", " means ", "Definition 1. "):
        assert cue in text, cue
    assert any(e["how"] == "acronym" for e in deps)
    by_target = collections.defaultdict(set)
    for e in deps:
        assert order[e["source"]] > order[e["target"]]
        by_target[(e["target"], e["evidence"].lower())].add(e["source"])
    any_dep = collections.defaultdict(set)  # one DEPENDS edge per pair: an anaphora edge may stand for both
    for e in t["edges"]:
        if e["type"] == "DEPENDS":
            any_dep[e["target"]].add(e["source"])
    for (target, form), users in by_target.items():  # exactly the later units that use the form
        evidence = next(e["evidence"] for e in deps if e["target"] == target)
        defining = units[target]["text"]
        exact = (not evidence.isascii() or evidence.isupper() or f"\u201c{evidence}\u201d" in defining
                 or f'"{evidence}"' in defining)  # symbols, acronyms and quoted terms are case-sensitive
        pat = re.compile(r"(?<!\w)" + re.escape(evidence if exact else form) + r"(?!\w)", 0 if exact else re.IGNORECASE)
        expected = {u["key"] for u in t["units"][order[target] + 1:] if pat.search(u["text"])}
        assert users <= expected <= any_dep[target], (target, form)
        assert not any(pat.search(u["text"]) for u in t["units"][: order[target]])
    acronym = next(e for e in deps if e["how"] == "acronym")
    assert f"({acronym['evidence']})" in units[acronym["target"]]["text"]


def test_anaphors_open_their_paragraph_and_name_the_nearest_antecedent(synth_10k):
    t = synth_10k.truth
    order = [u["key"] for u in t["units"]]
    units = _units(t)
    ana = [e for e in t["edges"] if e["how"] == "anaphora"]
    assert {"This approach", "These results", "The proposed method", "Such a mechanism", "As described above", "It",
            "They"} <= {e["evidence"] for e in ana}
    nouns = {"This approach": "approach", "These results": "results", "The proposed method": "method",
             "Such a mechanism": "mechanism", "As described above": "procedure"}
    gaps = []
    for e in ana:
        assert units[e["source"]]["text"].startswith(e["evidence"] + (", " if e["evidence"] == "As described above" else " "))
        i, j = order.index(e["target"]), order.index(e["source"])
        gaps.append(j - i)
        noun = nouns.get(e["evidence"])
        if noun:
            assert re.search(rf"\b{noun}\b", units[e["target"]]["text"])
            assert not any(re.search(rf"\b{noun}\b", units[k]["text"]) for k in order[i + 1:j])
    assert min(gaps) == 1


def test_clusters_span_sections_and_are_their_only_link(synth_10k):
    t = synth_10k.truth
    units = _units(t)

    def top(key):
        while units[key]["parent"]:
            key = units[key]["parent"]
        return key

    related = {frozenset((e["source"], e["target"])) for e in t["edges"] if e["type"] == "RELATED"}
    linked = {frozenset((e["source"], e["target"])) for e in t["edges"] if e["type"] in ("REFERENCES", "DEPENDS")}
    assert t["clusters"] and all(len(c) >= 2 for c in t["clusters"])
    for cluster in t["clusters"]:
        assert len({top(k) for k in cluster}) == len(cluster)
        pairs = {frozenset(p) for p in itertools.combinations(cluster, 2)}
        assert pairs <= related and not pairs & linked
    assert len(related) == sum(len(c) * (len(c) - 1) // 2 for c in t["clusters"])
