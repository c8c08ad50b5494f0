"""Slow clients cannot exhaust a real server (issue 16), on the default 1 worker x 4 threads:

- 64 connections that sent headers announcing a 1 MB body and then trickle 2 bytes at a time,
  and 32 idle event streams of a job that is *running* (each stream stays open, followed by the
  worker's event hub, not a request thread), while ``/healthz`` and an upload are answered with
  every slow client still held (no wall-clock margin: a busy machine stretches it); the 33rd stream of the same client is refused, and when the job ends every stream gets its
  ``done`` event;
- TLS handshakes sent a byte at a time, and TLS clients that ask for a 20 MB file and never
  read it (the encrypted answer queued and sent by the worker's hub, as on plain HTTP);
- bodies over the 4 MiB buffer trickled in, and a body announced over the upload limit
  (answered 413 at once, before the client sends it);
- clients that never close a connection the server closes.

gunicorn's own refusals (an over-long URL) are JSON."""
from __future__ import annotations

import socket
import ssl
import threading
import time

import pytest
import requests

from addin_backend.jobs.runner import JobRunner, Progress
from addin_backend.store import open_store
from tests.conftest import corpus_file
from tests.servers import LedgerServer, self_signed_cert

pytestmark = pytest.mark.timeout(300)

OCTETS = {"Content-Type": "application/octet-stream"}


def _trickler(port: int, stop: threading.Event, opened: list, length: int = 1_000_000) -> None:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /api/v1/documents?filename=slow.docx HTTP/1.1\r\nHost: x\r\n"
              b"Content-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n" % length)
    opened.append(s)
    while not stop.is_set():
        try:
            s.sendall(b"PK")
        except OSError:
            return
        stop.wait(1.0)


def _stream(port: int, job: str, stop: threading.Event, opened: list, heard: dict) -> None:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET /api/v1/jobs/{job}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    opened.append(s)
    s.settimeout(1.0)
    got = b""
    while not stop.is_set() and b"event: done" not in got:
        try:
            data = s.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            break
        if not data:
            break
        got += data
    heard[id(s)] = got


def _answers_while_held(srv: LedgerServer, data: bytes, held: list, rounds: int = 5,
                        verify: bool | str = True) -> None:
    """``/healthz`` and an upload are answered, each while the server still holds every one of
    the slow clients ``held`` open: they hold no thread (a server that gave each a thread would
    answer only once it dropped them, or never). What is asserted is the answer and the held
    connections, not a wall-clock margin, which a busy machine stretches."""
    url = srv.url
    for _ in range(rounds):
        assert requests.get(f"{url}/healthz", timeout=30, verify=verify).status_code == 200
        assert srv.holds(held) == len(held), "slow clients were dropped before /healthz was answered"
        r = requests.post(f"{url}/api/v1/documents?filename=b.docx", data=data, timeout=60, headers=OCTETS,
                          verify=verify)
        assert r.status_code == 201, r.text[:300]
        assert srv.holds(held) == len(held), "slow clients were dropped before the upload was answered"
        time.sleep(0.5)


def test_64_slow_uploads_and_32_streams_of_a_running_job_leave_health_and_uploads_answering(tmp_path):
    data = corpus_file("zen_of_python.docx").read_bytes()
    with LedgerServer(tmp_path, workers=1, threads=4, env={"LEDGER_RATE_LIMIT": "off",
                                                          "LEDGER_GRAPH_SEMANTIC": "0"}) as srv:
        url = f"http://127.0.0.1:{srv.port}"
        first = requests.post(f"{url}/api/v1/documents?filename=a.docx", data=data, timeout=30, headers=OCTETS)
        assert first.status_code == 201
        # a job that runs until the test ends it, written as a worker would
        store = open_store(None, str(srv.folder / "data"))
        job = JobRunner(store).create(first.json()["id"], "graph", "read", name="long", progress=0.1)
        progress = Progress(store, dict(job))
        progress.finish("running")
        stop, opened, heard = threading.Event(), [], {}
        threads = [threading.Thread(target=_trickler, args=(srv.port, stop, opened), daemon=True) for _ in range(64)]
        streams = [threading.Thread(target=_stream, args=(srv.port, job["id"], stop, opened, heard), daemon=True)
                   for _ in range(32)]
        try:
            for t in threads + streams:
                t.start()
            time.sleep(3)  # every slow client is connected and trickling, every stream open
            assert len(opened) == 96
            assert requests.get(f"{url}/api/v1/jobs/{job['id']}", timeout=5).json()["status"] == "running"
            _answers_while_held(srv, data, opened)
            one_more = requests.get(f"{url}/api/v1/jobs/{job['id']}/events", timeout=5)
            assert one_more.status_code == 429 and one_more.json()["error"]["code"] == "rate_limited"
            assert "LEDGER_SSE_PER_CLIENT" in one_more.json()["error"]["message"]
            progress("contains", 0.5)
            progress.finish("done", result={"graph": None})
            for t in streams:
                t.join(10)
            assert len(heard) == 32
            for got in heard.values():
                assert got.startswith(b"HTTP/1.1 200 ") and b"event: progress" in got
                assert b'"stage": "contains"' in got and got.rstrip().endswith(b"0")  # chunked, ended
                assert b"event: done" in got
        finally:
            stop.set()
            for s in opened:
                s.close()
        # the streams are released: the same client may open new ones
        r = requests.get(f"{url}/api/v1/jobs/{job['id']}/events", timeout=5)
        assert r.status_code == 200 and r.text.startswith("event: done")


def _slow_hello(port: int, stop: threading.Event, opened: list) -> None:
    s = socket.create_connection(("127.0.0.1", port))
    opened.append(s)
    for byte in b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03":  # a ClientHello record, a byte a second
        if stop.wait(1.0):
            return
        try:
            s.sendall(bytes([byte]))
        except OSError:
            return


def test_tls_handshakes_sent_a_byte_a_second_hold_no_thread(tmp_path):
    cert, key = self_signed_cert(tmp_path / "tls")
    data = corpus_file("zen_of_python.docx").read_bytes()
    with LedgerServer(tmp_path, workers=1, threads=2, cert=cert, key=key,
                      env={"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0"}) as srv:
        stop, opened = threading.Event(), []
        threads = [threading.Thread(target=_slow_hello, args=(srv.port, stop, opened), daemon=True) for _ in range(16)]
        try:
            for t in threads:
                t.start()
            time.sleep(2.5)
            assert len(opened) == 16
            _answers_while_held(srv, data, opened, rounds=3, verify=srv.verify)
        finally:
            stop.set()
            for s in opened:
                s.close()


def _deaf_tls(port: int, path: str, cert: str) -> ssl.SSLSocket:
    """A TLS client with a 4 KB receive buffer that asks for ``path`` and never reads."""
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    s = ssl.create_default_context(cafile=cert).wrap_socket(raw, server_hostname="127.0.0.1")
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    return s


def _until_dropped(srv: LedgerServer, clients: list, limit: float = 60.0) -> None:
    """Wait until the server has dropped every one of ``clients`` (its send stall time passed)."""
    deadline = time.monotonic() + limit
    while srv.holds(clients):
        assert time.monotonic() < deadline, f"{srv.holds(clients)} deaf clients still held after {limit:g} s"
        time.sleep(0.25)


def test_tls_clients_that_do_not_read_a_large_answer_hold_no_thread_and_are_dropped(tmp_path):
    from tests.addin_backend.api.test_no_waiting import _big_document, _drained, read_slowly

    cert, key = self_signed_cert(tmp_path / "tls")
    data = _big_document(20 << 20)
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_SEND_STALL_SECONDS": "8"}
    small = corpus_file("zen_of_python.docx").read_bytes()
    with LedgerServer(tmp_path, workers=1, threads=4, cert=cert, key=key, env=env) as srv:
        r = requests.post(f"{srv.url}/api/v1/documents?filename=a.docx", data=data, headers=OCTETS, timeout=60,
                          verify=srv.verify)
        assert r.status_code == 201, r.text[:300]
        path = f"/api/v1/documents/{r.json()['id']}/file"
        deaf = [_deaf_tls(srv.port, path, str(cert)) for _ in range(8)]  # twice the threads
        try:
            time.sleep(1.5)  # their answers are made and encrypted as far as each socket takes
            _answers_while_held(srv, small, deaf, rounds=3, verify=srv.verify)
            whole = requests.get(srv.url + path, timeout=30, verify=srv.verify)
            assert whole.status_code == 200 and whole.content == data
            _until_dropped(srv, deaf)  # past the stall time: the deaf ones are dropped
            _answers_while_held(srv, small, [], rounds=2, verify=srv.verify)
            for s in deaf:
                got, closed = _drained(s)
                assert closed and got < len(data), (got, closed)
        finally:
            for s in deaf:
                s.close()
        # a TLS client that reads slowly is not dropped: it gets the whole answer
        slow = _deaf_tls(srv.port, path, str(cert))
        try:
            head, rest = read_slowly(slow, len(data))
            assert head.startswith(b"HTTP/1.1 200 ") and rest[:len(data)] == data
        finally:
            slow.close()


def test_large_bodies_are_read_by_the_poller_and_one_over_the_limit_is_refused_at_once(tmp_path):
    data = corpus_file("zen_of_python.docx").read_bytes()
    with LedgerServer(tmp_path, workers=1, threads=2, env={"LEDGER_RATE_LIMIT": "off", "LEDGER_MAX_UPLOAD_MB": "16",
                                                          "LEDGER_GRAPH_SEMANTIC": "0"}) as srv:
        url = f"http://127.0.0.1:{srv.port}"
        stop, opened = threading.Event(), []
        threads = [threading.Thread(target=_trickler, args=(srv.port, stop, opened, 8 << 20), daemon=True)
                   for _ in range(8)]
        try:
            for t in threads:
                t.start()
            time.sleep(2.5)
            assert len(opened) == 8
            _answers_while_held(srv, data, opened, rounds=3)
            # a body announced over the limit: the answer comes before the body is sent
            with socket.create_connection(("127.0.0.1", srv.port), timeout=5) as s:
                s.sendall(b"POST /api/v1/documents HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\n"
                          b"Content-Length: 100000000\r\n\r\nPK")
                answer = s.recv(65536)
            assert answer.startswith(b"HTTP/1.1 413 ") and b'"code": "too_large"' in answer
            assert b"the limit is 16,777,216" in answer
        finally:
            stop.set()
            for s in opened:
                s.close()
        # a large body that does arrive is served as before (8 MiB: through the poller's file)
        big = requests.post(f"{url}/api/v1/documents", data=data + b"\0" * (8 << 20), headers=OCTETS, timeout=30)
        assert big.status_code in (201, 422), big.text  # read whole: the reader judges it


def test_clients_that_never_close_do_not_stall_the_server(tmp_path):
    with LedgerServer(tmp_path, workers=1, threads=2, env={"LEDGER_RATE_LIMIT": "off"}) as srv:
        held = []
        try:
            for _ in range(12):  # each is answered and half-closed; none of them closes
                s = socket.create_connection(("127.0.0.1", srv.port))
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                held.append(s)
            time.sleep(0.5)
            for _ in range(5):  # answered at all: a thread that waited for a close would never come back
                assert requests.get(f"{srv.url}/healthz", timeout=30).status_code == 200
        finally:
            for s in held:
                s.close()


def test_an_over_long_url_is_json_414(tmp_path):
    with LedgerServer(tmp_path, workers=1, threads=2) as srv:
        r = requests.get(f"http://127.0.0.1:{srv.port}/api/v1/version?x=" + "a" * 9000, timeout=10)
        assert r.status_code == 414
        assert r.headers["Content-Type"] == "application/json"
        assert r.json()["error"]["code"] == "uri_too_long"
        assert "aaaa" not in r.text
