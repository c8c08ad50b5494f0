"""One typed pass through an edit: ``ledger edit`` (and the API's propose + apply) validates each
operation once, applies the edits to the neutral model once, verifies once, words the comments
once, writes and reads back once, and builds no graph besides the one it edits with (what the
written file breaks is read off that graph). Counted by a profile hook on the functions that do
each step, so a pass hidden behind any import or alias is seen."""
from __future__ import annotations

import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest

import adapters
from adapters import read_path
from addin_backend.edits import comments, operations
from addin_backend.graph import build
from addin_backend.service import graphs
from addin_backend.service.edits import edit_file, plan, proposal_view, write_operations
from addin_backend.verify import after_edit
from tests.addin_backend.api.editing import upload, wait_job  # noqa: F401  (helpers)
from tests.addin_backend.api.editing import app, client  # noqa: F401  (fixtures)

#: step -> the function whose every call is one pass of that step
STEPS: dict[str, Callable[..., Any]] = {
    "apply": operations.apply_to_document,
    "apply more": operations.apply_more,
    "verify": after_edit.verify,
    "word": comments.comment_notes,
    "build graph": build.build_graph,
    "write": adapters.write,
    "read": adapters.read,
    "from JSON": operations.edits_from_json,
}


class Passes:
    """Calls of :data:`STEPS` and how often each operation was checked (``_check_one``, keyed by
    what places the operation), while installed as the profile hook."""

    def __init__(self) -> None:
        self.codes = {f.__code__: name for name, f in STEPS.items()}
        self.check = operations._check_one.__code__
        self.calls: Counter[str] = Counter()
        self.checked: Counter[tuple[Any, ...]] = Counter()

    def __call__(self, frame: Any, event: str, arg: Any) -> None:
        if event != "call":
            return
        if frame.f_code is self.check:
            e = frame.f_locals["e"]
            self.checked[operations._place(e)] += 1
        name = self.codes.get(frame.f_code)
        if name is not None:
            self.calls[name] += 1

    def __enter__(self) -> "Passes":
        sys.setprofile(self)
        threading.setprofile(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]

    def most_checks(self) -> int:
        return max(self.checked.values(), default=0)


@pytest.fixture(scope="module")
def spec(tmp_path_factory) -> Path:
    """A synthetic specification (sections numbered by their styles, cross-references, figures)."""
    from benchmarks.synth import build as synth, write_package

    return Path(write_package(synth("10k", 0), tmp_path_factory.mktemp("synth"), "docx"))


INSTRUCTION = "Delete Section 2"


def test_ledger_edit_takes_each_step_once(spec, tmp_path):
    doc = read_path(str(spec))
    with Passes() as passes:
        report = edit_file(str(spec), doc, instruction=INSTRUCTION, output=str(tmp_path / "out.docx"), semantic=False)
    assert report["operations"] and report["propagated"], "an edit with propagated changes: every step runs"
    assert passes.most_checks() == 1, passes.checked.most_common(3)
    assert len(passes.checked) == len(report["operations"]) + len(report["propagated"])
    assert passes.calls == {"apply": 1, "apply more": 1, "verify": 1, "word": 1, "build graph": 1, "write": 1,
                            "read": 1}, passes.calls


def test_the_counter_sees_a_second_pass(spec):
    """The same plan written through the JSON door validates, applies and verifies it again:
    the counter must see that, or the test above proves nothing."""
    doc = read_path(str(spec))
    G = graphs.build(doc, graphs.scope_for(False))
    with Passes() as passes:
        p = plan(doc, G, instruction=INSTRUCTION, semantic=False)
        view = proposal_view(doc, p, pid=None, doc_id=None, author="LEDGER", complete=True)
        write_operations(spec.read_bytes(), doc, G, view["operations"], author="LEDGER", semantic=False)
    assert passes.most_checks() == 2
    assert passes.calls["verify"] == 2 and passes.calls["from JSON"] == 1 and passes.calls["build graph"] == 0


def test_propose_then_apply_over_http_takes_each_step_once_per_request(client, spec):
    doc_id = upload(client, spec)["id"]
    with Passes() as proposing:
        r = client.post(f"/api/v1/documents/{doc_id}/proposals", json={"instruction": INSTRUCTION})
    assert r.status_code in (200, 201), r.json
    proposal = r.json
    assert proposal["propagated"]
    assert proposing.most_checks() == 1
    assert proposing.calls == {"apply": 1, "apply more": 1, "verify": 1, "word": 1}, proposing.calls
    with Passes() as applying:
        r = client.post(f"/api/v1/documents/{doc_id}/apply", json={"proposal_id": proposal["id"], "author": "Ada"})
    assert r.status_code in (200, 201), r.json
    # the kept proposal comes back through its door once (JSON -> checked edits), then one pass,
    # and what the written file breaks is read off the upload's graph: none is built; all of its
    # operations on the graph it was made on: its verification is not made again
    assert applying.most_checks() == 1
    assert applying.calls == {"from JSON": 1, "apply": 1, "word": 1, "write": 1, "read": 1}, applying.calls
    assert all(f in r.json["findings"] for f in proposal["findings"])
    # some of its operations: what they make is verified
    some = [op["id"] for op in proposal["operations"] if op["id"] not in proposal["propagated"]][:1]
    with Passes() as applying:
        r = client.post(f"/api/v1/documents/{doc_id}/apply",
                        json={"proposal_id": proposal["id"], "author": "Ada", "operations": some})
    assert r.status_code in (200, 201), r.json
    assert applying.calls["verify"] == 1, applying.calls


def test_a_proposal_is_verified_again_once_the_analysis_added_edges():
    """A kept proposal's findings stand for the apply's verification only on a graph with the
    stages it was made on, and only for all of its operations."""
    import networkx as nx

    from addin_backend.findings import Finding
    from addin_backend.service.edits import _verified

    finding = Finding("numbering_gap", "warning", "p-1", "Figures 1, 2, 4")
    view = {"operations": [{"id": "op-1"}, {"id": "prop-1"}], "partial": ["RELATED"], "findings": [finding.to_json()]}
    G = nx.MultiDiGraph()
    G.graph.update(complete=False, stages=["contains", "references", "depends"])
    assert _verified(view, view["operations"], G) == [finding]
    assert _verified(view, view["operations"][:1], G) is None  # some of them: verify what they make
    G.graph.update(complete=True, stages=["contains", "references", "depends", "related"])
    assert _verified(view, view["operations"], G) is None  # RELATED came since: verify again
    assert _verified(view, view["operations"], None) is None
