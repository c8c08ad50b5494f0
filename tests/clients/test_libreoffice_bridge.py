"""The LibreOffice bridge end to end: the .oxt installed with ``unopkg add`` by an unprivileged
user in its own profile, its menu command dispatched in a real headless LibreOffice against the
real backend on loopback, the redlines read back through UNO.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from adapters import read_path
from tests.conftest import corpus_file
from tests.libreoffice import SYSTEM_PYTHON, require_libreoffice
from tests.servers import LedgerServer, free_port

from .helpers import ROOT, has_route, require_route

sys.path.insert(0, str(ROOT / "manifest"))
from build_oxt import build_oxt  # noqa: E402

pytestmark = pytest.mark.slow

DOC = "referenceAllInOne.odt"
AUTHOR = "Ada Lovelace"
EDIT_URL = "service:org.ledger.Bridge?edit"
DRIVER = Path(__file__).with_name("lo_bridge_driver.py")
PROPOSALS = ("POST", "/api/v1/documents/{id}/proposals")
APPLY = ("POST", "/api/v1/documents/{id}/apply")


def _as_unprivileged(folder: Path) -> list[str]:
    """The command prefix that drops to ``nobody`` (when we are root) and gives it ``folder``."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("setpriv (util-linux) is needed to run LibreOffice as an unprivileged user")
    for p in [folder, *folder.rglob("*")]:
        os.chown(p, 65534, 65534)
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def _direct_operations() -> tuple[list[dict], list[dict]]:
    """Hand-written operations in the ROUTES.md shape, against the document's real units."""
    doc = read_path(str(corpus_file(DOC)))
    units = [u.to_json() for u in doc.units]
    ref = next(u for u in units if u["text"].startswith("A reference to"))
    some = next(u for u in units if u["text"] == "Some text.")
    before = ref["text"]
    and_at = before.index(" and ") + 1
    ops = [
        {"id": "e1", "op": "replace", "unit": ref["id"], "before": before, "start": 0, "end": 11,
         "text": "One reference", "old": "A reference", "author": AUTHOR, "reason": "instruction"},
        {"id": "e2", "op": "replace", "unit": ref["id"], "before": before, "start": and_at, "end": and_at + 3,
         "text": "or", "old": "and", "author": AUTHOR, "reason": "instruction"},
        {"id": "e3", "op": "insert_after", "unit": some["id"], "before": some["text"], "text": "Inserted by LEDGER.",
         "author": AUTHOR, "reason": "instruction"},
    ]
    return ops, units


@pytest.fixture(scope="module")
def lo_run(tmp_path_factory, request):
    require_libreoffice()
    base = tmp_path_factory.mktemp("lo-bridge")
    with LedgerServer(base / "open", workers=1, threads=4, env={"LEDGER_RATE_LIMIT": "off"}) as open_srv, \
         LedgerServer(base / "keyed", workers=1, threads=2,
                      env={"LEDGER_API_KEYS": "right-key-0123456789", "LEDGER_MAX_UPLOAD_MB": "0.005",
                           "LEDGER_RATE_LIMIT": "off"}) as keyed, \
         LedgerServer(base / "keyed-roomy", workers=1, threads=2,
                      env={"LEDGER_API_KEYS": "right-key-0123456789", "LEDGER_RATE_LIMIT": "off"}) as roomy:
        # Two keyed servers: a body over the upload limit is refused (413) before its key is
        # read (ROUTES.md), so the wrong key is tried where the document fits.
        # Outside pytest's root-only temp folder, so that the unprivileged user can reach it.
        work = Path(tempfile.mkdtemp(prefix="ledger-lo-bridge-"))
        request.addfinalizer(lambda: shutil.rmtree(work, ignore_errors=True))
        (work / "profile").mkdir(parents=True)
        oxt = work / "ledger.oxt"
        build_oxt(oxt)
        doc = work / DOC
        shutil.copyfile(corpus_file(DOC), doc)
        dead = f"http://127.0.0.1:{free_port()}"
        ops, units = _direct_operations()
        instruction = 'Replace "A reference" with "One reference"'
        steps = [
            {"name": "unreachable", "kind": "menu", "url": EDIT_URL, "doc": str(doc),
             "bridge": {"url": dead, "author": AUTHOR, "instruction": instruction}},
            {"name": "bad-key", "kind": "menu", "url": EDIT_URL, "doc": str(doc),
             "bridge": {"url": roomy.url, "api_key": "wrong-key-0123456789", "author": AUTHOR,
                        "instruction": instruction}},
            {"name": "too-large", "kind": "menu", "url": EDIT_URL, "doc": str(doc),
             "bridge": {"url": keyed.url, "api_key": "right-key-0123456789", "author": AUTHOR,
                        "instruction": instruction}},
            {"name": "settings", "kind": "menu", "url": "service:org.ledger.Bridge?settings", "doc": str(doc),
             "bridge": {"url": open_srv.url, "author": AUTHOR}},
            {"name": "direct-apply", "kind": "apply", "doc": str(doc), "ops": ops, "units": units, "author": AUTHOR},
        ]
        if has_route(open_srv.url, *PROPOSALS) and has_route(open_srv.url, *APPLY):
            steps.append({"name": "edit", "kind": "menu", "url": EDIT_URL, "doc": str(doc),
                          "bridge": {"url": open_srv.url, "author": AUTHOR, "instruction": instruction}})
        cfg = {"profile": str(work / "profile"), "oxt": str(oxt), "bridge_config": str(work / "bridge.json"),
               "work": str(work / "steps"), "pythonpath": str(ROOT / "manifest" / "libreoffice" / "pythonpath"),
               "steps": steps}
        (work / "steps").mkdir()
        (work / "config.json").write_text(json.dumps(cfg))
        prefix = _as_unprivileged(work)
        proc = subprocess.run([*prefix, "env", "-i", f"HOME={work}", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                               SYSTEM_PYTHON, str(DRIVER), str(work / "config.json")],
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-3000:]
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        result["by_name"] = {s["name"]: s for s in result["steps"]}
        result.update(open=open_srv, keyed=keyed, dead=dead, config=cfg["bridge_config"])
        yield result


def _step(lo_run, name):
    step = lo_run["by_name"][name]
    assert "error" not in step, step["error"]
    return step


ORIGINAL = ["A list item", "Some text.", "A header", "A reference to Some text, A list item and A header."]


def test_extension_installs_for_an_unprivileged_user(lo_run):
    assert lo_run["add"]["rc"] == 0, lo_run["add"]
    assert "org.ledger.bridge" in lo_run["list"]["out"]
    assert "ledger.oxt" in lo_run["list"]["out"]


def test_bridge_says_clearly_when_the_server_is_unreachable(lo_run):
    step = _step(lo_run, "unreachable")
    rep = step["report"]
    assert rep["ok"] is False and rep["code"] == "unreachable"
    assert rep["message"] == (
        f"Cannot reach the LEDGER server at {lo_run['dead']}. Check the server address "
        f"({lo_run['config']} or LEDGER_URL/LEDGER_API_KEY) and that the server is running. "
        "([Errno 111] Connection refused)")
    assert rep["messages"] == [rep["message"]], "the user is shown exactly this message"
    assert step["redlines"] == [] and step["paragraphs"] == ORIGINAL


def test_bridge_says_clearly_when_the_server_refuses(lo_run):
    bad = _step(lo_run, "bad-key")["report"]
    assert (bad["code"], bad["status"]) == ("unauthorized", 401)
    assert bad["message"] == (f"The LEDGER server refused the API key. Set a valid key ({lo_run['config']} or "
                              "LEDGER_URL/LEDGER_API_KEY). (send a valid API key as 'Authorization: Bearer KEY')")
    big = _step(lo_run, "too-large")["report"]
    assert (big["code"], big["status"]) == ("too_large", 413)
    assert big["message"].startswith("The LEDGER server refused the document: it is larger than the server accepts.")
    for name in ("bad-key", "too-large"):
        assert _step(lo_run, name)["redlines"] == [] and _step(lo_run, name)["paragraphs"] == ORIGINAL


def test_settings_command_names_the_options_file(lo_run):
    rep = _step(lo_run, "settings")["report"]
    assert rep["ok"] is True
    assert rep["message"].startswith(f"LEDGER server: {lo_run['open'].url}\nAPI key: none\nAuthor: {AUTHOR}")
    assert lo_run["config"] in rep["message"]


def test_operations_become_redlines_with_the_author(lo_run):
    step = _step(lo_run, "direct-apply")
    assert step["result"] == {"applied": 3, "failures": []}
    assert step["record_changes"] is True
    got = sorted((r["type"], r["author"], r["text"]) for r in step["redlines"])
    assert got == sorted([
        ("Delete", AUTHOR, "A"), ("Insert", AUTHOR, "One"),
        ("Delete", AUTHOR, "and"), ("Insert", AUTHOR, "or"),
        ("Insert", AUTHOR, "\nInserted by LEDGER."),  # a new paragraph: its break is inserted too
    ])
    assert step["accepted"] == ["A list item", "Some text.", "Inserted by LEDGER.", "A header",
                                "One reference to Some text, A list item or A header."]


def test_menu_edit_end_to_end_against_the_backend(lo_run):
    require_route(lo_run["open"], *PROPOSALS)
    require_route(lo_run["open"], *APPLY)
    step = _step(lo_run, "edit")
    rep = step["report"]
    assert rep["ok"] is True, rep
    assert rep.get("fallback") is not True, rep
    assert sorted((r["type"], r["author"], r["text"]) for r in step["redlines"]) == [
        ("Delete", AUTHOR, "A"), ("Insert", AUTHOR, "One")]
    assert step["accepted"] == ["A list item", "Some text.", "A header",
                                "One reference to Some text, A list item and A header."]
