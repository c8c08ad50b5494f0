"""The LEDGER bridge's UNO side: the open document as bytes, and operations applied to it as
tracked changes (RecordChanges on, the author set in the user profile while they are made).

Everything is located before anything changes, so an operation that cannot be placed leaves
the document as it was (and the caller can load the server's tracked copy instead).
"""
from __future__ import annotations

import contextlib
import os
import tempfile

import uno
from com.sun.star.beans import PropertyValue

from ledger_client import hunks, normalize, split_lines

__all__ = ["FORMATS", "apply_operations", "author_as", "document_bytes", "load_into_frame", "text_paragraphs"]

#: format -> (filter name, media type, file suffix)
FORMATS = {
    "odt": ("writer8", "application/vnd.oasis.opendocument.text", ".odt"),
    "docx": ("MS Word 2007 XML", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ".docx"),
}
_STRUCTURED = {"table", "figure", "equation"}
_PARAGRAPH_BREAK = 0  # com.sun.star.text.ControlCharacter.PARAGRAPH_BREAK


def _prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def document_bytes(doc):
    """``(bytes, media_type, filename)`` of the document as it is now (unsaved edits included):
    DOCX when it was opened from a .docx, ODT otherwise. The document itself is not touched."""
    url = doc.getURL() or ""
    name = os.path.basename(uno.fileUrlToSystemPath(url)) if url.startswith("file:") else "Untitled.odt"
    fmt = "docx" if name.lower().endswith(".docx") else "odt"
    if fmt == "odt" and not name.lower().endswith(".odt"):
        name = os.path.splitext(name)[0] + ".odt"
    filt, media, suffix = FORMATS[fmt]
    fd, path = tempfile.mkstemp(prefix="ledger-", suffix=suffix)
    os.close(fd)
    try:
        doc.storeToURL(uno.systemPathToFileUrl(path), (_prop("FilterName", filt), _prop("Overwrite", True)))
        with open(path, "rb") as fh:
            return fh.read(), media, name
    finally:
        os.unlink(path)


def text_paragraphs(doc):
    """Body paragraphs in reading order; table cells row by row (as the readers walk them)."""
    out = []

    def walk(text):
        enum = text.createEnumeration()
        while enum.hasMoreElements():
            el = enum.nextElement()
            if el.supportsService("com.sun.star.text.Paragraph"):
                out.append(el)
            elif el.supportsService("com.sun.star.text.TextTable"):
                for name in sorted(el.getCellNames(), key=_cell_key):
                    walk(el.getCellByName(name))

    walk(doc.getText())
    return out


def _cell_key(name):
    col = "".join(ch for ch in name if ch.isalpha())
    row = "".join(ch for ch in name if ch.isdigit())
    n = 0
    for ch in col:
        n = n * 26 + ord(ch.upper()) - 64
    return (int(row or 0), n)


def _cursor_map(par):
    """For each offset of the paragraph's string, the cursor offset (None inside a field, whose
    shown text is one cursor position)."""
    mapping, cpos = [], 0
    enum = par.createEnumeration()
    while enum.hasMoreElements():
        portion = enum.nextElement()
        s = portion.getString()
        kind = portion.getPropertyValue("TextPortionType")
        if kind == "Text":
            mapping.extend(range(cpos, cpos + len(s)))
            cpos += len(s)
        elif s:
            mapping.append(cpos)
            mapping.extend([None] * (len(s) - 1))
            cpos += 1
    mapping.append(cpos)
    return mapping


def _occurrences(hay, needle):
    out, i = [], hay.find(needle) if needle else -1
    while i != -1:
        out.append(i)
        i = hay.find(needle, i + len(needle))
    return out


def _span_in(par_text, line, start, end):
    """``(start, end)`` in the paragraph's own string of ``line[start:end]``."""
    if par_text == line:
        return start, end
    old = line[start:end]
    if not old:
        return None
    k = _occurrences(line, old).index(start) if start in _occurrences(line, old) else -1
    hits = _occurrences(par_text, old)
    if k == -1 or len(hits) != len(_occurrences(line, old)):
        return None
    return hits[k], hits[k] + len(old)


class _Locator:
    """Finds a unit line's paragraph (equal normalised text; ``rank`` among equal ones)."""

    def __init__(self, doc, units):
        self.pars = text_paragraphs(doc)
        self.texts = [normalize(p.getString()) for p in self.pars]
        self.rank = {}
        seen = {}
        for u in sorted(units or [], key=lambda u: u.get("order", 0)):
            for i, (_, _, line) in enumerate(split_lines(u.get("text", ""))):
                key = normalize(line)
                self.rank[(u["id"], i)] = seen.get(key, 0)
                seen[key] = seen.get(key, 0) + 1

    def find(self, unit_id, index, line):
        want = normalize(line)
        hits = [p for p, t in zip(self.pars, self.texts) if t == want and want]
        r = self.rank.get((unit_id, index), 0)
        return hits[r] if r < len(hits) else None


def _plan(doc, ops, units):
    """``(actions, failures)``; each action a callable that makes one change."""
    loc = _Locator(doc, units)
    by_id = {u["id"]: u for u in units or []}
    actions, failures = [], []
    per_par = {}
    for op in ops:
        kind = op.get("unit_kind") or by_id.get(op.get("unit"), {}).get("kind")
        before = op.get("before")
        if before is None and op.get("unit") in by_id:
            before = by_id[op["unit"]].get("text", "")
        lines = split_lines(before or "")
        name = op.get("op")
        if name in ("replace", "set_text"):
            for start, end, text in hunks(dict(op, before=before or "")):
                li = next((i for i, (a, b, _) in enumerate(lines) if a <= start and end <= b), None)
                if li is None:
                    failures.append("a change spans two paragraphs")
                    continue
                a, _, line = lines[li]
                par = loc.find(op.get("unit"), li, line)
                span = _span_in(par.getString(), line, start - a, end - a) if par is not None else None
                if par is None:
                    failures.append(f"the paragraph \u201c{line[:60]}\u201d is not in the open document")
                    continue
                if span is None and start == end:
                    failures.append("an insertion in a paragraph that reads differently now")
                    continue
                if span is None:
                    failures.append(f"\u201c{line[start - a:end - a][:40]}\u201d cannot be pinned down in its paragraph")
                    continue
                cmap = _cursor_map(par)
                cs, ce = cmap[span[0]], cmap[span[1]]
                if cs is None or ce is None:
                    failures.append("the words to change are inside a field")
                    continue
                per_par.setdefault(id(par), (par, []))[1].append((cs, ce, text))
        elif name in ("insert_after", "delete", "move"):
            if kind in _STRUCTURED:
                failures.append(f"a {kind} cannot be inserted, deleted or moved through its text")
                continue
            pars = [loc.find(op.get("unit"), i, line) for i, (_, _, line) in enumerate(lines)]
            if None in pars:
                failures.append(f"the paragraphs of {op.get('unit_label') or op.get('unit')} are not in the open document")
                continue
            if name == "insert_after":
                actions.append(lambda p=pars[-1], t=op.get("text") or "", s=op.get("style"): _insert_after(p, t.split("\n"), s))
            elif name == "delete":
                actions.append(lambda ps=pars: [_delete_paragraph(p) for p in ps])
            else:
                dest = by_id.get(op.get("after") or op.get("before_unit"))
                if dest is None:
                    failures.append("the place to move to is unknown")
                    continue
                dl = split_lines(dest.get("text", ""))
                di = len(dl) - 1 if op.get("after") else 0
                dpar = loc.find(dest["id"], di, dl[di][2])
                if dpar is None:
                    failures.append("the place to move to is not in the open document")
                    continue
                texts = [line for _, _, line in lines]
                actions.append(lambda d=dpar, t=texts, ps=pars, after=bool(op.get("after")): (
                    _insert_after(d, t, None) if after else _insert_before(d, t), [_delete_paragraph(p) for p in ps]))
        else:
            failures.append(f"unknown operation {name!r}")
    words = [lambda p=par, a=cs, b=ce, t=text: _replace(p, a, b, t)
             for par, edits in per_par.values()
             for cs, ce, text in sorted(edits, reverse=True)]  # later words first: earlier offsets stay valid
    return words + actions, failures


def _replace(par, start, end, text):
    xt = par.getText()
    cur = xt.createTextCursorByRange(par.getStart())
    cur.goRight(start, False)
    cur.goRight(end - start, True)
    if text:
        xt.insertString(cur, text, end > start)
    else:
        cur.setString("")


def _insert_after(par, lines, style):
    xt = par.getText()
    cur = xt.createTextCursorByRange(par.getEnd())
    for line in lines:
        xt.insertControlCharacter(cur, _PARAGRAPH_BREAK, False)
        if style:
            with contextlib.suppress(Exception):
                cur.setPropertyValue("ParaStyleName", style)
        xt.insertString(cur, line, False)


def _insert_before(par, lines):
    xt = par.getText()
    cur = xt.createTextCursorByRange(par.getStart())
    for line in lines:
        xt.insertString(cur, line, False)
        xt.insertControlCharacter(cur, _PARAGRAPH_BREAK, False)


def _delete_paragraph(par):
    xt = par.getText()
    cur = xt.createTextCursorByRange(par.getStart())
    cur.gotoEndOfParagraph(True)
    cur.goRight(1, True)  # the paragraph mark too (no-op at the end of the text)
    cur.setString("")


@contextlib.contextmanager
def author_as(ctx, name):
    """Changes recorded inside the block carry ``name``: LibreOffice takes the redline author from
    the user profile, so the profile's name is set for the block and restored after it."""
    if not name:
        yield
        return
    cp = ctx.ServiceManager.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", ctx)
    acc = cp.createInstanceWithArguments("com.sun.star.configuration.ConfigurationUpdateAccess",
                                         (_prop("nodepath", "/org.openoffice.UserProfile/Data"),))
    keys = ("givenname", "sn", "initials")
    saved = {k: acc.getByName(k) for k in keys}
    initials = "".join(w[0] for w in name.split() if w)[:4]
    for k, v in zip(keys, (name, "", initials)):
        acc.replaceByName(k, v)
    acc.commitChanges()
    try:
        yield
    finally:
        for k, v in saved.items():
            acc.replaceByName(k, v)
        acc.commitChanges()


def comment_places(doc, ops, units):
    """``[(paragraph, text)]``: where each operation's ``comment`` (the server's text: what
    changed and why) goes, the start of the first paragraph it changes (a move: where it goes),
    found before anything changes."""
    loc = _Locator(doc, units)
    by_id = {u["id"]: u for u in units or []}
    out = []
    for op in ops:
        text, unit = op.get("comment"), op.get("unit")
        if not text or not unit:
            continue
        target = by_id.get(op.get("after") or op.get("before_unit")) if op.get("op") == "move" else None
        before = target.get("text") if target else op.get("before")
        if before is None:
            before = by_id.get(unit, {}).get("text", "")
        lines = split_lines(before or "")
        par = loc.find(target["id"] if target else unit, 0, lines[0][2]) if lines else None
        if par is not None:
            out.append((par, text))
    return out


def add_comments(doc, places, author):
    """The comments at their paragraphs, by ``author`` with the initials LEDGER; how many."""
    for par, text in places:
        field = doc.createInstance("com.sun.star.text.textfield.Annotation")
        field.Author = author or "LEDGER"
        field.Initials = "LEDGER"
        field.Content = text
        xt = par.getText()
        xt.insertTextContent(xt.createTextCursorByRange(par.getStart()), field, False)
    return len(places)


def apply_operations(ctx, doc, ops, author, units=None, comments=False):
    """Applies ROUTES.md operations as tracked changes by ``author``; ``{"applied", "failures"}``.

    Nothing changes unless every operation can be placed. With ``comments`` each operation's
    ``comment`` goes at the start of the paragraph it changed (:func:`comment_places`).
    """
    actions, failures = _plan(doc, ops, units or [])
    if failures:
        return {"applied": 0, "failures": failures}
    places = comment_places(doc, ops, units or []) if comments else []
    with author_as(ctx, author):
        doc.setPropertyValue("RecordChanges", True)
        for act in actions:
            act()
        placed = add_comments(doc, places, author)
    out = {"applied": len(actions), "failures": []}
    if comments:
        out["comments"] = placed
    return out


def load_into_frame(doc, data, suffix):
    """Shows the server's tracked copy in the document's own window (the last resort)."""
    fd, path = tempfile.mkstemp(prefix="ledger-tracked-", suffix=suffix)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    frame = doc.getCurrentController().getFrame()
    doc.setModified(False)
    return frame.loadComponentFromURL(uno.systemPathToFileUrl(path), "_self", 0, ())
