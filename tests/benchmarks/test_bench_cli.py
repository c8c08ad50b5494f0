"""The two benchmark commands: the generator CLI and the reading-speed harness (run for real)."""
from __future__ import annotations

import json
import shutil

import pytest

from benchmarks import generate, read_speed


def test_generate_writes_both_formats_and_the_truth(tmp_path, capsys):
    assert generate.main(["--out", str(tmp_path), "--sizes", "5k", "--formats", "docx,odt", "--seed", "3", "--quiet"]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["synth-5k-s3.docx", "synth-5k-s3.odt", "synth-5k-s3.truth.json"]
    truth = json.loads((tmp_path / "synth-5k-s3.truth.json").read_text(encoding="utf-8"))
    out = capsys.readouterr().out
    assert f"tokens={truth['tokens']}" in out and f"units={len(truth['units'])}" in out
    refs = sum(e["type"] == "REFERENCES" for e in truth["edges"])
    assert f"REFERENCES={refs}" in out


def test_generate_rejects_unknown_formats_and_sizes(tmp_path, capsys):
    for argv in (["--formats", "pdf"], ["--sizes", "huge"]):
        with pytest.raises(SystemExit) as exc:
            generate.main(["--out", str(tmp_path), *argv])
        assert exc.value.code == 2
    assert "unknown pdf" in capsys.readouterr().err


@pytest.mark.skipif(not shutil.which("pandoc"), reason="pandoc is not installed")
def test_read_speed_times_pandoc_and_reports_what_ledger_cannot_read(tmp_path):
    files = read_speed.ensure_documents(tmp_path, ["5k"], ["docx", "odt"])
    (tmp_path / "broken.docx").write_bytes(b"this is not a zip package")
    files[("docx", "broken")] = (tmp_path / "broken.docx", 1)
    results = read_speed.measure(files, reps=1)
    for fmt in ("docx", "odt"):
        pandoc = results[(fmt, "5k")]["pandoc"]
        assert pandoc["error"] is None and pandoc["median"] > 0
        ledger = results[(fmt, "5k")]["ledger"]
        assert (ledger["median"] is None) == bool(ledger["error"])  # timed, or one clear error
    broken = results[("docx", "broken")]
    assert broken["ledger"]["error"].startswith("exit ") and broken["pandoc"]["error"].startswith("exit ")
    table = read_speed.report(results)
    assert "ledger/pandoc" in table and "growth docx" in table
    assert "ledger: broken.docx: cannot read (exit 2" in table
