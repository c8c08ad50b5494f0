"""Graph time of a document crafted to cost it (issue 24): many defined terms sharing their
longest word, each used all over, and many section references.

    python -m benchmarks.crafted_graph [SECTIONS TERMS USES ...]   (default: 100 750 750)

Prints the units, the text size and the seconds of each graph stage (no RELATED: no model).
Before the term search was bounded, DEPENDS grew with terms x units (1,600 units: 18 s).
"""
from __future__ import annotations

import random
import sys
import time

from adapters.model import Document, Unit

__all__ = ["crafted", "main"]


def crafted(sections: int, terms: int, uses: int, *, seed: int = 1) -> Document:
    """``sections`` numbered sections, ``terms`` definitions ('"Widget Alpha7" means the Widget
    Alpha6 of the Widget Alpha5 as set out in Section 8.'), and ``uses`` paragraphs that use ten
    random terms and cite a section each."""
    units, order = [], 0
    for s in range(sections):
        units.append(Unit(f"s{s}", "section", f"Part {s + 1}", order, label=f"Section {s + 1}", number=str(s + 1),
                          title=f"Part {s + 1}", level=1))
        order += 1
    names = [f"Widget Alpha{k}" for k in range(terms)]
    for k, t in enumerate(names):
        units.append(Unit(f"d{k}", "paragraph", f'"{t}" means the {names[k - 1]} of the {names[k - 2]} as set out in '
                          f"Section {k % sections + 1}.", order, parent=f"s{k % sections}"))
        order += 1
    rnd = random.Random(seed)
    for r in range(uses):
        picks = " and ".join(rnd.choice(names) for _ in range(10))
        cites = ", ".join(f"Section {rnd.randrange(sections) + 1}" for _ in range(5))
        units.append(Unit(f"r{r}", "paragraph", f"The {picks} shall follow {cites}.", order, parent=f"s{r % sections}"))
        order += 1
    return Document("docx", units)


def main(argv: list[str]) -> int:
    from addin_backend.graph.build import NO_RELATED, build_graph

    sizes = [int(a) for a in argv] or [100, 750, 750]
    for i in range(0, len(sizes) - 2, 3):
        doc = crafted(*sizes[i:i + 3])
        started = time.perf_counter()
        G = build_graph(doc, stages=NO_RELATED)
        chars = sum(len(u.text) for u in doc.units)
        print(f"crafted {'/'.join(map(str, sizes[i:i + 3]))}: {len(doc.units)} units, {chars:,} characters, "
              f"{time.perf_counter() - started:.2f} s {G.graph['stats']['seconds_by_stage']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
