"""Each written edit judged by what LibreOffice shows, not by LEDGER's model.

For an output and its original (both read by :mod:`.uno_wild`), the checks, each ``None`` when it
holds and else why not:

- ``opens``: LibreOffice opens the output;
- ``reject``: after Reject All, the paragraphs and the headers and footers are the original's
  after Reject All (an original may hold tracked changes of its own; and page fields in headers
  and footers show numbers only where LibreOffice lays the document out, as it does for both);
- ``identifiers``: after Accept All, every identifier of the original after Accept All
  (:mod:`.identifiers`) is still in its paragraph (renames, fixes and section edits; a replay
  writes the editors' text);
- ``headings``: every original heading that is still there after Accept All is still a heading at
  its outline level;
- ``fields``: every number the edit renumbered shows in LibreOffice as an inserted change with that
  number, and after Accept All no reference field shows another number than LibreOffice computes
  for its target (beyond those the original already had);
- ``terms`` (renames): every form of the old term left after Accept All is reported
  (``edit_bench``'s own listing of forms, as the edit battery judges);
- ``refs`` (section edits): every "Section N" the accepted text cites exists, but those the
  original already missed and those the edit reported;
- ``members``: every package member the writer has no reason to touch is byte-identical (the
  custom properties that carry LEDGER's review record, headers and footers may change);
- ``written``, ``consequences`` (replays): the editors' own changes are in the accepted text, and
  so is what they changed besides (a table's rows, a footer), as in the newer snapshot.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from benchmarks import edit_bench as eb

from .identifiers import changed_identifiers, pair_paragraphs
from .replay import consequence_score

__all__ = ["ORIGINAL_OPS", "OUTPUT_OPS", "judge_case", "lost_headings", "field_check"]

ORIGINAL_OPS = ("code", "margins", "fields", "accepted.outline", "rejected.texts", "rejected.margins")
#: Members an edit writes on purpose besides the body: LEDGER's review record (custom document
#: properties) and the headers and footers, which are units edits reach.
_RECORD = re.compile(r"^docProps/custom\.xml$|^word/(?:header|footer)\d*\.xml$")
OUTPUT_OPS = ("redlines", "accepted.outline", "accepted.margins", "accepted.fields",
              "rejected.texts", "rejected.margins")


def _norm(text: str) -> str:
    return " ".join(text.split())


def lost_headings(before: list[dict], after: list[dict]) -> list[str]:
    """Original headings (outline level > 0) whose paired paragraph after Accept All is at
    another outline level: "text (level a -> b)".

    >>> lost_headings([{"text": "Intro", "outline": 1}, {"text": "Body"}, {"text": "Next", "outline": 2}],
    ...               [{"text": "Intro", "outline": 1}, {"text": "Next", "outline": 0}])
    ['Next (level 2 -> 0)']
    """
    out = []
    for i, j in pair_paragraphs([p["text"] for p in before], [p["text"] for p in after]):
        a, b = before[i].get("outline") or 0, after[j].get("outline") or 0
        if a and a != b and not before[i].get("toc"):
            out.append(f"{_norm(before[i]['text'])[:50]} (level {a} -> {b})")
    return out


def field_check(renumbered: list[dict], redlines: list[dict], original_fields: list[dict],
                accepted_fields: list[dict]) -> tuple[dict[str, int], str | None]:
    """Renumbered numbers shown as inserted changes, and reference fields that show another number
    than LibreOffice computes after Accept All (``wrong``, beyond the original's own).

    >>> field_check([{"old": "4.1", "new": "5.1"}], [{"type": "Delete", "text": "4.1"}, {"type": "Insert", "text": "5.1"}],
    ...             [], [{"cached": "5.1", "shown": "5.1"}])
    ({'renumbered': 1, 'shown': 1, 'wrong': 0}, None)
    """
    want = Counter(_norm(r.get("new") or "") for r in renumbered)
    got = Counter(_norm(r.get("text") or "") for r in redlines if r.get("type") == "Insert")
    shown = sum(min(n, got[k]) for k, n in want.items())
    stale = lambda fs: sum(1 for f in fs if _norm(f.get("cached") or "") != _norm(f.get("shown") or ""))  # noqa: E731
    wrong = max(0, stale(accepted_fields) - stale(original_fields))
    counts = {"renumbered": sum(want.values()), "shown": shown, "wrong": wrong}
    why = []
    if shown < counts["renumbered"]:
        why.append(f"{counts['renumbered']} renumbered, {shown} shown as a change")
    if wrong:
        examples = [f"{f.get('cached')!r} for {f.get('shown')!r}" for f in accepted_fields
                    if _norm(f.get("cached") or "") != _norm(f.get("shown") or "")][:3]
        why.append(f"{wrong} field(s) show another number after Accept All ({', '.join(examples)})")
    return counts, "; ".join(why) or None


def _replay(case: Any, orig: dict, got: dict, newer: dict | None) -> dict[str, str | None]:
    checks: dict[str, str | None] = {}
    acc = got.get("accepted", {})
    acc_texts = Counter(_norm(p["text"]) for p in acc.get("outline", []))
    orig_texts = Counter(_norm(p["text"]) for p in orig.get("paragraphs", []))
    rp = case.result.get("replay", {})
    ok = 0
    missing = []
    # a paragraph the editors moved is a deletion and an insertion of the same text: the deletion
    # is there when the accepted text holds fewer copies than the original and the insertions give
    inserted = Counter(_norm(line) for w in rp.get("written", []) if w["op"] != "delete"
                       for line in (w.get("new") or "").split("\n") if _norm(line))
    for w in rp.get("written", []):
        if w["op"] == "delete":
            hit = acc_texts[_norm(w["old"])] < orig_texts[_norm(w["old"])] + inserted[_norm(w["old"])]
        else:
            hit = all(acc_texts[_norm(line)] > 0 for line in w["new"].split("\n") if _norm(line))
        ok += hit
        if not hit and len(missing) < 3:
            missing.append(_norm(w.get("new") or w.get("old") or "")[:50])
    n = len(rp.get("written", []))
    case.result["written"] = [ok, n]
    checks["written"] = None if ok == n else f"{n - ok} of {n} changes not in the accepted text: {missing}"
    done = expected = 0
    why = []
    if newer is not None:
        changed: dict[tuple[str, str], list[str]] = {}  # one change per text, however many page styles repeat it
        for key, text in newer.get("margins", {}).items():
            before = _norm(orig.get("margins", {}).get(key, ""))
            if before != _norm(text):
                changed.setdefault((before, _norm(text)), []).append(key)
        for (_before, text), keys in changed.items():
            expected += 1
            hit = all(_norm(acc.get("margins", {}).get(k, "")) == text for k in keys)
            done += hit
            if not hit:
                why.append(f"{keys[0]}: {text[:60]!r}")
        for t in rp.get("tables", []):
            old_ord, new_ord = t.get("old_table"), t.get("new_table")
            if old_ord is None or new_ord is None:
                continue
            before = [p["text"] for p in orig.get("paragraphs", []) if p.get("table") == old_ord]
            after = [p["text"] for p in newer.get("paragraphs", []) if p.get("table") == new_ord]
            have = [p["text"] for p in acc.get("outline", []) if p.get("table") == old_ord]
            k, m = consequence_score(before, after, have)
            done, expected = done + k, expected + m
            if k < m:
                why.append(f"table {old_ord}: {m - k} of {m} row changes not made")
    case.result["consequences"] = [done, expected]
    prop_units = set(case.result.get("propagated_units", []))
    on_tables = {t.get("old") for t in rp.get("tables", [])}
    case.result["propagated_on_consequences"] = len(prop_units & on_tables)
    checks["consequences"] = None if done == expected else "; ".join(why[:3])
    return checks


def _margins(view: dict) -> dict[str, str]:
    return {k: _norm(v) for k, v in view.get("margins", {}).items()}


def judge_case(case: Any, orig: dict, got: dict, newer: dict | None = None) -> None:
    """Set ``case.result["checks"]`` and ``["ok"]`` from LibreOffice's view of the original
    (``orig``: paragraphs with code spans, margins, fields) and of the output (``got``)."""
    checks: dict[str, str | None] = {}
    if "error" in case.result:
        case.result.update(checks={"edit": case.result["error"]}, ok=False)
        return
    if "error" in got:
        case.result.update(checks={"opens": got["error"]}, ok=False)
        return
    checks["opens"] = None
    paras = orig.get("paragraphs", [])
    acc = got.get("accepted", {})
    rej = got.get("rejected", {})
    base_rej = orig.get("rejected", {})
    want = [p["text"].rstrip() for p in base_rej.get("texts", paras)]
    rejected = [p["text"].rstrip() for p in rej.get("texts", [])]
    if want != rejected:
        first = next((i for i, (a, b) in enumerate(zip(rejected, want)) if a != b), min(len(rejected), len(want)))
        seen = rejected[first] if first < len(rejected) else "<end>"
        checks["reject"] = f"paragraph {first} differs ({len(rejected)} vs {len(want)}): {_norm(seen)[:60]!r}"
    elif _margins(rej) != _margins(base_rej if "margins" in base_rej else orig):
        checks["reject"] = "headers or footers differ after Reject All"
    else:
        checks["reject"] = None
    # what the edit started from, as a reader sees it: the original after Accept All (its own
    # tracked changes accepted); its code spans where that is the text as loaded
    before, code = paras, orig.get("code", [])
    base_acc = orig.get("accepted", {}).get("outline")
    if base_acc is not None and [p["text"] for p in base_acc] != [p["text"] for p in paras]:
        before, code = base_acc, []
    accepted = acc.get("outline", [])
    if case.kind != "replay":
        changed = changed_identifiers(before, code, accepted)
        case.result["identifiers_changed"] = changed[:10]
        checks["identifiers"] = f"{len(changed)} changed: {'; '.join(changed[:3])}" if changed else None
    lost = lost_headings(before, accepted)
    checks["headings"] = f"{len(lost)} heading(s) no longer headings: {'; '.join(lost[:3])}" if lost else None
    counts, why = field_check(case.result.get("renumbered", []), got.get("redlines", []), orig.get("fields", []),
                              acc.get("fields", []))
    case.result["fields"] = counts
    if counts["renumbered"] or counts["wrong"]:
        checks["fields"] = why
    findings = case.result.get("findings", [])
    if case.kind.startswith("rename"):
        rx = eb.old_forms(case.old)
        # a table of contents is regenerated by Word and LibreOffice, never edited (README)
        left = [m.group() for p in accepted if not p.get("toc") and not eb._CODE_STYLE.search(p.get("style") or "")
                for m in rx.finditer(p["text"])]
        reported = eb.reported_places(findings)
        case.result["left"], case.result["reported"] = len(left), reported
        checks["terms"] = (f"{len(left)} form(s) left, {reported} reported: {', '.join(sorted(set(left))[:4])}"
                           if len(left) > reported else None)
    if case.kind in ("delete_section", "insert_section"):
        missing = eb._refs(accepted) - eb._refs(before)
        reported = sum(1 for f in findings if f.get("kind") in eb._REF_KINDS)
        checks["refs"] = (f"{len(missing)} citation(s) of missing sections, {reported} reported: {', '.join(sorted(missing)[:4])}"
                          if len(missing) > reported else None)
    changed_members = [m for m in eb._members(case.path, case.result["output"]) if not _RECORD.match(m)]
    checks["members"] = f"changed: {', '.join(changed_members[:4])}" if changed_members else None
    if case.kind == "replay":
        checks.update(_replay(case, orig, got, newer))
    case.result["checks"] = checks
    case.result["ok"] = all(v is None for v in checks.values())
