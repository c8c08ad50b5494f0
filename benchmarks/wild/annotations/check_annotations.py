"""Check the blind DEPENDS annotation of the wild set (``depends.json`` beside this file) against
the documents themselves, so that a wrong index or a retyped anaphor cannot pass unnoticed.

    python -m benchmarks.wild.annotations.check_annotations [--wild DIR] [--file depends.json]

What it checks, per case and per negative (python-docx ``Document(path).paragraphs``, the devset's
``para_index``): the keys and the kind; every index inside the document and before the dependent
paragraph (backward, cross-paragraph); the anaphor an exact substring of the paragraph's text; the
stored snippets equal to the first 120 characters of the paragraphs they name; no duplicate case
(same document, paragraph and antecedent) or negative (same paragraph and span); no negative whose
naive antecedent is a correct target of a case on the same paragraph (it would be a hit and a false
link at once). Prints the counts per document and kind; exits 1 on any error.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from docx import Document

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
DEFAULT_WILD = Path(os.environ.get("LEDGER_DEVSET", ROOT.parent / "shared" / "devset")) / "wild"
KINDS = ("anaphora", "definition", "acronym")
CASE_KEYS = {"doc", "para_index", "kind", "anaphor", "antecedent_para_index", "text", "antecedent_text", "note"}
NEG_KEYS = {"doc", "para_index", "anaphor", "naive_antecedent_para_index", "text", "naive_antecedent_text", "note"}
SNIPPET = 120


def _texts(wild: Path, doc: str, cache: dict[str, list[str]]) -> list[str]:
    """The paragraphs' visible text of ``wild/doc.docx``, read once."""
    if doc not in cache:
        cache[doc] = [p.text for p in Document(str(wild / f"{doc}.docx")).paragraphs]
    return cache[doc]


def _index(value: Any, n: int, below: int | None, what: str, errors: list[str]) -> bool:
    """True when ``value`` is a paragraph index of the document (and before ``below``)."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        errors.append(f"{what}: {value!r} is not a paragraph index (0..{n - 1})")
        return False
    if below is not None and value >= below:
        errors.append(f"{what}: {value} is not before the dependent paragraph {below}")
        return False
    return True


def check(data: dict[str, Any], wild: Path) -> tuple[list[str], Counter[tuple[str, str]]]:
    """Every problem found in ``data`` (empty when it is sound) and the counts per (doc, kind)."""
    errors: list[str] = []
    if set(data) != {"definition", "source", "cases", "negatives"}:
        errors.append(f"top-level keys are {sorted(data)}, not definition/source/cases/negatives")
        return errors, Counter()
    cache: dict[str, list[str]] = {}
    counts: Counter[tuple[str, str]] = Counter()
    targets: dict[tuple[str, int], set[int]] = {}
    seen: set[tuple[str, int, int]] = set()
    for k, case in enumerate(data["cases"]):
        where = f"case {k} ({case.get('doc')} {case.get('para_index')})"
        keys = set(case) - {"acceptable_antecedents"}
        if keys != CASE_KEYS:
            errors.append(f"{where}: keys {sorted(set(case))}")
            continue
        if case["kind"] not in KINDS:
            errors.append(f"{where}: kind {case['kind']!r}")
        texts = _texts(wild, case["doc"], cache)
        i = case["para_index"]
        if not _index(i, len(texts), None, f"{where} para_index", errors):
            continue
        j = case["antecedent_para_index"]
        ok = _index(j, len(texts), i, f"{where} antecedent", errors)
        acceptable = case.get("acceptable_antecedents", [])
        if "acceptable_antecedents" in case and (not acceptable or acceptable != sorted(set(acceptable))):
            errors.append(f"{where}: acceptable_antecedents must be a non-empty sorted list without repeats")
        for a in acceptable:
            _index(a, len(texts), i, f"{where} acceptable antecedent", errors)
            if a == j:
                errors.append(f"{where}: acceptable antecedent {a} repeats the antecedent")
        if case["anaphor"] not in texts[i]:
            errors.append(f"{where}: anaphor {case['anaphor']!r} is not in the paragraph's text")
        if case["text"] != texts[i][:SNIPPET]:
            errors.append(f"{where}: text is not the paragraph's first {SNIPPET} characters")
        if ok and case["antecedent_text"] != texts[j][:SNIPPET]:
            errors.append(f"{where}: antecedent_text is not paragraph {j}'s first {SNIPPET} characters")
        key = (case["doc"], i, j)
        if key in seen:
            errors.append(f"{where}: duplicate case (same paragraph and antecedent)")
        seen.add(key)
        targets.setdefault((case["doc"], i), set()).update([j, *acceptable])
        counts[(case["doc"], case["kind"])] += 1
    seen_neg: set[tuple[str, int, str]] = set()
    for k, neg in enumerate(data["negatives"]):
        where = f"negative {k} ({neg.get('doc')} {neg.get('para_index')})"
        if set(neg) != NEG_KEYS:
            errors.append(f"{where}: keys {sorted(neg)}")
            continue
        texts = _texts(wild, neg["doc"], cache)
        i, j = neg["para_index"], neg["naive_antecedent_para_index"]
        if not _index(i, len(texts), None, f"{where} para_index", errors):
            continue
        ok = _index(j, len(texts), i, f"{where} naive antecedent", errors)
        if neg["anaphor"] not in texts[i]:
            errors.append(f"{where}: anaphor {neg['anaphor']!r} is not in the paragraph's text")
        if neg["text"] != texts[i][:SNIPPET]:
            errors.append(f"{where}: text is not the paragraph's first {SNIPPET} characters")
        if ok and neg["naive_antecedent_text"] != texts[j][:SNIPPET]:
            errors.append(f"{where}: naive_antecedent_text is not paragraph {j}'s first {SNIPPET} characters")
        if j in targets.get((neg["doc"], i), set()):
            errors.append(f"{where}: naive antecedent {j} is also a correct target of a case on paragraph {i}")
        key = (neg["doc"], i, neg["anaphor"])
        if key in seen_neg:
            errors.append(f"{where}: duplicate negative")
        seen_neg.add(key)
        counts[(neg["doc"], "negative")] += 1
    return errors, counts


def main(argv: list[str] | None = None) -> int:
    """Check the file, print the counts, and say what is wrong."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wild", type=Path, default=DEFAULT_WILD, help="the wild set (devset/wild)")
    ap.add_argument("--file", type=Path, default=HERE / "depends.json", help="the annotation to check")
    args = ap.parse_args(argv)
    data = json.loads(args.file.read_text(encoding="utf-8"))
    errors, counts = check(data, args.wild)
    for doc in sorted({d for d, _ in counts}):
        row = ", ".join(f"{kind} {counts[(doc, kind)]}" for kind in (*KINDS, "negative"))
        print(f"{doc}: {row}")
    for e in errors:
        print("ERROR", e, file=sys.stderr)
    print(f"{len(data.get('cases', []))} cases, {len(data.get('negatives', []))} negatives, {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
