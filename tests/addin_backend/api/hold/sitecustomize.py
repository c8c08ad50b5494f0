"""A hold for the heavy-slot test: in a process started with this folder first on ``PYTHONPATH``
and ``LEDGER_TEST_HOLD=FOLDER``, reading an upload (``uploads.read_upload``, which ``ledger serve``
runs in a request child) first writes ``FOLDER/entered-PID`` and then waits until
``FOLDER/release`` exists (two minutes at most): an upload whose request holds its web thread for
as long as the test likes. With ``LEDGER_TEST_HOLD_PATH=/units`` too, a request whose path ends
so waits the same way in the web process (writing ``FOLDER/entered-read-N``): a costly read. Nothing
of LEDGER knows of it: Python imports ``sitecustomize`` at start-up."""
import os
import time


def _hold(folder, entered):  # type: ignore[no-untyped-def]
    """Say so in ``folder/entered``, then wait for ``folder/release`` (two minutes at most)."""
    with open(os.path.join(folder, entered), "w"):
        pass
    for _ in range(2400):
        if os.path.exists(os.path.join(folder, "release")):
            break
        time.sleep(0.05)


if os.environ.get("LEDGER_TEST_HOLD"):
    import addin_backend.service.uploads as _uploads

    _real = _uploads.read_upload
    _folder = os.environ["LEDGER_TEST_HOLD"]

    def read_upload(*args, **kwargs):  # type: ignore[no-untyped-def]
        _hold(_folder, f"entered-{os.getpid()}")
        return _real(*args, **kwargs)

    read_upload.__module__, read_upload.__qualname__ = _uploads.__name__, "read_upload"
    _uploads.read_upload = read_upload

if os.environ.get("LEDGER_TEST_HOLD_PATH"):  # and a read whose path ends so, in the web process
    import flask

    _dispatch = flask.Flask.full_dispatch_request

    def full_dispatch_request(self):  # type: ignore[no-untyped-def]
        if flask.request.path.endswith(os.environ["LEDGER_TEST_HOLD_PATH"]):
            _hold(os.environ["LEDGER_TEST_HOLD"], f"entered-read-{time.monotonic_ns()}")
        return _dispatch(self)

    flask.Flask.full_dispatch_request = full_dispatch_request
