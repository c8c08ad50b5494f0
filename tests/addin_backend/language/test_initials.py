"""The one Schwartz-Hearst scan (``language/initials.py``) and its two readers agree."""
from __future__ import annotations

import pytest

from addin_backend.checks.style.abbreviations import spells
from addin_backend.graph.definition_rules import _sh_long_form
from addin_backend.language.initials import spelled_from

CASES = [
    ("RTT", "the Round-Trip Time", "Round-Trip Time"),
    ("AEAD", "Authenticated Encryption with Associated Data", "Authenticated Encryption with Associated Data"),
    ("QoS", "the Quality of Service", "Quality of Service"),
    ("PDU", "a Protocol Data Unit", "Protocol Data Unit"),
    ("MAC", "the path", None),
    ("TLS", "Secure Sockets", None),
    ("KEM", "Schlüsselkapselungsmechanismus", None),  # one word: the letters inside it do not start words
    ("ÜV", "die Überwachungs Verordnung", "Überwachungs Verordnung"),
]


@pytest.mark.parametrize("short,phrase,long", CASES)
def test_the_definition_rules_and_the_checks_read_the_same_spelling(short, phrase, long):
    assert _sh_long_form(short, phrase) == long
    assert spells(short, phrase) == (long is not None)


def test_the_scan_starts_the_first_letter_at_a_word():
    assert spelled_from("ab", "xab") is None
    assert spelled_from("ab", "x ab") == 2
