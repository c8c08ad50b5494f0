"""Packing: ranked candidates into a token budget, then ordered so nothing vital sits in the middle."""
from __future__ import annotations

import re
from typing import Iterable

from adapters.label_grammar import heading_number as typed_number
from adapters.model import Document, Unit

from ..outline import heading_number
from .tokens import count_tokens, truncate_tokens
from .expand import Candidate
from .result import ContextItem
from adapters.vocabulary import TEXT_KINDS

__all__ = ["unit_context_text", "section_summary", "snippet", "pack", "order_for_prompt", "count_packable",
           "SUMMARY_TOKENS", "SNIPPET_TOKENS"]

#: A section contributes its heading and this many tokens of summary, never its whole text.
SUMMARY_TOKENS = 40
#: Background material (siblings, RELATED) fills at most this share of the budget: the rest is
#: headroom for the instruction and the prompt's scaffolding. Dependencies may use it all.
BACKGROUND_FILL = 0.95
#: A dependent longer than this contributes the sentences around the span that ties it to the
#: target (the mention, the term, the anaphor), not its whole text.
SNIPPET_TOKENS = 60
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'\u201c])")


def _first_sentence(text: str) -> str:
    return _SENTENCE.split(text.strip(), maxsplit=1)[0]


def section_summary(doc: Document, section: Unit) -> str:
    """Heading (with its number, once) plus the first sentence of the section's first paragraph."""
    num = heading_number(section)
    typed = typed_number(section.text)
    head = f"{num} {section.text}".strip() if num and not (typed and typed[0] == num) else section.text
    for child in doc.children(section.id):
        if child.kind in TEXT_KINDS and child.text.strip():
            return f"{head} \u2014 {truncate_tokens(_first_sentence(child.text), SUMMARY_TOKENS)}"
    return head


def unit_context_text(doc: Document, unit: Unit, *, summarise: bool) -> tuple[str, bool]:
    """The text a unit contributes to a context, and whether it was summarised.

    Sections always contribute a summary; tables reached as neighbours contribute their caption
    and header row; everything else its whole text.
    """
    if unit.kind == "section":
        return section_summary(doc, unit), True
    if summarise and unit.kind == "table":
        cells = unit.meta.get("cells") if unit.meta else None
        header = " | ".join(cells[0]) if cells and cells[0] else unit.text.split("\n", 1)[0]
        lead = unit.label or "Table"
        return f"{lead}: {header}", True
    return unit.text, False


def count_packable(doc: Document) -> None:
    """Count what a context may pack of each unit (its text, a section's summary, a table's lead
    and header), so that the counts a caller keeps (:func:`.tokens.counted`) serve a later context
    on another part of the document without the tokenizer (only a snippet's sentences may still
    need it)."""
    for unit in doc.units:
        for summarise in (False, True):
            count_tokens(unit_context_text(doc, unit, summarise=summarise)[0])


def snippet(text: str, start: int, end: int) -> str:
    """The sentence(s) of ``text`` that hold ``text[start:end]``, with elisions marked.

    >>> snippet("One. Two has Figure 3 in it. Three.", 13, 21)
    '… Two has Figure 3 in it. …'
    """
    bounds = [0] + [m.end() for m in _SENTENCE.finditer(text)] + [len(text)]
    lo = max(b for b in bounds if b <= start)
    hi = min(b for b in bounds if b >= end)
    piece = text[lo:hi].strip()
    return ("… " if lo > 0 else "") + piece + (" …" if hi < len(text) else "")


def _item(doc: Document, unit: Unit, edge: str, hops: int, priority: float, reason: str,
          direction: str, summarise: bool, span: tuple[int, int] | None = None) -> ContextItem:
    text, summarised = unit_context_text(doc, unit, summarise=summarise)
    if span and not summarised and count_tokens(text) > SNIPPET_TOKENS and 0 <= span[0] <= span[1] <= len(text):
        text, summarised = snippet(text, *span), True
    return ContextItem(
        id=unit.id,
        edge=edge,
        hops=hops,
        priority=priority,
        tokens=count_tokens(text),
        reason=reason,
        text=text,
        kind=unit.kind,
        label=unit.label,
        direction=direction,
        summarised=summarised,
    )


def pack(
    doc: Document,
    targets: list[str],
    candidates: Iterable[Candidate],
    budget: int,
) -> tuple[list[ContextItem], list[dict]]:
    """Greedy packing: targets first (always; cut to the budget if alone too long), then candidates
    by priority while they fit. Returns the packed items in priority order and the dropped ones."""
    items: list[ContextItem] = []
    used = 0
    for tid in targets:
        unit = doc.unit(tid)
        item = _item(doc, unit, "TARGET", 0, float("inf"), "the unit to edit", "", summarise=False)
        if unit.kind == "section":
            item.text, item.summarised = section_summary(doc, unit), True
            item.tokens = count_tokens(item.text)
        if used + item.tokens > budget:
            room = max(budget - used, 0)
            item.text = truncate_tokens(item.text, room)
            item.tokens = count_tokens(item.text)
            item.reason += " (cut to the budget)"
        items.append(item)
        used += item.tokens
    dropped: list[dict] = []
    for c in candidates:
        found = doc.get(c.id)
        if found is None:
            continue
        item = _item(doc, found, c.edge, c.hops, c.priority, c.reason, c.direction,
                     summarise=c.edge != "REFERENCES", span=c.span)
        item.background = c.background
        limit = int(budget * BACKGROUND_FILL) if c.background else budget
        if used + item.tokens <= limit:
            items.append(item)
            used += item.tokens
        else:
            dropped.append({"id": c.id, "edge": c.edge, "priority": c.priority, "tokens": item.tokens})
    return items, dropped


def order_for_prompt(items: list[ContextItem]) -> list[ContextItem]:
    """Targets first, then the rest by priority alternating between the start and the end.

    Long contexts lose the middle: the most important material sits at both ends and the
    least important in the middle. ``items`` must come in priority order.
    """
    targets = [i for i in items if i.edge == "TARGET"]
    rest = [i for i in items if i.edge != "TARGET"]
    front: list[ContextItem] = []
    back: list[ContextItem] = []
    for n, item in enumerate(rest):
        (front if n % 2 == 0 else back).append(item)
    return targets + front + back[::-1]
