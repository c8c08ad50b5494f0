"""A per-key storage quota (issue 16: stored data is 3.6x the upload, with no quota per key):
what a key's documents hold counts, deleting one gives its room back, another key is not
affected, and a write past the quota is 507 quota_exceeded before anything is stored."""
from __future__ import annotations

from tests.conftest import corpus_file

A = {"Authorization": "Bearer quota-key-a-0123456789"}
B = {"Authorization": "Bearer quota-key-b-0123456789"}
OCTETS = "application/octet-stream"


def _upload(client, headers, data):
    return client.post("/api/v1/documents?filename=z.docx", data=data, headers=headers, content_type=OCTETS)


def test_a_key_keeps_at_most_its_quota(make_app):
    import time

    from addin_backend.api.security import fingerprint
    from addin_backend.service.quota import usage

    data = corpus_file("zen_of_python.docx").read_bytes()
    app = make_app(API_KEYS=[A["Authorization"][7:], B["Authorization"][7:]], RATE_LIMIT="off", GRAPH_SEMANTIC=False)
    client = app.test_client()
    first = _upload(client, A, data)
    assert first.status_code == 201
    deadline = time.monotonic() + 60
    while client.get(first.json["job"]["links"]["self"], headers=A).json["status"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    used = usage(app.extensions["ledger.store"], fingerprint(A["Authorization"][7:]))
    assert used > len(data) * 1.5  # the upload, its model and its graph
    app.config["QUOTA_MB"] = (used + len(data) / 2) / (1 << 20)  # room for less than one more upload
    refused = _upload(client, A, data)
    assert refused.status_code == 507 and refused.json["error"]["code"] == "quota_exceeded"
    assert "LEDGER_QUOTA_MB" in refused.json["error"]["message"]
    assert _upload(client, B, data).status_code == 201  # another key has its own quota
    # an apply is a write too: a revision would not fit either
    doc_id = first.json["id"]
    apply = client.post(f"/api/v1/documents/{doc_id}/apply", headers=A, json={
        "author": "Q", "operations": [{"op": "set_text", "unit": "p-x", "text": "t", "before": "b"}]})
    assert apply.status_code == 507
    # deleting a document gives its room back
    assert client.delete(f"/api/v1/documents/{doc_id}", headers=A).status_code == 204
    assert _upload(client, A, data).status_code == 201


def test_no_quota_when_it_is_off(make_app):
    data = corpus_file("zen_of_python.docx").read_bytes()
    client = make_app(QUOTA_MB=0, RATE_LIMIT="off", GRAPH_SEMANTIC=False).test_client()
    for _ in range(3):
        assert _upload(client, {}, data).status_code == 201
