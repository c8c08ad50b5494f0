"""The PNG picture: written, sized for the document, drawn with the edge colours and clusters."""
from __future__ import annotations

from addin_backend.graph import FAST_STAGES, build_graph
from addin_backend.graph.render import EDGE_COLOURS, layout, render_png

import graph_docs as gd


def _bluish(img):
    """Pixels of the REFERENCES blue, pure or blended with the white background."""
    return sum(n for n, (r, g, b) in img.getcolors(maxcolors=1 << 22) if b > r + 60 and b > g + 30)


def test_png_is_written_and_not_trivial(tmp_path):
    from PIL import Image

    doc, ids = gd.paper()
    G = build_graph(doc, stages=FAST_STAGES)
    out = tmp_path / "paper.png"
    info = render_png(G, str(out))
    assert info["units"] == len(doc.units)
    assert info["edges"]["REFERENCES"] == 10
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(out).convert("RGB")
    assert img.width >= 800 and img.height >= 500
    assert len(img.getcolors(maxcolors=1 << 22)) > 50  # text, markers, boxes, curves
    # the REFERENCES curves are drawn: without them the picture has far less of their blue
    H = G.copy()
    H.remove_edges_from([(u, v, k) for u, v, k in G.edges(keys=True) if k == "REFERENCES"])
    render_png(H, str(tmp_path / "bare.png"))
    bare = Image.open(tmp_path / "bare.png").convert("RGB")
    assert EDGE_COLOURS["REFERENCES"] == "#1f5fbf"
    assert _bluish(img) > _bluish(bare) + 500


def test_layout_puts_each_top_level_section_in_its_own_box():
    doc, ids = gd.paper()
    G = build_graph(doc, stages=["contains"])
    lay = layout(G)
    assert [b["title"] for b in lay["boxes"]] == ["front matter", "1 Introduction", "2 Method", "3 Evaluation"]
    assert set(lay["pos"]) == {u.id for u in doc.units}
    box = lay["boxes"][2]
    for key in ("s2", "s21", "p3", "eq1", "s22", "tbl1", "cap2"):
        x, y = lay["pos"][ids[key]]
        assert box["x"] < x < box["x"] + box["w"] and box["y"] < y < box["y"] + box["h"]
    assert lay["band"][ids["p3"]] != lay["band"][ids["tbl1"]]  # subsections 2.1 and 2.2 tinted apart
