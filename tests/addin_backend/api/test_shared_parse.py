"""Concurrent applies of one upload share one parse of it (issue 33, item 5: four concurrent
applies of a 4 MB document each parsed the stored upload, model and graph on its own, 1.1 GB
peak). :mod:`addin_backend.service.shared_parse` builds once for every request that holds the
same stored content at the same time, drops it when the last one ends, and shares it read-only;
on a real ``ledger serve`` on loopback, concurrent applies of different edits to one document
each write exactly their own edit (a shared model changed by one would show in another's file).
The figure (peak RSS of four concurrent applies, before and after) is
``python -m benchmarks.apply_memory --concurrent``, not a test."""
from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import networkx as nx
import pytest
import requests

from benchmarks.apply_memory import document
from tests.servers import LedgerServer, finished_job


def _until(cond, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_requests_at_the_same_time_build_once_and_nothing_is_kept_after():
    from addin_backend.service.shared_parse import in_use, shared

    builds: list[int] = []
    seen: list[object] = []

    def build() -> object:
        builds.append(1)
        _until(lambda: in_use()[1] == 4)  # every request is waiting for this parse
        return object()

    def one() -> None:
        with shared(("t", "doc", "sha"), build) as value:
            seen.append(value)
            _until(lambda: len(seen) == 4)  # all hold it at once

    with ThreadPoolExecutor(4) as pool:
        for f in [pool.submit(one) for _ in range(4)]:
            f.result()
    assert len(builds) == 1 and len({id(v) for v in seen}) == 1
    assert in_use() == (0, 0)
    # once no one holds it, the next request parses anew (no cache)
    with shared(("t", "doc", "sha"), build_again := lambda: object()) as value:
        assert value is not seen[0] and build_again is not None


def test_a_failed_parse_is_not_another_requests_error():
    from addin_backend.service.shared_parse import in_use, shared

    calls: list[int] = []
    gate = threading.Event()

    def build() -> str:
        calls.append(1)
        if len(calls) == 1:
            _until(lambda: in_use()[1] == 3)
            raise TimeoutError("the first request's own deadline")
        return "parsed"

    def one() -> str:
        with shared(("t", "fail"), build) as value:
            gate.wait(30)
            return value

    with ThreadPoolExecutor(3) as pool:
        futures = [pool.submit(one) for _ in range(3)]
        _until(lambda: sum(f.done() for f in futures) >= 1)
        # the other two hold the retried parse together before either may end: otherwise the
        # first to retry can finish and release it before the second asks, which then (rightly:
        # nothing is cached) parses again
        _until(lambda: in_use() == (1, 2))
        gate.set()
        outcomes = []
        for f in futures:
            try:
                outcomes.append(f.result())
            except TimeoutError:
                outcomes.append("failed")
    assert sorted(outcomes) == ["failed", "parsed", "parsed"]
    assert len(calls) == 2 and in_use() == (0, 0)  # one retry, then shared by the third


def test_the_shared_graph_is_read_only(tmp_path):
    from addin_backend.service.shared_parse import stored_document, stored_graph
    from addin_backend.store import documents, dumps
    from addin_backend.store.sqlite_store import SqliteStore
    from tests.conftest import corpus_file

    store = SqliteStore(str(tmp_path / "s.db"))
    meta, doc = documents.upload(store, corpus_file("zen_of_python.docx").read_bytes(), filename="z.docx")
    G = nx.MultiDiGraph()
    G.add_edge("a", "b", type="REFERENCES")
    store.put(meta["id"], {"graph": dumps(nx.node_link_data(G, edges="edges"))})
    with stored_document(store, meta["id"]) as (data, shared_doc), stored_graph(store, meta["id"]) as shared_G:
        assert data == documents.original(store, meta["id"])[0] and shared_doc == doc
        with stored_graph(store, meta["id"]) as again:
            assert again is shared_G  # one parse for both
        with pytest.raises(nx.NetworkXError):
            shared_G.add_edge("b", "c")
        assert shared_G.copy().add_edge("b", "c") is not None  # a change is made on a copy


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_concurrent_applies_on_a_server_each_write_their_own_edit(tmp_path):
    from adapters import read

    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}
    with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
        r = requests.post(f"{srv.url}/api/v1/documents?filename=c.docx", data=document(400), timeout=120,
                          headers={"Content-Type": "application/octet-stream"})
        assert r.status_code == 201, r.text[:300]
        doc = r.json()["id"]
        assert finished_job(srv.url, f"{doc}-graph")["status"] == "done"
        units = requests.get(f"{srv.url}/api/v1/documents/{doc}/units?kind=paragraph&limit=4",
                             timeout=30).json()["units"]
        original = requests.get(f"{srv.url}/api/v1/documents/{doc}/text", timeout=30).json()["lines"]

        def one(k: int) -> requests.Response:
            u = units[k]
            return requests.post(f"{srv.url}/api/v1/documents/{doc}/apply", timeout=300, json={
                "author": f"A{k}", "operations": [{"op": "set_text", "unit": u["id"], "before": u["text"],
                                                   "text": u["text"] + f" (edit {k})"}]})

        with ThreadPoolExecutor(4) as pool:
            answers = list(pool.map(one, range(4)))
        assert [a.status_code for a in answers] == [201] * 4, [a.text[:200] for a in answers]
        assert len({a.json()["revision"] for a in answers}) == 4
        for k, a in enumerate(answers):
            written = read(requests.get(srv.url + a.json()["download"], timeout=60).content)
            accepted, rejected = written.lines("accepted"), written.lines("rejected")
            assert rejected == original  # each revision starts from the upload, untouched
            changed = [line for line, was in zip(accepted, original) if line != was]
            assert changed == [units[k]["text"] + f" (edit {k})"], (k, changed)  # its own edit, no other's
