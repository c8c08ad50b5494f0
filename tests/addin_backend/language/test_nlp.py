"""Model loading: once per process, only the needed spaCy components, caches keyed by text."""
from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from addin_backend.language import nlp

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.models
def test_spacy_loads_once_with_only_the_needed_components():
    got = []
    threads = [threading.Thread(target=lambda: got.append(nlp.get_spacy())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(x) for x in got}) == 1
    assert got[0].pipe_names == list(nlp.SPACY_COMPONENTS)
    toks = nlp.tag_texts(["These results show it."])[0]
    assert [(t[0], t[2]) for t in toks] == [("These", "DET"), ("results", "NOUN"), ("show", "VERB"),
                                            ("it", "PRON"), (".", "PUNCT")]
    assert nlp.noun_lemma("analyses") == "analysis" and nlp.noun_lemma("policies") == "policy"


@pytest.mark.models
def test_loading_spacy_does_not_import_torch():
    code = "import sys; from addin_backend.language import nlp; nlp.get_spacy(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.models
def test_embeddings_are_normalised_and_cached():
    vecs = nlp.embed_texts(["graph retrieval for editing", "graph retrieval for editing", "a recipe for soup"])
    assert vecs.shape == (3, 384)
    assert abs(float((vecs[0] ** 2).sum()) - 1.0) < 1e-4
    assert float(vecs[0] @ vecs[1]) == pytest.approx(1.0, abs=1e-5)
    assert float(vecs[0] @ vecs[2]) < 0.5
    before = nlp.EMBEDDINGS.hits
    nlp.embed_texts(["a recipe for soup"])
    assert nlp.EMBEDDINGS.hits == before + 1


def test_text_cache_is_bounded_and_counts_hits():
    cache = nlp.TextCache(maxsize=2)
    assert cache.memo("ns", "a", len) == 1
    assert cache.memo("ns", "a", lambda t: 99) == 1
    cache.memo("ns", "bb", len)
    cache.memo("ns", "ccc", len)
    assert len(cache) == 2 and cache.get("ns", "a") is None
    assert cache.hits == 1


@pytest.mark.models
def test_lexicon_keys_are_spacy_hashes_of_the_part_of_speech_names():
    import srsly
    from spacy.strings import hash_string

    from addin_backend.language import wordlists

    assert {p: hash_string(p) for p in wordlists.POS_KEYS} == wordlists.POS_KEYS
    path = wordlists.lookups_path(nlp.SPACY_MODEL)
    with open(path, "rb") as fh:
        data = fh.read()
    assert wordlists.unpack_msgpack(data) == srsly.msgpack_loads(data)


def test_word_classes_come_from_the_lemmatizer_tables_without_spacy():
    code = ("import sys; from addin_backend.language import nlp; "
            "print(nlp.word_classes('results'), nlp.word_classes('improves'), nlp.noun_lemma('analyses'), "
            "sorted(m for m in ('spacy', 'thinc', 'torch', 'srsly', 'numpy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "{'noun': ('result', True), 'verb': ('result', True)} {'verb': ('improve', True)} analysis []")
