"""``ledger check``: document-wide findings that need no edit to be worth reporting.

Broken references (mentions of labels no unit carries, reference fields whose target is gone),
numbering gaps and duplicates, acronyms (undefined, defined twice, used before their
definition) and variant spellings of one term. Only the fast graph stages are needed.
"""
from __future__ import annotations

from collections import Counter

import networkx as nx

from adapters.model import Document

from .findings import Finding, sort_findings
from .graph.lexicon import canonical_label
from .graph.references import broken_references
from .numbering import CAPTION_FAMILIES, collect_entries, detect_schemes, label_of
from .terminology import acronym_findings, variant_findings

__all__ = ["check_document", "reference_findings", "numbering_findings"]

_FAMILY_PLURAL = {"figure": "figures", "table": "tables", "equation": "equations", "listing": "listings"}


def _existing(doc: Document) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for e in collect_entries(doc):
        if e.number is not None:
            out.setdefault(e.family, []).append(e.number)
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
    from .graph.label_index import parse_label

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
                                   f"{n} units are numbered {label_of(family, num)}", label_of(family, num),
                                   [d.carrier for d in dup if d is not dup[1]]))
        nums = sorted({int(e.number) for e in seq if e.number.isdigit()})
        if nums:
            missing = [n for n in range(1, nums[-1] + 1) if n not in nums]
            if missing:
                after = {int(e.number): e for e in seq if e.number.isdigit()}
                nxt = next((after[n] for n in nums if n > missing[0]), seq[0])
                gone = ", ".join(canonical_label(family, str(m)) for m in missing[:8])
                out.append(Finding("numbering_gap", "warning", nxt.carrier,
                                   f"the {family} numbers skip {gone}", nxt.label, []))
    return out


def check_document(doc: Document, G: nx.MultiDiGraph | None = None) -> list[Finding]:
    """Every document-wide finding, most severe first, then in document order.

    ``G`` defaults to the fast graph (CONTAINS and REFERENCES: no model is loaded).
    """
    if G is None:
        from .graph.build import FAST_STAGES, build_graph

        G = build_graph(doc, stages=FAST_STAGES)
    findings = reference_findings(doc, G) + numbering_findings(doc) + acronym_findings(doc) + variant_findings(doc)
    return sort_findings(findings, {u.id: u.order for u in doc.units})
