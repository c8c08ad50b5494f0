"""REFERENCES against the package's own links (:mod:`benchmarks.wild.links`): precision and recall
of (citing unit, cited unit) pairs, and the links to targets that do not exist.

The package's paragraphs are aligned with LEDGER's units by text (a diff of the two sequences for
body paragraphs; a table's cell paragraphs go to the table unit that holds their text; a note's to the
note unit). The truth is every link from body text, a table cell, a note or a text box; links from
a table of contents or from headers and footers are counted apart. Recall counts truth pairs
LEDGER has an edge for (by any origin); precision counts LEDGER's edges that claim a field or link
as their origin (an edge a typed "Section 4.2" made is not in this truth: it is counted, not
judged). A reference to a caption may land on the figure or table it captions
(``real_bench._accepting_units``).
"""
from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from typing import Any

from benchmarks.real_bench import Alignment, Tally, _accepting_units

from .links import SCORED, Links

__all__ = ["align_links", "score_references"]

_NOT_BODY = ("table", "footnote", "endnote")

def _norm(text: str) -> str:
    return " ".join(text.split())


def align_links(units: list[Any], links: Links) -> Alignment:
    """Each paragraph of ``links`` -> the unit that holds it (``None``: no unit does).

    Body paragraphs and unit lines are matched as two sequences (a diff, so a paragraph LEDGER
    reads otherwise shifts nothing); lines that differ a little (a field shown otherwise) pair up
    inside a changed stretch of equal length."""
    paras = links.paragraphs
    al = Alignment([None] * len(paras))
    seq_p = [(p.index, _norm(p.text)) for p in paras if p.where in ("body", "toc", "frame") and _norm(p.text)]
    seq_u = [(u.id, _norm(line)) for u in units if u.kind not in _NOT_BODY for line in u.text.split("\n") if _norm(line)]
    sm = difflib.SequenceMatcher(None, [t for _, t in seq_u], [t for _, t in seq_p], autojunk=False)

    def pair(i: int, j: int) -> None:
        uid, idx = seq_u[i][0], seq_p[j][0]
        al.unit_of[idx] = uid
        al.paras_of.setdefault(uid, []).append(idx)

    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            for k in range(i2 - i1):
                pair(i1 + k, j1 + k)
        elif op == "replace" and i2 - i1 == j2 - j1:
            for k in range(i2 - i1):
                if difflib.SequenceMatcher(None, seq_u[i1 + k][1], seq_p[j1 + k][1]).ratio() >= 0.8:
                    pair(i1 + k, j1 + k)
    # table cells: the table unit (in order) whose lines hold the most of the table's paragraphs
    tables: dict[int, list[int]] = defaultdict(list)
    for p in paras:
        if p.table is not None and p.where == "table":
            tables[p.table].append(p.index)
    table_units = [u for u in units if u.kind == "table"]
    start = 0
    for t in sorted(tables):
        want = {_norm(paras[i].text) for i in tables[t]} - {""}
        if not want:
            continue
        best, best_hits = None, 0
        for k in range(start, min(len(table_units), start + 40)):
            lines = {_norm(x) for x in table_units[k].text.split("\n")}
            hits = len(want & lines)
            if hits > best_hits:
                best, best_hits = k, hits
            if hits == len(want):
                break
        if best is not None and best_hits * 2 >= len(want):
            start = best + 1
            for i in tables[t]:
                if al.unit_of[i] is None:
                    al.unit_of[i] = table_units[best].id
                    al.paras_of.setdefault(table_units[best].id, []).append(i)
    # notes: the note unit whose text holds the paragraph's
    notes = [u for u in units if u.kind in ("footnote", "endnote")]
    for p in paras:
        if p.where == "note" and _norm(p.text):
            want = _norm(p.text)
            hit = next((u for u in notes if want in _norm(u.text)), None)
            if hit is not None:
                al.unit_of[p.index] = hit.id
                al.paras_of.setdefault(hit.id, []).append(p.index)
    return al


def score_references(doc: Any, G: Any, links: Links) -> dict[str, Any]:
    """Precision and recall of ``G``'s REFERENCES against ``links`` (the package's own), the links
    to nothing (``broken``), and the edges from a table of contents (``toc_edges``)."""
    from addin_backend.graph.edges import REFERENCES, edges_of_type

    al = align_links(doc.units, links)
    toc_units = {al.unit_of[p.index] for p in links.paragraphs if p.where == "toc"} - {None}
    scored_units = {al.unit_of[p.index] for p in links.paragraphs if p.where in SCORED} - {None}
    want: dict[tuple[str, str], set[str]] = {}
    unaligned = 0
    counted_apart: Counter = Counter()
    for ln, target in links.resolved():
        where = links.paragraphs[ln.source].where
        if where not in SCORED:
            counted_apart[where] += 1
            continue
        src, tgt = al.unit(ln.source), al.unit(target)
        if src is None or tgt is None:
            unaligned += 1
            want[(f"<paragraph {ln.source}>", f"<paragraph {target}>")] = set()
            continue
        if src == tgt:  # a heading linking to itself: no pair of units
            counted_apart["self"] += 1
            continue
        want.setdefault((src, tgt), _accepting_units(doc, al, target))
    found: set[tuple[str, str]] = set()
    tally = Tally()
    by_origin: Counter = Counter()
    spurious: list[dict[str, Any]] = []
    accepting: dict[tuple[str, str], tuple[str, str]] = {}
    for key, targets in want.items():
        for t in targets:
            accepting[(key[0], t)] = key
    toc_edges = typed = 0
    for u, v, d in edges_of_type(G, REFERENCES):
        origin = d.get("origin") or "text"
        hit = accepting.get((u, v))
        if u in toc_units and u not in scored_units:
            toc_edges += 1
            continue
        by_origin[(origin, hit is not None)] += 1
        if hit is not None:
            if hit not in found:
                tally.tp += 1
            found.add(hit)
        elif origin == "field":
            tally.fp += 1
            if len(spurious) < 8:
                src, tgt = doc.get(u), doc.get(v)
                spurious.append({"evidence": d.get("evidence"), "source": _snippet(src.text if src else u),
                                 "target": _snippet(tgt.text if tgt else v)})
        else:
            typed += 1
    tally.fn = sum(1 for k in want if k not in found)
    misses = []
    for key in want:
        if key not in found and len(misses) < 8:
            src, tgt = doc.get(key[0]), doc.get(key[1])
            misses.append({"source": _snippet(src.text if src else key[0]), "target": _snippet(tgt.text if tgt else key[1])})
    broken = links.broken()
    return {
        "truth": len(want), "found": len(found), "tp": tally.tp, "fp": tally.fp, "fn": tally.fn,
        "precision": tally.precision, "recall": (len(found) / len(want)) if want else None,
        "unaligned": unaligned, "typed_edges": typed, "toc_edges": toc_edges,
        "apart": dict(counted_apart),
        "broken": [{"name": b.name, "text": b.text, "where": links.paragraphs[b.source].where,
                    "source": _snippet(links.paragraphs[b.source].text)} for b in broken],
        "by_origin": {f"{o}:{'right' if ok else 'other'}": n for (o, ok), n in sorted(by_origin.items())},
        "misses": misses, "spurious": spurious,
    }


def _snippet(text: str, limit: int = 70) -> str:
    one = _norm(text)
    return one if len(one) <= limit else one[: limit - 1] + "\u2026"
