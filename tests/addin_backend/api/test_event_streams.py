"""Event streams (issue 16): the per-client cap, and the worker's event hub that follows open
streams without a request thread (here on socket pairs, as ``ledger serve`` hands them over)."""
from __future__ import annotations

import socket
import time

from addin_backend.api.jobs import JobEvents, open_streams
from addin_backend.errors import UnknownJobError
from addin_backend.serving.http_events import EventHub
from addin_backend.jobs.runner import Progress
from tests.addin_backend.api.conftest import seed


def _running_job(app):
    doc_id = seed(app)
    store, runner = app.extensions["ledger.store"], app.extensions["ledger.jobs"]
    job = runner.create(doc_id, "graph", "read", name="long", progress=0.1)
    progress = Progress(store, dict(job))
    progress.finish("running")
    return job, progress


def test_a_client_holds_at_most_its_cap_of_open_streams(make_app):
    app = make_app(SSE_POLL_SECONDS=0.01, SSE_PER_CLIENT=2)
    client = app.test_client()
    job, progress = _running_job(app)
    url = f"/api/v1/jobs/{job['id']}/events"
    first, second = client.get(url, buffered=False), client.get(url, buffered=False)
    assert first.status_code == second.status_code == 200 and open_streams() == 2
    third = client.get(url)
    assert third.status_code == 429 and third.json["error"]["code"] == "rate_limited"
    assert third.headers["Retry-After"] == "5" and "at most 2 open event streams" in third.json["error"]["message"]
    first.close()  # the client went away: its stream no longer counts
    assert open_streams() == 1
    fourth = client.get(url, buffered=False)
    assert fourth.status_code == 200
    progress.finish("done", result={})
    assert b"event: done" in b"".join(c if isinstance(c, bytes) else c.encode() for c in fourth.response)
    second.close()
    fourth.close()
    assert open_streams() == 0
    # a finished job's stream is one event and counts for nothing
    for _ in range(3):
        assert client.get(url).data.startswith(b"event: done")


class _Jobs:
    """A job runner whose one job's record the test sets."""

    def __init__(self, rec):
        self.rec, self.reads = rec, 0

    def get(self, job_id):
        self.reads += 1
        if self.rec is None:
            raise UnknownJobError(f"no job {job_id!r}")
        return dict(self.rec)


class _Conn:
    def __init__(self, sock):
        self.sock, self.closed = sock, False

    def close(self):
        self.closed = True
        self.sock.close()


def _read_until(sock, marker: bytes, timeout: float = 5.0) -> bytes:
    sock.settimeout(timeout)
    got = b""
    while marker not in got:
        data = sock.recv(65536)
        if not data:
            break
        got += data
    return got


def _hub(alive=lambda: True):
    closed = []
    return EventHub(alive, closed.append, limit=3), closed


def _follow(hub, jobs, chunked=True):
    server, client = socket.socketpair()
    rec = jobs.get("d-j")
    stream = JobEvents(jobs, rec, {"self": "/j"}, poll=0.02, limit=60)
    stream.step()  # the route sent the first event
    conn = _Conn(server)
    assert hub.add(conn, stream, chunked=chunked)
    return conn, client, stream


def test_the_hub_sends_progress_and_the_end_of_every_stream_reading_each_job_once_a_tick():
    rec = {"id": "d-j", "status": "running", "stage": "read", "progress": 0.1}
    jobs = _Jobs(rec)
    hub, closed = _hub()
    follows = [_follow(hub, jobs) for _ in range(3)]
    spare = socket.socketpair()
    assert not hub.add(_Conn(spare[0]), follows[0][2], chunked=True)  # over the limit
    for s in spare:
        s.close()
    time.sleep(0.2)
    reads_before = jobs.reads
    time.sleep(0.2)
    assert jobs.reads - reads_before <= 12  # ~10 ticks of 0.02 s: one read per tick, not per stream
    rec.update(stage="contains", progress=0.5)
    for _, client, _ in follows:
        assert b'"stage": "contains"' in _read_until(client, b"contains")
    rec.update(status="done", progress=1.0)
    for conn, client, stream in follows:
        got = _read_until(client, b"0\r\n\r\n")
        assert b"event: done" in got and got.endswith(b"\r\n0\r\n\r\n")  # the chunked body's end
        assert client.recv(10) == b""  # and the connection closes
    deadline = time.monotonic() + 5
    while len(closed) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(closed) == 3 and len(hub) == 0 and all(conn.closed for conn, _, _ in follows)
    for _, client, _ in follows:
        client.close()


def test_the_hub_drops_a_client_that_leaves_and_ends_every_stream_when_the_worker_stops():
    alive = [True]
    jobs = _Jobs({"id": "d-j", "status": "running", "stage": "read", "progress": 0.1})
    hub, closed = _hub(lambda: alive[0])
    gone, staying = _follow(hub, jobs), _follow(hub, jobs, chunked=False)
    gone[1].close()
    deadline = time.monotonic() + 5
    while not closed and time.monotonic() < deadline:
        time.sleep(0.01)
    assert closed == [gone[0]] and gone[2].done
    alive[0] = False
    got = _read_until(staying[1], b"restarting")
    assert b"event: timeout" in got and b"the server is restarting" in got
    assert staying[1].recv(10) == b"" and len(hub) == 0
    staying[1].close()


def test_a_stream_whose_job_is_gone_ends_with_an_error_event():
    jobs = _Jobs({"id": "d-j", "status": "running", "stage": "read", "progress": 0.1})
    hub, _ = _hub()
    _, client, _ = _follow(hub, jobs, chunked=False)
    jobs.rec = None  # the document was deleted
    got = _read_until(client, b"unknown_job")
    assert b"event: error" in got and b'"code": "unknown_job"' in got
    client.close()
