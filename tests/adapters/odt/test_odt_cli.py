"""``ledger units`` and ``ledger text`` on .odt files."""
from __future__ import annotations

import json

from addin_backend.cli import main
from tests.conftest import corpus_file


def test_units_lists_odt_units_with_labels(capsys):
    assert main(["units", str(corpus_file("base_text.odt"))]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 10
    assert lines[4].split()[:2] == ["4", "section"] and lines[4].endswith("[Section B.1] Level 2 Title")


def test_units_json_for_several_files(capsys):
    files = [str(corpus_file("imageWithCaption.odt")), str(corpus_file("tracked_changes.odt"))]
    assert main(["units", *files]) == 0
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["format"] == "odt" and [u["kind"] for u in first["units"]] == ["figure", "caption"]
    assert first["units"][0]["meta"]["caption"] == "Abbildung 1: Image caption"
    assert second["units"][0]["rejected_text"] == "Bonjour les amis, ça va ?"
    assert [r["kind"] for r in second["revisions"]] == ["deletion", "insertion", "deletion"]


def test_text_in_both_views(capsys):
    path = str(corpus_file("trackedChanges.odt"))
    assert main(["text", path]) == 0
    assert capsys.readouterr().out == "Some text with  and inserted text.\n"
    assert main(["text", path, "--view", "rejected"]) == 0
    assert capsys.readouterr().out == "Some text with deleted text.\n"


def test_a_bad_file_is_one_clear_line(tmp_path, capsys):
    bad = tmp_path / "bad.odt"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    assert main(["units", str(bad)]) != 0
    err = capsys.readouterr().err
    assert err.startswith(f"ledger: {bad}: corrupt") and "Traceback" not in err
