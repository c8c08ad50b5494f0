"""The processes that serve LEDGER in production: doors, on top of the flow with ``cli`` and ``api``.

- :mod:`.server` — ``ledger serve``: gunicorn around the app factory;
- :mod:`.http_worker` — its gunicorn worker class, where no thread waits for a client;
- :mod:`.http_events` — the worker's hub for the open ``/jobs/{id}/events`` streams;
- :mod:`.queue_worker` — ``ledger worker``: runs the queued jobs of :mod:`addin_backend.jobs.queue`.
"""
