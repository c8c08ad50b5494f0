"""The app factory: settings precedence, health checks, JSON errors, the task pane and manifest."""
from __future__ import annotations

import os

import pytest

from addin_backend.api.config import load_config, parse_rate
from tests.servers import free_port


def test_settings_come_from_defaults_then_environment_then_test_config(tmp_path):
    env = {"LEDGER_DATA_DIR": str(tmp_path), "LEDGER_TTL_SECONDS": "120", "LEDGER_API_KEYS": " key-one-0123456789, key-two-0123456789 ,",
           "LEDGER_CORS_ORIGINS": "https://a.example,https://b.example", "LEDGER_MAX_UPLOAD_MB": "2",
           "LEDGER_RATE_LIMIT": "30/minute", "LEDGER_STORE": "redis://h:6379/1", "LEDGER_GRAPH_SEMANTIC": "0"}
    cfg = load_config({"TTL_SECONDS": 60}, environ=env)
    assert cfg["TTL_SECONDS"] == 60  # test config wins over the environment
    assert cfg["DATA_DIR"] == str(tmp_path) and cfg["STORE"] == "redis://h:6379/1"
    assert cfg["API_KEYS"] == ["key-one-0123456789", "key-two-0123456789"]
    assert cfg["CORS_ORIGINS"] == ["https://a.example", "https://b.example"]
    assert cfg["MAX_CONTENT_LENGTH"] == 2 * 1024 * 1024 and cfg["RATE"] == (30, 60)
    assert cfg["GRAPH_SEMANTIC"] is False
    assert cfg["AUDIT_LOG"] == os.path.join(str(tmp_path), "audit.jsonl")
    defaults = load_config(environ={})
    assert (defaults["STORE"], defaults["API_KEYS"], defaults["MAX_CONTENT_LENGTH"]) == ("sqlite", [], 64 << 20)


@pytest.mark.parametrize("env", [{"LEDGER_TTL_SECONDS": "soon"}, {"LEDGER_RATE_LIMIT": "lots"},
                                 {"LEDGER_MAX_UPLOAD_MB": "0"}, {"LEDGER_RATE_LIMIT": "5/0s"}])
def test_unusable_settings_fail_at_start_up(env):
    with pytest.raises(ValueError):
        load_config(environ=env)


def test_rate_specs():
    assert parse_rate("5/second") == (5, 1) and parse_rate("100 / hour") == (100, 3600)
    assert parse_rate(None) is None and parse_rate("0") is None


def test_health_and_readiness(make_app):
    client = make_app().test_client()
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json["status"] == "ok" and health.json["worker"] == os.getpid()
    assert client.get("/readyz").json == {"status": "ready", "store": "sqlite"}
    version = client.get("/api/v1/version").json
    assert (version["api"], version["formats"], version["store"]) == ("v1", ["docx", "odt"], "sqlite")


def test_readiness_fails_when_the_store_is_down_but_the_worker_lives(make_app):
    client = make_app(STORE=f"redis://127.0.0.1:{free_port()}/0").test_client()
    ready = client.get("/readyz")
    assert ready.status_code == 503 and ready.json["error"]["code"] == "store_unavailable"
    assert client.get("/healthz").status_code == 200


def test_http_errors_are_json(make_app):
    client = make_app().test_client()
    missing = client.get("/api/v1/nothing-here")
    assert missing.status_code == 404 and missing.is_json and missing.json["error"]["code"] == "not_found"
    wrong = client.put("/api/v1/documents")
    assert wrong.status_code == 405 and wrong.json["error"]["code"] == "method_not_allowed"
    assert "POST" in wrong.headers["Allow"]
    assert missing.headers["X-Content-Type-Options"] == "nosniff"
    assert len(missing.headers["X-Request-Id"]) == 16
    echoed = client.get("/healthz", headers={"X-Request-Id": "pane-42"})
    assert echoed.headers["X-Request-Id"] == "pane-42"


def test_task_pane_manifest_and_static_files_are_served_when_present(make_app, tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "taskpane.html").write_text("<!doctype html><title>LEDGER</title>")
    (static / "taskpane.js").write_text("Office.onReady(() => {});")
    manifest = tmp_path / "manifest.xml"
    manifest.write_text('<?xml version="1.0"?><OfficeApp/>')
    client = make_app(STATIC_DIR=str(static), MANIFEST_PATH=str(manifest)).test_client()
    root = client.get("/")
    assert root.status_code == 302 and root.headers["Location"].endswith("/taskpane/")
    page = client.get("/taskpane/")
    assert page.status_code == 200 and b"<title>LEDGER</title>" in page.data and page.mimetype == "text/html"
    script = client.get("/static/taskpane.js")
    assert script.status_code == 200 and script.data == b"Office.onReady(() => {});"
    served = client.get("/manifest.xml")
    assert served.status_code == 200 and served.mimetype == "application/xml" and served.data.endswith(b"<OfficeApp/>")
    for r in (page, script, served):
        r.close()


def test_task_pane_and_manifest_are_clear_404s_when_absent(make_app, tmp_path):
    client = make_app(STATIC_DIR=str(tmp_path / "none"), MANIFEST_PATH=str(tmp_path / "none.xml")).test_client()
    for path, what in (("/taskpane/", "task pane"), ("/manifest.xml", "manifest")):
        r = client.get(path)
        assert r.status_code == 404 and what in r.json["error"]["message"]


def test_the_app_imports_the_engines_before_any_request_thread_does(tmp_path):
    """Two request threads that import a package lazily at once may see it half initialised
    (an ImportError, a 500): a serving process imports the engines when it starts."""
    import subprocess
    import sys

    from addin_backend.service import ENGINE_MODULES
    from tests.servers import ROOT

    code = ("import sys; from addin_backend.api import create_app; "
            f"app = create_app({{'DATA_DIR': {str(tmp_path)!r}}}); "
            f"missing = [m for m in {list(ENGINE_MODULES)!r} if 'addin_backend.' + m not in sys.modules]; "
            "app.extensions['ledger.jobs'].shutdown(); print(missing)")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={k: v for k, v in __import__("os").environ.items() if not k.startswith("LEDGER_")})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip().splitlines()[-1] == "[]"


def test_short_api_keys_are_refused_at_start_up_without_echoing_them(tmp_path):
    import subprocess
    import sys

    import pytest

    from tests.servers import ROOT

    with pytest.raises(ValueError) as refused:
        load_config(environ={"LEDGER_API_KEYS": "long-enough-key-0123456789,short-k1"})
    message = str(refused.value)
    assert "key 2 of 2 has 8 characters; a key needs at least 16" in message and "short-k1" not in message
    assert load_config(environ={"LEDGER_API_KEYS": "x" * 16})["API_KEYS"] == ["x" * 16]
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("LEDGER_")}
    run = subprocess.run([sys.executable, "-m", "addin_backend.cli", "serve", "--port", str(free_port())],
                         cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env={**env, "LEDGER_API_KEYS": "k1", "LEDGER_DATA_DIR": str(tmp_path)})
    assert run.returncode == 2 and "ledger serve: LEDGER_API_KEYS: key 1 of 1 has 2 characters" in run.stderr
