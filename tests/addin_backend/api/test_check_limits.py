"""A stored document's check is kept per revision, style sheet and cap (issue 16: it was
recomputed on every request), and answers at most LEDGER_MAX_FINDINGS findings, saying so."""
from __future__ import annotations

from adapters.model import Document, Unit
from tests.addin_backend.api.conftest import seed

SHEET = '[terms]\n"web site" = "website"\n'


def _doc() -> Document:
    # undefined abbreviations and a term the sheet renames: several findings of known kinds
    texts = ["The QXR and the ZTV meet the web site.", "Each QXR has a ZTV.", "See Figure 9 and Table 7.",
             "The web site lists the BPQ.", "A BPQ is sent to the QXR."]
    return Document("docx", units=[Unit(f"p-{i}", "paragraph", t, i) for i, t in enumerate(texts)])


def _counting(monkeypatch):
    import addin_backend.checks.document as checks

    calls = []
    real = checks.check_document

    def counted(*args, **kwargs):
        calls.append(kwargs.get("style"))
        return real(*args, **kwargs)

    monkeypatch.setattr(checks, "check_document", counted)
    return calls


def test_a_check_is_computed_once_per_revision_style_and_cap(make_app, monkeypatch):
    app = make_app()
    client = app.test_client()
    doc_id = seed(app, doc=_doc())
    calls = _counting(monkeypatch)
    first = client.get(f"/api/v1/documents/{doc_id}/check").json
    again = client.get(f"/api/v1/documents/{doc_id}/check").json
    assert first == again and first["findings"] and len(calls) == 1
    assert client.put("/api/v1/styles/house", data=SHEET, content_type="application/toml").status_code == 201
    styled = client.get(f"/api/v1/documents/{doc_id}/check?style=house").json
    assert len(calls) == 2 and any(f["kind"] == "style_term" for f in styled["findings"])
    assert client.get(f"/api/v1/documents/{doc_id}/check?style=house").json == styled and len(calls) == 2
    # a changed sheet under the same name is another check
    client.put("/api/v1/styles/house", data=SHEET + '"e-mail" = "email"\n', content_type="application/toml")
    client.get(f"/api/v1/documents/{doc_id}/check?style=house")
    assert len(calls) == 3
    # kept with the document: deleting it deletes the check too
    store = app.extensions["ledger.store"]
    assert [n for n in store.names(doc_id) if n.startswith("check:")]
    assert client.delete(f"/api/v1/documents/{doc_id}").status_code == 204
    assert client.get(f"/api/v1/documents/{doc_id}/check").status_code == 404


def test_findings_over_the_cap_are_the_most_severe_with_a_note(make_app):
    full = make_app().test_client()
    capped_app = make_app(MAX_FINDINGS=2)
    doc_full = seed(full.application, doc=_doc())
    every = full.get(f"/api/v1/documents/{doc_full}/check").json
    assert len(every["findings"]) > 2 and "truncated" not in every
    capped = capped_app.test_client().get(f"/api/v1/documents/{seed(capped_app, doc=_doc())}/check").json
    assert capped["findings"] == every["findings"][:2]
    assert capped["truncated"]["total"] == len(every["findings"]) and capped["truncated"]["limit"] == 2
    assert "LEDGER_MAX_FINDINGS" in capped["truncated"]["message"]
