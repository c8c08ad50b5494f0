"""Speed and memory of ``build_graph`` on synthetic technical documents of 10K-100K tokens.

Prints seconds per stage, seconds per 10K tokens, the 100K/10K growth ratio and peak memory,
next to pandoc's docx->json time on the same text (pandoc converts the generated Markdown to a
.docx first). Each size runs in a fresh process so model loading and peak RSS are counted.

    python -m benchmarks.graph_speed                 # 10K and 100K tokens, without embeddings
    python -m benchmarks.graph_speed --semantic      # with RELATED (embeddings)
    python -m benchmarks.graph_speed --png out.png --tokens 30000   # also draw the graph
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from adapters.model import Document, IdMaker, Unit

__all__ = ["synthetic_document", "to_markdown", "main"]

_TOPICS = [
    ("retrieval", "index", "query", "ranking", "recall"),
    ("caching", "cache", "eviction", "latency", "hit rate"),
    ("parsing", "parser", "grammar", "token", "tree"),
    ("storage", "replica", "snapshot", "log", "compaction"),
    ("scheduling", "queue", "worker", "deadline", "throughput"),
    ("encryption", "key", "cipher", "nonce", "handshake"),
    ("compression", "codec", "dictionary", "block", "ratio"),
    ("monitoring", "metric", "alert", "dashboard", "threshold"),
]
_OPENERS = [
    "This approach {verb} the {a} by reusing the {b}.",
    "These results show that the {a} {verb} the {c} under load.",
    "The proposed method keeps the {b} small while the {d} grows.",
    "It {verb} the {c} without touching the {a}.",
    "We measure the {d} of the {a} on three workloads.",
    "The {a} stores each {b} together with its {c}.",
    "In practice the {c} dominates the cost of the {a}.",
    "Such a mechanism {verb} the {b} when the {d} drops.",
]
_MIDDLES = [
    "The {a} is updated whenever a {b} changes, so the {c} stays consistent.",
    "As described above, the {b} is rebuilt in the background.",
    "Section {sec} explains how the {c} is chosen, and Table {tab} lists the settings.",
    "Figure {fig} plots the {d} against the size of the {a}.",
    "Equation ({eq}) gives the expected {d} of the {a}.",
    "The {acro} bounds the {d}, and the {term} limits the {b}.",
    "We compare with the baseline in Sections {sec}-{sec2} and Figures {fig} and {fig2}.",
    "The {c} of each {b} is logged for later analysis.",
    "A larger {b} lowers the {d} but raises the cost of the {c}.",
    "See [{cite}] for a survey; Section 3 of [RFC{rfc}] defines the wire format.",
]
_VERBS = ["improves", "reduces", "stabilises", "bounds", "simplifies", "accelerates"]


def synthetic_document(tokens: int, seed: int = 0) -> Document:
    """A numbered technical document of about ``tokens`` cl100k tokens, with sections,
    subsections, figures, tables, equations, references, acronyms, definitions and anaphora."""
    rnd = random.Random(seed)
    make = IdMaker()
    units: list[Unit] = []
    state = {"fig": 0, "tab": 0, "eq": 0, "words": 0}
    acronyms: list[str] = []
    terms: list[str] = []

    def add(kind, text, parent=None, **kw) -> Unit:
        u = Unit(make(kind, text), kind, text, len(units), parent=parent, **kw)
        units.append(u)
        state["words"] += len(text.split())
        return u

    add("title", "Engineering Notes on Large-Scale Document Systems")
    target_words = int(tokens / 1.3)
    sec_no = 0
    while state["words"] < target_words:
        sec_no += 1
        topic = _TOPICS[(sec_no - 1) % len(_TOPICS)]
        sec = add("section", f"{topic[0].title()} {sec_no}", number=str(sec_no), label=f"Section {sec_no}",
                  title=f"{topic[0].title()} {sec_no}", level=1)
        for sub_no in range(1, rnd.randint(3, 5)):
            num = f"{sec_no}.{sub_no}"
            sub = add("section", f"{topic[1].title()} design {num}", number=num, label=f"Section {num}",
                      title=f"{topic[1].title()} design {num}", level=2, parent=sec.id)
            for k in range(rnd.randint(4, 7)):
                words = list(topic[1:])
                rnd.shuffle(words)
                a, b, c, d = words
                fill = {
                    "a": a, "b": b, "c": c, "d": d, "verb": rnd.choice(_VERBS),
                    "sec": rnd.randint(1, max(1, sec_no)), "sec2": rnd.randint(1, max(1, sec_no)) + 1,
                    "tab": rnd.randint(1, max(1, state["tab"])), "fig": rnd.randint(1, max(1, state["fig"])),
                    "fig2": rnd.randint(1, max(1, state["fig"])), "eq": rnd.randint(1, max(1, state["eq"])),
                    "acro": rnd.choice(acronyms) if acronyms else "model", "term": rnd.choice(terms) if terms else "budget",
                    "cite": rnd.randint(1, 40), "rfc": rnd.choice([9110, 8446, 793]),
                }
                sents = [rnd.choice(_OPENERS).format(**fill)]
                if k == 0 and rnd.random() < 0.3:
                    words_ = [w.title() for w in (a, b, "Policy")]
                    acro = "".join(w[0] for w in words_).upper() + str(sec_no)
                    sents.append(f"The {' '.join(words_)} ({acro}) governs the {c}.")
                    acronyms.append(acro)
                if k == 1 and rnd.random() < 0.3:
                    term = f"{a} {d} budget"
                    sents.append(f"We define the {term} as the largest {d} the {a} may use.")
                    terms.append(term)
                for _ in range(rnd.randint(3, 6)):
                    sents.append(rnd.choice(_MIDDLES).format(**fill))
                text = " ".join(sents)
                add("paragraph", text, parent=sub.id)
                roll = rnd.random()
                if roll < 0.10:
                    state["fig"] += 1
                    n = state["fig"]
                    fig = add("figure", "", parent=sub.id, label=f"Figure {n}")
                    add("caption", f"Figure {n}: {d.title()} of the {a} as the {b} grows.", parent=fig.id,
                        label=f"Figure {n}")
                elif roll < 0.18:
                    state["tab"] += 1
                    n = state["tab"]
                    tab = add("table", f"Setting | {a} | {b}\nsmall | 1 | 2\nlarge | 8 | 16", parent=sub.id,
                              label=f"Table {n}")
                    add("caption", f"Table {n}: Settings of the {a} and the {b}.", parent=tab.id, label=f"Table {n}")
                elif roll < 0.24:
                    state["eq"] += 1
                    n = state["eq"]
                    add("equation", f"{d}({a}) = sum_i {b}_i / {c}", parent=sub.id, label=f"Equation ({n})")
    return Document("docx", units, path=f"synthetic-{tokens}")


def to_markdown(doc: Document) -> str:
    """The document as Markdown (for pandoc to turn into a comparable .docx)."""
    out = []
    for u in doc.units:
        if u.kind == "title":
            out.append(f"# {u.text}\n")
        elif u.kind == "section":
            out.append(f"{'#' * ((u.level or 1) + 1)} {u.number} {u.title}\n")
        elif u.kind == "table":
            rows = [r.split(" | ") for r in u.text.split("\n")]
            out.append("| " + " | ".join(rows[0]) + " |\n|" + "---|" * len(rows[0]))
            out.extend("| " + " | ".join(r) + " |" for r in rows[1:])
            out.append("")
        elif u.kind == "equation":
            out.append(f"$$ {u.text} $$\n")
        elif u.kind == "figure":
            continue
        else:
            out.append(u.text + "\n")
    return "\n".join(out)


def _one(tokens: int, semantic: bool, png: str | None) -> dict:
    from addin_backend.graph import build_graph
    from addin_backend.retrieval.tokens import count_tokens

    doc = synthetic_document(tokens)
    n_tokens = sum(count_tokens(u.text) for u in doc.units)
    t0 = time.perf_counter()
    G = build_graph(doc, semantic=semantic)
    total = time.perf_counter() - t0
    out = {
        "tokens": n_tokens,
        "units": len(doc.units),
        "seconds": round(total, 3),
        "seconds_by_stage": G.graph["stats"]["seconds_by_stage"],
        "edges_by_type": G.graph["stats"]["edges_by_type"],
        "broken": G.graph["stats"]["broken_references"],
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    if png:
        from addin_backend.graph.render import render_png

        out["png"] = render_png(G, png)
    return out


def _pandoc_seconds(doc: Document) -> float | None:
    if not shutil.which("pandoc"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        md, docx = os.path.join(tmp, "d.md"), os.path.join(tmp, "d.docx")
        with open(md, "w", encoding="utf-8") as fh:
            fh.write(to_markdown(doc))
        subprocess.run(["pandoc", md, "-o", docx], check=True)
        best = None
        for _ in range(2):
            t0 = time.perf_counter()
            subprocess.run(["pandoc", docx, "-t", "json", "-o", os.devnull], check=True)
            dt = time.perf_counter() - t0
            best = dt if best is None else min(best, dt)
        return round(best, 3)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tokens", type=int, nargs="*", default=[10_000, 100_000])
    p.add_argument("--semantic", action="store_true", help="include RELATED (embeddings)")
    p.add_argument("--png", help="draw the graph of the (last) size into this PNG")
    p.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.one:
        print(json.dumps(_one(args.one, args.semantic, args.png)))
        return 0
    rows = []
    for n in args.tokens:
        cmd = [sys.executable, "-m", "benchmarks.graph_speed", "--one", str(n)]
        cmd += ["--semantic"] if args.semantic else []
        cmd += ["--png", args.png] if args.png and n == args.tokens[-1] else []
        res = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        res["pandoc_docx_to_json"] = _pandoc_seconds(synthetic_document(n))
        rows.append(res)
        per10k = res["seconds"] / res["tokens"] * 10_000
        ratio = f"{res['seconds'] / res['pandoc_docx_to_json']:.2f}x pandoc" if res["pandoc_docx_to_json"] else ""
        print(f"{res['tokens']:>7} tokens {res['units']:>5} units  graph {res['seconds']:.2f}s "
              f"({per10k:.2f}s/10K tokens)  pandoc {res['pandoc_docx_to_json']}s  {ratio}  "
              f"peak {res['peak_rss_mb']} MB")
        print(f"        stages {res['seconds_by_stage']}  edges {res['edges_by_type']}")
    if len(rows) >= 2:
        print(f"growth {rows[-1]['tokens']}/{rows[0]['tokens']} tokens: time ratio "
              f"{rows[-1]['seconds'] / rows[0]['seconds']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
