"""The Flask application factory: blueprints under /api/v1, health checks, the task pane."""
from __future__ import annotations

import os
from typing import Any

from flask import Flask, jsonify

__all__ = ["create_app"]

STATIC_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "static")


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; ``test_config`` overrides the defaults and the environment."""
    app = Flask(__name__, static_folder=STATIC_DIR, static_url_path="/static")
    app.config.from_mapping(MAX_CONTENT_LENGTH=64 * 1024 * 1024)
    if test_config:
        app.config.update(test_config)

    @app.get("/healthz")
    def healthz():
        return jsonify(status="ok")

    @app.get("/readyz")
    def readyz():
        return jsonify(status="ready")

    return app
