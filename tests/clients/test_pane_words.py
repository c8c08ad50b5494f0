"""The task pane names every finding kind and edge type in words (issue 29: no code word in visible text)."""
from __future__ import annotations

import re

from addin_backend import errors
from addin_backend.findings import FINDING_KINDS
from adapters.vocabulary import EDGE_TYPES

from .helpers import ROOT


def _block(path: str, name: str) -> str:
    text = (ROOT / path).read_text()
    start = text.index(f"export const {name} = {{")
    return text[start:text.index("\n};", start)]


def test_every_finding_kind_has_a_title_in_the_pane():
    titles = dict(re.findall(r"(\w+): \"([^\"]+)\"", _block("static/js/checkfix.js", "KIND_TITLES")))
    missing = sorted(set(FINDING_KINDS) - set(titles))
    assert missing == [], f"add a title to KIND_TITLES in static/js/checkfix.js for: {missing}"
    assert not [t for t in titles.values() if "_" in t]


def test_every_edge_type_has_words_in_the_pane():
    block = _block("static/js/labels.js", "EDGE_WORDS")
    assert sorted(re.findall(r"^\s+(\w+): \{", block, re.M)) == sorted(EDGE_TYPES)


#: Codes no HTTP answer carries: base classes, and the command line's and MCP's own.
NOT_OVER_HTTP = {"ledger_error", "adapter_error", "file_not_readable", "path_not_allowed"}


def test_every_error_the_server_answers_has_a_sentence_in_the_pane():
    codes = {cls.code for cls in vars(errors).values()
             if isinstance(cls, type) and issubclass(cls, Exception) and isinstance(getattr(cls, "code", None), str)}
    assert "ambiguous_instruction" in codes and "deadline_exceeded" in codes  # the scan reads the classes
    messages = set(re.findall(r"^\s+(\w+): \"", _block("static/js/errors.js", "MESSAGES"), re.M))
    missing = sorted(codes - NOT_OVER_HTTP - messages)
    assert missing == [], f"add a sentence to MESSAGES in static/js/errors.js for: {missing}"
