"""The bridge's UNO-free half (manifest/libreoffice/pythonpath/ledger_client.py): settings,
word-level hunks and the messages of HTTP failures, against a real backend on loopback."""
from __future__ import annotations

import json
import sys

import pytest

from tests.conftest import corpus_file
from tests.servers import LedgerServer, free_port

from .helpers import ROOT

sys.path.insert(0, str(ROOT / "manifest" / "libreoffice" / "pythonpath"))
from ledger_client import BridgeError, LedgerClient, hunks, load_config  # noqa: E402


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


def test_failures_are_sentences(tmp_path):
    dead = LedgerClient({"url": f"http://127.0.0.1:{free_port()}", "where": "bridge.json", "timeout": 5})
    with pytest.raises(BridgeError) as err:
        dead.upload(b"x", "a.odt", "application/vnd.oasis.opendocument.text")
    assert err.value.code == "unreachable"
    assert err.value.message.startswith(f"Cannot reach the LEDGER server at {dead.url}. Check the server address (bridge.json)")
    data = corpus_file("headers.odt").read_bytes()
    with LedgerServer(tmp_path / "srv", workers=1, threads=2, env={"LEDGER_API_KEYS": "k1"}) as srv:
        bad = LedgerClient({"url": srv.url, "api_key": "nope", "where": "bridge.json", "timeout": 10})
        with pytest.raises(BridgeError) as err:
            bad.upload(data, "headers.odt", "application/vnd.oasis.opendocument.text")
        assert (err.value.code, err.value.status) == ("unauthorized", 401)
        good = LedgerClient({"url": srv.url, "api_key": "k1", "where": "bridge.json", "timeout": 10})
        meta = good.upload(data, "headers.odt", "application/vnd.oasis.opendocument.text")
        assert meta["format"] == "odt" and meta["filename"] == "headers.odt"
        assert [u["text"] for u in good.units(meta["id"])][:1] == ["A header (Lv 1)"]
        with pytest.raises(BridgeError) as err:
            good.upload(b"not a document", "x.odt", "application/octet-stream")
        assert (err.value.code, err.value.status) == ("not_a_document", 415)
        assert err.value.message.startswith("The LEDGER server could not read this as a .docx or .odt document.")
