"""The Flask application factory: blueprints under /api/v1, health checks, the task pane.

Each area is one small blueprint module (``documents``, ``jobs``, ``meta``, ``taskpane``,
``graph``, ``retrieval``, ``edits``, ``check``; ``mcp`` serves the MCP server at ``/mcp``); views
parse the request, call a plain function of the backend and return JSON. Errors are answered by the handlers of ``api/errors.py`` only.
"""
from __future__ import annotations

import os
from typing import Any

from flask import Flask, g
from flask.json.provider import DefaultJSONProvider

from ..budget import enter, enter_client, leave, leave_client
from ..jobs.modes import make_runner
from ..jobs.processes import child_settings
from ..language.nlp import configure_embedding_cache
from ..mcp.http import bp as mcp_bp
from ..service import preload
from ..service.uploads import prepare_reading
from ..store import open_store
from . import check, documents, edits, graph, jobs, meta, retrieval, taskpane
from .config import load_config
from .errors import register_error_handlers
from .security import init_security

__all__ = ["create_app", "BLUEPRINTS"]

BLUEPRINTS = (documents.bp, graph.bp, retrieval.bp, edits.bp, check.bp, jobs.bp, meta.bp, meta.health, taskpane.bp,
              mcp_bp)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults < ``LEDGER_*`` environment < ``test_config``.

    Each gunicorn worker calls this after the fork, so each has its own store connections
    and its own job threads; what they share lives in the store.

    :raise ValueError: a setting that cannot be used.
    """
    cfg = load_config(test_config)
    app = Flask(__name__, static_folder=cfg["STATIC_DIR"], static_url_path="/static")
    app.config.update(cfg)
    if isinstance(app.json, DefaultJSONProvider):
        app.json.sort_keys = False  # keep the documented field order
    os.makedirs(cfg["DATA_DIR"], exist_ok=True)
    store = open_store(cfg["STORE"], cfg["DATA_DIR"], int(cfg["TTL_SECONDS"]))
    app.extensions["ledger.store"] = store
    embedding_cache = os.path.join(cfg["DATA_DIR"], "embeddings.sqlite3")
    app.extensions["ledger.jobs"] = make_runner(
        store, mode=cfg["JOBS"], threads=int(cfg["JOB_THREADS"]), stale_after=float(cfg["JOB_STALE_SECONDS"]),
        edit_threads=int(cfg["EDIT_THREADS"]), retries=int(cfg["JOB_RETRIES"]), timeout=int(cfg["JOB_TIMEOUT"]),
        large_tokens=int(cfg["QUEUE_LARGE_TOKENS"]), local=str(cfg["JOBS_LOCAL"]),
        processes=int(cfg["JOB_PROCESSES"]), model_jobs=int(cfg["MODEL_JOBS"]),
        model_per_client=int(cfg["MODEL_JOBS_PER_KEY"]),
        settings=child_settings(cfg["STORE"], cfg["DATA_DIR"], int(cfg["TTL_SECONDS"]),
                                embedding_cache=embedding_cache, nice=int(cfg["JOB_NICE"]), preload=preload,
                                call_preload=prepare_reading))
    app.extensions["ledger.jobs"].job_seconds = float(cfg["JOB_SECONDS"])
    app.extensions["ledger.jobs"].job_cpu_seconds = float(cfg["JOB_CPU_SECONDS"])
    app.extensions["ledger.jobs"].watch()  # takes over the queued jobs of a worker that died
    preload()  # the engines, imported here, not raced for by the first requests' threads
    if os.environ.get("LEDGER_EMBEDDING_CACHE") is None:  # embeddings computed once per data folder
        configure_embedding_cache(embedding_cache)
    register_error_handlers(app)
    init_security(app)
    _init_budget(app)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    return app


def _init_budget(app: Flask) -> None:
    """Every request's work runs under ``LEDGER_REQUEST_SECONDS`` and ``LEDGER_REQUEST_CPU_SECONDS``
    (:mod:`addin_backend.budget`): past either, the work stops at its next check and the request
    answers ``503 deadline_exceeded``. The jobs it queues are its client's (a fair share each)."""
    seconds, cpu = float(app.config["REQUEST_SECONDS"]), float(app.config["REQUEST_CPU_SECONDS"])

    def start() -> None:
        g.ledger_budget = enter(seconds, "the request", cpu=cpu)

    def who() -> None:  # after the key check (security's before_request): whose work this is
        from .context import client_id

        g.ledger_client = enter_client(client_id())

    def end(_exc: BaseException | None) -> None:
        token = g.pop("ledger_budget", None)
        if token is not None:
            leave(token)
        client = g.pop("ledger_client", None)
        if client is not None:
            leave_client(client)

    app.before_request(start)
    app.before_request(who)
    app.teardown_request(end)
