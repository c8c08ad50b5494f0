"""The audit log: one line per apply, who/when/instruction/operations, no document text, shared by processes."""
from __future__ import annotations

import hashlib
import multiprocessing
from dataclasses import dataclass

from addin_backend.service import audit


@dataclass
class Op:
    op: str
    unit: str
    before: str
    after: str
    start: int


def test_an_entry_records_who_when_what_without_the_text(tmp_path):
    log = str(tmp_path / "audit.jsonl")
    ops = [{"op": "replace", "unit": "p-1", "before": "24 months", "after": "36 months", "start": 10,
            "reason": "DEPENDS", "author": "LEDGER"},
           Op("replace", "p-7", "two years", "three years", 0)]
    audit.record(log, who="key:3a7f4b0e6d22", document="d1", instruction="Extend the term to 36 months",
                 operations=ops, author="Ann")
    (entry,) = audit.entries(log)
    assert (entry["who"], entry["author"], entry["document"]) == ("key:3a7f4b0e6d22", "Ann", "d1")
    assert entry["instruction"] == "Extend the term to 36 months"
    assert entry["when"].endswith("+00:00")
    first, second = entry["operations"]
    assert {k: first[k] for k in ("op", "unit", "start", "reason", "author")} == \
        {"op": "replace", "unit": "p-1", "start": 10, "reason": "DEPENDS", "author": "LEDGER"}
    assert first["before"] == {"sha256": hashlib.sha256(b"24 months").hexdigest(), "chars": 9}
    assert second["unit"] == "p-7" and second["after"]["chars"] == len("three years")
    text = (tmp_path / "audit.jsonl").read_text()
    assert "two years" not in text and "three years" not in text and "24 months" not in text


def _append(log: str, n: int, tag: int) -> None:
    for i in range(n):
        audit.record(log, who=f"w{tag}", document="d", instruction=None, operations=[{"op": "delete", "unit": f"u{i}"}])


def test_worker_processes_append_whole_lines(tmp_path):
    log = str(tmp_path / "audit.jsonl")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_append, args=(log, 100, t)) for t in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    entries = audit.entries(log)
    assert len(entries) == 400
    assert sorted({e["who"] for e in entries}) == ["w0", "w1", "w2", "w3"]
    assert audit.entries(str(tmp_path / "none.jsonl")) == []
