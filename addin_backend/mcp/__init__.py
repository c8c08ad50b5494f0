"""The MCP door: LEDGER's tools for agents (Claude Desktop, VS Code, any MCP client).

- :mod:`.server` — the tools, resources and prompt, each calling :mod:`addin_backend.service`
  (the functions the command line and the REST API call); errors carry the REST codes.
- :mod:`.workspace` — what one server works on: the store, the job runner, its roots.
- :mod:`.roots` — which paths a file-serving door may use (``--root`` and the client's roots).
- :mod:`.schemas` — the tools' schemas, built from the REST API's.
- :mod:`.stdio` — ``ledger mcp``: the server over stdio.
- :mod:`.http` — ``/mcp`` on ``ledger serve``: the server over streamable HTTP, as a Flask view
  behind the API's keys, rate limits and CORS.

Importing this package imports none of them (the Flask app imports :mod:`.http`, which loads
the SDK only on the first request).
"""
