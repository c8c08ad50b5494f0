"""What a retrieval returns: the packed context, its cost, and what was left out."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["ContextItem", "ContextResult", "Weights"]


@dataclass(frozen=True)
class Weights:
    """Edge-type priorities (the paper's 100/50/30/10) and their decay per hop.

    Only the ordering matters (the paper's ablation, Table 10): any weights with
    REFERENCES > DEPENDS > CONTAINS > RELATED behave alike; a uniform assignment does not.
    """

    references: float = 100.0
    depends: float = 50.0
    contains: float = 30.0
    related: float = 10.0
    decay: float = 0.5
    max_hops: int = 2

    def of(self, edge_type: str) -> float:
        return {
            "REFERENCES": self.references,
            "DEPENDS": self.depends,
            "CONTAINS": self.contains,
            "RELATED": self.related,
        }.get(edge_type, 0.0)

    @classmethod
    def parse(cls, spec: str | None) -> "Weights":
        """``"REFERENCES=100,DEPENDS=50,CONTAINS=30,RELATED=10,decay=0.5,max_hops=2"`` (any subset).

        >>> Weights.parse("DEPENDS=80,decay=0.25").depends
        80.0
        """
        if not spec:
            return cls()
        values: dict[str, Any] = {}
        for part in spec.split(","):
            if not part.strip():
                continue
            key, _, val = part.partition("=")
            key = key.strip().lower()
            if key not in cls.__dataclass_fields__:
                raise ValueError(f"unknown weight {key!r}")
            values[key] = int(val) if key == "max_hops" else float(val)
        return cls(**values)


@dataclass
class ContextItem:
    """One unit in the packed context and why it is there."""

    id: str
    edge: str  # TARGET, REFERENCES, DEPENDS, CONTAINS, RELATED, WINDOW, SIMILAR, FULL
    hops: int
    priority: float
    tokens: int
    reason: str
    text: str
    kind: str = ""
    label: str | None = None
    direction: str = ""  # upstream (what the target needs) / downstream (what needs the target)
    summarised: bool = False
    #: Filler (nearby units, RELATED) packed after every dependency that fitted.
    background: bool = False

    def to_json(self, with_text: bool = True) -> dict[str, Any]:
        out = asdict(self)
        if not with_text:
            out.pop("text")
        return out


@dataclass
class ContextResult:
    """The retrieval's answer, in the ``ledger context --json`` shape."""

    strategy: str
    targets: list[str]
    context: list[ContextItem]
    tokens: int
    document_tokens: int
    budget: int | None
    dropped: list[dict[str, Any]] = field(default_factory=list)
    weights: dict[str, Any] | None = None
    candidates: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.context]

    @property
    def dependency_tokens(self) -> int:
        """Tokens of the targets and what they are tied to, without the background fill."""
        return sum(c.tokens for c in self.context if not c.background)

    @property
    def share(self) -> float:
        """Tokens given to the editor as a share of the whole document."""
        return self.tokens / self.document_tokens if self.document_tokens else 0.0

    def to_json(self, with_text: bool = True) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "targets": list(self.targets),
            "candidates": list(self.candidates),
            "context": [c.to_json(with_text) for c in self.context],
            "tokens": self.tokens,
            "dependency_tokens": self.dependency_tokens,
            "document_tokens": self.document_tokens,
            "budget": self.budget,
            "dropped": list(self.dropped),
            "weights": self.weights,
            "seconds": round(self.seconds, 6),
        }
