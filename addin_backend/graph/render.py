"""A PNG picture of the graph: top-level sections as boxes, units in reading order, typed edges.

CONTAINS is drawn as the boxes themselves (a unit sits in its top-level section's box, and
subsections are tinted bands inside it). REFERENCES, DEPENDS and RELATED inside a box are curves
between units, in their own colours with a dot at the target end; edges between boxes are
bundled into one curve per pair of boxes and type, as thick as the log of their number and
labelled with it. That keeps a document of a few hundred units readable.
"""
from __future__ import annotations

import math
from typing import Any

import networkx as nx

from adapters.label_grammar import heading_number

from .edges import CONTAINS, DEPENDS, DOCUMENT_ID, REFERENCES, RELATED

__all__ = ["EDGE_COLOURS", "KIND_STYLE", "layout", "render_png"]

EDGE_COLOURS = {REFERENCES: "#1f5fbf", DEPENDS: "#e07b00", RELATED: "#8a8a8a"}
#: kind -> (marker, colour, size)
KIND_STYLE = {
    "title": ("s", "#222222", 70),
    "section": ("s", "#4b3b8f", 60),
    "paragraph": ("o", "#5a9e6f", 30),
    "list_item": ("o", "#9cc9a8", 22),
    "caption": ("v", "#b0884f", 26),
    "figure": ("^", "#c0392b", 55),
    "table": ("D", "#8e44ad", 45),
    "equation": ("*", "#d35400", 80),
    "footnote": ("x", "#555555", 30),
    "endnote": ("x", "#555555", 30),
}
_GAP = 1.3  # between boxes, where the bundled edges run
_BANDS = ("#eef2fb", "#fbf3e6", "#eaf6ee", "#f6eaf3", "#f1f1f1", "#e8f4f8")


def _children(G: nx.MultiDiGraph) -> dict[str, list[str]]:
    kids: dict[str, list[str]] = {}
    for u, v, k in G.edges(keys=True):
        if k == CONTAINS:
            kids.setdefault(u, []).append(v)
    order = nx.get_node_attributes(G, "order")
    for lst in kids.values():
        lst.sort(key=lambda n: order.get(n, 0))
    return kids


def _descendants(kids: dict[str, list[str]], n: str) -> list[str]:
    out: list[str] = []
    stack = list(reversed(kids.get(n, [])))
    while stack:
        x = stack.pop()
        out.append(x)
        stack.extend(reversed(kids.get(x, [])))
    return out


def layout(G: nx.MultiDiGraph) -> dict[str, Any]:
    """Cluster boxes and node positions: ``{"pos": {id: (x, y)}, "boxes": [...], "band": {id: i}}``."""
    kids = _children(G)
    top = kids.get(DOCUMENT_ID, [])
    clusters: list[tuple[str | None, list[str]]] = []
    loose: list[str] = []
    for n in top:
        if G.nodes[n].get("kind") == "section":
            if loose:
                clusters.append((None, loose))
                loose = []
            clusters.append((n, [n] + _descendants(kids, n)))
        else:
            loose.extend([n] + _descendants(kids, n))
    if loose:
        clusters.append((None, loose))
    placed = {n for _, members in clusters for n in members}
    rest = sorted((n for n in G.nodes if n not in placed and n != DOCUMENT_ID), key=lambda n: G.nodes[n].get("order", 0))
    if rest:
        clusters.append((None, rest))

    sizes = []
    for _, members in clusters:
        cols = max(3, min(14, math.ceil(math.sqrt(len(members) * 2.2))))
        rows = math.ceil(len(members) / cols)
        sizes.append((cols, rows))
    area = sum((c + 1.2) * (r + 2.0) for c, r in sizes)
    width = max(max(c + 1.2 for c, _ in sizes), math.sqrt(area) * 1.5)

    pos: dict[str, tuple[float, float]] = {}
    cluster_of: dict[str, int] = {}
    band: dict[str, int] = {}
    boxes: list[dict[str, Any]] = []
    x = y = 0.0
    shelf = 0.0
    for (head, members), (cols, rows) in zip(clusters, sizes):
        w, h = cols + 1.2, rows + 2.0
        if x > 0 and x + w > width:
            x, y = 0.0, y + shelf + _GAP
            shelf = 0.0
        # subsections tint their units: band index per second-level section
        sub = {}
        if head:
            for i, s in enumerate(c for c in kids.get(head, []) if G.nodes[c].get("kind") == "section"):
                for d in [s] + _descendants(kids, s):
                    sub[d] = i % len(_BANDS)
        for i, n in enumerate(members):
            r, c = divmod(i, cols)
            pos[n] = (x + 0.6 + c + 0.5, y + 1.6 + r + 0.5)
            cluster_of[n] = len(boxes)
            if n in sub:
                band[n] = sub[n]
        title = "front matter"
        if head:
            attrs = G.nodes[head]
            title = " ".join(str(p) for p in (attrs.get("number"), attrs.get("title") or attrs.get("preview")) if p)
        boxes.append({"x": x, "y": y, "w": w, "h": h, "title": title, "members": len(members)})
        x += w + _GAP
        shelf = max(shelf, h)
    return {"pos": pos, "boxes": boxes, "band": band, "cluster": cluster_of, "width": width, "height": y + shelf}


def _curve(p, q, bend: float = 0.18, steps: int = 12):
    (x1, y1), (x2, y2) = p, q
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = x2 - x1, y2 - y1
    cx, cy = mx - dy * bend, my + dx * bend
    pts = []
    for i in range(steps + 1):
        t = i / steps
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        pts.append((a * x1 + b * cx + c * x2, a * y1 + b * cy + c * y2))
    return pts


def render_png(G: nx.MultiDiGraph, path: str, *, title: str | None = None, dpi: int = 130) -> dict[str, Any]:
    """Draw ``G`` into a PNG at ``path``; returns the layout's size and what was drawn."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyBboxPatch, Rectangle

    lay = layout(G)
    pos, band = lay["pos"], lay["band"]
    cell = 0.42
    fig_w = max(8.0, min(40.0, lay["width"] * cell + 1.5))
    fig_h = max(5.0, min(60.0, lay["height"] * cell + 2.2))
    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    ax.set_xlim(-0.5, lay["width"] + 0.5)
    ax.set_ylim(lay["height"] + 0.5, -1.2)
    ax.set_aspect("equal")
    ax.axis("off")

    for i, b in enumerate(lay["boxes"]):
        ax.add_patch(
            FancyBboxPatch(
                (b["x"], b["y"]), b["w"], b["h"], boxstyle="round,pad=0.02,rounding_size=0.35",
                facecolor="#fafafa", edgecolor="#9a9aa6", linewidth=1.0, zorder=0,
            )
        )
        room = max(8, int(b["w"] * cell / 0.075))
        name = b["title"] if len(b["title"]) <= room else b["title"][: room - 1] + "\u2026"
        ax.text(b["x"] + 0.3, b["y"] + 0.75, name, fontsize=8.5, fontweight="bold", color="#333355",
                va="center", ha="left", zorder=5, clip_on=True)
    for n, i in band.items():
        x, y = pos[n]
        ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1.0, 1.0, facecolor=_BANDS[i], edgecolor="none", zorder=1))

    drawn = {}
    cl = lay["boxes"]
    cluster = lay["cluster"]
    bends = {RELATED: -0.12, DEPENDS: 0.22, REFERENCES: 0.12}
    for etype, width, alpha, style in ((RELATED, 0.6, 0.35, "--"), (DEPENDS, 0.9, 0.6, "-"), (REFERENCES, 1.0, 0.7, "-")):
        segs, heads = [], []
        bundles: dict[tuple[int, int], int] = {}
        count = 0
        for u, v, k in G.edges(keys=True):
            if k != etype or u not in pos or v not in pos:
                continue
            if etype == RELATED and u > v:
                continue  # one curve per symmetric pair
            count += 1
            a, b = cluster[u], cluster[v]
            if a != b:
                key = (min(a, b), max(a, b)) if etype == RELATED else (a, b)
                bundles[key] = bundles.get(key, 0) + 1
                continue
            pts = _curve(pos[u], pos[v])
            segs.append(pts)
            heads.append(pts[-2])
        drawn[etype] = count
        if segs:
            ax.add_collection(LineCollection(segs, colors=EDGE_COLOURS[etype], linewidths=width, alpha=alpha,
                                             linestyles=style, zorder=2))
            if etype != RELATED:
                ax.scatter([h[0] for h in heads], [h[1] for h in heads], s=7, color=EDGE_COLOURS[etype], zorder=3,
                           alpha=0.9, linewidths=0)
        for (a, b), n in sorted(bundles.items()):
            pa = (cl[a]["x"] + cl[a]["w"] / 2, cl[a]["y"] + cl[a]["h"] / 2)
            pb = (cl[b]["x"] + cl[b]["w"] / 2, cl[b]["y"] + cl[b]["h"] / 2)
            pts = _curve(pa, pb, bend=bends[etype], steps=24)
            lw = 0.7 + 1.3 * math.log2(1 + n)
            ax.add_collection(LineCollection([pts], colors=EDGE_COLOURS[etype], linewidths=lw,
                                             alpha=0.3 if etype == RELATED else 0.5, linestyles=style, zorder=-1,
                                             capstyle="round"))
            if etype != RELATED:  # a dot where the bundle enters its target box shows the direction
                tb = cl[b]
                entry = next((p for p in reversed(pts) if not (tb["x"] <= p[0] <= tb["x"] + tb["w"]
                                                              and tb["y"] <= p[1] <= tb["y"] + tb["h"])), pts[0])
                ax.scatter([entry[0]], [entry[1]], s=10 + 3 * lw * lw, color=EDGE_COLOURS[etype], zorder=3,
                           linewidths=0)
            mid = pts[len(pts) // 2]
            if any(c["x"] <= mid[0] <= c["x"] + c["w"] and c["y"] <= mid[1] <= c["y"] + c["h"] for c in cl):
                continue  # a count floating over another box would be misread
            ax.text(mid[0], mid[1], str(n), fontsize=6, color=EDGE_COLOURS[etype], ha="center", va="center",
                    zorder=7, bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})

    by_kind: dict[str, list[str]] = {}
    for n in pos:
        by_kind.setdefault(G.nodes[n].get("kind", "paragraph"), []).append(n)
    for kind, nodes in by_kind.items():
        marker, colour, size = KIND_STYLE.get(kind, ("o", "#777777", 25))
        ax.scatter([pos[n][0] for n in nodes], [pos[n][1] for n in nodes], marker=marker, s=size, c=colour,
                   zorder=4, linewidths=0.8 if marker == "x" else 0.3, edgecolors="white" if marker != "x" else None)
    for n, (x, y) in pos.items():
        d = G.nodes[n]
        lab = d.get("label")
        if d.get("kind") == "section":
            got = heading_number(str(d.get("title") or d.get("preview") or ""))
            typed = got[0] if got else None
            lab = d.get("number") or (lab.split()[-1] if lab else None) or typed
        elif lab:
            parts = lab.replace("Equation", "Eq.").replace("Figure", "Fig.").replace("Section", "\u00a7").split()
            lab = " ".join(parts)
        if lab:
            ax.text(x, y + 0.36, str(lab)[:12], fontsize=5.2, ha="center", va="top", color="#202020", zorder=6)

    handles = [Line2D([0], [0], color=c, lw=2, ls="--" if t == RELATED else "-", label=f"{t} ({drawn.get(t, 0)})")
               for t, c in EDGE_COLOURS.items()]
    handles.append(Line2D([0], [0], color="#777777", lw=4, alpha=0.5, label="between boxes: bundled, with count"))
    present = [k for k in KIND_STYLE if k in by_kind]
    handles += [Line2D([0], [0], marker=KIND_STYLE[k][0], color="w", markerfacecolor=KIND_STYLE[k][1],
                       markeredgecolor=KIND_STYLE[k][1], markersize=7, label=k.replace("_", " ")) for k in present]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.0, 1.0), ncol=min(6, len(handles)), fontsize=7.5,
              frameon=True, framealpha=0.9, borderaxespad=0.2)
    root = G.nodes[DOCUMENT_ID].get("label") if DOCUMENT_ID in G else None
    ax.set_title(title or f"{root or 'document'}: {len(pos)} units", fontsize=11, loc="left", pad=22)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return {"units": len(pos), "clusters": len(lay["boxes"]), "edges": drawn, "inches": (round(fig_w, 1), round(fig_h, 1))}
