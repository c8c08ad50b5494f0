"""The words every layer and the task pane share: unit kinds, edge types, engines, views, dates.

One place for each name, low enough that the adapters use it too. The backend re-exports what
it needs from here (``graph.edges.EDGE_TYPES``, ``findings.SEVERITIES``...), the API's schemas
enumerate these tuples, and the task pane imports them from ``static/js/vocabulary.js``, which
``addin_backend.pane_vocabulary`` writes from :func:`as_json` (``tests/test_vocabulary.py``
checks it is current; the pane keeps only display words and colours of its own).

Nothing here imports anything but the standard library.
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Literal, get_args

__all__ = [
    "UNIT_KINDS",
    "UnitKind",
    "NOTE_KINDS",
    "MARGIN_KINDS",
    "OUTSIDE_FLOW_KINDS",
    "HEADING_KINDS",
    "TEXT_KINDS",
    "FLOAT_KINDS",
    "DISPLAY_KINDS",
    "INSERTABLE_KINDS",
    "KIND_NAMES",
    "REVISION_KINDS",
    "VIEWS",
    "View",
    "EDGE_TYPES",
    "EdgeType",
    "STRATEGIES",
    "Strategy",
    "ENGINES",
    "Engine",
    "NAME_POLICIES",
    "NamePolicy",
    "SEVERITIES",
    "REVISION_DATE_FORMAT",
    "revision_date",
    "timestamp",
    "as_json",
]

# --- units -----------------------------------------------------------------------------------

#: Every kind of :class:`adapters.model.Unit`, in the order the documentation lists them.
UnitKind = Literal[
    "section", "paragraph", "list_item", "caption", "figure", "table", "equation", "footnote", "endnote", "title",
    "header", "footer",
]
UNIT_KINDS: tuple[str, ...] = get_args(UnitKind)

#: Notes: outside the main text flow, each hanging from the unit that cites it.
NOTE_KINDS = ("footnote", "endnote")
#: Page headers and footers (DOCX header/footer parts, ODT master pages' ``style:header``/
#: ``style:footer``): text every page of a section repeats, outside the main flow.
MARGIN_KINDS = ("header", "footer")
#: What ``Document.body`` leaves out: notes, headers and footers.
OUTSIDE_FLOW_KINDS = (*NOTE_KINDS, *MARGIN_KINDS)
#: Units that head what follows them.
HEADING_KINDS = ("section", "title")
#: Units of running prose, one paragraph each (a list item is a paragraph with a marker).
TEXT_KINDS = ("paragraph", "list_item")
#: Numbered objects a caption names ("Figure 3", "Table 2", "(4)").
FLOAT_KINDS = ("figure", "table", "equation")
#: What is shown rather than read as prose: a float or its caption.
DISPLAY_KINDS = ("caption", *FLOAT_KINDS)
#: Kinds of unit an edit can create from text (a figure or a table cannot be typed in).
INSERTABLE_KINDS = ("paragraph", "list_item", "section", "caption", "equation", "title")

#: How a person calls each kind (the task pane's labels, the API's unit previews).
KIND_NAMES = {
    "section": "Heading",
    "paragraph": "Paragraph",
    "list_item": "List item",
    "caption": "Caption",
    "figure": "Figure",
    "table": "Table",
    "equation": "Equation",
    "footnote": "Footnote",
    "endnote": "Endnote",
    "title": "Title",
    "header": "Header",
    "footer": "Footer",
}

#: Kinds of the tracked changes a reader finds in its input (:class:`adapters.model.Revision`).
REVISION_KINDS = (
    "insertion",
    "deletion",
    "move_from",
    "move_to",
    "paragraph_insertion",
    "paragraph_deletion",
    "format_change",
    "paragraph_format_change",
)

#: The views of a document that has tracked changes: accepted (the default) and rejected.
View = Literal["accepted", "rejected"]
VIEWS: tuple[str, ...] = get_args(View)

# --- the graph, retrieval, engines, findings -------------------------------------------------

#: The graph's edge types, in retrieval priority order (the paper's REF > DEP > REL, with the
#: hierarchy first): CONTAINS container -> unit, REFERENCES citing -> cited, DEPENDS dependent
#: -> prerequisite, RELATED both ways.
EdgeType = Literal["CONTAINS", "REFERENCES", "DEPENDS", "RELATED"]
EDGE_TYPES: tuple[str, ...] = get_args(EdgeType)

#: Retrieval strategies: LEDGER's graph walk and the baselines it is measured against.
Strategy = Literal["ledger", "full", "window", "flat_rag", "hier_rag"]
STRATEGIES: tuple[str, ...] = get_args(Strategy)

#: Edit engines: the offline rules, the configured LLM, or rules then LLM.
Engine = Literal["rules", "llm", "auto"]
ENGINES: tuple[str, ...] = get_args(Engine)

#: What a rename does with the term inside a name of its own ("Destination Connection ID" for
#: "connection ID"): follow the document's usage, rename inside names too, or keep every
#: capitalised use (addin_backend.edits.renaming). One option of every door's rename.
NamePolicy = Literal["auto", "rename", "keep"]
NAME_POLICIES: tuple[str, ...] = get_args(NamePolicy)

#: Severities of a finding, most severe first.
SEVERITIES = ("error", "warning", "info")

# --- dates -----------------------------------------------------------------------------------

#: The date a tracked change or a comment carries (``w:date``, ``dc:date``): UTC to the second.
REVISION_DATE_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def revision_date(when: datetime | None = None, *, zone: bool = True) -> str:
    """A revision date: ``2026-07-01T09:30:00Z``; ``zone=False`` leaves out the ``Z`` (ODF's
    ``dc:date`` as LibreOffice writes it, read as local time by it).

    >>> revision_date(datetime(2026, 7, 1, 9, 30, 5, 123, tzinfo=timezone.utc))
    '2026-07-01T09:30:05Z'
    >>> revision_date(datetime(2026, 7, 1, 9, 30, 5, tzinfo=timezone.utc), zone=False)
    '2026-07-01T09:30:05'
    """
    text = (when or datetime.now(timezone.utc)).astimezone(timezone.utc).strftime(REVISION_DATE_FORMAT)
    return text if zone else text[:-1]


def timestamp(when: datetime | None = None, *, precision: Literal["seconds", "milliseconds"] = "seconds") -> str:
    """A record's time (documents, jobs, the audit log): ISO 8601 in UTC with its offset, which
    ``datetime.fromisoformat`` reads back.

    >>> timestamp(datetime(2026, 7, 1, 9, 30, 5, 123456, tzinfo=timezone.utc), precision="milliseconds")
    '2026-07-01T09:30:05.123+00:00'
    >>> datetime.fromisoformat(timestamp()).tzinfo is not None
    True
    """
    return (when or datetime.now(timezone.utc)).astimezone(timezone.utc).isoformat(timespec=precision)


def as_json() -> dict[str, Any]:
    """The vocabulary as JSON (what ``static/js/vocabulary.js`` holds, operations aside)."""
    return {
        "unit_kinds": list(UNIT_KINDS),
        "kind_names": dict(KIND_NAMES),
        "note_kinds": list(NOTE_KINDS),
        "insertable_kinds": list(INSERTABLE_KINDS),
        "views": list(VIEWS),
        "edge_types": list(EDGE_TYPES),
        "strategies": list(STRATEGIES),
        "engines": list(ENGINES),
        "severities": list(SEVERITIES),
    }
