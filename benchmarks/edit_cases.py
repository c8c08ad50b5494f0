"""Edit cases over the benchmark documents, in the paper's categories, with required units.

A case is an instruction, how the editor points at its target (a selection, a label in the
instruction, a term), and the REQUIRED units: those an editor must see to keep the document
consistent — the target, everything that references or depends on it (on anything inside it,
for a section), and what it depends on. Required sets come from the ground truth, never from
our graph, so recall measures the graph and the packing together.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["CATEGORIES", "Case", "Step", "make_cases", "required_keys"]

CATEGORIES = (
    "local_refinement",
    "cross_reference",
    "structural",
    "content_addition",
    "terminology",
    "iterative",
)

_HARD = ("REFERENCES", "DEPENDS")


@dataclass
class Step:
    instruction: str
    target_keys: list[str]
    required: list[str]
    selection: str | None = None  # what the task pane would send as the selected text
    rewrite: str | None = None  # for iterative cases: the new text of the target after the step


@dataclass
class Case:
    id: str
    category: str
    steps: list[Step] = field(default_factory=list)

    @property
    def instruction(self) -> str:
        return self.steps[0].instruction


def _index(truth: dict):
    units = {u["key"]: u for u in truth["units"]}
    children: dict[str | None, list[str]] = {}
    for u in truth["units"]:
        children.setdefault(u.get("parent"), []).append(u["key"])
    into: dict[str, set[str]] = {}
    out: dict[str, set[str]] = {}
    for e in truth["edges"]:
        if e["type"] in _HARD:
            into.setdefault(e["target"], set()).add(e["source"])
            out.setdefault(e["source"], set()).add(e["target"])
    return units, children, into, out


def _scope(key: str, children: dict) -> set[str]:
    out, stack = set(), [key]
    while stack:
        k = stack.pop()
        if k not in out:
            out.add(k)
            stack.extend(children.get(k, ()))
    return out


def required_keys(truth: dict, targets: list[str], index=None) -> list[str]:
    """The target(s), what references or depends on them (or on what they contain), what they need."""
    units, children, into, out = index or _index(truth)
    req: set[str] = set(targets)
    for t in targets:
        for k in _scope(t, children):
            req |= into.get(k, set())
        req |= out.get(t, set())
    return sorted(req, key=lambda k: [u["key"] for u in truth["units"]].index(k) if k in units else 0)


def make_cases(truth: dict, *, per_category: int = 8, seed: int = 0) -> list[Case]:
    """Deterministic cases for one benchmark document."""
    rng = random.Random(f"{truth['name']}:{seed}")
    index = _index(truth)
    units, children, into, out = index
    paras = [u for u in truth["units"] if u["kind"] == "paragraph" and len(u["text"]) > 80 and not u.get("label")]
    cited = [u for u in truth["units"] if u["key"] in into and u["kind"] in ("figure", "table", "equation")
             or (u["key"] in into and u.get("label", "") and u["kind"] == "paragraph")]
    sections = [u for u in truth["units"] if u["kind"] == "section" and u.get("label")]
    definitions = {}
    for e in truth["edges"]:
        if e["type"] == "DEPENDS" and e["how"] in ("definition", "acronym"):
            definitions.setdefault(e["target"], e["evidence"])
    cases: list[Case] = []

    def add(category: str, steps: list[Step]) -> None:
        cases.append(Case(f"{truth['name']}:{category}:{len([c for c in cases if c.category == category])}",
                          category, steps))

    def pick(pool: list, n: int) -> list:
        pool = list(pool)
        rng.shuffle(pool)
        return pool[:n]

    # The task pane sends the text of the paragraph the selection starts in (Word's
    # getSelection().paragraphs); a benchmark selection is that paragraph's text.
    for u in pick(paras, per_category):
        sel = u["text"]
        add("local_refinement", [Step("Tighten the wording of the selected paragraph without changing its meaning.",
                                      [u["key"]], required_keys(truth, [u["key"]], index), selection=sel)])
    for u in pick(cited, per_category):
        label = u["label"]
        add("cross_reference", [Step(f"Revise {label} so that it also states the measurement period.",
                                     [u["key"]], required_keys(truth, [u["key"]], index))])
    subs = [s for s in sections if s.get("parent")]
    for s in pick(subs, per_category):
        siblings = [k for k in children.get(s["parent"], ()) if units[k]["kind"] == "section" and k != s["key"]]
        if siblings and rng.random() < 0.6:
            other = units[rng.choice(siblings)]
            instr = f"Move {s['label']} before {other['label']}."
        else:
            instr = f"Delete {s['label']}."
        add("structural", [Step(instr, [s["key"]], required_keys(truth, [s["key"]], index))])
    for defining, term in pick(sorted(definitions.items()), per_category):
        sec = units[defining].get("parent")
        while sec and units[sec]["kind"] != "section":
            sec = units[sec].get("parent")
        target = sec or defining
        label = units[target].get("label") or units[target]["text"]
        instr = f"Insert after {label}: a paragraph explaining how {term} is monitored in production."
        req = sorted(set(required_keys(truth, [target], index)) - _scope(target, children) | {target, defining})
        add("content_addition", [Step(instr, [target], req)])
    for defining, term in pick(sorted(definitions.items()), per_category):
        instr = f"Rename '{term}' to 'revised {term}' throughout the document."
        add("terminology", [Step(instr, [defining], required_keys(truth, [defining], index))])
    for _ in range(per_category):
        chain = pick(paras, 3)
        steps = []
        for n, u in enumerate(chain):
            sel = u["text"]
            steps.append(Step(f"Step {n + 1}: clarify the selected paragraph.", [u["key"]],
                              required_keys(truth, [u["key"]], index), selection=sel,
                              rewrite=u["text"] + " This holds in every configuration we tested."))
        add("iterative", steps)
    return cases
