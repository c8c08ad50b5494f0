"""API keys, CORS allow-list, rate limits counted in the store, size limit, logs without document text."""
from __future__ import annotations

import logging

import pytest

from addin_backend.api.security import fingerprint
from tests.addin_backend.api.bad_inputs import MARKER
from tests.addin_backend.api.conftest import seed

KEY = "test-key-1-0123456789"
AUTH = {"Authorization": f"Bearer {KEY}"}


def test_with_keys_every_api_route_needs_one(make_app):
    app = make_app(API_KEYS=[KEY, "other-key-0123456789"], AUTH_FAIL_LIMIT="off")  # 28 wrong keys from one address
    client = app.test_client()
    doc_id = seed(app, key=KEY)
    for method, path in (("get", "/api/v1/version"), ("get", "/api/v1/openapi.json"),
                         ("post", "/api/v1/documents"), ("get", f"/api/v1/documents/{doc_id}"),
                         ("delete", f"/api/v1/documents/{doc_id}"), ("get", f"/api/v1/jobs/{doc_id}-graph"),
                         ("get", "/api/v1/no-such-route")):
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": KEY}, {"Authorization": "Basic " + KEY}):
            r = getattr(client, method)(path, headers=headers)
            assert r.status_code == 401, (method, path, headers)
            assert r.json["error"]["code"] == "unauthorized"
            assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get(f"/api/v1/documents/{doc_id}", headers=AUTH).status_code == 200
    # another key's documents are unknown to it (issue 33: documents belong to their key)
    assert client.get(f"/api/v1/documents/{doc_id}", headers={"Authorization": "Bearer other-key-0123456789"}).status_code == 404
    assert client.get("/healthz").status_code == 200 and client.get("/readyz").status_code == 200


def test_without_keys_the_api_is_open(make_app):
    assert make_app().test_client().get("/api/v1/version").status_code == 200


def test_cors_allows_listed_origins_only_and_never_credentials(make_app):
    client = make_app(API_KEYS=[KEY], CORS_ORIGINS="https://pane.example").test_client()
    preflight = client.options("/api/v1/documents", headers={
        "Origin": "https://pane.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Authorization, Content-Type"})
    assert preflight.status_code == 200  # preflights carry no key
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://pane.example"
    assert "authorization" in preflight.headers["Access-Control-Allow-Headers"].lower()
    assert "Access-Control-Allow-Credentials" not in preflight.headers
    ok = client.get("/api/v1/version", headers={"Origin": "https://pane.example", **AUTH})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://pane.example"
    evil = client.get("/api/v1/version", headers={"Origin": "https://evil.example", **AUTH})
    assert evil.status_code == 200 and "Access-Control-Allow-Origin" not in evil.headers


def test_a_wildcard_origin_comes_without_credentials(make_app):
    client = make_app(CORS_ORIGINS=["*"]).test_client()
    r = client.get("/api/v1/version", headers={"Origin": "https://any.example"})
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in r.headers


def test_without_an_allow_list_no_cors_headers(make_app):
    r = make_app().test_client().get("/api/v1/version", headers={"Origin": "https://pane.example"})
    assert "Access-Control-Allow-Origin" not in r.headers


def test_rate_limit_counts_per_key_in_the_store(make_app, store_url):
    app = make_app(STORE=store_url, API_KEYS=[KEY, "k2-key-0123456789"], RATE_LIMIT="3/minute")
    client = app.test_client()
    answers = [client.get("/api/v1/version", headers=AUTH) for _ in range(4)]
    assert [r.status_code for r in answers] == [200, 200, 200, 429]
    assert [r.headers["X-RateLimit-Remaining"] for r in answers[:3]] == ["2", "1", "0"]
    limited = answers[3]
    assert limited.json["error"]["code"] == "rate_limited"
    # sliding: the 3 of this minute weigh into the next one until a third of it has passed
    assert 0 < int(limited.headers["Retry-After"]) <= 60 + 60 // 3
    assert client.get("/api/v1/version", headers={"Authorization": "Bearer k2-key-0123456789"}).status_code == 200
    assert client.get("/healthz").status_code == 200  # health checks are not limited
    # A second app on the same store is another worker: the count is shared.
    other_worker = make_app(STORE=store_url, API_KEYS=[KEY, "k2-key-0123456789"], RATE_LIMIT="3/minute").test_client()
    assert other_worker.get("/api/v1/version", headers=AUTH).status_code == 429


def test_uploads_over_the_size_limit_are_413_json(make_app):
    client = make_app(MAX_UPLOAD_MB=0.01).test_client()
    big = b"PK\x03\x04" + b"\0" * 20_000
    for r in (client.post("/api/v1/documents", data=big, content_type="application/octet-stream"),
              client.post("/api/v1/documents", data={"file": (__import__("io").BytesIO(big), "big.docx")},
                          content_type="multipart/form-data")):
        assert r.status_code == 413 and r.json["error"]["code"] == "too_large"
    assert client.get("/readyz").status_code == 200


def test_keys_are_logged_by_fingerprint_and_bodies_never(make_app, caplog):
    caplog.set_level(logging.DEBUG)
    app = make_app(API_KEYS=[KEY])
    client = app.test_client()
    doc_id = seed(app, data=MARKER.encode(), doc=None)
    client.post("/api/v1/documents?filename=x.docx", data=f"text {MARKER}".encode(), headers=AUTH,
                content_type="application/octet-stream")
    client.get(f"/api/v1/documents/{doc_id}/text", headers=AUTH)
    client.get(f"/api/v1/documents/{doc_id}/file", headers=AUTH).close()
    assert fingerprint(KEY) in caplog.text
    assert KEY not in caplog.text.replace(fingerprint(KEY), "")
    assert MARKER not in caplog.text and "24 months" not in caplog.text
    assert "POST /api/v1/documents 415" in caplog.text


@pytest.mark.parametrize("bad", ["abc", "-1"])
def test_bad_query_parameters_are_400(make_app, bad):
    app = make_app()
    doc_id = seed(app)
    r = app.test_client().get(f"/api/v1/documents/{doc_id}/units?limit={bad}")
    assert r.status_code == 400 and r.json["error"]["code"] == "invalid_request"
