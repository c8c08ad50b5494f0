"""The graph's stage names, in the order they run: a module of its own so that naming a scope
(:func:`addin_backend.service.graphs.stages_of`, a command's progress display) imports none of
the stages' detectors (a second ``ledger context`` loads a kept graph and builds nothing)."""
from __future__ import annotations

__all__ = ["STAGES", "NO_RELATED", "FAST_STAGES"]

#: Stages in the order they run; the first two need no model.
STAGES = ("contains", "references", "depends", "related")
#: Every stage but RELATED (no embedding model); FAST_STAGES need no model at all.
NO_RELATED = ("contains", "references", "depends")
FAST_STAGES = ("contains", "references")
