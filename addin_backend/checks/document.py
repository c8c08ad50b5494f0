"""``ledger check``: document-wide findings that need no edit to be worth reporting.

Broken references (mentions of labels no unit carries, reference fields whose target is gone),
internal links to missing bookmarks and references whose number names another part
(:mod:`.links`), numbering gaps and duplicates (also of typed numbers: :mod:`.series`), abbreviations (undefined, defined twice, used before their
definition, never used, in several cases), variant spellings of one term, and the house-style
checks of :mod:`addin_backend.checks.style` (capitalisation, US/UK spelling, numbers, lists, captions
and headings, quotes and dashes, the style sheet's own rules). Only the fast graph stages are
needed. Every finding has an ``id``, the same for the same document and style sheet.
"""
from __future__ import annotations

from collections import Counter

import networkx as nx

from adapters.label_grammar import parse_label
from adapters.model import Document

from ..findings import Finding, sort_findings
from ..graph.label_index import build_label_index
from ..graph.references import broken_references
from ..numbering import CAPTION_FAMILIES, collect_entries, detect_schemes, label_of
from .changelog import outside_change_logs
from .links import link_findings
from .series import series_findings
from .terminology import acronym_findings

__all__ = ["check_document", "reference_findings", "numbering_findings"]

_FAMILY_PLURAL = {"figure": "figures", "table": "tables", "equation": "equations", "listing": "listings"}


def _existing(doc: Document) -> dict[str, list[str]]:
    """The numbers of each family's units: numbered entries, and captions typed as plain
    paragraphs ("Figure 2-1 – Structure", which the label index reads)."""
    out: dict[str, list[str]] = {}
    for e in collect_entries(doc):
        if e.number is not None:
            out.setdefault(e.family, []).append(e.number)
    for family, number in build_label_index(doc.units).entries:
        if family in CAPTION_FAMILIES and number not in out.get(family, ()):
            out.setdefault(family, []).append(number)
    return out


def _summary(numbers: list[str]) -> str:
    if not numbers:
        return "none"
    if all(n.isdigit() for n in numbers) and [int(n) for n in numbers] == list(range(1, len(numbers) + 1)):
        return f"1-{len(numbers)}" if len(numbers) > 1 else "1"
    return ", ".join(numbers[:12]) + (" ..." if len(numbers) > 12 else "")


def reference_findings(doc: Document, G: nx.MultiDiGraph) -> list[Finding]:
    """The graph's broken references as findings: ``broken_field``, ``missing_target`` (a figure,
    table, equation or listing that does not exist) and ``broken_reference`` (any other label)."""
    existing = _existing(doc)
    out = []
    for b in broken_references(G):
        uid, label, shown = b["source"], b["label"], b["mention"]
        if "field" in b["reason"]:
            out.append(Finding("broken_field", "error", uid,
                               f"the reference field showing '{shown}' points at '{label}', which no unit holds",
                               shown, [], b["start"], b["end"]))
            continue
        parsed = parse_label(label)
        family = parsed[0] if parsed else ""
        if family in CAPTION_FAMILIES:
            have = _summary(existing.get(family, []))
            out.append(Finding("missing_target", "error", uid,
                               f"'{shown}' refers to {label}, but the document's {_FAMILY_PLURAL[family]} are: {have}",
                               shown, [], b["start"], b["end"]))
        else:
            out.append(Finding("broken_reference", "error", uid, f"'{shown}' refers to {label}, which no unit carries",
                               shown, [], b["start"], b["end"]))
    return out


def numbering_findings(doc: Document) -> list[Finding]:
    """Gaps and duplicates in the numbered sequences that do not follow their scheme."""
    entries = collect_entries(doc)
    schemes, shared = detect_schemes(entries)
    out: list[Finding] = []
    by_family: dict[str, list] = {}
    for e in entries:
        if e.number is not None and e.family != "section":
            by_family.setdefault(e.family, []).append(e)
    for family, seq in by_family.items():
        name = "statement" if shared and family not in CAPTION_FAMILIES else family
        if schemes.get(name) is not None:
            continue
        counts = Counter(e.number for e in seq)
        for num, n in counts.items():
            if n > 1:
                dup = [e for e in seq if e.number == num]
                out.append(Finding("numbering_duplicate", "warning", dup[1].carrier,
                                   f"{n} units are numbered {dup[1].label}", dup[1].label,
                                   [d.carrier for d in dup if d is not dup[1]]))
        nums = sorted({int(e.number) for e in seq if e.number.isdigit()})
        if nums:
            missing = [n for n in range(1, nums[-1] + 1) if n not in nums]
            if missing:
                after = {int(e.number): e for e in seq if e.number.isdigit()}
                nxt = next((after[n] for n in nums if n > missing[0]), seq[0])
                gone = ", ".join(label_of(family, str(m), nxt.word) for m in missing[:8])
                out.append(Finding("numbering_gap", "warning", nxt.carrier,
                                   f"the {family} numbers skip {gone}", nxt.label, []))
    return out


def check_document(doc: Document, G: nx.MultiDiGraph | None = None, style=None) -> list[Finding]:
    """Every document-wide finding, most severe first, then in document order.

    ``G`` defaults to the fast graph (CONTAINS and REFERENCES: no model is loaded); ``style`` is
    the house :class:`~addin_backend.checks.style.StyleSheet` (``None``: the document's own majority
    decides every choice).
    """
    from .style import StyleSheet, apply_exceptions, style_findings
    from .style.hyphenation import variant_findings
    from .style.prose import drop_untouchable, finding_id, prose

    if G is None:
        from ..graph.build import FAST_STAGES, build_graph

        G = build_graph(doc, stages=FAST_STAGES)
    sheet = style or StyleSheet()
    p = prose(doc)
    words = apply_exceptions(acronym_findings(doc, sheet.known_abbreviations) + variant_findings(doc, p.units, p.lang),
                             sheet)
    # no check speaks of, and no fix rewrites, code, a URI, a media type, a name or a dictionary word
    findings = (reference_findings(doc, G) + link_findings(doc) + numbering_findings(doc) + series_findings(doc)
                + drop_untouchable(doc, words + style_findings(doc, sheet)))
    findings = outside_change_logs(doc, findings)  # a revision history records past states as they were
    for f in findings:
        if f.id is None:
            f.id = finding_id(f.kind, f.places, f"{f.unit}\0{f.start}\0{f.evidence}\0{f.message}")
    return sort_findings(findings, {u.id: u.order for u in doc.units})
