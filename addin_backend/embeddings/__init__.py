"""Sentence embeddings: the MiniLM encoders and the cache of their vectors.

Below the graph in the flow: :mod:`addin_backend.language.nlp` hands them out (RELATED edges,
retrieval's similarity, the drift check after an edit); nothing here knows a unit or a graph.

- :mod:`.encoders` — the encoders (torch, ONNX, ONNX int8) and where their files live
  (``python -m addin_backend.embeddings.encoders --export``);
- :mod:`.cache` — the persistent vector cache shared by every process on a machine.
"""
