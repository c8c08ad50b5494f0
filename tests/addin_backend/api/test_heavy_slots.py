"""A read always finds a web thread (issue 33, ``/healthz`` under uploads): on a real ``ledger
serve`` of 1 worker x 3 threads, requests that send work take at most 2 threads
(:attr:`addin_backend.serving.http_worker.BufferingThreadWorker.heavy_slots`). Uploads whose
reading is held (``hold/sitecustomize.py``: the request child waits for a file) hold two threads
and a third waits without one, and ``/healthz`` and a job's status are answered meanwhile; once
released, every upload is answered 201. Without the slots the three uploads held all three threads
and ``/healthz`` got no answer until they ended."""
from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import requests

from tests.adapters.docx.docxkit import paragraphs_docx
from tests.servers import LedgerServer

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

HOLD = str(Path(__file__).parent / "hold")
ROOT = str(Path(__file__).resolve().parents[3])
OCTETS = {"Content-Type": "application/octet-stream"}


def test_reads_are_answered_while_uploads_hold_every_heavy_slot(tmp_path):
    held = tmp_path / "held"
    held.mkdir()
    env = {"PYTHONPATH": f"{HOLD}:{ROOT}", "LEDGER_TEST_HOLD": str(held), "LEDGER_GRAPH_SEMANTIC": "0"}
    (held / "release").touch()
    with LedgerServer(tmp_path / "srv", workers=1, threads=3, env=env) as srv:
        first = requests.post(f"{srv.url}/api/v1/documents?filename=first.docx", data=paragraphs_docx(["One."]),
                              headers=OCTETS, timeout=120)
        assert first.status_code == 201, first.text  # before the hold: read at once
        (held / "release").unlink()
        for entered in held.glob("entered-*"):
            entered.unlink()
        answers: dict[int, requests.Response | Exception] = {}

        def upload(i: int) -> None:
            try:
                answers[i] = requests.post(f"{srv.url}/api/v1/documents?filename=d{i}.docx",
                                           data=paragraphs_docx([f"Upload {i} says one thing."]),
                                           headers=OCTETS, timeout=240)
            except Exception as exc:  # noqa: BLE001 - reported by the assertion below
                answers[i] = exc

        threads = [threading.Thread(target=upload, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 120
        while len(list(held.glob("entered-*"))) < 2:  # both heavy slots held, in two request children
            assert time.monotonic() < deadline, "the two uploads never reached their readers"
            time.sleep(0.05)
        threads.append(threading.Thread(target=upload, args=(2,)))
        threads[-1].start()
        time.sleep(1.0)  # the third upload reaches the worker (it then waits for a slot, without a thread)
        try:
            health = requests.get(f"{srv.url}/healthz", timeout=60)
            job = requests.get(f"{srv.url}/api/v1/jobs/{first.json()['job']['id']}", timeout=60)
            assert health.status_code == 200 and job.status_code == 200
            assert not answers, answers  # the uploads are still held
        finally:
            (held / "release").touch()
        for t in threads:
            t.join(240)
        got = {i: a.status_code if isinstance(a, requests.Response) else repr(a) for i, a in answers.items()}
        assert got == {0: 201, 1: 201, 2: 201}, got
