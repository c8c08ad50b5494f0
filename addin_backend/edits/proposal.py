"""What an engine answers: the proposed edits, the units they target, why, and what it cost."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from adapters.model import Edit, Unit

__all__ = ["ContextItem", "Proposal", "Usage", "as_context"]


@dataclass
class Usage:
    """Tokens an LLM engine spent on one instruction, summed over every request it made."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    requests: int = 0
    model: str | None = None

    def add(self, prompt: int, completion: int, total: int | None = None) -> None:
        self.prompt_tokens += prompt
        self.completion_tokens += completion
        self.total_tokens += total if total is not None else prompt + completion

    def to_json(self) -> dict[str, Any]:
        return {
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
            "requests": self.requests,
            "model": self.model,
        }


@dataclass
class ContextItem:
    """One unit of the retrieved context and why it is there (edge type, rule, score)."""

    unit: Unit
    reason: str = ""
    score: float | None = None


@dataclass
class Proposal:
    """The answer of an engine to one instruction.

    ``edits`` are validated against the document they were proposed for; ``targets`` are the
    ids of the units the instruction is about; ``explanation`` says in words what will change.
    """

    edits: list[Edit]
    targets: list[str]
    explanation: str
    engine: str
    instruction: str = ""
    usage: Usage | None = None
    warnings: list[str] = field(default_factory=list)
    #: how the proposal's renames treat a term inside a name of its own (``renaming.NAME_POLICIES``);
    #: propagation and verification follow the same choice
    names: str = "auto"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "engine": self.engine,
            "instruction": self.instruction,
            "explanation": self.explanation,
            "targets": list(self.targets),
            "edits": [e.to_json() for e in self.edits],
        }
        if self.usage is not None:
            out["usage"] = self.usage.to_json()
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out


def as_context(items: Iterable[ContextItem | Unit | tuple[Unit, str]] | None) -> list[ContextItem]:
    """Normalise what retrieval hands over: ContextItems, bare Units, or (Unit, reason) pairs."""
    out: list[ContextItem] = []
    for item in items or ():
        if isinstance(item, ContextItem):
            out.append(item)
        elif isinstance(item, Unit):
            out.append(ContextItem(item))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Unit):
            out.append(ContextItem(item[0], str(item[1])))
        else:
            raise TypeError(f"a context item must be a ContextItem, a Unit or (Unit, reason), not {item!r}")
    return out
