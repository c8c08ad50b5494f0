"""Install the LEDGER extension in a fresh profile and run it in a real headless LibreOffice.

Run under Debian's python3 (python3-uno) as an unprivileged user: ``python3 lo_bridge_driver.py
CONFIG.json``. CONFIG names the profile folder, the .oxt, the bridge's options file and the
steps; each step opens a copy of a document and either runs a menu command (dispatching the URL
that Addons.xcu gives the menu item) or calls the extension's ``apply_operations`` on it
directly, then reports the document's redlines, its paragraphs and its paragraphs after Accept All. Prints one JSON object.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE)))  # tests/: uno_probe

import uno_probe  # noqa: E402  (Debian's python3-uno)


def unopkg(profile, *args):
    proc = subprocess.run(["unopkg", *args, f"-env:UserInstallation=file://{profile}"],
                          capture_output=True, text=True, timeout=300)
    return {"rc": proc.returncode, "out": proc.stdout[-4000:], "err": proc.stderr[-4000:]}


def current_model(doc):
    """The model shown in the document's window (it changes when the bridge reloads the frame)."""
    try:
        return doc.getCurrentController().getFrame().getController().getModel()
    except Exception:
        return doc


def run_step(ctx, desktop, cfg, step):
    work = os.path.join(cfg["work"], step["name"])
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, os.path.basename(step["doc"]))
    shutil.copyfile(step["doc"], path)
    out = {"name": step["name"]}
    url = uno_probe.uno.systemPathToFileUrl(path)
    doc = desktop.loadComponentFromURL(url, "_blank", 0, ())
    if step["kind"] == "menu":
        report = os.path.join(work, "report.json")
        with open(cfg["bridge_config"], "w", encoding="utf-8") as fh:
            # no comments: Debian's no-GUI LibreOffice aborts laying out a comment window in a view
            json.dump({"comments": False, **step["bridge"], "ui": "none", "report": report}, fh)
        helper = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", ctx)
        helper.executeDispatch(doc.getCurrentController().getFrame(), step["url"], "", 0, ())
        deadline = time.time() + 120
        while not os.path.exists(report) and time.time() < deadline:
            time.sleep(0.2)
        out["report"] = json.load(open(report, encoding="utf-8")) if os.path.exists(report) else None
        doc = current_model(doc)
    else:
        sys.path.insert(0, cfg["pythonpath"])
        import ledger_writer

        out["result"] = ledger_writer.apply_operations(ctx, doc, step["ops"], step["author"], step.get("units"))
        out["record_changes"] = doc.getPropertyValue("RecordChanges")
    out["redlines"] = uno_probe.redlines(doc)
    out["paragraphs"] = [p["text"] for p in uno_probe.paragraphs(doc)]
    uno_probe._dispatch(ctx, doc, ".uno:AcceptAllTrackedChanges")
    out["accepted"] = [p["text"] for p in uno_probe.paragraphs(doc)]
    doc.close(True)
    return out


def main(config_path):
    cfg = json.load(open(config_path, encoding="utf-8"))
    result = {"add": unopkg(cfg["profile"], "add", "--suppress-license", cfg["oxt"])}
    result["list"] = unopkg(cfg["profile"], "list")
    os.environ["LEDGER_BRIDGE_CONFIG"] = cfg["bridge_config"]
    proc, ctx, desktop = uno_probe.start_office(cfg["profile"])
    result["steps"] = []
    try:
        for step in cfg["steps"]:
            try:
                result["steps"].append(run_step(ctx, desktop, cfg, step))
            except Exception as exc:  # report and go on
                result["steps"].append({"name": step["name"], "error": f"{type(exc).__name__}: {exc}"})
    finally:
        uno_probe.stop_office(proc, desktop)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
