"""The command line reuses what it computed (issue 32): a second ``ledger context``/``check``/
``edit`` on an unchanged file loads the document and graph kept for its bytes, a command builds
only the stages it waits for (and says which), and changed bytes are read and built afresh."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from addin_backend.cli import main
from addin_backend.service import graph_cache, graphs
from tests.conftest import corpus_file


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """A graph cache of its own, and a count of the graphs built and extended."""
    monkeypatch.setenv("LEDGER_GRAPH_CACHE", str(tmp_path / "graphs.sqlite3"))
    monkeypatch.setenv("LEDGER_EMBEDDING_CACHE", "off")
    calls: dict[str, list[Any]] = {"build": [], "extend": []}
    build, extend = graphs.build, graphs.extend

    def counted_build(doc, scope, **kw):
        calls["build"].append(scope)
        return build(doc, scope, **kw)

    def counted_extend(G, doc, scope, **kw):
        calls["extend"].append((tuple(G.graph.get("stages", ())), scope))
        return extend(G, doc, scope, **kw)

    monkeypatch.setattr(graphs, "build", counted_build)
    monkeypatch.setattr(graphs, "extend", counted_extend)
    yield calls
    graph_cache.configure(None)  # close the store before tmp_path goes


def _json(capsys, argv: list[str]) -> dict[str, Any]:
    rc = main(argv)
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "collection.odt"
    shutil.copyfile(corpus_file("collection.odt"), path)
    return path


def test_a_second_context_loads_the_kept_graph_and_answers_the_same(tmp_path, capsys, kept):
    path = _file(tmp_path)
    argv = ["context", str(path), "--find", "Arthur", "--instruction", "Shorten this", "--no-semantic", "--json"]
    first = _json(capsys, argv)
    assert kept["build"] == ["no_related"] and first["stages"] == ["contains", "references", "depends"]
    second = _json(capsys, argv)
    assert kept["build"] == ["no_related"] and kept["extend"] == []  # loaded, not built again
    first.pop("seconds", None), second.pop("seconds", None)
    assert second == first


def test_a_check_after_the_graph_builds_nothing_and_sees_what_a_fresh_check_sees(tmp_path, capsys, kept,
                                                                                   monkeypatch):
    path = _file(tmp_path)
    assert main(["graph", str(path), "--no-semantic", "--json"]) == 0
    capsys.readouterr()
    assert kept["build"] == ["no_related"]
    after_graph = _json(capsys, ["check", str(path), "--json"])
    assert kept["build"] == ["no_related"] and kept["extend"] == []
    assert after_graph["stages"] == ["contains", "references"]  # a check waits for references alone
    monkeypatch.setenv("LEDGER_GRAPH_CACHE", "off")
    fresh = _json(capsys, ["check", str(path), "--json"])
    assert kept["build"] == ["no_related", "fast"]
    after_graph.pop("seconds", None), fresh.pop("seconds", None)
    assert after_graph == fresh


def test_the_graph_after_a_check_adds_only_the_stages_it_lacks(tmp_path, capsys, kept, monkeypatch):
    path = _file(tmp_path)
    _json(capsys, ["check", str(path), "--json"])
    argv = ["graph", str(path), "--no-semantic", "--json"]
    extended = _json(capsys, argv)
    assert kept["build"] == ["fast"]
    assert kept["extend"] == [(("contains", "references"), "no_related")]
    monkeypatch.setenv("LEDGER_GRAPH_CACHE", "off")
    fresh = _json(capsys, argv)
    assert kept["build"] == ["fast", "no_related"]
    assert extended["stats"]["edges_by_type"]["DEPENDS"] > 0
    assert extended["edges"] == fresh["edges"] and extended["nodes"] == fresh["nodes"]


def test_changed_bytes_are_read_and_built_afresh(tmp_path, capsys, kept):
    path = _file(tmp_path)
    argv = ["check", str(path), "--json"]
    _json(capsys, argv)
    _json(capsys, argv)
    assert kept["build"] == ["fast"]
    path.write_bytes(corpus_file("tableWithContents.odt").read_bytes())  # same name, other content
    _json(capsys, argv)
    assert kept["build"] == ["fast", "fast"]


def _fresh_process_state(monkeypatch) -> None:
    """What a new process knows of token counts: nothing (this process counted them already)."""
    from addin_backend.retrieval import tokens

    tokens.count_tokens.cache_clear()
    monkeypatch.setattr(tokens, "_known", {})
    monkeypatch.setattr(tokens, "_cuts", {})


def test_a_second_context_builds_no_registry_and_loads_no_tokenizer(tmp_path, capsys, kept, monkeypatch):
    from addin_backend.retrieval import tokens

    path = _file(tmp_path)
    argv = ["context", str(path), "--find", "Arthur", "--instruction", "Shorten this", "--no-semantic", "--json"]
    registries = _count_registries(monkeypatch)
    _fresh_process_state(monkeypatch)
    first = _json(capsys, argv)
    assert registries == [1] and tokens._known  # the first context built the registry and counted
    _fresh_process_state(monkeypatch)

    def no_tokenizer():
        raise AssertionError("the tokenizer was loaded for counts the file keeps")

    monkeypatch.setattr(tokens, "_encoding", no_tokenizer)
    second = _json(capsys, argv)
    assert registries == [1]  # the kept term index, not a new registry
    first.pop("seconds", None), second.pop("seconds", None)
    assert second == first


def test_a_context_on_another_selection_loads_no_tokenizer(tmp_path, capsys, kept, monkeypatch):
    """The first context counts what any context may pack (units, section summaries, table
    leads) while its tokenizer is loaded, and the file keeps the counts: a new question on the
    kept graph packs without the tokenizer and answers as a context on an empty cache does."""
    from addin_backend.retrieval import tokens

    path = _file(tmp_path)
    other = ["context", str(path), "--find", "Young Zaphod Plays it Safe", "--instruction", "Shorten this",
             "--no-semantic", "--json"]
    _fresh_process_state(monkeypatch)
    fresh = _json(capsys, other)  # on a cache of its own, below: the answer a first context gives
    monkeypatch.setenv("LEDGER_GRAPH_CACHE", str(tmp_path / "second.sqlite3"))  # (each command configures it)
    _fresh_process_state(monkeypatch)
    _json(capsys, ["context", str(path), "--find", "Arthur", "--instruction", "Shorten this", "--no-semantic", "--json"])
    _fresh_process_state(monkeypatch)

    def no_tokenizer():
        raise AssertionError("the tokenizer was loaded for a text the first context could count")

    monkeypatch.setattr(tokens, "_encoding", no_tokenizer)
    again = _json(capsys, other)
    fresh.pop("seconds", None), again.pop("seconds", None)
    assert again == fresh and any(item.get("summarised") for item in again["context"])


def _count_registries(monkeypatch) -> list[int]:
    """One item per definition registry built, by the graph's build or by retrieval alike."""
    from addin_backend.graph import definitions

    registries: list[int] = []
    real = definitions._build_registry

    def counted(*args, **kwargs):
        registries.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(definitions, "_build_registry", counted)
    monkeypatch.setattr(definitions, "_RECENT", type(definitions._RECENT)())
    return registries


def test_a_context_after_the_graph_builds_no_registry(tmp_path, capsys, kept, monkeypatch):
    # building the graph read the registry: its terms are kept on the graph the file keeps, so
    # the first context (a new process) neither builds it again nor loads spaCy for it
    from addin_backend.graph import definitions

    path = _file(tmp_path)
    registries = _count_registries(monkeypatch)
    assert main(["graph", str(path), "--no-semantic", "--json"]) == 0
    capsys.readouterr()
    assert registries == [1]
    monkeypatch.setattr(definitions, "_RECENT", type(definitions._RECENT)())  # what a new process has
    argv = ["context", str(path), "--find", "Arthur", "--instruction", "Rename 'Arthur' to 'Art'", "--no-semantic",
            "--json"]
    after_graph = _json(capsys, argv)
    assert registries == [1]
    monkeypatch.setenv("LEDGER_GRAPH_CACHE", "off")
    fresh = _json(capsys, argv)
    assert registries == [1, 1]
    after_graph.pop("seconds", None), fresh.pop("seconds", None)
    assert after_graph == fresh


def test_a_kept_term_index_of_other_content_is_not_used(tmp_path):
    import networkx as nx

    from adapters.model import Document, Unit
    from addin_backend.retrieval.terms import TERM_INDEX, term_index, terms_in

    doc = Document("docx", [Unit("a", "paragraph", "We define net load as demand minus generation.", 0)])
    G = nx.MultiDiGraph()
    assert [h.term for h in terms_in(doc, G, "Rename net load")] == ["net load"]
    kept = G.graph[TERM_INDEX]
    other = Document("docx", [Unit("a", "paragraph", "We define gross load as demand alone.", 0)])
    H = nx.MultiDiGraph()
    H.graph[TERM_INDEX] = kept  # the index of another text: checked by content, built afresh
    assert [t[0] for t in term_index(other, H)] == ["gross load"]
    assert terms_in(other, H, "Rename net load") == []


def test_a_kept_graph_keeps_the_order_of_each_units_predecessors():
    import networkx as nx

    G = nx.MultiDiGraph()
    G.add_nodes_from(["a", "b", "t", "u"])
    # built target by target: t's predecessors come b first, though a comes first among the nodes
    G.add_edge("b", "t", key="DEPENDS", evidence="addresses")
    G.add_edge("a", "t", key="DEPENDS", evidence="address")
    G.add_edge("a", "u", key="REFERENCES")
    G.add_edge("b", "u", key="REFERENCES")
    G.add_edge("a", "t", key="RELATED", score=0.5)
    H = graph_cache.graph_from_record(json.loads(json.dumps(graph_cache.graph_record(G))))
    for n in G:
        assert list(H.in_edges(n, keys=True, data=True)) == list(G.in_edges(n, keys=True, data=True))
        assert list(H.out_edges(n, keys=True, data=True)) == list(G.out_edges(n, keys=True, data=True))
    assert list(H.nodes(data=True)) == list(G.nodes(data=True)) and H.graph == G.graph


def test_a_second_check_answers_from_the_kept_report_until_the_sheet_changes(tmp_path, capsys, kept, monkeypatch):
    from addin_backend.checks import document

    checked: list[str] = []
    real = document.check_document

    def counted(doc, G, **kw):
        checked.append(doc.path)
        return real(doc, G, **kw)

    monkeypatch.setattr(document, "check_document", counted)
    path = _file(tmp_path)
    argv = ["check", str(path), "--json"]
    first = _json(capsys, argv)
    second = _json(capsys, argv)
    assert len(checked) == 1 and second == first  # the kept report, the same answer
    sheet = tmp_path / "house.toml"
    sheet.write_text('[terms]\n"Arthur" = "King Arthur"\n')
    styled = _json(capsys, [*argv, "--style", str(sheet)])
    assert len(checked) == 2 and styled["style"] == "house.toml"  # another sheet: checked again
    sheet.write_text('[terms]\n"Merlin" = "The Wizard"\n')
    _json(capsys, [*argv, "--style", str(sheet)])
    assert len(checked) == 3  # the same sheet's name, other rules: checked again


#: A ``ledger`` command in a new process: its JSON answer, then what the process imported and loaded.
_PROBE = """
import json, sys
from addin_backend.cli import main
out = sys.stdout
sys.stdout = open(sys.argv[1], "w")
rc = main(sys.argv[2:])
sys.stdout.close()
wordlists = sys.modules.get("addin_backend.language.wordlists")
json.dump({"rc": rc, "modules": sorted(sys.modules),
           "dictionary": bool(wordlists and wordlists.dictionary.cache_info().currsize)}, out)
"""


def _twice_in_new_processes(tmp_path: Path, argv: list[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Run ``ledger ARGV`` in two new processes sharing one cache (cold process, warm cache for
    the second): what each imported and loaded (:data:`_PROBE`), and each JSON answer."""
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    env = {**os.environ, "LEDGER_GRAPH_CACHE": str(tmp_path / "graphs.sqlite3"), "LEDGER_EMBEDDING_CACHE": "off",
           "LEDGER_CACHE_DIR": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1"}
    probes, answers = [], []
    for n in range(2):
        out = tmp_path / f"answer{n}.json"
        proc = subprocess.run([sys.executable, "-c", _PROBE, str(out), *argv], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-2000:]
        probes.append(json.loads(proc.stdout))
        answers.append(json.loads(out.read_text(encoding="utf-8")))
    return probes, answers


def test_a_second_context_in_a_new_process_imports_what_its_answer_needs(tmp_path):
    """Cold process, warm cache (issue 32: a second ``ledger context`` within 1 s): the graph and
    the defined terms come from the file's cache, so the second process imports none of the
    graph's detectors (whose modules compile their patterns), no NLP or embedding model, no
    tokenizer, no progress bar, not networkx (the kept graph is read as a ``graph.stored``
    view), and loads no dictionary, even where the instruction names a defined term; its answer
    is the first's."""
    path = _file(tmp_path)
    probes, answers = _twice_in_new_processes(
        tmp_path, ["context", str(path), "--find", "Arthur", "--instruction", "Shorten the official version", "--json"])
    answers = [{k: v for k, v in a.items() if k != "seconds"} for a in answers]
    first, second = probes
    assert first["rc"] == second["rc"] == 0
    heavy = ("spacy", "torch", "onnxruntime", "numpy", "tiktoken", "tqdm", "addin_backend.graph.definitions",
             "addin_backend.graph.references", "addin_backend.graph.mentions", "addin_backend.graph.build",
             "addin_backend.language.forms", "networkx")
    assert "addin_backend.graph.definitions" in first["modules"]  # the first built the graph
    assert [m for m in heavy if m in second["modules"]] == [] and not second["dictionary"]
    assert any("official version" in c.get("reason", "") for c in answers[1]["context"])
    assert answers[1] == answers[0]


def _without_dates(answer: dict[str, Any]) -> dict[str, Any]:
    """An edit's answer without its ``seconds`` and the date each tracked change is stamped with."""
    out = {k: v for k, v in answer.items() if k != "seconds"}
    for key in ("operations", "propagated"):
        out[key] = [{k: v for k, v in op.items() if k != "date"} for op in out.get(key) or ()]
    return out


def test_a_second_rename_builds_no_registry(tmp_path, capsys, kept, monkeypatch):
    """The defined terms and where each is defined (the rename's longer terms, propagation and
    verification read them) come with the kept graph's term index: a second rename in a new
    process builds no definition registry, and answers as the first did."""
    from addin_backend.graph import definitions, term_index

    path = _file(tmp_path)
    argv = ["edit", str(path), "--instruction", "Rename 'Arthur' to 'Art' everywhere", "--engine", "rules",
            "--dry-run", "--json"]
    registries = _count_registries(monkeypatch)
    monkeypatch.setattr(term_index, "_KNOWN", type(term_index._KNOWN)())
    first = _json(capsys, argv)
    assert registries == [1] and first["operations"]
    monkeypatch.setattr(term_index, "_KNOWN", type(term_index._KNOWN)())  # what a new process knows
    monkeypatch.setattr(definitions, "_RECENT", type(definitions._RECENT)())
    second = _json(capsys, argv)
    assert registries == [1]  # the kept graph's index, not a new registry
    assert _without_dates(second) == _without_dates(first)


def test_a_second_rename_in_a_new_process_loads_no_language_model(tmp_path):
    """Cold process, warm cache: the defined terms and their definers come with the kept graph's
    term index, and each anaphor's head noun with its DEPENDS edge, so a second rename loads no
    spaCy (neither for a registry nor to check the anaphors of the units it edits) and answers as
    the first did."""
    path = _file(tmp_path)
    probes, answers = _twice_in_new_processes(
        tmp_path, ["edit", str(path), "--instruction", "Rename 'Arthur' to 'Art' everywhere", "--engine", "rules",
                   "--dry-run", "--json"])
    answers = [_without_dates(a) for a in answers]
    first, second = probes
    assert first["rc"] == second["rc"] == 0 and answers[0]["operations"]
    assert "spacy" in first["modules"]  # the first built the graph, and read its anaphors with spaCy
    assert "spacy" not in second["modules"]
    assert answers[1] == answers[0]
