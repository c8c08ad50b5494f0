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


def _held(tmp_path: Path, **extra: str) -> tuple[Path, dict[str, str]]:
    """The hold's folder and the server's environment (``hold/sitecustomize.py``)."""
    held = tmp_path / "held"
    held.mkdir()
    return held, {"PYTHONPATH": f"{HOLD}:{ROOT}", "LEDGER_TEST_HOLD": str(held), "LEDGER_GRAPH_SEMANTIC": "0",
                  **extra}


def _until_entered(held: Path, pattern: str, count: int, what: str) -> None:
    deadline = time.monotonic() + 120
    while len(list(held.glob(pattern))) < count:
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def _in_thread(answers: dict, i: int, send) -> threading.Thread:  # type: ignore[no-untyped-def]
    """``send()`` on a thread of its own, its answer (or exception) kept as ``answers[i]``."""
    def run() -> None:
        try:
            answers[i] = send()
        except Exception as exc:  # noqa: BLE001 - reported by the assertion on the answers
            answers[i] = exc

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _codes(answers: dict) -> dict:
    return {i: a.status_code if isinstance(a, requests.Response) else repr(a) for i, a in answers.items()}


def test_reads_are_answered_while_uploads_hold_every_heavy_slot(tmp_path):
    held, env = _held(tmp_path)
    (held / "release").touch()
    with LedgerServer(tmp_path / "srv", workers=1, threads=3, env=env) as srv:
        first = requests.post(f"{srv.url}/api/v1/documents?filename=first.docx", data=paragraphs_docx(["One."]),
                              headers=OCTETS, timeout=120)
        assert first.status_code == 201, first.text  # before the hold: read at once
        (held / "release").unlink()
        for entered in held.glob("entered-*"):
            entered.unlink()
        answers: dict[int, requests.Response | Exception] = {}

        def upload(i: int) -> threading.Thread:
            return _in_thread(answers, i, lambda: requests.post(
                f"{srv.url}/api/v1/documents?filename=d{i}.docx", data=paragraphs_docx([f"Upload {i} says one thing."]),
                headers=OCTETS, timeout=240))

        threads = [upload(i) for i in range(2)]
        # both heavy slots held, in two request children
        _until_entered(held, "entered-*", 2, "the two uploads never reached their readers")
        threads.append(upload(2))
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
        got = _codes(answers)
        assert got == {0: 201, 1: 201, 2: 201}, got


#: The routes whose GET never waits for a heavy slot (``http_worker.is_light``): answered from one
#: small record or a file. A new route is heavy unless it is added here and to the pattern.
LIGHT_ROUTES = {"/healthz", "/readyz", "/", "/taskpane/", "/manifest.xml", "/static/<path:filename>",
                "/api/v1/version", "/api/v1/openapi.json", "/api/v1/documents/<document_id>",
                "/api/v1/jobs/<job_id>", "/api/v1/jobs/<job_id>/events"}
SAMPLES = {"document_id": "0123456789abcdef01234567", "unit_id": "p-3f2a9c0b1d", "job_id": "0123456789abcdef01234567-graph",
           "proposal_id": "0123456789abcdef", "rev": "2", "name": "house", "filename": "js/pane.js"}


def test_only_the_routes_answered_from_a_record_are_light(make_app):
    import re as _re

    from addin_backend.serving.http_worker import is_light

    rules = list(make_app().url_map.iter_rules())
    assert LIGHT_ROUTES <= {r.rule for r in rules}
    for rule in rules:
        path = _re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m: SAMPLES[m.group(1)], rule.rule)
        for method in sorted(rule.methods - {"OPTIONS"}):
            light = method in ("GET", "HEAD") and rule.rule in LIGHT_ROUTES
            for head in (f"{method} {path} HTTP/1.1\r\n", f"{method} {path}?view=rejected HTTP/1.1\r\n"):
                assert is_light(head.encode()) is light, (head, light)
    assert is_light(b"OPTIONS /api/v1/documents HTTP/1.1\r\n")  # a preflight
    assert not is_light(b"GET /healthz/../api/v1/documents/0123456789abcdef01234567/units HTTP/1.1\r\n")


def test_reads_are_answered_while_costly_reads_hold_every_heavy_slot(tmp_path):
    held, env = _held(tmp_path, LEDGER_TEST_HOLD_PATH="/units")
    (held / "release").touch()
    with LedgerServer(tmp_path / "srv", workers=1, threads=3, env=env) as srv:
        doc = requests.post(f"{srv.url}/api/v1/documents?filename=d.docx", data=paragraphs_docx(["One."]),
                            headers=OCTETS, timeout=120)
        assert doc.status_code == 201, doc.text
        units = f"{srv.url}/api/v1/documents/{doc.json()['id']}/units"
        (held / "release").unlink()
        answers: dict[int, requests.Response | Exception] = {}
        threads = [_in_thread(answers, i, lambda: requests.get(units, timeout=240)) for i in range(3)]
        # both heavy slots held by two reads
        _until_entered(held, "entered-read-*", 2, "the two reads never reached their views")
        time.sleep(1.0)  # the third read reaches the worker (it then waits for a slot, without a thread)
        try:
            assert len(list(held.glob("entered-read-*"))) == 2  # the third waits without a thread
            health = requests.get(f"{srv.url}/healthz", timeout=60)
            job = requests.get(f"{srv.url}/api/v1/jobs/{doc.json()['job']['id']}", timeout=60)
            assert health.status_code == 200 and job.status_code == 200
            assert not answers, answers  # the reads are still held
        finally:
            (held / "release").touch()
        for t in threads:
            t.join(240)
        got = _codes(answers)
        assert got == {0: 200, 1: 200, 2: 200}, got


def test_a_request_child_that_dies_while_it_reads_answers_corrupt_and_the_next_upload_is_read(tmp_path):
    import os
    import signal

    held, env = _held(tmp_path)
    with LedgerServer(tmp_path / "srv", workers=1, threads=3, env=env) as srv:
        answers: dict[int, requests.Response | Exception] = {}
        upload = _in_thread(answers, 0, lambda: requests.post(
            f"{srv.url}/api/v1/documents?filename=d.docx", data=paragraphs_docx(["One."]), headers=OCTETS,
            timeout=240))
        _until_entered(held, "entered-*", 1, "the upload never reached its reader")
        (entered,) = held.glob("entered-*")
        os.kill(int(entered.name.split("-")[-1]), signal.SIGKILL)  # the request child, mid-read
        upload.join(240)
        res = answers[0]
        assert isinstance(res, requests.Response), res
        assert res.status_code == 422 and res.json()["error"]["code"] == "corrupt", res.text
        assert "the process reading it stopped" in res.json()["error"]["message"]
        (held / "release").touch()
        again = requests.post(f"{srv.url}/api/v1/documents?filename=e.docx", data=paragraphs_docx(["Two."]),
                              headers=OCTETS, timeout=240)
        assert again.status_code == 201 and again.json()["units"] == 1, again.text
        assert requests.get(f"{srv.url}/healthz", timeout=60).status_code == 200
