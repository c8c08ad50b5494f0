"""``ledger worker``: run queued graph and proposal jobs (RQ), and ``ledger worker --health``.

A worker takes jobs from the queues it serves (:data:`addin_backend.jobs.queue.QUEUES`, in that
order) and runs each in its own process, so the models it loaded at start (spaCy, the MiniLM
encoder) serve every job, and the embedding cache in its data folder is shared with every
other worker on the machine. It reads the same ``LEDGER_*`` settings as ``ledger serve``
(``LEDGER_STORE`` must be ``redis://…``; ``LEDGER_DATA_DIR`` holds the embedding cache).

While a job runs, a thread heartbeats every ``--heartbeat`` seconds: RQ's execution entry
(expiring after three beats) and the LEDGER job record (``updated``). A worker killed mid-job
stops both; the next idle worker's clean-up (every ``--heartbeat`` * 2 seconds) finds the
abandoned job and RQ retries it (:mod:`addin_backend.jobs.queue`). ``SIGTERM`` lets the current
job finish first (a warm shutdown); a second one stops at once and the job is retried elsewhere.

``ledger worker`` **supervises itself**: the command is a small parent process that keeps
``--processes`` workers (1 by default) running and starts one again when it dies, killed by the
job it ran or by anything else (after 1 s, longer while one keeps dying at once), so the queues
are never left without a worker. A job that kills its worker twice is quarantined
(:data:`addin_backend.jobs.queue.QUARANTINE_AFTER`) and stops no third one. ``--no-supervise``
runs one worker in this process (a service manager that restarts it instead).

``--health`` prints what to monitor (the Redis server, live workers per queue, queue lengths,
the oldest waiting job, failed jobs) and exits 0 when every queue it checks has a live worker
and no job waited longer than ``--max-wait`` seconds, 1 otherwise, 2 when Redis does not answer.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import sys
import threading
import time
from typing import Any, Sequence

__all__ = ["HEARTBEAT", "make_worker", "run_worker", "supervise", "health", "check_health", "main_worker"]

log = logging.getLogger("ledger.worker")

#: Seconds between heartbeats while a job runs; RQ's entry expires after three.
HEARTBEAT = 5


def _worker_class():
    from rq import SimpleWorker

    from ..jobs.queue import current_progress

    class LedgerWorker(SimpleWorker):
        """RQ's in-process worker, with a heartbeat thread while a job runs and a short
        dequeue wait, so that an abandoned job is found within seconds, not minutes."""

        def get_heartbeat_ttl(self, job: Any, working_time: float = 0.0) -> int:
            return 3 * int(self.job_monitoring_interval)

        @property
        def dequeue_timeout(self) -> int:
            return max(1, int(self.maintenance_interval))

        def execute_job(self, job: Any, queue: Any) -> None:
            from rq.worker import WorkerStatus

            execution = self.prepare_execution(job)
            stop = threading.Event()
            beat = threading.Thread(target=self._beat, args=(job, execution, stop), daemon=True,
                                    name="ledger-heartbeat")
            beat.start()
            try:
                self.perform_job(job, queue, execution)
            finally:
                stop.set()
                beat.join(5)
            self.set_state(WorkerStatus.IDLE)

        def _beat(self, job: Any, execution: Any, stop: threading.Event) -> None:
            from ..errors import StoreUnavailableError
            from ..jobs.runner import JobCancelled

            while not stop.wait(self.job_monitoring_interval):
                try:
                    self.maintain_heartbeats(job, execution)
                except Exception as exc:  # Redis away for a moment: the next beat tries again
                    log.warning("heartbeat of job %s failed: %s", job.id, type(exc).__name__)
                progress = current_progress()
                if progress is not None:
                    try:
                        progress.touch()
                    except (JobCancelled, StoreUnavailableError):
                        pass  # the job itself notices at its next report

    return LedgerWorker


def make_worker(connection: Any, queues: Sequence[str], *, name: str | None = None,
                heartbeat: int = HEARTBEAT):
    """A worker serving ``queues`` (short names) on ``connection``."""
    from rq import Queue

    from ..jobs.queue import _serializer, queue_name

    heartbeat = max(1, int(heartbeat))
    serializer = _serializer()
    rq_queues = [Queue(queue_name(q), connection=connection, serializer=serializer) for q in queues]
    return _worker_class()(rq_queues, connection=connection, name=name, serializer=serializer,
                           job_monitoring_interval=heartbeat, maintenance_interval=2 * heartbeat,
                           worker_ttl=max(30, 6 * heartbeat))


def _settings():
    from ..api.config import load_config

    cfg = load_config()
    if not str(cfg["STORE"]).startswith(("redis://", "rediss://", "unix://")):
        raise ValueError("ledger worker needs LEDGER_STORE=redis://... (the queue lives in Redis)")
    return cfg


def _queues(spec: str | None) -> list[str]:
    from ..jobs.queue import DEFAULT_QUEUES, queue_name

    names = [q.strip() for q in (spec or ",".join(DEFAULT_QUEUES)).split(",") if q.strip()]
    for q in names:
        queue_name(q)  # raises on an unknown name
    return [q[len("ledger-"):] if q.startswith("ledger-") else q for q in names]


def _config(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]] | None:
    """The settings and the queues to serve; ``None`` (said on stderr) when either is wrong."""
    try:
        return _settings(), _queues(args.queues)
    except ValueError as exc:
        sys.stderr.write(f"ledger worker: {exc}\n")
        return None


def run_worker(args: argparse.Namespace) -> int:
    """Run the worker loop until stopped (or, with ``--burst``, until the queues are empty)."""
    import redis

    from ..jobs.queue import QueueRunner, configure_worker_context
    from ..language.nlp import configure_embedding_cache
    from .server import LOG_FORMAT
    from ..store import open_store

    got = _config(args)
    if got is None:
        return 2
    cfg, queues = got
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    os.makedirs(cfg["DATA_DIR"], exist_ok=True)
    store = open_store(cfg["STORE"], cfg["DATA_DIR"], int(cfg["TTL_SECONDS"]))
    runner = QueueRunner(store, stale_after=float(cfg["JOB_STALE_SECONDS"]), retries=int(cfg["JOB_RETRIES"]),
                         timeout=int(cfg["JOB_TIMEOUT"]), large_tokens=int(cfg["QUEUE_LARGE_TOKENS"]))
    runner.job_seconds = float(cfg["JOB_SECONDS"])  # the same budgets as a web worker's job threads
    runner.job_cpu_seconds = float(cfg["JOB_CPU_SECONDS"])
    configure_worker_context(store, runner)
    if os.environ.get("LEDGER_EMBEDDING_CACHE") is None:
        configure_embedding_cache(os.path.join(cfg["DATA_DIR"], "embeddings.sqlite3"))
    if not args.no_preload:
        started = time.perf_counter()
        _preload(bool(cfg["GRAPH_SEMANTIC"]))
        log.info("models loaded in %.1f s", time.perf_counter() - started)
    connection = redis.Redis.from_url(cfg["STORE"])
    worker = make_worker(connection, queues, name=args.name, heartbeat=args.heartbeat)
    log.info("worker %s on %s serving %s", worker.name, socket.gethostname(), ", ".join(queues))
    worker.work(burst=args.burst, max_jobs=args.max_jobs, logging_level="INFO")
    return 0


def _preload(semantic: bool) -> None:
    """Load what every graph job needs once, before the first job (the first upload's graph
    then costs no model load)."""
    from ..language import nlp
    from ..service.graph_job import graph_builder

    if graph_builder() is None:
        return
    nlp.get_spacy()
    nlp.get_lexicon()
    if semantic:
        from ..embeddings.encoders import related_backend

        nlp.get_embedder(related_backend()).encode(["warm up"])


def health(connection: Any, queues: Sequence[str], *, local: bool = False,
           max_wait: float = 300.0) -> dict[str, Any]:
    """What to monitor, as JSON: Redis, live workers and each queue's backlog; ``healthy`` and
    the ``problems`` that made it false."""
    from rq import Queue, Worker
    from rq.registry import FailedJobRegistry, StartedJobRegistry

    from ..jobs.queue import _serializer, queue_name

    serializer = _serializer()
    connection.ping()
    now = time.time()
    host = socket.gethostname()
    workers = []
    for w in Worker.all(connection=connection, serializer=serializer):
        if local and w.hostname != host:
            continue
        beat = w.last_heartbeat.timestamp() if w.last_heartbeat else None
        workers.append({"name": w.name, "host": w.hostname, "pid": w.pid, "state": w.get_state(),
                        "queues": [q.name for q in w.queues], "current_job": w.get_current_job_id(),
                        "last_heartbeat_s": None if beat is None else round(now - beat, 1),
                        "successful_jobs": w.successful_job_count, "failed_jobs": w.failed_job_count})
    out: dict[str, Any] = {"redis": "ok", "host": host, "workers": workers, "queues": {}, "problems": []}
    for short in queues:
        name = queue_name(short)
        q = Queue(name, connection=connection, serializer=serializer)
        oldest = None
        ids = q.get_job_ids(0, 0)
        if ids:
            job = q.fetch_job(ids[0])
            if job is not None and job.enqueued_at is not None:
                oldest = round(now - job.enqueued_at.timestamp(), 1)
        serving = [w for w in workers if isinstance(w["queues"], list) and name in w["queues"]]
        out["queues"][short] = {"queued": q.count, "started": StartedJobRegistry(queue=q).count,
                                "failed": FailedJobRegistry(queue=q).count, "workers": len(serving),
                                "oldest_queued_s": oldest}
        if not serving:
            out["problems"].append(f"no {'local ' if local else ''}worker serves the {short} queue")
        if oldest is not None and oldest > max_wait:
            out["problems"].append(f"the oldest job of the {short} queue has waited {oldest:.0f} s")
    out["healthy"] = not out["problems"]
    return out


def check_health(args: argparse.Namespace) -> int:
    import redis

    got = _config(args)
    if got is None:
        return 2
    cfg, queues = got
    connection = redis.Redis.from_url(cfg["STORE"], socket_timeout=5, socket_connect_timeout=5)
    try:
        report = health(connection, queues, local=args.local, max_wait=args.max_wait)
    except redis.RedisError as exc:
        report = {"redis": f"unavailable: {type(exc).__name__}", "healthy": False,
                  "problems": ["the Redis server does not answer"]}
        sys.stdout.write(json.dumps(report) + "\n")
        return 2
    sys.stdout.write(json.dumps(report, indent=None if args.json else 1) + "\n")
    return 0 if report["healthy"] else 1


def _child_argv(args: argparse.Namespace, slot: int) -> list[str]:
    """The command line of one supervised worker: this command's options, one worker in its process."""
    argv = [sys.executable, "-m", "addin_backend.cli", "worker", "--no-supervise", "--heartbeat", str(args.heartbeat)]
    if args.queues:
        argv += ["--queues", args.queues]
    if args.burst:
        argv.append("--burst")
    if args.max_jobs:
        argv += ["--max-jobs", str(args.max_jobs)]
    if args.no_preload:
        argv.append("--no-preload")
    if args.name:  # RQ's worker names are unique: one per process
        argv += ["--name", args.name if getattr(args, "processes", 1) == 1 else f"{args.name}-{slot}"]
    return argv


#: Seconds before a dead worker is started again, doubled (up to the second figure) while
#: workers keep dying within :data:`_QUICK_DEATH` seconds of their start.
_RESTART = (1.0, 30.0)
_QUICK_DEATH = 10.0


def supervise(args: argparse.Namespace) -> int:
    """Keep ``--processes`` workers running (see the module docstring); returns when stopped
    (SIGTERM or SIGINT, passed on to the workers, which finish their job first) or, with
    ``--burst``, once every worker has ended with the queues empty."""
    import signal
    import subprocess

    got = _config(args)
    if got is None:
        return 2
    from .server import LOG_FORMAT

    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    n = max(1, int(getattr(args, "processes", 1) or 1))
    procs: dict[int, tuple[subprocess.Popen, float]] = {}
    due: dict[int, float] = {i: 0.0 for i in range(n)}  # slot -> when to start it
    delay = {i: _RESTART[0] for i in range(n)}
    stopping: list[int] = []

    def stop(signum: int, _frame: Any) -> None:
        stopping.append(signum)
        for proc, _started in procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    log.info("supervising %d worker(s)", n)
    while True:
        now = time.monotonic()
        if not stopping:
            for slot, when in list(due.items()):
                if now >= when:
                    procs[slot] = (subprocess.Popen(_child_argv(args, slot)), now)
                    del due[slot]
        for slot, (proc, started) in list(procs.items()):
            code = proc.poll()
            if code is None:
                continue
            del procs[slot]
            if stopping or (code == 0 and args.burst):
                continue
            quick = time.monotonic() - started < _QUICK_DEATH
            delay[slot] = min(_RESTART[1], delay[slot] * 2) if quick and code != 0 else _RESTART[0]
            if code != 0:
                log.warning("worker %d (pid %d) died (%s); starting another in %.0f s", slot, proc.pid,
                            f"signal {-code}" if code < 0 else f"exit {code}", delay[slot])
            due[slot] = time.monotonic() + (delay[slot] if code != 0 else 0.0)
        if not procs and (stopping or not due):
            return 0
        time.sleep(0.2)


def main_worker(args: argparse.Namespace) -> int:
    """``ledger worker``: the health check, a supervised pool of workers, or one worker loop."""
    if args.health:
        return check_health(args)
    return run_worker(args) if args.no_supervise else supervise(args)
