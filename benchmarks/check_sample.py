"""Judged samples of ``ledger check`` findings: draw, show and score them.

An editor trusts a check when few of its findings are false alarms. No file says which findings
are right, so a person reads a seeded random sample of them, in context, and writes a verdict
for each (``true``: worth acting on; ``debatable``; ``false``: a false alarm) with a reason. The
samples live in ``benchmarks/wild/judged/`` (the baseline in ``baseline/``), one JSON file per
document::

    {"document": NAME, "seed": N, "findings_total": N,
     "verdicts": [{"code", "unit", "evidence", "message", "verdict", "reason"}, ...]}

``make bench-wild`` reads them and matches findings by ``(code, unit, evidence)``.

Commands::

    python -m benchmarks.check_sample draw FILE --seed 7 [--size 30] -o SAMPLE.json
        the sample with empty verdicts, and each finding's context on stdout to read
    python -m benchmarks.check_sample judge SAMPLE.json VERDICTS.json
        fills verdicts from ``{"<code>|<evidence>|<context words>": [verdict, reason]}`` entries
    python -m benchmarks.check_sample score DIR
        per document: judged, true, debatable, false, the false share; and the still-current share
        (how many of the judged findings ``ledger check`` still reports)
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

__all__ = ["draw", "context", "score", "main"]

VERDICTS = ("true", "debatable", "false")


def _findings(path: Path) -> tuple[Any, list[dict[str, Any]]]:
    from adapters import read_path
    from addin_backend.service.checks import check_report

    doc = read_path(str(path))
    return doc, check_report(doc)["findings"]


def context(doc: Any, f: dict[str, Any], width: int = 90) -> str:
    """The text around a finding's place, on one line."""
    try:
        text = doc.unit(f["unit"]).text
    except Exception:  # a finding on a unit the reader no longer has
        return ""
    s = f.get("start") or 0
    e = f.get("end") or s
    if not e and f.get("places"):
        p = f["places"][0]
        if p.get("unit") == f["unit"]:
            s, e = p.get("start", 0), p.get("end", 0)
    return text[max(0, s - width):e + width].replace("\n", " ")


def draw(path: Path, seed: int, size: int = 30) -> tuple[dict[str, Any], list[str]]:
    """A seeded random sample of ``path``'s findings (all of them if fewer), in document order,
    with empty verdicts; and each one's context."""
    doc, findings = _findings(path)
    picked = sorted(random.Random(seed).sample(range(len(findings)), min(size, len(findings))))
    verdicts, contexts = [], []
    for i in picked:
        f = findings[i]
        verdicts.append({"code": f["code"], "unit": f["unit"], "evidence": f["evidence"], "message": f["message"],
                         "verdict": "", "reason": ""})
        contexts.append(context(doc, f))
    return {"document": path.name, "seed": seed, "findings_total": len(findings), "verdicts": verdicts}, contexts


def score(folder: Path, devset: Path | None = None) -> list[dict[str, Any]]:
    """Per judged document: counts of each verdict and the share of false alarms; with
    ``devset``, also how many judged findings the checks still report."""
    rows = []
    for p in sorted(folder.glob("*.json")):
        data = json.loads(p.read_text())
        v = [x["verdict"] for x in data["verdicts"]]
        row: dict[str, Any] = {"document": data["document"], "findings": data["findings_total"], "judged": len(v)}
        row.update({k: v.count(k) for k in VERDICTS})
        row["false_share"] = round(row["false"] / len(v), 3) if v else 0.0
        if devset is not None and (devset / data["document"]).exists():
            _doc, now = _findings(devset / data["document"])
            keys = {(f["code"], f["unit"], f["evidence"]) for f in now}
            row["still_reported"] = sum((x["code"], x["unit"], x["evidence"]) in keys for x in data["verdicts"])
        rows.append(row)
    return rows


def _key_words(ctx: str) -> str:
    return " ".join(ctx.split())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.check_sample", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    d.add_argument("file", type=Path)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--size", type=int, default=30)
    d.add_argument("-o", "--output", type=Path, required=True)
    j = sub.add_parser("judge")
    j.add_argument("sample", type=Path)
    j.add_argument("verdicts", type=Path)
    j.add_argument("--file", type=Path, help="the document, to match verdicts by context")
    s = sub.add_parser("score")
    s.add_argument("folder", type=Path)
    s.add_argument("--devset", type=Path)
    a = ap.parse_args(argv)
    if a.cmd == "draw":
        sample, contexts = draw(a.file, a.seed, a.size)
        a.output.write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n")
        for i, (v, c) in enumerate(zip(sample["verdicts"], contexts)):
            print(f"{i:2d} [{v['code']}] {v['unit']} ev={v['evidence']!r}\n   {v['message'][:220]}\n   ...{c}...")
        print(f"{len(sample['verdicts'])} of {sample['findings_total']} findings", file=sys.stderr)
        return 0
    if a.cmd == "judge":
        sample = json.loads(a.sample.read_text())
        table = json.loads(a.verdicts.read_text())
        missing = 0
        for i, v in enumerate(sample["verdicts"]):
            hit = table.get(str(i)) or table.get(f"{v['code']}|{v['evidence']}|{v['unit']}") \
                or table.get(f"{v['code']}|{v['evidence']}")
            if hit:
                v["verdict"], v["reason"] = hit
            elif not v["verdict"]:
                missing += 1
                print(f"no verdict for {i}: {v['code']}|{v['evidence']}|{v['unit']}", file=sys.stderr)
        bad = [v for v in sample["verdicts"] if v["verdict"] and v["verdict"] not in VERDICTS]
        if bad:
            raise SystemExit(f"unknown verdicts: {bad}")
        a.sample.write_text(json.dumps(sample, indent=1, ensure_ascii=False) + "\n")
        return 1 if missing else 0
    rows = score(a.folder, a.devset)
    cols = ["document", "findings", "judged", "true", "debatable", "false", "false_share"] + \
        (["still_reported"] if a.devset else [])
    print(" | ".join(cols))
    for r in rows:
        print(" | ".join(str(r.get(c, "")) for c in cols))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
