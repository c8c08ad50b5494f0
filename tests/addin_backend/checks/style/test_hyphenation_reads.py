"""What the hyphenation check reads (issue 32, the pane's Run check at 5,000 units): the
document's definitions only when a term's forms are ranked, and the same findings either way."""
from __future__ import annotations

from adapters.model import Document, Unit
from addin_backend.checks.style import hyphenation


def _doc(texts: list[str]) -> Document:
    return Document("docx", units=[Unit(f"p-{i}", "paragraph", t, i) for i, t in enumerate(texts)])


def _counting(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = hyphenation._defined_forms

    def counted(doc: Document) -> set[str]:
        calls.append(1)
        return real(doc)

    monkeypatch.setattr(hyphenation, "_defined_forms", counted)
    return calls


def test_no_variant_reads_no_definitions(monkeypatch):
    calls = _counting(monkeypatch)
    # "round-trip" and "round trip" are two forms of one term, but a compound before a noun and
    # one after it are both right: nothing to rank, so the definitions are not read
    doc = _doc(['A "relay node" means a node that forwards each datagram.',
                "The round-trip time is measured by each relay node.", "A round trip is one exchange."])
    assert {o.form for o in _occurrences(doc, monkeypatch)} == {"round-trip", "round trip"}
    assert hyphenation.variant_findings(doc) == [] and calls == []


def _occurrences(doc: Document, monkeypatch) -> list[hyphenation._Occ]:
    """The forms of "roundtrip" the check compares (its key's occurrences)."""
    seen: list[hyphenation._Occ] = []
    real = hyphenation._side_by_side

    def spy(occs: list[hyphenation._Occ]) -> bool:
        seen.extend(occs)
        return real(occs)

    with monkeypatch.context() as m:
        m.setattr(hyphenation, "_side_by_side", spy)
        hyphenation.variant_findings(doc)
    return seen


def test_a_variant_reads_them_once_and_the_defined_form_wins(monkeypatch):
    calls = _counting(monkeypatch)
    doc = _doc(['A "data-set" means a collection of records kept together.',
                "Each data-set has a name.", "The dataset is sent once.", "A dataset may be empty.",
                "The dataset is signed."])
    found = hyphenation.variant_findings(doc)
    assert len(calls) == 1
    (f,) = [f for f in found if f.kind == "variant_spelling"]
    assert f.suggestion == "data-set" and "(the defined term)" in f.message
    assert {p.text for p in f.places} == {"dataset"}
