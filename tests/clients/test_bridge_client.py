"""The bridge's UNO-free half (manifest/libreoffice/pythonpath/ledger_client.py and ledger_views.py):
settings read and saved, its copies of the word tokenizer and the text normaliser (against the
server's specifications tests/vectors/words.json and normalise.json, in this Python and in
LibreOffice's own), the messages of HTTP failures and the routes the panel uses, against a real
backend on loopback, and what the panel shows of real answers (findings grouped with counts and
places, a proposal's changes grouped with ticks, a review's items)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import corpus_file
from tests.libreoffice import SYSTEM_PYTHON
from tests.servers import LedgerServer, free_port

from .helpers import ROOT

PYTHONPATH = ROOT / "manifest" / "libreoffice" / "pythonpath"
sys.path.insert(0, str(PYTHONPATH))
import ledger_client  # noqa: E402
import ledger_views as views  # noqa: E402
from ledger_client import BridgeError, LedgerClient, load_config, normalize, save_config, tokenize, word_spans  # noqa: E402

VECTORS = ROOT / "tests" / "vectors"
WORDS = json.loads((VECTORS / "words.json").read_text(encoding="utf-8"))
NORMALISE = json.loads((VECTORS / "normalise.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", WORDS, ids=[c["note"] for c in WORDS])
def test_word_vectors(case):
    assert [list(s) for s in word_spans(case["text"])] == case["words"]
    toks = tokenize(case["text"])
    assert "".join(toks) == case["text"]
    assert [t for t in toks if word_spans(t) == [(0, len(t))]] == [case["text"][a:b] for a, b in case["words"]]


@pytest.mark.parametrize("case", NORMALISE, ids=[c["note"] for c in NORMALISE])
def test_normalise_vectors(case):
    assert normalize(case["text"]) == case["squash"]


def test_the_bridge_copies_match_the_servers_definitions():
    from adapters import text, textdiff
    from adapters._marks import MARKS

    assert ledger_client._marks() == MARKS
    samples = [c["text"] for c in WORDS + NORMALISE]
    samples.append("Give 30-day notice; don't pay 3,5\u00a0% \u2014 e\u0301te\u0301, a--b.\n\tDaten\u00adbank\u001f\ufeff")
    for sample in samples:  # the diff's tokens too, white space runs and single characters included
        assert tokenize(sample) == textdiff.tokenize(sample), sample
        assert normalize(sample) == text.squash(sample), sample


_RUN_VECTORS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from ledger_client import normalize, word_spans
words = json.load(open(sys.argv[2], encoding="utf-8"))
norm = json.load(open(sys.argv[3], encoding="utf-8"))
bad = [c["note"] for c in words if [list(s) for s in word_spans(c["text"])] != c["words"]]
bad += [c["note"] for c in norm if normalize(c["text"]) != c["squash"]]
print(json.dumps(bad))
"""


@pytest.mark.skipif(not Path(SYSTEM_PYTHON).exists(), reason="no system python3 (LibreOffice's)")
def test_the_vectors_hold_in_libreoffices_python():
    out = subprocess.run(
        [SYSTEM_PYTHON, "-I", "-c", _RUN_VECTORS, str(PYTHONPATH), str(VECTORS / "words.json"), str(VECTORS / "normalise.json")],
        capture_output=True, text=True, timeout=120, env={"PATH": os.environ.get("PATH", "")},
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == []


def test_settings_file_then_environment(tmp_path):
    path = tmp_path / "bridge.json"
    path.write_text(json.dumps({"url": "https://ledger.example.org/", "author": "Ann", "api_key": "k", "other": 1}))
    cfg = load_config({"LEDGER_BRIDGE_CONFIG": str(path), "LEDGER_AUTHOR": "Bob"})
    assert (cfg["url"], cfg["author"], cfg["api_key"]) == ("https://ledger.example.org", "Bob", "k")
    assert "other" not in cfg
    path.write_text("{not json")
    with pytest.raises(BridgeError) as err:
        load_config({"LEDGER_BRIDGE_CONFIG": str(path)})
    assert err.value.code == "bad_config" and str(path) in err.value.message


def test_settings_are_saved_for_the_next_session(tmp_path):
    """The settings dialog writes the options file; other keys in it are kept."""
    path = tmp_path / "ledger" / "bridge.json"
    env = {"LEDGER_BRIDGE_CONFIG": str(path)}
    assert save_config({"url": "https://ledger.example.org", "api_key": "k" * 20, "author": "Ann", "comments": False,
                        "ui": "ignored"}, env) == str(path)
    cfg = load_config(env)
    assert (cfg["url"], cfg["api_key"], cfg["author"], cfg["comments"]) == ("https://ledger.example.org", "k" * 20,
                                                                           "Ann", False)
    data = json.loads(path.read_text())
    assert "ui" not in data
    data["timeout"] = 5
    path.write_text(json.dumps(data))
    save_config({"author": "Bob"}, env)
    assert json.loads(path.read_text()) == {**data, "author": "Bob"}


def test_failures_are_sentences(tmp_path):
    dead = LedgerClient({"url": f"http://127.0.0.1:{free_port()}", "where": "bridge.json", "timeout": 5})
    with pytest.raises(BridgeError) as err:
        dead.upload(b"x", "a.odt", "application/vnd.oasis.opendocument.text")
    assert err.value.code == "unreachable"
    assert err.value.message.startswith(f"Cannot reach the LEDGER server at {dead.url}. Check the server address (bridge.json)")
    data = corpus_file("headers.odt").read_bytes()
    with LedgerServer(tmp_path / "srv", workers=1, threads=2, env={"LEDGER_API_KEYS": "bridge-key-0123456789"}) as srv:
        bad = LedgerClient({"url": srv.url, "api_key": "nope", "where": "bridge.json", "timeout": 10})
        with pytest.raises(BridgeError) as err:
            bad.upload(data, "headers.odt", "application/vnd.oasis.opendocument.text")
        assert (err.value.code, err.value.status) == ("unauthorized", 401)
        good = LedgerClient({"url": srv.url, "api_key": "bridge-key-0123456789", "where": "bridge.json", "timeout": 10})
        meta = good.upload(data, "headers.odt", "application/vnd.oasis.opendocument.text")
        assert meta["format"] == "odt" and meta["filename"] == "headers.odt"
        assert [u["text"] for u in good.units(meta["id"])][:1] == ["A header (Lv 1)"]
        with pytest.raises(BridgeError) as err:
            good.upload(b"not a document", "x.odt", "application/octet-stream")
        assert (err.value.code, err.value.status) == ("not_a_document", 415)
        assert err.value.message.startswith("The LEDGER server could not read this as a .docx or .odt document.")


def test_the_bridge_client_applies_with_comments_and_reviews_the_file_that_comes_back(tmp_path):
    """The bridge's round trip over HTTP: apply (comments on or off), then the reviewed document
    sent back to the revision's review route."""
    data = corpus_file("referenceAllInOne.odt").read_bytes()
    odt = "application/vnd.oasis.opendocument.text"
    with LedgerServer(tmp_path / "srv", workers=1, threads=2, env={"LEDGER_RATE_LIMIT": "off"}) as srv:
        client = LedgerClient({"url": srv.url, "where": "bridge.json", "timeout": 60})
        meta = client.upload(data, "referenceAllInOne.odt", odt)
        proposal = client.propose(meta["id"], 'Replace "A reference" with "One reference"', "Ada Lovelace")
        applied = client.apply(meta["id"], proposal["id"], "Ada Lovelace", comments=True)
        assert [op.get("comment") for op in applied["operations"]] == [
            "'A reference' → 'One reference' (instruction: Replace \"A reference\" with \"One reference\")"]
        plain = client.apply(meta["id"], proposal["id"], "Ada Lovelace", comments=False)
        assert plain["comments"] == [] and len(applied["comments"]) == 1
        edited = client.download(applied["download"])
        review = client.review(meta["id"], applied["revision"], edited, odt)
        assert [(o["id"], o["status"]) for o in review["operations"]] == [("op-1", "pending")]
        assert review["consistent"] is True


RFC = Path("/work/shared/devset/rfc/rfc9000.A.docx")
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _rfc() -> Path:
    from tests.conftest import DEVSET_DOCS

    path = Path(DEVSET_DOCS) / "rfc9000.A.docx" if DEVSET_DOCS else RFC
    if not path.exists():
        pytest.skip(f"the development set's {path.name} is not here")
    return path


@pytest.mark.slow
def test_what_the_panel_shows_of_a_2000_unit_standard(tmp_path):
    """The panel's routes and views on RFC 9000 (2,000+ units): the outline, the check's findings
    (every one in a group, each with a place), a 'this paragraph' deletion that takes the unit at
    the cursor, a rename's preview with every change tickable, and an apply of the ticked ones."""
    data = _rfc().read_bytes()
    with LedgerServer(tmp_path / "srv", workers=1, threads=2, env={"LEDGER_RATE_LIMIT": "off"}) as srv:
        client = LedgerClient({"url": srv.url, "where": "bridge.json", "timeout": 120})
        assert client.version()["formats"] == ["docx", "odt"]  # the connection test
        meta = client.upload(data, "rfc9000.A.docx", DOCX)
        units = client.units(meta["id"])
        assert len(units) > 2000
        by_id = {u["id"]: u for u in units}
        lines = views.outline_lines(client.outline(meta["id"]))
        assert (1, "7.3 Authenticating Connection IDs", lines[[t for _d, t, _i in lines].index(
            "7.3 Authenticating Connection IDs")][2]) in lines
        findings = client.check(meta["id"])["findings"]
        groups = views.finding_groups(findings, by_id)
        assert sum(g["count"] for g in groups) == len(findings) > 0  # every finding is listed
        assert all(item["where"] for g in groups for item in g["items"])  # each with its place
        narrowed = views.finding_groups(findings, by_id, severity="warning", text="NAT")
        assert narrowed and all("NAT" in i["finding"]["message"] for g in narrowed for i in g["items"])
        # "Delete this paragraph" with the cursor's unit
        para = next(u for u in units if u["text"].startswith("The choice each endpoint makes about connection IDs"))
        gone = client.propose(meta["id"], "Delete this paragraph", "LEDGER", target=para["id"])
        assert [(o["op"], o["unit"]) for o in gone["operations"] if o["source"] == "rules"] == [("delete", para["id"])]
        # a rename: every change offered, grouped by written form, each tickable
        proposal = client.propose(meta["id"], 'Rename "connection ID" to "connection identifier"', "LEDGER",
                                  target=para["id"])
        ops = proposal["operations"]
        grouped = views.group_operations(ops, by_id)
        changes = [c for g in grouped for c in g["changes"]]
        assert views.count_changes(changes, {o["id"] for o in ops}) == (len(ops), len(ops))
        assert sorted(i for c in changes for i in views.change_op_ids(c)) == sorted(o["id"] for o in ops)
        assert {g["title"] for g in grouped} >= {"connection ID → connection identifier",
                                                "connection IDs → connection identifiers"}
        kept = {o["id"] for o in ops}
        first = grouped[0]
        views.set_change(kept, first["changes"][0], False)
        assert views.tick_state(first["changes"], kept) == "some"
        applied = client.apply(meta["id"], proposal["id"], "LEDGER", comments=False, operations=sorted(kept))
        assert len(applied["operations"]) == len(ops) - len(views.change_op_ids(first["changes"][0]))
        deps = client.impact(meta["id"], para["id"], job=meta.get("job"))
        assert {r["unit"] for r in deps["references"]} >= {by_id_id for by_id_id in by_id
                                                           if by_id[by_id_id].get("label") == "Section 7.4"}


def test_views_of_a_review_say_each_change_once():
    reviews = [{"title": "Edit 1: Rename", "counts": {"accepted": 1, "rejected": 0, "pending": 0, "mixed": 1},
                "operations": [{"id": "op-1", "status": "accepted", "summary": "ID → identifier", "where": "Section 5.1"},
                               {"id": "op-2", "status": "mixed", "summary": "ID → identifier", "where": "Section 5.2"}]},
               {"title": "Edit 2: Delete", "error": "the server no longer holds this edit"}]
    assert views.review_lines(reviews) == [
        (0, "Edit 1: Rename: 1 accepted, 1 mixed"),
        (1, "Partly accepted, partly rejected (1)"),
        (2, "ID → identifier · Section 5.2"),
        (1, "Accepted (1)"),
        (2, "ID → identifier · Section 5.1"),
        (0, "Edit 2: Delete: the server no longer holds this edit")]
