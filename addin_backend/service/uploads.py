"""Taking a document in: keep it in the store and start its graph job, whichever door it came
through (``POST /documents``, and ``open_document`` of ``ledger mcp``: a file under a root, or
an upload over HTTP).

The bytes are kept exactly as they came (writers patch them later); the graph job
(:mod:`.graph_job`) builds the fast scope first, then the rest.
"""
from __future__ import annotations

from typing import Any

from adapters.model import Document
from adapters.package import DEFAULT_LIMITS, Limits

from ..store import documents
from ..jobs.runner import JobRunner
from ..store import Store
from . import graph_job, quota

__all__ = ["take_in", "take_in_upload", "read_upload", "prepare_reading", "read_file"]


def read_upload(data: bytes, limits: Limits = DEFAULT_LIMITS) -> documents.Reading:
    """Read an upload for keeping: the model, its stored bytes and its counts. The door runs this
    through its job runner's :meth:`~..jobs.runner.JobRunner.call`: in a child process under
    ``ledger serve`` (unzipping, parsing and dumping held the web worker's interpreter lock for
    up to 0.2 s at a time, delaying every other request), on the request's thread elsewhere.

    :raise adapters.errors.AdapterError: the bytes are not a readable .docx/.odt.
    """
    from adapters import read

    return _reading(read(data, path=None, limits=limits))


def prepare_reading() -> None:
    """Import the readers once, when a request child starts (outside every request's budget),
    not in the first upload's."""
    import adapters  # noqa: F401
    import adapters.docx.reader  # noqa: F401
    import adapters.odt.reader  # noqa: F401


def _reading(doc: Document) -> documents.Reading:
    return documents.Reading(doc.format, len(doc.units), len(doc.warnings), graph_job.estimated_tokens(doc),
                             documents.model_bytes(doc), doc)


def take_in_upload(store: Store, runner: JobRunner, data: bytes, *, filename: str | None = None,
                   limits: Limits = DEFAULT_LIMITS, semantic: bool = True, owner: str | None = None,
                   account: quota.Account | None = None) -> tuple[dict[str, Any], Document | None, dict[str, Any]]:
    """:func:`take_in` for the doors that take bytes from a client (``POST /documents``, and
    ``open_document`` over HTTP): the upload is read by :func:`read_upload` where ``runner`` runs a
    request's work; returns ``(meta, doc, job)``, ``doc`` ``None`` when a child process read it (the
    model stays there: a door that needs it loads the stored one).

    :raise adapters.errors.AdapterError: the bytes are not a readable .docx/.odt.
    :raise QuotaExceededError: the upload and its model would pass the quota; nothing is kept.
    :raise DeadlineExceededError: the request's deadline passed while it was read.
    """
    got: documents.Reading = runner.call(read_upload, data=data, limits=limits)
    meta, job = _keep(store, runner, data, got, filename=filename, semantic=semantic, owner=owner, account=account)
    return meta, got.doc, job


def _keep(store: Store, runner: JobRunner, data: bytes, got: documents.Reading, *, filename: str | None,
          semantic: bool, owner: str | None, account: quota.Account | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Reserve the model's size in the quota, keep the upload and start its graph job."""
    with quota.hold(store, account, len(got.model)):
        meta = documents.keep(store, data, got, filename=filename, owner=owner)
    builder = graph_job.graph_builder()
    job = graph_job.start_graph_job(runner, meta["id"], got.doc, builder=builder, semantic=semantic,
                                    stages=graph_job.graph_stages() if builder else (), tokens=got.tokens)
    return meta, job


def take_in(store: Store, runner: JobRunner, data: bytes, *, filename: str | None = None,
            doc: Document | None = None, limits: Limits = DEFAULT_LIMITS,
            semantic: bool = True, owner: str | None = None,
            account: quota.Account | None = None) -> tuple[dict[str, Any], Document, dict[str, Any]]:
    """Keep ``data`` (read here unless ``doc`` is its model already) under a new document id owned
    by ``owner`` (:func:`..store.documents.check_owner`; ``None``: a server without keys) and
    start its graph job; returns ``(meta, doc, job)``.

    The door holds the upload's own size in the client's quota before it is read; the model kept
    beside it (often larger than a compressed upload) is reserved in ``account``'s quota here,
    once it is known and before anything is stored.

    :raise adapters.errors.AdapterError: the bytes are not a readable .docx/.odt.
    :raise QuotaExceededError: the upload and its model would pass the quota; nothing is kept.
    """
    if doc is None:
        from adapters import read

        doc = read(data, path=None, limits=limits)
    got = _reading(doc)
    meta, job = _keep(store, runner, data, got, filename=filename, semantic=semantic, owner=owner, account=account)
    return meta, doc, job


def read_file(path: str, *, limits: Limits = DEFAULT_LIMITS) -> tuple[bytes, Document]:
    """The bytes of a document file and its model (the adapters' checks: exists, size, readable
    package).

    :raise adapters.errors.AdapterError: missing, too large, not a document, encrypted, …
    """
    from adapters import read, read_file_bytes

    data = read_file_bytes(path, limits=limits)  # read once: the model is of these bytes
    return data, read(data, path=path, limits=limits)
