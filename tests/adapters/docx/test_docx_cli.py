"""``ledger units`` and ``ledger text`` on .docx files (the same functions the API calls)."""
from __future__ import annotations

import json

from addin_backend.cli import main
from tests.conftest import corpus_file


def test_units_json_gives_the_unit_contract(capsys):
    path = str(corpus_file("table_captions_with_field.docx"))
    assert main(["units", "--json", path]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == "docx" and out["path"] == path
    units = out["units"]
    required = {"id", "kind", "label", "number", "title", "text", "parent", "order", "style", "refs"}
    assert all(required <= set(u) for u in units)
    see, cap, table = units[:3]
    assert (see["text"], see["refs"]) == ("See Table 1. ", [{"target": cap["id"], "field": "ref"}])
    assert (cap["kind"], cap["label"], cap["number"], cap["parent"]) == ("caption", "Table 1", "1", table["id"])
    assert (table["kind"], table["label"], table["meta"]["caption"]) == ("table", "Table 1", cap["id"])


def test_units_listing_is_one_line_per_unit(capsys):
    assert main(["units", str(corpus_file("table_captions_with_field.docx"))]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 11
    assert lines[2].split()[1:4] == ["table", lines[2].split()[2], "[Table"]
    assert lines[2].endswith("Count % First option 242 45 Second option 99 18")


def test_text_views_of_a_document_with_tracked_changes(capsys):
    path = str(corpus_file("paragraph_insertion_deletion.docx"))
    assert main(["text", path]) == 0
    assert capsys.readouterr().out == "This is a\n splitParagraph.\n"
    assert main(["text", "--view", "rejected", path]) == 0
    assert capsys.readouterr().out == "This is a split\nParagraph.\n"


def test_line_breaks_stay_inside_their_paragraph_line(capsys):
    assert main(["text", str(corpus_file("soft_line_breaks.docx"))]) == 0
    out = capsys.readouterr().out.split("\n")
    assert out[0] == "Line1\u2028Line2\u2028Line3" and out[1] == "Line4"


def test_several_files_stream_json_lines(capsys, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a document")
    status = main(["units", str(corpus_file("notes.docx")), str(bad)])
    captured = capsys.readouterr()
    first, second = [json.loads(line) for line in captured.out.splitlines()]
    assert [u["kind"] for u in first["units"]][-2:] == ["footnote", "endnote"]
    assert second["error"]["code"] == "not_a_document" and status != 0
