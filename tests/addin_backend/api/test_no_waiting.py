"""No thread of a real ``ledger serve`` waits for a client or for other work (issue 24), on the
default 1 worker x 4 threads, each with ``/healthz`` answering within 2 s throughout:

- idle ``GET /mcp`` streams (the standalone SSE stream) are ``405`` at once: a stateless server
  has nothing to send on them, and each one held a web thread until its client closed;
- clients that ask for a 20 MB file with a 4 KB receive buffer and never read: the request
  thread queues what the socket does not take and the worker's event hub sends it; a client that
  takes nothing for ``LEDGER_SEND_STALL_SECONDS`` is dropped, one that reads gets every byte;
- MCP tool calls that wait for a graph: the event hub follows their answers (progress, then the
  result when the graph is stored), and past ``LEDGER_REQUEST_SECONDS`` the tool answers
  ``deadline_exceeded``.
"""
from __future__ import annotations

import io
import json
import os
import socket
import threading
import time
import zipfile

import pytest
import requests

from addin_backend.jobs.runner import JobRunner, Progress
from addin_backend.store import open_store
from tests.conftest import corpus_file
from tests.servers import LedgerServer

pytestmark = pytest.mark.timeout(240)

OCTETS = {"Content-Type": "application/octet-stream"}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def health_within(url: str, seconds: float = 2.0, rounds: int = 4, pause: float = 0.5) -> None:
    """``/healthz`` answers within ``seconds``, ``rounds`` times."""
    for _ in range(rounds):
        started = time.monotonic()
        try:
            r = requests.get(f"{url}/healthz", timeout=seconds + 1)
        except requests.Timeout:
            pytest.fail(f"/healthz did not answer within {seconds + 1} s")
        assert r.status_code == 200
        took = time.monotonic() - started
        assert took < seconds, f"/healthz took {took:.2f} s"
        time.sleep(pause)


def _upload(url: str, data: bytes, name: str = "a.docx") -> str:
    r = requests.post(f"{url}/api/v1/documents?filename={name}", data=data, headers=OCTETS, timeout=60)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _graph_done(url: str, doc_id: str) -> None:
    deadline = time.monotonic() + 60
    while requests.get(f"{url}/api/v1/jobs/{doc_id}-graph", timeout=10).json()["status"] != "done":
        assert time.monotonic() < deadline, "the graph job did not end"
        time.sleep(0.2)


def test_idle_get_mcp_streams_hold_no_thread(tmp_path):
    with LedgerServer(tmp_path, workers=1, threads=4, env={"LEDGER_RATE_LIMIT": "off"}) as srv:
        held = []
        try:
            for _ in range(8):  # twice the threads: each used to hold one until it closed
                s = socket.create_connection(("127.0.0.1", srv.port))
                s.sendall(b"GET /mcp HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                held.append(s)
            time.sleep(0.5)
            health_within(srv.url)
            for s in held:
                s.settimeout(5)
                head = s.recv(4096)
                assert head.startswith(b"HTTP/1.1 405 "), head[:80]
        finally:
            for s in held:
                s.close()


def _big_document(size: int) -> bytes:
    """A real .docx with a ``size``-byte stored (incompressible) media part."""
    src = zipfile.ZipFile(io.BytesIO(corpus_file("zen_of_python.docx").read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for info in src.infolist():
            z.writestr(info, src.read(info))
        z.writestr(zipfile.ZipInfo("word/media/blob.bin"), os.urandom(size), compress_type=zipfile.ZIP_STORED)
    return out.getvalue()


def _deaf(port: int, path: str) -> socket.socket:
    """A client with a 4 KB receive buffer that asks for ``path`` and never reads."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return s


def _drained(s: socket.socket, limit: float = 10.0) -> tuple[int, bool]:
    """Read what the server still sends: (bytes, whether it closed the connection)."""
    s.settimeout(1.0)
    got, deadline = 0, time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            data = s.recv(1 << 20)
        except socket.timeout:
            return got, False
        except OSError:
            return got, True
        if not data:
            return got, True
        got += len(data)
    return got, False


def read_slowly(s: socket.socket, size: int) -> tuple[bytes, bytes]:
    """An answer read with a pause after each piece, until its body has ``size`` bytes or the
    server closes: (head, body)."""
    got = bytearray()
    s.settimeout(10)
    while len(got.partition(b"\r\n\r\n")[2]) < size:
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        got += chunk
        time.sleep(0.002)
    head, _, rest = bytes(got).partition(b"\r\n\r\n")
    return head, rest


def test_clients_that_do_not_read_their_answer_hold_no_thread_and_are_dropped(tmp_path):
    data = _big_document(20 << 20)
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_SEND_STALL_SECONDS": "8"}
    with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
        doc = _upload(srv.url, data)
        path = f"/api/v1/documents/{doc}/file"
        deaf = [_deaf(srv.port, path) for _ in range(8)]  # twice the threads
        try:
            time.sleep(1.5)  # their answers are made (8 x 20 MB read and copied: CPU, not waiting)
            # answered while the server still holds every deaf client, none of them read: they hold
            # no thread (measured by the connections held, not a wall-clock margin a busy machine stretches)
            for _ in range(3):
                assert requests.get(f"{srv.url}/healthz", timeout=30).status_code == 200
                assert srv.holds(deaf) == len(deaf)
                time.sleep(0.5)
            # a client that does read gets every byte, while the deaf ones are still held
            whole = requests.get(srv.url + path, timeout=30)
            assert whole.status_code == 200 and whole.content == data and srv.holds(deaf) == len(deaf)
            deadline = time.monotonic() + 60  # past the stall time: the deaf ones are dropped
            while srv.holds(deaf):
                assert time.monotonic() < deadline, f"{srv.holds(deaf)} deaf clients still held"
                time.sleep(0.25)
            assert requests.get(f"{srv.url}/healthz", timeout=30).status_code == 200
            for s in deaf:
                got, closed = _drained(s)
                assert closed and got < len(data), (got, closed)
        finally:
            for s in deaf:
                s.close()
        # a client that reads slowly is not dropped: it gets the whole answer
        slow = _deaf(srv.port, path)
        try:
            head, rest = read_slowly(slow, len(data))
            assert head.startswith(b"HTTP/1.1 200 ") and rest[:len(data)] == data
        finally:
            slow.close()


def _find_call(url: str, doc: str, out: dict, key: int) -> None:
    call = {"jsonrpc": "2.0", "id": key, "method": "tools/call",
            "params": {"name": "find", "arguments": {"document_id": doc, "query": "Beautiful"}}}
    try:
        r = requests.post(url + "/mcp", json=call, headers=MCP_HEADERS, timeout=60)
        out[key] = (r.status_code, r.text)
    except requests.RequestException as exc:
        out[key] = (0, repr(exc))


def _result(text: str) -> dict:
    """The JSON-RPC answer in an SSE body (the last ``data:`` line with an ``id``)."""
    found = [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:") and '"id"' in line]
    assert found, text[:500]
    return found[-1]


def test_mcp_tools_that_wait_for_a_graph_hold_no_thread_and_have_a_deadline(tmp_path):
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_REQUEST_SECONDS": "6"}
    with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
        doc = _upload(srv.url, corpus_file("zen_of_python.docx").read_bytes())
        _graph_done(srv.url, doc)
        store = open_store(None, str(srv.folder / "data"))
        graph = store.get_json(doc, "graph")
        # the graph job "runs" again (as a slow graph would) and only the early graph is stored
        store.put_json(doc, "graph", {**graph, "graph": {**graph["graph"], "complete": False}}, create=False)
        job = JobRunner(store).create(doc, "graph", "read", name="graph", progress=0.1)
        progress = Progress(store, dict(job))
        progress.finish("running")
        out: dict = {}
        calls = [threading.Thread(target=_find_call, args=(srv.url, doc, out, i), daemon=True) for i in range(6)]
        for t in calls:
            t.start()
        time.sleep(1.0)
        assert not out, out  # all six are waiting for the graph
        health_within(srv.url, rounds=4)
        progress("contains", 0.5)
        store.put_json(doc, "graph", graph, create=False)  # the job stores its final graph, and ends
        progress.finish("done", result={"graph": None})
        for t in calls:
            t.join(30)
        assert len(out) == 6
        for status, text in out.values():
            assert status == 200, text
            answer = _result(text)
            assert "error" not in answer and not answer["result"].get("isError"), answer
            assert answer["result"]["structuredContent"]["document"] == doc
        # a tool that waits past the request budget answers deadline_exceeded
        store.put_json(doc, "graph", {**graph, "graph": {**graph["graph"], "complete": False}}, create=False)
        progress.finish("running")
        started = time.monotonic()
        late: dict = {}
        _find_call(srv.url, doc, late, 99)
        took = time.monotonic() - started
        status, text = late[99]
        assert status == 200 and 5 < took < 20, (took, text[:300])
        answer = _result(text)
        assert answer["result"]["isError"] and "deadline_exceeded" in json.dumps(answer["result"]), answer
        health_within(srv.url, rounds=1)
