"""The ``ledger graph`` command: JSON on stdout, GraphML and PNG files, a readable summary."""
from __future__ import annotations

import io
import json

import pytest

from addin_backend.cli import build_parser, main
from addin_backend.graph.command import run_graph_command

import graph_docs as gd


def test_parser_knows_the_graph_command():
    args = build_parser().parse_args(["graph", "x.docx", "--json", "--no-semantic", "--graphml", "g.graphml",
                                      "--png", "g.png"])
    assert (args.file, args.json, args.no_semantic, args.graphml, args.png) == (
        "x.docx", True, True, "g.graphml", "g.png")


@pytest.mark.models
def test_json_graphml_and_png(tmp_path):
    doc, ids = gd.contract()
    out, err = io.StringIO(), io.StringIO()
    rc = run_graph_command(doc, as_json=True, semantic=False, graphml=str(tmp_path / "g.graphml"),
                           png=str(tmp_path / "g.png"), out=out, err=err)
    assert rc == 0
    data = json.loads(out.getvalue())
    assert data["stats"]["edges_by_type"] == {"CONTAINS": 15, "REFERENCES": 4, "DEPENDS": 6, "RELATED": 0}
    assert (tmp_path / "g.graphml").read_text(encoding="utf-8").startswith("<?xml")
    assert (tmp_path / "g.png").stat().st_size > 10_000


@pytest.mark.models
def test_summary_lists_edges_and_broken_references():
    doc, _ = gd.contract()
    out = io.StringIO()
    assert run_graph_command(doc, semantic=False, out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    assert text.startswith("15 units\n  CONTAINS    15\n  REFERENCES  4\n  DEPENDS     6\n  RELATED     0\n")
    assert "REFERENCES Either party may terminate on  -> Article 3" in text
    assert "BROKEN" in text and "'Article 9': no unit is labelled Article 9" in text


def test_unreadable_file_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "not.docx"
    bad.write_bytes(b"this is not a zip")
    rc = main(["graph", str(bad), "--no-semantic"])
    assert rc == 2
    assert "not.docx" in capsys.readouterr().err


def test_real_cross_reference_document_through_the_cli(capsys):
    """pandoc's cross_reference.docx: a heading "TITLE" and a REF field pointing at it."""
    pytest.importorskip("adapters.docx.reader", reason="the DOCX reader is not on this branch yet")
    from tests.conftest import corpus_file

    path = corpus_file("cross_reference.docx")
    assert main(["graph", str(path), "--json", "--no-semantic"]) == 0
    data = json.loads(capsys.readouterr().out)
    kinds = {n["id"]: n["kind"] for n in data["nodes"]}
    refs = [e for e in data["edges"] if e["type"] == "REFERENCES"]
    assert [(e["origin"], e["evidence"], kinds[e["target"]]) for e in refs] == [("field", "TITLE", "section")]
    assert data["stats"]["edges_by_type"]["CONTAINS"] == len(data["nodes"]) - 1
