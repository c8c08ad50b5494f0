"""Resolve the reference slots once every unit exists, then derive and check the ground truth.

REFERENCES come from the resolved slots (fields or text), DEPENDS from the recorded anaphora
and from scanning every later unit for the surface forms of each definition, RELATED from the
topic clusters, CONTAINS from the parents. Every edge is checked against the final text
(its evidence is a substring of the citing unit) before the truth is returned.
"""
from __future__ import annotations

import itertools
import re

from .builder import DocBuilder, RefSlot, token_encoder
from .prose import ANAPHORA
from .spec import Block, RefField, Text

__all__ = ["GenerationError", "link", "truth"]

_FORMS = {
    "section": ["field", "§{n}", "Section {n}", "field", "Section {n}"],
    "figure": ["field", "Fig. {n}(b)", "Figure {n}", "Fig. {n}"],
    "table": ["field", "Table {n}"],
    "equation": ["Equation ({n})", "Eq. {n}", "Eq. ({n})"],
    "sections": ["Sections {a}-{b}", "Sections {a}\u2013{b}"],
}


class GenerationError(RuntimeError):
    """The generated truth contradicts the generated text (a bug in the generator)."""


class _Linker:
    def __init__(self, b: DocBuilder) -> None:
        self.b = b
        self.rng = b.rng
        self.by_key = {blk.key: blk for blk in b.blocks}
        self.index = {blk.key: i for i, blk in enumerate(b.blocks)}
        self.form_count: dict[str, int] = {}
        self.bookmarks: dict[str, str] = {}
        self.edges: list[dict] = []
        kinds: dict[str, list[Block]] = {}
        for blk in b.blocks:
            kinds.setdefault(blk.kind, []).append(blk)
        self.sections = [s for s in kinds.get("section", []) if not s.appendix]
        self.appendices = [s for s in kinds.get("section", []) if s.appendix]
        self.tops = [s for s in self.sections if s.level == 1]
        self.figures = kinds.get("figure", [])
        self.tables = kinds.get("table", [])
        self.equations = kinds.get("equation", [])
        self.statements = [p for p in kinds.get("paragraph", []) if p.label]

    def form(self, want: str) -> str:
        forms = _FORMS[want]
        n = self.form_count.get(want, 0)
        self.form_count[want] = n + 1
        return forms[n % len(forms)]

    def bookmark(self, blk: Block) -> str:
        if blk.key not in self.bookmarks:
            self.bookmarks[blk.key] = f"_Ref{100000001 + len(self.bookmarks)}"
            blk.bookmark = self.bookmarks[blk.key]
        return self.bookmarks[blk.key]

    def ancestors(self, blk: Block) -> set[str]:
        out, key = set(), blk.parent
        while key:
            out.add(key)
            key = self.by_key[key].parent
        return out

    def resolve(self, slot: RefSlot, src: Block) -> tuple[list, list[tuple[str, str, str]]]:
        """The pieces of ``{ref}`` and the (target, evidence, how) it cites."""
        want, i = slot.want, self.index[src.key]
        earlier = lambda pool: [u for u in pool if self.index[u.key] < i]  # noqa: E731
        if want in ("equation", "theorem") and not slot.target and not earlier(self.equations if want == "equation" else self.statements):
            want = "section"
        if want == "figures" and len(self.figures) < 2:
            want = "figure"
        if want == "sections" and len(self.tops) < 4:
            want = "section"
        if want == "section":
            tgt = self.by_key[slot.target] if slot.target else self.rng.choice(
                [s for s in self.sections if s.key not in self.ancestors(src)])
            form = self.form("section")
            if form == "field":
                name = self.bookmark(tgt)
                return [Text("Section "), RefField(tgt.key, "heading", name, name, tgt.number)], [
                    (tgt.key, f"Section {tgt.number}", "field")]
            text = form.format(n=tgt.number)
            return [Text(text)], [(tgt.key, text, "text")]
        if want in ("figure", "table"):
            pool = self.figures if want == "figure" else self.tables
            tgt = self.by_key[slot.target] if slot.target else self.rng.choice(pool)
            form = self.form(want)
            if form == "field":
                cap = self.by_key[f"cap-{tgt.key}"]
                seq = cap.pieces[1]
                return [RefField(tgt.key, "caption", self.bookmark(cap), seq.ref_name, tgt.label)], [
                    (tgt.key, tgt.label, "field")]
            text = form.format(n=tgt.number)
            evidence = text.replace("(b)", "")
            return [Text(text)], [(tgt.key, evidence, "text")]
        if want == "equation":
            tgt = self.by_key[slot.target] if slot.target else self.rng.choice(earlier(self.equations))
            text = self.form("equation").format(n=tgt.number)
            return [Text(text)], [(tgt.key, text, "text")]
        if want == "theorem":
            tgt = self.rng.choice(earlier(self.statements))
            return [Text(tgt.label)], [(tgt.key, tgt.label, "text")]
        if want == "appendix":
            tgt = self.rng.choice(self.appendices)
            return [Text(tgt.label)], [(tgt.key, tgt.label, "text")]
        if want == "figures":
            a, c = sorted(self.rng.sample(self.figures, 2), key=lambda f: int(f.number))
            text = f"Figures {a.number} and {c.number}"
            return [Text(text)], [(a.key, text, "text"), (c.key, text, "text")]
        if want == "sections":
            first = self.rng.randrange(1, len(self.tops) - 2)
            span = self.tops[first:first + self.rng.choice([2, 3])]
            text = self.form("sections").format(a=span[0].number, b=span[-1].number)
            return [Text(text)], [(s.key, text, "text") for s in span]
        raise GenerationError(f"unknown reference slot {want!r}")

    def run(self) -> None:
        for blk in self.b.blocks:
            if not any(isinstance(p, RefSlot) for p in blk.pieces):
                continue
            out: list = []
            for piece in blk.pieces:
                if not isinstance(piece, RefSlot):
                    out.append(piece)
                    continue
                before, after = piece.frame.split("{ref}")
                pieces, cites = self.resolve(piece, blk)
                out.extend([Text(before), *pieces, Text(after)])
                for target, evidence, how in cites:
                    edge = {"source": blk.key, "target": target, "type": "REFERENCES", "evidence": evidence, "how": how}
                    if how == "field":
                        edge["name"] = self.bookmarks[target if target.startswith("sec-") else f"cap-{target}"]
                    self.edges.append(edge)
            blk.pieces = _merge(out)


def _merge(pieces: list) -> list:
    merged: list = []
    for p in pieces:
        if isinstance(p, Text) and not p.text:
            continue
        if merged and isinstance(p, Text) and isinstance(merged[-1], Text) and p.bold == merged[-1].bold:
            merged[-1] = Text(merged[-1].text + p.text, p.bold)
        else:
            merged.append(p)
    return merged


def _pattern(form: str, case_sensitive: bool) -> re.Pattern:
    return re.compile(r"(?<!\w)" + re.escape(form) + r"(?!\w)", 0 if case_sensitive else re.IGNORECASE)


def _depends(b: DocBuilder) -> list[dict]:
    """Anaphora edges as recorded, then one edge per later unit using a defined form."""
    edges = [{"source": s, "target": t, "type": "DEPENDS", "evidence": e, "how": "anaphora"} for s, t, e in b.anaphora]
    index = {blk.key: i for i, blk in enumerate(b.blocks)}
    for d in b.definitions:
        pats = [_pattern(f, d.case_sensitive) for f in d.forms]
        at = index[d.key]
        for i, blk in enumerate(b.blocks):
            if i == at:
                continue
            m = next((m for m in (p.search(blk.text) for p in pats) if m), None)
            if m is None:
                continue
            if i < at:
                raise GenerationError(f"{d.term!r} is used in {blk.key} before its definition in {d.key}")
            edges.append({"source": blk.key, "target": d.key, "type": "DEPENDS", "evidence": m.group(0), "how": d.how})
    return edges


def _check(b: DocBuilder, edges: list[dict]) -> None:
    text = {blk.key: blk.text for blk in b.blocks}
    order = [blk.key for blk in b.blocks]
    if len(set(order)) != len(order):
        raise GenerationError("duplicate unit keys")
    for e in edges:
        if e["type"] in ("REFERENCES", "DEPENDS") and e["evidence"] not in text[e["source"]]:
            raise GenerationError(f"evidence {e['evidence']!r} not in {e['source']}")
    nouns = {a["opener"]: a["noun"] for a in ANAPHORA}
    for dep, ante, opener in b.anaphora:
        noun = nouns[opener]
        i, j = order.index(ante), order.index(dep)
        if not text[dep].startswith(opener):
            raise GenerationError(f"{dep} does not open with {opener!r}")
        if noun is None:
            if j != i + 1:
                raise GenerationError(f"pronoun anaphor {dep} is not right after {ante}")
            continue
        pat = _pattern(noun, False)
        if not pat.search(text[ante]) or any(pat.search(text[k]) for k in order[i + 1:j]):
            raise GenerationError(f"antecedent of {dep} ({noun!r}) is not the nearest unit naming it")
    labels = {blk.label for blk in b.blocks if blk.label}
    for key, evidence in b.broken:
        if evidence in labels or evidence.replace("Section", "").strip() in {blk.number for blk in b.blocks}:
            raise GenerationError(f"broken reference {evidence!r} resolves")


def link(b: DocBuilder) -> list[dict]:
    """Resolve every reference slot in place; return the REFERENCES edges."""
    linker = _Linker(b)
    linker.run()
    return linker.edges


def truth(b: DocBuilder, name: str, references: list[dict]) -> dict:
    """The ground-truth document (see ``benchmarks/README.md`` for the schema)."""
    units = []
    for blk in b.blocks:
        unit = {"key": blk.key, "kind": blk.kind, "label": blk.label, "number": blk.number, "text": blk.text,
                "parent": blk.parent}
        if blk.kind == "section":
            unit["level"] = blk.level
        units.append(unit)
    contains = [{"source": blk.parent, "target": blk.key, "type": "CONTAINS", "evidence": "", "how": "structure"}
                for blk in b.blocks if blk.parent]
    seen: set[tuple[str, str, str]] = set()
    edges: list[dict] = []
    for e in contains + references + _depends(b):
        k = (e["source"], e["target"], e["type"])
        if k not in seen and e["source"] != e["target"]:
            seen.add(k)
            edges.append(e)
    linked = {(e["source"], e["target"]) for e in edges if e["type"] in ("REFERENCES", "DEPENDS")}
    clusters = []
    for topic, keys in b.clusters.items():
        clusters.append(keys)
        for a, c in itertools.combinations(keys, 2):
            if (a, c) in linked or (c, a) in linked:
                raise GenerationError(f"cluster members {a} and {c} are also linked")
            edges.append({"source": a, "target": c, "type": "RELATED", "evidence": topic, "how": "topic"})
    _check(b, edges)
    full = "\n".join(u["text"] for u in units)
    return {
        "name": name,
        "seed": b.seed,
        "tokens": len(token_encoder().encode(full)),
        "format_independent": True,
        "title": b.title,
        "units": units,
        "edges": edges,
        "broken": [{"source": k, "evidence": e} for k, e in b.broken],
        "distractors": [{"source": k, "evidence": e} for k, e in b.distractors],
        "clusters": clusters,
    }
