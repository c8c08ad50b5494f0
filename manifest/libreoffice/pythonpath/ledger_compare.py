"""Whether the open document holds exactly the server's tracked copy's changes, read back after
:mod:`ledger_mirror` brought them in: every paragraph's text, style and outline level, every
tracked change (type, author, text) and every comment (author, date, text, the words it is on)."""
from __future__ import annotations

from collections import Counter

from ledger_portions import ZERO, annotation_signature, elements, get, is_table, plain, portions, redline_signature

__all__ = ["compare"]


def _paragraph_pairs(served, doc):
    """The paragraphs of both documents side by side (table cells included), or None when their
    structures differ."""
    out = []

    def walk(s_text, d_text):
        s_el, d_el = elements(s_text), elements(d_text)
        if len(s_el) != len(d_el):
            return False
        for a, b in zip(s_el, d_el):
            if is_table(a) != is_table(b):
                return False
            if is_table(a):
                names = a.getCellNames()
                if sorted(names) != sorted(b.getCellNames()):
                    return False
                for name in names:
                    if not walk(a.getCellByName(name), b.getCellByName(name)):
                        return False
            else:
                out.append((a, b))
        return True

    return out if walk(served.getText(), doc.getText()) else None


def _deletions(doc):
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        r = enum.nextElement()
        if get(r, "RedlineType") == "Delete":
            out.append((r.getPropertyValue("RedlineStart"), r.getPropertyValue("RedlineEnd")))
    return out


def _all_deleted(par, deletions) -> bool:
    """Whether all ``par`` holds is marked deleted (it goes with Accept All)."""
    xt = par.getText()
    start = par.getStart()
    deleting = set()
    for a, b in deletions:
        try:
            if xt.compareRegionStarts(a, start) == 1 and xt.compareRegionStarts(start, b) >= 0:
                deleting.add("before")
        except Exception:
            continue
    live = dead = False
    started = bool(deleting)
    for por in portions(par):
        kind = por.TextPortionType
        if kind == "Redline":
            if get(por, "RedlineType") == "Delete" and not get(por, "IsCollapsed"):
                (deleting.add if get(por, "IsStart") else deleting.discard)(get(por, "RedlineIdentifier"))
                if not get(por, "IsStart"):
                    deleting.discard("before")
            continue
        if kind in ZERO or kind == "Annotation":
            continue
        if por.getString() or kind != "Text":
            if deleting:
                dead = True
            else:
                live = True
    return not live and (dead or started)


def _facts(par):
    return (get(par, "ParaStyleName"), get(par, "OutlineLevel"), get(par, "ListLabelString"))


def _range_plain(cur):
    """A range's text as :func:`plain` reads paragraphs (fields as U+FFFC), paragraphs joined by "\\n"."""
    out = []
    enum = cur.createEnumeration()
    while enum.hasMoreElements():
        el = enum.nextElement()
        out.append(plain(el) if not is_table(el) else "\ufffc")
    return "\n".join(out)


def _redline_list(doc, plain=False):
    """``[(type, author, comment, text)]``: dates left out (a recorded change is dated when it
    is made); with ``plain`` each field's text as U+FFFC (slower)."""
    out = []
    enum = doc.getRedlines().createEnumeration()
    while enum.hasMoreElements():
        r = enum.nextElement()
        text = None
        try:
            a, b = r.getPropertyValue("RedlineStart"), r.getPropertyValue("RedlineEnd")
            cur = a.getText().createTextCursorByRange(a)
            cur.gotoRange(b, True)
            text = _range_plain(cur) if plain else cur.getString()
        except Exception:
            pass
        rtype, author, _date = redline_signature(r)
        out.append((rtype, author, get(r, "RedlineComment") or "", text))
    return out


def _note_list(doc):
    out = []
    enum = doc.getTextFields().createEnumeration()
    while enum.hasMoreElements():
        f = enum.nextElement()
        if f.supportsService("com.sun.star.text.textfield.Annotation"):
            anchor = ""
            try:
                anchor = f.getAnchor().getString()
            except Exception:
                pass
            out.append((*annotation_signature(f), anchor))
    return sorted(out)


def _red(r):
    rtype, author, _comment, text = r
    return f"{rtype} by {author} of \u201c{(text or '')[:60]}\u201d"


def _short(par, text):
    style, level, label = _facts(par)
    return f"{label or ''}{' ' if label else ''}\u201c{text[:70]}\u201d ({style}, level {level})"


def compare(served, doc) -> dict:
    """``{"problems": [...], "fields": n, "kept_attributes": n}``: what differs between the two
    documents (no problem when ``doc`` holds ``served``'s paragraphs, redlines and comments).

    ``fields``: paragraphs that show a field's result differently (LibreOffice recomputes some
    fields; a caption's number the server changed inside the field's result shows both numbers in
    the served copy). ``kept_attributes``: paragraphs marked deleted whose style or number differs
    (the open document keeps its own attributes for the text it marks deleted, as LibreOffice does
    when a reviewer deletes it; the served copy may show a deleted paragraph with its neighbour's).
    """
    problems = []
    fields = kept = numbers = 0
    pairs = _paragraph_pairs(served, doc)
    if pairs is None:
        problems.append("the paragraphs and tables do not line up with the server's copy")
        pairs = []
    deletions = None
    for i, (a, b) in enumerate(pairs):
        sa, sb, fa, fb = a.getString(), b.getString(), _facts(a), _facts(b)
        if sa == sb and fa == fb:
            continue  # the fast path: most paragraphs
        if plain(a) != plain(b):
            problems.append(f"paragraph {i + 1} differs: {_short(b, sb)} here, {_short(a, sa)} in the server's copy")
            break
        fields += 1 if sa != sb else 0
        numbers += 1 if fa[2] != fb[2] else 0
        if fa[:2] != fb[:2]:
            if deletions is None:
                deletions = _deletions(served)
            if not _all_deleted(a, deletions):
                problems.append(f"paragraph {i + 1} differs: {_short(b, sb)} here, {_short(a, sa)} in the server's copy")
                break
            kept += 1
    ra, rb = sorted(_redline_list(served), key=repr), sorted(_redline_list(doc), key=repr)
    if ra != rb:  # a field in a changed range may show another result: compare without them
        ra, rb = sorted(_redline_list(served, True), key=repr), sorted(_redline_list(doc, True), key=repr)
    if ra != rb:
        extra = list((Counter(rb) - Counter(ra)).elements())[:1]
        missing = list((Counter(ra) - Counter(rb)).elements())[:1]
        problems.append((f"{len(rb)} tracked changes where the server's copy has {len(ra)}" if len(ra) != len(rb)
                         else "a tracked change differs from the server's copy")
                        + (f": {_red(extra[0])} here" if extra else "")
                        + (f", {_red(missing[0])} in the server's copy" if missing else ""))
    na, nb = _note_list(served), _note_list(doc)
    if na != nb:
        problems.append(f"{len(nb)} comments where the server's copy has {len(na)}" if len(na) != len(nb)
                        else "a comment differs from the server's copy")
    return {"problems": problems, "fields": fields, "kept_attributes": kept, "numbers": numbers}
