"""Issue 24, the second attack round, on a real ``ledger serve`` on loopback: style sheets as
untrusted input (linear term patterns, tomllib only, caps, control characters, names per key),
the quota counting everything a key stores with a reservation, the review record parsed by the
hardened parser and bound to the revision, and a review of an unrelated document.

Each test names the item it covers; each failed on the code before the fix (a request that froze
the worker shows here as a read timeout, well before gunicorn's own kill).
"""
from __future__ import annotations

import io
import random
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from tests.servers import LedgerServer
from tests.adapters.docx.docxkit import paragraphs_docx as _docx

KEYS = {name: f"hardening-two-key-{name}-0123456789" for name in
        ("a", "b", "styles", "review", "q9", "q9b", "q10", "q16")}
OCTETS = "application/octet-stream"


def _auth(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[name]}"}



def _padded_docx(kb: int, seed: int = 7) -> bytes:
    """A .docx of about ``kb`` KB (random words compress little)."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(4000)]
    paras = [" ".join(rng.choice(words) for _ in range(40)) + "." for _ in range(kb * 4)]
    return _docx(paras)


@pytest.fixture(scope="module")
def open_server(tmp_path_factory):
    """Keys, no quota, no request rate limit: the style-sheet and review scenarios."""
    env = {"LEDGER_API_KEYS": ",".join(KEYS.values()), "LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0",
           "LEDGER_QUOTA_MB": "off"}
    with LedgerServer(tmp_path_factory.mktemp("hardening-two"), workers=1, threads=4, env=env) as s:
        yield s


def _upload(server: LedgerServer, who: str, data: bytes, name: str = "d.docx", timeout: float = 60) -> requests.Response:
    return requests.post(f"{server.url}/api/v1/documents?filename={name}", data=data, timeout=timeout,
                         headers={**_auth(who), "Content-Type": OCTETS})


def _put_style(server: LedgerServer, who: str, name: str, text: str | bytes, timeout: float = 20) -> requests.Response:
    body = text.encode("utf-8") if isinstance(text, str) else text
    return requests.put(f"{server.url}/api/v1/styles/{name}", data=body, timeout=timeout,
                        headers={**_auth(who), "Content-Type": "application/toml"})


def _healthy(server: LedgerServer) -> bool:
    return requests.get(server.url + "/healthz", timeout=2).status_code == 200


# --- style sheets -------------------------------------------------------------------------------


def test_item4_a_term_of_many_spaces_is_one_linear_pattern(open_server):
    """A term "a" + 12 spaces + "b" on a paragraph of "a", 60 no-break spaces and "c" froze the
    worker for 120 s (one [ \\u00a0]+ per space); now the check answers at once."""
    s = open_server
    assert _put_style(s, "styles", "spaces", '[terms]\n"a            b" = "x"\n').status_code == 201
    doc = _upload(s, "styles", _docx(["a" + "\u00a0" * 60 + "c", "a b is here, and a  b too."])).json()["id"]
    started = time.monotonic()
    r = requests.get(f"{s.url}/api/v1/documents/{doc}/check?style=spaces", headers=_auth("styles"), timeout=20)
    assert r.status_code == 200, r.text
    assert time.monotonic() - started < 20 and _healthy(s)
    found = [f for f in r.json()["findings"] if f["kind"] == "style_term"]
    assert found and "a b" in {p["text"] for p in found[0]["places"]}


def test_item5_a_sheet_is_read_by_tomllib_alone(open_server):
    """A 10 KB sheet with a ''' string of "[" and 10,000 spaces froze the worker for 121 s in the
    hand-written line scanner, on the PUT and on every GET and check; now it is plain TOML."""
    s = open_server
    started = time.monotonic()
    long = _put_style(s, "styles", "brackets", "[banned]\n\"x\" = '''\n[" + " " * 10_000 + "\n'''\n")
    assert long.status_code == 400 and "longer than 1,000 characters" in long.json()["error"]["message"]
    lines = "".join("[" + " " * 300 + "\n" for _ in range(3))  # within the caps: stored and read back
    assert _put_style(s, "styles", "brackets", "[banned]\n\"x\" = '''\n" + lines + "'''\n").status_code == 201
    assert requests.get(f"{s.url}/api/v1/styles/brackets", headers=_auth("styles"), timeout=20).status_code == 200
    assert time.monotonic() - started < 20 and _healthy(s)


@pytest.mark.parametrize("sheet,words", [
    ("[terms]\nx = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n", "malformed TOML"),
    ("[terms]\nx = " + "[" * 5000 + "]" * 5000 + "\n", "malformed TOML"),
    ('[terms]\n"web\\u0000site" = "website"\n', "control character"),
    ('[banned]\n"bad" = "a\\u0007b"\n', "control character"),
], ids=["deep-inline-tables", "deep-arrays", "nul-in-a-term", "bel-in-a-message"])
def test_item12_and_item20_bad_sheets_are_4xx_not_500(open_server, sheet, words):
    r = _put_style(open_server, "styles", "bad", sheet)
    assert r.status_code == 400, (r.status_code, r.text[:300])
    assert r.json()["error"]["code"] == "invalid_style" and words in r.json()["error"]["message"]


def test_item12_a_backslash_n_in_a_multiline_literal_string_is_fine(open_server):
    """A line ``"\\N" = 1`` inside a ''' string is text to tomllib; the line scanner took it for a
    key, and decoding its escape was a 500."""
    r = _put_style(open_server, "styles", "literal", "[banned]\n\"x\" = '''\n\"\\N\" = 1\n'''\n")
    assert r.status_code == 201, r.text


def test_item10_a_sheet_has_a_size_cap(open_server):
    """3 x 63 MB PUTs were stored (247 MB of disk in 6 s); a sheet is at most 512 KB now."""
    big = "[exceptions]\nwords = [" + ", ".join(f'"w{i}"' for i in range(120_000)) + "]\n"
    assert len(big) > 600_000
    r = _put_style(open_server, "styles", "huge", big)
    assert r.status_code == 400 and "at most 512 KB" in r.json()["error"]["message"]


def test_item15_twenty_thousand_terms_cost_one_index_not_a_scan_per_term(open_server):
    """A 0.5 MB sheet of 20,000 terms made one check take 112 s (``u.text.lower()`` per term and
    unit); the terms are looked up in a word index built once per check."""
    s = open_server
    rng = random.Random(3)
    paras = [" ".join(rng.choice(["cache", "server", "web", "site", "retry", "token", "policy", "item"])
                      for _ in range(30)) + "." for _ in range(1500)]
    doc = _upload(s, "styles", _docx(paras)).json()["id"]
    terms = "".join(f'"q{i} site"="y"\n' for i in range(19_999)) + '"web site" = "website"\n'
    assert _put_style(s, "styles", "many", "[terms]\n" + terms).status_code == 201
    started = time.monotonic()
    r = requests.get(f"{s.url}/api/v1/documents/{doc}/check?style=many", headers=_auth("styles"), timeout=30)
    elapsed = time.monotonic() - started
    assert r.status_code == 200, r.text[:300]
    assert any(f["kind"] == "style_term" and "website" in f["message"] for f in r.json()["findings"])
    assert elapsed < 30 and _healthy(s)


def test_item17_style_sheet_names_belong_to_a_key(open_server):
    """Another key could replace a team's ``house`` sheet, and check/fix then applied its rules."""
    s = open_server
    assert _put_style(s, "a", "house", '[terms]\n"web site" = "website"\n').status_code == 201
    theirs = requests.get(f"{s.url}/api/v1/styles/house", headers=_auth("b"), timeout=10)
    assert theirs.status_code == 404 and theirs.json()["error"]["code"] == "unknown_style"
    assert _put_style(s, "b", "house", '[terms]\n"website" = "web site"\n').status_code == 201
    mine = requests.get(f"{s.url}/api/v1/styles/house", headers=_auth("a"), timeout=10).json()
    assert mine["sheet"]["terms"] == {"web site": "website"}


# --- the review record ----------------------------------------------------------------------------


def _with_custom(data: bytes, custom: bytes) -> bytes:
    """``data`` (a .docx) with ``docProps/custom.xml`` replaced or added as ``custom``."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            if info.filename != "docProps/custom.xml":
                z.writestr(info, src.read(info.filename))
        z.writestr("docProps/custom.xml", custom)
    return out.getvalue()


_PROPS = (b'<?xml version="1.0"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
          b'custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">')


@pytest.mark.parametrize("custom,code", [
    (b'<?xml version="1.0"?><!DOCTYPE P [<!ENTITY e "EXPANDED">]>' + _PROPS[21:] + b'<property name="LEDGER '
     b'operations" pid="2" fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}"><vt:lpwstr>&e;</vt:lpwstr></property>'
     b'</Properties>', "unsafe_xml"),
    (_PROPS + b'<property name="x"><vt:lpwstr>unclosed</property>', "malformed_xml"),
    (b'<?xml version="1.0"?><notProperties/>', "corrupt"),
])
def test_item11_the_review_record_part_is_checked_at_upload(open_server, custom, code):
    """``docProps/custom.xml`` was not checked at upload and apply parsed it without the hardened
    parser: crafted variants gave 500s, and an internal entity was expanded into the output."""
    data = _with_custom(_docx(["One paragraph.", "Another paragraph."]), custom)
    r = _upload(open_server, "review", data)
    assert r.status_code in (400, 422), (r.status_code, r.text[:300])
    assert r.json()["error"]["code"] == code


def _applied(server: LedgerServer, data: bytes) -> tuple[str, int, bytes]:
    doc = _upload(server, "review", data).json()["id"]
    units = requests.get(f"{server.url}/api/v1/documents/{doc}/units", headers=_auth("review"), timeout=30).json()["units"]
    u = units[1]
    r = requests.post(f"{server.url}/api/v1/documents/{doc}/apply", headers=_auth("review"), timeout=60, json={
        "author": "Ada", "operations": [{"op": "set_text", "unit": u["id"], "before": u["text"],
                                         "text": u["text"].replace("fine", "good")}]})
    assert r.status_code == 201, r.text[:300]
    rev = r.json()["revision"]
    edited = requests.get(f"{server.url}/api/v1/documents/{doc}/revisions/{rev}/file", headers=_auth("review"),
                          timeout=30).content
    return doc, rev, edited


def _review(server: LedgerServer, doc: str, rev: int, data: bytes) -> dict:
    r = requests.post(f"{server.url}/api/v1/documents/{doc}/revisions/{rev}/review", data=data, timeout=60,
                      headers={**_auth("review"), "Content-Type": OCTETS})
    assert r.status_code == 200, r.text[:300]
    return r.json()


_PARAS = [f"Paragraph {i} says the web site is fine and the cache holds item {i}." for i in range(10)]


def test_item19_an_unrelated_document_is_said_to_be_one(open_server):
    """Reviewing an unrelated document reported every operation ``accepted`` (only exact: false)."""
    s = open_server
    doc, rev, edited = _applied(s, _docx(_PARAS))
    genuine = _review(s, doc, rev, edited)
    assert [o["status"] for o in genuine["operations"]] == ["pending"]
    assert not [f for f in genuine["findings"] if f["kind"] in ("unrelated_document", "review_record_ignored")]
    other = _review(s, doc, rev, _docx([f"Gardening note {i}: water the roses on day {i}." for i in range(10)]))
    assert [o["status"] for o in other["operations"]] == ["unrelated"]
    assert other["findings"][0]["kind"] == "unrelated_document" and other["consistent"] is False


def test_item11_a_record_that_is_not_the_revisions_is_ignored_with_a_finding(open_server):
    """The record a reviewed file carries is bound to the revision: a forged one is reported and
    the stored operations are what is reviewed."""
    import json

    from adapters.properties import get_property, set_property
    from addin_backend.verify.record import RECORD

    s = open_server
    doc, rev, edited = _applied(s, _docx(_PARAS))
    record = json.loads(get_property(edited, RECORD))
    record["operations"][0]["h"] = "0" * 16  # the digest of another operation than the revision's
    forged = set_property(edited, RECORD, json.dumps(record))
    got = _review(s, doc, rev, forged)
    assert [f["kind"] for f in got["findings"]][:1] == ["review_record_ignored"]
    assert [o["status"] for o in got["operations"]] == ["pending"]


# --- the quota ---------------------------------------------------------------------------------------

BIG = None


def _big() -> bytes:
    """A small document carrying about 60 KB of media: what keeping it costs is mostly its bytes
    (its model is small; an upload's model is reserved with it), so 1.5 of it holds one, never two."""
    from benchmarks.upload_memory import document

    global BIG
    if BIG is None:
        BIG = document(0.06)
    return BIG


@pytest.fixture(scope="module")
def quota_server(tmp_path_factory):
    """A quota of 1.5 uploads of :func:`_big` per key."""
    quota_mb = 1.5 * len(_big()) / (1 << 20)
    env = {"LEDGER_API_KEYS": ",".join(KEYS.values()), "LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0",
           "LEDGER_QUOTA_MB": f"{quota_mb:.4f}"}
    with LedgerServer(tmp_path_factory.mktemp("hardening-two-quota"), workers=1, threads=4, env=env) as s:
        yield s


def test_item16_concurrent_uploads_cannot_pass_the_quota(quota_server):
    """8 concurrent 20 MB uploads were all accepted against a 50 MB quota (no reservation)."""
    data = _big()
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: _upload(quota_server, "q16", data, timeout=120).status_code, range(8)))
    assert set(codes) <= {201, 507}, codes
    assert codes.count(201) * len(data) <= 1.5 * len(data), codes  # at most one fits


def test_item9_mcp_uploads_and_results_count_in_the_quota(quota_server):
    """8 x 21 MB ``open_document`` uploads went into a 100 MB quota and REST uploads still worked;
    accept_all/reject_all results were not counted either."""
    import base64

    import anyio

    from tests.mcp.helpers import http_client, ok, refused

    data = _big()
    encoded = base64.b64encode(data).decode("ascii")

    async def scenario() -> None:
        async with http_client(quota_server.url, KEYS["q9"]) as c:
            first = ok(await c.call_tool("open_document", {"content_base64": encoded, "filename": "q.docx",
                                                           "wait_for_graph": False}))
            refused(await c.call_tool("open_document", {"content_base64": encoded, "filename": "q.docx",
                                                        "wait_for_graph": False}), "quota_exceeded")
            refused(await c.call_tool("accept_all", {"document_id": first["document_id"]}), "quota_exceeded")

    anyio.run(scenario)
    # and the MCP upload counts against REST uploads of the same key
    assert _upload(quota_server, "q9", data).status_code == 507


def test_item10_style_sheets_count_in_the_quota(quota_server):
    """Style sheets were stored outside the quota; now a key's sheets are part of what it keeps."""
    sheet = "[exceptions]\nwords = [" + ", ".join(f'"w{i:04d}{"x" * 150}"' for i in range(1_500)) + "]\n"
    assert 1.5 * len(_big()) < len(sheet) < 512 * 1024
    r = _put_style(quota_server, "q10", "house", sheet)
    assert r.status_code == 507 and r.json()["error"]["code"] == "quota_exceeded"
    small = _put_style(quota_server, "q10", "house", '[terms]\n"web site" = "website"\n')
    assert small.status_code == 201
