"""The bridge's UNO-free half (manifest/libreoffice/pythonpath/ledger_client.py): settings,
word-level hunks, its copies of the word tokenizer and the text normaliser (against the
server's specifications tests/vectors/words.json and normalise.json, in this Python and in
LibreOffice's own) and the messages of HTTP failures, against a real backend on loopback."""
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
from ledger_client import BridgeError, LedgerClient, hunks, load_config, normalize, tokenize, word_spans  # noqa: E402

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


def test_hunks_are_word_level():
    before = "Payment is due within 30 days of the invoice date."
    assert hunks({"op": "replace", "before": before, "start": 22, "end": 29, "text": "45 days"}) == [(22, 24, "45")]
    assert hunks({"op": "set_text", "before": before, "text": "Payment is due within 45 days of the receipt date."}) == [
        (22, 24, "45"), (37, 44, "receipt")]
    assert hunks({"op": "delete", "before": before}) == []
    # a compound, a contraction or a decimal changes whole, as the server's tracked copy does
    assert hunks({"op": "set_text", "before": "a 30-day term", "text": "a 60-day term"}) == [(2, 8, "60-day")]
    assert hunks({"op": "set_text", "before": "e\u0301te\u0301 3.5", "text": "e\u0301te\u0301 3.75"}) == [(6, 9, "3.75")]


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
