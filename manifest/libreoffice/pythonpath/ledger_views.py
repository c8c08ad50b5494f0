"""What the LEDGER panel shows, without UNO: the outline, places in words, the check's findings
grouped with counts and filtered, a proposal's changes grouped with their ticks and warnings,
and a review's items. Stdlib only (LibreOffice's Python).

The grouping of a proposal follows the Word task pane's (``static/js/changes.js``, which this
module cannot import): a group per written form of a replacement ("ID → identifier"), a deleted
section or table as one change with what it contains, each propagated operation under the
change it follows from; ticking a propagated change keeps its source (the server skips a
propagated operation whose source was left out).
"""
from __future__ import annotations

__all__ = [
    "SEVERITIES", "change_line", "change_op_ids", "count_changes", "finding_groups", "finding_places",
    "group_operations", "kind_title", "outline_lines", "place", "place_findings", "review_lines",
    "section_name", "set_change", "set_propagated", "snippet", "tick_state",
]

SEVERITIES = ("error", "warning", "info")
_NOTHING = "\u2205"
_ENGINE_SOURCES = {"rules", "llm", "check", "client", "auto"}
_VERBS = {"replace": "Change", "set_text": "Rewrite", "insert_after": "Insert", "delete": "Delete", "move": "Move",
          "rename": "Rename"}
_KINDS = {"section": "Section", "title": "Title", "paragraph": "Paragraph", "list_item": "List item",
          "caption": "Caption", "figure": "Figure", "table": "Table", "equation": "Equation", "footnote": "Footnote",
          "endnote": "Endnote"}


def snippet(text, limit=60):
    """The first words of ``text``, ending in an ellipsis when cut.

    >>> snippet("The quick brown fox jumps over the lazy dog", 20)
    'The quick brown fox…'
    """
    t = " ".join(str(text or "").split())
    if len(t) <= limit:
        return t
    cut = t[:limit].rsplit(" ", 1)[0] if " " in t[:limit] else t[:limit]
    return cut.rstrip(" ,;:") + "\u2026"


def kind_title(kind):
    """A finding kind as words: ``broken_reference`` -> "Broken reference"."""
    words = str(kind or "finding").replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def section_name(u):
    """ "7.3 Transport Parameters" (number and title), else its label or first words."""
    if not u:
        return ""
    number, title = u.get("number") or "", u.get("title") or ""
    if number or title:
        return " ".join(x for x in (number, title if title != number else "") if x)
    return u.get("label") or snippet(u.get("text"), 40)


def _section_of(by_id, uid):
    u = by_id.get(uid)
    guard = 0
    while u is not None and u.get("kind") not in ("section", "title") and guard < 64:
        u = by_id.get(u.get("parent"))
        guard += 1
    return u


def place(by_id, uid):
    """Where a unit is, in words: "7.3 Transport Parameters · List item" (a section: itself)."""
    u = by_id.get(uid)
    if u is None:
        return ""
    if u.get("kind") in ("section", "title"):
        return f"{_KINDS[u['kind']]} {section_name(u)}"
    sec = _section_of(by_id, uid)
    what = u.get("label") or _KINDS.get(u.get("kind"), "Paragraph")
    if sec is None:
        return what
    return f"{section_name(sec)} \u00b7 {what}"


def outline_lines(outline, depth=0):
    """``[(depth, text, unit id)]`` of the outline route's tree, in document order."""
    out = []
    for node in outline or []:
        text = " ".join(x for x in (node.get("number") or "", node.get("title") or "") if x) or node.get("label") or ""
        out.append((depth, text, node.get("id")))
        out.extend(outline_lines(node.get("children"), depth + 1))
    return out


# --- the check -------------------------------------------------------------------------------


def finding_places(f):
    """``[(unit, start, end, text)]``: every place of a finding (its ``places``, else its unit)."""
    places = [(p.get("unit"), p.get("start"), p.get("end"), p.get("text") or "") for p in f.get("places") or []
              if p.get("unit")]
    if not places and f.get("unit"):
        places = [(f["unit"], f.get("start"), f.get("end"), f.get("evidence") or "")]
    return places


def _matches(f, severity, text):
    if severity and f.get("severity") != severity:
        return False
    if text:
        hay = " ".join(str(f.get(k) or "") for k in ("message", "kind", "evidence", "suggestion")).lower()
        if text.lower() not in hay:
            return False
    return True


def finding_groups(findings, by_id, severity=None, text=""):
    """The findings a filter keeps, grouped by kind: ``[{kind, title, severity, count, items:
    [{finding, where}]}]``, the most severe kinds first, then the largest. Every finding the
    server returned is in a group (no cap)."""
    groups = {}
    for f in findings or []:
        if not _matches(f, severity, text):
            continue
        kind = f.get("kind") or f.get("code") or "finding"
        g = groups.setdefault(kind, {"kind": kind, "title": kind_title(kind), "severity": f.get("severity"),
                                     "items": []})
        if SEVERITIES.index(f.get("severity", "info")) < SEVERITIES.index(g["severity"] or "info"):
            g["severity"] = f.get("severity")
        places = finding_places(f)
        where = place(by_id, places[0][0]) if places else ""
        if len(places) > 1:
            where += f" (+{len(places) - 1} more)"
        g["items"].append({"finding": f, "where": where})
    out = list(groups.values())
    for g in out:
        g["count"] = len(g["items"])
    out.sort(key=lambda g: (SEVERITIES.index(g["severity"] or "info"), -g["count"], g["title"]))
    return out


# --- a proposal's changes --------------------------------------------------------------------


def _propagated(op, ids):
    src = op.get("source")
    return bool(src) and src not in _ENGINE_SOURCES and src in ids


def _group_key(op):
    if op.get("op") == "replace" and op.get("old") is not None:
        return f"replace:{op.get('old')}\u2192{op.get('text') or ''}"
    if op.get("op") in ("delete", "move"):
        return f"{op['op']}:{op.get('id')}"
    return f"{op.get('op')}:{op.get('reason') or ''}"


def _group_title(op, by_id):
    if op.get("op") == "replace" and op.get("old") is not None:
        return f"{op.get('old') or _NOTHING} \u2192 {op.get('text') or _NOTHING}"
    u = by_id.get(op.get("unit"))
    if op.get("op") == "delete":
        if u and u.get("kind") in ("section", "title"):
            return f"Delete section {section_name(u)}"
        return f"Delete {op.get('unit_label') or place(by_id, op.get('unit')) or 'a paragraph'}"
    if op.get("op") == "move":
        return f"Move {op.get('unit_label') or place(by_id, op.get('unit')) or 'a paragraph'}"
    return f"{_VERBS.get(op.get('op'), op.get('op'))}: {snippet(op.get('reason') or 'the instruction', 70)}"


def _container_in(by_id, uid, deleted):
    u, best, guard = by_id.get(uid), None, 0
    while u is not None and u.get("parent") and guard < 64:
        if u["parent"] in deleted:
            best = u["parent"]
        u = by_id.get(u["parent"])
        guard += 1
    return best


def group_operations(ops, by_id):
    """``[{key, title, reason, changes: [{id, op, ops, propagated, units}]}]`` (see the module)."""
    ops = list(ops or [])
    ids = {o.get("id") for o in ops}
    op_by_id = {o.get("id"): o for o in ops}
    roots = [o for o in ops if not _propagated(o, ids)]
    deleted = {o.get("unit"): o for o in roots if o.get("op") == "delete"}
    changes, change_of, groups = {}, {}, {}
    for op in roots:
        if op.get("op") == "delete" and _container_in(by_id, op.get("unit"), deleted):
            continue
        change = {"id": op["id"], "op": op, "ops": [op], "propagated": [], "units": [op.get("unit")]}
        changes[op["id"]] = change
        change_of[op["id"]] = op["id"]
        key = _group_key(op)
        groups.setdefault(key, {"key": key, "title": _group_title(op, by_id), "changes": []})["changes"].append(change)
    for op in roots:
        if op["id"] in change_of:
            continue
        outer = deleted[_container_in(by_id, op.get("unit"), deleted)]
        change = changes[change_of.get(outer["id"], outer["id"])]
        change["ops"].append(op)
        change["units"].append(op.get("unit"))
        change_of[op["id"]] = change["id"]
    for op in ops:
        if not _propagated(op, ids):
            continue
        root, guard = op, 0
        while root is not None and _propagated(root, ids) and guard < 64:
            root = op_by_id.get(root.get("source"))
            guard += 1
        change = changes.get(change_of.get(root.get("id"))) if root else None
        if change is None:
            continue
        change["propagated"].append(op)
        change["units"].append(op.get("unit"))
        change_of[op["id"]] = change["id"]
    out = list(groups.values())
    for g in out:
        reasons = {c["op"].get("reason") or "" for c in g["changes"]}
        g["reason"] = next(iter(reasons)) if len(reasons) == 1 else None
    return out


def change_op_ids(change):
    """Every operation id a change's tick keeps."""
    return [o["id"] for o in change["ops"] + change["propagated"]]


def set_change(kept, change, on):
    for i in change_op_ids(change):
        (kept.add if on else kept.discard)(i)
    return kept


def set_propagated(kept, change, op_id, on):
    """Ticks one propagated operation (ticking it keeps the change it follows from)."""
    if on:
        kept.add(op_id)
        kept.update(o["id"] for o in change["ops"])
    else:
        kept.discard(op_id)
    return kept


def count_changes(changes, kept):
    """``(total, ticked)``: a change's own operations count once, each propagated one once."""
    total = on = 0
    for c in changes:
        total += 1 + len(c["propagated"])
        on += 1 if all(o["id"] in kept for o in c["ops"]) else 0
        on += sum(1 for o in c["propagated"] if o["id"] in kept)
    return total, on


def tick_state(changes, kept):
    """ "all", "none" or "some"."""
    total, on = count_changes(changes, kept)
    return "none" if on == 0 else "all" if on == total else "some"


def change_line(op, by_id):
    """One change in words: "‘connection ID’ → ‘connection identifier’ · 5.1 Connection IDs"."""
    where = place(by_id, op.get("unit")) or op.get("unit_label") or ""
    kind = op.get("op")
    if kind == "replace":
        what = f"\u2018{op.get('old') or ''}\u2019 \u2192 \u2018{op.get('text') or ''}\u2019"
    elif kind == "delete":
        what = f"delete \u201c{snippet(op.get('before'), 50)}\u201d"
    elif kind == "insert_after":
        what = f"insert \u201c{snippet(op.get('text'), 50)}\u201d"
    elif kind == "move":
        dest = op.get("after_label") or op.get("before_label") or "its new place"
        what = f"move to {'after' if op.get('after') else 'before'} {dest}"
    else:
        what = f"rewrite as \u201c{snippet(op.get('text'), 50)}\u201d"
    return f"{what} \u00b7 {where}" if where else what


def place_findings(findings, groups):
    """``(by_change, general)``: a finding beside the change that holds its unit (or one of its
    related units) when its message is said once; the others once each, with their count."""
    unit_change = {}
    for g in groups:
        for c in g["changes"]:
            for u in c["units"]:
                unit_change.setdefault(u, c["id"])
    times = {}
    for f in findings or []:
        key = (f.get("severity"), f.get("message"))
        times[key] = times.get(key, 0) + 1
    by_change, general = {}, {}
    for f in findings or []:
        key = (f.get("severity"), f.get("message"))
        at = next((unit_change[u] for u in [f.get("unit"), *(f.get("related") or [])] if u in unit_change), None)
        if at and times[key] == 1:
            by_change.setdefault(at, []).append(f)
        else:
            g = general.setdefault(key, {"finding": f, "count": 0})
            g["count"] += 1
    return by_change, list(general.values())


# --- the review ------------------------------------------------------------------------------

_STATUS_WORDS = {"mixed": "Partly accepted, partly rejected", "rejected": "Rejected", "accepted": "Accepted",
                 "pending": "Still pending", "unrelated": "Not in this document"}


def review_lines(reviews):
    """``[(depth, text)]`` of the reviews of every LEDGER edit of a document: per edit its counts,
    then its changes by what the reviewer did (half-decided ones first, then rejected, accepted,
    still pending), one line per change (a change's tracked deletion and insertion are one item)."""
    out = []
    for rev in reviews:
        if rev.get("error"):
            out.append((0, f"{rev.get('title') or 'LEDGER edit'}: {rev['error']}"))
            continue
        counts = rev.get("counts") or {}
        parts = [f"{counts.get(s, 0)} {s}" for s in ("accepted", "rejected", "mixed", "pending") if counts.get(s)]
        out.append((0, f"{rev.get('title') or 'LEDGER edit'}: {', '.join(parts) or 'no change'}"))
        ops = rev.get("operations") or []
        for status, words in _STATUS_WORDS.items():
            these = [o for o in ops if o.get("status") == status]
            if not these:
                continue
            out.append((1, f"{words} ({len(these)})"))
            for o in these:
                text = o.get("summary") or o.get("reason") or o.get("id")
                where = o.get("where") or o.get("unit_label") or ""
                out.append((2, text + (f" \u00b7 {where}" if where else "")))
    return out
