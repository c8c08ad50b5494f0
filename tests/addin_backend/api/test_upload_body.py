"""An upload's body is read a piece at a time and counted as it arrives (issue 33, item 5), on a
real ``ledger serve`` on loopback: a body without a length (chunked) that passes
``LEDGER_MAX_UPLOAD_MB`` is ``413 too_large`` naming the limit (it was cut at the limit and parsed
as a damaged package: ``422 corrupt``), and a large upload is kept byte for byte through the
store's piecewise blob writes and read back whole. The memory figure (the worker's peak for a
40 MB upload, before and after) is ``python -m benchmarks.upload_memory``, not a test."""
from __future__ import annotations

import hashlib

import pytest
import requests

from benchmarks.upload_memory import document
from tests.servers import LedgerServer, finished_job

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

OCTETS = {"Content-Type": "application/octet-stream"}


def _pieces(data: bytes, size: int = 64 * 1024):
    for at in range(0, len(data), size):
        yield data[at:at + size]


def test_a_body_without_a_length_is_refused_as_it_passes_the_limit_and_a_large_one_is_kept_whole(tmp_path):
    env = {"LEDGER_RATE_LIMIT": "off", "LEDGER_GRAPH_SEMANTIC": "0", "LEDGER_MAX_UPLOAD_MB": "8"}
    with LedgerServer(tmp_path, workers=1, threads=4, env=env) as srv:
        r = requests.post(f"{srv.url}/api/v1/documents?filename=o.docx", data=_pieces(document(3)), headers=OCTETS,
                          timeout=120)
        assert r.status_code == 201, r.text[:300]  # chunked under the limit: taken (the worker buffers 4 MiB)
        # a large upload, with its length: kept byte for byte, its graph built, read back whole
        big = document(7)
        r = requests.post(f"{srv.url}/api/v1/documents?filename=big.docx", data=big, headers=OCTETS, timeout=120)
        assert r.status_code == 201, r.text[:300]
        doc = r.json()
        assert doc["size"] == len(big) and doc["sha256"] == hashlib.sha256(big).hexdigest()
        assert finished_job(srv.url, doc["job"]["id"])["status"] == "done"
        back = requests.get(f"{srv.url}/api/v1/documents/{doc['id']}/file", timeout=120)
        assert back.status_code == 200 and back.content == big
    env = {**env, "LEDGER_MAX_UPLOAD_MB": "1"}
    with LedgerServer(tmp_path / "small", workers=1, threads=4, env=env) as srv:
        r = requests.post(f"{srv.url}/api/v1/documents?filename=o.docx", data=_pieces(document(3)), headers=OCTETS,
                          timeout=120)
        assert r.status_code == 413, r.text[:300]
        err = r.json()["error"]
        assert err["code"] == "too_large" and "LEDGER_MAX_UPLOAD_MB" in err["message"]
        assert requests.get(f"{srv.url}/healthz", timeout=10).status_code == 200
        ok = requests.post(f"{srv.url}/api/v1/documents?filename=s.docx", data=document(0.5), headers=OCTETS,
                           timeout=120)
        assert ok.status_code == 201, ok.text[:300]  # the server takes the next upload
