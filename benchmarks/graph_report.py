"""Tables, plots and the README section of the graph benchmark (:mod:`benchmarks.graph_bench`)."""
from __future__ import annotations

import json
from pathlib import Path

from benchmarks.doc_block import link, replace_block

__all__ = ["pooled", "text_table", "markdown", "plot_time", "plot_quality", "write_outputs"]

_TYPES = ("REFERENCES", "DEPENDS", "RELATED", "CONTAINS")


def _run_scores(doc: dict, typ: str) -> dict | None:
    if typ == "RELATED":
        return doc.get("semantic", {}).get("scores", {}).get(typ)
    return doc["fast"]["scores"].get(typ)


def pooled(result: dict, fmt: str, typ: str) -> dict[str, float] | None:
    """Precision, recall, F1 of one edge type over all sizes of one format (edges pooled)."""
    tp = fp = fn = 0
    seen = False
    for d in result["documents"]:
        s = _run_scores(d, typ) if d["format"] == fmt else None
        if s:
            seen = True
            tp, fp, fn = tp + s["tp"], fp + s["fp"], fn + s["fn"]
    if not seen:
        return None
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "tp": tp, "fp": fp, "fn": fn}


def _pr(s: dict | None) -> str:
    return f"{s['precision']:.3f} / {s['recall']:.3f}" if s else "-"


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}x" if a and b else "-"


def _per10k(seconds: float | None, tokens: int) -> str:
    return f"{seconds / tokens * 10_000:.2f}" if seconds is not None else "-"


def _growth(result: dict, fmt: str, key: str, semantic: bool = False) -> str:
    by = {d["size"]: d for d in result["documents"] if d["format"] == fmt}
    if "10k" not in by or "100k" not in by:
        return "-"
    if semantic:
        a = by["10k"].get("semantic", {}).get("seconds", {}).get(key)
        b = by["100k"].get("semantic", {}).get("seconds", {}).get(key)
    else:
        a, b = by["10k"]["fast"]["seconds"].get(key), by["100k"]["fast"]["seconds"].get(key)
    return f"{b / a:.1f}" if a and b else "-"


def text_table(result: dict) -> str:
    """The console table: quality and speed per document, then growth."""
    rows = [f"{'doc':<12}{'tokens':>7}{'units':>6}  {'REFERENCES P/R':>15}  {'DEPENDS P/R':>13}  {'RELATED P/R':>13}"
            f"  {'read':>6}{'graph':>7}{'depends':>8}{'process':>8}{'pandoc':>7}{'ratio':>7}{'peak MB':>8}"
            f"{'+emb s':>8}{'s/10K':>7}"]
    for d in result["documents"]:
        f, sem = d["fast"], d.get("semantic")
        sec = f["seconds"]
        sem_s = sem["seconds"]["read_and_graph"] if sem else None
        rows.append(
            f"{d['size'] + '.' + d['format']:<12}{d['tokens']:>7}{d['units']:>6}  {_pr(_run_scores(d, 'REFERENCES')):>15}"
            f"  {_pr(_run_scores(d, 'DEPENDS')):>13}  {_pr(_run_scores(d, 'RELATED')):>13}"
            f"  {sec['read']:>6.2f}{sec['graph']:>7.2f}{sec.get('depends') or 0:>8.2f}{sec['process'] or 0:>8.2f}"
            f"{d['pandoc_seconds'] or 0:>7.2f}{_ratio(sec['process'], d['pandoc_seconds']):>7}{f['peak_rss_mb']:>8.0f}"
            f"{(f'{sem_s:.1f}' if sem_s else '-'):>8}{_per10k(sem_s, d['tokens']):>7}"
        )
    for fmt in sorted({d["format"] for d in result["documents"]}):
        rows.append(f"growth {fmt} 100K/10K: read+graph {_growth(result, fmt, 'read_and_graph')} "
                    f"(CPU {_growth(result, fmt, 'read_and_graph_cpu')}), process {_growth(result, fmt, 'process')}, "
                    f"with embeddings {_growth(result, fmt, 'read_and_graph', True)} "
                    f"(CPU {_growth(result, fmt, 'read_and_graph_cpu', True)})")
        pooled_line = ", ".join(f"{t} {_pr(pooled(result, fmt, t))}" for t in _TYPES if pooled(result, fmt, t))
        rows.append(f"pooled {fmt} (precision / recall): {pooled_line}")
    return "\n".join(rows)


def _quality_table(result: dict) -> list[str]:
    lines = ["| document | tokens | REFERENCES P / R | DEPENDS P / R | RELATED P / R | CONTAINS P / R |",
             "|---|---:|---|---|---|---|"]
    for d in result["documents"]:
        cells = " | ".join(_pr(_run_scores(d, t)) for t in _TYPES)
        lines.append(f"| {d['size']}.{d['format']} | {d['tokens']} | {cells} |")
    for fmt in sorted({d["format"] for d in result["documents"]}):
        cells = " | ".join(_pr(pooled(result, fmt, t)) for t in _TYPES)
        lines.append(f"| **all {fmt}** | | {cells} |")
    broken = [d["fast"]["scores"].get("broken") for d in result["documents"]]
    if all(broken):
        tp, fp, fn = (sum(b[k] for b in broken) for k in ("tp", "fp", "fn"))
        lines += ["", f"Broken references (mentions of labels no unit carries, all documents): {tp} found of "
                  f"{tp + fn}, {fp} reported wrongly."]
    return lines


def _speed_table(result: dict) -> list[str]:
    lines = ["| document | read s | graph s (refs / depends) | read+graph s (CPU s) | process s | pandoc s "
             "| process / pandoc | peak RSS MB | with embeddings: read+graph s (CPU s) [model load s] "
             "| s per 10K tokens | peak RSS MB |",
             "|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|"]
    for d in result["documents"]:
        s, sem = d["fast"]["seconds"], d.get("semantic")
        emb = (f"{sem['seconds']['read_and_graph']:.1f} ({sem['seconds'].get('read_and_graph_cpu', 0):.1f}) "
               f"[{sem['seconds']['model_load']:.1f}]" if sem else "-")
        sem_peak = f"{sem['peak_rss_mb']:.0f}" if sem else "-"
        lines.append(
            f"| {d['size']}.{d['format']} | {s['read']:.2f} | {s['graph']:.2f} ({s.get('references', 0):.2f} / "
            f"{s.get('depends', 0):.2f}) | {s['read_and_graph']:.2f} ({s.get('read_and_graph_cpu', 0):.2f}) | "
            f"{s['process']:.2f} | "
            f"{d['pandoc_seconds'] or 0:.2f} | {_ratio(s['process'], d['pandoc_seconds'])} | "
            f"{d['fast']['peak_rss_mb']:.0f} | {emb} | "
            f"{_per10k(sem['seconds']['read_and_graph'] if sem else None, d['tokens'])} | "
            f"{sem_peak} |")
    for fmt in sorted({d["format"] for d in result["documents"]}):
        lines.append(f"| growth 100K/10K {fmt} | | | {_growth(result, fmt, 'read_and_graph')} "
                     f"({_growth(result, fmt, 'read_and_graph_cpu')}) | {_growth(result, fmt, 'process')} | | | | "
                     f"{_growth(result, fmt, 'read_and_graph', True)} "
                     f"({_growth(result, fmt, 'read_and_graph_cpu', True)}) | | |")
    return lines


def _examples(result: dict, typ: str, kind: str, limit: int = 6) -> list[str]:
    """Up to ``limit`` examples, two per document at most, from one format (docx if measured)."""
    fmts = [d["format"] for d in result["documents"]]
    fmt = "docx" if "docx" in fmts else (fmts[0] if fmts else None)
    out = []
    for d in result["documents"]:
        if d["format"] != fmt:
            continue
        s = _run_scores(d, typ)
        for e in (s or {}).get(kind, [])[:2]:
            if len(out) >= limit:
                return out
            ev = f"evidence '{e['evidence']}'" if e.get("evidence") else ""
            how = e.get("how") or e.get("origin") or ""
            out.append(f"- {d['size']}.{d['format']} {e['source']} -> {e['target']} ({e['target_label']}), "
                       f"{how} {ev}: \u201c{e['source_text']}\u201d")
    return out


def markdown(result: dict, images: dict[str, str] | None = None) -> str:
    """The generated part of the README section (and ``graph.md``)."""
    m = result["machine"]
    lines = [f"Measured {result['date']} on {m['cpus']} CPUs (Python {m['python']}) with "
             f"`{result['command'].strip()}`; medians of {result['documents'][0]['reps']} interleaved cold runs "
             f"without embeddings, of {result['documents'][0].get('semantic', {}).get('reps', 1)} with.",
             "", "Precision / recall per edge type (RELATED from the run with embeddings):", ""]
    lines += _quality_table(result)
    lines += ["", "Speed and memory. *read+graph*: reading and building without embeddings, in a fresh "
              "process (model-free: the word lists load in the DEPENDS stage); *process*: interpreter start to "
              "graph built (what `pandoc -f FMT -t json` is compared with, pandoc also cold); CPU s: the process's "
              "CPU time over read+graph (all threads; less sensitive than wall time to the other jobs on this shared "
              "machine); *with embeddings*: read and build with RELATED, the embedding model loaded beforehand "
              "(its load time in brackets).", ""]
    lines += _speed_table(result)
    for typ, kind, title in (("REFERENCES", "misses", "REFERENCES misses"), ("REFERENCES", "spurious", "REFERENCES spurious"),
                             ("DEPENDS", "misses", "DEPENDS misses"), ("DEPENDS", "spurious", "DEPENDS spurious"),
                             ("RELATED", "misses", "RELATED misses"), ("RELATED", "spurious", "RELATED spurious")):
        ex = _examples(result, typ, kind)
        lines += ["", f"{title}: " + ("none" if not ex else "")] + ex
    if images:
        lines += [""] + [f"![{alt}]({src})" for alt, src in images.items()]
    return "\n".join(lines) + "\n"


def plot_time(result: dict, path: Path) -> None:
    """Seconds against document size: ledger (read+graph, process, per stage) and pandoc."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2), dpi=110)
    for fmt, style in (("docx", "-"), ("odt", "--")):
        docs = sorted((d for d in result["documents"] if d["format"] == fmt), key=lambda d: d["tokens"])
        if not docs:
            continue
        x = [d["tokens"] for d in docs]
        ax.plot(x, [d["fast"]["seconds"]["process"] for d in docs], style, marker="o", label=f"ledger process ({fmt})")
        ax.plot(x, [d["fast"]["seconds"]["read_and_graph"] for d in docs], style, marker=".", label=f"ledger read+graph ({fmt})")
        ax.plot(x, [d["pandoc_seconds"] for d in docs], style, marker="s", color="black", label=f"pandoc -t json ({fmt})")
        if fmt == "docx":
            ax.plot(x, [2 * d["pandoc_seconds"] for d in docs], ":", color="grey", label="2 x pandoc (docx)")
            for stage in ("read", "references", "depends"):
                bx.plot(x, [max(d["fast"]["seconds"].get(stage) or 0, 1e-4) for d in docs], marker="o", label=stage)
            if all("semantic" in d for d in docs):
                bx.plot(x, [d["semantic"]["seconds"].get("related") or 1e-4 for d in docs], marker="o", label="related")
                bx.plot(x, [d["semantic"]["seconds"]["model_load"] for d in docs], ":", marker="x", label="embedder load")
            bx.plot(x, [d["pandoc_seconds"] for d in docs], marker="s", color="black", label="pandoc")
    for a, title in ((ax, "Graph without embeddings vs pandoc"), (bx, "Seconds per stage (docx)")):
        a.set_xscale("log")
        a.set_yscale("log")
        a.set_xlabel("document size (cl100k tokens)")
        a.set_ylabel("seconds")
        a.set_title(title)
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=7)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def plot_quality(result: dict, path: Path) -> None:
    """Precision and recall per edge type and format, pooled over sizes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fmts = sorted({d["format"] for d in result["documents"]})
    fig, ax = plt.subplots(figsize=(8, 3.8), dpi=110)
    width = 0.8 / (2 * len(fmts))
    for i, t in enumerate(_TYPES):
        for j, fmt in enumerate(fmts):
            s = pooled(result, fmt, t)
            if not s:
                continue
            for k, metric in enumerate(("precision", "recall")):
                pos = i + (2 * j + k - len(fmts)) * width + width / 2
                ax.bar(pos, s[metric], width, color=f"C{2 * j + k}", label=f"{metric} ({fmt})" if i == 0 else None)
                ax.text(pos, s[metric] + 0.01, f"{s[metric]:.2f}", ha="center", fontsize=6)
    for t, (p, r) in result.get("targets", {}).items():
        i = _TYPES.index(t)
        ax.hlines([p, r], i - 0.45, i + 0.45, colors="grey", linestyles=":", linewidth=1)
    ax.set_xticks(range(len(_TYPES)), _TYPES)
    ax.set_ylim(0, 1.1)
    ax.set_title("Precision and recall per edge type (all sizes pooled; dotted: targets)")
    ax.legend(fontsize=7, ncol=2, loc="lower left")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)


def write_outputs(result: dict, out: Path, readme: Path | None) -> list[Path]:
    """``graph.json``, ``graph.md``, ``graph_time.png``, ``graph_quality.png`` and the block of
``readme`` (docs/benchmarks.md by default)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "graph.json", "md": out / "graph.md", "time": out / "graph_time.png",
             "quality": out / "graph_quality.png"}
    paths["json"].write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    plot_time(result, paths["time"])
    plot_quality(result, paths["quality"])
    paths["md"].write_text("# Graph benchmark\n\n" + markdown(result, {"time": paths["time"].name,
                                                                      "quality": paths["quality"].name}),
                           encoding="utf-8")
    written = list(paths.values())
    if readme is not None:
        replace_block(readme, "graph-bench", markdown(result, {
            "Seconds against size": link(paths["time"], readme),
            "Precision and recall per edge type": link(paths["quality"], readme)}), "Graph benchmark")
        written.append(readme)
    return written
