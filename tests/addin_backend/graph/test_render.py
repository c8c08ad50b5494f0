"""The PNG picture: written, sized for the document, drawn with the edge colours and clusters."""
from __future__ import annotations

from addin_backend.graph import FAST_STAGES, build_graph
from addin_backend.graph.render import EDGE_COLOURS, layout, render_png

import graph_docs as gd


def test_png_is_written_and_not_trivial(tmp_path):
    from PIL import Image

    doc, ids = gd.standard()
    G = build_graph(doc, stages=FAST_STAGES)
    out = tmp_path / "standard.png"
    info = render_png(G, str(out))
    assert info["units"] == len(doc.units)
    assert info["edges"]["REFERENCES"] == 5
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(out).convert("RGB")
    assert img.width >= 800 and img.height >= 500
    colours = img.getcolors(maxcolors=1 << 20)
    assert len(colours) > 50  # text, markers, boxes, curves
    blue = tuple(int(EDGE_COLOURS["REFERENCES"][i : i + 2], 16) for i in (1, 3, 5))
    near_blue = sum(n for n, c in colours if sum(abs(a - b) for a, b in zip(c, blue)) < 60)
    assert near_blue > 80  # the REFERENCES curves are there


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
