"""Install the LEDGER extension in a fresh profile and drive its panel in a real headless LibreOffice.

Run under Debian's python3 (python3-uno) as an unprivileged user: ``python3 lo_bridge_driver.py
CONFIG.json``. CONFIG names the profile folder, the .oxt, the bridge's options file and the
steps; each step opens a copy of a document (read-only when asked) and runs its ``do`` list:

- ``{"op": "menu", "command": ...}``: the menu item (the URL Addons.xcu gives it, dispatched);
- ``{"op": "panel", "action": ..., "args": {...}}``: a panel action, run by the extension on
  LibreOffice's main thread as a click runs it (``org.ledger.Bridge``'s ``XJob``), then its state
  once the server's work is done;
- ``{"op": "probe"}``: the document's redlines, paragraphs and headings as LibreOffice shows them
  (read inside LibreOffice's process by ``lo_inprocess.py``, a user script);
- ``{"op": "dispatch", "command": ".uno:..."}``: Accept All, Reject All, Undo, … in the window;
- ``{"op": "decide", "index": k, "deletion": "accept"|"reject", "insertion": ...}``: the k-th word
  change's two rows of Manage Changes decided, each as a click on it does;
- ``{"op": "served", "from_last": true}``: the server's tracked copy of the revision the panel
  applied last, with its paragraphs after Accept All and after Reject All;
- ``{"op": "save", "path": ...}``: the document as it is now, stored to a file.

``{"kind": "model", ...}`` steps run the extension's writer on a document without a view instead
(the no-GUI LibreOffice cannot lay out comments in a window): the server's tracked copy of an
apply brought in, then the comments and redlines read back. Prints one JSON object.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, TESTS)  # uno_probe

import uno_probe  # noqa: E402  (Debian's python3-uno)
from com.sun.star.beans import NamedValue  # noqa: E402


def unopkg(profile, *args):
    proc = subprocess.run(["unopkg", *args, f"-env:UserInstallation=file://{profile}"],
                          capture_output=True, text=True, timeout=300)
    return {"rc": proc.returncode, "out": proc.stdout[-4000:], "err": proc.stderr[-4000:]}


def _nv(name, value):
    v = NamedValue()
    v.Name, v.Value = name, value
    return v


class Panel:
    """The extension's automation door (``org.ledger.Bridge`` as an ``XJob``)."""

    def __init__(self, ctx, url):
        self.bridge = ctx.ServiceManager.createInstanceWithContext("org.ledger.Bridge", ctx)
        self.url = url

    def __call__(self, action, args=None, timeout=600):
        args = dict(args or {}, doc=self.url)
        out = json.loads(self.bridge.execute((_nv("action", action), _nv("args", json.dumps(args)))))
        if out.get("ok") and out.get("busy"):
            out = json.loads(self.bridge.execute((_nv("action", "wait"),
                                                  _nv("args", json.dumps({"doc": self.url, "timeout": timeout})))))
        return out


def inprocess(ctx, name, *args):
    """A function of ``lo_inprocess.py`` run inside LibreOffice's process (a user script)."""
    factory = ctx.ServiceManager.createInstanceWithContext("com.sun.star.script.provider.MasterScriptProviderFactory",
                                                           ctx)
    script = factory.createScriptProvider("").getScript(
        f"vnd.sun.star.script:lo_inprocess.py${name}?language=Python&location=user")
    result, _index, _out = script.invoke(tuple(args), (), ())
    return json.loads(result)


def install_inprocess(profile):
    scripts = os.path.join(profile, "user", "Scripts", "python")
    os.makedirs(scripts, exist_ok=True)
    shutil.copyfile(os.path.join(HERE, "lo_inprocess.py"), os.path.join(scripts, "lo_inprocess.py"))


def decide(ctx, url, item):
    """The ``index``-th word change decided in Manage Changes, row by row (``lo_inprocess.decide``)."""
    return inprocess(ctx, "decide", TESTS, url, item["index"], item["deletion"], item["insertion"])


def served(ctx, desktop, work, item):
    """The revision's file from the server, as LibreOffice reads it after Accept All and Reject All."""
    url = f"{item['url']}/api/v1/documents/{item['document']}/revisions/{item['revision']}/file"
    data = urllib.request.urlopen(url, timeout=120).read()
    path = os.path.join(work, f"served-{item['revision']}{item.get('suffix', '.docx')}")
    with open(path, "wb") as fh:
        fh.write(data)
    return inprocess(ctx, "views", TESTS, path)


def run_step(ctx, desktop, cfg, step, results):
    """Runs one step's actions, appending each one's answer to ``results`` (kept when one fails)."""
    work = os.path.join(cfg["work"], step["name"])
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, os.path.basename(step["doc"]))
    shutil.copyfile(step["doc"], path)
    with open(cfg["bridge_config"], "w", encoding="utf-8") as fh:
        # no comments in a window: Debian's no-GUI LibreOffice aborts laying out a comment window
        json.dump({"comments": False, "ui": "none", **step.get("bridge", {})}, fh)
    if step.get("kind") == "model":
        return run_model_step(ctx, cfg, step, path)
    url = uno_probe.uno.systemPathToFileUrl(path)
    props = (uno_probe._prop("ReadOnly", True),) if step.get("read_only") else ()
    doc = desktop.loadComponentFromURL(url, "_blank", 0, props)
    panel = Panel(ctx, url)
    try:
        for item in step["do"]:
            op = item["op"]
            t0 = time.monotonic()
            if op == "menu":
                helper = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", ctx)
                helper.executeDispatch(doc.getCurrentController().getFrame(),
                                       f"service:org.ledger.Bridge?{item['command']}", "", 0, ())
                time.sleep(0.5)
                out = panel("wait")
            elif op == "panel":
                out = panel(item["action"], item.get("args"))
            elif op == "probe":
                out = inprocess(ctx, "probe", TESTS, url)
            elif op == "dispatch":
                uno_probe._dispatch(ctx, doc, item["command"])
                out = {}
            elif op == "decide":
                out = decide(ctx, url, item)
            elif op == "served":
                if item.get("from_last"):  # the revision the panel applied last
                    last = next(r for r in reversed(results) if r.get("last", {}).get("apply", {}).get("ok"))
                    item = dict(item, url=step["bridge"]["url"], document=last["document"],
                                revision=last["last"]["apply"]["revision"], suffix=os.path.splitext(path)[1])
                out = served(ctx, desktop, work, item)
            elif op == "save":
                filt = "MS Word 2007 XML" if item["path"].endswith(".docx") else "writer8"
                doc.storeToURL(uno_probe.uno.systemPathToFileUrl(item["path"]), (uno_probe._prop("FilterName", filt),))
                out = {"path": item["path"]}
            elif op == "read_config":
                with open(cfg["bridge_config"], encoding="utf-8") as fh:
                    out = {"config": json.load(fh)}
            elif op == "undo_titles":
                out = {"titles": list(doc.getUndoManager().getAllUndoActionTitles())}
            else:
                raise ValueError(f"unknown op {op}")
            out["seconds"] = round(time.monotonic() - t0, 2)
            results.append(out)
    finally:
        panel("close") if not step.get("keep_open") else None
        doc.close(True)
    return {"name": step["name"], "results": results}


def run_model_step(ctx, cfg, step, path):
    """The extension's writer on a document without a view: the server's copy (with comments)
    brought in, then what the document holds."""
    sys.path.insert(0, cfg["pythonpath"])
    import ledger_writer  # the extension's own module, run here over the UNO bridge

    with open(step["served"], "rb") as fh:
        data = fh.read()
    doc = uno_probe.load_model(ctx, path)
    fmt = "docx" if path.endswith(".docx") else "odt"
    result = ledger_writer.apply_served(ctx, doc, data, fmt, title="LEDGER: test")
    notes = []
    enum = doc.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        f = enum.nextElement()
        if f.supportsService("com.sun.star.text.textfield.Annotation"):
            dt = f.DateTimeValue
            notes.append({"author": f.Author, "initials": f.Initials, "content": f.Content,
                          "date": f"{dt.Year:04d}-{dt.Month:02d}-{dt.Day:02d}T{dt.Hours:02d}:{dt.Minutes:02d}",
                          "anchor": f.getAnchor().getString()})
    out = {"result": result, "notes": notes, "redlines": uno_probe.redlines(doc)}
    doc.close(True)
    return {"name": step["name"], "results": [out]}


def main(config_path):
    cfg = json.load(open(config_path, encoding="utf-8"))
    result = {"add": unopkg(cfg["profile"], "add", "--suppress-license", cfg["oxt"])}
    result["list"] = unopkg(cfg["profile"], "list")
    install_inprocess(cfg["profile"])
    os.environ["LEDGER_BRIDGE_CONFIG"] = cfg["bridge_config"]
    proc, ctx, desktop = uno_probe.start_office(cfg["profile"])
    result["steps"] = []
    try:
        for step in cfg["steps"]:
            try:
                done = []
                result["steps"].append(run_step(ctx, desktop, cfg, step, done))
            except Exception as exc:  # report and go on
                import traceback

                result["steps"].append({"name": step["name"], "error": f"{type(exc).__name__}: {exc}",
                                        "trace": traceback.format_exc()[-3000:], "results": done})
    finally:
        uno_probe.stop_office(proc, desktop)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
