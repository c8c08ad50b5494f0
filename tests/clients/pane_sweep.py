"""Every change of a whole rename and of a section deletion, placed by the Word pane on every
document of the development set, in the scripted Word host fed with the document's own text.

For each document (``.docx`` and ``.odt``; a missing format is made with headless LibreOffice)
the real server proposes the two edits; the pane's apply step (static/js/word.js, through
tests/js/browser/place.mjs, on the office-shim in node) places every operation in the host's
paragraphs, which tests/clients/word_paragraphs.py read from the file the way Word shows them;
the server then writes the operations the pane placed, and the host's accepted and rejected
views must read as that file's (and the rejected view as the original). Prints one row per
document and edit::

    .venv/bin/python -m tests.clients.pane_sweep [--docs GLOB ...] [--url http://127.0.0.1:PORT] [--json OUT]

Without ``--url`` a server (LEDGER_GRAPH_SEMANTIC=0) is started on loopback for the run.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import requests

from tests.clients.word_paragraphs import accepted, comparable, rejected, word_paragraphs

ROOT = Path(__file__).resolve().parents[2]
DEVSET = Path(os.environ.get("LEDGER_DEVSET", ROOT.parent / "shared" / "devset"))
PLACE = ROOT / "tests" / "js" / "browser" / "place.mjs"
TYPES = {".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
         ".odt": "application/vnd.oasis.opendocument.text"}

#: The rename each development-set document is tried with (a term the document uses throughout);
#: a document not listed gets its most used long word (``pick_term``).
RENAMES = {
    "rfc6787": ("synthesizer", "speech generator"), "rfc8446": ("handshake", "negotiation"),
    "rfc9000": ("connection ID", "connection identifier"), "rfc9002": ("congestion window", "sending window"),
    "rfc9420": ("epoch", "era"), "mqtt-sn": ("gateway", "relay"), "sarif": ("baseline", "reference run"),
    "stix": ("indicator", "signal"),
}
_STOP = set("should before between within without through which their there these those other about would could "
            "section following value values field fields message messages document described defined".split())


def documents(patterns: list[str] | None, work: Path) -> list[Path]:
    """The development set's standards (``rfc/*.A.*``) and every wild document, in both formats."""
    if patterns:
        found = [Path(p) for pat in patterns for p in sorted(glob.glob(pat))]
    else:
        found = [Path(p) for p in sorted(glob.glob(str(DEVSET / "rfc" / "*.A.docx")) + glob.glob(str(DEVSET / "rfc" / "*.A.odt")))]
        found += [p for p in sorted((DEVSET / "wild").glob("*")) if p.suffix in TYPES]
    out = list(found)
    if not patterns:
        stems = {(p.parent, p.stem): {q.suffix for q in found if q.parent == p.parent and q.stem == p.stem} for p in found}
        for (folder, stem), have in sorted(stems.items()):
            for want in (".docx", ".odt"):
                if want not in have:
                    src = folder / f"{stem}{(have - {want}).pop()}"
                    out.append(convert(src, want, work))
    return out


def convert(src: Path, suffix: str, work: Path) -> Path:
    """``src`` saved as ``suffix`` by headless LibreOffice (its own profile), cached in ``work``."""
    dest = work / f"{src.stem}{suffix}"
    if dest.exists():
        return dest
    profile = work / "lo-profile"
    fmt = {".docx": "docx:MS Word 2007 XML", ".odt": "odt"}[suffix]
    subprocess.run(["soffice", f"-env:UserInstallation=file://{profile}", "--headless", "--convert-to", fmt, "--outdir", str(work), str(src)],
                   check=True, capture_output=True, timeout=600)
    return dest


def rename_for(path: Path, units: list[dict[str, Any]]) -> tuple[str, str]:
    for key, pair in RENAMES.items():
        if path.name.startswith(key):
            return pair
    return pick_term(units), "renamed term"


def pick_term(units: list[dict[str, Any]]) -> str:
    """The long word most paragraphs use (a document's own term, not a function word)."""
    count: Counter[str] = Counter()
    for u in units:
        count.update({w for w in re.findall(r"\b[a-z]{6,}\b", u.get("text") or "") if w not in _STOP})
    return count.most_common(1)[0][0]


def section_for(units: list[dict[str, Any]]) -> str:
    """A section in the middle of the document with a few paragraphs, as an instruction names it:
    "Section 3.2" for a numbered second-level one, else "the section titled '…'"."""
    kids = Counter(u.get("parent") for u in units)
    secs = [u for u in units if u["kind"] == "section" and re.fullmatch(r"\d+\.\d+\.?", u.get("number") or "") and 3 <= kids[u["id"]] <= 40]
    if secs:
        return f"Section {secs[len(secs) // 2]['number'].rstrip('.')}"
    titled = [u for u in units if u["kind"] == "section" and 3 <= kids[u["id"]] <= 40 and (u.get("text") or "").strip()]
    seen = Counter((u.get("text") or "").strip() for u in units if u["kind"] == "section")
    titled = [u for u in titled if seen[u["text"].strip()] == 1 and "'" not in u["text"]]
    pick = titled[len(titled) // 2]
    return f"the section titled '{pick['text'].strip()}'"


class Client:
    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def upload(self, path: Path) -> dict[str, Any]:
        r = requests.post(f"{self.url}/api/v1/documents", params={"filename": path.name}, data=path.read_bytes(),
                          headers={"Content-Type": TYPES[path.suffix]}, timeout=300)
        r.raise_for_status()
        return r.json()

    def wait(self, job: dict[str, Any], until: str = "proposals", limit: float = 900) -> dict[str, Any]:
        t0 = time.monotonic()
        while job["status"] not in ("done", "failed") and until not in (job.get("ready") or []):
            if time.monotonic() - t0 > limit:
                raise TimeoutError(job)
            time.sleep(0.5)
            job = requests.get(f"{self.url}/api/v1/jobs/{job['id']}", timeout=60).json()
        return job

    def units(self, doc: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while True:
            page = requests.get(f"{self.url}/api/v1/documents/{doc}/units", params={"offset": len(out), "limit": 500}, timeout=120).json()
            out += page["units"]
            if not page["units"] or len(out) >= page["total"]:
                return out

    def propose(self, doc: str, instruction: str) -> dict[str, Any]:
        r = requests.post(f"{self.url}/api/v1/documents/{doc}/proposals", json={"instruction": instruction}, timeout=900)
        if r.status_code == 202:
            job = self.wait(r.json()["job"], until="__never__")
            return job["result"]
        r.raise_for_status()
        return r.json()

    def apply(self, doc: str, proposal: str, ids: list[str]) -> bytes:
        r = requests.post(f"{self.url}/api/v1/documents/{doc}/apply", json={"proposal_id": proposal, "operations": ids, "author": "Ada"}, timeout=900)
        r.raise_for_status()
        f = requests.get(f"{self.url}{r.json()['download']}", timeout=300)
        f.raise_for_status()
        return f.content


def place(paragraphs: list[dict[str, Any]], units: list[dict[str, Any]], ops: list[dict[str, Any]], work: Path) -> dict[str, Any]:
    src = work / "place-in.json"
    dst = work / "place-out.json"
    src.write_text(json.dumps({"paragraphs": paragraphs, "units": units, "ops": ops}))
    subprocess.run(["node", str(PLACE), str(src), str(dst)], check=True, cwd=ROOT / "tests" / "js", timeout=900)
    return json.loads(dst.read_text())


def run_edit(client: Client, path: Path, doc: str, units: list[dict[str, Any]], paragraphs: list[dict[str, Any]],
             instruction: str, work: Path) -> dict[str, Any]:
    t0 = time.monotonic()
    proposal = client.propose(doc, instruction)
    ops = proposal.get("operations") or []
    row: dict[str, Any] = {"document": path.name, "instruction": instruction, "operations": len(ops), "propose_s": round(time.monotonic() - t0, 2)}
    if not ops:
        row["note"] = "the server proposed nothing"
        return row
    placed = place(paragraphs, units, ops, work)
    if "error" in placed:
        row["error"] = placed["error"][-500:]
        return row
    row.update(written=len(placed["written"]), not_placed=len(placed["failures"]), place_s=round(placed["seconds"], 2),
               searches=placed["searches"], longest_search=placed["longest"])
    row["reasons"] = Counter(re.sub(r'"[^"]*"', '"…"', f["reason"]) for f in placed["failures"]).most_common(5)
    if placed["written"]:
        written_file = client.apply(doc, proposal["id"], placed["written"])
        row["accepted_equal"] = comparable(placed["accepted"]) == comparable(accepted(written_file))
        row["rejected_equal"] = comparable(placed["rejected"]) == comparable(rejected(path.read_bytes()))
        if not row["accepted_equal"]:
            a, b = comparable(placed["accepted"]), comparable(accepted(written_file))
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            row["first_difference"] = {"pane": a[i][:160] if i < len(a) else None, "server": b[i][:160] if i < len(b) else None}
    return row


def browser_row(url: str, path: Path, out: Path) -> dict[str, Any]:
    """The same two edits through the pane in chromium at 350 px (test_taskpane_browser's sweep)."""
    from tests.clients.test_taskpane_browser import _check_sweep, _sweep

    class _Server:
        pass

    server = _Server()
    server.url = url  # type: ignore[attr-defined]
    t0 = time.monotonic()
    row: dict[str, Any] = {"document": path.name, "browser": True}
    try:
        res = _sweep(server, out / f"{path.stem}{path.suffix.replace('.', '-')}", path, timeout=1200)
        row["steps"] = _check_sweep(res, path)
        row["ok"] = True
    except AssertionError as err:
        row.update(ok=False, error=str(err)[:600])
    row["seconds"] = round(time.monotonic() - t0, 1)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", nargs="*", help="glob(s) of documents (default: the development set, both formats)")
    ap.add_argument("--url", help="a running LEDGER server (default: start one)")
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--work", help="folder for conversions and scratch files")
    ap.add_argument("--browser", help="also drive the pane in chromium at 350 px on each document (screenshots and results in this folder)")
    args = ap.parse_args(argv)
    work = Path(args.work or tempfile.mkdtemp(prefix="pane-sweep-"))
    work.mkdir(parents=True, exist_ok=True)
    docs = documents(args.docs, work)
    rows = []
    server = None
    if not args.url:
        from tests.servers import LedgerServer
        server = LedgerServer(work / "server", workers=1, threads=4, env={"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"})
        server.__enter__()
    client = Client(args.url or server.url)
    try:
        for path in docs:
            t0 = time.monotonic()
            up = client.upload(path)
            client.wait(up["job"])
            units = client.units(up["id"])
            paragraphs = word_paragraphs(path)
            old, new = rename_for(path, units)
            for instruction in (f"Rename '{old}' to '{new}'", f"Delete {section_for(units)}"):
                try:
                    row = run_edit(client, path, up["id"], units, paragraphs, instruction, work)
                except Exception as err:  # one document's failure is a row, not the end of the sweep
                    row = {"document": path.name, "instruction": instruction, "error": repr(err)[:300]}
                row["units"] = len(units)
                row["paragraphs"] = len(paragraphs)
                rows.append(row)
                print(json.dumps(row, ensure_ascii=False), flush=True)
            if args.browser:
                rows.append(browser_row(client.url, path, Path(args.browser)))
                print(json.dumps(rows[-1], ensure_ascii=False), flush=True)
            print(f"# {path.name}: {time.monotonic() - t0:.1f} s", file=sys.stderr, flush=True)
    finally:
        if server is not None:
            server.__exit__(None, None, None)
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False))
    ops = sum(r.get("operations", 0) for r in rows)
    landed = sum(r.get("written", 0) for r in rows)
    print(f"# {len(rows)} edits on {len(docs)} documents: {landed} of {ops} operations placed; "
          f"accepted views equal in {sum(1 for r in rows if r.get('accepted_equal'))} of {sum(1 for r in rows if 'accepted_equal' in r)}")
    if args.browser:
        b = [r for r in rows if r.get("browser")]
        print(f"# in the browser at 350 px: {sum(1 for r in b if r.get('ok'))} of {len(b)} documents with every change landed")
    return 0 if landed == ops and all(r.get("accepted_equal", True) and r.get("rejected_equal", True) and r.get("ok", True) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
