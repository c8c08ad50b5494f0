"""The DOCX writer walks a unit once for all its text changes (adapters/docx/textedit.py).

Changes are written from the last to the first on one walk: splitting a run keeps the text
before the split where the walk saw it. A change that touches one already written walks again,
and so does every change in a unit whose ``w:t`` drops white space when split (no
``xml:space="preserve"``). Counted, not timed: the walks are what made 1,000 renames in one
paragraph quadratic.
"""
from __future__ import annotations

import pytest

from adapters.docx import textedit
from tests.adapters.docx.docxkit import make_docx
from tests.adapters.docx.writerkit import ed, write_edits


def _p(*runs: str) -> str:
    return f"<w:p>{''.join(runs)}</w:p>"


def _r(text: str, preserve: bool = True) -> str:
    space = ' xml:space="preserve"' if preserve else ""
    return f"<w:r><w:t{space}>{text}</w:t></w:r>"


@pytest.fixture
def walks(monkeypatch):
    """How many times the writer walked a unit's segments."""
    seen = {"n": 0}
    real = textedit.UnitTarget.segments

    def counted(self, context):
        seen["n"] += 1
        return real(self, context)

    monkeypatch.setattr(textedit.UnitTarget, "segments", counted)
    return seen


def _renames(doc, word: str, new: str) -> list:
    u = doc.units[0]
    out, at = [], u.text.find(word)
    while at >= 0:
        out.append(ed("replace", u.id, start=at, end=at + len(word), text=new))
        at = u.text.find(word, at + 1)
    return out


def test_many_changes_in_one_paragraph_walk_it_a_fixed_number_of_times(walks):
    text = " ".join(f"the widget {i} is here." for i in range(300))
    w = write_edits(make_docx(_p(_r(text[:2000]), _r(text[2000:]))), lambda d: _renames(d, "widget", "gadget"))
    assert len(w.edits) == 300
    assert walks["n"] <= 3  # the rewrites' walk and the one walk (was one per change: 300 more)


def test_changes_that_touch_walk_again_and_land_in_order(walks):
    # a replacement, an insertion at its end and one at its start, and a deletion right after
    w = write_edits(make_docx(_p(_r("alpha beta gamma delta"))), lambda d: [
        ed("replace", d.units[0].id, start=6, end=10, text="BETA"),
        ed("replace", d.units[0].id, start=10, end=10, text="!"),
        ed("replace", d.units[0].id, start=6, end=6, text="<"),
        ed("replace", d.units[0].id, start=10, end=16, text=""),
    ])
    assert w.accepted() == ["alpha <BETA! delta"]
    assert walks["n"] >= 4


def test_a_run_without_preserved_space_is_walked_for_each_change(walks):
    # Word ignores the edge white space of such a w:t; splitting it drops that space, which
    # moves the offsets of what stays in it: each change walks the unit again
    w = write_edits(make_docx(_p(_r("  one two three two one", preserve=False))), lambda d: _renames(d, "two", "2"))
    assert w.accepted() == ["one 2 three 2 one"]
    assert walks["n"] >= 3
