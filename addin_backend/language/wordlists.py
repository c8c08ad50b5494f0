"""English word lists: the lemmatizer's lists by part of speech (read from the spaCy model
package), and the spelling dictionaries (:func:`dictionary`, Debian's ``wamerican`` and
``wbritish``) that say whether a string is one English word as written ("worldwide").

The lists (WordNet-derived: which words can be nouns, verbs, adjectives, adverbs, with the
inflection rules and exceptions) are all the anaphora detector needs to read a noun phrase, so
it needs no pipeline: the package's ``lookups.bin`` is decoded here directly, without importing
spaCy or srsly (which import numpy): about 0.05 s instead of 0.8 s for the tagger.
"""
from __future__ import annotations

import importlib.util
import os
from functools import lru_cache

__all__ = ["POS_KEYS", "Lexicon", "unpack_msgpack", "lookups_path", "load_lexicon", "DICTIONARY_FILES",
           "dictionary", "dictionary_word"]

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
        from .nlp import get_lexicon

        lex = get_lexicon()
        for words in lex.index.values():
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
