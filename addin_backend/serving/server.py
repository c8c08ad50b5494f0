"""``ledger serve``: the production WSGI server (gunicorn) around the app factory.

N worker processes (threaded), each building its own app after the fork; they share the
store named by ``LEDGER_STORE``. Without Redis each worker runs its jobs in job processes it
supervises (:mod:`addin_backend.jobs.processes`), so that a job's work never holds the
interpreter lock its web threads need. With ``--cert``/``--key`` the server speaks HTTPS only
(Office add-ins load task panes over HTTPS).
"""
from __future__ import annotations

import argparse
import logging
import os
import sys

__all__ = ["serve", "gunicorn_options"]

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"


def gunicorn_options(args: argparse.Namespace) -> dict[str, object]:
    """Gunicorn settings for the command's arguments.

    :raise ValueError: only one of cert and key, or a file that is not there.
    """
    if bool(args.cert) != bool(args.key):
        raise ValueError("HTTPS needs both --cert and --key")
    for path in filter(None, (args.cert, args.key)):
        if not os.path.isfile(path):
            raise ValueError(f"no such file: {path}")
    options: dict[str, object] = {
        "bind": f"[{args.host}]:{args.port}" if ":" in args.host else f"{args.host}:{args.port}",
        "workers": max(1, args.workers),
        "threads": max(1, args.threads),
        # gthread whose poller reads each whole request before a thread takes it (slow clients
        # hold no thread; gunicorn's own errors are JSON): addin_backend/serving/http_worker.py
        "worker_class": "addin_backend.serving.http_worker.BufferingThreadWorker",
        "timeout": 120,
        "graceful_timeout": 10,  # in-flight requests get 10 s at shutdown; job threads are daemons
        "keepalive": 5,
        # answers go through the worker's non-blocking sender and its hub (a slow reader holds no
        # thread); sendfile(2) would write to the socket directly, blocking the thread
        "sendfile": False,
        # a worker is replaced after about this many requests: what big requests took is given back
        "max_requests": 2000,
        "max_requests_jitter": 200,
        "preload_app": False,  # each worker opens its own store connections and job threads
    }
    if args.cert:
        options.update(certfile=args.cert, keyfile=args.key)
    return options


def _prepare_models() -> None:
    """The embedding model's exports, made before the first request when the installation has
    none yet (``make venv`` makes them); a failure is logged, and a request would try again."""
    try:
        from ..embeddings.encoders import prepare

        prepare()
    except Exception as exc:  # torch or onnxruntime missing: the encoders fall back by themselves
        logging.getLogger("ledger.serve").warning("embedding model not prepared at start: %s", exc)


def serve(args: argparse.Namespace) -> int:
    """Run gunicorn in this process until it is stopped; 2 for unusable settings."""
    from gunicorn.app.base import BaseApplication

    from ..api import create_app
    from ..api.config import load_config

    try:
        options = gunicorn_options(args)
        cfg = load_config()  # a bad LEDGER_* setting fails here, once, not in every worker
    except ValueError as exc:
        sys.stderr.write(f"ledger serve: {exc}\n")
        return 2
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    if cfg.get("GRAPH_SEMANTIC", True):  # without RELATED no request embeds
        _prepare_models()

    class _App(BaseApplication):
        def load_config(self) -> None:
            for key, value in options.items():
                self.cfg.set(key, value)
            if "control_socket_disable" in self.cfg.settings:  # gunicorn >= 25.1
                # One socket in $HOME per user would collide between servers on one machine.
                self.cfg.set("control_socket_disable", True)

        def load(self):
            # without Redis, each worker's jobs run in job processes it supervises, never beside
            # its web threads (LEDGER_JOBS=threads keeps them on threads: addin_backend/jobs/processes.py)
            return create_app({"JOBS_LOCAL": "processes"})

    _App().run()
    return 0
