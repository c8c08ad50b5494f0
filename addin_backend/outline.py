"""The outline of a document: its headings and clauses, their levels and the numbers they show.

One rule for each question the graph (CONTAINS, the label index), the edit engines (what a
label names, where a heading goes), numbering (what Word and LibreOffice renumber), retrieval
and the outline route (the task pane's tree) all ask:

- :func:`level` — how deep a heading (or a clause) sits: its explicit outline or list level,
  else its heading style ("Heading 3", "Überschrift 3", "Titre 3", "Título 3"), else the depth
  of its number, else 1;
- :func:`heading_number` — the number a heading shows: the reader's (automatic numbering), its
  label's, or the one typed before its title ("2.1 Scope", "A.1 Scope", "Section 3 Terms",
  "Annex B Scope" alike);
- :func:`clauses` — the clause headings a conversion left as text or numbered by a list, where
  they are the outline: typed sub-clauses extending a numbered heading ("2.1. Grants" under
  "2. License Grants"); where no heading carries a number, typed headings and list-numbered
  clauses ("7. Additional Terms.") when they read as an outline (a plain numbered list is not);
- :func:`clause_group` — what a clause's number names: the clause and its body, up to the next
  clause of its level or above;
- :func:`tree` — the outline as nodes for navigation.
"""
from __future__ import annotations

import re
from typing import Any

from adapters.label_grammar import (
    CLAUSE_NUMBER, canonical_label, heading_number as typed_number, norm_number, number_depth, parse_label,
)
from adapters.model import Document, Unit
from adapters.monospace import CODE_STYLE as _CODE_STYLE
from adapters.vocabulary import OUTSIDE_FLOW_KINDS

__all__ = [
    "CODE_STYLE",
    "QUOTE_STYLE",
    "OUTLINE_KINDS",
    "clause_group",
    "clauses",
    "heading_number",
    "level",
    "list_clause",
    "style_level",
    "title_like",
    "tree",
    "typed_clause",
    "typed_heading",
]

#: Units that make up the outline besides clauses (the task pane's navigation tree).
OUTLINE_KINDS = ("title", "section")

#: Paragraph styles of code and preformatted text, whose lines are no headings (one pattern for
#: the readers and the backend: ``adapters.monospace``).
CODE_STYLE = _CODE_STYLE
#: Paragraph styles of quotations (a block quoted from another document): kept as written.
QUOTE_STYLE = re.compile(r"\b(?:block\s*)?quot(?:e|ation)s?\b|zitat", re.I)

# Heading styles by the names Word and LibreOffice give them in their languages (and Word's
# style ids, which drop non-ASCII letters: "berschrift1"), ODF's escaped "Heading_20_3" too.
_HEADING_STYLE = re.compile(
    r"(?:heading|(?:\u00fc|u|ue)?berschrift|titre|t[i\u00ed]tulo|titolo|encabezado|intestazione|kop|rubrik|"
    r"overskrift|otsikko|nag[\u0142l][\u00f3o]wek|nadpis|c[i\u00ed]msor|\u0437\u0430\u0433\u043e\u043b\u043e\u0432\u043e\u043a|"
    r"ba[\u015fs]l[\u0131i]k|\u6807\u9898|\u898b\u51fa\u3057)[\s_]*(?:20_)?(\d{1,2})(?!\d)",
    re.I,
)
#: After a heading's number: its title, which starts with a capital (or a bracket, or a quote).
_TITLE_START = re.compile(r"[.:)]?\s+[\u2013\u2014\-:]?\s*[A-Z(\"\u201c]")
#: Words a title does not end with ("... the requirement in section 4 to" is a wrapped line).
_OPEN_END = re.compile(
    r"\b(?:a|an|the|of|to|in|on|at|by|for|from|with|and|or|that|which|is|are|means|includes|shall|must|may)$", re.I
)
_LIST_NUMBER = re.compile(CLAUSE_NUMBER)


def style_level(style: str | None) -> int | None:
    """The level a heading style names, in any language Word and LibreOffice write.

    >>> [style_level(s) for s in ("Heading 3", "heading 2", "\u00dcberschrift 3", "Titre 3", "T\u00edtulo 2", "Heading_20_4", "berschrift1")]
    [3, 2, 3, 3, 2, 4, 1]
    >>> style_level("Title"), style_level("Titre"), style_level("Body Text"), style_level(None)
    (None, None, None, None)
    """
    m = _HEADING_STYLE.search(style or "")
    if not m:
        return None
    n = int(m.group(1))
    return n if 1 <= n <= 10 else None


def heading_number(unit: Unit) -> str | None:
    """The number a heading shows: the reader's, its label's, else the one typed before its
    title; ``None`` for an unnumbered heading.

    The readers give a heading whose number is typed in its text that number where the
    document numbers its headings so (:mod:`adapters.typed_numbers`); the typed fallback here
    serves units made without a reader (an edit's new heading, a test's unit).

    >>> [heading_number(Unit("s", "section", t, 0)) for t in ("A.1 Scope", "Section 3 Terms", "Annex B Scope", "Scope")]
    ['A.1', '3', 'B', None]
    >>> heading_number(Unit("s", "section", "Scope", 0, number="2.1.")), heading_number(Unit("s", "section", "Scope", 0, label="Anhang C"))
    ('2.1', 'C')
    """
    if unit.number and number_depth(unit.number):
        return norm_number(unit.number)
    for label in (unit.number, unit.label):
        parsed = parse_label(label)
        if parsed and parsed[0] == "section":
            return parsed[1]
    got = typed_number(unit.title or unit.text)
    return got[0] if got else None


def level(unit: Unit, number: str | None = None) -> int:
    """How deep a heading or clause sits: its explicit outline or list level, else its heading
    style's level, else the depth of its number (``number``, else the one it shows), else 1.

    >>> level(Unit("s", "section", "Keys", 0, level=2)), level(Unit("s", "section", "Keys", 0, style="Heading 3"))
    (2, 3)
    >>> level(Unit("s", "section", "Keys", 0, number="4.1.2")), level(Unit("p", "paragraph", "2.1. Grants", 0), "2.1")
    (3, 2)
    """
    if unit.level is not None and unit.level > 0:
        return int(unit.level)
    got = style_level(unit.style)
    if got:
        return got
    depth = number_depth(number if number is not None else (heading_number(unit) if unit.kind == "section" else unit.number))
    return depth or 1


def title_like(text: str, period: bool = False) -> bool:
    """Short, no sentence inside: a heading's title ("Requirements Language"); with ``period``,
    one closed by a full stop as list-numbered clause titles are ("Additional Terms.")."""
    words = len(text.split())
    if len(text) > 100 or words > 14 or text[-1] in ";,:!?" or _OPEN_END.search(text.rstrip(".")):
        return False
    return text[-1] != "." or (period and words <= 10 and text.count(". ") == 0)


def typed_heading(text: str) -> tuple[str, str] | None:
    """The number and the rest of a heading typed as text: ``"2.1.  Grants"`` -> ``("2.1", "Grants")``.

    >>> typed_heading("Appendix A.  Examples"), typed_heading("3 tables were read")
    (('A', 'Examples'), None)
    """
    text = text.strip()
    got = typed_number(text)
    if got is None:
        return None
    # a bare number may close with a full stop ("2.1."); a worded one ends with its number
    bare = got[1] == 0
    end = got[2] + (1 if bare and text[got[2] : got[2] + 1] == "." else 0)
    if not _TITLE_START.match(text, end):
        return None
    return got[0], text[end:].lstrip(" .:)\u2013\u2014-")


def typed_clause(text: str, style: str | None = None) -> tuple[str, int] | None:
    """The number of a heading or clause a conversion left as typed text, with its rank: 2 for
    a heading ("2.1.  Requirements Language"), 3 for a numbered clause that opens a paragraph
    ("5.1. The rights granted ..."); ``None`` for code lines and other paragraphs.

    >>> typed_clause("2.1.  Requirements Language"), typed_clause("5.1. The rights granted under this License terminate.")
    (('2.1', 2), ('5.1', 3))
    >>> typed_clause("3 tables were read"), typed_clause("7.  This is in section 4 to", "Preformatted Text")
    (None, None)
    """
    text = text.strip()
    if not text or (style and CODE_STYLE.search(style)):
        return None
    heading = typed_heading(text)
    if heading is None:
        return None
    num, rest = heading
    return num, 2 if rest and title_like(rest) else 3


def list_clause(unit: Unit) -> tuple[str, int] | None:
    """A list item numbered "7." or "3.2" by its list, as a clause: its number and rank (2 when
    its text is a title, else 3); ``None`` for other numbering ("a)", bullets) and code."""
    num = norm_number(unit.number or "")
    if not _LIST_NUMBER.fullmatch(num) or (unit.style and CODE_STYLE.search(unit.style)):
        return None
    text = unit.text.strip()
    return num, 2 if text and title_like(text, period=True) else 3


def _candidate(unit: Unit) -> tuple[str, int] | None:
    """A clause heading in a document whose headings carry no number: a typed heading, or a
    list item numbered as a clause (by its list, or with its word: "Article 1")."""
    if unit.kind == "paragraph":
        got = typed_clause(unit.text, unit.style)
        return got if got and got[1] == 2 else None
    if unit.kind == "list_item":
        parsed = parse_label(unit.label)
        if parsed and parsed[0] == "section":
            return parsed[1], 0
        return list_clause(unit)
    return None


def clauses(doc: Document) -> dict[str, str]:
    """Unit id -> number of the clause headings a conversion left as text or numbered by a list.

    Under a heading whose number a typed paragraph extends ("2.1. Grants" under "2. License
    Grants"); where no heading carries a number, typed headings and clauses numbered by a
    list ("7. Additional Terms.") when they read as the document's outline: at least three,
    each top-level number once, and most of them followed by text of their own (a plain
    numbered list is not an outline). The same rule makes the outline's clause nodes, the
    section sequence Word and LibreOffice renumber, and what an edit's "Section 7" names.
    """
    flow = list(doc.body())
    out: dict[str, str] = {}
    if any(heading_number(u) for u in flow if u.kind == "section"):
        prefix: str | None = None
        for u in flow:
            if u.kind == "section":
                shown = heading_number(u)
                prefix = shown + "." if shown else None
            elif prefix and u.kind == "paragraph":
                got = typed_clause(u.text, u.style)
                if got and got[1] == 2 and got[0].startswith(prefix):
                    out[u.id] = got[0]
        return out
    cands = [(i, *got) for i, u in enumerate(flow) if (got := _candidate(u)) is not None]
    tops = [num for _, num, _ in cands if "." not in num]
    ends = [c[0] for c in cands[1:]] + [len(flow)]
    # text of its own: units before the next clause, or a whole clause in the item ("2. Grant of ...")
    bodies = sum(1 for (i, _, rank), end in zip(cands, ends) if end > i + 1 or rank == 3)
    if len(cands) < 3 or len(tops) != len(set(tops)) or bodies * 2 < len(cands):
        return out
    return {flow[i].id: num for i, num, _ in cands}


def clause_group(doc: Document, head: Unit, found: dict[str, str] | None = None) -> list[Unit]:
    """What a clause's number names: the clause and the units after it, up to the next clause
    of its level or above or the next heading (``found``: :func:`clauses`, computed if not given).
    A unit that is no clause of the outline names itself alone."""
    found = clauses(doc) if found is None else found
    if head.id not in found:
        return [head]
    depth = level(head, found[head.id])
    flow = [u for u in doc.units if u.kind not in OUTSIDE_FLOW_KINDS]
    start = next(i for i, u in enumerate(flow) if u.id == head.id)
    out = [head]
    for u in flow[start + 1 :]:
        if u.kind == "section" or (u.id in found and level(u, found[u.id]) <= depth):
            break
        out.append(u)
    return out


def tree(doc: Document) -> list[dict[str, Any]]:
    """The tree of titles, sections and clauses, with labels and numbers, for navigation.

    A node's parent is its nearest ancestor that is itself in the outline, so the tree does
    not depend on whether a reader parents sections to sections or to other units. Clause
    headings a conversion left as text join it as ``clause`` nodes (:func:`clauses`), under
    the clause above them or the heading before them (not under an unnumbered heading that
    sits no higher than the clause). A node's ``number`` is the number it shows
    (:func:`heading_number`); ``title`` is the heading's text, which for a typed heading
    begins with that number.
    """
    nodes: dict[str, dict[str, Any]] = {}
    parent_of: dict[str, dict[str, Any] | None] = {}
    roots: list[dict[str, Any]] = []
    heads = clauses(doc)
    section: dict[str, Any] | None = None
    open_clauses: list[tuple[int, dict[str, Any]]] = []  # open clause nodes since the last section
    for u in doc.units:
        if u.kind in OUTLINE_KINDS:
            number = heading_number(u) if u.kind == "section" else u.number
            label = u.label or (canonical_label("section", number) if u.kind == "section" and number else None)
            node: dict[str, Any] = {"id": u.id, "kind": u.kind, "label": label, "number": number,
                    "title": u.title if u.title is not None else u.text,
                    "level": level(u) if u.kind == "section" else u.level, "children": []}
            nodes[u.id] = node
            parent = _outline_parent(doc, u.parent, nodes)
            parent_of[u.id] = parent
            (parent["children"] if parent else roots).append(node)
            if u.kind == "section":
                section, open_clauses = node, []
            continue
        num = heads.get(u.id)
        if num is None:
            continue
        depth = level(u, num)
        typed = typed_heading(u.text) if u.kind == "paragraph" else None
        title = typed[1] if typed else u.text.strip()
        node = {"id": u.id, "kind": "clause", "label": u.label if parse_label(u.label) == ("section", num) else
                canonical_label("section", num), "number": num,
                "title": title.split(". ", 1)[0][:80] or u.text.strip()[:80], "level": depth, "children": []}
        while open_clauses and open_clauses[-1][0] >= depth:
            open_clauses.pop()
        parent = open_clauses[-1][1] if open_clauses else section
        while parent is not None and parent["kind"] == "section" and parent["number"] is None and parent["level"] >= depth:
            parent = parent_of.get(parent["id"])
        (parent["children"] if parent else roots).append(node)
        open_clauses.append((depth, node))
    return roots


def _outline_parent(doc: Document, unit_id: str | None,
                    nodes: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    seen: set[str] = set()
    while unit_id is not None and unit_id not in seen:
        if unit_id in nodes:
            return nodes[unit_id]
        seen.add(unit_id)
        parent = doc.get(unit_id)
        unit_id = parent.parent if parent else None
    return None
