"""The ``ledger graph`` command's work, given a Document (the CLI reads the file and calls this)."""
from __future__ import annotations

import json
import sys
from typing import IO, TYPE_CHECKING, Any

from adapters.model import Document

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["run_graph_command"]


def _progress_bar(stream: IO[str] | None):
    """A ``progress(stage, fraction)`` callback drawing a tqdm bar per slow stage on ``stream``."""
    from tqdm import tqdm

    bars: dict[str, Any] = {}

    def progress(stage: str, fraction: float) -> None:
        if stage in ("contains", "references"):
            return
        bar = bars.get(stage)
        if bar is None:
            bar = bars[stage] = tqdm(total=100, desc=f"graph: {stage}", file=stream or sys.stderr, leave=False,
                                     disable=None, bar_format="{desc:<16} {bar} {percentage:3.0f}% {elapsed}")
        bar.n = int(round(fraction * 100))
        bar.refresh()
        if fraction >= 1.0:
            bar.close()

    return progress


def run_graph_command(
    doc: Document,
    *,
    as_json: bool = False,
    semantic: bool = True,
    graphml: str | None = None,
    png: str | None = None,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
    graph: nx.MultiDiGraph | None = None,
) -> int:
    """Build the graph of ``doc`` (or take ``graph``, built already) and print it (JSON or a
    summary); write GraphML/PNG if asked."""
    from .build import build_graph
    from .export import to_json, write_graphml

    out = out or sys.stdout
    G = graph if graph is not None else build_graph(doc, semantic=semantic, progress=_progress_bar(err))
    if graphml:
        write_graphml(G, graphml)
    if png:
        from .render import render_png

        render_png(G, png)
    data = to_json(G)
    if as_json:
        out.write(json.dumps(data, ensure_ascii=False))
        out.write("\n")
        return 0
    stats = data["stats"]
    out.write(f"{stats['units']} units\n")
    for t, n in stats["edges_by_type"].items():
        out.write(f"  {t:<11} {n}\n")
    secs = ", ".join(f"{k} {v:.2f}s" for k, v in stats["seconds_by_stage"].items())
    out.write(f"seconds: {secs}\n")
    labels = {n["id"]: n["label"] or n["preview"] for n in data["nodes"]}
    for e in data["edges"]:
        if e["type"] == "CONTAINS":
            continue
        src = labels.get(e["source"]) or e["source"]
        dst = labels.get(e["target"]) or e["target"]
        out.write(f"{e['type']:<10} {str(src)[:30]:<30} -> {str(dst)[:30]:<30} {e['score']:.2f}  {e['evidence'][:70]}\n")
    for b in data["broken_references"]:
        src = labels.get(b["source"]) or b["source"]
        out.write(f"BROKEN     {str(src)[:30]:<30} {b['mention']!r}: {b['reason']}\n")
    return 0
