"""House style: the consistency checks an editor relies on, each a finding kind with evidence, a
severity and every place it occurs (:class:`~addin_backend.findings.Place`, with the text a fix
writes there).

- :mod:`.hyphenation`: :func:`~.hyphenation.variant_findings` (hyphenation and
  spacing variants against the document's majority and a word list, per language);
- :mod:`.capitals`: a phrase capitalised mid-sentence where the document writes it in lower
  case, defined terms excepted;
- abbreviations: :func:`addin_backend.checks.terminology.acronym_findings`, with :mod:`.abbreviations`
  (what a reader needs no expansion for: designations, names, explanations);
- :mod:`.spelling`: US against UK spelling, chosen by the language tag or the style sheet;
- :mod:`.numbers`: digits against words in one role, "10 percent" / "10%", thousands
  separators, units with and without a space;
- :mod:`.lists`: list items ending in different punctuation or starting in different case;
- :mod:`.headings`: caption label styles, title against sentence case per heading level;
- :mod:`.punctuation`: straight against curly quotes, hyphens used as dashes;
- :mod:`.sheet` and :mod:`.terms`: the house style sheet and its terms, banned terms and
  preferred abbreviations.

:func:`style_findings` runs them all; ``exceptions`` of the sheet silence words and kinds.
"""
from __future__ import annotations

from adapters.model import Document

from ...budget import check as check_budget
from ...findings import Finding
from .prose import Prose, prose
from .sheet import StyleSheet, StyleSheetError, load_style, parse_style, style_from_env

__all__ = ["style_findings", "StyleSheet", "StyleSheetError", "load_style", "parse_style", "style_from_env",
           "STYLE_CHECKS", "apply_exceptions"]


def _checks():
    from .capitals import capitalisation_findings
    from .headings import caption_findings, heading_findings
    from .lists import list_findings
    from .numbers import number_findings
    from .punctuation import dash_findings, quote_findings
    from .spelling import spelling_findings
    from .terms import sheet_findings

    return (sheet_findings, capitalisation_findings, spelling_findings, number_findings, list_findings,
            caption_findings, heading_findings, quote_findings, dash_findings)


#: The names of the checks :func:`style_findings` runs, in order.
STYLE_CHECKS = ("terms", "capitals", "spelling", "numbers", "lists", "captions", "headings", "quotes", "dashes")


def apply_exceptions(findings: list[Finding], sheet: StyleSheet) -> list[Finding]:
    """The findings the sheet does not silence (a kind switched off, an excepted word)."""
    if not sheet.disabled and not sheet.exception_words:
        return findings
    out = []
    for f in findings:
        if not sheet.enabled(f.kind) or sheet.excepted(f.evidence):
            continue
        if f.places and sheet.exception_words:
            keep = [pl for pl in f.places if not sheet.excepted(pl.text)]
            if not keep:
                continue
            f.places = keep
        out.append(f)
    return out


def style_findings(doc: Document, sheet: StyleSheet | None = None) -> list[Finding]:
    """Every house-style finding of ``doc`` (in no particular order; ``check_document`` sorts)."""
    sheet = sheet or StyleSheet()
    p: Prose = prose(doc)
    out: list[Finding] = []
    for check in _checks():
        check_budget()  # the request's (or job's) budget: a check runs whole, then the next one asks
        out.extend(check(p, sheet))
    return apply_exceptions(out, sheet)
