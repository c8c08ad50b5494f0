"""What the capitalisation check reads (issue 32, the pane's Run check at 5,000 units): the
document's definitions only when a capitalised phrase is also written in lower case often
enough to be reported, and the same findings either way."""
from __future__ import annotations

from adapters.model import Document, Unit
from addin_backend.checks.style import StyleSheet, capitals
from addin_backend.checks.style.prose import prose


def _doc(texts: list[str]) -> Document:
    return Document("docx", units=[Unit(f"p-{i}", "paragraph", t, i) for i, t in enumerate(texts)])


def _counting(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = capitals.definition_registry

    def counted(units):
        calls.append(1)
        return real(units)

    monkeypatch.setattr(capitals, "definition_registry", counted)
    return calls


def test_a_phrase_never_written_in_lower_case_reads_no_definitions(monkeypatch):
    calls = _counting(monkeypatch)
    doc = _doc(["Each sender keeps the Retry Token until the handshake ends.",
                "A server sends the Retry Token once.", "The retry token is opaque to the client."])
    assert capitals.capitalisation_findings(prose(doc), StyleSheet()) == [] and calls == []


def test_a_phrase_written_in_lower_case_reads_them_once(monkeypatch):
    calls = _counting(monkeypatch)
    doc = _doc(["Each sender keeps the Retry Token until the handshake ends.",
                "A server sends the retry token once.", "The retry token is opaque to the client.",
                "A client echoes the retry token."])
    (f,) = capitals.capitalisation_findings(prose(doc), StyleSheet())
    assert len(calls) == 1 and f.kind == "phrase_capitalisation" and [p.text for p in f.places] == ["Retry Token"]
