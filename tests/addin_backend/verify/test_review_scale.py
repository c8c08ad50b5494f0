"""The review at the size of a real standard: a document-wide rename in RFC 9000 (2,217 units,
about 100K tokens), reviewed as Word saves it, every operation classified, in time linear in the
changes (the document is re-applied a fixed number of times, not once per try)."""
from __future__ import annotations

import re

import pytest

from addin_backend.service.review import review_files
from tests.addin_backend.reviewkit import AUTHOR, edit_file, need, word_review
from tests.conftest import DEVSET_DOCS

pytestmark = pytest.mark.slow  # one real edit of a 100K-token standard (~10 s), shared by the module

SRC = DEVSET_DOCS / "rfc9000.A.docx"
RENAME = 'Rename "connection ID" to "connection identifier" everywhere'
_ID_LIKE = re.compile(r"\b(?:prop|op)-\d+\b|\bf-[0-9a-f]{6,}\b|_Ref\d+|\b(?:p|sec)-[0-9a-f]{10}\b")


@pytest.fixture(scope="module")
def renamed(tmp_path_factory):
    out = tmp_path_factory.mktemp("scale") / "edited.docx"
    report = edit_file(need(SRC), RENAME, out)
    return out.read_bytes(), report


def _count_applications(monkeypatch) -> list[int]:
    """How often the neutral model re-applies operations to the whole document."""
    from addin_backend.edits import operations

    calls = [0]
    real = operations.apply_to_document

    def counted(doc, edits):
        calls[0] += 1
        return real(doc, edits)

    monkeypatch.setattr(operations, "apply_to_document", counted)
    return calls


def test_every_change_of_a_document_wide_rename_is_classified_in_one_pass(renamed, monkeypatch):
    edited, report = renamed
    ops = [c["edit"] for c in report["comments"] if c.get("edit")]
    assert len(ops) > 100 and len(ops) == len(report["operations"]) + len(report["propagated"])
    # accept, reject or leave by a rule of the operation's place: paragraphs with several
    # occurrences get different decisions for each of them
    choice = {op: ("accept", "reject", None)[(i * 7) % 3 if i % 5 else 2] for i, op in enumerate(ops)}
    walk = iter(choice[op] for op in ops)
    reviewed = word_review(edited, AUTHOR, lambda _text: next(walk))
    calls = _count_applications(monkeypatch)
    got = review_files(reviewed, edited)
    assert calls[0] <= 3  # the plan, what the review leaves, the full edit's check: not one per try
    want = {op: {"accept": "accepted", "reject": "rejected", None: "pending"}[d] for op, d in choice.items()}
    assert {o["id"]: o["status"] for o in got["operations"]} == want
    assert set(want.values()) == {"accepted", "rejected", "pending"}
    assert got["exact"] is True
    assert got["consistent"] is False  # the old term stays where the rename was rejected
    # one item per change (Word's deletion and insertion of a word are one), said in words
    assert len(got["operations"]) == len(ops)
    # every form of the term is renamed (sentence starts and headings, plurals), each said as its words
    forms = {("ID", "identifier"), ("ID", "Identifier"), ("IDs", "identifiers"), ("IDs", "Identifiers")}
    assert {(o["old"], o["new"]) for o in got["operations"]} >= {("ID", "identifier"), ("IDs", "identifiers")}
    for o in got["operations"]:
        assert (o["old"], o["new"]) in forms and o["summary"] == f'{o["old"]} → {o["new"]}', o
        assert "Section " in o["where"] and o["section"]["number"]  # "Figure 7 in Section 7.3 …" too
        assert not _ID_LIKE.search(o["summary"] + " " + o["where"]), o
        assert o["group"] == o["id"]


def test_all_accepted(renamed):
    edited, _report = renamed
    got = review_files(word_review(edited, AUTHOR, lambda _t: "accept"), edited)
    assert {o["status"] for o in got["operations"]} == {"accepted"}
    assert got["exact"] is True and got["consistent"] is True


def test_a_review_past_its_deadline_stops(renamed):
    # the review of 243 changes costs about 1.7 s here, reading the reviewed file alone 0.4 s: a
    # deadline of 0.05 s has passed before the first step of the classification, which stops
    from addin_backend.budget import budget
    from addin_backend.errors import DeadlineExceededError

    edited, _report = renamed
    reviewed = word_review(edited, AUTHOR, lambda _text: "accept")
    with budget(0.05, "the review request"), pytest.raises(DeadlineExceededError) as err:
        review_files(reviewed, edited)
    assert "LEDGER_REQUEST_SECONDS" in str(err.value)
