"""Lay out one synthetic document: the section skeleton, the deck of planted content, the filling.

The document is generated in reading order until its cl100k token count reaches the target:
an overview (section 1), one top-level section per domain turn with 2-4 subsections (some
with level-3 children), then one or two appendices. Planted content (figures, tables,
equations, theorems, lists, definitions, acronyms, anaphora, cluster paragraphs, distractor
and broken references) is dealt out to the leaf sections in counts that scale with the size.
"""
from __future__ import annotations

import random

from . import moves, prose
from .builder import DocBuilder, RefSlot
from .domains import DOMAINS
from .spec import Block, Text
from .topics import TOPICS

__all__ = ["PLATFORMS", "deck_counts", "plan"]

PLATFORMS = ["Meridian", "Halcyon", "Juniper", "Tessera", "Corvid", "Aldergate", "Northwind", "Quarry"]
_APPENDIX_RESERVE = 380
_TITLE_SUFFIXES = ["", " Revisited", " in Practice", " at Scale", " for Small Sites"]


def deck_counts(tokens: int) -> dict[str, int]:
    """How many of each planted move a document of ``tokens`` tokens gets.

    >>> deck_counts(5000)["anaphora"], deck_counts(100000)["figure"]
    (7, 29)
    """
    k = tokens / 1000
    return {
        "figure": max(2, round(k / 3.5)), "table": max(2, round(k / 5)), "equation": max(2, round(k / 5)),
        "theorem": max(2, round(k / 5)), "list": max(1, round(k / 8)), "term": max(3, round(k / 6)),
        "acronym": max(2, round(k / 6)), "legal": max(2, round(k / 12)), "anaphora": max(7, round(k / 1.3)),
        "distractor": max(3, round(k / 4)), "broken": max(1, round(k / 25)),
    }


class _Titles:
    """Heading titles per domain without repeats (cycling with a suffix when a list runs out)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left: dict[tuple[str, str], list[str]] = {}
        self.rounds: dict[tuple[str, str], int] = {}

    def take(self, dom: dict, field: str) -> str:
        key = (dom["name"], field)
        if not self.left.get(key):
            self.rounds[key] = self.rounds.get(key, -1) + 1
            items = list(dom[field])
            self.rng.shuffle(items)
            self.left[key] = items
        return self.left[key].pop() + _TITLE_SUFFIXES[self.rounds[key] % len(_TITLE_SUFFIXES)]


def _skeleton(rng: random.Random, tokens: int) -> list[tuple[str, list[int]]]:
    """Top-level domain sections: (domain, [children count of each subsection])."""
    names = list(DOMAINS)
    rng.shuffle(names)
    if names.index("contract") > 2:  # every document gets the contract terms (hereinafter / means)
        i = names.index("contract")
        names[2], names[i] = names[i], names[2]
    n_top = max(4, round(tokens / 6000) + 3) - 1
    out = []
    for i in range(n_top):
        subs = rng.randint(2, 3) if tokens <= 10000 else rng.randint(2, 4)
        kids = [rng.randint(2, 3) if tokens >= 10000 and rng.random() < 0.3 else 0 for _ in range(subs)]
        out.append((names[i % len(names)], kids))
    return out


def _deal(rng: random.Random, tokens: int, skeleton, leaves: list[tuple[int, int, int]]) -> dict:
    """Assign deck moves and cluster members to leaves: {leaf: [move name or ("cluster", topic)]}."""
    deck: dict = {leaf: [] for leaf in leaves}
    counts = deck_counts(tokens)
    contract_leaves = [leaf for leaf in leaves if skeleton[leaf[0]][0] == "contract"]
    defining = ("term", "acronym", "legal")
    items = [name for name, n in counts.items() if name not in defining for _ in range(n)]
    rng.shuffle(items)
    order = list(leaves)
    rng.shuffle(order)
    for i, name in enumerate(items):
        deck[order[i % len(order)]].append(name)
    # Definitions go to the earlier leaves (of their own domain for the contract terms), so
    # that later units can use what they define.
    early = leaves[: max(1, int(len(leaves) * 0.6))]
    early_contract = contract_leaves[: max(1, (len(contract_leaves) + 1) // 2)]
    for i, name in enumerate(n for n in ("term", "acronym") for _ in range(counts[n])):
        deck[early[(i * 7) % len(early)]].append(name)
    for i in range(counts["legal"]):
        deck[early_contract[i % len(early_contract)]].append("legal")
    topics = list(range(len(TOPICS)))
    rng.shuffle(topics)
    n_clusters = max(2, round(tokens / 10000))
    for c in range(n_clusters):
        size = rng.randint(min(3, len(skeleton)), min(4, len(skeleton)))
        for top in rng.sample(range(len(skeleton)), size):
            leaf = rng.choice([leaf for leaf in leaves if leaf[0] == top])
            deck[leaf].append(("cluster", topics[c % len(topics)]))
    for leaf in leaves:  # shuffled, definitions last: the filler pops from the end, so they come first
        rng.shuffle(deck[leaf])
        deck[leaf].sort(key=lambda item: item in defining)
    return deck


def _run(b: DocBuilder, dom: dict, item) -> None:
    ok = moves.cluster(b, dom, item[1]) if isinstance(item, tuple) else moves.MOVES[item](b, dom)
    if not ok:
        moves.filler(b, dom)


def _overview(b: DocBuilder, platform: str, contract_key: str) -> None:
    b.heading(1, "Scope and Overview", "overview")
    ov = prose.OVERVIEW
    b.paragraph([ov[0].format(name=platform), ov[1], RefSlot("sections", b.rng.choice(prose.REF_FRAMES["sections"]))])
    b.paragraph([ov[2], RefSlot("section", "The commercial terms are set out in {ref}.", contract_key), ov[3],
                 RefSlot("appendix", b.rng.choice(prose.REF_FRAMES["appendix"]))])
    b.paragraph([ov[4], RefSlot("figures", b.rng.choice(prose.REF_FRAMES["figures"])), ov[5]])


def _appendices(b: DocBuilder, tokens: int) -> None:
    names = list(DOMAINS)
    dom = DOMAINS[b.rng.choice(names)]
    b.heading(1, "Configuration Reference", dom["name"], appendix=True)
    b.paragraph(["The settings below are the defaults of the reference installation."] + prose.paragraph(b.rng, dom, 2))
    moves.table(b, dom)
    moves.filler(b, dom, refs=False)
    if tokens < 25000:
        return
    b.heading(1, "Glossary", "overview", appendix=True)
    b.paragraph(["The abbreviations used in the text are listed below with their expansions."])
    list_id = b.count("list")
    acronyms = sorted((d for d in b.definitions if d.kind == "acronym"), key=lambda d: d.term)
    for i, d in enumerate(acronyms, 1):
        b.paragraph([f"{d.term}: {d.expansion}."], kind="list_item", number=str(i), list_id=list_id)


def plan(tokens: int, seed: int = 0) -> DocBuilder:
    """Generate the blocks of a document of about ``tokens`` cl100k tokens (deterministic in ``seed``)."""
    rng = random.Random(f"ledger-bench:{seed}:{tokens}")
    b = DocBuilder(rng, seed)
    platform = rng.choice(PLATFORMS)
    b.title = f"{platform} Platform Technical Reference"
    b.add(Block("title", "title", "title", [Text(b.title)]))
    skeleton = _skeleton(rng, tokens)
    leaves = [(t, s, c) for t, (_, kids) in enumerate(skeleton) for s, n in enumerate(kids)
              for c in (range(1, n + 1) if n else [0])]
    deck = _deal(rng, tokens, skeleton, leaves)
    contract_top = next(i for i, (name, _) in enumerate(skeleton) if name == "contract")
    _overview(b, platform, f"sec-{contract_top + 2}")
    titles = _Titles(rng)
    start = b.tokens
    goal_all = tokens - _APPENDIX_RESERVE * (1 if tokens < 25000 else 2)
    done = 0
    for t, (name, kids) in enumerate(skeleton):
        dom = DOMAINS[name]
        b.heading(1, titles.take(dom, "tops"), name)
        moves.filler(b, dom)
        for s, n in enumerate(kids):
            b.heading(2, titles.take(dom, "subs"), name)
            if n:
                moves.filler(b, dom)
            for c in range(1, n + 1) if n else [0]:
                if c:
                    b.heading(3, titles.take(dom, "subs"), name)
                done += 1
                goal = start + done / len(leaves) * (goal_all - start)
                items = deck[(t, s, c)]
                wrote = False
                while items or b.tokens < goal or not wrote:
                    if items and (b.tokens >= goal or rng.random() < 0.55):
                        _run(b, dom, items.pop())
                    else:
                        moves.filler(b, dom)
                    wrote = True
    _appendices(b, tokens)
    return b
