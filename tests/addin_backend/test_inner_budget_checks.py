"""Issue 33, item 4: the budget is checked inside the long steps, not only between them.

Each step runs here, on a real document, under a deadline that has already passed: the step
must stop with ``deadline_exceeded`` at its first unit instead of running to its end (none of
these functions checks the budget anywhere else). The writers take the caller's check as a
parameter (the adapters know no budget) and give back the caller's own error, not an
``AdapterError``.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import replace as dc_replace

import pytest

import adapters
from adapters.model import Replace
from addin_backend.budget import budget
from addin_backend.budget import check as check_budget
from addin_backend.errors import DeadlineExceededError, InvalidRequestError
from tests.adapters.docx.docxkit import paragraphs_docx
from tests.adapters.odt.odt_build import odt, p

TEXTS = [f"Paragraph {i}: the widget sends frame {i} to the server, and the server answers the widget."
         for i in range(40)]


def _past() -> "budget":
    """A budget whose deadline has passed by the time the block runs."""
    b = budget(0.000001, "a test request")
    return b


def _replaces(doc: adapters.Document) -> list[Replace]:
    out = []
    for i, u in enumerate(x for x in doc.units if "widget" in x.text):
        at = u.text.index("widget")
        out.append(Replace(u.id, at, at + 6, "gadget", before=u.text, id=f"op-{i + 1}"))
    return out


def _stop_after(n: int, calls: list[int]):
    def check() -> None:
        calls.append(1)
        if len(calls) >= n:
            raise DeadlineExceededError("stopped by the test's check")
    return check


@pytest.mark.parametrize("fmt", ["docx", "odt"])
def test_the_writers_call_the_callers_check_per_edit_and_give_back_its_error(fmt):
    data = paragraphs_docx(TEXTS) if fmt == "docx" else odt("".join(p(t) for t in TEXTS))
    doc = adapters.read(data)
    ops = _replaces(doc)
    assert len(ops) == 40
    counted: list[int] = []
    written = adapters.write(data, ops, document=doc, check=_stop_after(10**9, counted))
    assert adapters.read(written).lines("accepted")[0].count("gadget") == 1
    assert len(counted) >= len(ops)  # at least once per edit (DOCX: per edit and per change)
    calls: list[int] = []
    with pytest.raises(DeadlineExceededError, match="the test's check"):
        adapters.write(data, ops, document=doc, check=_stop_after(5, calls))
    assert len(calls) == 5  # stopped at once, not at the end of the write


def test_an_apply_past_its_deadline_stops_inside_the_writer():
    from addin_backend.edits.pipeline import apply_plan

    data = paragraphs_docx(TEXTS)
    doc = adapters.read(data)
    with budget(0.000001, "a test request"):
        time.sleep(0.01)
        with pytest.raises(DeadlineExceededError) as caught:
            apply_plan(data, doc, _replaces(doc))
    where = [f.filename for f in traceback.extract_tb(caught.value.__traceback__)]
    assert any(f.endswith("adapters/docx/writer.py") for f in where), where


def test_a_renames_pattern_search_checks_the_budget_per_unit():
    from addin_backend.edits import renaming
    from addin_backend.edits.operations import expand_rename

    doc = adapters.read(paragraphs_docx(TEXTS))
    assert len(expand_rename(doc, "widget", "gadget")) == 80
    with budget(0.000001, "a test request"):
        time.sleep(0.01)
        with pytest.raises(DeadlineExceededError):
            expand_rename(doc, "widget", "gadget")
        # an overlong term is refused before the first search (before the first check)
        with pytest.raises(InvalidRequestError, match="LEDGER_MAX_TERM_CHARS"):
            expand_rename(doc, "widget " * 40, "gadget")
    seen: list[int] = []
    real = renaming.check_budget
    try:
        renaming.check_budget = lambda: (seen.append(1), real())[1]
        expand_rename(doc, "frame", "packet")
    finally:
        renaming.check_budget = real
    assert len(seen) >= len(doc.units)  # once per unit searched, at least


def test_the_review_alignment_checks_the_budget():
    from addin_backend.verify.review_match import layout, match_view

    data = paragraphs_docx(TEXTS)
    doc = adapters.read(data)
    ops = [dc_replace(e, author="LEDGER") for e in _replaces(doc)]
    plan = layout(doc, ops)
    reviewed = doc.lines("accepted", doc.units)  # every change rejected: the closest reading is searched
    assert match_view(plan, reviewed).applied == set()
    with budget(0.000001, "a test request"):
        time.sleep(0.01)
        with pytest.raises(DeadlineExceededError):
            match_view(plan, reviewed)


def test_the_style_sheets_loop_checks_the_budget_per_term():
    from addin_backend.checks.style.prose import prose
    from addin_backend.checks.style.sheet import parse_style
    from addin_backend.checks.style.terms import sheet_findings

    doc = adapters.read(paragraphs_docx(TEXTS))
    terms = "".join(f'"term{i} word" = "other{i} word"\n' for i in range(500)) + '"widget" = "gadget"\n'
    sheet = parse_style("[terms]\n" + terms, "house.toml")
    text = prose(doc)
    assert [f.rule for f in sheet_findings(text, sheet)] == ["house.toml terms.widget"]
    with budget(0.000001, "a test request"):
        time.sleep(0.01)
        with pytest.raises(DeadlineExceededError):
            sheet_findings(text, sheet)
    check_budget()  # outside the block: no deadline
