"""What LibreOffice shows of a wild document and of an edited copy (run under Debian's python3 + UNO).

Usage: python3 uno_wild.py PROFILE_DIR FILE::op,op,...  ...

One JSON object per file on stdout: ``{"file", "seconds", op: ..., "accepted": {op: ...},
"rejected": {op: ...}}``, or ``{"file", "error"}`` when LibreOffice cannot open it. Ops read the
file as loaded; ``accepted.OP`` / ``rejected.OP`` read it after Accept All / Reject All (one load
per view, from a copy without comments, as ``tests/uno_probe.py`` does):

  paragraphs  every paragraph, table cells row by row: text, list label, outline level, style,
              the top-level table holding it (-1: none), whether it lies in a document index (a TOC)
  outline     the same without index membership (text, list label, outline level, style, table)
  texts       the same with the text and the table only
  code        [paragraph, start, end] of the text LibreOffice shows in a code character style or a
              monospace font, or in a code paragraph style
  margins     the headers' and footers' texts of the page styles that have them ({"Style/Header": text})
  redlines    tracked changes: type, text, and the text of the paragraph each starts in
  fields      cross-reference fields: what the file carries and what LibreOffice shows once it
              recomputes them ({"cached", "shown", "name"})
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests"))

#: ``tests/uno_probe.py`` (LibreOffice's start, loads, dispatch), imported by :func:`main`: this
#: module must import without UNO (pytest collects its doctests under the venv's Python).
up: Any = None

_CODE_STYLE = re.compile(r"(?i)code|verbatim|source|mono|literal|keyword|teletype|element|attribute|kbd|preformat")
_MONO_FONT = re.compile(r"(?i)courier|consolas|mono|menlo|monaco|lucida console|inconsolata|source code|fira code|"
                        r"\bcode\b|andale|fixedsys|ocr")


def _section_names(doc) -> set:
    out = set()
    idx = doc.getDocumentIndexes()
    for i in range(idx.getCount()):
        out.add(idx.getByIndex(i).getName())
    return out


def _in_index(par, names: set) -> bool:
    try:
        sec = par.getPropertyValue("TextSection")
    except Exception:
        return False
    while sec is not None:
        if sec.getName() in names:
            return True
        try:
            sec = sec.getPropertyValue("ParentSection")
        except Exception:
            return False
    return False


_PROPS = {"paragraphs": (("ListLabelString", "label"), ("OutlineLevel", "outline"), ("ParaStyleName", "style")),
          "outline": (("ListLabelString", "label"), ("OutlineLevel", "outline"), ("ParaStyleName", "style")),
          "texts": ()}


def _walk(text, names, table, out, code, want_code, props=_PROPS["paragraphs"]):
    enum = text.createEnumeration()
    while enum.hasMoreElements():
        el = enum.nextElement()
        if el.supportsService("com.sun.star.text.Paragraph"):
            info = {"text": el.getString(), "table": table}
            if names is not None:
                info["toc"] = bool(names) and _in_index(el, names)
            for name, key in props:
                try:
                    info[key] = el.getPropertyValue(name)
                except Exception:
                    info[key] = None
            if want_code:
                _code_spans(el, len(out), info, code)
            out.append(info)
        elif el.supportsService("com.sun.star.text.TextTable"):
            t = table if table >= 0 else _walk.tables
            if table < 0:
                _walk.tables += 1
            for name in up._cell_order(el.getCellNames()):
                _walk(el.getCellByName(name), names, t, out, code, want_code, props)


_walk.tables = 0


def _code_spans(par, index, info, code):
    if info.get("style") and _CODE_STYLE.search(info["style"]):
        if info["text"]:
            code.append([index, 0, len(info["text"])])
        return
    pos = 0
    portions = par.createEnumeration()
    while portions.hasMoreElements():
        por = portions.nextElement()
        s = por.getString()
        if s and por.TextPortionType == "Text":
            style, font = por.CharStyleName or "", por.CharFontName or ""
            if _CODE_STYLE.search(style) or _MONO_FONT.search(font):
                if code and code[-1][0] == index and code[-1][2] == pos:
                    code[-1][2] = pos + len(s)
                else:
                    code.append([index, pos, pos + len(s)])
        pos += len(s)


def paragraphs(doc, want_code=False, what="paragraphs"):
    _walk.tables = 0
    out, code = [], []
    names = _section_names(doc) if what in ("paragraphs", "outline") else None
    _walk(doc.getText(), names, -1, out, code, want_code, _PROPS[what])
    return (out, code) if want_code else out


def margins(doc):
    out = {}
    styles = doc.getStyleFamilies().getByName("PageStyles")
    for name in styles.getElementNames():
        st = styles.getByName(name)  # isInUse() says False for every style of a hidden document
        for part in ("Header", "Footer"):
            if not st.getPropertyValue(f"{part}IsOn"):
                continue
            for variant in ("", "First", "Left"):
                try:
                    t = st.getPropertyValue(f"{part}Text{variant}")
                except Exception:
                    continue
                if t is not None and t.getString().strip():
                    out[f"{name}/{part}{variant}"] = _margin_text(t)
    return out


#: Fields whose number depends on the page the text is laid out on: "#" in a margin's text, so
#: that a footer reads the same on a document of another length ("Page 14 of 171").
_PAGE_FIELDS = ("com.sun.star.text.TextField.PageNumber", "com.sun.star.text.TextField.PageCount")


def _margin_text(text) -> str:
    lines = []
    paras = text.createEnumeration()
    while paras.hasMoreElements():
        para = paras.nextElement()
        if not para.supportsService("com.sun.star.text.Paragraph"):
            continue
        parts = []
        portions = para.createEnumeration()
        while portions.hasMoreElements():
            portion = portions.nextElement()
            field = portion.TextField if portion.TextPortionType == "TextField" else None
            if field is not None and any(field.supportsService(s) for s in _PAGE_FIELDS):
                parts.append("#")
            else:
                parts.append(portion.getString())
        lines.append("".join(parts))
    return "\n".join(lines)


def _paragraph_of(rng) -> str:
    try:
        cur = rng.getText().createTextCursorByRange(rng.getStart())
        cur.gotoStartOfParagraph(False)
        cur.gotoEndOfParagraph(True)
        return cur.getString()
    except Exception:
        return ""


def redlines(doc):
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        r = enum.nextElement()
        item = {"type": r.getPropertyValue("RedlineType"), "text": None, "para": ""}
        try:
            start, end = r.getPropertyValue("RedlineStart"), r.getPropertyValue("RedlineEnd")
            cur = start.getText().createTextCursorByRange(start)
            cur.gotoRange(end, True)
            item["text"] = cur.getString()
            item["para"] = _paragraph_of(start)
        except Exception:
            pass
        out.append(item)
    return out


def fields(doc):
    found = []
    enum = doc.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        f = enum.nextElement()
        if f.supportsService("com.sun.star.text.TextField.GetReference"):
            found.append(f)
    cached = [f.getPresentation(False) for f in found]
    doc.getTextFields().refresh()
    return [{"cached": c, "shown": f.getPresentation(False), "name": f.SourceName} for c, f in zip(cached, found)]


def _ops(doc, ops, result):
    for op in ops:
        if op in _PROPS:
            result[op] = paragraphs(doc, what=op)
        elif op == "code":
            result["code_paragraphs"], result[op] = paragraphs(doc, want_code=True)
        elif op == "margins":
            result[op] = margins(doc)
        elif op == "redlines":
            result[op] = redlines(doc)
        elif op == "fields":
            result[op] = fields(doc)
        else:
            raise ValueError(f"unknown op {op}")


def main(argv):
    global up
    import uno_probe as up  # noqa: F811  (Debian's python3-uno is there when this runs)

    profile, jobs = argv[1], argv[2:]
    proc, ctx, desktop = up.start_office(profile)
    try:
        for job in jobs:
            path, _, spec = job.partition("::")
            ops = [o for o in spec.split(",") if o] or ["paragraphs"]
            result = {"file": path}
            t0 = time.time()
            try:
                plain = [o for o in ops if "." not in o]
                doc = up.load_any(ctx, desktop, path)
                if doc is None:
                    raise RuntimeError("LibreOffice could not load the file")
                _ops(doc, plain, result)
                doc.close(True)
                for view, command in (("accepted", ".uno:AcceptAllTrackedChanges"), ("rejected", ".uno:RejectAllTrackedChanges")):
                    want = [o.split(".", 1)[1] for o in ops if o.startswith(view + ".")]
                    if not want:
                        continue
                    d2 = up.load_for_dispatch(ctx, desktop, path)
                    if d2 is None:
                        raise RuntimeError("LibreOffice could not load the file")
                    up._dispatch(ctx, d2, command)
                    result[view] = {}
                    _ops(d2, want, result[view])
                    d2.close(True)
            except Exception as exc:  # report and go on with the next file
                result["error"] = f"{type(exc).__name__}: {exc}"
            result["seconds"] = round(time.time() - t0, 1)
            sys.stdout.write(json.dumps(result) + "\n")
            sys.stdout.flush()
    finally:
        up.stop_office(proc, desktop)


if __name__ == "__main__":
    main(sys.argv)
