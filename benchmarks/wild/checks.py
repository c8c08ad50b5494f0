"""``ledger check`` on a wild document: findings per kind, the judged sample's verdicts on today's
findings, and which seeded defects the checks find.

A judged sample (``benchmarks/wild/judged/<stem>.json``, kept by whoever judges the checks:
``benchmarks.check_sample``) holds verdicts on findings named by ``(code, unit, evidence)``. Today's
findings are matched by that key: false alarms are counted among the judged findings still
reported; today's findings no verdict names are unjudged.

A seeded defect is found when a finding that the unseeded document does not have (by code,
evidence and the unit's text) is about one of the seed's paragraphs, and is of a kind that
reports a defect (terminology and house-style kinds do not).
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Sequence

__all__ = ["JUDGED", "STYLE_KINDS", "judged_sample", "match_judged", "findings_of", "seeded_found"]

JUDGED = Path(__file__).with_name("judged")

#: Kinds that report wording, not a broken reference or numbering: no seeded defect is found by them.
STYLE_KINDS = frozenset({
    "old_term", "old_term_kept", "expansion_mismatch", "same_value", "semantic_drift", "undefined_acronym",
    "acronym_redefined", "acronym_defined_twice", "acronym_before_definition", "variant_spelling", "acronym_unused",
    "acronym_case", "phrase_capitalisation", "spelling_variety", "number_style", "percent_style",
    "thousands_separator", "unit_spacing", "list_punctuation", "list_capitalisation", "caption_style",
    "heading_case", "quote_style", "dash_style", "style_term", "banned_term", "style_abbreviation", "dangling_anaphor",
})


def judged_sample(document: str, folder: Path = JUDGED) -> dict[str, Any] | None:
    """The judged sample of the document named ``document`` (its file name), or ``None``; where
    ``folder`` has none, the one in its ``baseline/`` (marked ``"baseline": true``)."""
    for where, baseline in ((folder, False), (folder / "baseline", True)):
        for p in sorted(where.glob("*.json")):
            try:
                data = json.loads(p.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if data.get("document") == document:
                return {**data, "baseline": baseline}
    return None


def _key(f: dict[str, Any]) -> tuple[str, str, str]:
    return (f.get("code") or f.get("kind") or "", f.get("unit") or "", f.get("evidence") or "")


def match_judged(sample: dict[str, Any] | None, findings: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The sample's verdicts on today's ``findings``: ``judged`` (verdicts), ``current`` (judged
    findings still reported), ``false``/``debatable``/``true`` among those, ``false_share``
    (false / current), ``unjudged`` (today's findings no verdict names) of ``findings``.

    >>> s = {"verdicts": [{"code": "a", "unit": "u1", "evidence": "x", "verdict": "false"},
    ...                   {"code": "a", "unit": "u2", "evidence": "y", "verdict": "true"},
    ...                   {"code": "b", "unit": "u3", "evidence": "z", "verdict": "false"}]}
    >>> r = match_judged(s, [{"code": "a", "unit": "u1", "evidence": "x"}, {"code": "a", "unit": "u2", "evidence": "y"},
    ...                      {"code": "c", "unit": "u4", "evidence": "w"}])
    >>> (r["judged"], r["current"], r["false"], r["false_share"], r["unjudged"], r["findings"])
    (3, 2, 1, 0.5, 1, 3)
    """
    verdicts = {_key(v): v.get("verdict", "") for v in (sample or {}).get("verdicts", [])}
    today = Counter(_key(f) for f in findings)
    current = {k: v for k, v in verdicts.items() if k in today}
    counts = Counter(current.values())
    return {"judged": len(verdicts), "current": len(current), "true": counts["true"], "debatable": counts["debatable"],
            "false": counts["false"], "false_share": (counts["false"] / len(current)) if current else None,
            "unjudged": sum(n for k, n in today.items() if k not in verdicts), "findings": len(findings),
            "seed": (sample or {}).get("seed"), "sampled_total": (sample or {}).get("findings_total"),
            "baseline": bool((sample or {}).get("baseline"))}


def findings_of(path: str | Path) -> tuple[Any, list[dict[str, Any]]]:
    """The document and ``ledger check``'s findings on it (the service the command line calls)."""
    from adapters import read_path
    from addin_backend.service.checks import check_report

    doc = read_path(str(path))
    return doc, check_report(doc)["findings"]


def _norm(text: str) -> str:
    return " ".join(text.split())


def seeded_found(base: tuple[Any, list[dict[str, Any]]], seeded: tuple[Any, list[dict[str, Any]]],
                 paragraphs: Sequence[str]) -> list[dict[str, Any]]:
    """The new defect findings of the seeded copy about one of ``paragraphs`` (their texts)."""
    base_doc, base_findings = base
    doc, findings = seeded

    def text_of(d: Any, uid: str | None) -> str:
        try:
            return _norm(d.unit(uid).text) if uid else ""
        except Exception:
            return ""

    old = {(f["code"], f.get("evidence") or "", text_of(base_doc, f.get("unit"))) for f in base_findings}
    wanted = [_norm(p) for p in paragraphs if _norm(p)]
    out = []
    for f in findings:
        if f["code"] in STYLE_KINDS:
            continue
        text = text_of(doc, f.get("unit"))
        if (f["code"], f.get("evidence") or "", text) in old:
            continue
        units = [text] + [text_of(doc, r) for r in f.get("related") or ()]
        if any(w and (w in t or t in w) and t for w in wanted for t in units):
            out.append({"code": f["code"], "evidence": f.get("evidence"), "message": f.get("message", "")[:160]})
    return out
