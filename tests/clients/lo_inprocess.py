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


def _word_changes(doc):
    """``[(deleted text portion, inserted text portion)]``: each deletion followed at once by an
    insertion (one word change), in document order, read off the paragraphs' portions."""
    pairs = []
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        par = enum.nextElement()
        if not par.supportsService("com.sun.star.text.Paragraph"):
            continue
        pors = []
        pe = par.createEnumeration()
        while pe.hasMoreElements():
            pors.append(pe.nextElement())
        for i in range(len(pors) - 4):
            a, t1, b, c, t2 = pors[i:i + 5]
            if (a.TextPortionType == b.TextPortionType == c.TextPortionType == "Redline"
                    and t1.TextPortionType == t2.TextPortionType == "Text"
                    and a.IsStart and a.RedlineType == "Delete" and not b.IsStart
                    and c.IsStart and c.RedlineType == "Insert"):
                pairs.append((t1, t2))
    return pairs


def _decide_one(up, doc, portion, how):
    """Accepts or rejects the change a text portion is in, as a reviewer's click on its row does:
    the cursor inside it, nothing selected (a selection would take its neighbours too)."""
    cur = portion.getText().createTextCursorByRange(portion.getStart())
    if len(portion.getString()) > 1:
        cur.goRight(1, False)
    doc.getCurrentController().select(cur)
    up._dispatch(XSCRIPTCONTEXT.getComponentContext(), doc,  # noqa: F821
                 ".uno:AcceptTrackedChange" if how == "accept" else ".uno:RejectTrackedChange")


def decide(tests_dir, url, index, deletion, insertion):
    """The ``index``-th word change (a deletion with the insertion right after it) decided as a
    reviewer does in Manage Changes, one row at a time: ``deletion`` and ``insertion`` each
    "accept" or "reject"; returns the two rows' words."""
    up = _probe_module(tests_dir)
    doc = _document(url)
    deleted, inserted = _word_changes(doc)[int(index)]
    got = {"deletion": deleted.getString(), "insertion": inserted.getString()}
    _decide_one(up, doc, inserted, insertion)  # the later one first: the earlier stays where it is
    _decide_one(up, doc, deleted, deletion)
    return json.dumps(got)


g_exportedScripts = (probe, views, decide)
