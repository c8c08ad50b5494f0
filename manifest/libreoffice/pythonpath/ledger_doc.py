"""The open Writer document as the bridge sees it: its bytes, its paragraphs as the server's units
read them, the unit and the selection at the cursor, a jump to a place, and the record of the
LEDGER edits it holds.

The server's units are the document's *accepted* view (pending tracked changes applied), so a
paragraph's text here is its accepted view too: deleted runs left out, inserted ones kept
(:func:`accepted_paragraphs`). A unit's line and a paragraph are the same when their normalised
texts are equal; equal ones are told apart by their rank among equals, in document order.
"""
from __future__ import annotations

import json
import os
import tempfile

import uno
from com.sun.star.beans import PropertyValue

from ledger_client import normalize, split_lines
from ledger_portions import ZERO, elements

__all__ = ["FORMATS", "Locator", "accepted_paragraphs", "at_cursor", "document_bytes", "is_read_only",
           "jump", "read_revisions", "remember_revision", "select_range"]

#: format -> (filter name, media type, file suffix)
FORMATS = {
    "odt": ("writer8", "application/vnd.oasis.opendocument.text", ".odt"),
    "docx": ("MS Word 2007 XML", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", ".docx"),
}
REVISIONS_PROPERTY = "LEDGER revisions"
_OLD_PROPERTY = "LEDGER revision"  # one "doc_id:rev" (bridges before the panel)


def _prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def document_format(doc) -> str:
    url = doc.getURL() or ""
    return "docx" if url.lower().endswith(".docx") else "odt"


def document_bytes(doc):
    """``(bytes, media_type, filename)`` of the document as it is now (unsaved edits included):
    DOCX when it was opened from a .docx, ODT otherwise. The document itself is not touched."""
    url = doc.getURL() or ""
    name = os.path.basename(uno.fileUrlToSystemPath(url)) if url.startswith("file:") else "Untitled.odt"
    fmt = document_format(doc)
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


def is_read_only(doc) -> bool:
    """Opened read-only (or from a place it cannot be saved to)."""
    try:
        return bool(doc.isReadonly())
    except Exception:
        return False


# --- paragraphs in the accepted view ------------------------------------------------------------


def _cell_key(name):
    col = "".join(ch for ch in name if ch.isalpha())
    row = "".join(ch for ch in name if ch.isdigit())
    n = 0
    for ch in col:
        n = n * 26 + ord(ch.upper()) - 64
    return (int(row or 0), n)


class Paragraph:
    """A paragraph with its accepted-view text and, per character of it, its cursor position."""

    __slots__ = ("par", "text", "positions", "end")

    def __init__(self, par, text, positions, end):
        self.par, self.text, self.positions, self.end = par, text, positions, end


def accepted_paragraphs(doc):
    """Every paragraph in reading order (table cells row by row, as the readers walk them) with
    its accepted-view text; a paragraph wholly deleted is left out."""
    out = []
    deleting = set()

    def walk(xtext):
        for el in elements(xtext):
            if el.supportsService("com.sun.star.text.TextTable"):
                for name in sorted(el.getCellNames(), key=_cell_key):
                    walk(el.getCellByName(name))
                continue
            chars, positions, pos = [], [], 0
            enum = el.createEnumeration()
            while enum.hasMoreElements():
                por = enum.nextElement()
                kind = por.TextPortionType
                if kind == "Redline":
                    if por.getPropertyValue("RedlineType") == "Delete":
                        ident = por.getPropertyValue("RedlineIdentifier")
                        if por.getPropertyValue("IsStart"):
                            deleting.add(ident)
                        else:
                            deleting.discard(ident)
                    continue
                if kind in ZERO:
                    continue
                s = por.getString()
                width = len(s) if kind == "Text" else 1
                if not deleting:
                    if kind == "Text":
                        chars.append(s)
                        positions.extend(range(pos, pos + len(s)))
                    elif s:
                        chars.append(s)
                        positions.extend([pos] * len(s))
                pos += width
            text = "".join(chars)
            if text or not deleting:
                out.append(Paragraph(el, text, positions, pos))

    walk(doc.getText())
    return out


class Locator:
    """Units (the server's JSON) and paragraphs, matched by normalised text and rank."""

    def __init__(self, doc, units):
        self.paras = accepted_paragraphs(doc)
        self.keys = [normalize(p.text) for p in self.paras]
        self.units = sorted(units or [], key=lambda u: u.get("order", 0))
        self._line_rank = {}
        self._by_key = {}
        seen = {}
        for u in self.units:
            for i, (_, _, line) in enumerate(split_lines(u.get("text", ""))):
                key = normalize(line)
                r = seen.get(key, 0)
                self._line_rank[(u["id"], i)] = r
                self._by_key.setdefault(key, []).append((u, i))
                seen[key] = r + 1

    def paragraph(self, unit_id, line_index=0):
        """The paragraph of a unit's line, else None."""
        unit = next((u for u in self.units if u["id"] == unit_id), None)
        if unit is None:
            return None
        lines = split_lines(unit.get("text", ""))
        if line_index >= len(lines):
            return None
        want = normalize(lines[line_index][2])
        rank = self._line_rank.get((unit_id, line_index), 0)
        hits = [p for p, k in zip(self.paras, self.keys) if k == want and want]
        return hits[rank] if rank < len(hits) else None

    def unit_of(self, par):
        """``(unit, line index, line start in the unit's text)`` of a paragraph, else None."""
        idx = next((i for i, p in enumerate(self.paras) if _same(p.par, par)), None)
        if idx is None:
            return None
        key = self.keys[idx]
        rank = sum(1 for k in self.keys[:idx] if k == key)
        cands = self._by_key.get(key, [])
        if rank >= len(cands):
            return None
        unit, line = cands[rank]
        return unit, line, split_lines(unit.get("text", ""))[line][0]


def _same(a, b) -> bool:
    try:
        return a.getText().compareRegionStarts(a, b) == 0 and a.getText().compareRegionEnds(a, b) == 0
    except Exception:
        return False


def _paragraph_at(cursor):
    """The paragraph object holding ``cursor``'s start."""
    xt = cursor.getText()
    probe = xt.createTextCursorByRange(cursor.getStart())
    probe.gotoStartOfParagraph(False)
    probe.gotoEndOfParagraph(True)
    enum = probe.createEnumeration()
    return enum.nextElement() if enum.hasMoreElements() else None


def at_cursor(doc, units):
    """``{"target": unit id, "selection": {...}, "label"}`` of the view's cursor (the selection when
    there is one); empty when the cursor is in no unit the server knows."""
    controller = doc.getCurrentController()
    if controller is None:
        return {}
    view = controller.getViewCursor()
    par = _paragraph_at(view)
    if par is None:
        return {}
    loc = Locator(doc, units)
    found = loc.unit_of(par)
    if found is None:
        return {}
    unit, _line, line_start = found
    out = {"target": unit["id"], "label": unit.get("label") or unit.get("kind")}
    selected = view.getString()
    if selected.strip():
        sel = {"text": selected, "unit": unit["id"]}
        start = _offset_in(loc, par, view.getStart())
        if start is not None:
            sel["start"], sel["end"] = line_start + start, line_start + start + len(selected)
        out["selection"] = sel
    return out


def _offset_in(loc, par, point):
    """The accepted-view offset of ``point`` in ``par`` (None when it cannot be told)."""
    p = next((x for x in loc.paras if _same(x.par, par)), None)
    if p is None:
        return None
    xt = par.getText()
    probe = xt.createTextCursorByRange(par.getStart())
    probe.gotoRange(point, True)
    n = len(probe.getString())
    return min(n, len(p.text))


def select_range(doc, para: Paragraph, start: int, end: int):
    """Selects ``para.text[start:end]`` in the view (the whole paragraph when the offsets do not fit)."""
    xt = para.par.getText()
    cur = xt.createTextCursorByRange(para.par.getStart())
    if 0 <= start <= end <= len(para.text) and para.positions:
        a = para.positions[start] if start < len(para.positions) else para.end
        b = para.positions[end - 1] + 1 if end > start else a
        cur.goRight(a, False)
        cur.goRight(b - a, True)
    else:
        cur.gotoEndOfParagraph(True)
    doc.getCurrentController().select(cur)
    return cur


def jump(doc, units, unit_id, start=None, end=None) -> bool:
    """Shows a place (a unit, and offsets in its text) selected in the view; False when the unit's
    paragraph is not in the open document."""
    loc = Locator(doc, units)
    unit = next((u for u in loc.units if u["id"] == unit_id), None)
    if unit is None:
        return False
    lines = split_lines(unit.get("text", ""))
    li, a, b = 0, 0, 0
    if start is not None:
        li = next((i for i, (s, e, _) in enumerate(lines) if s <= start <= e), 0)
        a = start - lines[li][0]
        b = (end if end is not None else start) - lines[li][0]
    para = loc.paragraph(unit_id, li)
    if para is None:
        return False
    if start is None:
        select_range(doc, para, 0, 0)
    else:
        line = lines[li][2]
        offset = para.text.find(line[a:b]) if para.text != line and b > a else a
        select_range(doc, para, max(offset, 0), max(offset, 0) + (b - a))
    return True


# --- the record of LEDGER's edits in the document ---------------------------------------------


def read_revisions(doc) -> list:
    """``[{"document", "revision", "instruction"?, "url"?}]``: every LEDGER edit this document holds."""
    props = doc.getDocumentProperties().getUserDefinedProperties()
    info = props.getPropertySetInfo()
    out = []
    if info.hasPropertyByName(REVISIONS_PROPERTY):
        try:
            data = json.loads(str(props.getPropertyValue(REVISIONS_PROPERTY)))
            out = [r for r in data if isinstance(r, dict) and r.get("document") and r.get("revision")]
        except ValueError:
            out = []
    if not out and info.hasPropertyByName(_OLD_PROPERTY):
        doc_id, _, rev = str(props.getPropertyValue(_OLD_PROPERTY)).rpartition(":")
        if doc_id and rev.isdigit():
            out = [{"document": doc_id, "revision": int(rev)}]
    return out


def remember_revision(doc, entry: dict) -> None:
    """Adds one edit to the record (a custom property: it survives saving as .odt and .docx)."""
    entries = read_revisions(doc) + [entry]
    value = json.dumps(entries, ensure_ascii=False)
    props = doc.getDocumentProperties().getUserDefinedProperties()
    if props.getPropertySetInfo().hasPropertyByName(REVISIONS_PROPERTY):
        props.setPropertyValue(REVISIONS_PROPERTY, value)
    else:
        props.addProperty(REVISIONS_PROPERTY, 128, value)  # PropertyAttribute.REMOVABLE
