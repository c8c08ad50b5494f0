"""The LibreOffice client end to end on a 2,000+-unit standard in both formats: the .oxt installed
with ``unopkg add`` by an unprivileged user, its panel driven in a real headless LibreOffice
(``lo_bridge_driver.py``: every action runs on LibreOffice's main thread as a click does)
against the real backend on loopback, the document read back through UNO.

What it must show (issue 30): after "Delete Section 7.3" and Accept All in Writer every later
heading keeps the number the server's copy gives it and no new broken reference appears;
a change accepted half, rejected half is classified as such; the check lists every finding with
its place; the preview offers every change of a rename; "Delete this paragraph" deletes the
paragraph at the cursor; one Undo takes a LEDGER edit back; a read-only document is refused.
The views are captured as LibreOffice draws them (``test-output/clients/libreoffice-*.png``;
``docs/libreoffice-*.png`` are copies of them).
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
from tests.conftest import DEVSET_DOCS, corpus_file
from tests.libreoffice import SYSTEM_PYTHON, require_libreoffice
from tests.servers import LedgerServer, free_port

from .helpers import ROOT

sys.path.insert(0, str(ROOT / "manifest"))
sys.path.insert(0, str(ROOT / "manifest" / "libreoffice" / "pythonpath"))
from build_oxt import build_oxt  # noqa: E402
from ledger_client import LedgerClient  # noqa: E402

# one LibreOffice session for every view and action in both formats (the first test waits for it)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]

DRIVER = Path(__file__).with_name("lo_bridge_driver.py")
RENAME = 'Rename "connection ID" to "connection identifier"'
AT_CURSOR = "The choice each endpoint makes about"  # words no edit here changes
UNRENAMED = "QUIC does not provide a mechanism for exchanging prioritization information"  # no "connection ID"
KEY = "right-key-0123456789"
FORMATS = ("docx", "odt")


def _as_unprivileged(folder: Path) -> list[str]:
    """The command prefix that drops to ``nobody`` (when we are root) and gives it ``folder``."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.skip("setpriv (util-linux) is needed to run LibreOffice as an unprivileged user")
    for p in [folder, *folder.rglob("*")]:
        os.chown(p, 65534, 65534)
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


def _doc(fmt: str) -> Path:
    path = DEVSET_DOCS / f"rfc9000.A.{fmt}"
    if not path.exists():
        pytest.skip(f"the development set's {path.name} is not here")
    return path


def _panel(action, **args):
    return {"op": "panel", "action": action, "args": args}


def _steps(work: Path, srv: LedgerServer, keyed: LedgerServer, tiny: LedgerServer, dead: str,
           served: dict[str, Path], fixable: dict[str, int]) -> list[dict]:
    steps = []
    for fmt in FORMATS:
        doc = str(work / f"rfc9000.{fmt}")
        shots = str(work / "shots")
        bridge = {"url": srv.url, "author": "LEDGER"}
        steps.append({"name": f"views-{fmt}", "doc": doc, "bridge": bridge, "do": [
            {"op": "probe"},
            {"op": "menu", "command": "panel"},                                               # 1 outline
            _panel("capture", path=f"{shots}/outline-{fmt}.bmp"),
            _panel("select", tree="outline", key="{section_7_3}"),                            # 3 jump
            _panel("cursor", text=AT_CURSOR),
            _panel("deps"),                                                                   # 5
            _panel("capture", path=f"{shots}/dependencies-{fmt}.bmp"),
            {"op": "menu", "command": "check"},                                               # 7 check
            _panel("capture", path=f"{shots}/check-{fmt}.bmp"),
            _panel("filter", severity=2, text="NAT"),                                         # 9
            _panel("select", tree="findings", key="finding:0"),                               # 10 jump
            _panel("capture", path=f"{shots}/check-filtered-{fmt}.bmp"),
            _panel("filter", severity=0, text=""),
            _panel("cursor", text=AT_CURSOR),
            _panel("preview", instruction=RENAME),                                            # 14 preview
            _panel("capture", path=f"{shots}/preview-{fmt}.bmp"),
            _panel("tick", key="g:0", on=False),                                              # 16
            _panel("tick", key="g:0", on=True),                                               # 17
            _panel("apply"),                                                                  # 18 apply
            {"op": "probe"},                                                                  # 19
            {"op": "undo_titles"},                                                            # 20
            {"op": "dispatch", "command": ".uno:Undo"},                                       # 21 one Ctrl+Z
            {"op": "probe"},                                                                  # 22
            {"op": "dispatch", "command": ".uno:Redo"},                                       # 23 and back
            {"op": "probe"},                                                                  # 24
            # the review: the first change half accepted, half rejected; the second accepted; the third rejected
            {"op": "decide", "index": 0, "deletion": "accept", "insertion": "reject"},        # 25 half, half
            {"op": "decide", "index": 0, "deletion": "accept", "insertion": "accept"},        # 26 accepted
            {"op": "decide", "index": 0, "deletion": "reject", "insertion": "reject"},        # 27 rejected
            {"op": "probe"},                                                                  # 28
            {"op": "undo_titles"},
            {"op": "undo_titles"},                                                            # 30
            _panel("cursor", text=AT_CURSOR, offset=4, select=6),
            _panel("preview", instruction='Replace the selection with "decision"'),           # 32 the selection
            _panel("cursor", text=UNRENAMED, offset=10),
            _panel("preview", instruction="Delete this paragraph"),                           # 34 the cursor
            _panel("apply"),                                                                  # 35 a second edit
            {"op": "probe"},                                                                  # 36
            _panel("open", page="review"),
            _panel("review"),                                                                 # 38
            _panel("capture", path=f"{shots}/review-{fmt}.bmp"),
        ]})
        steps.append({"name": f"delete-{fmt}", "doc": doc, "bridge": bridge, "do": [
            {"op": "probe"},                                                                  # 0 original
            _panel("preview", instruction="Delete Section 7.3"),                              # 1
            _panel("apply"),                                                                  # 2
            {"op": "probe"},                                                                  # 3
            {"op": "served", "from_last": True},                                              # 4
            {"op": "dispatch", "command": ".uno:AcceptAllTrackedChanges"},
            {"op": "probe"},                                                                  # 6 accepted
            {"op": "save", "path": str(work / f"accepted.{fmt}")},
            {"op": "dispatch", "command": ".uno:Undo"},
            {"op": "dispatch", "command": ".uno:RejectAllTrackedChanges"},
            {"op": "probe"},                                                                  # 10 rejected
            {"op": "dispatch", "command": ".uno:Undo"},
            {"op": "dispatch", "command": ".uno:Undo"},                                       # the edit undone
            {"op": "menu", "command": "check"},                                               # 13
            _panel("select", tree="findings", key=f"finding:{fixable[fmt]}"),
            _panel("fix", call=["one"]),                                                      # 15 fix one
            _panel("select", tree="findings", key=f"finding:{fixable[fmt]}"),
            _panel("fix", call=["group"]),                                                    # 17 fix a group
        ]})
        steps.append({"name": f"readonly-{fmt}", "doc": doc, "bridge": bridge, "read_only": True, "do": [
            _panel("preview", instruction=RENAME),
            {"op": "probe"},
        ]})
        steps.append({"name": f"comments-{fmt}", "kind": "model", "doc": str(work / f"small.{fmt}"),
                      "served": str(served[fmt])})
    steps.append({"name": "settings", "doc": str(work / "small.docx"),
                  "bridge": {"url": keyed.url, "api_key": "wrong-key-0123456789"}, "do": [
        _panel("settings"),
        _panel("test_connection"),                                                            # 1 refused
        _panel("settings", values={"api_key": KEY, "author": "Ada Lovelace"}),
        _panel("test_connection"),                                                            # 3 connected
        _panel("save_settings"),                                                              # 4
        _panel("capture", path=f"{work}/shots/settings-docx.bmp"),
        {"op": "read_config"},                                                                # 6
    ]})
    steps.append({"name": "unreachable", "doc": str(work / "small.docx"), "bridge": {"url": dead}, "do": [
        {"op": "menu", "command": "check"}, {"op": "probe"}]})
    steps.append({"name": "too-large", "doc": str(work / "rfc9000.docx"), "bridge": {"url": tiny.url}, "do": [
        {"op": "menu", "command": "check"}]})
    return steps


def _fixable(srv: LedgerServer, path: Path) -> tuple[int, dict, int]:
    """``(index, finding, findings of its kind)``: the first finding with a fix in the server's
    check of the document (the panel lists findings in the server's order)."""
    client = LedgerClient({"url": srv.url, "where": "bridge.json", "timeout": 60})
    media = ("application/vnd.oasis.opendocument.text" if path.suffix == ".odt" else
             "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    findings = client.check(client.upload(path.read_bytes(), path.name, media)["id"])["findings"]
    i, f = next((i, f) for i, f in enumerate(findings) if f.get("id") and f.get("fixable"))
    return i, f, sum(1 for g in findings if g["kind"] == f["kind"])


def _served_copy(srv: LedgerServer, path: Path, out: Path) -> dict:
    """The server's tracked copy (comments on) of a small edit, fetched as the panel fetches it."""
    client = LedgerClient({"url": srv.url, "where": "bridge.json", "timeout": 60})
    media = ("application/vnd.oasis.opendocument.text" if path.suffix == ".odt" else
             "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
    meta = client.upload(path.read_bytes(), path.name, media)
    proposal = client.propose(meta["id"], 'Replace "A reference" with "One reference"', "LEDGER")
    applied = client.apply(meta["id"], proposal["id"], "LEDGER", comments=True)
    out.write_bytes(client.download(applied["download"]))
    return applied


@pytest.fixture(scope="module")
def lo_run(tmp_path_factory, request, output_dir):
    require_libreoffice()
    docs = {fmt: _doc(fmt) for fmt in FORMATS}
    base = tmp_path_factory.mktemp("lo-bridge")
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}
    with LedgerServer(base / "open", workers=1, threads=4, env=env) as srv, \
         LedgerServer(base / "keyed", workers=1, threads=2, env={**env, "LEDGER_API_KEYS": KEY}) as keyed, \
         LedgerServer(base / "tiny", workers=1, threads=2, env={**env, "LEDGER_MAX_UPLOAD_MB": "0.005"}) as tiny:
        # outside pytest's root-only temp folder, so that the unprivileged user can reach it
        work = Path(tempfile.mkdtemp(prefix="ledger-lo-bridge-"))
        request.addfinalizer(lambda: shutil.rmtree(work, ignore_errors=True))
        (work / "profile").mkdir()
        (work / "steps").mkdir()
        (work / "shots").mkdir()
        oxt = work / "ledger.oxt"
        build_oxt(oxt)
        served, applied = {}, {}
        for fmt in FORMATS:
            shutil.copyfile(docs[fmt], work / f"rfc9000.{fmt}")
            small = corpus_file("referenceAllInOne.odt") if fmt == "odt" else _small_docx(work)
            shutil.copyfile(small, work / f"small.{fmt}")
            served[fmt] = work / f"served-small.{fmt}"
            applied[fmt] = _served_copy(srv, work / f"small.{fmt}", served[fmt])
        units = {fmt: read_path(str(docs[fmt])).units for fmt in FORMATS}
        fixable = {fmt: _fixable(srv, docs[fmt]) for fmt in FORMATS}
        steps = _steps(work, srv, keyed, tiny, f"http://127.0.0.1:{free_port()}", served,
                       {fmt: i for fmt, (i, _f, _n) in fixable.items()})
        for step in steps:  # unit ids the test knows from reading the file itself
            fmt = "odt" if step["name"].endswith("odt") else "docx"
            sec = next(u.id for u in units[fmt] if u.kind == "section" and u.number == "7.3")
            for item in step.get("do", []):
                if item.get("args", {}).get("key") == "{section_7_3}":
                    item["args"]["key"] = f"unit:{sec}"
        cfg = {"profile": str(work / "profile"), "oxt": str(oxt), "bridge_config": str(work / "bridge.json"),
               "work": str(work / "steps"), "pythonpath": str(ROOT / "manifest" / "libreoffice" / "pythonpath"),
               "steps": steps}
        (work / "config.json").write_text(json.dumps(cfg))
        prefix = _as_unprivileged(work)
        proc = subprocess.run([*prefix, "env", "-i", f"HOME={work}", "PATH=/usr/bin:/bin", "LANG=C.UTF-8",
                               f"TMPDIR={work}", SYSTEM_PYTHON, str(DRIVER), str(work / "config.json")],
                              capture_output=True, text=True, timeout=1800)
        assert proc.returncode == 0, proc.stderr[-3000:]
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        result["by_name"] = {s["name"]: s for s in result["steps"]}
        result.update(server=srv, keyed=keyed, tiny=tiny, config=cfg["bridge_config"], work=work, units=units,
                      applied=applied, fixable=fixable, shots=_shots(work / "shots", output_dir / "clients"))
        for fmt in FORMATS:  # "Delete Section 7.3" accepted in Writer, to open and check by hand
            if (work / f"accepted.{fmt}").exists():
                shutil.copyfile(work / f"accepted.{fmt}", output_dir / "clients" / f"libreoffice-accepted.{fmt}")
        if os.environ.get("LEDGER_LO_DUMP"):  # the driver's whole answer, to read when a test fails
            Path(os.environ["LEDGER_LO_DUMP"]).write_text(json.dumps(result["steps"], indent=1))
        yield result


def _small_docx(work: Path) -> Path:
    """referenceAllInOne.odt saved as .docx by LibreOffice (the corpus keeps the .odt)."""
    src = corpus_file("referenceAllInOne.odt")
    out = work / "small-src"
    out.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ledger-lo-") as profile:
        subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", "docx",
                        "--outdir", str(out), str(src)], capture_output=True, timeout=300,
                       env={"PATH": "/usr/bin:/bin", "HOME": profile})
    path = out / "referenceAllInOne.docx"
    if not path.exists():
        pytest.skip("LibreOffice could not convert the small document to .docx")
    return path


def _shots(folder: Path, out: Path) -> dict[str, Path]:
    """The panel's pictures (BMP, as LibreOffice draws them) as PNG files in test-output/clients."""
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    got = {}
    for bmp in sorted(folder.glob("*.bmp")):
        png = out / f"libreoffice-{bmp.stem}.png"
        Image.open(bmp).save(png)
        got[bmp.stem] = png
    return got


def _results(lo_run, name):
    step = lo_run["by_name"][name]
    assert "error" not in step, ((step.get("trace") or step["error"]) + "\nthe last answers before it: "
                                 + json.dumps([{k: r.get(k) for k in ("last", "labels", "messages")}
                                               for r in step.get("results", [])[-2:]])[:4000])
    for r in step["results"]:
        assert r.get("ok", True), r
    return step["results"]


def test_extension_installs_for_an_unprivileged_user(lo_run):
    assert lo_run["add"]["rc"] == 0, lo_run["add"]
    assert "org.ledger.bridge" in lo_run["list"]["out"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_outline_dependencies_and_jumps(lo_run, fmt):
    r = _results(lo_run, f"views-{fmt}")
    outline = r[1]["trees"]["outline"]
    headings = [h for h in r[0]["headings"] if h[0]]
    assert len(outline) >= len(headings) - 2 > 200  # every heading of the standard (the title, abstract too)
    assert [0, "7 Cryptographic and Transport Handshake"] in [row[:2] for row in outline]
    assert r[3]["last"]["jump"]["found"] is True and "Section 7.3" in r[3]["labels"]["status"]
    deps = r[5]["trees"]["deps"]
    assert r[5]["last"]["deps"]["references"] >= 2
    assert any(row[1].startswith("References: Section 7.4") for row in deps)  # "see Section 7.4"


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_check_lists_every_finding_with_its_place(lo_run, fmt):
    r = _results(lo_run, f"views-{fmt}")
    state = r[7]
    client = LedgerClient({"url": lo_run["server"].url, "timeout": 60})
    findings = client.check(state["document"])["findings"]
    assert state["last"]["check"]["total"] == len(findings) > 0
    rows = state["trees"]["findings"]
    groups = [row for row in rows if row[0] == 0]
    assert sum(int(row[1].rsplit("(", 1)[1].rstrip(")")) for row in groups) == len(findings)
    items = [row for row in rows if row[0] == 1]
    assert len(items) == len(findings) and all(" · " in row[1] or ": " in row[1] for row in items)
    places = sum(max(1, len(f.get("places") or [])) for f in findings if f.get("places"))
    assert len([row for row in rows if row[0] == 2]) <= places  # every place of a many-place finding
    filtered = r[9]
    assert 0 < filtered["last"]["findings_shown"] < len(findings)
    assert all("NAT" in row[1] for row in filtered["trees"]["findings"] if row[0] == 1)
    jumped = r[10]["last"]["jump"]
    assert jumped["found"] is True and jumped["selected"] == "NAT"


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_preview_offers_every_change_with_ticks(lo_run, fmt):
    r = _results(lo_run, f"views-{fmt}")
    preview = r[14]["last"]["preview"]
    assert preview["operations"] == preview["changes"] == preview["ticked"] > 130
    assert r[14]["last"]["cursor"]["target"]  # the unit at the cursor went with the instruction
    # Writer's main thread ran the driver's calls while the server planned and applied (not frozen)
    assert r[14].get("main_thread_answers", 0) >= 1 and r[18].get("main_thread_answers", 0) >= 1
    rows = r[14]["trees"]["changes"]
    assert rows[0][1].startswith("\u2611 ") and "why: Rename" in "".join(row[1] for row in rows[:3])
    assert len([row for row in rows if row[0] == 1]) == preview["changes"]  # each change a row of its own
    first = rows[0]
    n = int(first[1].split("(")[1].split(" ")[0])
    assert r[16]["last"]["preview"]["ticked"] == preview["changes"] - n
    assert r[16]["trees"]["changes"][0][1].startswith("\u2610 ")
    assert r[17]["last"]["preview"]["ticked"] == preview["changes"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_edit_lands_as_the_servers_changes_and_one_undo_takes_it_back(lo_run, fmt):
    r = _results(lo_run, f"views-{fmt}")
    applied = r[18]["last"]["apply"]
    assert applied["ok"] is True, applied
    redlines = r[19]["redlines"]
    assert len(redlines) == applied["redlines"] == 2 * applied["operations"]
    assert {x["author"] for x in redlines} == {"LEDGER"}
    assert r[20]["titles"][0].startswith("LEDGER: Rename")
    assert r[22]["redlines"] == [] and r[22]["paragraphs"] == r[0]["paragraphs"]
    assert r[24]["redlines"] == redlines  # Redo gives the whole edit back


@pytest.mark.parametrize("fmt", FORMATS)
def test_delete_section_then_accept_all_keeps_every_heading_number(lo_run, fmt):
    r = _results(lo_run, f"delete-{fmt}")
    assert r[2]["last"]["apply"]["ok"] is True, r[2]["last"]["apply"]
    served = r[4]
    assert r[6]["headings"] == served["accepted"]["headings"]  # the server's copy, accepted in Writer
    assert r[6]["labels"] == served["accepted"]["labels"]
    after = {h[2]: h[1] for h in r[6]["headings"]}
    assert after["Address Validation"] == "8." and after["Transport Parameters"] == "7.3."
    assert "Authenticating Connection IDs" not in after
    assert r[10]["paragraphs"] == r[0]["paragraphs"]  # Reject All gives the original back
    from addin_backend.service.checks import check

    def broken(path):
        return sum(1 for f in check(read_path(path)) if f["kind"] == "broken_reference")

    assert broken(str(lo_run["work"] / f"accepted.{fmt}")) <= broken(str(_doc(fmt)))


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_finding_or_a_group_is_fixed_through_the_preview(lo_run, fmt):
    r = _results(lo_run, f"delete-{fmt}")
    _i, finding, same_kind = lo_run["fixable"][fmt]
    one, group = r[15], r[17]
    assert one["page"] == "edit" and one["last"]["preview"]["operations"] >= 1
    assert all(op[1].split(" ", 1)[0] == "\u2611" for op in one["trees"]["changes"] if op[0] == 1)
    assert group["last"]["preview"]["operations"] >= one["last"]["preview"]["operations"]
    assert one["titles"]["changes"].startswith("Fix this finding")
    assert group["titles"]["changes"].startswith(f"Fix all {same_kind}")


@pytest.mark.parametrize("fmt", FORMATS)
def test_this_paragraph_and_the_selection_go_with_the_instruction(lo_run, fmt):
    r = _results(lo_run, f"views-{fmt}")
    client = LedgerClient({"url": lo_run["server"].url, "timeout": 60})

    def unit(state, uid):  # as the server read the document the panel sent (pending changes accepted)
        return client.request("GET", f"/api/v1/documents/{state['document']}/units/{uid}")[1]

    sel = r[32]["last"]["cursor"]["selection"]
    assert sel["text"] == AT_CURSOR[4:10] and unit(r[32], sel["unit"])["text"].startswith(AT_CURSOR)
    assert sel["start"] == 4 and sel["end"] == 10
    replaced = [o for o in r[32]["trees"]["changes"] if o[0] == 1]
    assert len(replaced) == 1 and "\u2018choice\u2019 \u2192 \u2018decision\u2019" in replaced[0][1]
    target = r[34]["last"]["cursor"]["target"]
    assert unit(r[34], target)["text"].startswith(UNRENAMED)
    assert r[35]["last"]["apply"]["ok"] is True, r[35]["last"]["apply"]
    deleted = [x["text"] or "" for x in r[36]["redlines"] if x["type"] == "Delete"]
    assert any(t.startswith(UNRENAMED) for t in deleted)  # the paragraph at the cursor, whole


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_review_covers_every_edit_and_classifies_half_decisions(lo_run, fmt):
    r = _results(lo_run, f"views-{fmt}")
    review = r[38]["last"]["review"]
    assert review["edits"] == 2
    first, second = review["statuses"]
    decided = [r[i] for i in (25, 26, 27)]
    assert all(d["deletion"] and d["insertion"] for d in decided)  # three word changes, decided in Writer
    assert sorted(first).count("mixed") == 1 and first.count("accepted") == 1 and first.count("rejected") == 1
    assert first.count("pending") == len(first) - 3
    assert set(second) == {"pending"}
    assert review["consistent"] is False
    rows = r[38]["trees"]["review"]
    assert rows[0][1].startswith("Edit 1: Rename") and rows[0][0] == 0
    assert rows[1] == [1, "Partly accepted, partly rejected (1)", None]
    assert any(row[0] == 0 and row[1].startswith("Edit 2: Delete this paragraph") for row in rows)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_read_only_document_is_refused_before_anything_changes(lo_run, fmt):
    r = _results(lo_run, f"readonly-{fmt}")
    assert "read-only" in r[0]["labels"]["status"] and r[0]["document"] is None  # nothing was sent
    assert r[1]["redlines"] == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_comments_land_dated_on_the_changed_words_and_are_not_tracked(lo_run, fmt):
    got = _results(lo_run, f"comments-{fmt}")[0]
    applied = lo_run["applied"][fmt]
    assert got["result"]["comments"] == len(applied["comments"]) == 1
    note = got["notes"][0]
    assert note["author"] == "LEDGER" and note["content"] == applied["operations"][0]["comment"]
    assert note["date"] == applied["operations"][0]["date"][:16]
    assert note["anchor"].endswith("One")  # on the changed words
    assert sorted((x["type"], x["text"]) for x in got["redlines"]) == [("Delete", "A"), ("Insert", "One")]


def test_settings_dialog_tests_the_connection_and_saves(lo_run):
    r = _results(lo_run, "settings")
    assert r[1]["last"]["connection"] == {"ok": False, "code": "unauthorized"}
    assert "refused the API key" in r[1]["labels"]["settings_result"]
    assert r[3]["last"]["connection"]["ok"] is True and "Connected" in r[3]["labels"]["settings_result"]
    saved = r[6]["config"]
    assert saved["api_key"] == KEY and saved["author"] == "Ada Lovelace" and saved["url"] == lo_run["keyed"].url


def test_the_server_unreachable_or_refusing_is_said_in_a_sentence(lo_run):
    r = _results(lo_run, "unreachable")
    assert r[0]["labels"]["status"].startswith("Cannot reach the LEDGER server at http://127.0.0.1:")
    assert r[1]["redlines"] == []
    big = _results(lo_run, "too-large")
    assert big[0]["labels"]["status"].startswith("The LEDGER server refused the document: it is larger")


def test_every_view_is_captured(lo_run):
    from PIL import Image

    names = {"outline", "dependencies", "check", "check-filtered", "preview", "review"}
    for fmt in FORMATS:
        for name in names:
            png = lo_run["shots"][f"{name}-{fmt}"]
            img = Image.open(png)
            assert img.size[0] > 400 and img.size[1] > 400
            assert len(img.convert("L").getcolors(256) or []) > 8  # drawn, not blank
    assert "settings-docx" in lo_run["shots"]
