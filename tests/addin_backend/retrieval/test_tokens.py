"""Token counts with the offline cl100k encoding."""
from __future__ import annotations

from addin_backend.retrieval.tokens import count_tokens


def test_counts_are_cl100k_tokens():
    assert count_tokens("hello world") == 2
    assert count_tokens("") == 0
    assert count_tokens("<|endoftext|>") > 1  # special tokens are plain text here
