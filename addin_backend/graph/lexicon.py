"""The words and numbers by which a reader cites a unit: now :mod:`adapters.label_grammar`.

The readers compute labels with the same grammar as the graph, so it lives in the adapters;
this module only re-exports it for code written against the old place.
"""
from __future__ import annotations

from adapters.label_grammar import (  # noqa: F401 - re-exported
    FAMILIES,
    NUM,
    PLURAL,
    WORD_ALT,
    WORD_START,
    WORDS,
    canonical_label,
    family_of,
    norm_number,
)

__all__ = ["FAMILIES", "WORDS", "WORD_ALT", "WORD_START", "NUM", "PLURAL", "family_of", "norm_number", "canonical_label"]
