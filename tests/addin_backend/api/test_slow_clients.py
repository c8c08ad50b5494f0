"""Slow clients cannot exhaust a real server (issue 16): with 64 connections that sent headers
announcing a 1 MB body and then trickle 2 bytes at a time, and 32 event-stream connections (of a
job that is done: each stream answers and ends), ``/healthz`` and an upload still answer within
1 s on the default 1 x 4 server. (An event stream of a *running* job still holds a thread while
it is open: not covered here.) gunicorn's own refusals (an over-long URL) are JSON."""
from __future__ import annotations

import socket
import threading
import time

import pytest
import requests

from tests.conftest import corpus_file
from tests.servers import LedgerServer

pytestmark = pytest.mark.timeout(300)


def _trickler(port: int, stop: threading.Event, opened: list) -> None:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /api/v1/documents?filename=slow.docx HTTP/1.1\r\nHost: x\r\n"
              b"Content-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n")
    opened.append(s)
    while not stop.is_set():
        try:
            s.sendall(b"PK")
        except OSError:
            return
        stop.wait(1.0)


def _stream(port: int, job: str, stop: threading.Event, opened: list) -> None:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET /api/v1/jobs/{job}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    opened.append(s)
    stop.wait(120)


def test_64_slow_uploads_and_32_event_streams_leave_health_and_uploads_answering(tmp_path):
    data = corpus_file("zen_of_python.docx").read_bytes()
    with LedgerServer(tmp_path, workers=1, threads=4, env={"LEDGER_RATE_LIMIT": "off",
                                                          "LEDGER_GRAPH_SEMANTIC": "0"}) as srv:
        url = f"http://127.0.0.1:{srv.port}"
        first = requests.post(f"{url}/api/v1/documents?filename=a.docx", data=data, timeout=30,
                              headers={"Content-Type": "application/octet-stream"})
        assert first.status_code == 201
        job = first.json()["job"]["id"]
        stop, opened = threading.Event(), []
        threads = [threading.Thread(target=_trickler, args=(srv.port, stop, opened), daemon=True) for _ in range(64)]
        threads += [threading.Thread(target=_stream, args=(srv.port, job, stop, opened), daemon=True) for _ in range(32)]
        try:
            for t in threads:
                t.start()
            time.sleep(3)  # every slow client is connected and trickling
            assert len(opened) == 96
            for _ in range(5):
                started = time.monotonic()
                assert requests.get(f"{url}/healthz", timeout=5).status_code == 200
                assert time.monotonic() - started < 1.0
                started = time.monotonic()
                r = requests.post(f"{url}/api/v1/documents?filename=b.docx", data=data, timeout=5,
                                  headers={"Content-Type": "application/octet-stream"})
                assert r.status_code == 201 and time.monotonic() - started < 1.0
                time.sleep(0.5)
        finally:
            stop.set()
            for s in opened:
                s.close()


def test_an_over_long_url_is_json_414(tmp_path):
    with LedgerServer(tmp_path, workers=1, threads=2) as srv:
        r = requests.get(f"http://127.0.0.1:{srv.port}/api/v1/version?x=" + "a" * 9000, timeout=10)
        assert r.status_code == 414
        assert r.headers["Content-Type"] == "application/json"
        assert r.json()["error"]["code"] == "uri_too_long"
        assert "aaaa" not in r.text
