"""Generated blocks in hand-written Markdown: a benchmark rewrites only what lies between its
``<!-- TAG:start -->`` and ``<!-- TAG:end -->`` markers, so the prose around its figures stays."""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["replace_block", "link"]


def replace_block(path: Path, tag: str, body: str, heading: str) -> None:
    """Put ``body`` between ``tag``'s markers in ``path``; without markers, append them under a
    new ``## heading`` (so a fresh file gets the block too).

    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "x.md"
    >>> _ = p.write_text("# T\\n\\n<!-- b:start -->\\nold\\n<!-- b:end -->\\ntail\\n")
    >>> replace_block(p, "b", "new\\n", "B")
    >>> p.read_text()
    '# T\\n\\n<!-- b:start -->\\nnew\\n<!-- b:end -->\\ntail\\n'
    """
    start, end = f"<!-- {tag}:start -->", f"<!-- {tag}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{start}\n{body.rstrip()}\n{end}"
    if start in text and end in text.split(start, 1)[1]:
        head, rest = text.split(start, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = (text.rstrip() + "\n\n" if text.strip() else "") + f"## {heading}\n\n{block}\n"
    path.write_text(text, encoding="utf-8")


def link(target: Path, page: Path) -> str:
    """``target`` as a link from ``page``: relative, so the page renders in the repository.

    >>> link(Path("/r/benchmarks/results/a.png"), Path("/r/docs/benchmarks.md"))
    '../benchmarks/results/a.png'
    """
    return Path(os.path.relpath(target.resolve(), page.resolve().parent)).as_posix()
