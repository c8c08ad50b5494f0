"""Edit engines: the operations every engine produces, the offline rules engine and the LLM engine.

Importing this package (or ``rules``) never imports the Azure SDK; only ``LLMEngine`` calls do.
"""
from __future__ import annotations

from .engines import ENGINE_NAMES, AutoEngine, RulesEngine, select_engine
from .llm import LLMConfig, LLMEngine
from .operations import (
    EDIT_SCHEMA,
    RESPONSE_SCHEMA,
    apply_to_document,
    edit_from_spec,
    edits_from_json,
    edits_to_json,
    expand_rename,
    validate_edits,
)
from .proposal import ContextItem, Proposal, Usage

__all__ = [
    "ENGINE_NAMES",
    "EDIT_SCHEMA",
    "RESPONSE_SCHEMA",
    "AutoEngine",
    "ContextItem",
    "LLMConfig",
    "LLMEngine",
    "Proposal",
    "RulesEngine",
    "Usage",
    "apply_to_document",
    "edit_from_spec",
    "edits_from_json",
    "edits_to_json",
    "expand_rename",
    "select_engine",
    "validate_edits",
]
