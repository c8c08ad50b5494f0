"""Issue 33, items 2 and 4, on a real ``ledger serve`` on loopback, the command line and ``ledger mcp``:

- a rename whose term (old or new) is longer than ``LEDGER_MAX_TERM_CHARS`` (200) is refused at
  once with ``400 invalid_request`` through every door (a 10,000-character term on a 1 MB
  document held a worker 162 s), and the server goes on serving renames of ordinary terms;
- a 2 KB upload whose lists start in the billions (letters, Chicago's symbols, Roman numerals,
  ODT too) reads to labels in digits instead of labels of millions of characters.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
import requests

from tests.adapters.docx.docxkit import make_docx, numbering_xml
from tests.adapters.docx.docxkit import paragraphs_docx
from tests.adapters.odt.odt_build import item, lst, lvl, odt
from tests.servers import LedgerServer

from .test_no_waiting import OCTETS, health_within

pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[3]
PARAGRAPHS = ["The widget sends a frame to the server.", "Each widget keeps its own frame counter.",
              "A frame that the widget cannot parse is dropped."]
#: a term of 1,000 characters: words, as a pasted passage would be
LONG = ("widget frame " * 80).strip()
BILLIONS = 3_000_000_000


def _upload(url: str, data: bytes, name: str = "a.docx") -> str:
    r = requests.post(f"{url}/api/v1/documents?filename={name}", data=data, headers=OCTETS, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _graph_done(url: str, doc: str) -> None:
    import time

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rec = requests.get(f"{url}/api/v1/jobs/{doc}-graph", timeout=10).json()
        if rec["status"] in ("done", "failed"):
            assert rec["status"] == "done", rec
            return
        time.sleep(0.25)
    pytest.fail("the graph did not finish")


def _refused_for_length(answer: requests.Response, chars: int, limit: int) -> None:
    assert answer.status_code == 400, answer.text[:300]
    err = answer.json()["error"]
    assert err["code"] == "invalid_request", err
    assert err["details"] == {"term_chars": chars, "max_term_chars": limit}, err
    assert "LEDGER_MAX_TERM_CHARS" in err["message"]


def test_a_rename_of_an_overlong_term_is_refused_at_once_and_ordinary_renames_go_on(tmp_path):
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}
    with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
        doc = _upload(srv.url, paragraphs_docx(PARAGRAPHS))
        _graph_done(srv.url, doc)
        base = f"{srv.url}/api/v1/documents/{doc}"
        # through the rules engine's instruction, old and new alike
        for instruction in (f"Rename '{LONG}' to 'gadget'", f"Rename 'widget' to '{LONG}'"):
            r = requests.post(f"{base}/proposals", json={"instruction": instruction}, timeout=60)
            _refused_for_length(r, len(LONG), 200)
        # through a rename operation given to apply (what the pane and the bridge send)
        r = requests.post(f"{base}/apply", json={"author": "A", "operations": [
            {"op": "rename", "old": "widget " * 40 + "widget", "text": "gadget"}]}, timeout=60)
        _refused_for_length(r, 286, 200)
        # the bound is the term's, not the instruction's: a term at the bound is planned, and an
        # ordinary rename is planned and applied on the same worker afterwards
        at_bound = "w" * 200
        r = requests.post(f"{base}/proposals", json={"instruction": f"Rename 'widget' to '{at_bound}'"}, timeout=60)
        assert r.status_code == 201, r.text[:300]
        r = requests.post(f"{base}/proposals", json={"instruction": "Rename 'widget' to 'gadget'"}, timeout=60)
        assert r.status_code == 201, r.text[:300]
        assert sum(op["op"] == "replace" for op in r.json()["operations"]) == 3
        applied = requests.post(f"{base}/apply", json={"author": "A", "proposal_id": r.json()["id"]}, timeout=60)
        assert applied.status_code == 201, applied.text[:300]
        health_within(srv.url, rounds=2)


def test_the_term_bound_is_a_setting_read_by_the_server(tmp_path):
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_MAX_TERM_CHARS": "16"}
    with LedgerServer(tmp_path, workers=1, threads=2, env=env) as srv:
        doc = _upload(srv.url, paragraphs_docx(PARAGRAPHS))
        _graph_done(srv.url, doc)
        r = requests.post(f"{srv.url}/api/v1/documents/{doc}/proposals",
                          json={"instruction": "Rename 'frame counter' to 'frame sequence counter'"}, timeout=60)
        _refused_for_length(r, len("frame sequence counter"), 16)
        r = requests.post(f"{srv.url}/api/v1/documents/{doc}/proposals",
                          json={"instruction": "Rename 'frame counter' to 'packet counter'"}, timeout=60)
        assert r.status_code == 201, r.text[:300]


def test_the_command_line_and_mcp_refuse_the_same_term(tmp_path):
    path = tmp_path / "in.docx"
    path.write_bytes(paragraphs_docx(PARAGRAPHS))
    cli = subprocess.run([sys.executable, "-m", "addin_backend.cli", "edit", str(path), "--no-semantic", "--dry-run",
                          "--json", "--instruction", f"Rename '{LONG}' to 'gadget'"],
                         cwd=ROOT, capture_output=True, text=True, timeout=180,
                         env={**{k: v for k, v in __import__("os").environ.items() if not k.startswith("LEDGER_")},
                              "HF_HUB_OFFLINE": "1"})
    assert cli.returncode != 0, cli.stdout[-500:]
    said = cli.stdout + cli.stderr
    assert "invalid_request" in said and "LEDGER_MAX_TERM_CHARS" in said, said[-800:]

    from tests.mcp.helpers import refused, stdio_client

    async def scenario() -> dict:
        async with stdio_client(tmp_path) as c:
            opened = await c.call_tool("open_document", {"path": "in.docx"})
            doc = opened.structured_content["document_id"]
            return refused(await c.call_tool("propose_edit", {"document_id": doc,
                                                              "instruction": f"Rename 'widget' to '{LONG}'"}),
                           "invalid_request")

    err = anyio.run(scenario)
    assert "LEDGER_MAX_TERM_CHARS" in err["message"], err


def _billion_docx() -> bytes:
    formats = ["lowerLetter", "upperLetter", "chicago", "lowerRoman", "upperRoman", "decimal"]
    numbering = numbering_xml({str(i): [(0, f, "%1.", BILLIONS)] for i, f in enumerate(formats)},
                              {str(i + 1): str(i) for i in range(len(formats))})
    body = "".join(f'<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="{n + 1}"/></w:numPr></w:pPr>'
                   f"<w:r><w:t>item {k} of list {n}</w:t></w:r></w:p>" for n in range(len(formats)) for k in range(3))
    return make_docx(body, numbering=numbering)


def _billion_odt() -> bytes:
    # letters repeated (num-letter-sync, as Word's) and Roman numerals grow with the number
    kinds = {"a": True, "A": True, "i": False, "I": False}
    styles = "".join(f'<text:list-style style:name="L{f}">{lvl(1, f, ".", start=BILLIONS, sync=sync)}</text:list-style>'
                     for f, sync in kinds.items())
    body = "".join(lst(*(item(f'<text:p text:style-name="Standard">item {k}</text:p>') for k in range(3)),
                       style=f"L{f}") for f in kinds)
    return odt(body, styles=styles)


def test_a_small_upload_numbered_from_the_billions_reads_to_bounded_labels(tmp_path):
    from adapters.labels import MAX_COUNTER_CHARS

    docx_data, odt_data = _billion_docx(), _billion_odt()
    assert len(docx_data) < 4096 and len(odt_data) < 8192  # a small upload (the attack: 2.4 KB)
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}
    with LedgerServer(tmp_path, workers=1, threads=2, env=env) as srv:
        for data, name, count in ((docx_data, "b.docx", 18), (odt_data, "b.odt", 12)):
            doc = _upload(srv.url, data, name)
            _graph_done(srv.url, doc)
            units = requests.get(f"{srv.url}/api/v1/documents/{doc}/units?limit=100", timeout=30).json()["units"]
            labels = [u["label"] or "" for u in units if u["kind"] == "list_item"]
            assert len(labels) == count, labels
            # every counter is past what letters, symbols or Roman numerals write in 64 characters:
            # each label is the counter in digits, each list's first item the list's start
            assert all(len(lab) <= MAX_COUNTER_CHARS for lab in labels), [len(lab) for lab in labels]
            assert labels.count(f"{BILLIONS}.") == count // 3 and labels.count(f"{BILLIONS + 2}.") == count // 3, labels
            text = requests.get(f"{srv.url}/api/v1/documents/{doc}/text", timeout=30)
            assert text.status_code == 200 and len(text.content) < 20_000, len(text.content)
        health_within(srv.url, rounds=2)


def test_cli_units_of_a_billion_numbered_list(tmp_path):
    """The same document through ``ledger units --json``: the labels the reader gives every door."""
    path = tmp_path / "b.docx"
    path.write_bytes(_billion_docx())
    out = subprocess.run([sys.executable, "-m", "addin_backend.cli", "units", str(path), "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-500:]
    units = json.loads(out.stdout)
    units = units["units"] if isinstance(units, dict) else units
    labels = [(u.get("meta") or {}).get("list_label") for u in units]
    assert labels[:3] == ["3000000000.", "3000000001.", "3000000002."], labels
    assert labels[6] == "3000000000." and len(max(labels, key=len)) <= 64, labels
