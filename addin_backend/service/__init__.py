"""The orchestration layer: what ``ledger``, the HTTP API and ``ledger mcp`` do, once.

The command line (``cli.py``) and the Flask views (``api/``) parse their input, call a function
here and present its answer; none of them builds a graph, finds a target or writes an edit on
its own, so the same inputs give the same output whichever door they came through. Functions
take typed parameters (a :class:`~adapters.model.Document`, ids, strings, the store) and
return JSON-able results; nothing here knows Flask or argparse.

Modules, each named for what it holds:

- :mod:`.graphs` — the graph scopes (``"full"``, ``"no_related"``, ``"fast"``): the one place
  that names the stage sets and builds a graph of one; the graph as JSON, GraphML or PNG.
- :mod:`.graph_cache` — what the command line built for a file (its document, its graph), kept
  by the file's content for the next command on it.
- :mod:`.uploads` — taking a document in (an upload, a file ``ledger mcp`` opens): keep it, start
  its graph job.
- :mod:`.graph_job` — the upload's background graph job and the graph it stores; the stored
  graph a request uses (:func:`~.graph_job.document_graph`).
- :mod:`.foreground` — the requests someone waits for, which the background semantic stage
  gives way to.
- :mod:`.context` — the targets of an instruction and the context retrieval packs for it.
- :mod:`.lookup` — a long document a page at a time: find units by label, term or text, read
  units in pages bounded by tokens, the top of the outline.
- :mod:`.impact` — what an edit of a unit or selection touches, on the stored graph.
- :mod:`.edits` — plan, propose (keep; an engine's operations or a client's own), apply (write
  tracked changes) and ``edit`` = propose then apply, on a stored upload or a file.
- :mod:`.revisions` — applied revisions in the store, and accepting/rejecting tracked changes.
- :mod:`.checks` — document-wide findings of a document, an upload or a revision.
- :mod:`.files` — documents on disk: reading one, writing an output file.
- :mod:`.jsonable` — results as strict JSON (no Infinity/NaN).
- :mod:`.audit` — the audit log of applied edits (who, when, which document, the operations).

Importing this package imports none of them (``ledger units`` stays fast).
"""


#: The engines the service reaches lazily, in the order :func:`preload` imports them.
ENGINE_MODULES = ("graph", "retrieval", "verify.impact", "checks.document", "verify.after_edit", "edits.pipeline",
                  "verify.review")


def preload() -> None:
    """Import the engines now, in the calling thread (a serving process, once at start-up).

    Imported lazily by request threads instead, two threads that reach one package at once may
    see it half initialised (an ``ImportError`` that reads like a circular import: a 500); the
    live schemathesis run met it on ``/context`` and ``/impact`` together.
    """
    import importlib

    for name in ENGINE_MODULES:
        importlib.import_module(f"{__name__.rpartition('.')[0]}.{name}")
    from ..retrieval.tokens import count_tokens

    count_tokens("preload")  # the tokenizer's file read now, not by the first preview (0.7 s on 2 cores)

