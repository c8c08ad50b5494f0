"""Real servers on loopback for tests and benchmarks: redis-server, `ledger serve` (gunicorn) and `ledger worker`.

Each server gets a free port and its own temporary folder, and is stopped (by its own pid)
when the ``with`` block ends.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

__all__ = ["free_port", "RedisServer", "LedgerServer", "WorkerProcess", "self_signed_cert", "ROOT"]

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen, grace: float = 15.0) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


class RedisServer:
    """``redis-server`` on a free loopback port, no persistence, in its own folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> "RedisServer":
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server is not installed (make system-deps installs it)")
        self.folder.mkdir(parents=True, exist_ok=True)
        self._out = open(self.folder / "redis.log", "wb")
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
            stdout=self._out, stderr=subprocess.STDOUT)
        import redis

        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
                return self
            except redis.ConnectionError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    self.__exit__()
                    raise RuntimeError(f"redis-server did not start; see {self.folder / 'redis.log'}")
                time.sleep(0.05)

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            _stop(self.proc)
            self._out.close()


def self_signed_cert(folder: Path) -> tuple[Path, Path]:
    """A certificate and key for 127.0.0.1/localhost, made with ``openssl``."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True)
    return cert, key


class LedgerServer:
    """``ledger serve`` (gunicorn, ``workers`` processes) with its own data folder and log file.

    ``env`` adds ``LEDGER_*`` settings; ``cert``/``key`` switch it to HTTPS (then requests
    must verify against ``cert``).
    """

    def __init__(self, folder: Path, *, workers: int = 2, threads: int = 4,
                 env: dict[str, str] | None = None, cert: Path | None = None,
                 key: Path | None = None, root: Path | None = None) -> None:
        self.folder = Path(folder)
        self.root = Path(root) if root is not None else ROOT  # another checkout's server (benchmarks' peer)
        self.port = free_port()
        self.workers, self.threads = workers, threads
        self.env = env or {}
        self.cert, self.key = cert, key
        scheme = "https" if cert else "http"
        self.url = f"{scheme}://127.0.0.1:{self.port}"
        self.verify: str | bool = str(cert) if cert else True
        self.log = self.folder / "server.log"
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> "LedgerServer":
        self.folder.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "addin_backend.cli", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--workers", str(self.workers), "--threads", str(self.threads)]
        if self.cert:
            cmd += ["--cert", str(self.cert), "--key", str(self.key)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
        env.update({"LEDGER_DATA_DIR": str(self.folder / "data"), "PYTHONPATH": str(self.root)}, **self.env)
        self._out = open(self.log, "wb")
        self.proc = subprocess.Popen(cmd, cwd=self.root, env=env, stdout=self._out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(self.url + "/readyz", verify=self.verify, timeout=2).status_code == 200:
                    break
            except (requests.ConnectionError, requests.Timeout):  # not listening yet, or a worker still booting
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.__exit__()
                raise RuntimeError(f"ledger serve did not start:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.1)
        # Ready as soon as one worker answers; wait until every worker has answered once.
        answered: set[int] = set()
        while len(answered) < self.workers and time.monotonic() < deadline:
            answered.add(requests.get(self.url + "/healthz", verify=self.verify, timeout=5).json()["worker"])
        if len(answered) < self.workers:
            self.__exit__()
            raise RuntimeError(f"only workers {answered} of {self.workers} answered")
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            _stop(self.proc)
            self._out.close()

    def worker_pids(self) -> set[int]:
        """The pids of the gunicorn workers (children of the master), from /proc."""
        assert self.proc is not None
        return _children_of({self.proc.pid})

    def job_pids(self) -> set[int]:
        """The pids of the workers' job processes (``LEDGER_JOBS=processes``, the default without
        Redis: addin_backend/jobs/processes.py), from /proc."""
        return _children_of(self.worker_pids())

    def cpu_seconds(self, jobs: bool = False) -> float:
        """The CPU time (user + system) the gunicorn workers have used so far, from /proc: what a
        request cost the server, which a busy machine does not inflate as it does the wall clock
        (with ``jobs``, their live job processes' too)."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in self.worker_pids() | (self.job_pids() if jobs else set()):
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / ticks

    def holds(self, clients: list[socket.socket]) -> int:
        """How many of these client sockets the server still holds open (its side of each
        connection ``ESTABLISHED``, from /proc/net/tcp): a client the server dropped, or closed
        after its answer, is not counted. A request answered while slow clients are all still
        held shows they hold no thread, whatever the wall clock says on a busy machine."""
        ports = set()
        for c in clients:
            try:
                ports.add(c.getsockname()[1])
            except OSError:
                continue
        held: set[int] = set()  # by port: the table read while it changes may list a socket twice
        for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
            local, remote, state = line.split()[1:4]
            if (state == "01" and int(local.split(":")[1], 16) == self.port
                    and int(remote.split(":")[1], 16) in ports):
                held.add(int(remote.split(":")[1], 16))
        return len(held)

    def rss_kib(self, jobs: bool = False) -> dict[int, int]:
        """Resident memory of each worker, in KiB (with ``jobs``, of each job process too)."""
        out = {}
        for pid in self.worker_pids() | (self.job_pids() if jobs else set()):
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        out[pid] = int(line.split()[1])
            except OSError:
                continue
        return out


def _children_of(parents: set[int]) -> set[int]:
    """The pids of the processes whose parent is one of ``parents``, from /proc."""
    out = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) in parents:
            out.add(int(stat.parent.name))
    return out


class WorkerProcess:
    """``ledger worker`` on the Redis ``store_url``, with its own data folder and log file.

    ``args`` are extra options (``--queues``, ``--burst``, ``--heartbeat``); ``env`` adds
    ``LEDGER_*`` settings. ``ready()`` waits until the worker has registered with RQ. By default
    one worker runs in the process itself (``--no-supervise``: ``pid`` is the RQ worker's);
    ``supervise=True`` runs the command as users do, a supervisor keeping ``--processes`` workers.
    """

    def __init__(self, folder: Path, store_url: str, *, args: list[str] | None = None,
                 env: dict[str, str] | None = None, name: str | None = None, supervise: bool = False) -> None:
        self.folder = Path(folder)
        self.store_url = store_url
        self.args = list(args or []) + ([] if supervise else ["--no-supervise"])
        self.env = env or {}
        self.name = name
        self.log = self.folder / "worker.log"
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> "WorkerProcess":
        self.folder.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "addin_backend.cli", "worker", *self.args]
        if self.name:
            cmd += ["--name", self.name]
        env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
        env.update({"LEDGER_STORE": self.store_url, "LEDGER_DATA_DIR": str(self.folder / "data"),
                    "PYTHONPATH": str(ROOT)}, **self.env)
        self._out = open(self.log, "ab")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self._out, stderr=subprocess.STDOUT)
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def ready(self, timeout: float = 120.0) -> "WorkerProcess":
        """Wait until RQ lists this worker (its models are loaded by then)."""
        import redis
        from rq import Worker

        conn = redis.Redis.from_url(self.store_url)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(w.pid == self.pid for w in Worker.all(connection=conn)):
                return self
            if self.proc is not None and self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"ledger worker did not start:\n{self.log.read_text()[-3000:]}")

    def children(self) -> set[int]:
        """The pids of the supervisor's worker processes, from /proc."""
        assert self.proc is not None
        return _children_of({self.proc.pid})

    def kill(self) -> None:
        """``kill -9``: no clean-up, no goodbye to RQ."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None:
            _stop(self.proc, grace=30.0)
            self._out.close()


def finished_job(url: str, job_id: str, headers: dict | None = None, limit: float = 300) -> dict:
    """The job's record once it is ``done`` or ``failed``, or as it stands after ``limit`` seconds
    (the caller asserts the status, so a job still running fails the test, not a timeout here)."""
    deadline = time.monotonic() + limit
    while True:
        rec = requests.get(f"{url}/api/v1/jobs/{job_id}", headers=headers, timeout=30).json()
        if rec["status"] in ("done", "failed") or time.monotonic() > deadline:
            return rec
        time.sleep(0.25)
