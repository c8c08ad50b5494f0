"""Blueprint ``meta``: the OpenAPI document and the version, plus ``/healthz`` and ``/readyz``."""
from __future__ import annotations

import os

from flask import Blueprint, Response, current_app, jsonify

from .. import __version__
from ..service.graph_job import graph_builder
from ..store.documents import MEDIA_TYPES
from .context import store
from .openapi import build_spec

__all__ = ["bp", "health"]

bp = Blueprint("meta", __name__, url_prefix="/api/v1")
health = Blueprint("health", __name__)


@bp.get("/openapi.json")
def openapi() -> Response:
    cfg = current_app.config
    # 429 on every route: a key's rate limit, or (with keys) the limit on wrong keys per address
    limited = bool(cfg["RATE"]) or (bool(cfg["API_KEYS"]) and bool(cfg.get("AUTH_FAILURES")))
    return jsonify(build_spec(keys=bool(cfg["API_KEYS"]), rate=limited))


@bp.get("/version")
def version() -> Response:
    return jsonify(name="ledger", version=__version__, api="v1", formats=list(MEDIA_TYPES),
                   store=store().kind, graph=graph_builder() is not None)


@health.get("/healthz")
def healthz() -> Response:
    """Liveness: this worker answers (no store access, so a store outage does not kill it)."""
    return jsonify(status="ok", version=__version__, worker=os.getpid())


@health.get("/readyz")
def readyz() -> Response:
    """Readiness: the store answers (503 ``store_unavailable`` otherwise)."""
    store().ping()
    return jsonify(status="ready", store=store().kind)
