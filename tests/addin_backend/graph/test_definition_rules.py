"""The definition rules as data (:data:`~addin_backend.graph.definition_rules.RULES`): each rule's
example reads its term by that rule, and every rule the detectors apply is registered."""
from __future__ import annotations

import pytest

from adapters.model import Document, Unit
from addin_backend.graph.definition_rules import RULE_IDS, RULES, Rule, find_coinages, find_definitions, is_statement
from addin_backend.graph.definitions import definition_registry


def _structure_doc(rule: Rule) -> list[Unit]:
    """The units a structural rule's example lines stand for: a term line and its definition; for
    a terminology entry or a section's opening statement, the section's heading first."""
    lines = rule.example.split("\n")
    if rule.id == "list":
        return [Unit("u0", "paragraph", lines[0], 0), Unit("u1", "paragraph", lines[1], 1)]
    assert rule.id in ("entry", "opening")
    return [Unit("s", "section", lines[0], 0, level=1, title=lines[0]), Unit("u0", "paragraph", lines[1], 1, parent="s")]


def _read(rule: Rule) -> list[tuple[str, str]]:
    if rule.reader == "structure":
        reg = definition_registry(_structure_doc(rule))
        return [(d.term, d.how) for entries in reg.values() for _, _, d in entries]
    found = find_coinages(rule.example) if rule.reader == "find_coinages" else find_definitions(rule.example)
    return [(d.term, d.how) for d in found]


@pytest.mark.parametrize("rule", RULES, ids=[r.id for r in RULES])
def test_each_rules_example_reads_its_term_by_that_rule(rule):
    assert (rule.term, rule.id) in _read(rule)
    assert rule.origin and rule.reader


def test_rule_ids_are_unique_and_every_rule_a_document_applies_is_registered():
    assert len(RULE_IDS) == len(RULES)
    units: list[Unit] = []
    for r in RULES:
        if r.reader != "structure":
            units.append(Unit(f"u{len(units)}", "paragraph", r.example, len(units)))
    # code the "obs-fold" rule name needs, and a use of every term after its definition
    units.append(Unit("code", "paragraph", "  field = obs-fold / token", len(units), style="Source Code"))
    doc = Document("docx", units)
    hows = {d.how for entries in definition_registry(doc.units).values() for _, _, d in entries}
    assert hows <= RULE_IDS and len(hows) >= 20


def test_statements_are_the_registered_statement_rules():
    for r in RULES:
        if r.reader == "structure":
            continue
        d = next(d for d in (find_coinages(r.example) if r.reader == "find_coinages" else find_definitions(r.example))
                 if d.how == r.id)
        assert is_statement(d) == (r.statement or (d.quoted and r.id in ("subject", "condition")))


@pytest.mark.parametrize("text, symbols", [
    ("The nonce, N, is formed by hashing the secret.", ["N"]),
    ("The input plaintext, P, for the AEAD is the record.", ["P"]),
    ("Keys rotate. The traffic key, K, MUST be fresh.", ["K"]),  # a sentence after a full stop, a modal
    ("Keys rotate and the traffic key, K, is fresh.", []),  # the phrase opens no sentence
    ("In the example, X, Y and Z are nodes.", []),  # no definite phrase opens the sentence
    ("The tree, T, and the node, N, are equal.", []),  # a conjunction before the verb
])
def test_a_letter_in_apposition_is_read_by_the_rules_token_pattern(text, symbols):
    assert [d.term for d in find_definitions(text) if d.how == "apposition"] == symbols


def test_every_rules_token_pattern_is_a_valid_spacy_pattern():
    from addin_backend.graph.definition_rules import _matcher

    patterned = [r for r in RULES if r.pattern]
    assert patterned and all(len(_matcher(r.id)) == 1 for r in patterned)


@pytest.mark.parametrize("text, names", [
    ("The max_age field holds the lifetime.", ["max_age"]),
    ("Caches vary. The http-date format specifies a date.", ["http-date"]),
    ("See The obs-fold rule is obsolete.", []),  # "The" opens no sentence
    ("The big-endian order matters.", []),  # no noun between the name and the verb
])
def test_a_code_name_subject_is_read_by_the_rules_token_pattern(text, names):
    assert [d.term for d in find_definitions(text) if d.how == "rule"] == names


@pytest.mark.parametrize("text, term", [
    ('This construction is dubbed "lazy sealing".', "lazy sealing"),
    ("The grace period is termed the holding time.", "holding time"),
    ('Such an entity is known as a "broker".', "broker"),
    ('Such a message is referred to as a "beacon".', "beacon"),
])
def test_the_naming_verbs_read_the_name_they_give(text, term):
    """The verbs that give a name ("dubbed", "termed", "known as"), whichever a document uses."""
    assert [(d.term, d.how) for d in find_definitions(text)] == [(term, "named")]
