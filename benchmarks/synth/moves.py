"""Content moves: each appends a few blocks of one kind of content and records what it plants.

A move takes the :class:`~benchmarks.synth.builder.DocBuilder` and a domain vocabulary; it
returns ``False`` when the domain has nothing left to give (every term already defined), so
the planner writes a plain paragraph instead.
"""
from __future__ import annotations

from . import prose
from .builder import DocBuilder, RefSlot
from .png import bar_chart_png
from .spec import Block, Math, SeqNumber, Text
from .topics import TOPIC_TEMPLATES, TOPICS

__all__ = [
    "MOVES",
    "filler",
    "pools",
]

GREEK = list("αβγδεζηθκμνξπρστφχψωΓΘΛΞΠΣΦΨΩ")
_QUOTES = (("\u201c", "\u201d"), ('"', '"'))


class _Pools:
    """Per-document draws without replacement from each domain's lists (cycling where allowed)."""

    def __init__(self, rng) -> None:
        self.rng = rng
        self.left: dict[tuple[str, str], list] = {}
        self.greek = list(GREEK)
        rng.shuffle(self.greek)

    def take(self, dom: dict, field: str, cycle: bool = True):
        key = (dom["name"], field)
        if not self.left.get(key):
            if key in self.left and not cycle:
                return None
            items = list(dom.get(field) or [])
            if not items:
                self.left[key] = []
                return None
            self.rng.shuffle(items)
            self.left[key] = items
        return self.left[key].pop()


def pools(b: DocBuilder) -> _Pools:
    """The document's draws from the vocabularies (created on first use)."""
    if b.pools is None:
        b.pools = _Pools(b.rng)
    return b.pools


def _general(b: DocBuilder, dom: dict, lo: int = 1, hi: int = 2) -> list[str]:
    return prose.paragraph(b.rng, dom, b.rng.randint(lo, hi))


def filler(b: DocBuilder, dom: dict, refs: bool = True, extra: str | None = None) -> Block:
    """A general paragraph, sometimes with a free reference slot and a use of a defined term."""
    parts: list = prose.paragraph(b.rng, dom)
    if b.rng.random() < 0.35:
        use = b.term_use()
        if use:
            parts.insert(b.rng.randint(1, len(parts)), use)
    if refs and b.rng.random() < 0.38:
        want = b.rng.choices(
            ["section", "figure", "table", "equation", "theorem", "appendix", "figures", "sections"],
            weights=[33, 20, 14, 10, 9, 6, 5, 3],
        )[0]
        parts.insert(b.rng.randint(1, len(parts)), RefSlot(want, b.rng.choice(prose.REF_FRAMES[want])))
    if extra:
        parts.insert(b.rng.randint(1, len(parts)), extra)
    return b.paragraph(parts)


def distractor(b: DocBuilder, dom: dict) -> bool:
    sentence, evidence = prose.DISTRACTORS[b.count("distractor") % len(prose.DISTRACTORS)]
    blk = filler(b, dom, refs=False, extra=sentence)
    b.distractors.append((blk.key, evidence))
    return True


def broken(b: DocBuilder, dom: dict) -> bool:
    sentence, evidence = prose.BROKEN[b.count("broken") % len(prose.BROKEN)]
    blk = filler(b, dom, refs=False, extra=sentence)
    b.broken.append((blk.key, evidence))
    return True


def term(b: DocBuilder, dom: dict) -> bool:
    """A phrase term: "We define X as ...", "X is defined as ...", or a "Definition N." paragraph."""
    item = pools(b).take(dom, "terms", cycle=False)
    if item is None:
        return False
    t, gloss = item
    style = (b.count("term-style") - 1) % 3
    kw: dict = {}
    if style == 0:
        parts: list = [f"We define {t} as {gloss}."]
    elif style == 1:
        parts = [f"{prose.cap(t)} is defined as {gloss}."]
    else:
        n = b.count("Definition")
        parts = [Text(f"Definition {n}.", bold=True), f"We define {t} as {gloss}."]
        kw = {"label": f"Definition {n}", "number": str(n)}
    blk = b.paragraph(parts + _general(b, dom), **kw)
    b.define(blk.key, t, (t,), False, "definition", "phrase", prose.TERM_USES)
    return True


def acronym(b: DocBuilder, dom: dict) -> bool:
    """An acronym introduced Schwartz-Hearst style: "Write-Ahead Log (WAL)"."""
    item = pools(b).take(dom, "acronyms", cycle=False)
    if item is None:
        return False
    long, short, intro, uses = item
    parts = _general(b, dom, 0, 1) + [intro.format(L=long, A=short)] + _general(b, dom, 1, 2)
    blk = b.paragraph(parts)
    b.define(blk.key, short, (short,), True, "acronym", "acronym", [u.format(A=short) for u in uses], expansion=long)
    return True


def legal(b: DocBuilder, dom: dict) -> bool:
    """A contract term: '... (hereinafter the "Agreement") ...' or '"Service Credit" means ...'."""
    which = "legal_hereinafter" if b.count("legal-style") % 2 else "legal_means"
    item = pools(b).take(dom, which, cycle=False)
    if item is None:
        which = "legal_means" if which == "legal_hereinafter" else "legal_hereinafter"
        item = pools(b).take(dom, which, cycle=False)
    if item is None:
        return False
    lq, rq = b.rng.choice(_QUOTES)
    if which == "legal_hereinafter":
        intro, t, rest, uses = item
        first = f"{intro} (hereinafter the {lq}{t}{rq}) {rest}."
    else:
        t, gloss, uses = item
        first = f"{lq}{t}{rq} means {gloss}."
    blk = b.paragraph([first] + _general(b, dom))
    b.define(blk.key, t, (t,), True, "definition", "legal", [u.replace("{T}", t) for u in uses])
    return True


def _formula(template: str, symbol: str) -> tuple[tuple[str, str], ...]:
    tokens = []
    for tok in template.replace("{s}", symbol).split():
        kind = "n" if tok.isdigit() else ("i" if tok.isalpha() else "o")
        tokens.append((kind, tok))
    return tuple(tokens)


def equation(b: DocBuilder, dom: dict) -> bool:
    """"X, denoted Y, ..." + a numbered display equation using Y + a paragraph citing it."""
    item = pools(b).take(dom, "symbols", cycle=False)
    if item is None or not pools(b).greek:
        return False
    np_, rest, template = item
    g = pools(b).greek.pop()
    blk = b.paragraph([f"{np_}, denoted {g}, {rest}."] + _general(b, dom, 1, 1))
    b.define(blk.key, g, (g,), True, "definition", "symbol", [u.replace("{s}", g) for u in prose.SYMBOL_USES])
    b.definitions[-1].uses_count = 1  # the paragraph after the equation uses it
    n = b.count("Equation")
    eq = Block(f"eq-{n}", "equation", "equation",
               [Math(_formula(template, g)), Text("\t("), SeqNumber("Equation", n, f"refEquation{n - 1}"), Text(")")],
               label=f"Equation ({n})", number=str(n))
    b.add(eq)
    use = b.rng.choice(prose.SYMBOL_USES).replace("{s}", g)
    b.paragraph([RefSlot("equation", b.rng.choice(prose.REF_FRAMES["equation"]), eq.key), use] + _general(b, dom, 0, 1))
    return True


def figure(b: DocBuilder, dom: dict) -> bool:
    """A paragraph citing the figure, the image (alt text) and its caption below it."""
    title, alt = pools(b).take(dom, "figures")
    n = b.count("Figure")
    key = f"fig-{n}"
    b.paragraph(_general(b, dom, 1, 3) + [RefSlot("figure", b.rng.choice(prose.REF_FRAMES["figure"]), key)])
    b.add(Block(key, "figure", "figure", [], label=f"Figure {n}", number=str(n),
                image=bar_chart_png(b.seed * 1000 + n), alt=alt))
    b.add(Block(f"cap-{key}", "caption", "caption",
                [Text("Figure "), SeqNumber("Figure", n, f"refFigure{n - 1}"), Text(f": {title}")],
                label=f"Figure {n}", number=str(n), bookmark_span=2))
    return True


def table(b: DocBuilder, dom: dict) -> bool:
    """A paragraph citing the table, its caption above it, and the table (header + 4 rows)."""
    title, header, labels, specs = pools(b).take(dom, "tables")
    n = b.count("Table")
    key = f"tbl-{n}"
    b.paragraph(_general(b, dom, 1, 2) + [RefSlot("table", b.rng.choice(prose.REF_FRAMES["table"]), key)])
    b.add(Block(f"cap-{key}", "caption", "caption",
                [Text("Table "), SeqNumber("Table", n, f"refTable{n - 1}"), Text(f": {title}")],
                label=f"Table {n}", number=str(n), bookmark_span=2))
    rows = [[[Text(h)] for h in header]]
    for label in labels:
        row = [[Text(label)]]
        for spec in specs:
            if spec[0] == "int":
                value = str(b.rng.randint(spec[1], spec[2]))
            elif spec[0] == "float":
                value = f"{b.rng.uniform(spec[1], spec[2]):.2f}"
            else:
                value = b.rng.choice(spec[1])
            row.append([Text(value)])
        rows.append(row)
    b.add(Block(key, "table", "table", [], label=f"Table {n}", number=str(n), rows=rows))
    return True


def theorem(b: DocBuilder, dom: dict) -> bool:
    """A numbered statement ("Lemma 2. ...") that sometimes cites an earlier one."""
    word = ("Theorem", "Lemma", "Proposition", "Corollary")[(b.count("theorem-word") - 1) % 4]
    n = b.count(word)
    parts: list = [Text(f"{word} {n}.", bold=True), pools(b).take(dom, "statements")]
    if b.rng.random() < 0.5:
        parts.append(RefSlot("theorem", b.rng.choice(prose.REF_FRAMES["theorem"])))
    b.paragraph(parts, label=f"{word} {n}", number=str(n))
    return True


def numbered_list(b: DocBuilder, dom: dict) -> bool:
    """An introducing paragraph and a numbered list of 3-5 steps (restarting at 1)."""
    b.paragraph(_general(b, dom, 0, 1) + [pools(b).take(dom, "list_intros")])
    list_id = b.count("list")
    steps = [pools(b).take(dom, "list_items") for _ in range(b.rng.randint(3, 5))]
    if b.rng.random() < 0.4:
        steps.append(RefSlot(b.rng.choice(["appendix", "table"]), b.rng.choice(prose.REF_FRAMES["list"])))
    for i, step in enumerate(steps, 1):
        b.paragraph([step], kind="list_item", number=str(i), list_id=list_id)
    return True


def anaphora(b: DocBuilder, dom: dict) -> bool:
    """An antecedent introducing a referent, sometimes a distractor or two, then the anaphor."""
    spec = prose.ANAPHORA[(b.count("anaphora") - 1) % len(prose.ANAPHORA)]
    intro = spec["intro"].format(
        task=pools(b).take(dom, "tasks"), component=pools(b).take(dom, "components"),
        adj=b.rng.choice(prose.ADJECTIVES), m=b.rng.choice(dom["metrics"]), n=b.rng.randint(12, 45),
    )
    antecedent = b.paragraph(_general(b, dom, 1, 2) + [intro])
    if spec["noun"] and b.rng.random() < 0.35:
        for _ in range(b.rng.randint(1, 2)):
            filler(b, dom, refs=False)
    dependent = b.paragraph([prose.anaphor_sentence(b.rng, dom, spec)] + _general(b, dom, 1, 2))
    b.anaphora.append((dependent.key, antecedent.key, spec["opener"]))
    return True


def cluster(b: DocBuilder, dom: dict, topic_index: int) -> bool:
    """A paragraph about one topic, written only from that topic's vocabulary."""
    topic = TOPICS[topic_index]
    nouns = list(topic["nouns"])
    b.rng.shuffle(nouns)
    templates = b.rng.sample(TOPIC_TEMPLATES, 3)
    parts = [b.rng.choice(topic["sentences"])]
    for i, tpl in enumerate(templates):
        a, bb, c = (nouns[(3 * i + k) % len(nouns)] for k in range(3))
        parts.append(tpl.format(A=prose.cap(a), a=a, B=prose.cap(bb), b=bb, c=c))
    blk = b.paragraph(parts)
    b.clusters.setdefault(topic["name"], []).append(blk.key)
    return True


#: Deck moves by name (the planner deals them out to the leaves).
MOVES = {
    "figure": figure, "table": table, "equation": equation, "theorem": theorem, "list": numbered_list,
    "term": term, "acronym": acronym, "legal": legal, "anaphora": anaphora, "distractor": distractor,
    "broken": broken,
}
