"""Deterministic synthetic benchmark documents (.docx and .odt) with their ground truth.

>>> doc = build("5k", seed=0)
>>> doc.truth["format_independent"], doc.truth["units"][0]["kind"]
(True, 'title')
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .linker import GenerationError, link, truth
from .planner import plan
from .spec import Block

__all__ = [
    "SIZES", "GenerationError", "Synthetic", "build", "doc_name", "parse_size", "write", "write_package", "write_truth",
]

#: The paper's document sizes, in cl100k tokens.
SIZES = {"5k": 5_000, "10k": 10_000, "25k": 25_000, "50k": 50_000, "100k": 100_000}


@dataclass
class Synthetic:
    """One generated document: its blocks (for the writers) and its ground truth (JSON-ready)."""

    name: str
    blocks: list[Block]
    truth: dict


def parse_size(size: str | int) -> int:
    """``"10k"`` -> 10000; plain integers pass through.

    >>> parse_size("25k"), parse_size(1234)
    (25000, 1234)
    """
    if isinstance(size, int):
        return size
    s = size.strip().lower()
    if s in SIZES:
        return SIZES[s]
    return int(float(s[:-1]) * 1000) if s.endswith("k") else int(s)


def doc_name(size: str | int, seed: int = 0) -> str:
    """File stem of a document: ``synth-10k`` (seed 0) or ``synth-10k-s7``."""
    n = parse_size(size)
    label = f"{n // 1000}k" if n % 1000 == 0 else str(n)
    return f"synth-{label}" if seed == 0 else f"synth-{label}-s{seed}"


def build(size: str | int, seed: int = 0) -> Synthetic:
    """Generate a document of about ``size`` tokens; same size and seed, same document."""
    b = plan(parse_size(size), seed)
    refs = link(b)
    name = doc_name(size, seed)
    return Synthetic(name, b.blocks, truth(b, name, refs))


def write_truth(doc: Synthetic, out_dir: str | Path) -> Path:
    """Write ``<name>.truth.json`` into ``out_dir``."""
    path = Path(out_dir) / f"{doc.name}.truth.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc.truth, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def write_package(doc: Synthetic, out_dir: str | Path, fmt: str) -> Path:
    """Write ``<name>.docx`` or ``<name>.odt`` into ``out_dir``."""
    from .docx_writer import write_docx
    from .odt_writer import write_odt

    writers = {"docx": write_docx, "odt": write_odt}
    if fmt not in writers:
        raise ValueError(f"unknown format {fmt!r} (docx or odt)")
    path = Path(out_dir) / f"{doc.name}.{fmt}"
    path.parent.mkdir(parents=True, exist_ok=True)
    writers[fmt](doc.blocks, str(path), doc.truth["title"])
    return path


def write(doc: Synthetic, out_dir: str | Path, formats: tuple[str, ...] = ("docx", "odt")) -> dict[str, Path]:
    """Write the truth and one package per format into ``out_dir``; return the paths by format."""
    paths = {"truth": write_truth(doc, out_dir)}
    for fmt in formats:
        paths[fmt] = write_package(doc, out_dir, fmt)
    return paths
