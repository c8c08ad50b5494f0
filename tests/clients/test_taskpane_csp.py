"""The pages' Content-Security-Policy (issue 33, item 8): the task pane was served with none.

On a real ``ledger serve`` on loopback: every page carries the policy, it allows scripts from this
server and from exactly where the pages load Office.js, and nothing inline; in Debian's chromium
the pane still reads and outlines a real document under it, while a script, an event handler and
a style attribute injected into the page's HTML are blocked and reported as violations.
"""
from __future__ import annotations

import json
import re
import subprocess
from urllib.parse import urljoin, urlsplit

import pytest
import requests

from addin_backend.api.taskpane import OFFICE_JS_ORIGIN
from tests.conftest import corpus_file
from tests.servers import LedgerServer

from .helpers import JS_DIR, require_node
from .word_paragraphs import host_config

PAGES = ("/taskpane/", "/static/commands.html")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with LedgerServer(tmp_path_factory.mktemp("csp-server"), workers=1, threads=4,
                      env={"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}) as s:
        yield s


def _directives(policy: str) -> dict[str, list[str]]:
    out = {}
    for part in policy.split(";"):
        name, *sources = part.split()
        out[name] = sources
    return out


@pytest.mark.parametrize("path", PAGES)
def test_every_page_carries_a_policy_that_runs_only_its_own_and_office_js_scripts(server, path):
    r = requests.get(server.url + path, timeout=10)
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/html")
    policy = _directives(r.headers["Content-Security-Policy"])
    assert policy["default-src"] == ["'none'"] and policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'none'"]
    assert policy["script-src"] == ["'self'", OFFICE_JS_ORIGIN] and policy["style-src"] == ["'self'"]
    assert not [s for sources in policy.values() for s in sources if s.startswith("'unsafe-") or s == "*"]
    # every script the page loads is allowed, and the page has no inline script, handler or style
    html = r.text
    for src in re.findall(r"<script[^>]*\bsrc=\"([^\"]+)\"", html):
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(urljoin(r.url, src)))
        assert origin in (server.url, OFFICE_JS_ORIGIN), src
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    assert not re.search(r"\s(on[a-z]+|style)\s*=", html), "an inline handler or style attribute"


def test_an_api_answer_and_a_script_carry_no_page_policy(server):
    """The policy is for pages: JSON and scripts are not documents a browser renders."""
    assert "Content-Security-Policy" not in requests.get(server.url + "/healthz", timeout=10).headers
    assert "Content-Security-Policy" not in requests.get(server.url + "/static/js/main.js", timeout=10).headers


def _run(server, out_dir, page: str, **extra) -> dict:
    require_node()
    out_dir.mkdir(parents=True, exist_ok=True)
    cfg = out_dir / "csp.json"
    cfg.write_text(json.dumps({"url": server.url, "page": page, **extra}))
    proc = subprocess.run(["node", str(JS_DIR / "browser" / "run_csp.mjs"), str(cfg)], cwd=JS_DIR,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _injected_only(res: dict) -> None:
    """The injected script, handler and style did not take effect, each was reported, and
    nothing else was (the pane's own scripts and styles all pass the policy)."""
    assert res["policy"] and "script-src 'self'" in res["policy"]
    assert res["injected"] is None and res["handler"] is None
    assert res["styledColor"] != "rgb(255, 0, 0)"
    kinds = {(v["directive"], v["blocked"]) for v in res["violations"]}
    assert {("script-src-elem", "inline"), ("script-src-attr", "inline"), ("style-src-attr", "inline")} <= kinds, kinds
    assert all(v["blocked"] == "inline" for v in res["violations"]), res["violations"]
    assert not res["pageErrors"] and not res["refused"], (res["pageErrors"], res["refused"])


@pytest.mark.slow
def test_the_pane_works_under_its_policy_and_an_injected_script_is_blocked(server, output_dir):
    host = host_config(corpus_file("cross_reference.docx"), saveFromServer=True)
    res = _run(server, output_dir / "clients" / "pane-csp", "/taskpane/", host=host,
               waitState=["ready", "error", "offline", "no-office"])
    assert res["state"] == "ready" and res["officeReady"], res
    _injected_only(res)


@pytest.mark.slow
def test_the_commands_page_runs_under_its_policy(server, output_dir):
    _injected_only(_run(server, output_dir / "clients" / "commands-csp", "/static/commands.html"))
