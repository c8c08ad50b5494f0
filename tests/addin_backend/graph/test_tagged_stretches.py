"""The token patterns of the definitions (the ``rule`` and ``apposition`` rules) read a long unit
on tagged stretches around the places they may match, and find what tagging the whole unit
finds (definition_rules._stretches)."""
from __future__ import annotations

import pytest

from addin_backend.graph import definition_rules

#: Sentences the patterns read, and some they must not (see the rules' own tests).
_DEFINING = [
    "The nonce, N, is formed by hashing the secret.",
    "The delta-seconds rule specifies a non-negative integer.",
    "Keys rotate. The traffic key, K, MUST be fresh.",
    "The max_age field holds the lifetime in seconds.",
    "Keys rotate and the traffic key, K, is fresh.",
    "In the example, X, Y and Z are nodes.",
    "The reason-phrase element exists for the sole purpose of providing a description.",
]
_FILLER = ("Each endpoint keeps a table of the streams it opened, and closes the oldest one first "
           "when the peer asks it to (see Section 4.2, Table 3 and the notes below).")


def _unit(sep: str) -> str:
    """A long unit: the sentences among many others, the first at the very start."""
    parts = []
    for i, sentence in enumerate(_DEFINING):
        parts.append(sentence)
        parts += [_FILLER] * (40 + 7 * i)
    return sep.join(parts + ["The session-ticket value is"])  # a match cut by the unit's end


@pytest.mark.models
@pytest.mark.parametrize("sep, expected", [
    *((sep, {("N", "apposition"), ("delta-seconds", "rule"), ("K", "apposition"), ("max_age", "rule"),
             ("reason-phrase", "rule"), ("session-ticket", "rule")}) for sep in (" ", "\n")),
    ("\t|\t", {("N", "apposition"), ("K", "apposition")}),  # no sentence ends before the others' "The"
])
def test_stretches_find_what_the_whole_unit_finds(monkeypatch, sep, expected):
    text = _unit(sep)
    tagged: list[str] = []
    tags = definition_rules._tags

    def spy(t: str):
        tagged.append(t)
        return tags(t)

    monkeypatch.setattr(definition_rules, "_tags", spy)
    found = [(d.term, d.how, d.start, d.end, d.span) for d in definition_rules._tagged_subjects(text)]
    longest = max(map(len, tagged))
    monkeypatch.setattr(definition_rules, "_EXACT_WORDS", len(text))  # one stretch: the whole unit
    tagged.clear()
    whole = [(d.term, d.how, d.start, d.end, d.span) for d in definition_rules._tagged_subjects(text)]
    assert tagged == [text]
    assert found == whole
    assert {(term, how) for term, how, *_ in found} == expected
    assert longest < len(text) // 20  # stretches, not the unit


def test_stretches_merge_and_reach_the_words_a_match_may_span():
    text = " ".join(f"w{i}" for i in range(100))
    a, b = text.index("w50"), text.index("w53")
    [(lo, hi, exact_lo, exact_hi)] = definition_rules._stretches(text, [(a, a + 3, (0, 4)), (b, b + 3, (7, 7))])
    assert text[exact_lo:exact_hi].split() == [f"w{i}" for i in range(46, 61)]  # w53's 7 before, its own and 7 after
    assert text[lo:hi].split()[0] == "w38" and text[lo:hi].split()[-1] == f"w{60 + definition_rules._EXACT_WORDS}"
    far = text.index("w95")
    assert len(definition_rules._stretches(text, [(a, a + 3, (0, 4)), (far, far + 3, (0, 4))])) == 2
