"""Heading numbers of the development set: LEDGER's against the truth's rendered labels.

The truth's ``label`` ("4.2.", "Appendix A.", None for an unnumbered heading) is what Word and
LibreOffice show (the set's validation.json records LibreOffice's ListLabelString agreeing on
every file), so a reader that matches it renders numbers as the word processors do.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import adapters

DEVSET = Path(__file__).resolve().parents[2].parent / "shared" / "devset" / "rfc"
NAMES = ("rfc9002", "rfc6787", "rfc8446", "rfc9000", "rfc9420")


def heading_mismatches(name: str, variant: str) -> tuple[int, list[tuple]]:
    """``(headings, mismatches)``: each mismatch is (title, truth label and number, ours)."""
    path = DEVSET / f"{name}.{variant}"
    if not path.exists():
        pytest.skip(f"the development set is not at {DEVSET}")
    truth = json.loads((DEVSET / f"{name}.truth.json").read_text())["headings"]
    doc = adapters.read_path(str(path))
    ours = [u for u in doc.units if u.kind == "section"]
    assert [u.title for u in ours] == [h["title"] for h in truth], "heading units differ from the truth's headings"
    bad = []
    for u, h in zip(ours, truth):
        want = (h["label"] or None, h["number"] or None)
        got = (u.meta.get("list_label"), u.number)
        if got != want:
            bad.append((h["title"], want, got))
    return len(truth), bad
