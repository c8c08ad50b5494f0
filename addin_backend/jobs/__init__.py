"""Background jobs: the graph and proposal jobs a request starts and any process can answer for.

Under the service in the flow (the service starts jobs; the doors poll them through it): a job's
record lives in the store, so nothing here knows a route or a command.

- :mod:`.runner` — :class:`~.runner.JobRunner`: jobs on a per-process thread pool (the
  embedded mode), their stages, progress, heartbeats and recovery;
- :mod:`.processes` — :class:`~.processes.ProcessRunner`: the same lanes, each task run in a
  job process the web worker supervises (the default of ``ledger serve`` without Redis);
- :mod:`.queue` — the same jobs on RQ queues in the Redis store (:class:`~.queue.QueueRunner`),
  run by ``ledger worker`` processes (:mod:`addin_backend.serving.queue_worker`);
- :mod:`.modes` — which of them a deployment uses (``LEDGER_JOBS``, :func:`~.modes.make_runner`).
"""
