"""The LEDGER backend: graph, retrieval, edits, verification, store, HTTP API and CLI.

Nothing here parses XML: documents arrive through ``adapters`` as the neutral model.
"""

__version__ = "0.1.0"
