"""Ground truth for the graph benchmark: load it, align a reader's units with it, score edges.

:func:`align` maps the truth keys of a synthetic document onto the unit ids that a reader
produced for the .docx or .odt; :func:`score_edges` compares predicted graph edges with the
truth edges through that mapping. The truth schema is documented in ``benchmarks/README.md``.
"""
from __future__ import annotations

import json
import re
import unicodedata
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, Iterable

from adapters.vocabulary import EDGE_TYPES

__all__ = ["EDGE_TYPES", "Alignment", "align", "load", "normalise", "score_edges"]

_SPACE = re.compile(r"\s+")
_WINDOW = 40  # how far the second pass looks ahead inside an unmatched stretch


def load(path: str | Path) -> dict:
    """Read a ``<name>.truth.json`` file."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def normalise(text: str | None) -> str:
    """NFC, every run of whitespace (tabs, newlines, no-break spaces) as one space, stripped.

    >>> normalise("  Figure\\u00a03:\\tThroughput\\n")
    'Figure 3: Throughput'
    """
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text or "")).strip()


def _loose(text: str) -> str:
    return _SPACE.sub("", unicodedata.normalize("NFC", text or ""))


class Alignment(dict):
    """``{truth key: unit id}`` plus what could not be aligned.

    ``missing``: truth keys with no unit; ``extra``: unit ids with no truth key;
    ``approximate``: truth keys aligned by label, near-equal text or position, not exact text.
    """

    def __init__(self) -> None:
        super().__init__()
        self.missing: list[str] = []
        self.extra: list[str] = []
        self.approximate: list[str] = []

    def summary(self) -> str:
        return (f"aligned {len(self)} units ({len(self.approximate)} approximately); "
                f"{len(self.missing)} truth units unmatched, {len(self.extra)} reader units unmatched")


def _close(t: dict, u: Any, same_kind: bool) -> bool:
    """Whether truth unit ``t`` and reader unit ``u`` are the same unit with different text."""
    a, b = _loose(t["text"]), _loose(u.text)
    if a and a == b:
        return True
    if not same_kind:
        return False
    if t.get("label") and getattr(u, "label", None) == t["label"]:
        return True
    if a and b and SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.85:
        return True
    return False


def align(document: Any, truth: dict) -> Alignment:
    """Map truth keys onto the units of ``document`` (an ``adapters.model.Document``).

    Units are compared by kind and whitespace-normalised text, in order (a diff over the two
    sequences, so a few extra or missing units do not shift the rest). Stretches that do not
    match exactly are paired by label, by near-equal text, by equal text under another kind,
    and finally by position when both sides hold the same number of units of a kind.
    """
    tunits = truth["units"]
    dunits = list(document.units)
    a = [(t["kind"], normalise(t["text"])) for t in tunits]
    b = [(u.kind, normalise(u.text)) for u in dunits]
    out = Alignment()
    used: set[int] = set()
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                out[tunits[i1 + k]["key"]] = dunits[j1 + k].id
                used.add(j1 + k)
            continue
        _pair_stretch(tunits[i1:i2], dunits[j1:j2], j1, out, used)
    out.missing = [t["key"] for t in tunits if t["key"] not in out]
    out.extra = [u.id for j, u in enumerate(dunits) if j not in used]
    return out


def _pair_stretch(ts: list[dict], us: list[Any], offset: int, out: Alignment, used: set[int]) -> None:
    """Second pass over an unmatched stretch: label / near text / other kind, then position."""
    j = 0
    for t in ts:
        for same_kind in (True, False):
            hit = next((k for k in range(j, min(len(us), j + _WINDOW))
                        if offset + k not in used and (us[k].kind == t["kind"]) == same_kind
                        and _close(t, us[k], same_kind)), None)
            if hit is not None:
                out[t["key"]] = us[hit].id
                out.approximate.append(t["key"])
                used.add(offset + hit)
                j = hit + 1
                break
    left_t = [t for t in ts if t["key"] not in out]
    left_u = [(k, u) for k, u in enumerate(us) if offset + k not in used]
    for kind in {t["kind"] for t in left_t}:
        tk = [t for t in left_t if t["kind"] == kind]
        uk = [(k, u) for k, u in left_u if u.kind == kind]
        if tk and len(tk) == len(uk):
            for t, (k, u) in zip(tk, uk):
                out[t["key"]] = u.id
                out.approximate.append(t["key"])
                used.add(offset + k)


def _predicted(predicted: Any) -> Iterable[tuple[str, str, str]]:
    """(source, target, TYPE) from a networkx graph, dicts, or tuples."""
    if hasattr(predicted, "edges") and callable(predicted.edges):
        if predicted.is_multigraph():
            for s, t, key, data in predicted.edges(keys=True, data=True):
                yield s, t, str(data.get("type") or key).upper()
        else:
            for s, t, data in predicted.edges(data=True):
                yield s, t, str(data.get("type", "")).upper()
        return
    for e in predicted:
        if isinstance(e, dict):
            yield e["source"], e["target"], str(e["type"]).upper()
        else:
            yield e[0], e[1], str(e[2]).upper()


def _pair(edge_type: str, s: str, t: str):
    return frozenset((s, t)) if edge_type == "RELATED" else (s, t)


def score_edges(predicted: Any, truth: dict, mapping: dict[str, str], examples: int = 10) -> dict[str, dict]:
    """Precision and recall of ``predicted`` edges per type, against the truth edges.

    ``predicted`` is a networkx (Multi)DiGraph over unit ids (edge type in the ``type``
    attribute or, for a multigraph, the key), or an iterable of ``{"source","target","type"}``
    dicts or ``(source, target, type)`` tuples. ``mapping`` is :func:`align`'s result.
    RELATED is undirected; the other types go citing/dependent -> cited/prerequisite.
    Edges touching a unit that is not aligned are left out on both sides and counted in
    ``unaligned`` (truth) and ``ignored`` (predicted). Precision/recall of an empty set is 1.0.

    Returns ``{type: {"precision", "recall", "f1", "tp", "fp", "fn", "misses", "spurious",
    "unaligned", "ignored", "by_how"}}``; ``misses`` are truth edges (keys, evidence, how) not
    predicted, ``spurious`` predicted edges (as truth keys) not in the truth, both cut at ``examples``.
    """
    key_of = {uid: key for key, uid in mapping.items()}
    truth_sets: dict[str, dict] = {t: {} for t in EDGE_TYPES}
    unaligned = dict.fromkeys(EDGE_TYPES, 0)
    for e in truth["edges"]:
        typ = e["type"]
        if e["source"] in mapping and e["target"] in mapping:
            truth_sets.setdefault(typ, {}).setdefault(_pair(typ, e["source"], e["target"]), e)
        else:
            unaligned[typ] = unaligned.get(typ, 0) + 1
    pred_sets: dict[str, set] = {t: set() for t in truth_sets}
    ignored = dict.fromkeys(truth_sets, 0)
    for s, t, typ in _predicted(predicted):
        if s in key_of and t in key_of:
            pred_sets.setdefault(typ, set()).add(_pair(typ, key_of[s], key_of[t]))
        else:
            ignored[typ] = ignored.get(typ, 0) + 1
    report: dict[str, dict] = {}
    for typ in sorted(set(truth_sets) | set(pred_sets), key=lambda x: (x not in EDGE_TYPES, x)):
        want, got = truth_sets.get(typ, {}), pred_sets.get(typ, set())
        tp = [p for p in want if p in got]
        fn = [want[p] for p in want if p not in got]
        fp = [p for p in got if p not in want]
        precision = len(tp) / (len(tp) + len(fp)) if tp or fp else 1.0
        recall = len(tp) / len(want) if want else 1.0
        by_how: dict[str, dict] = {}
        for p, e in want.items():
            h = by_how.setdefault(e["how"], {"tp": 0, "fn": 0})
            h["tp" if p in got else "fn"] += 1
        for h in by_how.values():
            h["recall"] = h["tp"] / (h["tp"] + h["fn"])
        report[typ] = {
            "precision": precision,
            "recall": recall,
            "f1": 2 * precision * recall / (precision + recall) if precision + recall else 0.0,
            "tp": len(tp),
            "fp": len(fp),
            "fn": len(fn),
            "misses": [{k: e[k] for k in ("source", "target", "evidence", "how")} for e in fn[:examples]],
            "spurious": [dict(zip(("source", "target"), sorted(p) if isinstance(p, frozenset) else p)) for p in fp[:examples]],
            "unaligned": unaligned.get(typ, 0),
            "ignored": ignored.get(typ, 0),
            "by_how": by_how,
        }
    return report
