"""Findings: what propagation, verification and ``ledger check`` report about a document.

One small record for all three, so the CLI, the API and the task pane show them alike: a
``kind`` (stable, machine-readable), a ``severity`` (error, warning, info), the ``unit`` it is
about, a sentence, the ``evidence`` (the text span that shows it) and the ``related`` units.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable

from adapters.vocabulary import SEVERITIES

__all__ = ["SEVERITIES", "FINDING_KINDS", "Place", "Finding", "count_by_severity", "sort_findings"]


#: Every kind a finding can have, with what it means (the report and the docs list these).
FINDING_KINDS = {
    # references and numbering
    "broken_reference": "a mention of a label that no unit carries (Figure 9 in a document with three figures)",
    "missing_target": "a mention of a figure, table, equation or listing the document does not have",
    "broken_field": "a reference field whose bookmark or sequence target no unit holds",
    "broken_link": "an internal hyperlink to a bookmark the document does not hold",
    "stale_reference": "a link, field or typed reference whose number names another part than the one it means "
                       "(link text 'Appendix I' going to Appendix J; 'Figure 3-6' in the passage about Figure 3-3)",
    "reference_to_deleted": "a reference (mention or field) to a unit the edit deletes",
    "reference_retargeted": "a mention that pointed at one unit before the edit and at another after it",
    "stale_field": "a reference field whose shown number differs from its target's number",
    "numbering_gap": "a numbered sequence that skips a number (Figures 1, 2, 4)",
    "numbering_duplicate": "two units of one sequence with the same number",
    "numbering_mismatch": "a typed or cached number that differs from the unit's position in its sequence",
    "numbering_not_recomputed": "a sequence whose numbers do not follow document order, left alone",
    "propagation_skipped": "a propagated change that could not be made (it overlaps another edit)",
    "listed_statement_removed": "a table row that lists an identifier (a conformance table) whose statement the edit removes",
    "statement_not_listed": "an identifier the edit adds to a series that a table lists, missing from that table",
    # terminology and values
    "old_term": "the old term of a rename left in a unit",
    "old_term_kept": "forms of a renamed term kept on purpose (code, a quotation, a name of its own), with why",
    "expansion_mismatch": "a renamed acronym or term whose written expansion no longer fits it",
    "same_value": "another statement of a value that the edit changed",
    "semantic_drift": "an edited unit that moved away in meaning from the units that depend on it",
    # document-wide checks
    "undefined_acronym": "an acronym used but never expanded",
    "acronym_redefined": "an acronym expanded twice, differently",
    "acronym_defined_twice": "an acronym expanded twice, the same way",
    "acronym_before_definition": "an acronym used before the unit that expands it",
    "variant_spelling": "one term spelled several ways (data set / dataset / data-set), or against the word list (on-line)",
    "acronym_unused": "an abbreviation spelled out but never used afterwards",
    "acronym_case": "one abbreviation written in several cases (IPsec / IPSec / IPSEC)",
    # house style (addin_backend/checks/style)
    "phrase_capitalisation": "a phrase capitalised mid-sentence where the document writes it in lower case",
    "spelling_variety": "US and UK spellings mixed, or a spelling of the other variety than the document's",
    "number_style": "numbers of one role written as digits and as words (5 retries / five retries)",
    "percent_style": "percentages written two ways (10 percent / 10%)",
    "thousands_separator": "large numbers with and without a thousands separator (10,000 / 10000)",
    "unit_spacing": "a unit of measure with and without a space before it (10 ms / 10ms)",
    "list_punctuation": "items of one list ending in different punctuation",
    "list_capitalisation": "items of one list starting with a capital and in lower case",
    "caption_style": "captions labelled two ways (Figure 1: / Fig. 1.)",
    "heading_case": "headings of one level in title case and in sentence case",
    "quote_style": "straight and curly quotation marks mixed",
    "dash_style": "a hyphen used as a dash, or dashes of two styles",
    "style_term": "a term the house style sheet replaces by its preferred form",
    "banned_term": "a term the house style sheet bans",
    "style_abbreviation": "an abbreviation the house style sheet writes another way",
    # implicit references
    "dangling_anaphor": "an anaphor ('this approach') whose antecedent the edit rewrote or deleted",
    # writing
    "write_mismatch": "the written file does not read back as the planned edit",
    # review
    "review_record_ignored": "an operations record in a reviewed file that was not used (outside office:meta, "
                             "or not the revision's operations)",
    "unrelated_document": "a file under review that is not the document the operations were written into",
    "half_decided_change": "a replacement whose tracked deletion and insertion a reviewer decided differently: "
                           "the text reads neither the old nor the new words, or both",
}


@dataclass(frozen=True)
class Place:
    """One occurrence a finding is about: ``text`` at ``start:end`` of the unit's text, and the
    ``replacement`` a fix writes there (``None``: nothing to write, only to look at)."""

    unit: str
    start: int
    end: int
    text: str
    replacement: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"unit": self.unit, "start": self.start, "end": self.end, "text": self.text}
        if self.replacement is not None:
            out["replacement"] = self.replacement
        return out


@dataclass
class Finding:
    """One thing worth a reviewer's attention.

    ``start``/``end`` are offsets of ``evidence`` in the unit's text (of the document the finding
    was made on) when it has a span; ``suggestion`` is a replacement text when there is one.
    The document-wide checks also give ``places`` (every occurrence, each with the text a fix
    writes there), ``rule`` (the house-style rule that fired, when one did) and ``id`` (stable
    for the same document and style sheet: what ``POST .../check/fix`` names).
    """

    kind: str
    severity: str
    unit: str | None
    message: str
    evidence: str = ""
    related: list[str] = field(default_factory=list)
    start: int | None = None
    end: int | None = None
    suggestion: str | None = None
    places: list[Place] = field(default_factory=list)
    rule: str | None = None
    id: str | None = None

    @property
    def fixable(self) -> bool:
        """Whether a fix has something to write (a place with a replacement)."""
        return any(p.replacement is not None and p.replacement != p.text for p in self.places)

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"unknown severity {self.severity!r}")
        if self.kind not in FINDING_KINDS:
            raise ValueError(f"unknown finding kind {self.kind!r}")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Finding":
        """A finding back from :meth:`to_json` (a kept proposal's findings; ``code`` and
        ``fixable`` are derived, so they are dropped).

        >>> f = Finding("numbering_gap", "warning", "p-1", "Figures 1, 2, 4", related=["p-2"], start=0, end=3,
        ...             places=[Place("p-1", 0, 3, "Fig", "Figure")], id="x")
        >>> Finding.from_json(f.to_json()) == f
        True
        """
        places = [Place(**p) for p in data.get("places", ())]
        return cls(kind=data["kind"], severity=data["severity"], unit=data.get("unit"), message=data["message"],
                   evidence=data.get("evidence", ""), related=list(data.get("related", ())),
                   start=data.get("start"), end=data.get("end"), suggestion=data.get("suggestion"),
                   places=places, rule=data.get("rule"), id=data.get("id"))

    def to_json(self) -> dict[str, Any]:
        """The finding as JSON; ``code`` repeats ``kind`` for the API's Finding shape (ROUTES.md)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "code": self.kind,
            "severity": self.severity,
            "unit": self.unit,
            "message": self.message,
            "evidence": self.evidence,
            "related": list(self.related),
        }
        if self.start is not None:
            out["start"], out["end"] = self.start, self.end
        if self.suggestion is not None:
            out["suggestion"] = self.suggestion
        if self.id is not None:
            out["id"] = self.id
        if self.rule is not None:
            out["rule"] = self.rule
        if self.places:
            out["places"] = [p.to_json() for p in self.places]
            out["fixable"] = self.fixable
        return out


def count_by_severity(findings: Iterable[Finding]) -> dict[str, int]:
    """``{"error": n, "warning": n, "info": n}``."""
    c = Counter(f.severity for f in findings)
    return {s: c.get(s, 0) for s in SEVERITIES}


def sort_findings(findings: Iterable[Finding], order: dict[str, int] | None = None) -> list[Finding]:
    """Most severe first, then by unit position (``order``: unit id -> position), then span."""
    order = order or {}
    rank = {s: i for i, s in enumerate(SEVERITIES)}
    return sorted(
        findings,
        key=lambda f: (rank[f.severity], order.get(f.unit or "", -1), f.start or 0, f.kind, f.message),
    )
