"""Ask a real, headless LibreOffice what it sees in documents (run under Debian's python3 + UNO).

Usage: python3 uno_probe.py PROFILE_DIR FILE[::op,op...] ...

Prints one JSON object per file on stdout. Ops (default ``paragraphs``):
  paragraphs  body paragraphs in order (table cells included): text, list label, outline level, style
  redlines    tracked changes: type, author, date, text
  accepted    paragraph texts after Accept All
  rejected    paragraph texts after Reject All (on a fresh load)
  fields      text fields: service names and presentation strings
  refreshed_fields  cross-reference fields in body order: the cached result, then what
              LibreOffice shows after refreshing the fields ({"cached", "shown", "name", "part"})
  frames      paragraphs of the text frames (Word text boxes), frame by frame
  notes       footnote texts then endnote texts, in order
  accepted_frames, rejected_frames, accepted_notes, rejected_notes, accepted_paragraphs,
  rejected_paragraphs   the same after Accept All / Reject All (on a fresh load)
Errors for one file are reported as {"file", "error"} and the probe goes on.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid

import uno  # noqa: E402  (Debian's python3-uno)
from com.sun.star.beans import PropertyValue  # noqa: E402
from com.sun.star.connection import NoConnectException  # noqa: E402


def _prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def start_office(profile: str):
    pipe = "ledger_probe_" + uuid.uuid4().hex[:10]
    proc = subprocess.Popen(
        [
            "soffice",
            f"-env:UserInstallation=file://{profile}",
            "--headless",
            "--invisible",
            "--nologo",
            "--norestore",
            "--nodefault",
            "--nolockcheck",
            f"--accept=pipe,name={pipe};urp;StarOffice.ComponentContext",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.time() + 90
    while True:
        try:
            ctx = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
            break
        except NoConnectException:
            if time.time() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("soffice did not start")
            time.sleep(0.3)
    _no_lock_files(ctx)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    return proc, ctx, desktop


def _no_lock_files(ctx) -> None:
    """Open documents without lock files: the corpus is opened in place, and a LibreOffice
    stopped midway would leave ``.~lock.NAME#`` beside a file, which the next run cannot load."""
    provider = ctx.ServiceManager.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", ctx)
    misc = provider.createInstanceWithArguments(
        "com.sun.star.configuration.ConfigurationUpdateAccess",
        (_prop("nodepath", "/org.openoffice.Office.Common/Misc"),),
    )
    misc.setPropertyValue("UseLocking", False)
    misc.setPropertyValue("UseDocumentOOoLockFile", False)
    misc.setPropertyValue("UseDocumentSystemFileLocking", False)
    misc.commitChanges()


def stop_office(proc, desktop) -> None:
    """Ask LibreOffice to quit, and kill it if it does not within 30 s."""
    try:
        desktop.terminate()
    except Exception:
        pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def load(desktop, path: str):
    url = uno.systemPathToFileUrl(os.path.abspath(path))
    return desktop.loadComponentFromURL(url, "_blank", 0, (_prop("Hidden", True), _prop("ReadOnly", False)))


_FILTERS = {".docx": "MS Word 2007 XML", ".odt": "writer8"}


def has_comments(path: str) -> bool:
    """Whether a .docx/.odt holds comments. LibreOffice's no-GUI build (Debian's
    libreoffice-writer-nogui) has no .ui files and aborts when a view lays out a comment window,
    so such a file is opened as a model without a view (:func:`load_model`)."""
    import zipfile

    try:
        with zipfile.ZipFile(path) as z:
            names = set(z.namelist())
            if any(n.startswith("word/comments") for n in names):
                return True
            return "content.xml" in names and b"office:annotation" in z.read("content.xml")
    except (OSError, zipfile.BadZipFile):
        return False


def load_model(ctx, path: str):
    """The document as a model without a view (no layout, no comment windows)."""
    doc = ctx.ServiceManager.createInstanceWithContext("com.sun.star.text.TextDocument", ctx)
    flt = _FILTERS.get(os.path.splitext(path)[1].lower(), "MS Word 2007 XML")
    doc.load((_prop("URL", uno.systemPathToFileUrl(os.path.abspath(path))), _prop("FilterName", flt)))
    return doc


def load_any(ctx, desktop, path: str):
    """A view for a file without comments, a model for one with comments (see :func:`has_comments`)."""
    return load_model(ctx, path) if has_comments(path) else load(desktop, path)


def load_for_dispatch(ctx, desktop, path: str):
    """A document in a view, for Accept All / Reject All: a file with comments is opened from a
    copy without them (the text and its tracked changes stay as they are)."""
    if not has_comments(path):
        return load(desktop, path)
    return load(desktop, strip_comments(path))


_ODF_NOTES = (re.compile(rb"<office:annotation[\s>].*?</office:annotation>", re.S), re.compile(rb"<office:annotation-end\b[^>]*/>"))
_WORD_MARKS = (re.compile(rb"<w:commentRange(?:Start|End)\b[^>]*/>"),
               re.compile(rb"<w:r\b(?:(?!</w:r>).)*?<w:commentReference\b[^>]*/>(?:(?!</w:r>).)*?</w:r>", re.S))
_WORD_COMMENT = re.compile(rb"<w:comment\b.*?</w:comment>", re.S)


def strip_comments(path: str) -> str:
    """A temporary copy of a .docx/.odt without its comments."""
    import tempfile
    import zipfile

    fd, tmp = tempfile.mkstemp(suffix=os.path.splitext(path)[1].lower())
    os.close(fd)
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "content.xml":
                for rx in _ODF_NOTES:
                    data = rx.sub(b"", data)
            elif info.filename.startswith("word/comments.xml"):
                data = _WORD_COMMENT.sub(b"", data)
            elif info.filename.startswith("word/") and info.filename.endswith(".xml"):
                for rx in _WORD_MARKS:
                    data = rx.sub(b"", data)
            dst.writestr(info, data)
    return tmp


def _paragraph_info(par) -> dict:
    info = {"text": par.getString()}
    for name, key in (("ListLabelString", "label"), ("OutlineLevel", "outline"), ("ParaStyleName", "style")):
        try:
            info[key] = par.getPropertyValue(name)
        except Exception:
            pass
    return info


def _walk(text):
    """Paragraph infos of an XText in order; tables expand to their cells row by row."""
    out = []
    enum = text.createEnumeration()
    while enum.hasMoreElements():
        el = enum.nextElement()
        if el.supportsService("com.sun.star.text.Paragraph"):
            out.append(_paragraph_info(el))
        elif el.supportsService("com.sun.star.text.TextTable"):
            for name in _cell_order(el.getCellNames()):
                out.extend(_walk(el.getCellByName(name)))
    return out


def _cell_order(names):
    import re

    def key(n):
        m = re.match(r"([A-Z]+)(\d+)(.*)", n)
        if not m:
            return (0, 0, n)
        col = 0
        for ch in m.group(1):
            col = col * 26 + (ord(ch) - 64)
        return (int(m.group(2)), col, m.group(3))

    return sorted(names, key=key)


def paragraphs(doc):
    return _walk(doc.getText())


def redlines(doc):
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        r = enum.nextElement()
        item = {"type": r.getPropertyValue("RedlineType"), "author": r.getPropertyValue("RedlineAuthor")}
        try:
            dt = r.getPropertyValue("RedlineDateTime")
            item["date"] = f"{dt.Year:04d}-{dt.Month:02d}-{dt.Day:02d}T{dt.Hours:02d}:{dt.Minutes:02d}:{dt.Seconds:02d}"
        except Exception:
            pass
        try:
            start = r.getPropertyValue("RedlineStart")
            end = r.getPropertyValue("RedlineEnd")
            cur = start.getText().createTextCursorByRange(start)
            cur.gotoRange(end, True)
            item["text"] = cur.getString()
        except Exception:
            item["text"] = None
        out.append(item)
    return out


def _dispatch(ctx, doc, command):
    helper = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.DispatchHelper", ctx)
    frame = doc.getCurrentController().getFrame()
    helper.executeDispatch(frame, command, "", 0, ())


def frames(doc):
    """Text frames and the text boxes of drawing shapes, in draw-page order then frame names."""
    out, seen = [], set()
    page = doc.getDrawPage()
    for i in range(page.getCount()):
        shape = page.getByIndex(i)
        try:
            box = shape.getPropertyValue("TextBoxContent")
        except Exception:
            box = None
        if box is not None:
            seen.add(box.getName())
            out.append([p["text"] for p in _walk(box.getText())])
    tf = doc.getTextFrames()
    for n in sorted(tf.getElementNames()):
        if n not in seen:
            out.append([p["text"] for p in _walk(tf.getByName(n).getText())])
    return out


def notes(doc):
    out = []
    for coll in (doc.getFootnotes(), doc.getEndnotes()):
        for i in range(coll.getCount()):
            out.append(coll.getByIndex(i).getString())
    return out


def _reference_fields(doc):
    out = []
    enum = doc.getText().createEnumeration()
    while enum.hasMoreElements():
        par = enum.nextElement()
        if not par.supportsService("com.sun.star.text.Paragraph"):
            continue
        portions = par.createEnumeration()
        while portions.hasMoreElements():
            por = portions.nextElement()
            if por.TextPortionType == "TextField" and por.TextField.supportsService("com.sun.star.text.TextField.GetReference"):
                out.append(por.TextField)
    return out


def refreshed_fields(doc):
    """Each cross-reference's cached result and LibreOffice's own after a refresh."""
    found = _reference_fields(doc)
    cached = [f.getPresentation(False) for f in found]
    doc.getTextFields().refresh()
    return [{"cached": c, "shown": f.getPresentation(False), "name": f.SourceName, "part": f.ReferenceFieldPart}
            for c, f in zip(cached, _reference_fields(doc))]


def updated(doc):
    """Paragraph infos after LibreOffice updates every field (Tools > Update > Fields): numbering
    fields show the number LibreOffice counts, not the cached result the file carries."""
    doc.getTextFields().refresh()
    return paragraphs(doc)


_VIEWS = {"frames": frames, "notes": notes, "paragraphs": paragraphs, "refreshed_fields": refreshed_fields,
          "updated": updated}


def fields(doc):
    out = []
    enum = doc.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        f = enum.nextElement()
        out.append({"services": [s for s in f.getSupportedServiceNames()], "shown": f.getPresentation(False)})
    return out


def main(argv):
    profile = argv[1]
    jobs = argv[2:]
    proc, ctx, desktop = start_office(profile)
    try:
        for job in jobs:
            path, _, ops = job.partition("::")
            ops = ops.split(",") if ops else ["paragraphs"]
            result = {"file": path}
            try:
                doc = load_any(ctx, desktop, path)
                if doc is None:
                    raise RuntimeError("LibreOffice could not load the file")
                for op in ops:
                    if op == "paragraphs":
                        result[op] = paragraphs(doc)
                    elif op == "redlines":
                        result[op] = redlines(doc)
                    elif op == "fields":
                        result[op] = fields(doc)
                    elif op in _VIEWS:
                        result[op] = _VIEWS[op](doc)
                    elif op.partition("_")[0] in ("accepted", "rejected"):
                        view, _, what = op.partition("_")
                        d2 = load_for_dispatch(ctx, desktop, path)
                        cmd = ".uno:AcceptAllTrackedChanges" if view == "accepted" else ".uno:RejectAllTrackedChanges"
                        _dispatch(ctx, d2, cmd)
                        result[op] = _VIEWS[what](d2) if what else [p["text"] for p in paragraphs(d2)]
                        d2.close(True)
                    else:
                        raise ValueError(f"unknown op {op}")
                doc.close(True)
            except Exception as exc:  # report and go on with the next file
                result["error"] = f"{type(exc).__name__}: {exc}"
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
    finally:
        stop_office(proc, desktop)


if __name__ == "__main__":
    main(sys.argv)
