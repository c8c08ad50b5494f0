"""A poison for the job tests: in a process started with this folder first on ``PYTHONPATH`` and
``LEDGER_TEST_POISON=NAME``, the graph task kills its own process (``kill -9``) when it builds the
graph of a document uploaded as ``NAME``, as a job whose input crashes its worker would; with
``LEDGER_TEST_SLOW=NAME`` it reports progress for up to a minute before it builds that graph
(a long job, to delete its document under it); with ``LEDGER_TEST_GATE=DIR`` the graph of a
document uploaded as ``held-…`` reports progress until the file ``DIR/<its name>`` exists (a long
job that the test ends when it wants, for up to two minutes). Nothing of LEDGER knows of it: Python imports
``sitecustomize`` at start-up, before ``ledger worker`` or a job process runs."""
import os

if os.environ.get("LEDGER_TEST_POISON") or os.environ.get("LEDGER_TEST_SLOW") or os.environ.get("LEDGER_TEST_GATE"):
    import signal
    import time

    import addin_backend.service.graph_job as _gj

    _real = _gj.run_graph_job

    def run_graph_job(store, runner, progress, *, doc_id, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(0.5)
        meta = store.get_json(doc_id, "meta") or {}
        if meta.get("filename") == os.environ.get("LEDGER_TEST_POISON"):
            os.kill(os.getpid(), signal.SIGKILL)
        if meta.get("filename") == os.environ.get("LEDGER_TEST_SLOW"):
            for i in range(600):
                progress("contains", 0.1 + i / 6000)  # where a deleted document stops the job
                time.sleep(0.1)
        gate, name = os.environ.get("LEDGER_TEST_GATE"), str(meta.get("filename") or "")
        if gate and name.startswith("held-"):
            for i in range(1200):
                if os.path.exists(os.path.join(gate, name)):
                    break
                progress("contains", 0.1 + i / 12000)
                time.sleep(0.1)
        return _real(store, runner, progress, doc_id=doc_id, **kwargs)

    run_graph_job.__module__, run_graph_job.__qualname__ = _gj.__name__, "run_graph_job"
    _gj.run_graph_job = run_graph_job
