"""Reads run inside LibreOffice's own process for the bridge driver (a user Python script: the
driver copies this file into the profile's ``Scripts/python`` and calls it through the script
provider), so that reading a 2,500-paragraph document costs a second, not a UNO round trip per
paragraph. Each function returns JSON text.
"""
import json
import sys


def _probe_module(tests_dir):
    if tests_dir not in sys.path:
        sys.path.insert(0, tests_dir)
    import uno_probe

    return uno_probe


def _document(url):
    desktop = XSCRIPTCONTEXT.getDesktop()  # noqa: F821  (given to every script LibreOffice runs)
    comps = desktop.getComponents().createEnumeration()
    while comps.hasMoreElements():
        c = comps.nextElement()
        if hasattr(c, "getURL") and c.getURL() == url:
            return c
    raise ValueError(f"no open document at {url}")


def _read(up, doc):
    paras = up.paragraphs(doc)
    return {"redlines": up.redlines(doc), "paragraphs": [p["text"] for p in paras],
            "headings": [[p.get("outline"), p.get("label"), p["text"]] for p in paras if p.get("outline")],
            "labels": [[p.get("label"), p.get("style"), p["text"]] for p in paras]}


def probe(tests_dir, url):
    """The open document's redlines, paragraphs, headings and list labels."""
    return json.dumps(_read(_probe_module(tests_dir), _document(url)))


def views(tests_dir, path):
    """A file as LibreOffice reads it after Accept All and after Reject All."""
    up = _probe_module(tests_dir)
    ctx = XSCRIPTCONTEXT.getComponentContext()  # noqa: F821
    desktop = XSCRIPTCONTEXT.getDesktop()  # noqa: F821
    out = {}
    for view, cmd in (("accepted", ".uno:AcceptAllTrackedChanges"), ("rejected", ".uno:RejectAllTrackedChanges")):
        d = up.load_for_dispatch(ctx, desktop, path)
        up._dispatch(ctx, d, cmd)
        out[view] = _read(up, d)
        d.close(True)
    return json.dumps(out)


g_exportedScripts = (probe, views)
