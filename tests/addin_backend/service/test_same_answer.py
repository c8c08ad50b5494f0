"""One orchestration layer: the command line and the HTTP API give the same answer to the same
question, on real documents (a corpus .odt and a devset .docx).

- ``ledger context FILE --target ID|--find TEXT --instruction T --weights W --json`` and
  ``POST /documents/{id}/context`` pack the same units;
- ``ledger edit FILE --instruction T -o OUT`` writes what propose followed by apply writes: the
  same operations, the same findings, the same tracked changes (accepted and rejected text).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adapters import read, read_path
from adapters.model import Edit, edit_from_json
from addin_backend.cli import main
from addin_backend.service import graphs
from addin_backend.service.edits import VIEW_KEYS
from tests.addin_backend.api.editing import app, client, module_app, upload, wait_job  # noqa: F401  (fixtures)
from tests.conftest import CORPUS, corpus_file

DEVSET = CORPUS.parent / "devset"
AUTHOR = "Ada Lovelace"


def _devset(name: str) -> Path:
    path = DEVSET / "rfc" / name
    if not path.is_file():
        pytest.skip(f"the development set is not at {DEVSET}")
    return path


def _collection() -> Path:
    return corpus_file("collection.odt")  # odfdo: The Hitchhiker's Guide to the Galaxy, LibreOffice


def _rfc9002() -> Path:
    return _devset("rfc9002.A.docx")


@pytest.fixture(scope="module")
def uploads(client):
    """Each document uploaded once (GRAPH_SEMANTIC off), its graph job done: path -> id."""
    done: dict[Path, str] = {}

    def get(path: Path) -> str:
        if path not in done:
            done[path] = upload(client, path)["id"]
        return done[path]

    return get


def _cli_json(capsys, argv: list[str]) -> dict[str, Any]:
    rc = main(argv)
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def _linked_unit(path: Path) -> str:
    """The first unit (in document order) that cites or depends on another: a target whose
    context follows edges."""
    doc = read_path(str(path))
    G = graphs.build(doc, "no_related")
    linked = {u for u, _v, k in G.edges(keys=True) if k in ("REFERENCES", "DEPENDS")}
    return next(u.id for u in doc.units if u.id in linked)


def _packed(report: dict[str, Any]) -> dict[str, Any]:
    """What retrieval packed, without what differs by door: the texts (the route sends them),
    the document id, the time it took."""
    out = {k: v for k, v in report.items() if k not in ("document", "seconds")}
    out["context"] = [{k: v for k, v in c.items() if k != "text"} for c in report["context"]]
    return out


# --- context ------------------------------------------------------------------------------------


@pytest.mark.parametrize("which", [_collection, _rfc9002], ids=["collection.odt", "rfc9002.A.docx"])
def test_context_of_a_target_is_the_same_on_the_command_line_and_over_http(which, uploads, client, capsys):
    path = which()
    doc_id, target = uploads(path), _linked_unit(path)
    instruction, weights = "Tighten this paragraph", "REFERENCES=90,DEPENDS=60,decay=0.4"
    cli = _cli_json(capsys, ["context", str(path), "--target", target, "--instruction", instruction,
                             "--budget", "600", "--weights", weights, "--no-semantic", "--json"])
    r = client.post(f"/api/v1/documents/{doc_id}/context",
                    json={"instruction": instruction, "target": target, "budget": 600, "weights": weights})
    assert r.status_code == 200, r.json
    assert _packed(cli) == _packed(r.json)
    assert cli["targets"] == [target] and cli["context"][0]["id"] == target
    assert any(c["edge"] in ("REFERENCES", "DEPENDS") for c in cli["context"])
    assert cli["weights"]["references"] == 90.0 and cli["weights"]["decay"] == 0.4
    assert all("text" not in c for c in cli["context"]) and all("text" in c for c in r.json["context"])
    # the weights as an object are the same weights
    obj = client.post(f"/api/v1/documents/{doc_id}/context", json={
        "instruction": instruction, "target": target, "budget": 600, "weights": {"REFERENCES": 90, "DEPENDS": 60,
                                                                                 "decay": 0.4}}).json
    assert _packed(obj) == _packed(cli)


@pytest.mark.parametrize("which", [_collection, _rfc9002], ids=["collection.odt", "rfc9002.A.docx"])
def test_found_text_is_the_selection_of_the_route(which, uploads, client, capsys):
    path = which()
    doc_id = uploads(path)
    unit = read_path(str(path)).unit(_linked_unit(path))
    text = unit.text[:80]
    cli = _cli_json(capsys, ["context", str(path), "--find", text, "--instruction", "Fix this", "--no-semantic",
                             "--json"])
    r = client.post(f"/api/v1/documents/{doc_id}/context", json={"instruction": "Fix this", "selection": {"text": text}})
    assert r.status_code == 200, r.json
    assert _packed(cli) == _packed(r.json)
    assert cli["targets"][0] == unit.id and cli["candidates"][0]["how"] == "selection"


@pytest.mark.parametrize("spec, ok", [
    ("REFERENCES=90,decay=0.4", True), ("related=3,max_hops=3", True), ("", True),
    ("decay=3", False), ("SIDEWAYS=3", False), ("DEPENDS=1e2", False), ("max_hops=11", False),
    ("DEPENDS=-1", False), (" DEPENDS=80", False), ("DEPENDS=", False),
])
def test_weights_are_accepted_and_refused_alike(spec, ok, uploads, client, capsys):
    path = _collection()
    doc_id, target = uploads(path), _linked_unit(path)
    rc = main(["context", str(path), "--target", target, "--instruction", "x", "--weights", spec, "--no-semantic",
               "--json"])
    cli = json.loads(capsys.readouterr().out)
    r = client.post(f"/api/v1/documents/{doc_id}/context", json={"instruction": "x", "target": target, "weights": spec})
    assert (rc == 0, r.status_code == 200) == (ok, ok), (cli, r.json)
    if ok:
        assert _packed(cli) == _packed(r.json)
    else:
        assert cli["error"]["code"] == r.json["error"]["code"] == "invalid_request"
        assert cli["error"]["message"].startswith("--weights: ") and r.json["error"]["message"].startswith("weights")


def test_the_service_names_what_is_wrong_with_weights(uploads, client, capsys):
    path = _collection()
    assert main(["context", str(path), "--target", "p-nope", "--weights", "decay=3", "--json"]) == 3
    assert json.loads(capsys.readouterr().out)["error"]["message"] == "--weights: decay must lie between 0 and 1, not 3.0"
    r = client.post(f"/api/v1/documents/{uploads(path)}/context",
                    json={"instruction": "x", "weights": {"REFERENCES": 90, "max_hops": 2.5}})
    assert r.status_code == 400 and r.json["error"]["message"].startswith("weights")


# --- edit = propose, then apply -------------------------------------------------------------------


def _edit_of(op: dict[str, Any]) -> dict[str, Any]:
    """An operation as an Edit, without the display keys and the date (each write has its own)."""
    e = edit_from_json({k: v for k, v in op.items() if k not in VIEW_KEYS})
    return {k: v for k, v in e.to_json().items() if k != "date"}


def _key(f: dict[str, Any]) -> tuple:
    """What makes two findings the same finding (``edits.pipeline.merge_findings``)."""
    return f["kind"], f["unit"], tuple(sorted(f.get("related") or ()))


@pytest.mark.parametrize("which, instruction", [
    (_collection, "Rename 'Zaphod' to 'Zaphod B.' everywhere"),
    (_rfc9002, "Delete Section 7.6"),
], ids=["collection.odt", "rfc9002.A.docx"])
def test_ledger_edit_writes_what_propose_then_apply_writes(which, instruction, uploads, client, capsys, tmp_path):
    path = which()
    doc_id = uploads(path)
    out = tmp_path / f"edited{path.suffix}"
    cli = _cli_json(capsys, ["edit", str(path), "--instruction", instruction, "--author", AUTHOR, "-o", str(out),
                             "--no-semantic", "--json"])
    r = client.post(f"/api/v1/documents/{doc_id}/proposals", json={"instruction": instruction, "author": AUTHOR})
    assert r.status_code == 201, r.json
    proposal = r.json
    r = client.post(f"/api/v1/documents/{doc_id}/apply", json={"proposal_id": proposal["id"], "author": AUTHOR})
    assert r.status_code == 201, r.json
    applied = r.json
    revision = client.get(applied["download"]).data

    # the same operations: planned, applied over HTTP, written by ledger edit
    written = [_edit_of(op) for op in cli["operations"] + cli["propagated"]]
    assert written == [_edit_of(op) for op in applied["operations"]] == [_edit_of(op) for op in proposal["operations"]]
    assert [op["id"] for op in cli["propagated"]] == proposal["propagated"]
    assert {op["author"] for op in applied["operations"]} == {AUTHOR}
    # the same findings: the proposal's, then what the apply found beyond them
    assert cli["findings"][: len(proposal["findings"])] == proposal["findings"]
    assert {_key(f) for f in cli["findings"]} == {_key(f) for f in proposal["findings"] + applied["findings"]}
    assert cli["counts"]["error"] == sum(f["severity"] == "error" for f in cli["findings"])
    # the same tracked changes
    mine, theirs, original = read(out.read_bytes()), read(revision), read_path(str(path))
    assert mine.lines("accepted") == theirs.lines("accepted") != original.lines("accepted")
    assert mine.lines("rejected") == theirs.lines("rejected") == original.lines("accepted")


def test_a_dry_run_reports_the_proposal_and_writes_nothing(uploads, client, capsys, tmp_path):
    path, instruction = _rfc9002(), "Delete Section 7.6"
    cli = _cli_json(capsys, ["edit", str(path), "--instruction", instruction, "--dry-run", "--no-semantic", "--json"])
    proposal = client.post(f"/api/v1/documents/{uploads(path)}/proposals", json={"instruction": instruction}).json
    assert cli["output"] is None and cli["findings"] == proposal["findings"]
    assert [_edit_of(op) for op in cli["operations"] + cli["propagated"]] == [
        _edit_of(op) for op in proposal["operations"]]
    assert not list(tmp_path.iterdir())


# --- with RELATED -------------------------------------------------------------------------------------


@pytest.mark.models
def test_context_with_related_edges_is_the_same_on_both_doors(tmp_path_factory, capsys, monkeypatch):
    path = _collection()
    semantic_app = module_app(tmp_path_factory.mktemp("semantic"), GRAPH_SEMANTIC=True)
    # a context waits for no RELATED: the command line ranks by the RELATED edges `ledger graph`
    # kept for the file, as the route ranks by those its upload's job stored
    monkeypatch.setenv("LEDGER_GRAPH_CACHE", str(tmp_path_factory.mktemp("kept") / "graphs.sqlite3"))
    try:
        http = semantic_app.test_client()
        body = upload(http, path)
        assert body["job"]["result"]["graph"]["semantic"] is True
        edges = http.get(f"/api/v1/documents/{body['id']}/graph?types=RELATED").json["edges"]
        related = {e["source"] for e in edges}
        target = next(u.id for u in read_path(str(path)).units if u.id in related)
        argv = ["context", str(path), "--target", target, "--instruction", "Shorten this", "--budget", "2000", "--json"]
        before = _cli_json(capsys, argv)
        assert before["stages"] == ["contains", "references", "depends"]
        assert not any(c["edge"] == "RELATED" for c in before["context"])
        assert main(["graph", str(path), "--json"]) == 0
        capsys.readouterr()
        cli = _cli_json(capsys, argv)
        assert cli["stages"] == ["contains", "references", "depends", "related"]
        r = http.post(f"/api/v1/documents/{body['id']}/context",
                      json={"instruction": "Shorten this", "target": target, "budget": 2000})
        assert r.status_code == 200, r.json
        assert _packed(cli) == _packed(r.json)
        assert any(c["edge"] == "RELATED" for c in cli["context"])
    finally:
        semantic_app.extensions["ledger.jobs"].shutdown()
        semantic_app.extensions["ledger.store"].close()


# --- the names choice of a rename, through every door -------------------------------------------


def test_the_names_choice_is_one_option_of_the_cli_and_the_api(uploads, client, capsys):
    """``--names`` on the command line and ``names`` in the proposal request are the same choice,
    passed to the one service function: the same operations and findings; ``rename`` renames
    inside "Destination Connection ID", ``keep`` keeps every capitalised use, and the
    instruction's own words give the same answer as the option."""
    path = _devset("rfc9000.A.docx")
    doc_id = uploads(path)
    instruction = 'Rename "connection ID" to "connection identifier" everywhere'

    def api(names: str | None, words: str = "") -> dict[str, Any]:
        body: dict[str, Any] = {"instruction": instruction + words}
        if names is not None:
            body["names"] = names
        r = client.post(f"/api/v1/documents/{doc_id}/proposals", json=body)
        assert r.status_code == 201, r.json
        return r.json

    cli = _cli_json(capsys, ["edit", str(path), "--instruction", instruction, "--names", "rename", "--dry-run",
                             "--no-semantic", "--json"])
    renamed = api("rename")
    assert [_edit_of(op) for op in cli["operations"] + cli["propagated"]] == \
        [_edit_of(op) for op in renamed["operations"]]
    assert {_key(f) for f in cli["findings"]} == {_key(f) for f in renamed["findings"]}

    def count(p: dict[str, Any], text: str) -> int:
        return sum(op.get("old") == text for op in p["operations"])

    auto, kept = api(None), api("keep")
    assert count(auto, "Connection ID") < count(renamed, "Connection ID")  # "Destination Connection ID" too
    # sentence starts and title-case lines are no names: "keep" keeps no fewer than "auto"
    assert count(kept, "Connection ID") <= count(auto, "Connection ID")
    assert 0 < count(auto, "connection ID") == count(kept, "connection ID")
    # every capitalised use the choice kept is told (propagation and verification follow the same choice)
    assert not [f for f in kept["findings"] if f["kind"] == "old_term"]
    assert any(f["kind"] == "old_term_kept" for f in kept["findings"])
    # the instruction's words are the same choice as the option (the reason differs: it is the instruction)
    def spans(p: dict[str, Any]) -> list[tuple]:
        return [(op["unit"], op["start"], op["end"], op["text"]) for op in p["operations"]]

    assert spans(api("auto", ", including names")) == spans(renamed)
    assert spans(api(None, ", not in names")) == spans(kept)


def test_an_unknown_names_choice_is_refused_by_every_door(uploads, client, capsys):
    path = _rfc9002()
    r = client.post(f"/api/v1/documents/{uploads(path)}/proposals",
                    json={"instruction": "Rename 'timer' to 'clock'", "names": "sometimes"})
    assert r.status_code == 400 and r.json["error"]["code"] == "invalid_request"
    with pytest.raises(SystemExit):
        main(["edit", str(path), "--instruction", "Rename 'timer' to 'clock'", "--names", "sometimes", "--dry-run"])
    capsys.readouterr()


def test_a_client_written_rename_takes_the_same_names_choice():
    """An agent's own ``rename`` operation (MCP ``propose_operations``) takes ``names`` as the
    engine's rename does: ``rename`` reaches inside "Destination Connection ID", ``keep`` does not."""
    from addin_backend.service.edits import plan_operations

    doc = read_path(str(_devset("rfc9000.A.docx")))
    G = graphs.build(doc, "fast")
    op = [{"op": "rename", "old": "connection ID", "text": "connection identifier"}]

    def inside_names(names: str) -> int:
        p = plan_operations(doc, G, op, semantic=False, names=names)
        return sum(1 for e in p.edits if getattr(e, "before", None) and "Destination Connection ID" in e.before
                   and e.before[e.start:e.end] == "Connection ID")

    assert inside_names("rename") > 0 == inside_names("keep")
