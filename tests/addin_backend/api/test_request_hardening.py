"""Requests from an attacker (issue 16), each the reproduction of a defect: JSON that no store can
encode or that nests 5,000 deep, control characters in edit text, uploads a cross-origin page
could send without a preflight, a forged log line, guessed keys, and edits that change nothing."""
from __future__ import annotations

import io
import logging

import pytest

from tests.addin_backend.api.editing import module_app, upload
from tests.conftest import corpus_file

J = "application/json"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    app = module_app(tmp_path_factory.mktemp("hardening"))
    client = app.test_client()
    doc = upload(client, corpus_file("lorem.odt"))
    yield app, client, doc["id"]
    app.extensions["ledger.jobs"].shutdown()
    app.extensions["ledger.store"].close()


def _error(r, status: int, code: str) -> str:
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.json["error"]["code"] == code
    return r.json["error"]["message"]


def _first_paragraph(client, doc_id: str) -> dict:
    units = client.get(f"/api/v1/documents/{doc_id}/units?kind=paragraph").json["units"]
    return next(u for u in units if len(u.get("text", "")) > 10)


# --- JSON bodies ---------------------------------------------------------------------------


@pytest.mark.parametrize("route", ["proposals", "context", "apply"])
def test_a_lone_surrogate_in_any_json_field_is_400_not_500(served, route):
    _app, client, doc_id = served
    body = '{"instruction": "Rename \\"Lorem\\" to \\"\\ud800\\"", "author": "A", "operations": [{"op": "rename"}]}'
    r = client.post(f"/api/v1/documents/{doc_id}/{route}", data=body, content_type=J)
    assert "surrogate" in _error(r, 400, "invalid_request")


def test_a_lone_surrogate_in_a_key_is_400(served):
    _app, client, doc_id = served
    r = client.post(f"/api/v1/documents/{doc_id}/proposals", data='{"\\udfff": 1, "instruction": "x"}', content_type=J)
    _error(r, 400, "invalid_request")


def test_json_nested_5000_deep_is_400_not_500(served):
    _app, client, doc_id = served
    deep = '{"instruction": ' + "[" * 5000 + "]" * 5000 + "}"
    assert len(deep) < 11_000
    for route in ("proposals", "apply", "impact", "context"):
        r = client.post(f"/api/v1/documents/{doc_id}/{route}", data=deep, content_type=J)
        assert "deeper" in _error(r, 400, "invalid_request")


def test_a_body_that_is_not_utf8_or_not_json_is_400(served):
    _app, client, doc_id = served
    _error(client.post(f"/api/v1/documents/{doc_id}/proposals", data=b'{"instruction": "\xff"}', content_type=J),
           400, "invalid_request")
    _error(client.post(f"/api/v1/documents/{doc_id}/proposals", data=b'{"instruction": ', content_type=J),
           400, "invalid_request")


@pytest.mark.parametrize("field", ["text", "author"])
def test_control_characters_in_edit_text_are_400_naming_the_field(served, field):
    """They were 422 ``adapter_error`` (the writer's ValueError), a code the error table lacks."""
    _app, client, doc_id = served
    unit = _first_paragraph(client, doc_id)
    op = {"op": "replace", "unit": unit["id"], "start": 0, "end": 5, "text": "Lorem"}
    body = {"author": "Ada", "operations": [op]}
    (op if field == "text" else body)[field] = "Lo\x01rem" if field == "text" else "A\x1bda"
    message = _error(client.post(f"/api/v1/documents/{doc_id}/apply", json=body), 400, "invalid_request")
    assert "control character" in message and field in message


def test_tabs_and_newlines_stay_allowed_in_an_instruction(served):
    _app, client, doc_id = served
    r = client.post(f"/api/v1/documents/{doc_id}/proposals",
                    json={"instruction": "Rename \"dolor\"\tto \"pain\"\n"})
    assert r.status_code in (201, 202, 422), r.json


# --- uploads -------------------------------------------------------------------------------


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_an_upload_needs_a_document_media_type(served, content_type):
    """A cross-origin page may send these without a preflight: a keyless server took its uploads."""
    _app, client, _doc = served
    data = corpus_file("lorem.odt").read_bytes()
    r = client.post("/api/v1/documents", data=data, content_type=content_type)
    assert "Content-Type" in _error(r, 415, "unsupported_media_type")


def test_a_multipart_upload_from_another_sites_page_is_refused(served):
    _app, client, _doc = served
    data = corpus_file("lorem.odt").read_bytes()

    def post(**headers):
        return client.post("/api/v1/documents", data={"file": (io.BytesIO(data), "lorem.odt")},
                           content_type="multipart/form-data", headers=headers)

    _error(post(Origin="https://attacker.example"), 403, "forbidden_origin")
    assert post(Origin="http://localhost").status_code == 201  # the server's own page
    assert post().status_code == 201  # no browser


# --- logs and keys -------------------------------------------------------------------------


def test_a_newline_in_an_unknown_path_cannot_forge_a_log_line(served, caplog):
    _app, client, _doc = served
    caplog.set_level(logging.INFO, logger="ledger.http")
    client.get("/api/v1/x%0A2026-01-01 00:00:00 INFO ledger.http GET /admin 200")
    lines = [r.getMessage() for r in caplog.records if r.name == "ledger.http"]
    assert lines and all("\n" not in line and "\r" not in line for line in lines)
    assert any("\\n2026-01-01" in line for line in lines)


def test_wrong_keys_are_rate_limited_per_key_presented_and_address(make_app):
    key = "a-sufficiently-long-test-key"
    client = make_app(API_KEYS=[key], AUTH_FAIL_LIMIT="5/minute").test_client()
    for _ in range(5):
        assert client.get("/api/v1/version", headers={"Authorization": "Bearer guess"}).status_code == 401
    r = client.get("/api/v1/version", headers={"Authorization": "Bearer guess"})
    _error(r, 429, "rate_limited")
    assert int(r.headers["Retry-After"]) > 0
    # the bad key is limited, not the address: the right key from it still works (issue 24.8)
    assert client.get("/api/v1/version", headers={"Authorization": f"Bearer {key}"}).status_code == 200
    # the same bad key from another address has its own count
    other = client.get("/api/v1/version", headers={"Authorization": "Bearer guess"},
                       environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert other.status_code == 401


def test_x_forwarded_for_counts_only_behind_a_trusted_proxy(make_app):
    """LEDGER_TRUST_PROXY=1: the address the proxy saw names the client; 0: the header is the
    client's own text and is ignored (it cannot dodge a limit by writing another address)."""
    key = "a-sufficiently-long-test-key"
    bad = {"Authorization": "Bearer guess"}
    for trust, limited_after_switch in ((0, True), (1, False)):
        client = make_app(API_KEYS=[key], AUTH_FAIL_LIMIT="3/minute", TRUST_PROXY=trust).test_client()
        for _ in range(3):
            client.get("/api/v1/version", headers={**bad, "X-Forwarded-For": "203.0.113.7"})
        again = client.get("/api/v1/version", headers={**bad, "X-Forwarded-For": "203.0.113.8"})
        assert (again.status_code == 429) is limited_after_switch, (trust, again.status_code)


# --- edits that change nothing, renames and case -------------------------------------------


def test_a_rename_with_no_match_creates_no_revision(served):
    _app, client, doc_id = served
    r = client.post(f"/api/v1/documents/{doc_id}/apply",
                    json={"author": "Ada", "operations": [{"op": "rename", "old": "zzqqxx", "text": "yy"}]})
    assert "does not occur" in _error(r, 400, "invalid_request")
    _error(client.get(f"/api/v1/documents/{doc_id}/revisions/1/file"), 404, "unknown_revision")


def test_a_replace_by_the_same_text_creates_no_revision(served):
    _app, client, doc_id = served
    unit = _first_paragraph(client, doc_id)
    op = {"op": "replace", "unit": unit["id"], "start": 0, "end": 5, "text": unit["text"][:5]}
    r = client.post(f"/api/v1/documents/{doc_id}/apply", json={"author": "Ada", "operations": [op]})
    assert "same text" in _error(r, 400, "invalid_request")


def test_a_rename_to_a_term_with_inner_capitals_follows_lower_case_occurrences(served):
    """'Lorem' -> 'ZZLoremZZ' wrote 'ZZLoremZZ' also where the text says 'lorem'."""
    _app, client, doc_id = served
    r = client.post(f"/api/v1/documents/{doc_id}/proposals",
                    json={"instruction": 'Rename "Lorem" to "ZZLoremZZ" everywhere'})
    assert r.status_code == 201, r.json
    pairs = {(op["old"], op["text"]) for op in r.json["operations"] if op["op"] == "replace"}
    assert ("Lorem", "ZZLoremZZ") in pairs and ("lorem", "zzloremzz") in pairs
    assert ("lorem", "ZZLoremZZ") not in pairs


# --- caps ----------------------------------------------------------------------------------


def test_an_upload_over_the_unit_or_text_cap_is_413_too_large_naming_the_setting(make_app):
    data = corpus_file("lorem.odt").read_bytes()
    for settings, name in (({"MAX_UNITS": 2}, "LEDGER_MAX_UNITS"), ({"MAX_TEXT_CHARS": 100}, "LEDGER_MAX_TEXT_CHARS")):
        client = make_app(**settings).test_client()
        r = client.post("/api/v1/documents", data=data, content_type="application/vnd.oasis.opendocument.text")
        assert name in _error(r, 413, "too_large")
