"""The check routes with house style: ``?style=``, ``POST .../check/fix`` (a proposal to preview,
then ``/apply``; or applied at once) and the style sheets teams upload."""
from __future__ import annotations

import pytest

from .editing import app, client, upload  # noqa: F401 - module fixtures

# (the article's "hitch-hiking" stands only in quotations, which no rule rewrites)
SHEET = '[terms]\n"multi-media" = "multimedia"\n[spelling]\nvariety = "en-GB"\n'


@pytest.fixture(scope="module")
def article(client, corpus_module):  # noqa: F811
    return upload(client, corpus_module("collection.odt"))


@pytest.fixture(scope="module")
def corpus_module():
    from tests.conftest import corpus_file

    return corpus_file


def test_style_sheets_upload_and_errors(client):  # noqa: F811
    r = client.put("/api/v1/styles/house", data=SHEET, content_type="application/toml")
    assert r.status_code == 201 and r.json["sheet"]["spelling"]["variety"] == "en-GB"
    assert client.get("/api/v1/styles/house").json["toml"] == SHEET
    bad = client.put("/api/v1/styles/house", data='[spelling]\nvarietty = "en-GB"\n', content_type="text/plain")
    assert bad.status_code == 400 and bad.json["error"]["code"] == "invalid_style"
    assert bad.json["error"]["message"].startswith("house.toml, line 2: unknown key 'varietty'")
    assert client.get("/api/v1/styles/house").json["toml"] == SHEET  # the good sheet stays
    nobody = client.get("/api/v1/styles/nobody")
    assert nobody.status_code == 404 and nobody.json["error"]["code"] == "unknown_style"
    assert client.put("/api/v1/styles/bad name", data=SHEET).status_code in (400, 404)


def test_the_check_names_a_style_sheet_or_none(client, article):  # noqa: F811
    doc = article["id"]
    unknown = client.get(f"/api/v1/documents/{doc}/check?style=nobody")
    assert unknown.status_code == 404 and unknown.json["error"]["code"] == "unknown_style"
    empty = client.get(f"/api/v1/documents/{doc}/check?style=")  # a name given empty is no name
    assert empty.status_code == 400 and empty.json["error"]["code"] == "invalid_request"
    fix = client.post(f"/api/v1/documents/{doc}/check/fix", json={"kinds": ["all"], "style": "nobody"})
    assert fix.status_code == 404 and fix.json["error"]["code"] == "unknown_style"


def test_check_with_a_style_then_fix_preview_and_apply(client, article):  # noqa: F811
    doc = article["id"]
    client.put("/api/v1/styles/house", data=SHEET, content_type="application/toml")
    plain = client.get(f"/api/v1/documents/{doc}/check").json
    styled = client.get(f"/api/v1/documents/{doc}/check?style=house").json
    assert styled["style"] == "house.toml"
    rules = {f.get("rule") for f in styled["findings"] if f["kind"] == "style_term"}
    assert rules == {"house.toml terms.multi-media"}
    assert all("id" in f for f in plain["findings"])
    fixable = [f for f in plain["findings"] if f.get("fixable")]
    assert fixable
    one = fixable[0]
    r = client.post(f"/api/v1/documents/{doc}/check/fix", json={"findings": [one["id"]], "author": "Desk"})
    assert r.status_code == 201, r.json
    proposal = r.json
    assert proposal["engine"] == "check" and [f["id"] for f in proposal["fixes"]] == [one["id"]]
    assert proposal["operations"] and all(op["reason"].startswith(f"check {one['kind']}") for op in proposal["operations"])
    applied = client.post(f"/api/v1/documents/{doc}/apply", json={"proposal_id": proposal["id"], "author": "Desk"})
    assert applied.status_code == 201, applied.json
    assert not [f for f in applied.json["findings"] if f["kind"] == "write_mismatch"]
    after = client.get(f"/api/v1/documents/{doc}/check?revision={applied.json['revision']}").json
    assert one["id"] not in {f["id"] for f in after["findings"]}
    bulk = client.post(f"/api/v1/documents/{doc}/check/fix", json={"kinds": ["variant_spelling"], "apply": True,
                                                                     "author": "Desk"})
    assert bulk.status_code == 201 and bulk.json["revision"] == applied.json["revision"] + 1
    assert bulk.json["download"].endswith(f"/revisions/{bulk.json['revision']}/file")


def test_fix_errors(client, article):  # noqa: F811
    doc = article["id"]
    assert client.post(f"/api/v1/documents/{doc}/check/fix", json={}).status_code == 400
    r = client.post(f"/api/v1/documents/{doc}/check/fix", json={"findings": ["f-0000000000"]})
    assert r.status_code == 400 and "no finding 'f-0000000000'" in r.json["error"]["message"]
    assert client.post(f"/api/v1/documents/{doc}/check/fix", json={"kinds": ["no_such_kind"]}).status_code == 400
    assert client.post(f"/api/v1/documents/{doc}/check/fix", json={"kinds": ["all"], "colour": 1}).status_code == 400


def test_the_servers_default_style_sheet(client, article, tmp_path, monkeypatch):  # noqa: F811
    sheet = tmp_path / "server.toml"
    sheet.write_text('[terms]\n"multi-media" = "multimedia"\n')
    monkeypatch.setenv("LEDGER_STYLE", str(sheet))
    got = client.get(f"/api/v1/documents/{article['id']}/check").json
    assert got["style"] == "server.toml"
    assert {f["rule"] for f in got["findings"] if f["kind"] == "style_term"} == {"server.toml terms.multi-media"}
    sheet.write_text("[terms\n")
    bad = client.get(f"/api/v1/documents/{article['id']}/check")
    assert bad.status_code == 400 and bad.json["error"]["message"].startswith("server.toml, line 1: malformed TOML")
