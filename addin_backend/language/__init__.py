"""The language of the text: which language each unit is in, and the word lists and models that read it.

Below the graph in the flow (read -> units -> graph -> retrieval -> edits -> verification): the
detectors, checks and engines ask it; it imports none of them.

- :mod:`.detect` — the language of each unit (:func:`~.detect.unit_language`, :func:`~.detect.is_english`);
- :mod:`.nlp` — the shared NLP handles: word lists, spaCy, sentence embeddings (lazily);
- :mod:`.wordlists` — the English lemmatizer's word lists, read without spaCy.
"""
