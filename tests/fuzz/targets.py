"""The fuzz targets: each takes the fuzzer's bytes and raises only on a defect.

- ``package``: :func:`adapters.package.open_package` then every member through the hardened XML
  parser; only :class:`~adapters.errors.AdapterError` may come out.
- ``readers``: :func:`adapters.read` (both readers, by the package's format); AdapterError only.
- ``writers``: random valid operations (:mod:`.operations`) on a corpus document, written, then
  accepted and rejected: the edited text and the original. A writer may refuse an edit it cannot
  place (:class:`~adapters.errors.AnchorError`), nothing else.
- ``upload``: ``POST /api/v1/documents`` with a fuzzed media type, file name and body (raw or
  multipart): never a 5xx answer.
- ``writeback``: the parts LEDGER writes back (``docProps/custom.xml``, content types,
  relationships, settings, comments, people, core properties; ODT meta, manifest, styles) mutated
  in a real document (:mod:`.writeback`), then an apply's steps: read, write, embed the review
  record, read it back; AdapterError only. Not in the suite's short atheris run:
  ``test_writeback.py`` runs a repeatable few hundred of its mutations there.

The package-shaped targets mutate *inside* the zip (:func:`mutate_package`): one member's bytes
through libFuzzer's mutator, then zipped again, so the readers' XML code is reached rather than
the zip checksum.
"""
from __future__ import annotations

import io
import random
import zipfile
from typing import Callable

TARGETS = ("package", "readers", "writers", "upload", "writeback")
#: The targets of the suite's short run (``test_fuzz.py``).
SHORT_TARGETS = ("package", "readers", "writers", "upload")


def mutate_package(data: bytes, max_size: int, seed: int) -> bytes:
    """A libFuzzer custom mutator: change one member of a zip (or the bytes, if not a zip)."""
    import atheris

    rng = random.Random(seed)
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
        members = [(i, zf.read(i)) for i in infos]
    except Exception:
        return atheris.Mutate(data, max_size)
    if not members or rng.random() < 0.05:
        return atheris.Mutate(data, max_size)
    xml = [k for k, (i, _b) in enumerate(members) if i.filename.endswith((".xml", ".rels"))] or list(range(len(members)))
    k = rng.choice(xml)
    info, body = members[k]
    members[k] = (info, atheris.Mutate(body, max(len(body) * 2, 256)))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for i, b in members:
            out.writestr(i.filename, b, compress_type=i.compress_type)
    result = buf.getvalue()
    return result if len(result) <= max_size else atheris.Mutate(data, max_size)


def package(data: bytes) -> None:
    from adapters.errors import AdapterError
    from adapters.package import open_package

    try:
        pkg = open_package(data)
        for name in pkg.names:
            if name.endswith((".xml", ".rels")):
                pkg.xml(name)
    except AdapterError:
        pass


def readers(data: bytes) -> None:
    from adapters import AdapterError, read

    try:
        doc = read(data)
    except AdapterError:
        return
    doc.lines("accepted")
    doc.lines("rejected")


_DOCS: list = []


def _documents() -> list:
    if not _DOCS:
        from adapters import read

        from .seeds import seed_paths

        for path in seed_paths():
            data = path.read_bytes()
            _DOCS.append((path.name, data, read(data)))
    return _DOCS


def writers(data: bytes) -> None:
    import atheris

    from adapters.errors import AnchorError

    from .operations import concrete, random_edits, round_trip

    fdp = atheris.FuzzedDataProvider(data)
    docs = _documents()
    _name, original, doc = docs[fdp.ConsumeIntInRange(0, len(docs) - 1)]
    edits = concrete(doc, random_edits(doc, lambda lo, hi: fdp.ConsumeIntInRange(lo, hi)))
    if not edits:
        return
    try:
        round_trip(original, doc, edits)
    except AnchorError:  # the writer refuses what it cannot place: a 409 to the client, not a defect
        pass


_UPLOAD_TYPES = ("application/octet-stream", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                 "application/vnd.oasis.opendocument.text", "multipart/form-data", "text/plain", "",
                 "application/x-www-form-urlencoded", "application/json")
_CLIENT: list = []


def _client():
    if not _CLIENT:
        import tempfile

        from addin_backend.api import create_app
        from addin_backend.service import graph_job

        graph_job.graph_builder = lambda: None  # the route's parsing is the target, not the graph
        app = create_app({"TESTING": True, "DATA_DIR": tempfile.mkdtemp(prefix="ledger-fuzz-"),
                          "RATE_LIMIT": "off", "GRAPH_SEMANTIC": False, "MAX_UPLOAD_MB": 4})
        _CLIENT.append(app.test_client())
    return _CLIENT[0]


def upload_input(document: bytes, kind: int = 0, filename: bytes = b"seed.docx") -> bytes:
    """The upload target's input layout: media-type byte, file-name length, file name, body."""
    return bytes([kind % 256, len(filename) % 256]) + filename[:255] + document


def upload(data: bytes) -> None:
    client = _client()
    if len(data) < 2:
        return
    kind, n = data[0] % len(_UPLOAD_TYPES), data[1]
    filename = data[2:2 + n].decode("utf-8", "replace")
    body = data[2 + n:]
    media = _UPLOAD_TYPES[kind]
    if media == "multipart/form-data":
        r = client.post("/api/v1/documents", data={"file": (io.BytesIO(body), filename)}, content_type=media)
    else:
        r = client.post("/api/v1/documents", query_string={"filename": filename}, data=body,
                        content_type=media or None)
    if r.status_code >= 500:
        raise AssertionError(f"upload answered {r.status_code}: {r.get_data(as_text=True)[:300]}")
    r.close()


def mutate_writeback(data: bytes, max_size: int, seed: int) -> bytes:
    """A libFuzzer custom mutator: one to three write-back parts of the seed changed
    (:func:`.writeback.mutate`); an input that is not such a package gets libFuzzer's own."""
    import atheris

    from .writeback import mutate

    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
        out = mutate("x.odt" if "mimetype" in names else "x.docx", data, random.Random(seed))
    except Exception:
        return atheris.Mutate(data, max_size)
    return out if len(out) <= max_size else atheris.Mutate(data, max_size)


def writeback(data: bytes) -> None:
    from .writeback import write_back

    write_back(data)


def target(name: str) -> tuple[Callable[[bytes], None], Callable | None]:
    """The target function and its custom mutator (``None``: libFuzzer's own)."""
    return {
        "package": (package, mutate_package),
        "readers": (readers, mutate_package),
        "writers": (writers, None),
        "upload": (upload, None),
        "writeback": (writeback, mutate_writeback),
    }[name]
