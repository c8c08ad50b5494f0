"""What a reviewer reads beside each tracked change: the comment texts of an edit.

A change without a reason is a change to distrust. :func:`comment_notes` turns the operations
an apply writes (the engine's, then the propagated ones, whose ``source`` names the operation
that made them necessary) and the findings that need a human into
:class:`~adapters.model.Note` objects the writers put into the document as comments:

- one comment per engine operation, anchored on what it changed: what changed and why
  ("Deleted Table 1 'Codes' (instruction: Delete Table 1)");
- each propagated change as its own short comment on its own text, saying what made it
  necessary ("Table 2 → Table 1: Table 1 was deleted (cross-reference field; instruction:
  Delete Table 1)", "Renamed with 'net load' → 'residual load' (defined in Section 2.1; ...)"), or, with ``threads=True``, as a reply under its operation's comment (Word
  shows a thread; the reply then sits at the operation, not at the changed words);
- a finding that needs a decision (a reference to a deleted unit kept for the reviewer, a
  dangling anaphor, a value left unchanged...) as a comment on its evidence.

The author of every comment is the edit's author; the initials are ``LEDGER`` (who wrote the
text). The same texts go into the Proposal JSON (``comment`` of each operation), so the task
pane writes the very same comments through Office.js.
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

from adapters.model import Document, Edit, Note, Unit
from adapters.textdiff import word_changes

from ..findings import Finding

__all__ = ["NEEDS_HUMAN", "INITIALS", "operation_text", "operation_words", "place_words", "finding_text",
           "comment_notes", "note_map"]

INITIALS = "LEDGER"

#: Finding kinds a reviewer has to decide about, written as comments where they are.
NEEDS_HUMAN = frozenset({
    "reference_to_deleted", "dangling_anaphor", "reference_retargeted", "broken_reference", "broken_field",
    "missing_target", "propagation_skipped", "same_value", "old_term", "stale_field",
    "listed_statement_removed", "statement_not_listed",
})

_KIND = {"section": "heading", "paragraph": "paragraph", "list_item": "list item", "caption": "caption",
         "figure": "figure", "table": "table", "equation": "equation", "footnote": "footnote",
         "endnote": "endnote", "title": "title"}
_EDGE = {"REFERENCES": "reference", "numbering": "caption number", "DEPENDS": "uses the term",
         "RELATED": "related text"}
_REASON = re.compile(r"^(?P<edge>[A-Za-z_]+)(?: \((?P<detail>[^)]*)\))?: (?P<rest>.*)$", re.S)
_TOKEN = re.compile(r"^[\w.\-]{1,12}$")
_WORDS = 6
#: Kinds whose label names them where they stand ("Table 3"); a list item's "•" or "3." does not.
_LABELLED = frozenset({"table", "figure", "equation", "caption", "footnote", "endnote"})


def _words(text: str, n: int = _WORDS) -> str:
    words = text.split()
    return " ".join(words[:n]) + ("…" if len(words) > n else "")


def _name(u: Unit | None) -> str:
    """How a comment names a unit: its label and title ("Table 1 'Codes'"), else its kind and first words."""
    if u is None:
        return "the unit"
    if u.label:
        title = (u.title or "").strip()
        return f"{u.label} '{_words(title)}'" if title and title != u.label else u.label
    return f"{_KIND.get(u.kind, u.kind)} '{_words(u.text)}'"


def _widen(before: str, start: int, end: int, new: str) -> tuple[str, str]:
    """The replaced words, widened to the label they belong to when they are a bare number
    ("2" in "Table 2" reads "Table 2 → Table 1").

    >>> _widen("See Table 2 below.", 10, 11, "1")
    ('Table 2', 'Table 1')
    >>> _widen("We define net load here.", 10, 18, "residual load")
    ('net load', 'residual load')
    """
    old = before[start:end]
    if not (_TOKEN.match(old or "-") and (not new or _TOKEN.match(new))) or not any(ch.isdigit() for ch in old + new):
        return old, new
    s, e = start, end
    while s > 0 and (before[s - 1].isalnum() or before[s - 1] in ".-"):
        s -= 1
    while e < len(before) and before[e].isalnum():
        e += 1
    if s > 1 and before[s - 1] == " " and before[s - 2].isalpha():
        s -= 1
        while s > 0 and before[s - 1].isalpha():
            s -= 1
    return before[s:e], before[s:start] + new + before[end:e]


def _change(old: str, new: str, label_like: bool) -> str:
    if label_like:
        return f"{old} → {new}"
    if not new:
        return f"Deleted '{_words(old, 12)}'"
    if not old:
        return f"Inserted '{_words(new, 12)}'"
    return f"'{_words(old, 12)}' → '{_words(new, 12)}'"


def _what(doc: Document, e: Edit) -> str:
    """What an operation changes, in words."""
    unit = doc.get(e.unit) if e.unit else None
    if e.op == "replace":
        before = e.before if e.before is not None else (unit.text if unit else "")
        old, new = _widen(before, e.start or 0, e.end or 0, e.text or "")
        return _change(old, new, (old, new) != (before[e.start or 0:e.end or 0], e.text or ""))
    if e.op == "set_text":
        before = e.before if e.before is not None else (unit.text if unit else "")
        changes = word_changes(before, e.text or "")
        if not changes:
            return f"Rewrote {_name(unit)}"
        a, b, new = changes[0]
        more = f" (and {len(changes) - 1} more change{'s' if len(changes) > 2 else ''})" if len(changes) > 1 else ""
        return _change(before[a:b], new, False) + more
    if e.op == "delete":
        return f"Deleted {_name(unit)}"
    if e.op == "insert_after":
        kind = _KIND.get(e.kind or (unit.kind if unit else "paragraph"), "paragraph")
        return f"Inserted {kind} '{_words(e.text or '')}' after {_name(unit)}"
    if e.op == "move":
        dest = doc.get(e.after or e.before_unit or "")
        return f"Moved {_name(unit)} {'after' if e.after else 'before'} {_name(dest)}"
    return f"{e.op} {_name(unit)}"


def _narrowed(before: str, start: int, end: int, new: str) -> tuple[int, int, str]:
    """The span of ``before[start:end]`` -> ``new`` cut to the words that differ ("connection ID"
    -> "connection identifier" is "ID" -> "identifier").

    >>> _narrowed("a connection ID here", 2, 15, "connection identifier")
    (13, 15, 'identifier')
    """
    changes = word_changes(before[start:end], new, start)
    if not changes:
        return start, end, new
    a, b = changes[0][0], changes[-1][1]
    return a, b, new[a - start:len(new) - (end - b)]


def operation_words(doc: Document, e: Edit) -> dict[str, str]:
    """What an operation changes, for a list a person scans: ``summary`` ("ID → identifier",
    "Deleted Section 7.3 'Idle Timeout'"), and for a text change ``old`` and ``new``, the words
    that differ (a changed word is one item, not a deletion and an insertion).

    >>> from adapters.model import Replace, Unit
    >>> d = Document("docx", [Unit("p", "paragraph", "Each connection ID is new.", 0)])
    >>> operation_words(d, Replace("p", 5, 18, "connection identifier"))
    {'summary': 'ID → identifier', 'old': 'ID', 'new': 'identifier'}
    >>> operation_words(d, Replace("p", 4, 18, ""))["summary"]
    "Deleted 'connection ID'"
    """
    unit = doc.get(e.unit) if e.unit else None
    if e.op in ("replace", "set_text"):
        before = e.before if e.before is not None else (unit.text if unit else "")
        start, end = (e.start or 0, e.end or 0) if e.op == "replace" else (0, len(before))
        a, b, new = _narrowed(before, start, end, e.text or "")
        old, new = _widen(before, a, b, new)
        if not old and not new:
            return {"summary": _what(doc, e), "old": "", "new": ""}
        summary = f"{_words(old, 12)} → {_words(new, 12)}" if old and new else _change(old, new, False)
        return {"summary": summary, "old": old, "new": new}
    return {"summary": _what(doc, e)}


def place_words(doc: Document, unit: Unit | None) -> dict[str, object]:
    """Where a unit is, in words: ``section`` (``{id, number, label, title}`` of the section it is
    in, or ``None`` above the first) and ``where`` ("Section 5.1 Connection ID", "Table 3 in
    Section 2"), never an id.

    >>> d = Document("docx", [Unit("s", "section", "Intro", 0, label="Section 1", number="1", title="Intro"),
    ...                       Unit("p", "paragraph", "Text.", 1, parent="s")])
    >>> place_words(d, d.get("p"))["where"]
    'Section 1 Intro'
    """
    from .tree import enclosing_section

    sec = enclosing_section(doc, unit) if unit is not None else None
    section = None
    head = ""
    if sec is not None:
        title = (sec.title or sec.text or "").strip()
        section = {"id": sec.id, "number": sec.number, "label": sec.label, "title": title}
        head = " ".join(x for x in (sec.label, title if title != sec.label else None) if x) or _words(title)
    where = head
    if unit is not None and unit is not sec and unit.label and unit.kind in _LABELLED:
        where = f"{unit.label} in {head}" if head else unit.label
    return {"section": section, "where": where or (_name(unit) if unit is not None else "")}


def _cause(doc: Document, src: Edit) -> tuple[str, str | None]:
    """Why a propagated change follows from its operation ("Table 1 was deleted"), and where
    a renamed term is defined."""
    unit = doc.get(src.unit) if src.unit else None
    if src.op == "delete":
        return f"{_name(unit)} was deleted", None
    if src.op == "insert_after":
        return f"a {_KIND.get(src.kind or 'paragraph', 'paragraph')} was inserted after {_name(unit)}", None
    if src.op == "move":
        return f"{_name(unit)} was moved", None
    where = _section_of(doc, unit)
    return f"renamed with {_what(doc, src)}", (f"defined in {where}" if where else None)


def _section_of(doc: Document, unit: Unit | None) -> str | None:
    """The label of the unit or of the nearest labelled unit above it ("Section 2.1")."""
    seen = 0
    while unit is not None and seen < 64:
        if unit.label:
            return unit.label
        unit = doc.get(unit.parent) if unit.parent else None
        seen += 1
    return None


def operation_text(doc: Document, e: Edit, ops: dict[str, Edit], instruction: str | None = None) -> str:
    """The comment on one written operation: what changed and why.

    ``ops`` holds the operations by id (a propagated edit's ``source`` names one of them);
    ``instruction`` is what the user asked (the engine's operations carry it as their reason).
    """
    what = _what(doc, e)
    src = ops.get(e.source or "")
    if src is None or src is e:
        reason = (e.reason or "").strip()
        instr = instruction or reason
        if reason and reason != instr:
            return f"{what}: {reason} (instruction: {instr})" if instr else f"{what}: {reason}"
        return f"{what} (instruction: {instr})" if instr else what
    m = _REASON.match(e.reason or "")
    edge = _EDGE.get(m.group("edge"), m.group("edge").lower()) if m else None
    if m and m.group("edge") == "REFERENCES" and "field" in (m.group("detail") or ""):
        edge = "cross-reference field"
    instr = instruction or (src.reason or "").strip()
    cause, where = _cause(doc, src)
    renamed = src.op in ("replace", "set_text")
    tail = "; ".join(x for x in (where, None if renamed else edge, f"instruction: {instr}" if instr else None) if x)
    if renamed and what == _what(doc, src):
        return f"Renamed with {what}" + (f" ({tail})" if tail else "")
    return f"{what}: {cause}" + (f" ({tail})" if tail else "")


def finding_text(f: Finding) -> str:
    """The comment on a finding that needs a decision."""
    return f"To check: {f.message}"


def note_map(notes: Iterable[Note]) -> dict[str, str]:
    """Edit id -> the text of its comment (what the Proposal JSON carries per operation)."""
    return {n.edit: n.text for n in notes if n.edit and not n.parent}


def comment_notes(doc: Document, edits: Sequence[Edit], findings: Sequence[Finding] = (), *,
                  instruction: str | None = None, threads: bool = False) -> list[Note]:
    """The comments for edits as written (ids, author, date) and the findings of that write.

    One note per operation; a propagated edit (``source`` names an operation among ``edits``)
    gets its own note on its own text, or with ``threads`` a reply under its operation's note,
    placed with it and naming the unit it changes. Findings of :data:`NEEDS_HUMAN` kinds with a
    unit become notes on their evidence, by the author of the edits.
    """
    ops = {e.id: e for e in edits if e.id}
    notes: list[Note] = []
    for e in edits:
        if not e.id:
            continue
        text = operation_text(doc, e, ops, instruction)
        src = ops.get(e.source or "")
        author = e.author or INITIALS
        if threads and src is not None and src is not e:
            where = _name(doc.get(e.unit) if e.unit else None)
            notes.append(Note(f"c-{e.id}", f"{where}: {text}", author, INITIALS, e.date, edit=src.id,
                              parent=f"c-{src.id}"))
        else:
            notes.append(Note(f"c-{e.id}", text, author, INITIALS, e.date, edit=e.id))
    author = next((e.author for e in edits if e.author), INITIALS)
    date = next((e.date for e in edits if e.date), None)
    seen: set[tuple[str, str, int | None]] = set()
    for i, f in enumerate(findings):
        if f.kind not in NEEDS_HUMAN or not f.unit or f.severity == "info":
            continue
        key = (f.kind, f.unit, f.start)
        if key in seen:
            continue
        seen.add(key)
        notes.append(Note(f"c-finding-{i + 1}", finding_text(f), author, INITIALS, date, unit=f.unit,
                          start=f.start, evidence=f.evidence or ""))
    return notes
